"""A seat's hand never reaches another person mid-game (issue 47, item 3).

Raw frames, as a guest's own client sends them: a table's creator may free or hand over seats
only before the deal; during a game only the host (console) may, and a seat freed then is
played by a bot until the game ends unless its own player comes back with their token. A
newcomer sits only at a deal, or watches. Every frame each connection is sent is checked: no
update ever carries another seat's view.
"""

from __future__ import annotations

from tablegames.net.console import HostConsole
from tablegames.net.hosting import HostedTable
from tablegames.net.protocol import PROTOCOL_VERSION
from tablegames.net.server import Server
from tablegames.testing.harness import RawPeer, raw_connection, running_server, until
from tablegames.testing.wire import Frame


class Guest(RawPeer):
    """A raw connection that keeps every frame it was sent."""

    heard: list[Frame]

    @classmethod
    async def hello(cls, port: int, name: str) -> Guest:
        guest = cls(*await raw_connection(port))
        guest.heard = []
        guest.send({"t": "hello", "v": PROTOCOL_VERSION, "name": name})
        await guest.news()
        return guest

    async def news(self) -> list[Frame]:
        """Everything sent to this connection up to now (a ping's pong is the barrier)."""
        frames = await self.until_pong()
        self.heard += frames
        for frame in frames:
            if frame["t"] == "welcome":
                self.welcome = frame
            if frame["t"] == "seated":
                self.seat, self.token = frame["seat"], frame["token"] or self.token
        return frames

    def views(self) -> set[int | None]:
        """The seats whose views this connection was sent."""
        return {frame["view"]["seat"] for frame in self.heard if frame["t"] == "update"}

    def refusals(self, frames: list[Frame]) -> list[str]:
        return [frame["text"] for frame in frames if frame["t"] == "error"]


async def with_a_friend(
    server: Server, port: int, ready: bool = False
) -> tuple[Guest, Guest, HostedTable]:
    """Cara opens crates for three (a bot in the last seat) and Fay sits in seat 2 (`ready`:
    and says she is ready)."""
    cara = await Guest.hello(port, "cara")
    cara.send({"t": "create", "game": "crates", "players": 3, "bots": "normal"})
    await cara.news()
    hosted = server.tables[next(iter(server.tables))]
    fay = await Guest.hello(port, "fay")
    fay.send({"t": "join", "table": hosted.code, "seat": 1})
    if ready:
        fay.send({"t": "ready", "ready": True})
    await fay.news()
    return cara, fay, hosted


async def dealt_with_a_friend(server: Server, port: int) -> tuple[Guest, Guest, HostedTable]:
    """`with_a_friend`, ready, and Cara deals; returns once the game waits for Cara (seat 1),
    her friend's hand dealt."""
    cara, fay, hosted = await with_a_friend(server, port, ready=True)
    cara.send({"t": "start"})
    await until(lambda: hosted.table is not None, what="the deal")
    table = hosted.table
    assert table is not None
    table.bots.clear()  # every move here is the test's: the game waits for cara
    while 0 not in table.state.waiting_for():
        seat = min(table.state.waiting_for())
        table.submit(seat, table.legal(seat)[0])
    await cara.news()
    await fay.news()
    return cara, fay, hosted


def cara_plays(hosted: HostedTable) -> None:
    """Seat 1 moves (the table sends every seat its update)."""
    assert hosted.table is not None
    hosted.table.submit(0, hosted.table.legal(0)[0])


async def test_a_creator_cannot_free_a_friends_seat_mid_game_and_sit_there_from_a_second_line():
    async with running_server(bot_pace=0.0) as (server, port):
        cara, fay, hosted = await dealt_with_a_friend(server, port)
        cara.send({"t": "seat", "seat": 1, "to": "free"})
        (refusal,) = cara.refusals(await cara.news())
        assert "only the host" in refusal, refusal
        second = await Guest.hello(port, "cara two")  # cara's second connection
        second.send({"t": "join", "table": hosted.code, "seat": 1})
        second.send({"t": "join", "table": hosted.code})
        refusals = second.refusals(await second.news())
        cara_plays(hosted)
        await second.news()
        assert second.views() == set()  # no seat's update, not even the spectators'
        assert len(refusals) == 2 and "the game has begun" in refusals[0], refusals
        assert "watch" in refusals[0] and refusals[1] == refusals[0]
        cara.send({"t": "seat", "seat": 1, "to": "normal"})  # nor hand it to a bot,
        cara.send({"t": "close", "table": hosted.code})  # nor end fay's game
        refusals = cara.refusals(await cara.news())
        assert len(refusals) == 2 and all("only the host" in text for text in refusals), refusals
        assert hosted.code in server.tables
        await fay.news()
        assert hosted.seats[1].peer is not None and hosted.seats[1].bot_level is None
        assert cara.views() == {0} and fay.views() == {1}
        for guest in (cara, fay, second):
            await guest.close()


async def test_a_seat_the_host_frees_mid_game_is_a_bots_until_its_own_player_comes_back():
    async with running_server(bot_pace=0.0) as (server, port):
        cara, fay, hosted = await dealt_with_a_friend(server, port)
        token = fay.token
        console = HostConsole(server.party, say=lambda text: None)
        assert console.run(f"free {hosted.code} 2") == f"Table {hosted.code}: done."
        assert hosted.table is not None and 1 in hosted.table.bots  # a bot plays it meanwhile
        newcomer = await Guest.hello(port, "dee")
        newcomer.send({"t": "join", "table": hosted.code, "seat": 1})
        (refusal,) = newcomer.refusals(await newcomer.news())
        assert "the game has begun" in refusal, refusal
        cara_plays(hosted)
        await newcomer.news()
        assert newcomer.views() == set()
        back = await Guest.hello(port, "fay")  # fay's own token: her seat and her hand
        back.send({"t": "rejoin", "table": hosted.code, "proof": back.proof(hosted.code, token)})
        frames = await back.news()
        kinds = [frame["t"] for frame in frames]
        assert kinds.index("seated") < kinds.index("update"), kinds
        assert back.seat == 1 and back.views() == {1}
        assert hosted.seats[1].peer is not None and 1 not in hosted.table.bots
        assert cara.views() == {0} and newcomer.views() == set()
        for guest in (cara, fay, newcomer, back):
            await guest.close()


async def test_a_creator_still_frees_and_hands_over_seats_before_the_deal():
    async with running_server(bot_pace=0.0) as (server, port):
        cara, fay, hosted = await with_a_friend(server, port)
        cara.send({"t": "seat", "seat": 1, "to": "free"})
        cara.send({"t": "seat", "seat": 2, "to": "random"})
        assert cara.refusals(await cara.news()) == []
        assert not hosted.seats[1].claimed and hosted.seats[2].bot_level == "random"
        for guest in (cara, fay):
            await guest.close()
