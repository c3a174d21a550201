"""Driving the real `tablegames` command in a real terminal: tmux send-keys and capture-pane."""

from __future__ import annotations

import atexit
import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

#: Seconds a person takes to read what changed before pressing a key (the screens drop keys
#: typed in the first moment after a question changes: `tablegames/tui/screens/typeahead.py`).
REACTION = 0.4
T = TypeVar("T")

#: tmux as the tests run it: a server of this test process's own (its own socket), read from no
#: configuration. The tests neither see nor touch a person's own tmux sessions (a `tmux
#: kill-server` typed in another window of the same machine ended a whole run's terminals),
#: and a person's ~/.tmux.conf (its sizes, keys, history) cannot change what a test reads.
SOCKET = f"tablegames-tests-{os.getpid()}"
TMUX = ("tmux", "-L", SOCKET, "-f", "/dev/null")


@atexit.register
def _end_tmux() -> None:
    """End this process's tmux server, and remove its socket (tmux leaves the file behind)."""
    subprocess.run([*TMUX, "kill-server"], capture_output=True, check=False)
    folder = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
    (folder / SOCKET).unlink(missing_ok=True)


def poll(read: Callable[[], T], ready: Callable[[T], bool], timeout: float) -> T | None:
    """What `read()` returns once `ready` holds of it, asked every 0.1 s for up to `timeout`
    seconds; None if it never does."""
    deadline = time.monotonic() + timeout
    while True:
        found = read()
        if ready(found):
            return found
        if time.monotonic() > deadline:
            return None
        time.sleep(0.1)


class ScreenWaits:
    """Waiting on what a terminal shows (`screen()`, the subclass's) until it shows what a test
    waits for, for `patience` seconds unless told; AssertionError with the screen if it never
    does."""

    patience = 20.0

    def screen(self) -> str:
        raise NotImplementedError

    def wait_for(self, *texts: str, timeout: float | None = None) -> str:
        """The screen once it shows every one of `texts` (a screen can be caught half drawn, so
        ask for everything a check reads)."""
        return self._shown(
            lambda screen: all(text in screen for text in texts),
            timeout,
            f"{texts!r} never all appeared",
        )

    def wait_for_any(self, *texts: str, timeout: float | None = None) -> str:
        """The screen once it shows one of `texts`."""
        return self._shown(
            lambda screen: any(text in screen for text in texts), timeout, f"none of {texts!r} came"
        )

    def wait_gone(self, text: str, timeout: float | None = None) -> str:
        """The screen once `text` has left it."""
        return self._shown(lambda screen: text not in screen, timeout, f"{text!r} stayed")

    def _shown(self, ready: Callable[[str], bool], timeout: float | None, failure: str) -> str:
        screen = poll(self.screen, ready, self.patience if timeout is None else timeout)
        if screen is None:
            raise AssertionError(f"{failure}; the screen was:\n{self.screen()}")
        return screen


class Terminal(ScreenWaits):
    """One tmux session running a command at a fixed size; keys in, screen text out."""

    def __init__(
        self,
        command: list[str],
        env: dict[str, str],
        width: int = 80,
        height: int = 24,
        locale: str = "C.UTF-8",
    ):
        if shutil.which("tmux") is None:
            raise RuntimeError("these tests need tmux (apt-get install tmux)")
        self.name = f"tg-{uuid.uuid4().hex[:8]}"
        # The terminal's locale is the test's to choose (LANG=C: no UTF-8), not the machine's.
        chosen = {"LANG": locale, "LC_ALL": "", "LC_CTYPE": ""}
        # PYTHONPATH is this run's (the tests' games from elsewhere), never the tmux server's:
        # a server another checkout started would otherwise run that checkout's code.
        chosen["PYTHONPATH"] = env.get("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
        exports = " ".join(
            f"{k}={shlex.quote(v)}"
            for k, v in {**env, **chosen}.items()
            if k.startswith("TABLEGAMES") or k in chosen
        )
        # COLUMNS and LINES, if the tmux server was started with them, would fix the size the
        # program believes in (pytest's environment has them): the pane's own size must count.
        line = (
            f"env -u COLUMNS -u LINES {exports} TERM=xterm-256color {shlex.join(command)}; sleep 30"
        )
        start = [*TMUX, "new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height)]
        for _ in range(3):
            # A tmux server whose last session just ended may still be exiting as this one
            # asks it for a session ("server exited unexpectedly"): the next asks a new server.
            started = subprocess.run([*start, line], capture_output=True, text=True)
            if started.returncode == 0:
                break
            time.sleep(0.2)
        else:
            raise RuntimeError(f"tmux would not start a session: {started.stderr.strip()}")

    def screen(self) -> str:
        return subprocess.run(
            [*TMUX, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True
        ).stdout

    def scrollback(self) -> str:
        """Everything the terminal holds: the lines scrolled off the top, then the screen (a
        line the terminal wrapped as one)."""
        return subprocess.run(
            [*TMUX, "capture-pane", "-p", "-J", "-S", "-", "-t", self.name],
            capture_output=True,
            text=True,
        ).stdout

    def keys(self, *keys: str, after: float = REACTION) -> None:
        """Type `keys` at once, `after` seconds from now (a person reads the screen first)."""
        time.sleep(after)
        subprocess.run([*TMUX, "send-keys", "-t", self.name, *keys], check=True)

    def resize(self, width: int, height: int) -> None:
        """Resize the window, as a person dragging their terminal's corner would."""
        subprocess.run(
            [*TMUX, "resize-window", "-t", self.name, "-x", str(width), "-y", str(height)],
            check=True,
        )

    def pane_pid(self) -> int:
        """The pid of the shell running the command (its processes are this one's descendants)."""
        return int(self.shows("#{pane_pid}"))

    def shows(self, format: str) -> str:
        """What tmux says of the pane in `format` ("#{alternate_on}": whether the program is
        on the terminal's alternate screen)."""
        shown = subprocess.run(
            [*TMUX, "display-message", "-p", "-t", self.name, format],
            capture_output=True,
            text=True,
            check=True,
        )
        return shown.stdout.strip()

    def close(self) -> None:
        subprocess.run([*TMUX, "kill-session", "-t", self.name], capture_output=True)


def tablegames(*args: str) -> list[str]:
    return [sys.executable, "-m", "tablegames", *args]
