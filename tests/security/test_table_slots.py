"""Tables per person and per address (issue 47, item 5): the live tables (waiting or playing)
one person, and one address, may hold at once are counted together and capped, so a friend
can always open a table while one guest hogs; and a table whose people all left ends within
minutes instead of holding its slot.
"""

from __future__ import annotations

from typing import Any

from tablegames.net.party import Login
from tablegames.net.server import Server, ServerConfig
from tablegames.table import VirtualClock
from tablegames.testing.harness import LOOPBACK, running_server, until

from .guest import answers, greeted, refusals

CREATE = {"t": "create", "game": "crates", "players": 2, "bots": "normal"}
SOON = 300.0  # "soon": within five minutes of the last person leaving


async def open_deal_and_leave(port: int, name: str, source: str, **hello: Any) -> list[str]:
    """From `source`, `name` opens a table, deals (a bot in the other seat) and goes back to
    the lobby; returns what was refused."""
    hog = await greeted(port, name, source, **hello)
    refused = refusals(await answers(hog, CREATE))
    if refused:
        return refused
    refused += refusals(await answers(hog, {"t": "start"}))
    refused += refusals(await answers(hog, {"t": "leave"}))
    return refused


async def test_a_friend_opens_a_table_while_one_guest_hogs_from_another_address():
    async with running_server(max_tables=12) as (server, port):
        refused: list[str] = []
        for n in range(12):  # a new name each time, from one address: every slot it can
            refused = await open_deal_and_leave(port, f"hog{n}", "127.0.0.2")
            if refused:
                break
        friend = await greeted(port, "friend", "127.0.0.3")
        answered = await answers(friend, CREATE)
        assert refusals(answered) == [], "the friend could not open a table"
        assert [f["t"] for f in answered if f["t"] == "seated"] == ["seated"]
        assert len(server.tables) - 1 < server.config.max_tables - 1  # the hog stopped early
        (why,) = refused
        assert "as many as one person may" in why, why


async def test_many_logins_from_one_address_share_its_tables():
    """SSH or browser guests under ever new names from one address (each a person of their
    own) hold the address's tables together."""
    async with running_server() as (server, port):
        refused: list[str] = []
        for n in range(12):
            login = Login(f"guest-hog{n}", None, f"hog{n}@127.0.0.2", "127.0.0.2")
            ticket = server.party.doors.ticket_for(login)
            refused = await open_deal_and_leave(port, "hog", "127.0.0.2", ticket=ticket)
            if refused:
                break
        (why,) = refused
        assert why.startswith("your address already has 6 tables going"), why
        friend = await greeted(port, "friend", "127.0.0.3")
        assert refusals(await answers(friend, CREATE)) == []


async def test_one_person_counts_their_playing_tables_too():
    async with running_server() as (server, port):
        sara = await greeted(port, "sara", "127.0.0.2")
        refused: list[str] = []
        for _ in range(10):
            refused = refusals(await answers(sara, CREATE))
            if refused:
                break
            await answers(sara, {"t": "start"})
            await answers(sara, {"t": "leave"})
        live = [t for t in server.tables.values() if t.table is None or not t.table.over]
        assert 1 <= len(live) <= 3, len(live)  # waiting or playing, counted together
        (why,) = refused
        assert why.startswith("you already have"), why


async def test_a_table_whose_people_all_left_ends_within_minutes():
    clock = VirtualClock(1000.0)
    server = Server(ServerConfig(host=LOOPBACK, port=0), clock=clock)
    port = await server.start()
    try:
        hog = await greeted(port, "hog", "127.0.0.2")
        (seated,) = [f for f in await answers(hog, CREATE) if f["t"] == "seated"]
        await answers(hog, {"t": "start"})
        await hog.close()  # gone: their table plays on with nobody at it
        hosted = server.tables[seated["table"]]
        await until(lambda: not hosted.peers(), what="the hog gone")
        clock.advance(SOON)
        server.party.timekeeper.tick()
        assert seated["table"] not in server.tables
    finally:
        await server.close()
