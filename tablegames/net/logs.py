"""The host's log: every record made `visible` and repeated lines summed, whoever wrote them;
and the problems log (`note_problem`: what went wrong in a screen or a session's program).

`serve`, `host` and each session's problems log write through `host_log_handler`, so what a
stranger sent reaches no terminal as escapes, even in a record a library writes (aiohttp's
"Error handling request" with a raw request line, asyncssh's user names, asyncio's errors):

- a record is one line: its message `visible` (a newline in it is written `\\n`), its
  traceback, if any, escaped too and indented under it, so no line can be forged;
- an error a client caused (a malformed HTTP request, a connection reset, the process out
  of descriptors while strangers fill its sockets) is said in that line, without a
  traceback: it says nothing of our code;
- lines of one kind (the same logger and format, as `RefusalTally` counts refusals by kind and
  source) get through `LINES_PER_KIND` to a window of `WINDOW` seconds, then are counted, and
  their sum is one line when the window ends ("… 295 more like “Error handling request from
  %s” (aiohttp.server) in 10 s").
"""

from __future__ import annotations

import asyncio
import errno
import logging
import sys
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from ..paths import data_dir, owner_only_file
from ..text import visible, visible_lines

WINDOW = 10.0
#: Lines of one kind a window lets through: news (a table's, a login) more than warnings.
LINES_PER_KIND = {logging.INFO: 20, logging.WARNING: 3}
KINDS_KEPT = 1000  # kinds counted at once (the oldest summed first)
HOST_FORMAT = "%(asctime)s %(message)s"
#: Exceptions a client causes, said in one line: a malformed HTTP request (by class name, so
#: aiohttp need not be loaded), a connection reset or timed out; and the errors of a listening
#: socket that strangers filled (out of descriptors or buffers: asyncio's accept loop).
CLIENTS_DOING = ("HttpProcessingError", "ConnectionError", "TimeoutError")
FULL_UP = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
BRIEF_LIMIT = 300  # characters of such an exception's text worth a line
TRACEBACK_INDENT = "    "  # under its record: no line of a traceback passes for a record
#: The problems log, owner-only in the data directory: what went wrong in a screen or a
#: session's program, with its traceback (a guest never sees one).
PROBLEMS_LOG = "problems.log"
#: The problems log is started afresh once it grows past this many bytes.
KEPT_BYTES = 256 * 1024


def clients_doing(error: BaseException) -> bool:
    """True if `error` is one a client causes (a bad request, a reset), not our code's."""
    if isinstance(error, OSError) and error.errno in FULL_UP:
        return True
    return any(kind.__name__ in CLIENTS_DOING for kind in type(error).__mro__)


class VisibleFormatter(logging.Formatter):
    """A formatter whose every line is `visible`: message, arguments and traceback."""

    def format(self, record: logging.LogRecord) -> str:
        saved = record.msg, record.args, record.exc_info, record.exc_text
        try:
            message = visible(record.getMessage())
            error = record.exc_info[1] if record.exc_info else None
            if error is not None and clients_doing(error):
                said = visible(f"{type(error).__name__}: {error}")
                message = f"{message}: {said[:BRIEF_LIMIT]}"
                record.exc_info = record.exc_text = None
            record.msg, record.args = message, None
            return super().format(record)
        finally:
            record.msg, record.args, record.exc_info, record.exc_text = saved

    def formatException(self, ei: Any) -> str:
        return visible_lines(super().formatException(ei), TRACEBACK_INDENT)

    def formatStack(self, stack_info: str) -> str:
        return visible_lines(stack_info, TRACEBACK_INDENT)


@dataclass
class _Kind:
    first: float  # when this window began
    shown: int = 1  # lines let through in it
    held: int = 0  # lines counted instead


class RepeatedLines(logging.Filter):
    """Lets `LINES_PER_KIND` lines of a kind through in a window of `window` seconds and counts
    the rest; their sum is written through `handler` when the window ends (by a timer while an
    event loop runs, or with the next line of that kind, or at `write_sums`)."""

    def __init__(
        self,
        handler: logging.Handler,
        window: float = WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.handler, self.window, self.clock = handler, window, clock
        self._kinds: OrderedDict[tuple[str, int, str], _Kind] = OrderedDict()
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        key, now = _kind(record), self.clock()
        due = []
        with self._lock:
            kind = self._kinds.get(key)
            if kind is not None and now - kind.first >= self.window:
                due.append((key, self._kinds.pop(key)))
                kind = None
            if kind is None:
                self._kinds[key] = _Kind(now)
                while len(self._kinds) > KINDS_KEPT:
                    due.append(self._kinds.popitem(last=False))
                let_through = True
            elif kind.shown < _lines_for(record.levelno):
                kind.shown += 1
                let_through = True
            else:
                kind.held += 1
                let_through = False
                if kind.held == 1:
                    self._later(key, kind)
        self._write(due, now)
        return let_through

    def write_sums(self) -> None:
        """Write every sum now (the log is closing, or a test wants them)."""
        with self._lock:
            due = list(self._kinds.items())
            self._kinds.clear()
        self._write(due, self.clock())

    def _later(self, key: tuple[str, int, str], kind: _Kind) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        loop.call_later(self.window, self._due, key, kind)

    def _due(self, key: tuple[str, int, str], kind: _Kind) -> None:
        with self._lock:
            if self._kinds.get(key) is not kind:
                return
            del self._kinds[key]
        self._write([(key, kind)], self.clock())

    def _write(self, due: list[tuple[tuple[str, int, str], _Kind]], now: float) -> None:
        for (name, level, form), kind in due:
            if not kind.held:
                continue
            seconds = max(1, round(now - kind.first))
            summary = logging.LogRecord(
                "tablegames.log",
                max(level, logging.WARNING),
                __file__,
                0,
                "… %s more like “%s” (%s) in %d s",
                (f"{kind.held:,}", form, name, seconds),
                None,
            )
            self.handler.handle(summary)


def _kind(record: logging.LogRecord) -> tuple[str, int, str]:
    """What makes lines of a kind: the logger, the level and the format (its first line)."""
    form = record.msg if isinstance(record.msg, str) else type(record.msg).__name__
    return record.name, record.levelno, form.split("\n", 1)[0][:100]


def _lines_for(level: int) -> int:
    return LINES_PER_KIND[logging.INFO if level < logging.WARNING else logging.WARNING]


class HostLogHandler(logging.StreamHandler[IO[str]]):
    """A stream handler whose lines are `visible` and whose repeats are summed."""

    def __init__(
        self,
        stream: IO[str] | None = None,
        fmt: str = HOST_FORMAT,
        window: float = WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(sys.stderr if stream is None else stream)  # (as StreamHandler's own)
        self.setFormatter(VisibleFormatter(fmt, datefmt="%H:%M:%S"))
        self.repeats = RepeatedLines(self, window, clock)
        self.addFilter(self.repeats)

    def write_sums(self) -> None:
        """Write the sums of the lines held back so far."""
        self.repeats.write_sums()

    def close(self) -> None:
        self.write_sums()
        super().close()


def host_log_handler(
    stream: IO[str] | None = None,
    fmt: str = HOST_FORMAT,
    window: float = WINDOW,
    clock: Callable[[], float] = time.monotonic,
) -> HostLogHandler:
    """A handler writing the host's log to `stream` (stderr by default)."""
    return HostLogHandler(stream, fmt, window, clock)


def start_host_log(level: int = logging.INFO) -> None:
    """Log to stderr, escaped and summed, as `serve` and `host` do (unless logging is set up)."""
    logging.basicConfig(level=level, handlers=[host_log_handler()])


def note_problem(error: BaseException) -> str:
    """Append `error` and its traceback to the problems log; returns a sentence to add to a
    message on this machine's own terminal (" The details are in FILE."), or "" if it could
    not be written."""
    try:
        path = owner_only_file(data_dir() / PROBLEMS_LOG)
        mode = "w" if path.stat().st_size > KEPT_BYTES else "a"
        with open(path, mode, encoding="utf-8") as log:
            log.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
            # Read in a terminal: what a guest sent (in an error's text) must not act on it.
            details = "".join(traceback.format_exception(error)).rstrip("\n")
            log.write(visible_lines(details, TRACEBACK_INDENT))
            log.write("\n")
    except OSError:
        return ""
    return f" The details are in {path}."
