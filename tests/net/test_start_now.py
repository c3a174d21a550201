"""Start means now (issue 48, item 8): the host's `start TABLE` and the creator's `s` deal at
once; a bot plays the seat of whoever was not ready until they say they are, and says so."""

from __future__ import annotations

import asyncio

from tablegames.net.client import RemoteClient
from tablegames.net.console import HostConsole
from tablegames.net.messages import Presence, Seated, ViewUpdate
from tablegames.testing.harness import until

from .test_seat_life import LOOPBACK, log_in, party


async def test_the_hosts_start_deals_now_and_a_bot_plays_for_the_unready_until_they_are_ready():
    async with party() as (server, port):
        hosted = server.add_table("crates", 3, {"short": True}, fill_with_bots="normal")
        ann = RemoteClient(LOOPBACK, port, "ann", table=hosted.code)
        fay = RemoteClient(LOOPBACK, port, "fay", table=hosted.code)
        for client in (ann, fay):
            await client.connect()
        ann.ready(True)
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
        fay.ready(True)  # she is back: her seat is hers to play
        await until(lambda: 1 not in table.bots, what="the bot stepping back")
        assert not hosted.seats[1].standin and hosted.seats[1].peer is not None
        for client in (ann, fay):
            await client.close()


async def test_the_deal_tells_who_a_bot_plays_for_before_their_first_update():
    """A client knows from the presence that came before its first update that a bot plays
    its seat (the waiting room says so instead of opening the table)."""
    async with party() as (server, port):
        cara = await log_in(server, port, "cara")
        cara.create("crates", 3, bots="normal", options={"short": True})
        await cara._expect(Seated)
        assert cara.table_code is not None
        hosted = server.tables[cara.table_code]
        fay = await log_in(server, port, "fay")
        fay.join_table(hosted.code)
        await fay._expect(Seated)
        cara.start_now()  # fay never said she was ready
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
