"""Hot-seat at one real keyboard (issue 40): a relaxed double-tap never opens the next player's
hand, a round's scores wait to be seen, and leaving after a resize leaves nothing of the game in
the terminal or its scrollback."""

from __future__ import annotations

import re
import shlex
import sys
import time
from pathlib import Path

import pytest

from .terminal import Terminal, tablegames

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
#: A hand-off takes a key once it has been up a second and the keyboard was still before it.
HANDED_OVER = 1.3
#: What only the game draws: any of it left in the terminal after leaving is a leak.
GAME_WORDS = ("hand", "Crates —", "Log", "Pass to", "Table", "Player 1", "♣", "♦", "♥", "♠", "│")


@pytest.fixture
def terminals(env):
    opened: list[Terminal] = []

    def open_terminal(command: list[str], width: int = 80, height: int = 24) -> Terminal:
        terminal = Terminal(command, env, width, height)
        opened.append(terminal)
        return terminal

    yield open_terminal
    for terminal in opened:
        terminal.close()


def handed_to(term: Terminal) -> tuple[str, str]:
    """Who the hand-off up now names, and their key."""
    asked = re.search(r"Pass to (Player \d) — press Shift\+(\w) when", term.wait_for("Pass to"))
    assert asked, term.screen()
    return asked.group(1), asked.group(2)


def take_the_seat(term: Terminal) -> str:
    """The player a hand-off names presses their own key; who they are, once their hand shows."""
    player, key = handed_to(term)
    term.keys(key, after=HANDED_OVER)
    term.wait_for(f"{player}'s hand — your turn", timeout=10)
    return player


def test_a_relaxed_double_tap_never_shows_the_next_players_hand(terminals):
    term = terminals(tablegames("play", "crates", "--humans", "3", "--players", "3", "--seed",
                                "1", "--no-save"))  # fmt: skip
    term.wait_for("Pass to Player 2", timeout=30)  # seed 1: Player 2 plays first
    take_the_seat(term)
    term.keys("Enter", after=1.0)  # plays the picked 4♣ on the K♣
    term.wait_gone("Player 2's hand", timeout=10)
    player, _ = handed_to(term)
    assert player != "Player 2"
    for _ in range(2):
        term.keys("Enter", after=1.3)  # relaxed: Enter again 1.3 s later, and again
        time.sleep(0.5)
        screen = term.screen()
        assert f"Pass to {player}" in screen and "'s hand" not in screen, screen
    assert f"Only {player}'s own key opens it" in screen, screen
    assert take_the_seat(term) == player  # who has the keyboard now


def test_a_second_enter_after_going_out_leaves_the_rounds_scores_up(env, terminals):
    script = ["env", f"PYTHONPATH={ROOT}", sys.executable, "-m", "tests.e2e.stacked_table"]
    term = terminals([*script, "going_out"])
    term.wait_for("Your hand — your turn", "K♠", timeout=30)
    term.keys("Enter", after=1.0)  # Sara plays her last card, the K♠
    term.wait_for("Round 1 of 8: Sara went out.", timeout=10)
    for gap in (0.4, 1.3):
        term.keys("Enter", after=gap)
        time.sleep(0.5)
        assert "Round 1 of 8: Sara went out." in term.screen(), term.screen()
    term.keys("n", after=1.0)
    term.wait_for("round 2 of 8", timeout=10)


@pytest.mark.parametrize("leave", [["C-c"], ["q", "y"]], ids=["ctrl-c", "q"])
def test_leaving_after_a_resize_leaves_nothing_of_the_game_in_the_terminal(terminals, leave):
    command = tablegames("play", "crates", "--humans", "3", "--players", "3", "--seed", "1")
    term = terminals(["sh", "-c", shlex.join(command) + '; echo "exit status $?"'])
    term.wait_for("Pass to Player 2", timeout=30)
    take_the_seat(term)
    term.keys("Enter", after=1.0)  # a move: the game is saved from now
    term.wait_gone("Player 2's hand", timeout=10)
    player = take_the_seat(term)
    for width, height in ((110, 34), (70, 22), (50, 15), (90, 26)):  # one of them too small
        term.resize(width, height)
        time.sleep(0.6)
    term.wait_for(f"{player}'s hand", timeout=10)
    for key in leave:
        term.keys(key, after=0.8)
    screen = term.wait_for("exit status", timeout=20)
    status = 130 if leave == ["C-c"] else 0
    assert f"exit status {status}" in screen
    everything = term.scrollback()
    left = [line for line in everything.splitlines() if line.strip()]
    assert len(left) == 2, everything  # the farewell and the status: nothing else
    assert re.fullmatch(r"Game \d+ is saved in .* continues it\.", left[0]), everything
    assert not any(word in line for line in left for word in GAME_WORDS), everything
