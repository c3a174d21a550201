"""The night's standings over plain `ssh` (issue 43): a game at a real `tablegames serve`
(its player's connection drops at the deal; a bot plays their seat to the end), then `s` in the
lobby shows everyone's games, wins and rating for the night: every bot seat a player of its
own, and the stand-in's win, not hers (issue 47). Real OpenSSH clients in tmux, on loopback."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..net.ssh_harness import wait_until
from .friends import SshParty, open_short_crates

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client"),
]


class Night(SshParty):
    """A party server whose bots play a dropped player's seat at once, and ssh terminals."""

    def __init__(self, env: dict[str, str], keys: Path) -> None:
        super().__init__(env, keys, "--takeover", "0.5", "--pace", "0.01")
        self.home = Path(env["TABLEGAMES_HOME"])

    def games_finished(self) -> int:
        with sqlite3.connect(self.home / "tablegames.db") as db:
            (count,) = db.execute(
                "SELECT COUNT(*) FROM game_tables WHERE finished IS NOT NULL"
            ).fetchone()
        return int(count)


@pytest.fixture
def night(env: dict[str, str], tmp_path: Path) -> Iterator[Night]:
    with Night(env, tmp_path / "keys") as running:
        yield running


def test_the_lobby_shows_the_nights_standings_over_ssh(night):
    ann = night.login("ann")
    ann.wait_for("s Standings", timeout=30)
    ann.keys("s")
    ann.wait_for("No game has finished since the server started", timeout=10)
    ann.keys("Escape")
    ann.wait_gone("No game has finished", timeout=10)
    open_short_crates(ann)
    ann.keys("s")
    ann.wait_for("Your hand", timeout=30)
    night.drop(ann)  # her connection dies; a bot plays on for her
    wait_until(lambda: night.games_finished() == 1, timeout=120, what="the game ending")
    back = night.login("ann")
    # (the finished table is listed only while someone is at it: she may find it gone)
    back.wait_for("s Standings", timeout=30)
    back.keys("s")
    screen = back.wait_for("Tonight's standings", "Crates", "normal bot 3", timeout=10)
    standings = screen[screen.index("Tonight's standings") :].splitlines()
    rows = [line for line in standings if "normal bot" in line]
    assert len(rows) == 3, screen  # three bot seats, three players: her stand-in among them
    for line in rows:  # one game each
        name = next(n for n in ("normal bot 3", "normal bot 2", "normal bot") if n in line)
        assert line[line.index(name) + len(name) :].split()[0] == "1", screen
    assert not any("ann" in line.split() for line in standings), screen  # no move: not hers
    assert "Traceback" not in screen
