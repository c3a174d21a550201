"""The guest's end of an SSH session: what is written to their terminal (the program's output,
sentences, the exit status), the join code typed at its prompt, and its clocks (deadlines, the
clock of keystrokes)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass

import asyncssh

CODE_LIMIT = 64  # keys kept of a join code being typed
ENTER, CTRL_C, CTRL_D, BACKSPACES = b"\r\n", b"\x03", b"\x04", b"\x08\x7f"
APPLICATION_MODE, NORMAL_MODE = b"\x1b[?1049h", b"\x1b[?1049l"  # the alternate screen on, off
#: What a full-screen program turns on, turned off (as Textual does when it stops): the kitty
#: keyboard protocol, mouse reporting, bracketed paste, window-size and focus reports, then
#: the normal screen, a visible cursor, line wrapping and plain text.
RESTORE_TERMINAL = (
    b"\x1b[<u\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l\x1b[?2004l\x1b[?2048l"
    b"\x1b[?1004l\x1b[?1049l\x1b[?25h\x1b[?7h\x1b[0m"
)


class GuestScreen:
    """The session's channel as the guest's terminal: the program's output passed on (noting
    whether it left the terminal in its own mode, to undo at the end), sentences, the exit
    status. Writing to a channel that has closed does nothing."""

    def __init__(self) -> None:
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None  # once the channel opens
        self.application_mode = False  # the program has the guest's terminal in its own mode
        self._output_tail = b""  # the end of its output, for a mode switch cut in two

    def write(self, data: bytes) -> None:
        if self.chan is not None:
            with contextlib.suppress(OSError, asyncssh.Error):  # the channel has closed
                self.chan.write(data)

    def relay(self, data: bytes) -> None:
        """Pass the program's output on, noting whether it left the terminal in its own mode."""
        seen = self._output_tail + data
        switched_on, switched_off = seen.rfind(APPLICATION_MODE), seen.rfind(NORMAL_MODE)
        if switched_on != switched_off:  # (both -1: no switch in this output)
            self.application_mode = switched_on > switched_off
        self._output_tail = seen[-(len(APPLICATION_MODE) - 1) :]
        self.write(data)

    def say(self, sentence: str) -> None:
        """A line for the person at the terminal (whose terminal is raw: CR LF, not LF)."""
        self.write(b"\r\n" + sentence.encode() + b"\r\n")

    def restore(self) -> None:
        """Undo what the program turned on in the guest's terminal, if it did not itself."""
        if self.application_mode:
            self.write(RESTORE_TERMINAL)
            self.application_mode = False

    def exit(self, status: int) -> None:
        """Send the session's exit status (0 to 255)."""
        if self.chan is not None:
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.exit(min(max(status, 0), 255))

    def input_blocked(self, blocked: bool) -> None:
        """Stop reading the guest's keys while the program takes no more (or read again)."""
        if self.chan is None:
            return
        if blocked:
            self.chan.pause_reading()
        else:
            self.chan.resume_reading()

    async def closed(self, timeout: float) -> None:
        """Wait, `timeout` seconds at most, for the client to close the channel."""
        if self.chan is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.chan.wait_closed(), timeout)


@dataclass(frozen=True)
class Entered:
    """The join code was typed and Enter pressed."""

    code: str


@dataclass(frozen=True)
class GaveUp:
    """Ctrl-C or Ctrl-D at the join code's prompt."""


class CodePrompt:
    """The join code being typed, never echoed: Enter gives it, Ctrl-C or Ctrl-D give up,
    backspace takes a key back; at most `CODE_LIMIT` keys are kept."""

    def __init__(self) -> None:
        self._typed = bytearray()

    def keys(self, data: bytes) -> Entered | GaveUp | None:
        """Take the keys `data`: what they came to (None: the code is still being typed; keys
        after Enter or Ctrl-C are dropped)."""
        for byte in data:
            key = bytes([byte])
            if key in ENTER:
                typed = self._typed.decode("utf-8", "replace")
                self._typed.clear()
                return Entered(typed)
            if key in CTRL_C + CTRL_D:
                return GaveUp()
            if key in BACKSPACES:
                del self._typed[-1:]
            elif byte >= 0x20 and len(self._typed) < CODE_LIMIT:
                self._typed.append(byte)
        return None


class Deadline:
    """A one-shot timer: `on_due` runs once `seconds` have passed since `start`, unless it was
    cancelled (or started again) before."""

    def __init__(self, on_due: Callable[[], None]) -> None:
        self._on_due = on_due
        self._timer: asyncio.TimerHandle | None = None

    def start(self, seconds: float) -> None:
        self.cancel()
        self._timer = asyncio.get_running_loop().call_later(max(seconds, 0.0), self._due)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _due(self) -> None:
        self._timer = None
        self._on_due()


class IdleWatch:
    """A session's clock of keystrokes: `on_idle` is called once no key has come for
    `timeout` seconds (from `start`)."""

    def __init__(self, timeout: float, on_idle: Callable[[], None]) -> None:
        self.timeout, self._on_idle = timeout, on_idle
        self._last_key = time.monotonic()
        self._check = Deadline(self._look)

    def key(self) -> None:
        """A key came now."""
        self._last_key = time.monotonic()

    def start(self) -> None:
        self._check.start(self.timeout)

    def stop(self) -> None:
        self._check.cancel()

    def _look(self) -> None:
        left = self._last_key + self.timeout - time.monotonic()
        if left > 0:
            self._check.start(left)
        else:
            self._on_idle()
