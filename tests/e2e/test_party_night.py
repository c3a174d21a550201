"""A party night as it really goes (issue 38): one `tablegames serve --web`, friends over real
OpenSSH clients and phones in headless Chromium, two tables at once, a friend back in the
lobby mid-game, a dropped `ssh`, a late watcher. A spectator at every table (`night.py`)
watches for a table that waits on somebody who is not there for longer than the takeover
time and two seconds. Loopback only; every wait is bounded."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablegames.testing.metrics import record

from .friends import SshParty, back_to_the_lobby, open_table, play_turns, sit_down
from .night import Night
from .terminal import Terminal

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client"),
]
TAKEOVER = 2.0  # seconds before a bot stands in for somebody away
ALLOWED = TAKEOVER + 2.0  # the longest a table may wait on an absent player


class NightOut(SshParty):
    """The party server, its friends' terminals and the spectator that watches every table."""

    def __init__(self, env: dict[str, str], keys: Path) -> None:
        super().__init__(env, keys, "--takeover", str(TAKEOVER), "--pace", "0.05")
        self.night = Night(self.tcp_port, ALLOWED).start()

    def close(self) -> None:
        self.night.stop()
        super().close()


@pytest.fixture
def party(env: dict[str, str], tmp_path: Path) -> Iterator[NightOut]:
    with NightOut(env, tmp_path / "keys") as running:
        yield running


def back_at_their_seat(
    party: NightOut, friend: Terminal, name: str, *shown: str
) -> tuple[Terminal, float]:
    """Drop `friend`'s ssh and log in again: returns the new terminal and the seconds from the
    new `ssh` to their seat on screen (showing `shown`)."""
    party.drop(friend)
    time.sleep(0.5)  # (the server notices the connection is gone; nothing waits on this)
    began = time.monotonic()
    again = party.login(name)
    again.wait_for(f"{name} (you)", *shown, timeout=30)
    return again, time.monotonic() - began


def test_a_short_party_night_no_table_waits_on_anyone_who_left(party: NightOut) -> None:
    ann, bob = party.login("ann"), party.login("bob")
    open_table(ann, 0, "crates", ("Down", "Left"))  # players: 3 (crates offers 4 first)
    sit_down(bob)
    ann.wait_for("bob, ready", timeout=15)
    ann.keys("s")
    for friend, name in ((ann, "ann"), (bob, "bob")):
        friend.wait_for(f"{name} (you)", "Your hand", timeout=30)
    play_turns(ann, 3)

    # Ann goes back to the lobby mid-game and opens a second table: her crates seat is away,
    # a bot stands in, and bob's game goes on.
    back_to_the_lobby(ann)
    ann.wait_for("a bot plays meanwhile", timeout=20)
    open_table(ann, 1, "roach", ("Down", "Left"))  # players: 3 (roach offers 4 first)
    ann.keys("s")
    ann.wait_for("ann (you)", "Penalty pile", timeout=30)  # (whoever starts: ann or a bot)

    # Dropped connections come back to the table each was last at.
    bob, bob_back = back_at_their_seat(party, bob, "bob", "Your hand", "Crates")
    ann, ann_back = back_at_their_seat(party, ann, "ann", "Penalty pile")

    # A late friend sees the tables and watches one.
    cat = party.login("cat")
    cat.wait_for("Crates (3)", "playing", timeout=30)
    cat.keys("w")
    cat.wait_for("every hand stays hidden", timeout=20)

    # Bob plays on: the game comes round to the seat ann left, where a bot plays for her.
    play_turns(bob, 3 * ALLOWED)
    figures = party.night.figures()
    record("night", ssh_reconnect_s=round(max(bob_back, ann_back), 2), **{
        f"{code}_longest_absent_wait_s": table["longest_absent_wait_s"]
        for code, table in figures.items()
    })  # fmt: skip
    assert party.night.freezes() == [], figures
    assert {"crates", "roach"} <= party.night.games_seen(), figures
