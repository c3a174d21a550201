"""`join --bot`: a bot playing one seat of a table over the network, as a table here plays its
own bots (`thinking.py`): thinking in a worker thread during its pace (the connection's
heartbeats go on meanwhile), a call-out after a fair moment, speaking at the game's moments its
seat is shown.

It never answers a question it has answered: an answer goes with the version of the view it was
chosen on, and until the server has had it (a `barrier` pong, after every update the answer
caused) no update is answered, since those sent before it still ask the question answered
(another seat's move in a game where several are asked at once). Then the newest update is
answered if it asks anew: another question (its `asked` moved on), or the same one again in a
newer version (crates asks "play or draw" again after a draw). What it says waits behind a
barrier too, so that it thinks on a view holding its own words, as a bot at a table here does.

Back after a dropped connection it plays on from the seat's view as it is then; before the
deal its seat was free again meanwhile, so it says it is ready again (a seat taken anew is not,
and a table waiting for everyone would wait for it forever), and plays the seat it got if
someone else took its own.

With `TABLEGAMES_LOG=info` it says where it stands, a line each: connecting, seated and ready,
each move it makes, back after a reconnect, the game over (a bot that stops shows where).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable

from ..bots import get_bot, level_note
from ..rules import Bot, View
from ..talk import at_moment, vocabulary
from ..thinking import CallOuts, think
from .client import RemoteClient
from .client_protocol import ConnectionLost, Event, ServerRefused
from .messages import Pong, ViewUpdate

log = logging.getLogger("tablegames.client")


async def play_as_bot(
    client: RemoteClient, level: str, pace: float = 0.0, rng: random.Random | None = None
) -> View:
    """Connect `client`, say ready, and play its seat with a bot of `level` (drawing its
    randomness from `rng`) until the game ends; returns the final view. Reconnects by itself
    when the connection drops."""
    log.info("%s: connecting to %s", client.name, client.where)
    await client.connect()
    client.ask.ready(True)
    if client.seat is None:
        raise ServerRefused("no seat to play")
    assert client.game is not None  # set by `seated`
    log.info("%s: %s, ready", client.name, where(client))
    note = level_note(client.game)  # the level was chosen before the game was known
    if note is not None:
        log.warning("%s", note)
    rng = rng or random.Random(secrets.randbits(64))
    game = client.game.name
    await BotSeat(client, lambda seat: get_bot(game, level, seat, rng), pace).play()
    await client.close()
    if client.latest is None:
        raise ServerRefused("the game never started")
    return client.latest.view


def where(client: RemoteClient) -> str:
    """Where `client` sits, for the log: `seat 2 of table KXPF (crates)`."""
    seat = "no seat" if client.seat is None else f"seat {client.seat + 1}"
    game = client.game.name if client.game is not None else "no game"
    return f"{seat} of table {client.table_code} ({game})"


class BotSeat:
    """A bot at the seat `client` holds (see the module's docstring)."""

    def __init__(self, client: RemoteClient, bot_for: Callable[[int], Bot], pace: float) -> None:
        assert client.game is not None and client.seat is not None
        self.client, self.bot_for, self.pace = client, bot_for, pace
        self.seat, self.bot = client.seat, bot_for(client.seat)
        self.vocabulary = vocabulary(client.game)
        self.call_outs = CallOuts(pace, client.game.state_class.call_outs)
        self.answered: tuple[int, int] | None = None  # (asked, version) last answered
        self.considered: int | None = None  # the version last thought about
        self.on_its_way: int | None = None  # the barrier our last words wait behind
        self.wake: float | None = None  # (loop time) when a call-out held back falls due

    async def play(self) -> None:
        """Play until the game ends."""
        client = self.client
        while True:
            event = await self._next()
            if isinstance(event, ConnectionLost):
                if client.over:
                    return
                if not await client.reconnect():
                    why = client.why
                    raise ServerRefused(f"lost the connection and cannot sit down again: {why}")
                log.info("%s: back: %s", client.name, where(client))
                if client.seat is not None and client.seat != self.seat:  # (its own was taken)
                    self.seat, self.bot = client.seat, self.bot_for(client.seat)
                self.answered = self.considered = self.on_its_way = self.wake = None
                continue  # the seat's view anew: its question as it is now
            if isinstance(event, Pong) and event.n == self.on_its_way:
                self.on_its_way = None  # all our words caused has come: look at the newest
            elif isinstance(event, ViewUpdate):
                self._speak(event)
            elif event is None:
                self.considered = None  # a call-out held back is due: think again
            if client.latest is not None and client.latest.over:
                log.info("%s: the game is over", client.name)
                return
            if self.on_its_way is None and not client.has_news():
                await self._answer()

    async def _next(self) -> Event | None:
        """The next event, or None when a call-out held back falls due first."""
        if self.wake is None:
            return await self.client.next_event()
        try:
            async with asyncio.timeout_at(self.wake):
                return await self.client.next_event()
        except TimeoutError:
            self.wake = None
            return None

    def _speak(self, update: ViewUpdate) -> None:
        """Say what the bot says at a moment this update shows, on the view it came with."""
        speak = getattr(self.bot, "speak", None)
        if speak is None or update.over or not at_moment(self.vocabulary, update.events):
            return
        claims = speak(update.view)
        for claim in claims:
            self.client.claim(self.seat, claim)
        if claims:
            self.on_its_way = self.client.ask.barrier()

    async def _answer(self) -> None:
        """Think about the newest update, once, and answer it unless the table moved on."""
        client, update = self.client, self.client.latest
        if update is None or not update.legal or update.version == self.considered:
            return
        if self.answered == (update.asked, update.version):
            return  # answered already (and refused, the table unchanged): wait for a change
        loop = asyncio.get_running_loop()
        self.considered, self.wake = update.version, None
        self.call_outs.note([(self.seat, update.legal)], loop.time())
        ready_at = loop.time() + self.pace  # it thinks during its pace, not after it
        action = await think(
            self.bot, self.seat, update.view, update.legal, self.call_outs, ready_at
        )
        await asyncio.sleep(max(ready_at - loop.time(), 0.0))
        latest = client.latest
        if latest is None or latest.version != update.version or latest.over:
            return  # the table moved on meanwhile: the newest is thought about next
        if action is None:
            self.wake = self.call_outs.due()
            return
        self.answered = (update.asked, update.version)
        log.info("%s: plays %s (on version %d)", client.name, action, update.version)
        client.submit(self.seat, action, seen=update.version)
        self.on_its_way = client.ask.barrier()
