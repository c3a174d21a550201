"""The table: one game for any mix of local humans, bots and remote players, and its action log.

Every change goes through `Table.submit`, which validates with the engine, appends to the log,
bumps the version and publishes to each subscriber an `Update` built from `view(seat)` alone.
The table never sleeps or reads sockets: drivers (the TUI's `LocalClient`, the network server,
`simulate`) decide when bots move, using `bot_move()`.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .rules import Action, Event, Game, IllegalAction, State, View
from .rules.core import visible_to

if TYPE_CHECKING:
    from .store import Store


class Bot(Protocol):
    """What the table needs of a bot: a choice from the seat's own view and legal actions."""

    def choose(self, view: View, legal: list[Action]) -> Action | None: ...


@dataclass
class Update:
    """What one seat (None: a spectator) is told after a change."""

    version: int
    view: View
    events: list[Event]
    over: bool
    legal: list[Action] = field(default_factory=list)  # what this seat may do now
    waiting: list[int] = field(default_factory=list)  # seats whose move the game needs


Subscriber = Callable[[Update], None]


@dataclass
class Table:
    """Runs one game: the state, seats, bots, the log `(seat, action, now)` and its subscribers."""

    game: Game
    players: int
    names: list[str]
    seed: int = field(default_factory=lambda: secrets.randbits(63))
    options: dict[str, Any] = field(default_factory=dict)
    bots: dict[int, Bot] = field(default_factory=dict)
    clock: Callable[[], float] = time.monotonic
    log: list[tuple[int, Action, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.names) != self.players:
            raise ValueError(f"need {self.players} names, got {len(self.names)}")
        self.state: State = self.game.new(self.players, self.seed, **self.options)
        self.version = 0
        self._start = self.clock()
        self._subscribers: list[tuple[int | None, Subscriber]] = []
        self._listeners: list[Callable[[int, Action, float], None]] = []
        for seat, action, now in self.log:  # restoring a saved table
            self.state.apply(seat, action, now)
            self.version += 1

    @property
    def over(self) -> bool:
        return self.state.over

    def now(self) -> float:
        """Seconds since the table started, from its clock."""
        return self.clock() - self._start

    def subscribe(self, seat: int | None, subscriber: Subscriber) -> Callable[[], None]:
        """Send `seat`'s updates to `subscriber`, starting now; returns a function to stop."""
        entry = (seat, subscriber)
        self._subscribers.append(entry)
        subscriber(self.update_for(seat))
        return lambda: self._subscribers.remove(entry) if entry in self._subscribers else None

    def on_action(self, listener: Callable[[int, Action, float], None]) -> Callable[[], None]:
        """Call `listener(seat, action, now)` for every accepted action before anyone is told.

        Returns a function that stops the calls.
        """
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def update_for(self, seat: int | None, events: Sequence[Event] = ()) -> Update:
        """The current update for `seat`, with those of `events` it may see."""
        return Update(
            version=self.version,
            view=self.state.view(seat),
            events=[e for e in events if visible_to(e, seat)],
            over=self.state.over,
            legal=[] if seat is None else self.state.legal(seat),
            waiting=self.state.visible_waiting(seat),
        )

    def submit(self, seat: int, action: Action) -> list[Event]:
        """Apply `action` for `seat` and publish it. Raises IllegalAction and changes nothing."""
        now = self.now()
        events = self.state.apply(seat, action, now)
        self.log.append((seat, action, now))
        self.version += 1
        for listener in self._listeners:
            listener(seat, action, now)
        for watcher, subscriber in list(self._subscribers):
            subscriber(self.update_for(watcher, events))
        return events

    def legal(self, seat: int) -> list[Action]:
        """The actions `seat` may take now."""
        return self.state.legal(seat)

    def bot_turns(self) -> list[tuple[int, View, list[Action]]]:
        """Bots that could move now, with their views and legal actions, in the order to ask them.

        Optional moves (calling out...) come first: a bot the game waits for always has something
        to do, and calling out a player must be possible before the turn moves on.
        """
        waiting = self.state.waiting_for()
        turns = []
        for seat in sorted(self.bots, key=lambda seat: seat in waiting):
            legal = self.state.legal(seat)
            if legal:
                turns.append((seat, self.state.view(seat), legal))
        return turns

    def bot_move(self) -> tuple[int, Action] | None:
        """The next bot action, asking bots in `bot_turns` order; None if none wants to move."""
        for seat, view, legal in self.bot_turns():
            action = self.bots[seat].choose(view, legal)
            if action is not None:
                return seat, action
        return None

    def bots_to_move(self) -> bool:
        """True if a bot is one of the seats the game waits for."""
        return any(seat in self.bots for seat in self.state.waiting_for())

    def run_bots(self, max_actions: int) -> int:
        """Let bots play without pause until none wants to move (bounded); returns actions taken."""
        for taken in range(max_actions):
            move = self.bot_move()
            if move is None:
                return taken
            self.submit(*move)
        return max_actions


class LocalClient:
    """The TUI's view of an in-process table: local seats, updates, and paced bots.

    Bots move `pace` seconds after the last change, so a human can follow them.
    """

    def __init__(
        self, table: Table, seats: Sequence[int], pace: float = 0.5, speed: float = 1.0
    ) -> None:
        self.table = table
        self.seats = list(seats)
        self.pace = pace
        self.speed = speed  # real-time games run this much faster (or slower) than life
        self._changed = asyncio.Event()
        self._listeners: list[Callable[[int, Update], None]] = []
        self.saved_as: tuple[Store, int] | None = None  # where the game is being saved
        self.stop_saving: Callable[[], None] = lambda: None
        for seat in self.seats:
            table.subscribe(seat, self._relay(seat))
        table.on_action(lambda seat, action, now: self._changed.set())

    @property
    def names(self) -> list[str]:
        return self.table.names

    @property
    def game(self) -> Game:
        return self.table.game

    def _relay(self, seat: int) -> Subscriber:
        def deliver(update: Update) -> None:
            for listener in self._listeners:
                listener(seat, update)

        return deliver

    def listen(self, listener: Callable[[int, Update], None]) -> None:
        """Call `listener(seat, update)` for every update to one of this client's seats."""
        self._listeners.append(listener)

    def update(self, seat: int) -> Update:
        """The current update for one of this client's seats."""
        return self.table.update_for(seat)

    def submit(self, seat: int, action: Action) -> str | None:
        """Play `action` for `seat`; returns the reason it was refused, or None if accepted."""
        if seat not in self.seats:
            return "that seat is not yours"
        try:
            self.table.submit(seat, action)
        except IllegalAction as refusal:
            return str(refusal)
        return None

    def waiting_for(self) -> frozenset[int]:
        return self.table.state.waiting_for()

    def discard_save(self) -> None:
        """Forget the saved copy of this game (the player chose not to keep it)."""
        if self.saved_as is not None:
            self.stop_saving()
            store, table_id = self.saved_as
            store.delete_table(table_id)
            self.saved_as = None

    async def run_bots(self) -> None:
        """Drive this table's bots until the game ends, pausing `pace` seconds before each move."""
        await drive_bots(self.table, self.pace, self._changed)


async def drive_bots(table: Table, pace: float, changed: asyncio.Event) -> None:
    """Let `table`'s bots play until the game ends: one move per pause, re-deciding on change.

    `changed` must be set whenever the table changes (an action, a bot joining). Bots think in a
    worker thread on their own view, so other work goes on; a decision made while the table
    changed is dropped and made again on the new state.
    """
    while not table.over:
        changed.clear()
        await asyncio.sleep(pace)
        version, moved = table.version, False
        for seat, view, legal in table.bot_turns():
            bot = table.bots.get(seat)
            if bot is None:
                continue
            action = await asyncio.to_thread(bot.choose, view, legal)
            if table.version != version or table.over:
                moved = True  # someone acted meanwhile: decide again on the new state
                break
            if action is not None:
                try:
                    table.submit(seat, action)
                except IllegalAction:  # a bot's mistake must never stop the table
                    await asyncio.sleep(max(pace, 0.05))
                moved = True
                break
        if not moved:
            await changed.wait()
