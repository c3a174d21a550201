"""Start means now, ready means said so (issue 48, items 8 and 12): the host's `start TABLE`
and the creator's `s` deal at once, a bot playing the seat of whoever was not ready until they
say they are; after a game, ready is for the rematch: only who asked for it."""

from __future__ import annotations

import asyncio

from tablegames.net.client import RemoteClient
from tablegames.net.console import HostConsole
from tablegames.net.messages import Pong, Presence, Seated, ViewUpdate
from tablegames.net.server import Server, ServerConfig
from tablegames.store import Store
from tablegames.testing.harness import until

from .test_seat_life import LOOPBACK, log_in, party, play_out


async def test_the_hosts_start_deals_now_and_a_bot_plays_for_the_unready_until_they_are_ready():
    async with party() as (server, port):
        hosted = server.add_table("crates", 3, {"short": True}, fill_with_bots="normal")
        ann = RemoteClient(LOOPBACK, port, "ann", table=hosted.code)
        fay = RemoteClient(LOOPBACK, port, "fay", table=hosted.code)
        for client in (ann, fay):
            await client.connect()
        ann.ask.ready(True)
        await until(lambda: hosted.seats[0].ready, what="ann ready")
        console = HostConsole(server.party, say=lambda text: None)
        said = console.run(f"start {hosted.code}")
        assert said == (
            f"Table {hosted.code}: the game begins; a bot plays for fay until they say they are "
            "ready (r)."
        ), said
        assert hosted.table is not None  # dealt now, not when fay is ready
        table = hosted.table
        assert 1 in table.bots and 0 not in table.bots and 2 in table.bots
        await until(lambda: fay.latest is not None, what="fay's hand")  # hers, to see
        assert fay.presence is not None and fay.presence.seats[1].standin
        moved = table.version
        await until(lambda: table.version > moved or 1 not in table.state.waiting_for())
        fay.ask.ready(True)  # she is back: her seat is hers to play
        await until(lambda: 1 not in table.bots, what="the bot stepping back")
        assert not hosted.seats[1].standin and hosted.seats[1].peer is not None
        for client in (ann, fay):
            await client.close()


async def test_the_deal_tells_who_a_bot_plays_for_before_their_first_update():
    """A client knows from the presence that came before its first update that a bot plays
    its seat (the waiting room says so instead of opening the table)."""
    async with party() as (server, port):
        cara = await log_in(server, port, "cara")
        cara.ask.new_table("crates", 3, bots="normal", options={"short": True})
        await cara._expect(Seated)
        assert cara.table_code is not None
        hosted = server.tables[cara.table_code]
        fay = await log_in(server, port, "fay")
        fay.ask.join(hosted.code)
        await fay._expect(Seated)
        cara.ask.start_now()  # fay never said she was ready
        first = None
        async with asyncio.timeout(10):  # (on main the deal waited for her)
            while first is None:
                event = await fay.next_event()
                if isinstance(event, Presence) and event.seats[1].standin:
                    first = "presence"
                elif isinstance(event, ViewUpdate):
                    first = "update"
        assert first == "presence"
        assert hosted.table is not None and 1 in hosted.table.bots and 0 not in hosted.table.bots
        for client in (cara, fay):
            await client.close()


async def test_the_rematch_waiting_room_marks_ready_only_who_asked_for_it():
    async with party() as (server, port):
        hosted = server.add_table("crates", 2, {"short": True})
        sara = RemoteClient(LOOPBACK, port, "sara", table=hosted.code)
        tom = RemoteClient(LOOPBACK, port, "tom", table=hosted.code)
        for client in (sara, tom):
            await client.connect()
            client.ask.ready(True)  # ready for the first game
        await until(lambda: hosted.table is not None, what="the deal")
        play_out(hosted)
        await until(lambda: tom.over and sara.over, what="the results")
        sara.ask.rematch()
        await until(
            lambda: tom.presence is not None and "wants a rematch" in str(tom.presence.text),
            what="tom told",
        )
        assert tom.presence is not None
        assert [seat.ready for seat in tom.presence.seats] == [True, False]  # tom has not asked
        for client in (sara, tom):
            await client.close()


async def test_ready_after_the_end_takes_no_seat_from_a_bot():
    async with party() as (server, port):
        hosted = server.add_table("crates", 2, {"short": True}, fill_with_bots="normal")
        sara = RemoteClient(LOOPBACK, port, "sara", table=hosted.code)
        await sara.connect()  # not ready: the host deals, a bot plays for her
        HostConsole(server.party, say=lambda text: None).run(f"start {hosted.code}")
        assert hosted.table is not None and 0 in hosted.table.bots
        play_out(hosted)
        await until(lambda: sara.over, what="the results")
        while sara.has_news():  # (what came before)
            await sara.next_event()
        sara.ask.ready(True)  # too late: the game is over
        barrier = sara.ask.barrier()
        said = []
        async with asyncio.timeout(10):
            while (event := await sara.next_event()) != Pong(n=barrier):
                said.append(event)
        news = [event.text for event in said if isinstance(event, Presence)]
        assert not any("plays their own seat" in str(text) for text in news), news
        await sara.close()


async def test_ready_said_to_a_host_that_restarted_before_the_deal_is_said_again(tmp_path):
    """A host keeps no one's readiness across a restart (and one killed may never have read
    it): a player who said ready is ready again at the restored table once back, or a table
    whose seats are all taken would wait for ever (a crash test's crabs table once did)."""
    store = Store(tmp_path / "ready.db")
    first = Server(ServerConfig(host=LOOPBACK, port=0, bot_pace=0), store=store)
    port = await first.start()
    hosted = first.add_table("crates", 2, {"short": True}, code="REDY")
    ann = RemoteClient(LOOPBACK, port, "ann", table="REDY", reconnect_window=20)
    fay = RemoteClient(LOOPBACK, port, "fay", table="REDY")
    again: Server | None = None
    try:
        await ann.connect()
        ann.ask.ready(True)
        await until(lambda: hosted.seats[0].ready, what="ann ready")
        await first.close()
        await until(lambda: not ann.connected, what="ann's connection lost")
        again = Server(ServerConfig(host=LOOPBACK, port=port, bot_pace=0), store=store)
        (restored,) = again.restore_tables()
        assert not restored.seats[0].ready  # (the store keeps seats, not readiness)
        await again.start()
        assert await ann.reconnect()
        await until(lambda: restored.seats[0].ready, what="ann ready again")
        await fay.connect()
        fay.ask.ready(True)
        await until(lambda: restored.table is not None, what="the deal")
    finally:
        for client in (ann, fay):
            await client.close()
        await first.close()
        if again is not None:
            await again.close()
