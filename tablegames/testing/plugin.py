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
import re
import sys
import tempfile
from collections.abc import Generator
from pathlib import Path
from types import TracebackType

import pytest

from ..rules import GAMES, get_game, load_games
from .where import Watch, game_of, own_frames, save_moves, watch_games, whereabouts

#: The failed tests of this run, in words, until its summary (`pytest_terminal_summary`).
FAILED: list[dict[str, str]] = []
#: The figures tests reported (the bots' strength), in words, to write with what failed.
FIGURES: list[str] = []
#: Where this run says how far it is (``--progress``), if anywhere.
PROGRESS: list[Path] = []


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
    group.addoption(
        "--bot-games",
        type=int,
        default=None,
        metavar="N",
        help="the bots part plays N games a matchup (default: up to a minute of CPU each, "
        "less once the level is surely stronger)",
    )
    group.addoption(
        "--progress",
        default=None,
        metavar="FILE",
        help="write how many tests there are, then each one done, to FILE (a line each)",
    )
    group.addoption(
        "--moves-dir",
        default=None,
        metavar="DIR",
        help="write the game of each failed test (seed, options, moves) to DIR",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_time_keys: screens keep their real settling times")
    config.addinivalue_line("markers", "slow: long-running test, excluded from the default run")
    config.addinivalue_line("markers", "strength: the bots' strength (the check plays it)")
    FAILED.clear()
    FIGURES.clear()
    progress = config.getoption("progress")
    PROGRESS[:] = [Path(progress)] if progress and not hasattr(config, "workerinput") else []
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


#: Where each running per-game test's games are watched (see `where.py`).
WATCHES = pytest.StashKey[Watch]()
#: The folder of this run's moves of failed tests, when none was named (`--moves-dir`).
MOVES_DIR = pytest.StashKey[str]()


@pytest.fixture(autouse=True)
def watched_games(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A per-game test's games are watched, to say where it failed (`where.py`)."""
    if "game_name" in request.fixturenames:
        request.node.stash[WATCHES] = watch_games(monkeypatch)


def pytest_runtest_setup(item: pytest.Item) -> None:
    # (A user property travels with the report, from an xdist worker too.)
    item.user_properties.append(("sentence", sentence(item)))
    item.user_properties.append(("test", test_name(item)))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    watch = item.stash.get(WATCHES, None)
    if report.failed and call.excinfo is not None and watch is not None:
        report.user_properties += where(item, watch, innermost(call.excinfo.value))
    return report


def innermost(problem: BaseException) -> TracebackType | None:
    """The traceback of what went wrong: in a group of exceptions (hypothesis raises one), its
    first one's."""
    while isinstance(problem, BaseExceptionGroup) and problem.exceptions:
        problem = problem.exceptions[0]
    return problem.__traceback__


def where(item: pytest.Item, watch: Watch, tb: TracebackType | None) -> list[tuple[str, str]]:
    """Where `item` failed, as user properties: the game's seed and moves (written to a file
    of the moves), and the last frames of the game's own code."""
    game_name = str(getattr(item, "funcargs", {}).get("game_name", ""))
    found: list[tuple[str, str]] = []
    played = game_of(watch, tb)
    if played is not None:
        folder = item.config.getoption("moves_dir") or _scratch(item.config)
        path = save_moves(played, Path(folder), item.name)
        found += [("played", played.words()), ("moves", str(path))]
    frames = own_frames(game_name, tb) if game_name else []
    if frames:
        found.append(("frames", "\n".join(frames)))
    return found


def _scratch(config: pytest.Config) -> str:
    """A folder for the moves of failed tests, made once per run and kept after it."""
    folder = config.stash.get(MOVES_DIR, None)
    if folder is None:
        folder = config.stash[MOVES_DIR] = tempfile.mkdtemp(prefix="tablegames-moves-")
    return folder


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.failed:
        FAILED.append(failure(report))
    said = dict(report.user_properties)
    if report.when == "call" and "figures" in said:
        FIGURES.append(str(said["figures"]))
    if report.when == "teardown":
        _progress("done")


def pytest_collection_finish(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # (an xdist worker: its controller says)
        _progress(f"total {len(session.items)}")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: object, ids: list[str]) -> None:
    _progress(f"total {len(ids)}")  # (each worker collects them all: the first said is read)


def _progress(line: str) -> None:
    for path in PROGRESS:
        with path.open("a", encoding="utf-8") as out:
            out.write(line + "\n")


def test_name(item: pytest.Item) -> str:
    """The test's node id from tablegames' folder (``tablegames/testing/matrix/...``), the same
    wherever the run was started from."""
    package = Path(__file__).resolve().parents[1]
    try:
        where = item.path.resolve().relative_to(package.parent)
    except ValueError:
        return item.nodeid
    return f"{where.as_posix()}::{item.name}"


def sentence(item: pytest.Item) -> str:
    """What a test checks, in the words its docstring opens with (else its name in words)."""
    function = getattr(item, "function", None)
    doc = (getattr(function, "__doc__", None) or "").strip()
    if doc:
        return " ".join(doc.split("\n\n")[0].split())
    name = getattr(item, "originalname", item.name)
    return name.removeprefix("test_").replace("_", " ").capitalize() + "."


#: An exception's line in a traceback ("IndexError: list index out of range").
EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit)\b")


def failure(report: pytest.TestReport) -> dict[str, str]:
    """A failed test as its game, its sentence and the last line of what went wrong."""
    game = ""
    if "[" in report.nodeid:
        game = report.nodeid.rsplit("[", 1)[1].rstrip("]").split("-")[0]
    lines = [line for line in str(report.longrepr).splitlines() if line.startswith("E ")]
    # (the exception's line; in a group of them, as hypothesis raises, the first one's)
    told = [line[1:].strip(" |+-") for line in lines]
    named = [line for line in told if EXCEPTION_LINE.match(line)]
    why = (named or told)[0] if told else str(report.longrepr).splitlines()[-1:][0]
    said = {str(name): str(value) for name, value in report.user_properties}
    return {
        "game": game,
        "test": said.get("test", report.nodeid),
        "sentence": said.get("sentence", report.nodeid),
        "why": why[:500],
        "when": report.when,
        **{key: said[key] for key in ("played", "moves", "frames") if key in said},
    }


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    path = config.getoption("sentences")
    if path:
        said = {"failed": FAILED, "figures": FIGURES}
        Path(path).write_text(json.dumps(said), encoding="utf-8")
    if not FAILED or not config.getoption("game"):
        return
    terminalreporter.section("what failed, in words")
    for found in FAILED:
        where = f"{found['game']}: " if found["game"] else ""
        terminalreporter.write_line(f"- {where}{found['sentence']}")
        terminalreporter.write_line(f"    {found['why']}")
        for line in whereabouts(found):
            terminalreporter.write_line(f"    {line}")
