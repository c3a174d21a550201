"""Phones at the party (issue 38), by taps only: held upright the controls show in bigger
letters and nothing covers them, every question has a Back to tap, a swipe scrolls the log,
the soft keyboard does not shrink the game, chat and table news take a line of their own, a
dead connection is noticed and comes back by itself; and whole games of crates, roach, crabs
and Feed the Kraken played to their end by taps (`slow`; the default run plays the first moves
of one). The real `tablegames serve --web`, on loopback only, in headless Chromium."""

from __future__ import annotations

import contextlib
import re
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import closing
from typing import Any

import pytest

from ..e2e.terminal import poll
from .browser import PARTY_NAME, start_party, stop_party, why_no_browser
from .network import network_to
from .phone import SIDEWAYS, UPRIGHT, Phone, phone_context
from .phone_games import KINDS, QUESTION, crabs_move, play_to_the_end, tap_option

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(why_no_browser() is not None, reason=str(why_no_browser())),
]


class Party:
    """`tablegames serve --web` with fast bots, and phones to open its page."""

    def __init__(self, env: dict[str, str], chromium: Any) -> None:
        self.serve, self.base, _ = start_party(env, "--takeover", "600", "--pace", "0.05")
        self.port = int(self.base.rsplit(":", 1)[1])
        self.chromium = chromium

    def phone(self, held: dict[str, int], base: str = "") -> Phone:
        return Phone(phone_context(self.chromium, held).new_page(), base or self.base)

    def close(self) -> None:
        stop_party(self.serve)


@pytest.fixture
def party(env: dict[str, str], chromium: Any) -> Iterator[Party]:
    with closing(Party(env, chromium)) as running:
        yield running


def visible_rows(phone: Phone) -> tuple[float, float]:
    """The top and bottom of the page's visible area, in CSS pixels."""
    top, height = phone.page.evaluate(
        "() => [window.visualViewport.offsetTop, window.visualViewport.height]"
    )
    return float(top), float(top) + float(height)


def log_lines(screen: str) -> list[str]:
    """The lines inside the log's box, as the screen shows them."""
    lines = screen.splitlines()
    top = next(row for row, line in enumerate(lines) if "╭─ Log" in line)
    box = []
    for line in lines[top + 1 :]:
        if line.startswith("╰"):
            break
        box.append(line.strip("│ ▁▂▃▄▅▆▇█"))
    return box


def test_an_upright_phone_shows_every_control_and_plays_crabs_by_taps(party):
    phone = party.phone(UPRIGHT)
    phone.join("ana")
    phone.wait_for("New table")
    # Bigger letters than 80 columns allow (as few columns as the screen needs), taller rows
    # to tap, and the hint to turn the phone on a line of its own, above the terminal.
    font, columns, rows = phone.size()
    assert font >= 10 and 60 <= columns < 80 and rows >= 30, phone.size()
    assert phone.row_height() >= 16
    hint, terminal = phone.box("#turn-hint"), phone.box("#screen-box")
    assert hint["y"] + hint["height"] <= terminal["y"] + 0.5
    _, bottom = visible_rows(phone)
    footer = phone.where("New table")
    assert footer is not None and footer["y"] < bottom  # the footer in sight, under nothing
    on_top = phone.page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('#terminal') !== null",
        [footer["x"], footer["y"]],
    )
    assert on_top  # nothing of the page's own over it

    # Chat on the soft keyboard: the letters stay as they were; the line typed shows above it.
    phone.tap_until("Chat", "Say to")
    keyboard = {"width": UPRIGHT["width"], "height": UPRIGHT["height"] * 45 // 100}
    phone.page.set_viewport_size(keyboard)
    deadline = time.monotonic() + 5
    top, bottom = visible_rows(phone)
    while time.monotonic() < deadline:
        said = phone.where("Say to")
        if said is not None and top <= said["y"] <= bottom:
            break
        time.sleep(0.1)
    assert said is not None and top <= said["y"] <= bottom, phone.screen()
    assert phone.size()[:2] == (font, columns)  # the same letters, as many columns
    phone.type_line("hello from a phone")
    phone.page.set_viewport_size(UPRIGHT)
    phone.wait_for("guest-ana: hello from a phone")

    phone.open_table("crabs")
    phone.tap("Start now")
    phone.wait_for_any("huddle", "Swap")
    if phone.shows("huddle"):  # agree with the team's signal (unless the huddle is over by then)
        phone.tap_if_shown("Pick")
    screen = phone.wait_for("Accuse", "Ocean", timeout=60)
    tokens = re.search(r"A\s+\d+ you\s+B\s+\d+", screen)
    assert tokens, screen
    # Table news takes a line of its own above the table, which moves down: nothing covered.
    lines = screen.splitlines()
    news = [row for row, line in enumerate(lines) if "The game begins." in line]
    if news:
        assert news[0] < next(row for row, line in enumerate(lines) if "Side 0" in line)

    # A stray tap on Accuse: the question has a Back, and backing out costs nothing.
    phone.tap_until("Accuse", "on whom?")  # (a tap the moment a bot gestures waits: again)
    phone.tap(QUESTION)
    screen = phone.wait_gone("on whom?", timeout=10)
    log = " ".join(log_lines(screen))
    assert not re.search(r"guest-ana\s+calls", log), screen
    if "calls" not in log:  # (a bot's call meanwhile moves tokens: that is the game)
        assert tokens.group(0) in screen, screen

    # A swipe down the log shows its older lines, as a mouse wheel would (and they stay: the
    # log says it is scrolled back, and new lines do not pull it on).
    first = log_lines(phone.screen())[0]
    done: Counter[str] = Counter({"back": 1})
    deadline = time.monotonic() + 120
    while log_lines(phone.screen())[0] == first:  # play on by taps until the log is full
        assert time.monotonic() < deadline, (dict(done), phone.screen())
        if not crabs_move(phone, phone.screen(), done):
            time.sleep(0.3)
    deadline, newest = time.monotonic() + 60, []
    while "scrolled back" not in phone.screen():
        assert time.monotonic() < deadline, phone.screen()
        screen = phone.screen()
        if QUESTION in screen:  # the last tap's question came after the log was full (it
            crabs_move(phone, screen, done)  # once took the swipe): answered first
            time.sleep(0.3)
            continue
        newest = [line for line in log_lines(screen) if line]
        phone.swipe(on=newest[len(newest) // 2], rows=8)  # the finger goes down the log
        swiped = time.monotonic() + 10
        while "scrolled back" not in phone.screen() and time.monotonic() < swiped:
            time.sleep(0.1)
    older = log_lines(phone.screen())
    assert older[0] != newest[0], phone.screen()
    assert "Traceback" not in phone.screen()


def test_a_phone_notices_a_dead_connection_says_so_and_comes_back_by_itself(party):
    with network_to(party.port) as network:
        phone = party.phone(SIDEWAYS, base=f"http://{PARTY_NAME}:{network.port}")
        phone.join("bob")
        phone.open_table("crates", 2)
        phone.tap("Start now")
        phone.wait_for("guest-bob (you)", "Your hand")
        lost = phone.page.locator("#lost")
        network.go_silent()  # Wi-Fi gone: nothing comes, nothing closes
        lost.wait_for(state="visible", timeout=12_000)  # noticed within seconds, and said
        assert "lost" in lost.inner_text()
        network.come_back()
        lost.wait_for(state="hidden", timeout=30_000)  # back by itself...
        phone.wait_for("guest-bob (you)", "Your hand", timeout=30)  # ...at the same seat
        assert phone.page.evaluate("() => window.tablegames.ended()") is None


GAMES = {  # game: (players, the form's options, how the phone is held, minutes at most)
    "crates": (2, {"Short_game": "yes"}, UPRIGHT, 12),
    "roach": (3, {}, SIDEWAYS, 6),
    "crabs": (4, {}, UPRIGHT, 10),
    "kraken": (5, {"Board": "quick"}, SIDEWAYS, 8),
}


@pytest.mark.slow
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_on_a_phone_by_taps(party, game):
    players, options, held, minutes = GAMES[game]
    phone = party.phone(held)
    phone.join(game)
    phone.open_table(game, players, **options)
    phone.tap("Start now")
    phone.wait_for_any("Your hand", "huddle", "Crew", "Players", timeout=60)
    done = play_to_the_end(phone, game, minutes)  # (a line of chat too, by its soft keyboard)
    assert KINDS[game] <= set(done), dict(done)
    assert "Rematch (r)" in phone.screen()


#: Every vertical border drawn on each row of the terminal: (the row's text, their columns).
BORDERS = """() => {
  const terminal = window.tablegames.terminal, buffer = terminal.buffer.active;
  const rows = [];
  for (let row = 0; row < terminal.rows; row++) {
    const line = buffer.getLine(buffer.viewportY + row);
    const columns = [];
    for (let column = 0; column < terminal.cols; column++) {
      if (line.getCell(column).getChars() === "│") columns.push(column);
    }
    rows.push([line.translateToString(true), columns]);
  }
  return rows;
}"""
LOBBY_KEYS = ("New table", "Sit down", "Watch", "Close table", "Chat", "Standings", "Help", "Quit")


def borders_line_up(phone: Phone, name: str) -> None:
    """Each row that shows `name` has its boxes' borders where the rows beside it have them
    (and not a cell to their left: the rest of a row went left when a wide character was
    drawn one cell wide); its own boxes (a card's) may add more."""
    rows = phone.page.evaluate(BORDERS)
    named = [row for row, (text, columns) in enumerate(rows) if name in text and columns]
    assert named, phone.screen()
    for row in named:
        drawn = set(rows[row][1])
        for other in (row - 1, row + 1):
            if not 0 <= other < len(rows) or name in rows[other][0]:
                continue
            beside = set(rows[other][1])
            shifted = {column for column in beside if column - 1 in drawn - beside}
            assert beside <= drawn and not shifted, (rows[row], rows[other], phone.screen())


@pytest.mark.parametrize("held", [UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])
def test_a_phone_taps_every_lobby_key_and_an_emoji_name_keeps_its_rows_borders(party, held):
    phone = party.phone(held)
    phone.join("ana🎲")
    screen = phone.wait_for(*LOBBY_KEYS)  # the whole footer, upright too
    phone.tap_until("Help", "Up/Down pick a table")
    phone.open_table("crates", 3)
    for _ in range(3):  # (a tap on a screen being redrawn can miss: a person taps again)
        if not phone.tap_if_shown("Start now") or phone.shows("Your hand"):
            break
        with contextlib.suppress(AssertionError):
            phone.wait_for("Your hand", timeout=10)
    # (upright, the seat's name is cut before "(you)": the log or the table show it whole)
    seated = ("(you)", "Your hand", "Bot 2", "guest-ana🎲")

    def settled(screen: str) -> bool:  # dealt, and no suit left for us to name
        # (dealt: the turned-up card's line in the log, or, once the bots' moves have scrolled
        # it away on a busy machine, a card drawn as a box: there is none before the deal)
        told = "╭─ Log" in screen and "turns up" in " ".join(log_lines(screen))
        dealt = told or re.search(r"╭─{3,5}╮", screen) is not None
        asked = "yours to name" in screen or "name a suit" in screen.lower()
        return dealt and not asked and all(text in screen for text in seated)

    for _ in range(5):  # (the dealer turned up an 8 or a 9: its question covers the seats)
        dealt = poll(phone.screen, lambda s: "yours to name" in s or settled(s), 20)
        if not dealt or settled(dealt):
            break
        tap_option(phone, dealt)
    assert dealt and settled(dealt), f"never dealt and settled; the screen was:\n{phone.screen()}"
    borders_line_up(phone, "ana🎲")  # its seat's row and its lines in the log
    phone.tap_until("Quit", "Lobby (m)")
    phone.tap("Lobby (m)")
    phone.wait_for("n opens a new table")
    phone.tap("Quit")  # the footer's last key, in reach upright too
    ended = phone.page.locator("#ended")
    ended.wait_for(state="visible", timeout=15_000)
    assert "Traceback" not in screen + phone.page.inner_text("body")
