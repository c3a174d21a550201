"""The table: validation, the action log, per-seat updates, bots and the local client."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest

from tablegames.bots import get_bot
from tablegames.drivers import LocalClient, drive_bots
from tablegames.local import local_table, seat_names
from tablegames.rules import IllegalAction, get_game
from tablegames.table import Table

crates = get_game("crates")
STACK = {"dealer": 1, "hands": [["QH", "JH"], ["2C", "3C"]], "upcard": "KH", "draw": ["4D", "6D"]}


def two_seat_table(**kwargs):
    return Table(crates, 2, ["Sara", "Tom"], seed=1, options=dict(STACK), **kwargs)


def test_submit_logs_bumps_version_and_tells_each_seat_only_its_own_events():
    table = two_seat_table()
    seen = {0: [], 1: [], None: []}
    for seat in seen:
        table.subscribe(seat, seen[seat].append)
    assert [u.version for u in seen[0]] == [0]
    table.submit(0, {"type": "play", "card": "QH", "announce": True})
    table.submit(1, {"type": "draw"})
    assert table.version == 2
    assert [seat for seat, _, _ in table.log] == [0, 1]
    drawn_texts = [e["text"] for e in seen[1][-1].events]
    assert any("4D" in text for text in drawn_texts)
    for seat in (0, None):
        assert not any("4D" in e["text"] for u in seen[seat] for e in u.events)
        assert seen[seat][-1].view == table.state.view(seat)


def test_an_illegal_submit_changes_nothing_and_tells_nobody():
    table = two_seat_table()
    heard = []
    table.subscribe(0, heard.append)
    before = table.state.view(0)
    with pytest.raises(IllegalAction, match="not your turn"):
        table.submit(1, {"type": "draw"})
    with pytest.raises(IllegalAction, match="do not hold"):
        table.submit(0, {"type": "play", "card": "AS"})
    assert table.version == 0 and table.log == [] and len(heard) == 1
    assert table.state.view(0) == before


def test_a_table_restored_from_its_log_is_the_same_table():
    table = Table(crates, 3, ["a", "b", "c"], seed=5, options={"short": True})
    rng = random.Random(5)
    for _ in range(60):
        seat = table.state.turn
        table.submit(seat, rng.choice(table.legal(seat)))
    again = Table(crates, 3, ["a", "b", "c"], seed=5, options={"short": True}, log=list(table.log))
    assert again.version == table.version
    for seat in (None, 0, 1, 2):
        assert again.state.view(seat) == table.state.view(seat)


def test_bots_play_a_whole_game_and_bot_move_respects_optional_moves():
    bots = {seat: get_bot("crates", "normal", seat, random.Random(seat)) for seat in range(3)}
    table = Table(crates, 3, ["a", "b", "c"], seed=2, options={"short": True}, bots=bots)
    taken = table.run_bots(100_000)
    assert table.over and taken == len(table.log) > 0
    assert table.bot_move() is None


def test_local_client_refuses_with_the_reason_and_guards_seats():
    client = LocalClient(two_seat_table(), seats=[0], pace=0)
    refused: list[tuple[str, str]] = []  # a refusal comes as from a server: a notice
    client.listen_notices(lambda kind, text: refused.append((kind, text)))
    client.submit(1, {"type": "draw"})
    client.submit(0, {"type": "draw"})
    assert refused == [
        ("error", "that seat is not yours"),
        ("error", "you can play QH, JH: you may only draw when nothing fits"),
    ]
    heard = []
    client.listen(lambda seat, update: heard.append((seat, update.version)))
    client.submit(0, {"type": "play", "card": "QH"})
    assert heard == [(0, 1)] and len(refused) == 2


async def test_local_client_runs_bots_to_the_end_of_a_bot_only_game():
    client = local_table("crates", 2, humans=1, seed=4, pace=0, short=True)
    client.table.bots[0] = get_bot("crates", "random", 0, random.Random(0))  # seat 0 too
    await asyncio.wait_for(client.run_bots(), timeout=60)
    assert client.table.over


def test_seat_names_fill_humans_then_bots():
    assert seat_names(3, 2, ["Sara"]) == ["Sara", "Player 2", "Ada (bot)"]
    with pytest.raises(ValueError, match="humans"):
        local_table("crates", 2, humans=3)


async def test_a_bot_thinks_during_its_pause_not_after_it():
    table = two_seat_table()
    asked = asyncio.Event()

    class Thinker:
        def choose(self, view, legal):
            asked.set()
            return legal[0]

    table.bots[0] = Thinker()
    driver = asyncio.create_task(drive_bots(table, 60.0))  # a minute's pause
    try:
        await asyncio.wait_for(asked.wait(), 5)  # asked at once, long before the pause is over
        assert table.version == 0  # and its move waits for the pause
    finally:
        driver.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await driver


async def test_a_bot_seated_at_a_table_of_humans_moves_it_on_at_once_whoever_drives_it():
    # Issue 38: the host gave a seat to a bot and nothing woke the driver: the table froze.
    for drive in ("local", "server"):
        table = two_seat_table()
        client = LocalClient(table, [0, 1], pace=0.0)
        driver = asyncio.create_task(
            client.run_bots() if drive == "local" else drive_bots(table, 0.0)
        )
        try:
            await asyncio.sleep(0.05)  # the driver is waiting: nobody to move
            assert table.version == 0
            (waiting,) = table.state.waiting_for()
            table.seat_bot(waiting, get_bot("crates", "normal", waiting, random.Random(1)))
            async with asyncio.timeout(1.0):
                while table.version == 0:
                    await asyncio.sleep(0.01)
            table.unseat_bot(waiting)
            assert waiting not in table.bots
        finally:
            driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await driver


# -- a fair moment before a call-out --------------------------------------------------------------
SLIP = {
    "dealer": 2,
    "hands": [["QH", "JH"], ["QS", "JS", "KC", "3C"], ["KS", "JD", "QD", "3D"]],
    "upcard": "KH",
    "draw": ["4D", "6D", "7D", "8D", "9D", "10D"],
}


async def bots_play_after(table: Table, pace: float, until) -> list[tuple[int, dict]]:
    """Drive `table`'s bots at `pace` until `until(moves)` holds for the bots' moves so far."""
    moves: list[tuple[int, dict]] = []
    seen = asyncio.Event()

    def heard(accepted) -> None:
        if accepted.seat in table.bots:
            moves.append((accepted.seat, accepted.action))
        seen.set()

    table.on_action(heard)
    driver = asyncio.create_task(drive_bots(table, pace))
    try:
        async with asyncio.timeout(20):
            while not until(moves):
                await seen.wait()
                seen.clear()
    finally:
        driver.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await driver
    return moves


async def test_bots_give_a_player_who_forgot_crates_a_fair_moment_before_dope():
    # At the default pace a bot called Dope! half a second after the play: too soon for a
    # person to press c, though the rules let them say it while they hold the card.
    table = Table(crates, 3, ["Sara", "Ada", "Bruno"], seed=1, options=dict(SLIP))
    for seat in (1, 2):
        table.bots[seat] = get_bot("crates", "normal", seat, random.Random(seat))
    table.submit(0, {"type": "play", "card": "QH"})  # one card left, Crates! not said
    moves = await bots_play_after(
        table, 0.05, lambda moves: any(a["type"] == "dope" for _, a in moves)
    )
    first = moves[0][1]
    assert first["type"] == "play", moves  # Ada plays her turn first; Dope! comes later
    assert moves[-1][1] == {"type": "dope", "target": 0}


async def test_crates_said_within_the_moment_is_not_caught():
    table = Table(crates, 3, ["Sara", "Ada", "Bruno"], seed=1, options=dict(SLIP))
    for seat in (1, 2):
        table.bots[seat] = get_bot("crates", "normal", seat, random.Random(seat))
    table.submit(0, {"type": "play", "card": "QH"})
    await bots_play_after(table, 0.3, lambda moves: len(moves) >= 1)  # a move after hers
    table.submit(0, {"type": "announce"})  # a moment later: still in time
    moves = await bots_play_after(table, 0.3, lambda moves: 0 in table.state.waiting_for())
    assert not any(action["type"] == "dope" for _, action in moves)
    assert 0 in table.state.view(0)["announced"]
