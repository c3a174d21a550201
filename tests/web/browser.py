"""Driving the party's web page in headless Chromium (the distribution's, through Playwright):
what the terminal shows is read as text from xterm.js's buffer, keys are typed, text is tapped."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..e2e.processes import serve_announced
from ..e2e.terminal import REACTION

CHROMIUM = "/usr/bin/chromium"


def why_no_browser() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        return "needs the distribution's chromium (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "needs Playwright (pip install playwright; it is in the test extra)"
    return None


class PageTerminal:
    """One browser tab on the party's page."""

    def __init__(self, page: Any, base: str, touch: bool = False) -> None:
        self.page = page
        self.base = base
        self.touch = touch  # a phone's touch screen: taps, not clicks

    def join(self, name: str, code: str = "") -> None:
        """Open the page, give a name, and wait for the lobby."""
        self.page.goto(self.base + "/")
        self.page.fill("#name", name)
        if code:
            self.page.fill("#code", code)
        self.page.click("#join")
        self.wait_for("n opens a new table")

    def screen(self) -> str:
        """What the terminal shows ("" while the page is loading)."""
        from playwright.sync_api import Error

        try:
            return str(
                self.page.evaluate("() => window.tablegames ? window.tablegames.screen() : ''")
            )
        except Error:  # (a page going to the next one: nothing is shown yet)
            return ""

    def wait_for(self, *texts: str, timeout: float = 30.0) -> str:
        """The page's text once it shows every one of `texts`."""
        return self._wait(all, texts, timeout)

    def wait_for_any(self, *texts: str, timeout: float = 30.0) -> str:
        """The page's text once it shows one of `texts`."""
        return self._wait(any, texts, timeout)

    def wait_gone(self, text: str, timeout: float = 30.0) -> str:
        """The page's text once it no longer shows `text`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text not in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} stayed; the page shows:\n{self.screen()}")

    def _wait(self, shown: Callable[[Iterable[bool]], bool], texts: tuple[str, ...],
              timeout: float) -> str:  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if shown(text in screen for text in texts):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{texts} never showed; the page shows:\n{self.screen()}")

    def keys(self, *keys: str, after: float = REACTION) -> None:
        """Press `keys` (Playwright's names: "ArrowDown", "Enter", "n"), as a person would."""
        time.sleep(after)
        for key in keys:
            self.page.keyboard.press(key)

    def where(self, text: str) -> dict[str, float] | None:
        found = self.page.evaluate("(text) => window.tablegames.where(text)", text)
        return found if isinstance(found, dict) else None

    def tap(self, text: str, after: float = REACTION) -> None:
        """Tap (or click, on a page without touch) where `text` is drawn."""
        time.sleep(after)
        deadline = time.monotonic() + 10  # (a screen can be caught half drawn: its footer)
        spot = self.where(text)
        while spot is None and time.monotonic() < deadline:
            time.sleep(0.1)
            spot = self.where(text)
        assert spot is not None, f"{text!r} is not on the page:\n{self.screen()}"
        self.press_at(spot["x"], spot["y"])

    def tap_cell(self, column: int, row: int, after: float = REACTION) -> None:
        """Tap (or click) the cell at `column`, `row` of the terminal (from 0)."""
        time.sleep(after)
        spot = self.page.evaluate("([c, r]) => window.tablegames.cell(c, r)", [column, row])
        self.press_at(spot["x"], spot["y"])

    def press_at(self, x: float, y: float) -> None:
        """A tap (a click, on a page without touch) at page point `x`, `y`."""
        if self.touch:
            self.page.touchscreen.tap(x, y)
        else:
            self.page.mouse.click(x, y)

    def size(self) -> tuple[int, int, int]:
        """The font size (CSS pixels), columns and rows the page gave its terminal."""
        font, columns, rows = self.page.evaluate(
            "() => { const t = window.tablegames.terminal;"
            " return [t.options.fontSize, t.cols, t.rows]; }"
        )
        return int(font), int(columns), int(rows)


def start_party(
    env: dict[str, str], *args: str, python: str = sys.executable
) -> tuple[subprocess.Popen[str], str, int]:
    """`tablegames serve --web 0` on free loopback ports (with the interpreter `python`);
    returns it, the page's address and the SSH port."""
    serve, said = serve_announced(env, "--web", "0", *args, python=python)
    web = re.search(r"(http://127\.0\.0\.1:\d+)", said)
    ssh = re.search(r"ssh -p (\d+) NAME@", said)
    assert web and ssh, said
    return serve, web.group(1), int(ssh.group(1))


def stop_party(serve: subprocess.Popen[str]) -> None:
    serve.send_signal(signal.SIGINT)
    try:
        serve.wait(timeout=15)
    except subprocess.TimeoutExpired:
        serve.kill()
        serve.wait(timeout=5)
