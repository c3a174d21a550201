"""Games from elsewhere join the registry once, where a program starts: from installed packages'
entry points (``tablegames.games``) or TABLEGAMES_GAMES, each failure a sentence with its real
exception; a party's sessions load exactly the server's games."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tablegames.rules import GAMES
from tablegames.rules.plugins import (
    LOADED,
    REGISTRY,
    VARIABLE,
    Plugin,
    found,
    load_plugin,
    registry_environment,
)
from tablegames.serve import session_environment

ROOT = Path(__file__).resolve().parents[2]
LOVELETTER = "tests.plugins.loveletter:LOVELETTER"
BUILT_IN = ["crabs", "crates", "kraken", "roach"]
BUILT_IN_ORDER = ["crates", "roach", "crabs", "kraken"]  # as menus list them

A_GAME = """
from tablegames.rules import Game, State
from tablegames.testing.harness import until

class Nothing(State):
    pass

GAME = Game("{name}", "{title}", 2, 4, 2, "A game of nothing.", Nothing)
"""


def python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )


def listed_rows(env: dict[str, str]) -> list[str]:
    """The rows of the table `tablegames list` shows in a program started with `env`."""
    done = subprocess.run(
        [sys.executable, "-m", "tablegames", "list"],
        env={**env, "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return [line.strip("│ ") for line in done.stdout.splitlines() if "│" in line]


def listed(env: dict[str, str]) -> list[str]:
    """The games `tablegames list` lists in a program started with `env`, by name."""
    return [row.split()[0] for row in listed_rows(env)]


def test_importing_the_rules_reads_no_environment_and_prints_nothing(tmp_path):
    named = f"{LOVELETTER},nowhere.at_all:GAME"
    env = {**os.environ, VARIABLE: named, "TABLEGAMES_HOME": str(tmp_path)}
    done = python("import tablegames.rules as r; print(sorted(r.GAMES))", env)
    assert done.returncode == 0, done.stderr
    assert (done.stdout.strip(), done.stderr) == (str(BUILT_IN), "")


def test_a_plugin_that_imports_the_rules_as_it_is_imported_is_not_taken_for_no_game(tmp_path):
    # It once read "does not name a game": importing the plugin imported tablegames.rules, which
    # loaded TABLEGAMES_GAMES, which found the plugin half imported, without its GAME yet.
    (tmp_path / "selfish.py").write_text(A_GAME.format(name="selfish", title="Selfish"))
    env = {
        **os.environ,
        VARIABLE: "selfish:GAME",
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
        "TABLEGAMES_HOME": str(tmp_path),
    }
    imported = python("import selfish; print(selfish.GAME.title)", env)
    assert (imported.stdout, imported.stderr) == ("Selfish\n", "")
    assert listed(env) == [*BUILT_IN_ORDER, "selfish"]


@pytest.mark.parametrize(
    ("module", "reference", "said"),
    [
        (
            "import tablegames.rules\nraise RuntimeError('the deck file is missing')",
            "broken:GAME",
            "RuntimeError: the deck file is missing",
        ),
        ("import missing_dependency_of_a_game", "broken:GAME", "No module named 'missing_dep"),
        ("X = 1", "broken:GAME", "ImportError: the module broken has no GAME"),
        ("GAME = 3", "broken:GAME", "TypeError: broken:GAME is a int, not a tablegames Game"),
        (A_GAME.format(name="crates", title="Crates 2"), "broken:GAME", "already called 'crates'"),
    ],
    ids=["raises", "lacks-a-module", "no-such-name", "not-a-game", "a-taken-name"],
)
def test_a_plugin_that_cannot_load_is_one_sentence_with_its_real_exception(
    module, reference, said, tmp_path, monkeypatch
):
    (tmp_path / "broken.py").write_text(module)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "broken", raising=False)
    games = dict(GAMES)
    sentence = load_plugin(Plugin(reference, VARIABLE))
    assert sentence is not None and said in sentence
    assert sentence.startswith(f"tablegames: the game {reference!r} (from {VARIABLE}) could not")
    assert sentence.endswith("; playing without it.")
    assert games == GAMES and GAMES["crates"].title == "Crates"


def test_an_installed_packages_entry_point_is_found_and_loaded(tmp_path, monkeypatch):
    (tmp_path / "boxed.py").write_text(A_GAME.format(name="boxed", title="Boxed"))
    info = tmp_path / "boxed_game-1.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: boxed-game\nVersion: 1.2\n")
    (info / "entry_points.txt").write_text("[tablegames.games]\nboxed = boxed:GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins = found({})
    boxed = Plugin("boxed:GAME", "the package boxed-game 1.2 (entry point 'boxed')")
    assert boxed in plugins
    assert found({VARIABLE: LOVELETTER}) == [*plugins, Plugin(LOVELETTER, VARIABLE)]
    # A party's session loads the registry it is given, and reads no entry point.
    assert found({REGISTRY: LOVELETTER, VARIABLE: "other:GAME"}) == [
        Plugin(LOVELETTER, "the party server's registry")
    ]
    monkeypatch.setattr("tablegames.rules.plugins.LOADED", list(LOADED))
    monkeypatch.delitem(GAMES, "boxed", raising=False)
    try:
        assert load_plugin(boxed) is None
        assert GAMES["boxed"].title == "Boxed"
    finally:
        GAMES.pop("boxed", None)


def test_sessions_are_given_exactly_the_servers_games_and_load_them(tmp_path):
    # The suite loaded Love Letter from TABLEGAMES_GAMES (conftest.py), as a server would.
    assert Plugin(LOVELETTER, VARIABLE) in LOADED
    env = session_environment()
    named = f"{LOVELETTER},tests.plugins.sealedbids:SEALED_BIDS"
    assert env[REGISTRY] == named == registry_environment()[REGISTRY]
    assert env["PYTHONPATH"] == str(ROOT)  # where it was imported from
    assert VARIABLE not in env
    games = listed({**env, "TABLEGAMES_HOME": str(tmp_path)})
    assert games == [*BUILT_IN_ORDER, "loveletter", "sealedbids"]


async def test_a_session_given_a_table_of_a_game_it_lacks_is_back_in_the_lobby_saying_why(
    monkeypatch,
):
    # Watching such a table ended the session ("Sorry: something went wrong", an
    # AssertionError), and sitting down closed the connection.
    from tablegames.net.server import Server, ServerConfig
    from tablegames.testing.harness import until
    from tablegames.testing.screens import screen_text
    from tablegames.tui.screens.lobby import LobbyScreen

    from ..tui.served import sara_at

    server = Server(ServerConfig(port=0, bot_pace=0.0))
    lacking = server.add_table("loveletter", 2, fill_with_bots="random")
    await server.start()
    monkeypatch.delitem(GAMES, "loveletter")  # this program lacks it; the server has it
    async with sara_at(server, lobby=True) as (remote, app, pilot):
        await until(lambda: "Love Letter (2)" in screen_text(app), pilot=pilot)
        said = "This table plays loveletter, which is not installed here"
        for key in ("w", "enter"):  # watch it, then sit down at it
            await pilot.press(key)
            await until(lambda: said in screen_text(app), pilot=pilot)
            assert isinstance(app.screen, LobbyScreen) and remote.connected
            assert app.return_code is None and not app.problems
        assert all(seat.peer is None for seat in lacking.seats)


def test_tablegames_without_its_metadata_has_no_game_and_says_how_to_install_it(tmp_path):
    # Its games are its entry points (pyproject.toml): a copy that was never installed, or was
    # installed before they were declared, reads none of them.
    (tmp_path / "tablegames").symlink_to(ROOT / "tablegames")
    code = "import tablegames.rules as r; print(sorted(r.GAMES)); print(r.load_games({}))"
    done = subprocess.run(
        [sys.executable, "-S", "-c", code],  # (-S: no site-packages, so no metadata)
        env={"PYTHONPATH": str(tmp_path), "TABLEGAMES_HOME": str(tmp_path)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    games, problems = done.stdout.splitlines()
    assert games == "[]"
    assert "install it (`pip install -e .` in a clone)" in problems


def test_a_bundled_games_declaration_imported_first_finds_the_rules_whole(tmp_path):
    # It imports the rules, which registered tablegames' own games, its own among them, while
    # it was half imported: "the module tablegames.bundled.crates has no GAME".
    code = (
        "from tablegames.bundled.crates import GAME\n"
        "import tablegames.rules as rules\n"
        "print(list(rules.GAMES), rules.GAMES['crates'] is GAME)"
    )
    done = python(code, {**os.environ, "TABLEGAMES_HOME": str(tmp_path)})
    assert (done.stdout.strip(), done.stderr) == (f"{BUILT_IN_ORDER} True", "")


def test_a_program_reads_the_packages_entry_points_once_as_it_starts(tmp_path):
    # Importing tablegames read its own entry points, then the command line read every
    # package's again (each folder on the module path listed twice): start-up time, twice.
    code = """
import builtins, collections, io, json, os, sys
listed, opened = collections.Counter(), collections.Counter()
listdir, open_ = os.listdir, builtins.open
def counted_listdir(path="."):
    listed[str(path)] += 1
    return listdir(path)
def counted_open(file, *args, **kwargs):
    if str(file).endswith(("entry_points.txt", "METADATA", "PKG-INFO")):
        opened[str(file)] += 1
    return open_(file, *args, **kwargs)
os.listdir, builtins.open, io.open = counted_listdir, counted_open, counted_open
import tablegames.cli
os.listdir, builtins.open, io.open = listdir, open_, open_
print(json.dumps({"listed": listed, "opened": opened, "path": sys.path}))
"""
    done = python(code, {**os.environ, "TABLEGAMES_HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    read = json.loads(done.stdout)
    assert any(file.endswith("entry_points.txt") for file in read["opened"])
    assert [path for path, times in read["listed"].items() if times > 1] == []
    assert [file for file, times in read["opened"].items() if times > 1] == []
    assert {entry or "." for entry in read["path"] if os.path.isdir(entry or ".")} <= set(
        read["listed"]
    )
