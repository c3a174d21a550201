"""The test run's games from elsewhere, and fixtures of a recorded game.

The per-game matrix's pytest plugin (`tablegames/testing/plugin.py`, named in pyproject's
addopts) gives every test its own data directory (no test reads or writes the user's saves)
and screens that take keys the moment they are shown, unless a test asks for real time: a real
player's keys typed just after a question changes are dropped for a moment (see
`tablegames/tui/screens/typeahead.py`); tests that press one key after another as soon as the
screen is drawn check what the keys do, not that moment. Keys typed *before* a question
changed are still dropped. Tests of the moment itself (hurried players, keys typed ahead) are
marked `real_time_keys` and run with the real settling times.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

#: Games from outside the package, named the way a developer names one (`TABLEGAMES_GAMES`),
#: so every per-game test that reads the registry plays them too, here and in every process a
#: test starts (they find them on PYTHONPATH): Love Letter, and Sealed Bids (every seat bids
#: at once). Loaded below, as a program loads its games where it starts. (Skull is registered
#: by its own tests only, for their length: `tablegames check` runs the matrix on it.)
PLUGINS = ("tests.plugins.loveletter:LOVELETTER", "tests.plugins.sealedbids:SEALED_BIDS")
ROOT = str(Path(__file__).resolve().parent.parent)
for variable, values, separator in (
    ("TABLEGAMES_GAMES", PLUGINS, ","),
    ("PYTHONPATH", (ROOT,), os.pathsep),
):
    for value in values:
        if value not in os.environ.get(variable, "").split(separator):
            os.environ[variable] = separator.join(filter(None, [os.environ.get(variable), value]))

#: Every program a test starts (hosts, clients, the programs in its terminals) imports this
#: package, and under a shell's PYTHONDONTWRITEBYTECODE (this development machine exports it)
#: each compiled its modules from source again: a fifth of a second of CPU for a screen's 85
#: modules. They write their byte-code, as `bench/startup.py`'s timed programs do.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

#: A run started in the background or under `nohup` inherits SIGINT and SIGHUP ignored, and so
#: would every program a test starts: a host would not stop on Ctrl-C nor a session on a
#: hang-up (seen: nine tests failed so). Tests send them as a person would: the defaults back.
for number, handler in (
    (signal.SIGINT, signal.default_int_handler),
    (signal.SIGHUP, signal.SIG_DFL),
):
    if signal.getsignal(number) == signal.SIG_IGN:
        signal.signal(number, handler)

from tablegames.net.protocol import Connection  # noqa: E402
from tablegames.rules import State, load_games  # noqa: E402

# Where a program starts, it loads the games from elsewhere: this one is the test run.
assert load_games() == [], "a game the tests name could not be loaded"
# Bots' look-ahead states skip the check of each action against `legal` in play (`trusted`):
# here they are checked, so that every bot test also proves its look-ahead plays legal moves.
State.checking = True
# Every message sent is decoded as its peer will (off in play: `Connection.checking`).
Connection.checking = True


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` (the default run) starts one worker more than there are cores: a quarter of a
    run waits on sockets, terminals, browsers and keys typed in real time, so a third worker on
    two cores took the default run from 537 s to 369 s. PYTEST_XDIST_AUTO_NUM_WORKERS still
    decides when it is set (xdist's own hook reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return (os.cpu_count() or 1) + 1


#: How long a slow test may run before it fails with its stack (the default run's tests: 300 s,
#: pyproject's `timeout`). A whole crates game between two SSH players takes minutes.
SLOW_TIMEOUT = 1800


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Slow tests (`-m slow`) get `SLOW_TIMEOUT`, unless they name a timeout of their own; every
    test that drives a real terminal, OpenSSH or Chromium is `e2e` (`-m e2e` runs those alone,
    `-m "not e2e"` the in-process ones; the default run and `.ci/run` run both)."""
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))
        folder = item.path.relative_to(ROOT).parts[1:2]
        real = folder in (("e2e",), ("web",)) or "chromium" in getattr(item, "fixturenames", ())
        if real and not item.get_closest_marker("e2e"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A finished crates game saved in a store, once per module (`tests/test_replay.py`)."""
    from .test_replay import record_game

    return record_game(tmp_path_factory.mktemp("replay") / "x.db")


@pytest.fixture
def replay(recorded: Any) -> Any:
    """The recorded game, loaded for stepping through."""
    from tablegames.replay import Replay

    return Replay.load(recorded.store, recorded.table_id)
