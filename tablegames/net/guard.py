"""Limits on what a stranger can repeat: guesses per source, a rate per connection, logins
half-made at once, and the log lines a flood of refusals may cost.

Join codes can be guessed; chat can be flooded; a port can be filled with idle sockets. All
are bounded here, free of sockets and clocks of their own (a clock is passed in, so tests need
not wait).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from ..words import plural


@dataclass
class _Record:
    failures: int = 0
    wait_until: float = 0.0


class AttemptLimiter:
    """Failed attempts per source (an address): a few free, then a growing wait, then a lock-out.

    After `free` failures each further try must wait twice as long as the last (from 1 s);
    at `lock_after` failures the address is refused for `lock_for` seconds. A success forgets
    the address. At most `max_addresses` are remembered (the oldest forgotten first), so many
    addresses cannot grow the server's memory.
    """

    def __init__(
        self,
        free: int = 3,
        lock_after: int = 10,
        lock_for: float = 900.0,
        clock: Callable[[], float] = time.monotonic,
        max_addresses: int = 10_000,
    ) -> None:
        self.free, self.lock_after, self.lock_for = free, lock_after, lock_for
        self.clock = clock
        self.max_addresses = max_addresses
        self._records: OrderedDict[str, _Record] = OrderedDict()

    def refused_for(self, address: str) -> float:
        """Seconds before `address` may try again (0: it may try now)."""
        record = self._records.get(address)
        if record is None:
            return 0.0
        left = record.wait_until - self.clock()
        if left <= 0 and record.failures >= self.lock_after:  # a lock-out served: start afresh
            del self._records[address]
        return max(left, 0.0)

    def failures(self, address: str) -> int:
        record = self._records.get(address)
        return 0 if record is None else record.failures

    def failed(self, address: str) -> float:
        """Count a failure for `address`; returns how long it must now wait."""
        record = self._records.pop(address, None) or _Record()
        self._records[address] = record  # most recent last
        while len(self._records) > self.max_addresses:
            self._records.popitem(last=False)
        record.failures += 1
        if record.failures >= self.lock_after:
            wait = self.lock_for
        elif record.failures > self.free:
            wait = float(2 ** (record.failures - self.free - 1))
        else:
            wait = 0.0
        record.wait_until = self.clock() + wait
        return wait

    def succeeded(self, address: str) -> None:
        self._records.pop(address, None)


class RateLimit:
    """A token bucket: `burst` at once, then `per_second` on average."""

    def __init__(
        self, per_second: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.per_second, self.burst, self.clock = per_second, burst, clock
        self._tokens = float(burst)
        self._last = clock()

    def allow(self) -> bool:
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.per_second)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


def wait_in_words(seconds: float) -> str:
    """`seconds` as a player would say it: "12 seconds", "15 minutes"."""
    if seconds < 90:
        whole = max(1, round(seconds))
        return plural(whole, "second")
    return plural(round(seconds / 60), "minute")


def startup_drop_chance(logging_in: int, start: int, rate: int, full: int) -> float:
    """The chance (0-1) of dropping a new connection while `logging_in` others are still in the
    handshake: none below `start`, `rate`% at `start`, rising to certain at `full` (OpenSSH's
    MaxStartups start:rate:full). A flood fills the queue no faster than friends get through."""
    if logging_in < start:
        return 0.0
    if logging_in >= full or full <= start:
        return 1.0
    return (rate + (100 - rate) * (logging_in - start) / (full - start)) / 100


@dataclass
class _Tally:
    first: float  # when the first refusal of this window came
    count: int = 0  # refusals since the one logged in full


class RefusalTally:
    """Refusals logged summed: the first of a kind from a source in full, then one line per
    `window` seconds for the rest ("refused 8,412 chat lines from 127.0.0.1 in 10 s").

    A flood of refused messages costs the host's log a line every few seconds, not a line each.
    The sum is written when the next refusal of that kind comes after the window, or by the
    timer started with the first one held back (while an event loop runs), or by `flush`.
    """

    def __init__(
        self,
        log: logging.Logger,
        window: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        max_sources: int = 1000,
    ) -> None:
        self.log, self.window, self.clock = log, window, clock
        self.max_sources = max_sources
        self._open: OrderedDict[tuple[str, str], _Tally] = OrderedDict()
        self.lines_written = 0

    def refused(self, what: str, source: str, line: str, *args: object) -> None:
        """Note one refusal of `what` (plural words: "chat lines") from `source`; `line` (a
        logging format, with `args`) is what to log when it is the first."""
        key, now = (what, source), self.clock()
        tally = self._open.get(key)
        if tally is not None and now - tally.first >= self.window:
            self._write(key, tally)
            tally = None
        if tally is None:
            self._open[key] = _Tally(now)
            while len(self._open) > self.max_sources:
                self._write(*self._open.popitem(last=False))
            self.log.warning(line, *args)
            self.lines_written += 1
            return
        if tally.count == 0:
            self._later(key, tally)
        tally.count += 1

    def flush(self) -> None:
        """Write every sum now (the server is closing, or a test wants them)."""
        while self._open:
            self._write(*self._open.popitem(last=False))

    def _later(self, key: tuple[str, str], tally: _Tally) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        loop.call_later(self.window, self._due, key, tally)

    def _due(self, key: tuple[str, str], tally: _Tally) -> None:
        if self._open.get(key) is tally:
            del self._open[key]
            self._write(key, tally)

    def _write(self, key: tuple[str, str], tally: _Tally) -> None:
        self._open.pop(key, None)
        if tally.count:
            what, source = key
            seconds = max(1, round(self.clock() - tally.first))
            count = f"{tally.count:,}"
            self.log.warning("refused %s more %s from %s in %d s", count, what, source, seconds)
            self.lines_written += 1
