"""The limits on guessing and flooding: back-off, lock-out, forgetting, token buckets."""

from __future__ import annotations

import asyncio
import logging

from tablegames.net.guard import (
    AttemptLimiter,
    RateLimit,
    RefusalTally,
    startup_drop_chance,
    wait_in_words,
)
from tablegames.table import VirtualClock


def test_guesses_get_free_tries_then_a_growing_wait_then_a_lock_out():
    clock = VirtualClock()
    limiter = AttemptLimiter(free=3, lock_after=6, lock_for=600, clock=clock)
    waits = [limiter.failed("10.0.0.9") for _ in range(6)]
    assert waits == [0, 0, 0, 1, 2, 600]
    assert limiter.refused_for("10.0.0.9") == 600
    assert limiter.refused_for("10.0.0.8") == 0  # another address is not held up
    clock.advance(599)
    assert limiter.refused_for("10.0.0.9") == 1
    clock.advance(1)
    assert limiter.refused_for("10.0.0.9") == 0 and limiter.failures("10.0.0.9") == 0


def test_a_success_forgets_the_address():
    limiter = AttemptLimiter(free=1, clock=VirtualClock())
    limiter.failed("a")
    limiter.failed("a")
    assert limiter.refused_for("a") == 1
    limiter.succeeded("a")
    assert limiter.refused_for("a") == 0 and limiter.failures("a") == 0


def test_many_addresses_cannot_grow_the_memory():
    limiter = AttemptLimiter(max_addresses=100, clock=VirtualClock())
    for n in range(1000):
        limiter.failed(f"fe80::{n}")
    assert len(limiter._records) == 100
    assert limiter.failures("fe80::999") == 1 and limiter.failures("fe80::0") == 0


def test_a_rate_limit_allows_a_burst_then_the_rate():
    clock = VirtualClock()
    limit = RateLimit(per_second=1, burst=3, clock=clock)
    assert [limit.allow() for _ in range(5)] == [True, True, True, False, False]
    clock.advance(1)
    assert [limit.allow() for _ in range(2)] == [True, False]


def test_waits_are_said_in_words():
    assert wait_in_words(1) == "1 second" and wait_in_words(12.4) == "12 seconds"
    assert wait_in_words(900) == "15 minutes"


def test_half_made_logins_are_dropped_more_surely_as_they_pile_up():
    chances = [startup_drop_chance(n, 10, 30, 60) for n in (0, 9, 10, 35, 59, 60, 500)]
    assert chances == [0.0, 0.0, 0.3, 0.65, 0.986, 1.0, 1.0]


def test_refusals_are_logged_summed_per_kind_and_source(caplog):
    caplog.set_level(logging.INFO)
    clock = VirtualClock()
    tally = RefusalTally(logging.getLogger("tally-test"), window=10, clock=clock)
    for n in range(8_413):
        tally.refused("chat lines", "127.0.0.1", "refused chat %d from %s", n, "127.0.0.1")
        clock.advance(0.001)
    tally.refused("chat lines", "10.0.0.9", "refused chat from %s", "10.0.0.9")  # another source
    clock.advance(2)
    tally.refused("chat lines", "127.0.0.1", "refused chat %d from %s", -1, "127.0.0.1")
    tally.flush()
    assert [r.getMessage() for r in caplog.records] == [
        "refused chat 0 from 127.0.0.1",
        "refused chat from 10.0.0.9",
        "refused 8,412 more chat lines from 127.0.0.1 in 10 s",
        "refused chat -1 from 127.0.0.1",  # a new window: its first in full
    ]
    assert tally.lines_written == 4


async def test_a_sum_is_written_when_its_window_ends_even_if_the_flood_stopped(caplog):
    caplog.set_level(logging.INFO)
    tally = RefusalTally(logging.getLogger("tally-test"), window=0.05)
    for _ in range(3):
        tally.refused("keys", "127.0.0.1", "refused a key")
    for _ in range(100):
        if tally.lines_written == 2:
            break
        await asyncio.sleep(0.02)
    assert [r.getMessage() for r in caplog.records][-1].startswith("refused 2 more keys from")
