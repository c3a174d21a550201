"""A whole party night with phones (issue 38, `slow`): one `tablegames serve --web`, three
friends over real OpenSSH clients and two on phones (headless Chromium, held upright and
sideways), each friend at their own pace in a thread of their own.

Two tables at once: ann (ssh) and pia (a phone) play crates to the end and a rematch; max (a
phone) opens roach, where bob (ssh) sits down, drops his connection and comes back, then goes
back to the lobby mid-game and says something there. pia closes her tab mid-rematch and opens it
again, goes back to the lobby and plays crabs to the end; ann's ssh drops in the rematch; max
plays roach to the end, then Feed the Kraken to the end; cat arrives late and watches.

The host steps in at the serve's console (a terminal of its own): bob sits at roach without
saying he is ready and the host's `start` deals at once (a bot plays for him until he presses
r); later the host gives his seat to a bot (he is in the lobby, told so on its own line, and
Enter at that table says why instead of ending his session); and frees ann's seat in the
rematch after her drop (her chat, back at the table, was the table's), which she takes back from
the lobby at once. A
spectator at every table (`tests/e2e/night.py`) and the frames the server sent every connection
(`tests/e2e/wiretap.py`) then say: no table with a seat waiting went longer than the takeover and
two seconds without an action, every reconnect landed at the table it left, each phone moved by
taps only, and the leak scanner finds no secret in what any screen was sent. The figures go to
`bench/party_night.py --phones`. Loopback only; every wait is bounded.
"""

from __future__ import annotations

import contextlib
import os
import pty
import re
import shlex
import shutil
import signal
import termios
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tablegames.testing.metrics import record

from ..e2e.night import Night
from ..e2e.processes import serve_announced, stop
from ..e2e.terminal import Terminal
from ..e2e.wiretap import ENV as WIRE
from ..e2e.wiretap import comebacks, leaks
from ..net.ssh_harness import SshClients, make_key, ssh_client_pid, ssh_command
from .browser import WEB_ARGS, launch_chromium, page_address, stop_party, why_no_browser
from .phone import SIDEWAYS, UPRIGHT, Phone, phone_context
from .phone_games import play_to_the_end

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.timeout(2400),
    pytest.mark.skipif(why_no_browser() is not None, reason=str(why_no_browser())),
    pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client"),
]
TAKEOVER = 3.0  # seconds before a bot stands in for somebody away
ALLOWED = TAKEOVER + 2.0  # the longest a table may wait on an absent player
MINUTES = 30  # the whole night, at most


class Stopped(Exception):
    """Another friend's script failed: this one stops where it is."""


class NightOut:
    """The party, its spectator, and the friends' scripts running side by side."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.wire = home / "wire"
        self.wire.mkdir()
        env = {**os.environ, "TABLEGAMES_HOME": str(home), "TABLEGAMES_LOG": "info"}
        # The host's console: a terminal the test types commands into (no echo), as a host does.
        self.console, console = pty.openpty()
        attributes = termios.tcgetattr(console)
        attributes[3] &= ~termios.ECHO
        termios.tcsetattr(console, termios.TCSANOW, attributes)
        self.serve, said = serve_announced(
            {**env, WIRE: str(self.wire), "PYTHONUNBUFFERED": "1"},
            *WEB_ARGS, "--takeover", str(TAKEOVER), "--pace", "0.05",
            module="tests.e2e.wiretap", console=console,
        )  # fmt: skip
        os.close(console)
        (self.output,) = home.glob("serve-*.out")
        ssh = re.search(r"ssh -p (\d+) NAME@", said)
        tcp = re.search(r"tablegames join 127\.0\.0\.1:(\d+)", said)
        assert ssh and tcp, said
        self.base, self.ssh_port = page_address(said), int(ssh.group(1))
        self.night = Night(int(tcp.group(1)), ALLOWED).start()
        self.clients = SshClients(env)
        self.keys = home / "keys"
        self.keys.mkdir()
        self.stop = threading.Event()
        self.failures: list[str] = []
        self.threads: list[threading.Thread] = []
        self.figures: dict[str, list[float]] = {"ssh_back_s": [], "phone_back_s": []}
        self.taps: list[float] = []
        self.phones: list[Phone] = []
        self.kraken_started = threading.Event()
        self.max_ready = threading.Event()  # max opened roach and is ready...
        self.bob_waiting = threading.Event()  # ...bob sits there, not ready: the host starts it
        self.bob_back = threading.Event()  # bob is back at his roach seat: the host bots it
        self.ann_back = threading.Event()  # ann is back at the rematch: the host frees her seat

    # -- friends ---------------------------------------------------------------------------------
    def friend(self, name: str, script: Callable[[], None]) -> None:
        """Run `script` in a thread of its own; a failure stops every other friend."""

        def run() -> None:
            try:
                script()
            except Stopped:
                pass
            except BaseException:
                self.failures.append(f"{name}: {traceback.format_exc()}")
                self.stop.set()

        thread = threading.Thread(target=run, name=name, daemon=True)
        self.threads.append(thread)
        thread.start()

    def phone(self, name: str, held: dict[str, int], script: Callable[[Phone], None]) -> None:
        """A friend on a phone (a Chromium of its own: Playwright's objects stay in the thread
        that made them)."""

        def run() -> None:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as playwright:
                browser = launch_chromium(playwright, "--disable-background-networking")
                try:
                    phone = NightPhone(phone_context(browser, held).new_page(), self.base)
                    phone.stop = self.stop
                    self.phones.append(phone)
                    try:
                        script(phone)
                    except Stopped:  # (where it stood, for the failure's story)
                        self.failures.append(f"{name} stopped at:\n{Phone.screen(phone)}")
                        raise
                    self.taps += phone.tap_times
                finally:
                    browser.close()

        self.friend(name, run)

    def login(self, name: str) -> NightTerminal:
        if not (self.keys / name).exists():
            make_key(self.keys, name)
        ssh = ssh_command(self.ssh_port, name, self.keys / name)
        script = f"{shlex.join(ssh)}; echo SSH-EXIT=$?"  # (as `SshClients` opens one)
        terminal = NightTerminal(["sh", "-c", script], self.clients.env, 100, 30)
        terminal.stop = self.stop
        self.clients.opened.append(terminal)
        return terminal

    def drop_and_return(self, friend: Terminal, name: str, *shown: str) -> Terminal:
        """The friend's ssh dies (a laptop's lid shut); they log in again and are back at
        their seat (showing `shown`): the seconds it took are kept."""
        os.kill(ssh_client_pid(friend), signal.SIGKILL)
        friend.wait_for("SSH-EXIT=", timeout=15)
        began = time.monotonic()
        again = self.login(name)
        again.wait_for(f"{name} (you)", *shown, timeout=60)
        self.figures["ssh_back_s"].append(time.monotonic() - began)
        return again

    def host(self, command: str, *answer: str, timeout: float = 15) -> str:
        """The host types `command` at the serve's console; what the serve printed since, once
        it shows every one of `answer`."""
        start = len(self.output.read_text())
        os.write(self.console, f"{command}\n".encode())
        deadline = time.monotonic() + timeout
        while True:
            said = self.output.read_text()[start:]
            if all(text in said for text in answer):
                return said
            assert time.monotonic() < deadline, f"`{command}` never said {answer!r}: {said}"
            time.sleep(0.1)

    def awaited(self, event: threading.Event, what: str) -> None:
        """Until `event` is set by another friend (Stopped if a friend failed)."""
        deadline = time.monotonic() + 25 * 60
        while not event.wait(1):
            if self.stop.is_set():
                raise Stopped
            assert time.monotonic() < deadline, f"{what} never came"

    def wait(self) -> None:
        deadline = time.monotonic() + MINUTES * 60
        for thread in self.threads:
            thread.join(timeout=max(deadline - time.monotonic(), 0.1))
        late = [thread.name for thread in self.threads if thread.is_alive()]
        if late:
            self.stop.set()
            self.failures.append(f"still going after {MINUTES} min: {late}")

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)
        self.night.stop()
        self.clients.close()
        stop_party(self.serve)
        os.close(self.console)


class StopsLooking:
    """A friend's screen at the night: it stops looking once another friend's script has
    failed (mixed in before the screen's own class)."""

    stop: threading.Event

    def screen(self) -> str:
        if self.stop.is_set():
            raise Stopped
        return super().screen()  # type: ignore[misc]


class NightPhone(StopsLooking, Phone):
    """A phone at the night."""


class NightTerminal(StopsLooking, Terminal):
    """An ssh client's terminal at the night."""


@pytest.fixture
def party(tmp_path: Path) -> Iterator[NightOut]:
    running = NightOut(tmp_path)
    yield running
    running.close()


# -- what each friend does -------------------------------------------------------------------------
def open_table(friend: Terminal, game_steps: int, title: str, *more: str) -> None:
    """In the lobby: `n`, the game `game_steps` to the right of crates, 3 players, then the
    keys `more` in the form, Enter."""
    friend.wait_for("n opens a new table", timeout=30)
    friend.keys("n")
    friend.wait_for("A new table", timeout=10)
    friend.keys(*["Right"] * game_steps)
    friend.wait_for(title, timeout=5)
    friend.keys("Down", "Left", *more)  # players: 3 (crates and roach offer 4 first)
    friend.keys("Enter")
    friend.wait_for("or s to start now", timeout=15)


def choose(friend: Terminal, title: str) -> None:
    """In the lobby, highlight the table whose game is `title` (▶ marks the highlighted): one
    Down at a time, each seen drawn before the next (a Down sent before the last one shows
    would pass the table by)."""

    def highlighted() -> str:
        return next((line for line in friend.screen().splitlines() if "▶" in line), "")

    for _ in range(10):
        chosen = highlighted()
        if title in chosen:
            return
        friend.keys("Down", after=0)
        deadline = time.monotonic() + 5
        while highlighted() == chosen and time.monotonic() < deadline:
            time.sleep(0.05)
    raise AssertionError(f"no {title} table to choose:\n{friend.screen()}")


def scores_closed(friend: Terminal, screen: str) -> bool:
    """Close a round's scores (or the final standings) with n if `screen` shows them: whether
    it did."""
    if "Next round (n)" in screen or "The final standings (n)" in screen:
        friend.keys("n", after=1.2)  # (the scores take keys once they have been up a moment)
        return True
    return False


def to_the_lobby(friend: Terminal) -> None:
    """Back to the lobby from a table, by keys: a round's scores closed first (n), then q and
    m (at the end of a game, its m)."""
    deadline = time.monotonic() + 60
    while "n opens a new table" not in friend.screen():
        assert time.monotonic() < deadline, friend.screen()
        screen = friend.screen()
        if not scores_closed(friend, screen):
            if "Lobby (m)" in screen or "Back to the lobby (m)" in screen:
                friend.keys("m", after=1.2)
            else:
                friend.keys("q")
        shown = time.monotonic() + 5  # (what the key opened, or the lobby)
        while time.monotonic() < shown and friend.screen() == screen:
            time.sleep(0.1)


def crates_turn(friend: Terminal) -> None:
    """A crates turn by keys if it is this friend's: the first card that fits (the first suit
    when asked), else a draw; a round's scores closed with n."""
    screen = friend.screen()
    if scores_closed(friend, screen):
        return
    if "Name a suit" in screen or "yours to name" in screen:
        friend.keys("Enter")
    elif "your turn" in screen:
        for number in range(1, 10):
            friend.keys(str(number), after=0.05)
            time.sleep(0.05)
            if "Enter plays" in friend.screen():
                friend.keys("Enter")
                return
        friend.keys("d")


#: This friend's own rematch asked for (another's "ann wants a rematch" is not this one's).
ASKED = ("Asked for a rematch",)


def rematch(phone: Phone) -> None:
    """At the end of a game: tap Rematch (again, if the tap came while the end settled) and
    wait for the new game."""
    for _ in range(5):  # (a tap while the end settles is not taken: a person taps again)
        phone.tap_if_shown("Rematch (r)", after=1.0)
        with contextlib.suppress(AssertionError):
            phone.wait_for_any(*ASKED, "ound 1 of 8", timeout=5)
            break
    phone.wait_for("ound 1 of 8", "Your hand", timeout=120)  # (upright: "Round 1 of 8")


def chat_shown(friend: Terminal) -> str:
    """Open the chat line at a table (a round's scores closed first): what it shows."""
    deadline = time.monotonic() + 60
    while "Say to" not in friend.screen():
        assert time.monotonic() < deadline, friend.screen()
        if not scores_closed(friend, friend.screen()):
            friend.keys("/", after=1.0)
    return friend.screen()


def ann_plays(party: NightOut) -> None:
    """Crates with pia to the end, a rematch, her ssh dropped in it, then the lobby."""
    friend = party.login("ann")
    open_table(friend, 0, "crates", "Down", "Down", "Right")  # short game: yes (8 rounds)
    friend.wait_for("guest-pia, ready", timeout=90)
    friend.keys("s")
    friend.wait_for("ann (you)", "Your hand", timeout=30)
    deadline = time.monotonic() + 20 * 60
    while "Rematch (r)" not in friend.screen():
        assert time.monotonic() < deadline, friend.screen()
        crates_turn(friend)
        time.sleep(0.2)
    for _ in range(5):  # (the end takes keys once it has been up a moment, the keyboard still)
        friend.keys("r", after=1.5)
        with contextlib.suppress(AssertionError):
            friend.wait_for_any(*ASKED, "round 1 of 8", timeout=5)
            break
    friend.wait_for("round 1 of 8", "Your hand", timeout=120)  # (once pia wants it too)
    until = time.monotonic() + 20
    while time.monotonic() < until:
        crates_turn(friend)
        time.sleep(0.2)
    friend = party.drop_and_return(friend, "ann", "Your hand", "Crates")
    said = chat_shown(friend)  # a new session, straight at the table: the table's chat
    assert "good luck from a crates phone" in said and "back in a bit" not in said, said
    friend.keys("Escape")
    party.ann_back.set()  # the host frees her seat: a bot plays it until she is back
    friend.wait_for("until you come back to it", "Lobby chat", timeout=30)
    choose(friend, "Crates (3)")
    friend.keys("Enter")  # her seat, at once: nobody waits for her to be ready
    screen = friend.wait_for("ann (you)", "Your hand", timeout=30)
    assert "when you are ready" not in screen, screen
    until = time.monotonic() + 10
    while time.monotonic() < until:
        crates_turn(friend)
        time.sleep(0.2)
    to_the_lobby(friend)  # the bots finish the rematch


def pia_plays(phone: Phone, party: NightOut) -> None:
    """A phone held upright: crates with ann to the end and the rematch, her tab closed and
    opened again mid-rematch, back to the lobby, crabs to the end."""
    phone.join("pia")
    phone.wait_for("Crates (3)", timeout=90)
    phone.tap("Crates (3)")
    phone.tap_until("Sit down", "Tap Ready when you are ready")
    phone.tap("Ready / not ready")  # (the footer's key: "Tap Ready" is said above it)
    phone.wait_for("(you)", "Your hand", timeout=90)  # (upright: "guest-… (you)")
    play_to_the_end(phone, "crates", 20)  # (and a line of chat)
    rematch(phone)
    began = time.monotonic()
    phone.reopen()  # the tab closed by mistake, and opened again
    screen = phone.wait_for("(you)", "Your hand", timeout=60)
    party.figures["phone_back_s"].append(time.monotonic() - began)
    assert "ound 1 of 8" in screen or "ound 2 of 8" in screen, screen  # the rematch's seat
    phone.to_the_lobby()
    phone.open_table("crabs", 4)
    phone.tap("Start now")
    play_to_the_end(phone, "crabs", 15)
    phone.to_the_lobby()


def max_plays(phone: Phone, party: NightOut) -> None:
    """A phone held sideways: roach with bob (who leaves) to the end, then Feed the Kraken."""
    phone.join("max")
    phone.open_table("roach", 3)
    phone.tap_until("Ready / not ready", "guest-max, ready")
    phone.wait_for("guest-max, ready", timeout=30)
    party.max_ready.set()
    phone.wait_for("2. bob", timeout=90)  # (not ready: the host starts it, a bot plays for him)
    phone.wait_for("guest-max (you)", timeout=120)
    play_to_the_end(phone, "roach", 15)
    phone.to_the_lobby()
    phone.open_table("kraken", 5, Board="quick")
    phone.tap("Start now")
    phone.wait_for("guest-max*", timeout=60)  # (the crew marks you with a star)
    party.kraken_started.set()
    play_to_the_end(phone, "kraken", 15)
    phone.to_the_lobby()


def bob_plays(party: NightOut) -> None:
    """Sits down at max's roach table and is not ready when the host starts it: a bot plays for
    him until he presses r. Drops, comes back to it, goes to the lobby and chats, sits back down;
    the host gives his seat to a bot: the lobby, where Enter at that table says why."""
    friend = party.login("bob")
    friend.wait_for("Poker Royal (3)", timeout=120)
    choose(friend, "Poker Royal (3)")
    friend.keys("Enter")
    friend.wait_for("Press r when you are ready", timeout=30)
    party.bob_waiting.set()
    friend.wait_for("a bot plays your seat until you press r", timeout=60)
    friend.keys("r")
    friend.wait_for("bob (you)", "Penalty pile", timeout=90)
    friend = party.drop_and_return(friend, "bob", "Penalty pile")
    to_the_lobby(friend)
    friend.wait_for("bob, away", "a bot plays", timeout=30)  # (the line may wrap)
    friend.keys("/")
    friend.wait_for("Say to", timeout=10)
    friend.keys("back in a bit", "Enter")
    friend.wait_for("bob: back in a bit", timeout=10)
    choose(friend, "Poker Royal (3)")
    friend.keys("Enter")  # back at his seat
    friend.wait_for("bob (you)", "Penalty pile", timeout=30)
    party.bob_back.set()
    friend.wait_for("The host gave your seat to a bot", "Lobby chat", timeout=30)
    choose(friend, "Poker Royal (3)")
    friend.keys("Enter")  # (it ended sessions on main: "Sorry: something went wrong")
    friend.wait_for("gave your seat at this table to a bot", timeout=30)
    assert "Sorry" not in friend.screen(), friend.screen()


def host_steps_in(party: NightOut) -> None:
    """The host at the serve's console: starts roach with bob not ready, gives his seat to a bot
    later, and frees ann's seat in the rematch."""
    party.awaited(party.max_ready, "max ready at roach")
    party.awaited(party.bob_waiting, "bob at roach")
    said = party.host("tables", "Cockroach Poker Royal for 3, waiting")
    found = re.search(r"(\w{4})  Cockroach Poker Royal for 3, waiting", said)
    assert found, said
    roach = found.group(1)
    party.host(
        f"start {roach}",
        f"Table {roach}: the game begins; a bot plays for bob until they say they are ready (r).",
    )
    party.awaited(party.bob_back, "bob back at roach")
    party.host(f"bot {roach} 2", f"Table {roach}: done.")
    party.awaited(party.ann_back, "ann back in the rematch")
    said = party.host("tables", "Crates for 3, playing")
    found = re.search(r"(\w{4})  Crates for 3, playing", said)
    assert found, said
    party.host(f"free {found.group(1)} 1", f"Table {found.group(1)}: done.")


def cat_watches(party: NightOut) -> None:
    """Arrives late, once Feed the Kraken is on, and watches it a while."""
    party.awaited(party.kraken_started, "the kraken table")
    friend = party.login("cat")
    friend.wait_for("Kraken", timeout=30)
    choose(friend, "Kraken")
    friend.keys("w")
    watching = friend.wait_for("You are watching", timeout=30)
    deadline = time.monotonic() + 30
    while friend.screen() == watching:  # the game goes on before the watcher's eyes
        assert time.monotonic() < deadline, watching
        time.sleep(0.2)


def test_a_party_night_with_phones_holds(party: NightOut) -> None:
    party.friend("ann", lambda: ann_plays(party))
    party.phone("pia", UPRIGHT, lambda phone: pia_plays(phone, party))
    party.phone("max", SIDEWAYS, lambda phone: max_plays(phone, party))
    party.friend("bob", lambda: bob_plays(party))
    party.friend("cat", lambda: cat_watches(party))
    party.friend("the host", lambda: host_steps_in(party))
    party.wait()
    assert party.failures == [], "\n".join(party.failures)

    figures = party.night.figures()
    assert party.night.freezes() == [], figures
    assert {"crates", "roach", "crabs", "kraken"} <= party.night.games_seen(), figures
    back = comebacks(party.wire)
    assert len(back) >= 3 and all(left == landed for _, left, landed in back), back
    for phone in party.phones:  # every move a tap; the keyboard only for a line of chat
        assert all("Say to" in asked for _, asked in phone.typed), phone.typed
    stop(party.serve, timeout=30)  # (the store complete before it is read)
    frames, found = leaks(party.wire, party.home / "tablegames.db")
    assert found == [], "\n".join(found[:20])
    record(
        "night_phones",
        tables=figures,
        ssh_back_s=[round(s, 2) for s in party.figures["ssh_back_s"]],
        phone_back_s=[round(s, 2) for s in party.figures["phone_back_s"]],
        tap_to_screen_ms=[round(1000 * s) for s in party.taps],
        frames_scanned=frames,
        comebacks=len(back),
    )
    assert frames > 1000 and party.taps
