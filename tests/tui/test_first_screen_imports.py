"""What `tablegames play` loads before a table's first screen: its game, Textual, the table's
own pieces; nothing of the network, and with `--no-save` nothing of the store (every module
loaded is start-up time). Asking to quit loads no more of them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tablegames.rules import declared
from tablegames.rules.plugins import own

#: A table on this machine opens without these: the SSH and browser doors, the servers, the
#: wire's messages and the client that follows a network table.
NETWORK = (
    "asyncssh",
    "aiohttp",
    "msgspec",
    "tablegames.net.client",
    "tablegames.net.ssh",
    "tablegames.net.server",
    "tablegames.serve",
    "tablegames.tui.follow",
)
#: A game played without saving opens without the store, its sqlite3 and the ratings.
STORE = ("sqlite3", "tablegames.store", "tablegames.ratings")
#: `tablegames play GAME --seed 1 --no-save` through the command line, its app run headless
#: (the test has no terminal): the modules loaded at the first screen, then at the question
#: `q` asks (past a question the table opens with).
FIRST_SCREEN = """
import asyncio, json, sys
import tablegames.tui.app as app_module
from tablegames.cli import main
from tablegames.tui.screens.game import GameScreen

def run_table(client, ascii=False, note=""):
    async def first_screen():
        app = app_module.TableGamesApp(client, ascii=ascii)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            first = sorted(sys.modules)
            for _ in range(100):  # q at the table; a question it opens with is put off first
                if type(app.screen).__name__ == "QuitDialog":
                    break
                await pilot.press("q" if isinstance(app.screen, GameScreen) else "escape")
                await pilot.pause(0.05)
            print(json.dumps({"first": first, "asked": sorted(sys.modules),
                              "screen": type(app.screen).__name__}))
    asyncio.run(first_screen())

app_module.run_table = run_table
sys.argv = ["tablegames", "play", sys.argv[1], "--seed", "1", "--no-save", "--pace", "60"]
main()
"""


@pytest.mark.parametrize("game", [declared(plugin.reference).name for plugin in own()])
def test_a_tables_first_screen_loads_nothing_of_the_network_nor_the_store(game, tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", FIRST_SCREEN, game],
        env={"PATH": "/usr/bin:/bin", "TABLEGAMES_HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.splitlines()[-1])
    assert f"tablegames.tui.screens.{game}" in loaded["first"]
    assert [name for name in loaded["first"] if name.startswith(NETWORK + STORE)] == []
    assert loaded["screen"] == "QuitDialog"
    assert [name for name in loaded["asked"] if name.startswith(NETWORK + STORE)] == []
