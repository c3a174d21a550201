"""A phone on the party's page, as a person holds it: taps and swipes on what the screen shows,
its soft keyboard for a name and a chat line, held upright or sideways."""

from __future__ import annotations

import time
from typing import Any

from ..e2e.terminal import REACTION, poll
from .browser import PageTerminal

UPRIGHT = {"width": 390, "height": 844}  # a phone held upright, in CSS pixels
SIDEWAYS = {"width": 844, "height": 390}
GAMES = ("crates", "roach", "crabs", "kraken")  # the new-table form's order


def phone_context(chromium: Any, held: dict[str, int]) -> Any:
    """A new phone (its own cookies): a touch screen, held as `held` says."""
    return chromium.new_context(
        viewport=dict(held), is_mobile=True, has_touch=True, device_scale_factor=3
    )


class Phone(PageTerminal):
    """The page on a phone: every move is a tap on what the screen shows (it has no keys to
    press: a line of chat is typed on its soft keyboard, and nothing else is)."""

    def __init__(self, page: Any, base: str) -> None:
        super().__init__(page, base, touch=True)
        self.tap_times: list[float] = []  # seconds from a tap to the screen's next change
        self.typed: list[tuple[str, str]] = []  # each line typed, and the question it answered

    def keys(self, *keys: str, after: float = 0.0) -> None:
        raise AssertionError(f"a phone has no keys to press ({keys}): tap what the screen shows")

    def press_at(self, x: float, y: float) -> None:
        """A tap; the time until the screen changes next is kept (up to two seconds)."""
        before = self.screen()
        began = time.monotonic()
        self.page.touchscreen.tap(x, y)
        while time.monotonic() < began + 2:
            if self.screen() != before:
                self.tap_times.append(time.monotonic() - began)
                return
            time.sleep(0.02)

    def tap_on_line(self, line: str, text: str, after: float = REACTION) -> None:
        """Tap `text` where it is drawn on the lowest line that also shows `line`."""
        time.sleep(after)
        spot = poll(lambda: self._where_on(line, text), lambda found: found is not None, 10)
        assert spot is not None, f"{text!r} is not on a line with {line!r}:\n{self.screen()}"
        self.press_at(spot["x"], spot["y"])

    def tap_if_shown(self, text: str, after: float = REACTION) -> bool:
        """Tap `text` if it is (still) on the screen; False if it has gone (the screen moved
        on by itself: a bot played, a summary closed)."""
        time.sleep(after)
        spot = self.where(text)
        if spot is None:
            return False
        self.press_at(spot["x"], spot["y"])
        return True

    def _where_on(self, line: str, text: str) -> dict[str, float] | None:
        found = self.page.evaluate("([t, l]) => window.tablegames.where(t, l)", [text, line])
        return found if isinstance(found, dict) else None

    def shows(self, text: str) -> bool:
        return text in self.screen()

    def swipe(self, on: str, rows: float) -> None:
        """Put a finger where `on` is drawn, move it `rows` down (less than 0: up), lift it."""
        spot = self.where(on)
        assert spot is not None, f"{on!r} is not on the page:\n{self.screen()}"
        row = self.row_height()
        touch = self.page.context.new_cdp_session(self.page)
        x, y = spot["x"], spot["y"]

        def finger(kind: str, at: float | None) -> None:
            points = [] if at is None else [{"x": x, "y": at, "id": 1}]
            touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        finger("touchStart", y)
        steps = int(max(4, abs(rows) * 2))
        for step in range(1, steps + 1):
            time.sleep(0.03)
            finger("touchMove", y + rows * row * step / steps)
        finger("touchEnd", None)
        touch.detach()

    def row_height(self) -> float:
        return float(
            self.page.evaluate(
                "() => { const b = document.querySelector('.xterm-screen')"
                ".getBoundingClientRect(); return b.height / window.tablegames.terminal.rows; }"
            )
        )

    def type_line(self, text: str) -> None:
        """Type `text` on the soft keyboard and send it (its Enter key): only into a line the
        screen asks for (a chat's "Say to ...")."""
        time.sleep(REACTION)
        asked = next((line for line in self.screen().splitlines() if "Say to" in line), "")
        assert asked, f"nothing asks for a line to type:\n{self.screen()}"
        self.typed.append((text, asked.strip(" │█")))
        self.page.keyboard.type(text, delay=30)
        self.page.keyboard.press("Enter")

    def box(self, selector: str) -> dict[str, float]:
        """Where `selector` is on the page (x, y, width, height in CSS pixels)."""
        found = self.page.locator(selector).bounding_box()
        assert found is not None, f"{selector} is not shown"
        return dict(found)

    def open_table(self, game: str, players: int | None = None, **options: str) -> None:
        """New table, by taps: the game, the players and the game's options (by their titles
        on the form: `Short_game="yes"`, `Board="quick"`) on the form's steppers, then Open
        the table; waits for the waiting room."""
        self.tap_until("New table", "A new table")
        for _ in range(2 * len(GAMES)):  # ▶ until it shows the game (a tap can be lost)
            if f" {game} " in self._line_with("Game"):
                break
            shown = self._line_with("Game")
            self.tap_on_line("Game", "▶")
            deadline = time.monotonic() + 5
            while self._line_with("Game") == shown and time.monotonic() < deadline:
                time.sleep(0.1)
        self.wait_for(game)
        while players is not None and f" {players} " not in self._line_with("Players"):
            shown = int(self._line_with("Players").split("◀")[1].split("▶")[0])
            self.tap_on_line("Players", "▶" if shown < players else "◀")
            deadline = time.monotonic() + 5
            while f" {shown} " in self._line_with("Players") and time.monotonic() < deadline:
                time.sleep(0.1)
        for title, value in options.items():
            title = title.replace("_", " ")
            for _ in range(4):  # (a stepper has a few values: ▶ until it shows this one)
                if f" {value} " in self._line_with(title):
                    break
                shown = self._line_with(title)
                self.tap_on_line(title, "▶")
                deadline = time.monotonic() + 5
                while self._line_with(title) == shown and time.monotonic() < deadline:
                    time.sleep(0.1)
            assert f" {value} " in self._line_with(title), self.screen()
        self.tap("Open the table")
        self.wait_for("Start now")

    def _line_with(self, text: str) -> str:
        """The lowest line showing `text`, as `tap_on_line` taps (a dialog's "Game" line is
        below the lobby's "Table  Game  State" heading, once a table is listed)."""
        return next((line for line in reversed(self.screen().splitlines()) if text in line), "")

    def reopen(self) -> None:
        """Close the tab and open the party's page in a new one (the phone keeps its cookie)."""
        context = self.page.context
        self.page.close()
        self.page = context.new_page()
        self.page.goto(self.base + "/")

    def to_the_lobby(self) -> None:
        """Leave the table for the lobby, by taps (Quit, then Lobby; at the end of a game, its
        Back to the lobby)."""
        if OVER in self.screen():  # (the end takes taps once it has been up a moment)
            self.tap_until(OVER, "n opens a new table")
        else:
            self.tap_until("Quit", "Lobby (m)")
            self.tap("Lobby (m)")
            self.wait_for("n opens a new table")


#: The end of a party game is up (not "Game over" in the log, under the last round's scores).
OVER = "Back to the lobby (m)"
