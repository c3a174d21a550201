"""The pytest plugin of the per-game matrix: which games it plays, the fixtures every test of
it needs, and what failed, in sentences.

Every test of the matrix (`tablegames/testing/matrix/`) takes a `game_name`: this plugin gives
it every registered game, or only those named with ``--game NAME`` (what `check_game` runs).
Its fixtures give each test a data directory of its own (no test reads or writes a player's
saves) and screens that take keys the moment they are shown (tests marked `real_time_keys`
keep the real settling times; see `tui/screens/typeahead.py`). After the run, each failed test
is said as the sentence its docstring opens with, and written to ``--sentences FILE`` as JSON.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from ..rules import GAMES, get_game, load_games

#: The failed tests of this run, in words, until its summary (`pytest_terminal_summary`).
FAILED: list[dict[str, str]] = []


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tablegames")
    group.addoption(
        "--game",
        action="append",
        default=[],
        metavar="NAME",
        help="play the per-game tests for this game only (repeatable; default: every game)",
    )
    group.addoption(
        "--sentences", default=None, metavar="FILE", help="write what failed to FILE as JSON"
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_time_keys: screens keep their real settling times")
    config.addinivalue_line("markers", "slow: long-running test, excluded from the default run")
    FAILED.clear()
    # A test run is a program like any: its games from elsewhere are loaded as it starts (an
    # initial conftest may have named some in TABLEGAMES_GAMES first).
    for problem in load_games():
        print(problem, file=sys.stderr)


def chosen_games(config: pytest.Config) -> list[str]:
    """The games the matrix plays in this run: those named with --game, else every one."""
    named: list[str] = config.getoption("game")
    for name in named:
        get_game(name)  # KeyError naming the games there are
    return named or sorted(GAMES)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game_name" in metafunc.fixturenames:
        metafunc.parametrize("game_name", chosen_games(metafunc.config))


@pytest.fixture(autouse=True)
def private_data_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A data directory of the test's own (saves, seat tokens, problems.log)."""
    monkeypatch.setenv("TABLEGAMES_HOME", str(tmp_path_factory.mktemp("home")))


@pytest.fixture(autouse=True)
def instant_screens(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Screens take keys the moment they are shown, unless the test is `real_time_keys`."""
    from ..tui.screens import typeahead

    if request.node.get_closest_marker("real_time_keys") is None:
        monkeypatch.setattr(typeahead, "SETTLE_SCALE", 0.0)


def pytest_runtest_setup(item: pytest.Item) -> None:
    # (A user property travels with the report, from an xdist worker too.)
    item.user_properties.append(("sentence", sentence(item)))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.failed:
        FAILED.append(failure(report))


def sentence(item: pytest.Item) -> str:
    """What a test checks, in the words its docstring opens with (else its name in words)."""
    function = getattr(item, "function", None)
    doc = (getattr(function, "__doc__", None) or "").strip()
    if doc:
        return " ".join(doc.split("\n\n")[0].split())
    name = getattr(item, "originalname", item.name)
    return name.removeprefix("test_").replace("_", " ").capitalize() + "."


def failure(report: pytest.TestReport) -> dict[str, str]:
    """A failed test as its game, its sentence and the last line of what went wrong."""
    game = ""
    if "[" in report.nodeid:
        game = report.nodeid.rsplit("[", 1)[1].rstrip("]").split("-")[0]
    lines = [line for line in str(report.longrepr).splitlines() if line.startswith("E ")]
    why = lines[0][1:].strip() if lines else str(report.longrepr).splitlines()[-1:][0]
    return {
        "game": game,
        "test": report.nodeid,
        "sentence": str(dict(report.user_properties).get("sentence", report.nodeid)),
        "why": why[:500],
        "when": report.when,
    }


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    path = config.getoption("sentences")
    if path:
        Path(path).write_text(json.dumps(FAILED), encoding="utf-8")
    if not FAILED or not config.getoption("game"):
        return
    terminalreporter.section("what failed, in words")
    for found in FAILED:
        where = f"{found['game']}: " if found["game"] else ""
        terminalreporter.write_line(f"- {where}{found['sentence']}")
        terminalreporter.write_line(f"    {found['why']}")
