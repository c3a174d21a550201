"""The party server as friends use it (issue 16): plain `ssh` into the lobby, a table opened
there, a game, a dropped connection and back, a spectator, a resize; at length a whole game
and a rematch. Real `tablegames serve` and real OpenSSH clients in tmux, on loopback only."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablegames.testing.metrics import record
from tablegames.tui.screens.results import SETTLE_SECONDS

from ..net.ssh_harness import (
    SshClients,
    descendants,
    make_key,
    on_a_terminal,
    ssh_client_pid,
    ssh_command,
    wait_until,
)
from .processes import start_serve
from .terminal import Terminal

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client"),
]


class Party:
    """A running party server and the friends' ssh terminals."""

    def __init__(self, env: dict[str, str], keys: Path, takeover: float = 600) -> None:
        self.serve, self.ssh_port, self.tcp_port = start_serve(
            env, "--takeover", str(takeover), "--pace", "0.05"
        )
        self.clients = SshClients(env)
        self.keys = keys

    def login(
        self, name: str, width: int = 100, height: int = 30, keyless: bool = False
    ) -> Terminal:
        key = None if keyless else self.keys / name
        if key is not None and not key.exists():
            make_key(self.keys, name)
        command = ssh_command(self.ssh_port, name, key)
        return self.clients.open(command, width, height)

    def sessions(self) -> list[int]:
        """The pids of the session programs the server runs now."""
        return [pid for pid in descendants(self.serve.pid) if on_a_terminal(pid)]

    def stop(self) -> None:
        self.serve.send_signal(signal.SIGINT)
        self.serve.wait(timeout=15)

    def close(self) -> None:
        self.clients.close()
        self.serve.send_signal(signal.SIGINT)
        try:
            self.serve.wait(timeout=15)
        except Exception:
            self.serve.kill()


@pytest.fixture
def party(env: dict[str, str], tmp_path: Path) -> Iterator[Party]:
    keys = tmp_path / "keys"
    keys.mkdir()
    running = Party(env, keys)
    yield running
    running.close()


def open_table(ann: Terminal) -> None:
    """In the lobby: a new table of crates for 3, short, normal bots."""
    ann.wait_for("No tables yet", timeout=30)
    ann.keys("n")
    ann.wait_for("A new table", timeout=10)
    ann.keys("Down", "Left", "Down", "Down", "Right")  # 3 players; short game: yes
    ann.wait_for("yes", timeout=5)
    ann.keys("Enter")
    ann.wait_for("or s to start now", timeout=15)


def sit_down(friend: Terminal) -> None:
    friend.wait_for("Crates (3)", timeout=30)
    friend.keys("Enter")
    friend.wait_for("Press r when you are ready", timeout=15)
    friend.keys("r")


def test_friends_meet_in_the_lobby_over_ssh_play_drop_out_and_come_back(party):
    ann, bob = party.login("ann"), party.login("bob")
    open_table(ann)
    sit_down(bob)
    ann.wait_for("bob, ready", timeout=15)
    assert "free (a normal bot if nobody comes)" in ann.screen()
    ann.keys("s")
    for friend, name in ((ann, "ann"), (bob, "bob")):
        friend.wait_for("round 1 of 8", f"{name} (you)", "Bot 3", "Your hand", timeout=30)

    # A spectator sees the table and no hand.
    cat = party.login("cat")
    cat.wait_for("playing", timeout=30)
    cat.keys("w")
    screen = cat.wait_for("every hand stays hidden", "round 1 of 8", timeout=20)
    assert "Your hand" not in screen

    # Bob's connection dies mid-game; the same key brings him back to his seat.
    os.kill(ssh_client_pid(bob), signal.SIGKILL)
    ann.wait_for("Away: bob", timeout=20)
    bob_again = party.login("bob")
    bob_again.wait_for("bob (you)", "Your hand", timeout=30)
    ann.wait_gone("Away: bob", timeout=20)

    # A resized terminal redraws to its new size.
    ann.resize(130, 36)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        rows = ann.screen().splitlines()
        if rows and len(rows[0].rstrip()) > 110:
            break
        time.sleep(0.2)
    assert len(ann.screen().splitlines()[0].rstrip()) > 110, ann.screen()


def take_turn_if_mine(friend: Terminal) -> None:
    """If it is this player's turn, play the first card that fits (naming the first suit when
    asked), else draw; close a round's summary if one is up."""
    screen = friend.screen()
    summary = "Hand left" in screen
    if summary or "Name a suit" in screen or "yours to name" in screen:
        friend.keys("Enter")
    elif "your turn" in screen:
        for number in range(1, 10):
            friend.keys(str(number), after=0.05)  # (picking a card asks nothing new)
            time.sleep(0.05)
            if "Enter plays" in friend.screen():
                friend.keys("Enter")
                return
        friend.keys("d")


@pytest.mark.slow
def test_two_ssh_players_and_a_bot_play_a_whole_game_then_a_rematch(party):
    ann, bob = party.login("ann"), party.login("bob")
    open_table(ann)
    sit_down(bob)
    ann.wait_for("bob, ready", timeout=15)
    ann.keys("s")
    ann.wait_for("round 1 of 8", timeout=30)
    playing = [ann, bob]
    deadline = time.monotonic() + 600
    while playing and time.monotonic() < deadline:
        for friend in list(playing):
            if "Rematch (r)" in friend.screen():
                playing.remove(friend)  # the game is over for this one
            else:
                take_turn_if_mine(friend)
        time.sleep(0.1)
    final = ann.wait_for("Rematch (r)", timeout=5)
    assert "Game over" in final and "Back to the lobby (m)" in final
    time.sleep(SETTLE_SECONDS)  # the dialog drops keys at first (an Enter meant for a move)
    assert "waiting for the others" not in ann.screen()  # no rematch asked for unseen
    ann.keys("r")
    bob.wait_for("Rematch (r)", timeout=5)
    time.sleep(SETTLE_SECONDS)
    bob.keys("r")
    for friend in (ann, bob):
        friend.wait_for("round 1 of 8", timeout=30)  # the same seats, a new deal


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def test_a_huge_terminal_costs_a_session_no_more_than_a_screen_and_stopping_restores_it(party):
    """stty cols 9999 rows 9999, then ssh: the session draws at most a screen's worth (it took
    1.2 GB); once the server stops, the terminal is back from the alternate screen."""
    ssh = shlex.join(ssh_command(party.ssh_port, "big", None))
    big = party.clients.open(["sh", "-c", f"stty cols 9999 rows 9999; {ssh}"], 100, 30)
    # (tmux shows 30 rows of the 240 the lobby is drawn in: its last ones)
    big.wait_for("n opens a new table", "Nobody has said anything", timeout=30)
    (session,) = party.sessions()
    size = rss_mb(session)
    assert size < 300, f"the session takes {size:.0f} MB"
    limits = Path(f"/proc/{session}/limits").read_text()
    assert "Max data size             268435456" in limits  # 256 MB, whatever it asks for
    record("hostile", max_session_rss_mb=round(size), session_memory_cap_mb=256)
    assert pane_flag(big, "alternate_on") == "1"
    party.stop()
    screen = big.wait_for("The host has closed the table server.", timeout=20)
    assert pane_flag(big, "alternate_on") == "0" and pane_flag(big, "mouse_any_flag") == "0"
    assert "Traceback" not in screen


def pane_flag(terminal: Terminal, flag: str) -> str:
    shown = subprocess.run(
        ["tmux", "display-message", "-p", "-t", terminal.name, f"#{{{flag}}}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return shown.stdout.strip()


def test_a_keyless_guest_who_drops_gets_their_seat_back_and_q_asks_first(party):
    fay = party.login("fay", keyless=True)
    open_table(fay)
    fay.keys("s")
    fay.wait_for("guest-fay (you)", "Your hand", timeout=30)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        screen = fay.screen()
        if any(asked in screen for asked in ("Name a suit", "yours to name", "Hand left")):
            fay.keys("Enter")  # a question of the deal's first (a suit to name)
            time.sleep(0.3)
            continue
        fay.keys("q")  # at a table, q asks: back to the lobby, or leave the party
        # (unless the deal's question came just then, on a busy machine: answered next time)
        if "Lobby (m)" in fay.wait_for_any("Lobby (m)", "There is no option q", timeout=10):
            break
    fay.wait_for("Lobby (m)", "Keep playing (n)", timeout=10)
    fay.keys("n")
    fay.wait_gone("Lobby (m)", timeout=10)
    os.kill(ssh_client_pid(fay), signal.SIGKILL)  # the phone drops
    wait_until(lambda: len(party.sessions()) == 0, timeout=20, what="the session ending")
    again = party.login("fay", keyless=True)  # the same name, from the same address
    screen = again.wait_for("guest-fay (you)", "Your hand", timeout=30)
    assert "already at this table" not in screen


def back_to_the_lobby(friend: Terminal) -> None:
    """At a table: q, then m (answering the deal's first question if it comes first)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        screen = friend.screen()
        if any(asked in screen for asked in ("Name a suit", "yours to name", "Hand left")):
            friend.keys("Enter")
            time.sleep(0.3)
            continue
        friend.keys("q")
        if "Lobby (m)" in friend.wait_for_any("Lobby (m)", "There is no option q", timeout=10):
            break
    friend.keys("m")


def test_a_friend_back_in_the_lobby_mid_game_is_played_for_then_sits_back_down(
    env: dict[str, str], tmp_path: Path
):
    """Issue 38: `q`, `m` in the middle of a game left the table waiting for ever. Now the
    seat is away: a bot plays it after the takeover time, the others' game goes on, and
    Enter on the table in the lobby brings its player back to it."""
    keys = tmp_path / "keys"
    keys.mkdir()
    party = Party(env, keys, takeover=2)
    try:
        ann, bob = party.login("ann"), party.login("bob")
        open_table(ann)
        ann.keys("s")
        ann.wait_for("round 1 of 8", "ann (you)", "Your hand", timeout=30)
        bob.wait_for("playing", timeout=30)
        bob.keys("w")  # bob watches: the table is live while he is there
        bob.wait_for("every hand stays hidden", "round 1 of 8", timeout=20)
        back_to_the_lobby(ann)
        ann.wait_for("Tables", "a bot plays meanwhile", timeout=20)
        assert "Joining table" not in ann.screen()
        bob.wait_for("round 2 of 8", timeout=120)  # the game went on without her
        ann.keys("Enter")
        ann.wait_for("ann (you)", "Your hand", timeout=30)
        bob.wait_for("ann is back", timeout=20)
    finally:
        party.close()
