"""The party in a browser (issue 33), as friends use it: headless Chromium opens the page,
gives a name and lands in the lobby; a crates table with a bot, a move by key and one by a
tap on a phone, a reload back into the seat, a second browser and an OpenSSH client at the
same table. The real `tablegames serve --web`, on loopback only; the terminal's text is read
from the page's xterm.js."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from ..e2e.friends import ROUND_SUMMARY, SUIT_QUESTIONS, take_turn_if_mine
from ..e2e.terminal import Terminal, poll
from ..net.ssh_harness import SshClients, ssh_command
from .browser import PageTerminal, start_party, stop_party, why_no_browser

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(why_no_browser() is not None, reason=str(why_no_browser())),
]
PHONE_SIDEWAYS = {"width": 844, "height": 390}  # a phone held sideways, in CSS pixels
PHONE_UPRIGHT = {"width": 390, "height": 844}


class Party:
    def __init__(self, env: dict[str, str], chromium: Any) -> None:
        self.serve, self.base, self.ssh_port = start_party(
            env, "--takeover", "600", "--pace", "0.05"
        )
        self.chromium = chromium
        self.clients = SshClients(env)
        self.requests: list[str] = []  # every request any page made

    def browser(self, phone: bool = False) -> PageTerminal:
        """A new browser (its own cookies): a desktop one, or a phone held sideways."""
        if phone:
            context = self.chromium.new_context(
                viewport=PHONE_SIDEWAYS, is_mobile=True, has_touch=True, device_scale_factor=3
            )
        else:
            context = self.chromium.new_context(viewport={"width": 1000, "height": 600})
        page = context.new_page()
        page.on("request", lambda request: self.requests.append(request.url))
        return PageTerminal(page, self.base, touch=phone)

    def ssh(self, name: str) -> Terminal:
        return self.clients.open(ssh_command(self.ssh_port, name, None), 100, 30)

    def close(self) -> None:
        self.clients.close()
        stop_party(self.serve)


@pytest.fixture
def party(env: dict[str, str], chromium: Any) -> Iterator[Party]:
    with closing(Party(env, chromium)) as running:
        yield running


FACE = re.compile(r"[│┃]\s?([0-9JQKA]{1,2}[♠♥♦♣])\s?[│┃]")
SUIT_OPTION = re.compile(r"\[[shdc]\] [♠♥♦♣] (?:spades|hearts|diamonds|clubs)")
BOTTOM = re.compile(r"[╰┗][─━]([─━×])[─━][╯┛]")


def playable(screen: str) -> list[tuple[int, str, int, int]]:
    """The cards in the hand that can be played now, as the screen marks them (a card that
    does not fit has a × under it): (number, face, column, row) of each."""
    lines = screen.splitlines()
    top = max(row for row, line in enumerate(lines) if "Your hand" in line)
    faces = {}
    marks = {}
    for row in range(top, len(lines)):  # (box lines only: a column is a cell there)
        for found in FACE.finditer(lines[row]):
            faces[found.start()] = (found.group(1), found.start(1), row)
        for found in BOTTOM.finditer(lines[row]):
            marks[found.start()] = found.group(1) != "×"
    in_order = sorted(faces)
    return [
        (number, *faces[column])
        for number, column in enumerate(in_order, start=1)
        if marks.get(column)
    ]


QUESTIONS = (*SUIT_QUESTIONS, ROUND_SUMMARY)  # asked over the hand, in a dialog


def picked_to_play(friend: PageTerminal, face: str) -> bool:
    """True once `face` is picked and the hand says how to play it; False if the turn passed
    or a question came instead (the caller's loop goes on either way)."""
    picked = f"Tap {face} again to play it"  # (on the page a card is played by a tap)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        screen = friend.screen()
        if picked in screen:
            return True
        if "Your hand — your turn" not in screen or any(q in screen for q in QUESTIONS):
            return False
        time.sleep(0.1)
    return False


def play_a_card(friend: PageTerminal, by_tap: bool = False) -> None:
    """On this player's turn: a card that fits, by its number then Enter (`by_tap`: a tap on
    it, and another to play it); else a draw (d, or a tap on Draw). A question that came up
    meanwhile is left for `answer_questions`."""
    screen = friend.screen()
    if any(asked in screen for asked in QUESTIONS):
        return
    fits = playable(screen)
    if not fits and by_tap:
        friend.tap("Draw")
    elif not fits:
        friend.keys("d")
    elif by_tap:
        _, face, column, row = fits[0]
        friend.tap_cell(column, row)  # (a tap on the card picked already plays it)
        if picked_to_play(friend, face):
            friend.tap_cell(column, row)
    else:
        number, face, _, _ = min(fits, key=lambda fit: fit[0] >= 10)  # one a digit picks, if any
        if number < 10:
            friend.keys(str(number))
        else:  # (an 11-card hand whose only fit was its 11th: d, refused, for 90 s)
            pick_by_arrows(friend, face)
        if picked_to_play(friend, face):
            friend.keys("Enter")


def pick_by_arrows(friend: PageTerminal, face: str) -> None:
    """Move the pick right, a card at a time, until it stands on `face` (bounded: twice round
    the largest hand the test meets)."""
    picked = f"Tap {face} again to play it"
    for _ in range(40):
        screen = friend.screen()
        if picked in screen or "Your hand — your turn" not in screen:
            return
        friend.keys("ArrowRight")
        deadline = time.monotonic() + 2  # (until the pick has moved, or something has)
        while friend.screen() == screen and time.monotonic() < deadline:
            time.sleep(0.05)


def answer_questions(friend: PageTerminal, by_tap: bool = False) -> None:
    """Name a suit, or close a round's summary, if one is asked of this player; then wait
    until the page no longer asks (the answer goes to the host and back: a page read before
    that still shows the question, and a second answer would go to whatever comes next)."""
    screen = friend.screen()
    asked = next((question for question in QUESTIONS if question in screen), None)
    if asked is None:
        return
    offered = SUIT_OPTION.findall(screen)  # "[c] ♣ clubs": only the question says so
    if asked == ROUND_SUMMARY:
        friend.keys("n")  # (a round's scores close on n)
    elif by_tap and offered:
        friend.tap(offered[0])
    else:
        friend.keys("Enter")
    poll(friend.screen, lambda now: asked not in now, 10)


def moved(friend: PageTerminal, name: str) -> bool:
    """True if the log on `friend`'s page shows a move of `name`'s (a card or a draw)."""
    log = friend.screen()
    return f"{name} plays" in log or any(f"{name} draws {n} card" in log for n in range(1, 9))


def test_friends_play_crates_from_a_browser_a_phone_and_ssh_at_one_table(party):
    ana = party.browser()
    ana.join("ana")
    assert "guest-ana" in ana.screen()
    ana.keys("n")
    ana.wait_for("A new table")
    ana.keys("ArrowDown", "ArrowDown", "ArrowDown", "ArrowRight")  # 4 players; short: yes
    ana.wait_for("yes")
    ana.keys("Enter")
    ana.wait_for("or tap Start now")  # (the page: taps are said, keys work too)

    # A phone, held sideways: the whole lobby at a readable size, operated by taps.
    bob = party.browser(phone=True)
    bob.join("bob")
    font, columns, rows = bob.size()
    assert font >= 12 and columns >= 80 and rows >= 24, bob.size()
    bob.wait_for("Crates (4)")
    bob.tap("Sit down")
    bob.wait_for("Tap Ready when you are ready")  # (a phone: taps, not keys)
    bob.tap("Ready / not ready")  # (the footer's key: "Tap Ready" is said above it)

    cat = party.ssh("cat")  # no key: a guest, as over SSH
    cat.wait_for("Crates (4)", timeout=30)
    cat.keys("Enter")
    cat.wait_for("Press r when you are ready", timeout=15)
    cat.keys("r")

    ana.wait_for("guest-bob, ready", "guest-cat, ready")
    ana.keys("s")  # the fourth seat: a bot
    for friend in (ana, bob):
        friend.wait_for("round 1 of 8", "Bot 4", "Your hand")
    cat.wait_for("round 1 of 8", "guest-ana", "guest-bob", timeout=30)

    # Everyone plays until ana has made a move by key and bob one by a tap.
    deadline = time.monotonic() + 90
    ana_moved = bob_moved = False  # (seen once is enough: the log scrolls on)
    while not (ana_moved and bob_moved):
        assert time.monotonic() < deadline, f"{ana.screen()}\n{bob.screen()}\n{cat.screen()}"
        answer_questions(ana)
        answer_questions(bob, by_tap=True)
        if "Your hand — your turn" in ana.screen():
            play_a_card(ana)
        if "Your hand — your turn" in bob.screen():
            play_a_card(bob, by_tap=True)
        take_turn_if_mine(cat)
        time.sleep(0.1)
        ana_moved = ana_moved or moved(ana, "guest-ana")
        bob_moved = bob_moved or moved(ana, "guest-bob")

    # Bob closes his tab's page (a reload) and is back in his seat, his hand dealt as before.
    bob.page.reload()
    bob.wait_for("guest-bob (you)", "Your hand", "round 1 of 8")
    # Upright, the phone shows the columns the table needs (a few more), in the largest letters
    # that fit them, and says that sideways is bigger.
    bob.page.set_viewport_size(PHONE_UPRIGHT)
    bob.page.wait_for_selector("#turn-hint", state="visible", timeout=10_000)
    needed = bob.page.evaluate("() => window.tablegames.wanted().columns")
    deadline = time.monotonic() + 10
    while bob.size()[1] >= 80 and time.monotonic() < deadline:
        time.sleep(0.1)
    font, columns, rows = bob.size()
    assert max(60, needed) <= columns < 80 and font >= 10, (bob.size(), needed)
    bob.page.set_viewport_size(PHONE_SIDEWAYS)
    bob.page.wait_for_selector("#turn-hint", state="hidden", timeout=10_000)
    bob.wait_for("guest-bob (you)", "Your hand")

    # Nothing came from anywhere but the party's own address: no web font, no script.
    outside = [url for url in party.requests if not url.startswith(party.base)]
    assert outside == [], outside
    for friend in (ana, bob):
        assert "Traceback" not in friend.screen()


def test_a_page_tells_why_it_cannot_join_in_a_sentence(party, tmp_path: Path):
    page = party.browser().page
    page.goto(party.base + "/")
    page.fill("#name", "   ")
    page.evaluate("() => document.getElementById('name').removeAttribute('required')")
    page.click("#join")
    assert "Type the name you want to play under" in page.inner_text("#problem")
    page.goto(party.base + "/nowhere")
    assert "open / to join the party" in page.inner_text("body")
