"""What `tablegames play` loads before a table's first screen: its game, Textual, the table's
own pieces; nothing of the network (every module loaded is start-up time)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tablegames.rules import declared
from tablegames.rules.plugins import own

#: A table on this machine opens without these: the SSH and browser doors, the servers.
NETWORK = ("asyncssh", "aiohttp", "tablegames.net.ssh", "tablegames.net.server", "tablegames.serve")
FIRST_SCREEN = """
import asyncio, json, sys
import tablegames.cli
from tablegames.local import local_table
from tablegames.rules import get_game
from tablegames.tui.app import TableGamesApp

async def first_screen(game):
    client = local_table(game, get_game(game).min_players, seed=1, pace=60.0)
    async with TableGamesApp(client).run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        print(json.dumps(sorted(sys.modules)))

asyncio.run(first_screen(sys.argv[1]))
"""


@pytest.mark.parametrize("game", [declared(plugin.reference).name for plugin in own()])
def test_a_tables_first_screen_loads_nothing_of_the_network(game, tmp_path):
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
    assert f"tablegames.tui.screens.{game}" in loaded
    assert [name for name in loaded if name.startswith(NETWORK)] == []
