"""A `join --bot` player keeps the table it waits at able to begin when its connection drops."""

from __future__ import annotations

import asyncio

from tablegames.net.client import RemoteClient
from tablegames.net.join_bot import play_as_bot
from tablegames.net.server import Server, ServerConfig
from tablegames.testing.harness import LOOPBACK, until


async def test_a_bot_dropped_before_the_deal_sits_down_ready_again():
    """Before the deal a dropped seat is free again, and a seat taken anew is not ready: the
    bot says it is ready again, or the table (every seat taken) would wait for it forever."""
    server = Server(ServerConfig(host=LOOPBACK, port=0, bot_pace=0))
    port = await server.start()
    hosted = server.add_table("crates", 2, {"short": True}, seed=8)
    early = RemoteClient(LOOPBACK, port, "early", table=hosted.code)
    late = RemoteClient(LOOPBACK, port, "late", table=hosted.code)
    try:
        first = asyncio.ensure_future(play_as_bot(early, "normal"))
        await until(lambda: any(s.ready for s in hosted.seats), what="early is ready")
        (dropped,) = [s.peer for s in hosted.seats if s.peer is not None]
        assert early._writer is not None
        early._writer.transport.abort()  # the network drops before the deal

        def back() -> bool:
            return any(s.peer not in (None, dropped) for s in hosted.seats)

        await until(back, what="early sits down again")
        views = await asyncio.wait_for(asyncio.gather(first, play_as_bot(late, "normal")), 60)
        assert hosted.table is not None and hosted.table.over
        assert all(view["phase"] == "over" for view in views)
    finally:
        await server.close()


async def test_a_bot_back_at_another_seat_before_the_deal_plays_that_one():
    """Its seat, free again while it was away, may be taken by someone else: it sits at
    another, and plays that one (never moves for the seat it had)."""
    server = Server(ServerConfig(host=LOOPBACK, port=0, bot_pace=0))
    port = await server.start()
    hosted = server.add_table("crates", 2, {"short": True}, seed=8)
    early = RemoteClient(LOOPBACK, port, "early", table=hosted.code)
    late = RemoteClient(LOOPBACK, port, "late", table=hosted.code)
    network_back = asyncio.Event()
    connect = early.connect

    async def slow_network(*args, **kwargs) -> None:
        if early.seat is not None:  # (a reconnect: the first connect goes at once)
            await network_back.wait()
        await connect(*args, **kwargs)

    early.connect = slow_network  # type: ignore[method-assign]
    try:
        first = asyncio.ensure_future(play_as_bot(early, "normal"))
        await until(lambda: hosted.seats[0].ready, what="early is ready at seat 1")
        assert early._writer is not None
        early._writer.transport.abort()  # the network drops before the deal
        await until(lambda: not hosted.seats[0].claimed, what="seat 1 free again")
        second = asyncio.ensure_future(play_as_bot(late, "normal"))
        await until(lambda: hosted.seats[0].ready, what="late is ready at seat 1")
        network_back.set()
        views = await asyncio.wait_for(asyncio.gather(first, second), 60)
        assert (early.seat, late.seat) == (1, 0)
        assert hosted.table is not None and hosted.table.over
        assert all(view["phase"] == "over" for view in views)
    finally:
        await server.close()
