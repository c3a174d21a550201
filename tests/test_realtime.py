"""Real-time tables: the virtual clock, reaction times, speed, races, whole games and replays."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

from tablegames.bots import get_bot
from tablegames.drivers import LocalClient, drive_bots, next_wake, realtime_move, run_realtime
from tablegames.local import local_table
from tablegames.net.client import RemoteClient
from tablegames.net.server import Server, ServerConfig
from tablegames.rules import IllegalAction, get_game
from tablegames.rules.crabs import CLOCK_GRAIN
from tablegames.simulate import play_bot_game, simulate_games
from tablegames.table import Table, VirtualClock, is_realtime

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
    table = crabs_table({}, clock, **STACKED)
    assert table.now() == 0.0
    clock.advance(2.5)
    clock.advance(-10)
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
    # (a bound, not a figure: about 8 s beside two CPU burners, and a loaded run's three
    # workers beside them once starved the loop past 30)
    await asyncio.wait_for(client.run_bots(), timeout=120)
    assert client.table.over
    # The bots reacted 100 times faster than people: the game took seconds, not minutes.
    assert time.monotonic() - started < client.table.now()


async def test_drive_bots_sleeps_until_a_change_or_a_wake_up():
    clock = VirtualClock()
    late = Scripted(1e6, {"type": "gesture", "name": "nod"})  # wants to act much later
    table = crabs_table({1: late}, clock, **STACKED)
    task = asyncio.create_task(drive_bots(table, 0.5))
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
        client.ask.ready(True)
        # The huddle first: the bots pick at once and wait for Sara, who agrees with her team.
        async with asyncio.timeout(30):
            while client.latest is None or client.seat not in client.latest.waiting:
                await client.next_event()
        assert client.latest.view["phase"] == "huddle"
        agree = {"type": "signal", "name": client.latest.view["huddle"]["proposal"][0]}
        client.submit(client.seat, agree)

        # A swap and its "done" come within seconds; what follows (a gesture, a call) may take
        # the bots much longer, as it would people, so two actions are waited for.
        def played() -> list[tuple[int, float]]:
            log = hosted.table.log if hosted.table is not None else []
            return [(seat, now) for seat, action, now in log if action["type"] != "signal"]

        async with asyncio.timeout(30):
            while len(played()) < 2:
                await client.next_event()
        assert hosted.table is not None and hosted.table.state.phase != "huddle"
        assert (client.seat, agree) in [(seat, action) for seat, action, _ in hosted.table.log]
        bot_actions = [(seat, now) for seat, now in played() if seat != client.seat]
        assert len(bot_actions) >= 2
        assert min(now for _, now in bot_actions) >= 0.3  # a human-like reaction, not at once
        assert client.latest is not None and client.latest.version >= 2
    finally:
        await client.close()
        await server.close()


# -- the clock decides: a double-crab window the empty pot waits for ------------------------------
#: Seat 1 holds four King Crabs and the pot has one token left: seat 0's call takes it.
LAST_TOKEN = {
    "hands": [HANDS[0], ["king"] * 4, HANDS[2], HANDS[3]],
    "ocean": ["jab", "taxi", "ab", "bunny"],
    "draw": ["jab", "taxi", "ab", "bunny"],
    "first_side": 0,
    "pot": 1,
}
CALL = {"type": "accuse", "target": 1}
ANSWER = {"type": "accuse", "target": 0}
TIME = {"type": "time"}
CLOSES = 6.0 + CLOCK_GRAIN  # the first moment after the second that follows the call at 5.0


def called_on_the_last_token(bots: dict[int, Any] | None = None) -> tuple[Table, VirtualClock]:
    """A table where seat 0 took the pot's last token at 5.0: the window closes after 6.0."""
    clock = VirtualClock()
    table = crabs_table(bots or {}, clock, **LAST_TOKEN)
    clock.advance(5.0)
    table.submit(0, CALL)
    assert not table.over and table.state.deadline() == CLOSES
    return table, clock


def test_a_table_settles_the_clock_before_an_action_that_comes_too_late():
    table, clock = called_on_the_last_token()
    saved: list[tuple[int, Any, float]] = []
    table.on_action(lambda a: saved.append((a.seat, a.action, a.now)))
    told: list[Any] = []
    table.subscribe(2, told.append)
    turns = table.turns_taken
    clock.advance(1.5)
    with pytest.raises(IllegalAction, match="the game is over"):
        table.submit(1, ANSWER)  # the partner's call, too late
    assert table.over and table.log[-1] == (0, TIME, 6.5) and saved == [(0, TIME, 6.5)]
    assert told[-1].over and [e["text"] for e in told[-1].events] == [
        "{1} made no double-crab call on {0} within the second: the window closes.",
        "Game over: {0} and {1} win with 5 tokens.",
    ]
    assert table.turns_taken == turns  # the clock's move is nobody's turn


def test_a_time_action_sent_early_is_refused_and_changes_nothing():
    table, clock = called_on_the_last_token()
    clock.advance(0.5)
    assert not table.settle_clock()
    with pytest.raises(IllegalAction, match="nothing is waiting on the clock"):
        table.submit(2, dict(TIME))
    assert len(table.log) == 1 and table.version == 1 and not table.over


def test_the_partners_call_in_time_is_a_double_crab_and_no_time_is_needed():
    table, clock = called_on_the_last_token()
    table.state.hands[0] = ["magic"] * 4  # seat 0 holds four as well (a stacked test)
    clock.advance(0.6)
    table.submit(1, ANSWER)
    clock.advance(1.0)  # past the window: nothing is waiting on the clock any more
    assert not table.settle_clock() and table.state.waiting_for() == {0, 1}
    table.submit(0, {"type": "double_take", "sources": [2, 3]})
    assert table.over and table.state.result()["team_tokens"] == [7, 2]
    assert TIME not in [action for _, action, _ in table.log]


def test_the_partners_call_exactly_one_second_later_still_comes_before_the_clock():
    table, clock = called_on_the_last_token()
    table.state.hands[0] = ["magic"] * 4
    clock.advance(1.0)
    table.submit(1, ANSWER)  # at 6.0: "at most 1 second" apart
    assert table.state.view(None)["double_take"] == [{"team": 0, "tokens": 2, "callers": [1, 0]}]
    assert TIME not in [action for _, action, _ in table.log]


def test_with_nobody_acting_run_realtime_closes_the_window_by_itself():
    table, clock = called_on_the_last_token()
    assert next_wake(table) == CLOSES  # no bot at all: the deadline is the next wake-up
    assert run_realtime(table, clock, max_actions=10) == 1
    assert table.over and table.log[-1] == (0, TIME, CLOSES) and clock() == CLOSES


def test_bots_that_can_do_nothing_do_not_keep_the_driver_awake():
    bots = {seat: get_bot("crabs", "normal", seat, random.Random(seat)) for seat in (2, 3)}
    table, clock = called_on_the_last_token(bots)
    for seat in (2, 3):
        realtime_move(table)  # each bot plans something it may not do while the pot waits
        assert table.state.legal(seat) == []
    assert next_wake(table) == CLOSES
    run_realtime(table, clock, max_actions=10)
    assert table.over and table.log[-1] == (0, TIME, CLOSES)


def test_replaying_a_log_with_a_time_action_gives_the_same_state():
    table, clock = called_on_the_last_token()
    run_realtime(table, clock, max_actions=10)
    again = crabs.replay(4, 1, LAST_TOKEN, table.log)
    for seat in (None, 0, 1, 2, 3):
        assert again.view(seat) == table.state.view(seat)
    assert again.result() == table.state.result()
    restored = Table(crabs, 4, list("abcd"), seed=1, options=LAST_TOKEN, log=list(table.log))
    assert restored.over and restored.state.result() == table.state.result()


async def test_drive_bots_closes_the_window_at_a_table_of_humans_alone():
    client = local_table("crabs", 4, humans=4, seed=1, **LAST_TOKEN)
    client.submit(0, CALL)
    assert client.table.log[-1][1] == CALL
    started = time.monotonic()
    await asyncio.wait_for(client.run_bots(), timeout=10)  # nobody acts at all
    assert client.table.over and client.table.log[-1][1] == TIME
    called_at = client.table.log[0][2]
    assert client.table.log[-1][2] >= called_at + 1.0
    assert time.monotonic() - started < 3.0


async def test_drive_bots_closes_the_window_when_the_bots_have_nothing_to_do():
    client = local_table("crabs", 4, humans=2, seed=1, **LAST_TOKEN)
    client.submit(0, CALL)
    assert client.table.log[-1][1] == CALL
    await asyncio.wait_for(client.run_bots(), timeout=10)
    assert client.table.over and client.table.log[-1][1] == TIME


async def test_a_hosted_table_of_humans_alone_closes_the_window_with_nobody_acting():
    server = Server(ServerConfig(host="127.0.0.1", port=0, bot_pace=0))
    port = await server.start()
    hosted = server.add_table("crabs", 4, options=LAST_TOKEN, seed=1)
    clients = [
        RemoteClient("127.0.0.1", port, f"p{n}", table=hosted.code, seat=n) for n in range(4)
    ]
    refusals: list[str] = []
    clients[2].listen_notices(lambda kind, text: refusals.append(text) if kind == "error" else None)
    try:
        for client in clients:
            await client.connect()
        for client in clients:
            client.ask.ready(True)
        async with asyncio.timeout(10):
            while hosted.table is None or clients[0].latest is None:
                await asyncio.sleep(0.01)
            clients[2].submit(2, dict(TIME))  # too early: refused, with the engine's sentence
            while not refusals:
                await asyncio.sleep(0.01)
            assert refusals == ["nothing is waiting on the clock"]
            clients[0].submit(0, CALL)
            while not hosted.table.over:  # nobody acts: the server's driver closes the window
                await asyncio.sleep(0.05)
            while not clients[3].over:
                await asyncio.sleep(0.01)
        assert hosted.table.log[-1][1] == TIME
        assert [e["text"] for e in clients[3].latest.view["log"]][-1] == (
            "Game over: {0} and {1} win with 5 tokens."
        )
    finally:
        for client in clients:
            await client.close()
        await server.close()
