"""In-process servers on loopback, clients that record every byte they receive, bounded games.

Everything here talks to 127.0.0.1 only, and every wait has a time limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgpack
import msgspec

from ..bots import get_bot
from ..net.client import RemoteClient, ServerRefused
from ..net.client_protocol import ConnectionLost
from ..net.hosting import HostedTable
from ..net.join_bot import play_as_bot
from ..net.messages import Error, Message, ViewUpdate
from ..net.proofs import endpoint, seat_proof, token_key
from ..net.protocol import PROTOCOL_VERSION
from ..net.server import Server, ServerConfig
from ..rules import get_game
from .metrics import record
from .scanner import A_WORD, Report, Scanner, Truth
from .wire import Frame, raw

if TYPE_CHECKING:
    from textual.pilot import Pilot

LOOPBACK = "127.0.0.1"


async def until(
    condition: Callable[[], object],
    seconds: float = 20.0,
    what: str = "",
    pilot: Pilot[None] | None = None,
    held: float = 0.0,
) -> None:
    """Wait until `condition()` holds, checked often, for `held` seconds in a row when given
    (the last frames are in); fail after `seconds` (a loaded machine may take seconds to deal
    four seats), saying what was awaited. With an app's `pilot`, the app works through what it
    was sent between two checks, and a failure shows its screen."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    since: float | None = None
    while True:
        if not condition():
            since = None
        elif since is None and held > 0:
            since = loop.time()
        elif since is None or loop.time() - since >= held:
            return
        if loop.time() > deadline:
            shown = ""
            if pilot is not None:
                from .screens import screen_text

                shown = f"; {pilot.app.screen!r} shows:\n{screen_text(pilot.app)}"
            raise AssertionError(f"not within {seconds} s: {what or condition}{shown}")
        if pilot is None:
            await asyncio.sleep(0.01)
        else:
            await pilot.pause(0.02)


def bot_level(game: str, wanted: str) -> str:
    """`wanted` if `game` has bots of that level, else "random" (every game has those)."""
    try:
        get_bot(game, wanted, 0, random.Random(0))
    except (ValueError, KeyError):
        return "random"
    return wanted


class _Tap(asyncio.StreamReader):
    """A stream reader that keeps a copy of every byte read through it (from `reader`)."""

    def __init__(self, reader: asyncio.StreamReader, sink: bytearray) -> None:
        super().__init__()
        self.reader, self.sink = reader, sink

    async def read(self, n: int = -1) -> bytes:
        data = await self.reader.read(n)
        self.sink += data
        return data


class RecordingClient(RemoteClient):
    """A `RemoteClient` that records the bytes of each connection it makes, as received."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.streams: list[bytearray] = []
        self.sent: set[str] = set()  # words it sent (a refusal may echo them)

    def send(self, message: Message) -> None:
        self.sent.update(A_WORD.findall(repr(msgspec.to_builtins(message))))
        super().send(message)

    async def _read(self, reader: asyncio.StreamReader) -> None:
        sink = bytearray()
        self.streams.append(sink)
        await super()._read(_Tap(reader, sink))


@contextlib.asynccontextmanager
async def running_server(**config: Any) -> AsyncIterator[tuple[Server, int]]:
    """A server on a free loopback port, closed on the way out."""
    server = Server(ServerConfig(host=LOOPBACK, port=0, **config))
    port = await server.start()
    try:
        yield server, port
    finally:
        await server.close()


async def watch(client: RemoteClient, limit: float) -> None:
    """Connect a spectator and follow the table until the game is over (or `limit` passes)."""
    await client.connect()
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(limit):
            while not client.over:
                if isinstance(await client.next_event(), ConnectionLost):
                    break
    await client.close()


async def play_seat(client: RemoteClient, rng: random.Random, optional: float = 0.1) -> None:
    """Play a seat at random until the game ends: a random legal action whenever the game waits
    for this seat, and now and then an optional one (a call, a gesture...) when it does not.

    Unlike a bot this player acts on refusals too (it tries again), so nothing stalls it.
    """
    await client.connect()
    client.ask.ready(True)
    acted_on = -1
    while True:
        event = await client.next_event()
        if isinstance(event, ConnectionLost):
            if client.over or not await client.reconnect():
                return
            acted_on = -1
            continue
        if isinstance(event, Error):
            acted_on = -1  # refused (the table moved on meanwhile): choose again
        elif not isinstance(event, ViewUpdate):
            continue
        update = client.latest
        if update is None:
            continue
        if update.over:
            return
        if update.version == acted_on or not update.legal:
            continue
        if client.seat in update.waiting or rng.random() < optional:
            acted_on = update.version
            client.submit(client.seat, rng.choice(update.legal))


@dataclass
class PlayedGame:
    """One finished (or timed-out) table and what every connection received."""

    hosted: HostedTable
    streams: dict[int | None, list[bytes]] = field(default_factory=dict)
    tokens: dict[int, str] = field(default_factory=dict)
    sent: dict[int | None, frozenset[str]] = field(default_factory=dict)

    def truth(self) -> Truth:
        table = self.hosted.table
        assert table is not None
        return Truth(
            self.hosted.game, self.hosted.players, self.hosted.options, table.seed, table.log
        )

    def scan(self, truth: Truth | None = None) -> Report:
        """Scan every stream of this game against the replayed truth."""
        scanner = Scanner(truth or self.truth(), self.tokens)
        report = Report()
        for recipient, streams in self.streams.items():
            for data in streams:
                sent = self.sent.get(recipient, frozenset())
                report.add(scanner.scan_stream(recipient, data, sent))
        return report


async def play_game(
    server: Server,
    port: int,
    game: str,
    players: int,
    remote: int,
    level: str = "random",
    spectators: int = 1,
    options: dict[str, object] | None = None,
    seed: int | None = None,
    limit: float = 60.0,
    pace: float = 0.0,
    hosted: HostedTable | None = None,
    actions: int | None = None,
    players_seed: int | None = None,
) -> PlayedGame:
    """Play one table (`hosted`, or a new one): `remote` seats by recording bot clients, the
    rest by server bots; with `actions`, only until the table's log holds that many (a game
    cut short: what it has sent is scanned all the same). Random seats choose with
    `players_seed` when given."""
    hosted = hosted or server.add_table(
        game,
        players,
        options or {},
        seed=seed,
        fill_with_bots=bot_level(game, level) if remote < players else None,
        min_humans=remote if remote < players else None,
    )
    seats = [
        RecordingClient(LOOPBACK, port, f"p{i}", table=hosted.code, seat=i) for i in range(remote)
    ]
    watchers = [
        RecordingClient(LOOPBACK, port, f"w{i}", table=hosted.code, spectate=True)
        for i in range(spectators)
    ]
    played = PlayedGame(hosted)
    tasks: list[asyncio.Future[object]] = [asyncio.ensure_future(watch(w, limit)) for w in watchers]
    rng = random.Random(players_seed)
    if level != "random" and bot_level(game, level) == level:
        tasks += [asyncio.ensure_future(play_as_bot(c, level, pace)) for c in seats]
    else:
        tasks += [
            asyncio.ensure_future(play_seat(c, random.Random(rng.getrandbits(64)))) for c in seats
        ]
    waits: list[asyncio.Future[Any]] = [asyncio.gather(*tasks, return_exceptions=True)]
    if actions is not None:
        cut = actions
        waits.append(asyncio.ensure_future(until(
            lambda: hosted.table is not None and len(hosted.table.log) >= cut, limit + 1
        )))  # fmt: skip
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(limit):
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in [*tasks, *waits[1:]]:
        task.cancel()
    await asyncio.gather(*tasks, *waits, return_exceptions=True)
    for client in seats + watchers:
        with contextlib.suppress(Exception):
            await client.close()
    for client in seats:
        assert client.seat is not None and client.token is not None
        played.tokens[client.seat] = client.token
        played.streams.setdefault(client.seat, []).extend(bytes(s) for s in client.streams)
        played.sent[client.seat] = frozenset(client.sent)
    played.streams[None] = [bytes(s) for w in watchers for s in w.streams]
    return played


async def raw_connection(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection(LOOPBACK, port)


async def read_frames(
    reader: asyncio.StreamReader, count: int, timeout: float = 5.0
) -> list[Frame]:
    """Exactly `count` frames from a raw connection (TimeoutError otherwise)."""
    messages: list[Frame] = []
    async with asyncio.timeout(timeout):
        while len(messages) < count:
            header = await reader.readexactly(4)
            body = await reader.readexactly(int.from_bytes(header, "big"))
            messages.append(msgpack.unpackb(body, raw=False, strict_map_key=False))
    return messages


async def read_until_closed(reader: asyncio.StreamReader, timeout: float = 5.0) -> bytes:
    """Everything until the server closes the connection."""
    async with asyncio.timeout(timeout):
        return await reader.read(-1)


async def hello(
    port: int, name: str = "raw", **fields: object
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, list[Frame]]:
    """A raw connection that said hello; returns it and the server's first replies."""
    reader, writer = await raw_connection(port)
    writer.write(raw({"t": "hello", "v": PROTOCOL_VERSION, "name": name, **fields}))
    replies = await read_frames(reader, 1)
    if replies[0]["t"] == "welcome" and "token" not in fields:
        replies += await read_frames(reader, 1)  # the lobby
    return reader, writer, replies


__all__ = [
    "LOOPBACK",
    "PlayedGame",
    "RecordingClient",
    "ServerRefused",
    "get_game",
    "hello",
    "play_game",
    "raw_connection",
    "read_frames",
    "read_until_closed",
    "running_server",
]


class RawPeer:
    """A hand-driven connection: send any message, and read up to a ping/pong barrier."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.seat: int | None = None
        self.token: str | None = None
        self.welcome: Frame = {}  # the server's welcome, once `sit` has heard it
        self._barrier = 0

    @classmethod
    async def open(cls, port: int) -> RawPeer:
        return cls(*await raw_connection(port))

    def send(self, message: Mapping[str, object]) -> None:
        self.writer.write(raw(message))

    async def until_pong(self, timeout: float = 5.0) -> list[Frame]:
        """Every frame the server sends before answering a ping sent now (a barrier)."""
        self._barrier += 1
        self.send({"t": "ping", "n": self._barrier})
        frames: list[Frame] = []
        async with asyncio.timeout(timeout):
            while True:
                (frame,) = await read_frames(self.reader, 1, timeout)
                if frame == {"t": "pong", "n": self._barrier}:
                    return frames
                frames.append(frame)

    async def sit(self, table: str, seat: int | None = None, name: str = "raw") -> None:
        """Hello, join `table` (at `seat`) and note the seat and token."""
        self.send({"t": "hello", "v": PROTOCOL_VERSION, "name": name})
        join: dict[str, object] = {"t": "join", "table": table}
        if seat is not None:
            join["seat"] = seat
        self.send(join)
        for reply in await self.until_pong():
            if reply["t"] == "welcome":
                self.welcome = reply
            if reply["t"] == "seated":
                self.seat, self.token = reply["seat"], reply["token"]
            if reply["t"] == "error":
                raise ServerRefused(reply["text"])

    def proof(self, table: str, token: str, nonce: str | None = None) -> str:
        """What a client answers this connection's challenge with for its seat at `table`
        (`proofs.seat_proof`; another `nonce` makes the answer of another connection)."""
        reached = endpoint(self.writer.get_extra_info("peername"))
        nonce = self.welcome.get("nonce", "") if nonce is None else nonce
        server_id = self.welcome.get("server_id", "")
        return seat_proof(token_key(token), nonce, server_id, reached, table)

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()


def scan_games(
    games: list[tuple[str, int, int, dict[str, object], str]],
    limit: float,
    metric: str = "leak",
    seed: int | None = None,
    actions: int | None = None,
) -> Report:
    """Play each game (name, players, remote seats, options, bot level) and scan every stream;
    with `seed`, the tables' deals and the random seats' choices are seeded from it, and with
    `actions`, each game stops once its log holds that many (`play_game`)."""
    seeds = random.Random(seed)

    async def run() -> Report:
        report = Report()
        async with running_server(bot_pace=0) as (server, port):
            for name, players, remote, options, level in games:
                # (a table's seed as long as a real one: the scanner looks for it in every frame)
                table_seed, players_seed = seeds.getrandbits(63), seeds.getrandbits(63)
                played = await play_game(
                    server, port, name, players, remote, level, options=options, limit=limit,
                    seed=None if seed is None else table_seed, actions=actions,
                    players_seed=None if seed is None else players_seed,
                )  # fmt: skip
                assert played.hosted.table is not None, f"{name} never started"
                report.add(played.scan())
        return report

    report = asyncio.run(run())
    record(
        metric,
        frames=report.frames,
        leaks=len(report.leaks),
        mismatches=len(report.problems) - len(report.leaks),
        rewritten=len(report.rewritten),
    )
    return report
