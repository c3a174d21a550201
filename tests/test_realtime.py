"""Real-time tables: the virtual clock, reaction times, speed, races, whole games and replays."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

from tablegames.bots import get_bot
from tablegames.local import local_table
from tablegames.net.client import RemoteClient
from tablegames.net.server import Server, ServerConfig
from tablegames.rules import IllegalAction, get_game
from tablegames.simulate import play_bot_game, simulate_games
from tablegames.table import (
    LocalClient,
    Table,
    VirtualClock,
    drive_bots,
    is_realtime,
    next_wake,
    realtime_move,
    run_realtime,
)

crabs = get_game("crabs")
HANDS = [
    ["crabbi", "crabbi", "kebab", "diet"],
    ["cappuccino", "cappuccino", "cabernet", "magic"],
    ["kebab", "kebab", "diet", "magic"],
    ["cabernet", "cabernet", "crabbi", "magic"],
]
STACKED = {"hands": HANDS, "ocean": ["jab", "taxi", "ab", "bunny"], "first_side": 0}


class Scripted:
    """A real-time bot that makes one planned action at a planned table time, then rests."""

    def __init__(self, at: float, action: dict[str, Any]) -> None:
        self.at, self.action = at, action
        self.asked: list[float] = []
        self.refused = False

    def wake_at(self) -> float | None:
        return self.at if self.action else None

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        self.asked.append(view["now"])
        if not self.action or view["now"] < self.at:
            return None
        action, self.action = self.action, {}
        if action not in legal:
            self.refused = True
            return None
        return action


def crabs_table(bots: dict[int, Any], clock: VirtualClock, **options: Any) -> Table:
    return Table(crabs, 4, ["a", "b", "c", "d"], seed=1, options=options, bots=bots, clock=clock)


# -- the clock ------------------------------------------------------------------------------------
def test_the_virtual_clock_moves_only_forward_and_only_when_told():
    clock = VirtualClock(5.0)
    table = crabs_table({}, clock)
    assert table.now() == 0.0
    clock.advance(2.5)
    clock.advance(-10)
    clock.advance_to(1.0)
    assert table.now() == 2.5
    table.submit(0, {"type": "gesture", "name": "wink"})
    assert table.log[-1] == (0, {"type": "gesture", "name": "wink"}, 2.5)


def test_a_restored_table_goes_on_from_its_last_time():
    clock = VirtualClock()
    table = crabs_table({}, clock, **STACKED)
    clock.advance(40.0)
    table.submit(1, {"type": "gesture", "name": "nod"})
    again = Table(crabs, 4, list("abcd"), seed=1, options=STACKED, log=list(table.log))
    assert again.now() >= 40.0  # the double crab's one second compares these times


# -- bots acting after reaction times -------------------------------------------------------------
def test_bots_act_only_once_their_reaction_time_has_passed():
    clock = VirtualClock()
    bots = {seat: get_bot("crabs", "normal", seat, random.Random(seat)) for seat in range(4)}
    table = crabs_table(bots, clock, **STACKED)
    assert all(is_realtime(bot) for bot in bots.values())
    assert realtime_move(table) is None  # nobody acts at the very moment of the deal
    wake = next_wake(table)
    assert wake is not None and wake >= 0.5
    run_realtime(table, clock, max_actions=10)
    times = [now for _, _, now in table.log]
    assert times == sorted(times) and times[0] >= 0.5


@pytest.mark.parametrize("speed", [2.0, 0.5])
def test_the_speed_factor_divides_every_reaction(speed):
    def first_times(factor: float) -> list[float]:
        clock = VirtualClock()
        bots = {seat: get_bot("crabs", "hard", seat, random.Random(seat)) for seat in range(4)}
        table = crabs_table(bots, clock, **STACKED)
        run_realtime(table, clock, max_actions=6, speed=factor)
        return [now for _, _, now in table.log]

    normal, scaled = first_times(1.0), first_times(speed)
    assert scaled == pytest.approx([now / speed for now in normal])


def test_a_race_for_an_ocean_card_goes_to_whoever_arrives_first():
    clock = VirtualClock()
    want = {"type": "swap", "hand": "diet", "ocean": "jab"}
    quick = Scripted(1.2, dict(want))
    slow = Scripted(1.5, {"type": "swap", "hand": "kebab", "ocean": "jab"})
    table = crabs_table({0: slow, 2: quick}, clock, **STACKED)
    run_realtime(table, clock, max_actions=5)
    assert table.log == [(2, want, 1.2)]
    assert slow.refused  # at 1.5 the Jab Crab was gone: its swap was no longer legal
    with pytest.raises(IllegalAction, match="too late"):
        table.submit(0, {"type": "swap", "hand": "kebab", "ocean": "jab"})


def test_simultaneous_bots_are_asked_earliest_wake_first():
    clock = VirtualClock()
    first = Scripted(2.0, {"type": "gesture", "name": "nod"})
    second = Scripted(2.0, {"type": "gesture", "name": "wink"})
    table = crabs_table({3: first, 1: second}, clock, **STACKED)
    clock.advance(3.0)  # both overdue: the lower seat among equal wake-ups goes first
    assert realtime_move(table) == (1, {"type": "gesture", "name": "wink"})


# -- whole games ----------------------------------------------------------------------------------
def test_a_whole_bot_game_finishes_fast_on_the_virtual_clock():
    started = time.perf_counter()
    table = play_bot_game("crabs", 4, 7, "normal")
    spent = time.perf_counter() - started
    assert table.over
    assert table.now() > 30.0  # minutes of play at the table...
    assert spent < table.now() / 20  # ...in a small fraction of that


def test_simulate_reports_table_time_for_real_time_games():
    summary = simulate_games("crabs", games=3, players=5, seed=2, level="hard")
    assert summary["games"] == 3 and sum(summary["wins_per_seat"]) > 0
    assert summary["mean_game_seconds"] > 10 and summary["speedup"] > 20


def test_replaying_the_timestamped_log_gives_the_same_state():
    table = play_bot_game("crabs", 6, 3, "hard")
    again = crabs.replay(6, 3, {}, table.log)
    for seat in (None, *range(6)):
        assert again.view(seat) == table.state.view(seat)
    assert again.result() == table.state.result()


# -- the asynchronous driver ----------------------------------------------------------------------
async def test_drive_bots_plays_a_real_time_game_in_real_time_at_high_speed():
    client = local_table("crabs", 4, humans=1, seed=5, bot_level="hard", speed=100.0)
    client.table.bots[0] = get_bot("crabs", "hard", 0, random.Random(0))  # seat 0 too
    started = time.monotonic()
    await asyncio.wait_for(client.run_bots(), timeout=30)
    assert client.table.over
    # The bots reacted 100 times faster than people: the game took seconds, not minutes.
    assert time.monotonic() - started < client.table.now()


async def test_drive_bots_sleeps_until_a_change_or_a_wake_up():
    clock = VirtualClock()
    late = Scripted(1e6, {"type": "gesture", "name": "nod"})  # wants to act much later
    table = crabs_table({1: late}, clock, **STACKED)
    changed = asyncio.Event()
    table.on_action(lambda seat, action, now: changed.set())
    task = asyncio.create_task(drive_bots(table, 0.5, changed))
    await asyncio.sleep(0.05)
    asked = len(late.asked)
    table.submit(0, {"type": "gesture", "name": "wink"})  # a change wakes the driver at once
    await asyncio.sleep(0.05)
    assert len(late.asked) == asked + 1 and not task.done()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


def test_a_local_client_refuses_a_speed_of_zero():
    table = crabs_table({}, VirtualClock())
    with pytest.raises(ValueError, match="speed"):
        LocalClient(table, [0], speed=0)


async def test_a_crabs_table_on_the_server_has_its_bots_react_in_real_time():
    server = Server(ServerConfig(host="127.0.0.1", port=0, bot_pace=0))
    port = await server.start()
    hosted = server.add_table("crabs", 4, seed=8, fill_with_bots="hard", min_humans=1)
    client = RemoteClient("127.0.0.1", port, "Sara", table=hosted.code)
    try:
        await client.connect()
        client.ready(True)
        async with asyncio.timeout(20):
            while hosted.table is None or len(hosted.table.log) < 3:
                await client.next_message()
        assert hosted.table is not None
        bot_actions = [(seat, now) for seat, _, now in hosted.table.log if seat != client.seat]
        assert len(bot_actions) >= 3
        assert min(now for _, now in bot_actions) >= 0.3  # a human-like reaction, not at once
        assert client.latest is not None and client.latest.version >= 3
    finally:
        await client.close()
        await server.close()
