"""The reported races, played in real terminals with the real command: a second Enter after a
move, a bot moving while a hand-off is up, a network peek, a chat burst (issue 27's cases)."""

from __future__ import annotations

import contextlib
import re
import time

import pytest

from .processes import join_bot, start_host, start_serve, stop
from .terminal import REACTION, Terminal, poll, tablegames

pytestmark = pytest.mark.e2e

#: A hand-off takes a key once it has been up a second and the keyboard was still before it.
HANDED_OVER = 1.3


@pytest.fixture
def terminals(env):
    opened: list[Terminal] = []

    def open_terminal(*args: str, width: int = 100, height: int = 32) -> Terminal:
        terminal = Terminal(tablegames(*args), env, width, height)
        opened.append(terminal)
        return terminal

    yield open_terminal
    for terminal in opened:
        terminal.close()


def named_key(term: Terminal) -> str:
    """The key of the player the hand-off up now names (theirs alone opens it)."""
    asked = re.search(r"Pass to .* — press Shift\+(\w) when", term.wait_for("Pass to", timeout=10))
    assert asked, term.screen()
    return asked.group(1)


def secrets_shown(screen: str, name: str) -> bool:
    """True if `name`'s hand or secrets are drawn (not merely named as hidden)."""
    for secret in (f"{name}'s hand", f"{name}'s secrets"):
        if secret in screen.replace(f"{secret} (hidden)", ""):
            return True
    return False


def test_a_second_enter_after_a_crates_move_leaves_the_hand_off_up(terminals):
    term = terminals("play", "crates", "--humans", "3", "--players", "3", "--seed", "1",
                     "--no-save")  # fmt: skip
    term.wait_for("Pass to Player 2", timeout=30)  # seed 1: Player 2 plays first
    term.keys(named_key(term), after=HANDED_OVER)
    term.wait_for("Player 2's hand — your turn", "4♣", timeout=10)
    term.keys("Enter")  # plays the picked 4♣ on the K♣
    term.keys("Enter", after=0.3)  # and Enter again, 0.3 s later
    time.sleep(0.5)
    screen = term.screen()
    handed = re.search(r"Pass to (Player \d)", screen)
    assert handed and handed.group(1) != "Player 2", screen
    assert not secrets_shown(screen, handed.group(1)), screen
    term.keys(named_key(term), after=HANDED_OVER)  # the next player, who has the keyboard now
    term.wait_for(f"{handed.group(1)}'s hand — your turn", timeout=10)


def test_keys_ann_types_in_kraken_never_show_bob_his_secrets(terminals):
    term = terminals("play", "kraken", "--players", "7", "--humans", "2", "--name", "Ann",
                     "--name", "Bob", "--seed", "11", "--no-save")  # fmt: skip
    term.wait_for("Pass to Ann", timeout=30)
    term.keys(named_key(term), after=HANDED_OVER)
    term.wait_for("Ann's secrets", timeout=10)
    term.keys("0", after=0.5)
    for gap in (0.6, 0.3, 0.3):  # Enter 0.6 s later, then two more
        term.keys("Enter", after=gap)
    time.sleep(0.5)
    screen = term.screen()
    assert not secrets_shown(screen, "Bob"), screen
    assert "Pass to Bob" in screen, screen


def test_a_roach_hand_off_follows_the_card_a_bot_slides_meanwhile(terminals):
    term = terminals("play", "roach", "--humans", "2", "--players", "3", "--seed", "5",
                     "--no-save")  # fmt: skip
    term.wait_for("Pass to Player 1", timeout=30)  # seed 5: the bot moves first
    screen = term.wait_for("Pass to Player 2", timeout=10)  # its card went to Player 2
    assert "Pass to Player 1" not in screen
    term.keys(named_key(term), after=HANDED_OVER)
    screen = term.wait_for("Player 2's hand", timeout=10)
    assert not secrets_shown(screen, "Player 1"), screen


def press_until(term: Terminal, key: str, *texts: str, tries: int = 3) -> str:
    """Press `key` until one of `texts` shows; the screen then. A key typed in the moment a
    question changes is dropped (`typeahead.py`), and a player would press it again."""
    for _ in range(tries):
        term.keys(key)
        screen = poll(term.screen, lambda screen: any(text in screen for text in texts), 4.0)
        if screen is not None:
            return screen
    raise AssertionError(f"{key} never brought {texts!r}; the screen was:\n{term.screen()}")


#: What the claim dialog shows whatever the card (seen wrapped: "claiming it is" / "a...").
CLAIMS = "(a bluff)"


def offer_to(term: Terminal, screen: str, name: str) -> None:
    """Offer the picked card to `name`, claiming the first animal; return once the table has
    it (on a busy machine the turn's prompt may come back for a moment while the last key is
    on its way, and must not be offered from twice)."""
    if "to whom?" in press_until(term, "Enter", "to whom?", CLAIMS):
        found = re.search(rf"\[(\d)\] {name}\b", term.screen())
        assert found, term.screen()
        term.keys(found.group(1))
        term.wait_for(CLAIMS, timeout=10)
    term.keys("1")
    term.wait_for(f"Waiting for {name} to answer", timeout=10)


def test_peeking_at_a_card_over_the_network_waits_for_it(env, terminals):
    host, port = start_host(env, "--players", "3", "--pace", "0.2", game="roach")
    bot = join_bot(env, port, "Bot", pace=0.2)
    try:
        ann = terminals("join", f"127.0.0.1:{port}", "--name", "Ann")
        bob = terminals("join", f"127.0.0.1:{port}", "--name", "Bob")
        for term in (ann, bob):
            term.wait_for("Press r when you are ready", timeout=30)
            term.keys("r")
        deadline, peeked = time.monotonic() + 90, None
        while peeked is None and time.monotonic() < deadline:
            for term, other in ((ann, "Bob"), (bob, "Ann")):
                screen = term.screen()
                if "Your turn: pick a card" in screen:
                    offer_to(term, screen, other)
                elif "p: pass on" in screen:
                    press_until(term, "p", "Pass it on unseen")
                    term.keys("1")  # look at it first
                    peeked = term
                    break
                elif "It has been with everyone else" in screen:
                    term.keys("t")
            time.sleep(0.2)
        assert peeked is not None, "no card ever came to a player who could peek"
        screen = peeked.wait_for("It is a", timeout=10)  # the card, once the server said it
        assert "Traceback" not in screen and "Error" not in screen
    finally:
        stop(host, timeout=10)
        bot.kill()
        bot.wait(timeout=10)


def test_two_chat_lines_typed_at_once_in_a_lobby_are_both_said(env, terminals):
    serve, _, port = start_serve(env)
    try:
        sara = terminals("join", f"127.0.0.1:{port}", "--name", "Sara")
        sara.wait_for("Lobby chat", timeout=30)
        sara.keys("/", "a", "Enter", "/", "b", "Enter")  # typed quickly, as a paste sends them
        screen = sara.wait_for("Sara: a", "Sara: b", timeout=10)
        assert "Lobby chat" in screen and "Tables" in screen  # the lobby, still up
        sara.keys("n")  # and it still takes keys
        sara.wait_for("A new table", timeout=10)
    finally:
        stop(serve, timeout=10)


def test_two_chat_lines_typed_at_once_at_a_table_are_both_said(env, terminals):
    host, port = start_host(env, "--players", "2", "--bots", "normal", "--humans", "1",
                            "--pace", "60")  # fmt: skip
    try:
        sara = terminals("join", f"127.0.0.1:{port}", "--name", "Sara")
        sara.wait_for("Press r when you are ready", timeout=30)
        sara.keys("r")
        # A deal that turns up an 8 for Sara asks her for a suit first, over the table (keys
        # typed then go to that question, not the chat): answered before the test's keys.
        sara.wait_for_any("To play:", "yours to name", timeout=30)
        time.sleep(REACTION)
        for _ in range(3):  # (a question takes keys once settled: an Enter before is not taken)
            if not any(asked in sara.screen() for asked in ("yours to name", "Name a suit")):
                break
            sara.keys("Enter")
            with contextlib.suppress(AssertionError):
                sara.wait_gone("yours to name", timeout=5)
        assert "yours to name" not in sara.screen(), sara.screen()
        sara.keys("/", "g", "g", "Enter", "/", "o", "k", "Enter")
        # (each line said shows on the notice line until the next: "gg" only for a moment)
        sara.wait_for("Sara: ok", timeout=10)
        sara.keys("/")  # the chat line shows both, and the table still takes keys
        screen = sara.wait_for("Sara: gg", "Sara: ok", timeout=10)
        assert "Say to the table" in screen
    finally:
        stop(host, timeout=10)
