"""Driving the party's web page in headless Chromium (the distribution's, through Playwright):
what the terminal shows is read as text from xterm.js's buffer, keys are typed, text is tapped."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult

from ..e2e.processes import serve_announced, stop
from ..e2e.terminal import REACTION, ScreenWaits, poll

CHROMIUM = "/usr/bin/chromium"
#: Browser tests reach the party as a phone on a LAN does, by a name: not `localhost` nor an
#: address, so Chromium counts the page a non-secure origin (plain http: no Sec-Fetch-*
#: headers, no `crypto.subtle`) exactly as at a real party, while it resolves the name to
#: loopback, so every packet stays on this machine. The party is told the name is its own.
PARTY_NAME = "party.lan"
#: Other names Chromium resolves to loopback: another site's page, and a name the party was
#: not given (a page whose name was made to resolve to the party's address).
ELSEWHERE = "elsewhere.lan"
REBOUND = "rebound.lan"
#: Every other name resolves to nothing (no lookup leaves the machine); addresses as typed.
RESOLVER_RULES = ", ".join(
    [
        *(f"MAP {name} 127.0.0.1" for name in (PARTY_NAME, ELSEWHERE, REBOUND)),
        "MAP * ~NOTFOUND",
        "EXCLUDE 127.0.0.1",
        "EXCLUDE localhost",
    ]
)
#: What `tablegames serve` is given for a browser door tests reach by `PARTY_NAME`.
WEB_ARGS = ("--web", "0", "--web-name", PARTY_NAME)


class TestNames(AbstractResolver):
    """aiohttp's resolver for a script that reaches the party as Chromium does: the test
    names (and loopback's) to 127.0.0.1, any other name to nothing (no lookup leaves here)."""

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        if host not in (PARTY_NAME, ELSEWHERE, REBOUND, "localhost", "127.0.0.1"):
            raise OSError(f"{host} is not one of the tests' names")
        address = ResolveResult(
            hostname=host, host="127.0.0.1", port=port, family=socket.AF_INET, proto=0,
            flags=socket.AI_NUMERICHOST,
        )  # fmt: skip
        return [address]

    async def close(self) -> None:
        pass


def by_test_names() -> aiohttp.ClientSession:
    """An HTTP client that finds the party at `PARTY_NAME`, as a LAN phone does."""
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(resolver=TestNames()))


def launch_chromium(playwright: Any, *args: str) -> Any:
    """Headless Chromium (the distribution's: Playwright's own download is not used), with
    the test names resolved to loopback (`PARTY_NAME`)."""
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=["--no-sandbox", "--disable-gpu", f"--host-resolver-rules={RESOLVER_RULES}", *args],
    )


@contextmanager
def headless_chromium(*args: str) -> Iterator[Any]:
    """`launch_chromium` for a `with` block, which gets the browser; closed as it ends."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright, *args)
        try:
            yield browser
        finally:
            browser.close()


def page_address(said: str) -> str:
    """The party's page as a LAN browser opens it (`http://party.lan:PORT`), found in what
    `tablegames serve` printed."""
    found = re.search(rf"http://{re.escape(PARTY_NAME)}:\d+", said)
    assert found, said
    return found.group(0)


def why_no_browser() -> str | None:
    """Why the browser tests cannot run here (None: they can). Where they must run (CI sets
    TABLEGAMES_REQUIRE_BROWSER), a missing browser fails the run instead of skipping them."""
    why = None
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        why = "needs the distribution's chromium (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            why = "needs Playwright (pip install playwright; it is in the test extra)"
    if why is not None and os.environ.get("TABLEGAMES_REQUIRE_BROWSER"):
        raise RuntimeError(f"the browser tests must run here (TABLEGAMES_REQUIRE_BROWSER): {why}")
    return why


class PageTerminal(ScreenWaits):
    """One browser tab on the party's page."""

    patience = 30.0

    def __init__(self, page: Any, base: str, touch: bool = False) -> None:
        self.page = page
        self.base = base
        self.touch = touch  # a phone's touch screen: taps, not clicks

    def join(self, name: str, code: str = "") -> None:
        """Open the page, give a name (and the join code), Join, and wait for the lobby."""
        self.page.goto(self.base + "/")
        self.page.fill("#name", name)
        if code:
            self.page.fill("#code", code)
        if self.touch:
            self.page.tap("#join")
        else:
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
        # (a screen can be caught half drawn: its footer)
        spot = poll(lambda: self.where(text), lambda found: found is not None, 10)
        assert spot is not None, f"{text!r} is not on the page:\n{self.screen()}"
        self.press_at(spot["x"], spot["y"])

    def tap_until(self, text: str, shown: str, tries: int = 3) -> None:
        """Tap `text` until `shown` is on the screen (a tap on a screen being redrawn can miss,
        and a person taps again)."""
        for _ in range(tries):
            self.tap(text)
            if poll(self.screen, lambda screen: shown in screen, 5) is not None:
                return
        raise AssertionError(f"tapping {text!r} never showed {shown!r}:\n{self.screen()}")

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
    returns it, the page's address (by `PARTY_NAME`) and the SSH port."""
    serve, said = serve_announced(env, *WEB_ARGS, *args, python=python)
    ssh = re.search(r"ssh -p (\d+) NAME@", said)
    assert ssh, said
    return serve, page_address(said), int(ssh.group(1))


#: The party server stops as every `tablegames` server does: as Ctrl-C stops it.
stop_party = stop
