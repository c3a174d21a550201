"""A party server over OpenSSH and what friends do at it, for the end-to-end tests: a running
`tablegames serve` whose guests log in with real `ssh` clients in tmux (loopback only), and the
moves a friend makes in the lobby and at a crates table."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import Self

from ..net.ssh_harness import (
    SshClients,
    descendants,
    make_key,
    on_a_terminal,
    ssh_client_pid,
    ssh_command,
)
from .processes import start_serve, stop
from .terminal import Terminal

#: The questions a crates deal may ask before anything else (a suit to name).
SUIT_QUESTIONS = ("Name a suit", "yours to name")
#: A round's scores (they close on n, never on Enter).
ROUND_SUMMARY = "Hand left"


class SshParty:
    """A running `tablegames serve ARGS` and its guests' ssh terminals, all closed when a
    `with` block ends; each guest's key is made in `keys` (created if need be) at their first
    login."""

    def __init__(
        self, env: dict[str, str], keys: Path, *args: str, python: str = sys.executable
    ) -> None:
        self.serve, self.ssh_port, self.tcp_port = start_serve(env, *args, python=python)
        self.clients = SshClients(env)
        self.keys = keys
        keys.mkdir(parents=True, exist_ok=True)

    def login(
        self, name: str, width: int = 100, height: int = 30, keyless: bool = False
    ) -> Terminal:
        """`ssh -p PORT NAME@127.0.0.1` in a new terminal (with the guest's key, unless
        `keyless`)."""
        key = None if keyless else self.keys / name
        if key is not None and not key.exists():
            make_key(self.keys, name)
        return self.clients.open(ssh_command(self.ssh_port, name, key), width, height)

    def drop(self, friend: Terminal) -> None:
        """The friend's connection dies (the ssh client killed, as a laptop's lid shut)."""
        os.kill(ssh_client_pid(friend), signal.SIGKILL)

    def sessions(self) -> list[int]:
        """The pids of the session programs the server runs now."""
        return [pid for pid in descendants(self.serve.pid) if on_a_terminal(pid)]

    def stop(self) -> None:
        """The server stops (as Ctrl-C stops it); the guests' terminals stay open."""
        stop(self.serve)

    def close(self) -> None:
        self.clients.close()
        stop(self.serve)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def open_table(
    friend: Terminal,
    game_steps: int = 0,
    title: str = "crates",
    form: tuple[str, ...] = (),
    shows: str = "",
    timeout: float = 30,
) -> None:
    """In the lobby (within `timeout` seconds): `n`, the game `game_steps` to the right of
    crates (`title` shown), the keys `form` on the new-table form (then `shows` on it), Enter;
    returns once the table waits for its players."""
    friend.wait_for("n opens a new table", timeout=timeout)
    friend.keys("n")
    friend.wait_for("A new table", timeout=15)
    friend.keys(*["Right"] * game_steps)
    friend.wait_for(title, timeout=10)
    if form:
        friend.keys(*form)
        friend.wait_for(shows or title, timeout=5)
    friend.keys("Enter")
    friend.wait_for("or s to start now", timeout=20)


def open_short_crates(friend: Terminal) -> None:
    """In the lobby: a new table of crates for 3, short, normal bots."""
    # players: 3 (crates offers 4 first); short game: yes
    open_table(friend, form=("Down", "Left", "Down", "Down", "Right"), shows="yes")


def sit_down(friend: Terminal) -> None:
    """In the lobby: sit down at the crates table for 3, and say ready."""
    friend.wait_for("Crates (3)", timeout=30)
    friend.keys("Enter")
    friend.wait_for("Press r when you are ready", timeout=15)
    friend.keys("r")


def answered(friend: Terminal, screen: str) -> bool:
    """Answer what `screen` asks of this friend first, if anything: the first suit for a suit
    to name (Enter), n for a round's scores. True if it asked something."""
    if ROUND_SUMMARY in screen:
        friend.keys("n")
    elif any(asked in screen for asked in SUIT_QUESTIONS):
        friend.keys("Enter")
    else:
        return False
    return True


def take_turn_if_mine(friend: Terminal) -> None:
    """If it is this player's turn, play the first card that fits (naming the first suit when
    asked), else draw; close a round's scores if they are up."""
    screen = friend.screen()
    if answered(friend, screen):
        return
    if "your turn" in screen:
        for number in range(1, 10):
            friend.keys(str(number), after=0.05)  # (picking a card asks nothing new)
            time.sleep(0.05)
            if "Enter plays" in friend.screen():
                friend.keys("Enter")
                return
        friend.keys("d")


def play_turns(friend: Terminal, seconds: float) -> None:
    """Take this friend's turns for a while (first cards that fit, or a draw)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        take_turn_if_mine(friend)
        time.sleep(0.2)


def ask_to_leave(friend: Terminal) -> None:
    """At a table: q, which asks whether to go back to the lobby (answering the deal's first
    question first if it comes: a key typed just then goes to it)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if answered(friend, friend.screen()):
            time.sleep(0.3)
            continue
        friend.keys("q")
        if "Lobby (m)" in friend.wait_for_any("Lobby (m)", "There is no option q", timeout=10):
            return
    raise AssertionError(f"q never asked to leave; the screen was:\n{friend.screen()}")


def back_to_the_lobby(friend: Terminal) -> None:
    """At a table: q, then m."""
    ask_to_leave(friend)
    friend.keys("m")
