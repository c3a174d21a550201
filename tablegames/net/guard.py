"""Limits on what a stranger can repeat: guesses per source address, and a rate per connection.

Join codes and logins can be guessed; chat can be flooded. Both are bounded here, free of
sockets and clocks of their own (a clock is passed in, so tests need not wait).
"""

from __future__ import annotations

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
    """Failed attempts per source address: a few free, then a growing wait, then a lock-out.

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
