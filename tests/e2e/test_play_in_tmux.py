"""The real `tablegames play crates` in a real terminal: start, play a card with keys, read it."""

from __future__ import annotations

import itertools
import re
import time

import pytest

from tablegames.replay import Replay
from tablegames.store import default_path
from tablegames.tui.widgets.log import event_line

from ..test_replay import record_game
from .friends import SUIT_QUESTIONS
from .processes import start_host, stop
from .terminal import Terminal, poll, tablegames

pytestmark = pytest.mark.e2e


#: A suit to name: the status line's words, and the question's.
NAMING = ("name a suit", *SUIT_QUESTIONS)
MY_MOVE = ("your turn", *NAMING)
#: Seconds a terminal is given to show what a key or a start-up leads to: a wait ends as soon
#: as it shows, so only a machine loaded many times over comes near it (a `--help` took 40
#: times its CPU time in wall time at load 18).
PATIENT = 60
#: Rows for a test that reads a move from the log: at 24 the log shows five lines, and the bots'
#: round after a move (a crank's lines: raised, kept going, given up, drawn) can fill all five
#: before the next look (seen in a loaded run). At 40 it shows 17, more than a round can add
#: before play waits for the player again.
LOG_ROWS = 40


def take_a_turn(term: Terminal, screen: str, player: str) -> str:
    """Draw if nothing fits, else play the picked card; name the first suit when asked (a
    dealer whose turned-up card is an 8 or 9 is asked first, by a question that opens by itself).

    A suit's question takes an Enter only once it has been in sight a moment (one before only
    points at the first suit, on a loaded machine both of two quick ones did): Enter is
    pressed again while it is up.
    """
    moved = (f"{player} plays", f"{player} draws", f"{player} names")
    naming = any(words in screen for words in NAMING)
    drew = not naming and "Nothing fits" in screen
    term.keys("d" if drew else "Enter")
    deadline = time.monotonic() + PATIENT
    for tick in itertools.count(1):
        screen = term.screen()
        if any(move in screen for move in moved) or time.monotonic() > deadline:
            break
        if any(words in screen for words in NAMING):
            term.keys("Enter")
        elif "Nothing fits" in screen and not drew:
            # The screen read before the first key was not yet the turn's whole (a crank to
            # draw for came after it, seen once in a loaded run): Enter did nothing. Draw.
            drew = True
            term.keys("d")
        elif tick % 15 == 0 and "Enter plays it" in screen:
            # The table changed under the first Enter (a bot's 7 made Sara draw, seen once in
            # ~30 full runs): it was dropped or met another turn. A player presses again.
            term.keys("Enter")
        time.sleep(0.1)
    return term.wait_for_any(*moved, timeout=1)


@pytest.fixture
def terminal_factory(env):
    opened: list[Terminal] = []

    def open_terminal(
        *args: str, width: int = 80, height: int = 24, locale: str = "C.UTF-8"
    ) -> Terminal:
        terminal = Terminal(tablegames(*args), env, width, height, locale)
        opened.append(terminal)
        return terminal

    yield open_terminal
    for terminal in opened:
        terminal.close()


@pytest.mark.parametrize("seed", [5, 51], ids=["a card", "the dealer names a suit"])
def test_play_crates_with_the_keyboard_against_bots(terminal_factory, seed):
    # (seed 51: Player 1 deals and turns up 9♠, so the first move is the suit's question)
    term = terminal_factory(
        "play", "crates", "--seed", str(seed), "--pace", "0.05", height=LOG_ROWS
    )
    term.wait_for_any(*MY_MOVE, timeout=PATIENT)
    screen = term.wait_for("Crates", "Your hand", timeout=PATIENT)  # the whole table drawn
    screen = take_a_turn(term, screen, "Player 1")
    assert re.search(r"Player 1 (plays \S+|draws|names)", screen)
    term.keys("q")
    term.wait_for("Leave this game?", timeout=PATIENT)
    term.keys("y")
    screen = term.wait_gone("Crates", timeout=PATIENT)  # the app has quit
    assert "Leave this game?" not in screen


def test_a_terminal_without_utf8_is_drawn_in_ascii_by_itself(terminal_factory):
    term = terminal_factory("play", "crates", "--seed", "5", "--pace", "60", locale="C")
    screen = term.wait_for(" Log ", timeout=PATIENT)  # the table drawn (not only its title)
    assert "+- Log " in screen or "- Log -" in screen  # ASCII borders, as with --ascii
    assert screen.isascii(), screen
    assert re.search(r"\b(10|[2-9AJQK])[SHDC]\b", screen)  # cards as 10H, QS
    term.keys("q")
    term.wait_for("Leave this game?", timeout=PATIENT)
    term.keys("y")


def test_the_menu_lists_every_game_and_coming_ones_cannot_start(terminal_factory):
    term = terminal_factory()
    term.wait_for(
        "Crates", "Cockroach Poker Royal", "You've Got Crabs", "Feed the Kraken", timeout=PATIENT
    )
    term.keys("q")


def test_a_terminal_client_joins_a_hosted_table_with_bots_and_plays(env, terminal_factory):
    host, port = start_host(
        env, "--players", "3", "--bots", "normal", "--humans", "1", "--pace", "0.05"
    )
    try:
        term = terminal_factory("join", f"127.0.0.1:{port}", "--name", "Sara", height=LOG_ROWS)
        term.wait_for("Press r when you are ready", timeout=PATIENT)
        term.keys("r")
        term.wait_for_any(*MY_MOVE, timeout=PATIENT)
        screen = term.wait_for("Sara (you)", "Bot 2", timeout=PATIENT)  # the whole table drawn
        screen = take_a_turn(term, screen, "Sara")
        assert re.search(r"Sara (plays \S+|draws|names)", screen)
    finally:
        stop(host, timeout=10)


def test_stepping_through_a_replay_keeps_the_log_on_its_newest_line(
    env, terminal_factory, monkeypatch
):
    # Under the replay's controls the table is a covered screen, which Textual does not lay out
    # again: its log once stayed where it was, old lines in sight (only a real terminal shows it).
    monkeypatch.setenv("TABLEGAMES_HOME", env["TABLEGAMES_HOME"])
    recorded = record_game(default_path())
    steps = 12
    replay = Replay.load(recorded.store, recorded.table_id)
    newest = event_line(replay.view(steps, 0)["log"][-1], replay.names)
    term = terminal_factory("replay", str(recorded.table_id), width=100, height=32)
    term.wait_for("step 0/", timeout=PATIENT)
    term.keys(*["n"] * steps)  # in one burst, as a held key sends them
    term.wait_for(f"step {steps}/", timeout=PATIENT)
    # (a log left where it was never shows its newest line: 10 s is many frames)
    assert poll(term.screen, lambda screen: newest in log_box(screen), 10), term.screen()


def log_box(screen: str) -> str:
    """The rows of the log's box (none before it is drawn)."""
    rows = screen.splitlines()
    top = next((i for i, row in enumerate(rows) if "─ Log ─" in row), len(rows))
    bottom = next((i for i in range(top + 1, len(rows)) if rows[i].startswith("╰")), top)
    return "\n".join(rows[top:bottom])


def a_bot_spoke(screen: str) -> bool:
    """A bot's claim is in sight: its line in the log, or its few words about itself beside
    it in the crew ("me: sailor": a log line may have scrolled by between two looks)."""
    if '(bot) claims: "' in screen:
        return True
    rows = screen.splitlines()
    top = next((i for i, row in enumerate(rows) if "─ Crew" in row), len(rows))
    crew = [row.split("││")[-1] for row in rows[top + 2 :] if "││" in row]
    return any("me: " in row for row in crew if "Player 1" not in row)


def test_a_kraken_player_reads_the_bots_claims_and_claims_back(terminal_factory):
    # Seed 3: Player 1 is the first captain; the bots talk once a team is appointed.
    term = terminal_factory("play", "kraken", "--seed", "3", "--pace", "0.05", "--no-save")
    screen = term.wait_for("Appoint your lieutenant", timeout=PATIENT)
    deadline = time.monotonic() + 90
    while not a_bot_spoke(screen):  # play on (the first option each time) until a bot talks
        assert time.monotonic() < deadline, screen
        if any(asked in screen for asked in ("Back (Esc)", "Enter keeps", "press Enter")):
            term.keys("Enter")  # (a decision, or one put aside, or a character's moment)
            term.keys("Enter")
        time.sleep(0.3)
        screen = term.screen()
    deadline = time.monotonic() + 30
    while "who is what" not in screen:  # the claim menu, once no decision is in the way
        assert time.monotonic() < deadline, screen
        # A decision that opened by itself (now, or just as t was typed): put it aside to talk.
        term.keys("Escape" if "Back (Esc)" in screen else "t")
        time.sleep(0.5)
        screen = term.screen()
    key = re.search(r"\[(\w)\] who is what", screen)
    assert key, screen
    term.keys(key.group(1))
    term.wait_for("about whom?", timeout=PATIENT)
    term.keys("1")  # me
    term.wait_for('"I am a sailor"', timeout=PATIENT)
    term.keys("1")
    time.sleep(1)
    if "Back (Esc)" in term.screen():  # the decision put aside opens again by itself
        term.keys("Escape")
    screen = term.wait_for("Player 1 claims:", timeout=PATIENT)
    crew = next(line for line in screen.splitlines() if "Player 1*" in line)
    assert "me: sailor" in crew  # beside Player 1 in the crew too (in a few words at 80)
    term.keys("q")
    term.wait_for("Leave this game?", timeout=PATIENT)
    term.keys("y")
