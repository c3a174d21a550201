"""Driving the real `tablegames` command in a real terminal: tmux send-keys and capture-pane."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid

#: Seconds a person takes to read what changed before pressing a key (the screens drop keys
#: typed in the first moment after a question changes: `tablegames/tui/screens/typeahead.py`).
REACTION = 0.4


class Terminal:
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
        start = ["tmux", "new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height)]
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
            ["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True, text=True
        ).stdout

    def scrollback(self) -> str:
        """Everything the terminal holds: the lines scrolled off the top, then the screen (a
        line the terminal wrapped as one)."""
        return subprocess.run(
            ["tmux", "capture-pane", "-p", "-J", "-S", "-", "-t", self.name],
            capture_output=True,
            text=True,
        ).stdout

    def keys(self, *keys: str, after: float = REACTION) -> None:
        """Type `keys` at once, `after` seconds from now (a person reads the screen first)."""
        time.sleep(after)
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, *texts: str, timeout: float = 20.0) -> str:
        """The screen once it shows every one of `texts` (a screen can be caught half drawn, so
        ask for everything a check reads); AssertionError with the screen if it never does."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if all(text in screen for text in texts):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{texts!r} never all appeared; the screen was:\n{screen}")

    def wait_for_any(self, *texts: str, timeout: float = 20.0) -> str:
        """The screen once it shows one of `texts`."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if any(text in screen for text in texts):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"none of {texts!r} appeared; the screen was:\n{screen}")

    def wait_gone(self, text: str, timeout: float = 20.0) -> str:
        """The screen once `text` has left it."""
        deadline = time.monotonic() + timeout
        screen = self.screen()
        while text in screen and time.monotonic() < deadline:
            time.sleep(0.1)
            screen = self.screen()
        assert text not in screen, f"{text!r} is still on the screen:\n{screen}"
        return screen

    def resize(self, width: int, height: int) -> None:
        """Resize the window, as a person dragging their terminal's corner would."""
        subprocess.run(
            ["tmux", "resize-window", "-t", self.name, "-x", str(width), "-y", str(height)],
            check=True,
        )

    def pane_pid(self) -> int:
        """The pid of the shell running the command (its processes are this one's descendants)."""
        shown = subprocess.run(
            ["tmux", "display-message", "-p", "-t", self.name, "#{pane_pid}"],
            capture_output=True,
            text=True,
            check=True,
        )
        return int(shown.stdout)

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


def tablegames(*args: str) -> list[str]:
    return [sys.executable, "-m", "tablegames", *args]
