"""The collector's schedule: the startup heap frozen, survivors frozen as they come, and
everything thawed and collected now and then, so frozen garbage is freed after all."""

from __future__ import annotations

import asyncio
import gc
import weakref

from tablegames.net.collector import CollectorSchedule


class Cycle:
    """A cycle only the collector can free."""

    def __init__(self) -> None:
        self.me = self


async def test_survivors_are_frozen_and_frozen_garbage_is_freed_at_the_thaw():
    schedule = CollectorSchedule(freeze_every=0.05, thaw_every=0.3)
    try:
        schedule.start()
        assert gc.get_freeze_count() > 0  # the startup heap
        garbage = Cycle()
        freed = asyncio.Event()
        weakref.finalize(garbage, freed.set)
        await asyncio.sleep(0.15)  # frozen with the survivors
        del garbage
        gc.collect()
        assert not freed.is_set()  # frozen garbage: no collection reaches it...
        await asyncio.wait_for(freed.wait(), 2.0)  # ...until the thaw
    finally:
        schedule.stop()
    assert gc.get_freeze_count() == 0
