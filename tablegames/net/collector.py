"""The cyclic collector on a schedule, so that its full passes stay out of a server's tail.

A full collection walks every object the process holds; a party server holds every table's
state, and one such pass stalls whoever acts then (11-12 ms at the 99th percentile in some
runs, 75 ms at worst, against 2-3 ms in others). So, as a server that forks workers does:

- the startup heap (modules, classes, restored tables) is frozen once (`gc.freeze`): no
  collection walks it again;
- every `FREEZE_EVERY` seconds what has survived since is frozen too, so young collections
  stay small and full ones have almost nothing to walk;
- every `THAW_EVERY` seconds everything is thawed and collected once (one deliberate full pass,
  a known moment a few times an hour), so cyclic garbage frozen in between (a finished
  table's, a closed connection's) is freed after all: memory stays bounded.
"""

from __future__ import annotations

import asyncio
import gc

FREEZE_EVERY = 2.0
THAW_EVERY = 600.0


class CollectorSchedule:
    """Runs the collector's schedule on the running loop until `stop`."""

    def __init__(self, freeze_every: float = FREEZE_EVERY, thaw_every: float = THAW_EVERY) -> None:
        self.freeze_every, self.thaw_every = freeze_every, thaw_every
        self._timers: list[asyncio.TimerHandle] = []

    def start(self) -> None:
        """Freeze what the process holds now, and keep to the schedule from now on."""
        gc.collect()
        gc.freeze()
        loop = asyncio.get_running_loop()
        self._timers = [
            loop.call_later(self.freeze_every, self._freeze),
            loop.call_later(self.thaw_every, self._thaw),
        ]

    def _freeze(self) -> None:
        gc.freeze()
        self._timers[0] = asyncio.get_running_loop().call_later(self.freeze_every, self._freeze)

    def _thaw(self) -> None:
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self._timers[1] = asyncio.get_running_loop().call_later(self.thaw_every, self._thaw)

    def stop(self) -> None:
        """Stop the schedule and give everything back to the collector."""
        for timer in self._timers:
            timer.cancel()
        self._timers = []
        gc.unfreeze()
