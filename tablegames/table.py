"""The table: one game for any mix of local humans, bots and remote players, and its action log.

Every change goes through `Table.submit`, which validates with the engine, appends to the log,
bumps the version and publishes to each subscriber an `Update` built from `view(seat)` alone.
The table never sleeps or reads sockets: drivers (the TUI's `LocalClient`, the network server,
`simulate`) decide when bots move, using `bot_move()`.

A game may change by itself at a moment (`state.deadline()`: crabs' double-crab window). The
table turns that into an ordinary logged action, `{"type": "time"}`: `submit` applies it first
whenever an action arrives at or after the deadline, and the drivers wake at the deadline to
apply it (`settle_clock`) when nobody acts, bots or not. Replays simply replay it.

Real-time games (crabs) have no turns: their bots are `RealtimeBot`s, asked again whenever the
table changes and at the moment each says it wants to be asked (`wake_at`). They are told the
table's time with every view, so a bot acts after a human-like reaction time by returning None
until then; nobody sleeps inside a bot. `drive_bots` sleeps until the next change or wake-up;
tests and `simulate` run the same bots on a `VirtualClock` that jumps to the next wake-up at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from . import talk as table_talk
from .rules import Action, Event, Game, IllegalAction, State, View
from .rules.core import visible_to


class Bot(Protocol):
    """What the table needs of a bot: a choice from the seat's own view and legal actions."""

    def choose(self, view: View, legal: list[Action]) -> Action | None: ...


class RealtimeBot(Bot, Protocol):
    """A bot for a real-time game: it decides when, as well as what.

    Its views carry two extra keys from the driver: `now` (the table's time in seconds) and
    `speed` (the factor its reaction times are divided by). `choose` returns None until the bot
    wants to act; `wake_at` is the table time it next wants to be asked even if nothing changes
    (None: only when something changes).
    """

    def wake_at(self) -> float | None: ...


def is_realtime(bot: object) -> bool:
    """True if `bot` plays in real time (it says when it wants to be asked: `wake_at`)."""
    return callable(getattr(bot, "wake_at", None))


class VirtualClock:
    """A clock that moves only when told to: real-time games in tests and simulations.

    Pass it as a `Table`'s clock; `advance` moves it on. Time never goes backwards.
    """

    def __init__(self, start: float = 0.0) -> None:
        self.time = start

    def __call__(self) -> float:
        return self.time

    def advance(self, seconds: float) -> None:
        """Move the clock `seconds` on (a negative step is ignored)."""
        self.time += max(0.0, seconds)

    def advance_to(self, moment: float) -> None:
        """Move the clock to `moment` if that is later than now."""
        self.time = max(self.time, moment)


@dataclass
class Update:
    """What one seat (None: a spectator) is told after a change."""

    version: int
    view: View
    events: list[Event]
    over: bool
    legal: list[Action] = field(default_factory=list)  # what this seat may do now
    waiting: list[int] = field(default_factory=list)  # seats whose move the game needs
    asked: int = 0  # the version since which this seat has been asked what it is asked now


Subscriber = Callable[[Update], None]


class SavedIn(Protocol):
    """Where a local game is saved (the store), as the table needs it: to forget the game."""

    path: Path

    def delete_table(self, table_id: int) -> None: ...


@dataclass(frozen=True)
class Accepted:
    """An action the table accepted, as its listeners (the store, the server) hear of it."""

    seq: int  # its place in the action log
    seat: int
    action: Action
    now: float
    result: dict[str, Any] | None  # the game's result, if this action ended it
    meta: dict[str, Any]  # what the one who submitted it added (the version its client saw)


#: The action type by which the table tells a game that its deadline has passed.
TIME = "time"
#: The seat a `time` action is logged for (the engine accepts it from any seat).
CLOCK_SEAT = 0
#: Why an action chosen on a view from before the seat's question changed is refused.
MOVED_ON = "the table moved on before that arrived: look again and choose anew"


def is_time(action: object) -> bool:
    """True if `action` is the table's `{"type": "time"}` (the clock's move, nobody's turn)."""
    return isinstance(action, dict) and action.get("type") == TIME


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
    talk: list[dict[str, Any]] = field(default_factory=list)  # claims made (see `talk.py`)

    def __post_init__(self) -> None:
        if len(self.names) != self.players:
            raise ValueError(f"need {self.players} names, got {len(self.names)}")
        self.state: State = self.game.new(self.players, self.seed, **self.options)
        self.version = 0
        self.turns_taken = 0  # actions the game waited for (not optional ones), from now on
        # A restored table's time goes on from its last action: the engine may compare times.
        self._start = self.clock() - (float(self.log[-1][2]) if self.log else 0.0)
        self._subscribers: list[tuple[int | None, Subscriber]] = []
        self._listeners: list[Callable[[Accepted], None]] = []
        self._talk_listeners: list[Callable[[dict[str, Any]], None]] = []
        # Each seat's question (`State.question`) and the version it was first seen at.
        self._questions: dict[int, tuple[Hashable, int]] = {}
        self.vocabulary = table_talk.vocabulary(self.game.name)
        for seat, action, now in self.log:  # restoring a saved table
            self.state.apply(seat, action, now)
            self.version += 1
        if self.vocabulary is not None:  # restored talk: its sentences from today's words
            vocab = self.vocabulary
            self.talk = [
                table_talk.record(vocab, i, r["after"], r["line"], r["seat"], r["claim"], r["now"])
                for i, r in enumerate(self.talk)
            ]

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

    def on_action(self, listener: Callable[[Accepted], None]) -> Callable[[], None]:
        """Tell `listener` of every accepted action (an `Accepted`) before anyone is told of it.

        Returns a function that stops the calls.
        """
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def on_claim(self, listener: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        """Tell `listener` of every claim's record (see `talk.py`) before anyone is told of it.

        Returns a function that stops the calls.
        """
        self._talk_listeners.append(listener)
        return lambda: (
            self._talk_listeners.remove(listener) if listener in self._talk_listeners else None
        )

    def view_for(self, seat: int | None) -> View:
        """`seat`'s view, and the table's talk under `talk` for a game that has claims: talk is
        public, so every seat and spectator gets all of it."""
        view = self.state.view(seat)
        if self.vocabulary is not None:
            view[table_talk.TALK_KEY] = [dict(said) for said in self.talk]
        return view

    def may_talk(self, seat: int) -> str | None:
        """Why `seat` may not talk at this table now (the game's `may_talk`), or None: it may.
        Claims and table chat both ask it first."""
        if not 0 <= seat < self.players:
            return f"there is no seat {seat}"
        return self.state.may_talk(seat)

    def say(self, seat: int, claim: object) -> dict[str, Any]:
        """Record `seat`'s claim and tell everyone; returns its record. Raises IllegalAction
        (nothing changes) if the game has no claims, says the seat may not talk now
        (`may_talk`, the reason as the message), or its vocabulary refuses this claim.

        The claim is checked against the maker's own view only, never against the truth.
        """
        if self.vocabulary is None:
            raise IllegalAction(f"{self.game.title} has no claims")
        silenced = self.may_talk(seat)
        if silenced is not None:
            raise IllegalAction(silenced)
        checked = self.vocabulary.check(self.state.view(seat), claim)
        line = sum(1 for event in self.state.view(None)["log"] if event.get("to") is None)
        said = table_talk.record(
            self.vocabulary, len(self.talk), len(self.log), line, seat, checked, self.now()
        )
        self.talk.append(said)
        for listener in self._talk_listeners:
            listener(said)
        for watcher, subscriber in list(self._subscribers):
            subscriber(self.update_for(watcher))
        return said

    def _bots_talk(self, events: Sequence[Event]) -> None:
        """Ask talking bots (those with `speak(view) -> claims`) for what they say now, at the
        moments the game's vocabulary names (a card revealed, a search, a mutiny called)."""
        vocab = self.vocabulary
        if vocab is None or self.state.over:
            return
        if not any(event.get("kind") in vocab.MOMENTS for event in events):
            return
        for seat in sorted(self.bots):
            speak = getattr(self.bots[seat], "speak", None)
            if speak is None:
                continue
            for claim in speak(self.view_for(seat)):
                with contextlib.suppress(IllegalAction):  # a bot's slip must not stop the table
                    self.say(seat, claim)

    def update_for(self, seat: int | None, events: Sequence[Event] = ()) -> Update:
        """The current update for `seat`, with those of `events` it may see."""
        legal = [] if seat is None else self.state.legal(seat)
        return Update(
            version=self.version,
            view=self.view_for(seat),
            events=[e for e in events if visible_to(e, seat)],
            over=self.state.over,
            legal=legal,
            waiting=self.state.visible_waiting(seat),
            asked=0 if seat is None else self._asked_since(seat, legal),
        )

    def _asked_since(self, seat: int, legal: list[Action]) -> int:
        """The version since which `seat` has been asked what it is asked now.

        Every version a seat is shown passes through here (`update_for`), so a question that
        changed is noted at the first version that shows it.
        """
        question = self.state.question(seat, legal)
        known = self._questions.get(seat)
        if known is None or known[0] != question:
            known = self._questions[seat] = (question, self.version)
        return known[1]

    def submit(
        self,
        seat: int,
        action: Action,
        meta: dict[str, Any] | None = None,
        seen: int | None = None,
    ) -> list[Event]:
        """Apply `action` for `seat` and publish it. Raises IllegalAction and changes nothing.

        What the clock decided comes first: if the game's deadline has passed, the `time`
        action is applied and published before `action` is tried (even if it is then refused).
        `meta` goes to the listeners with the action (e.g. the version its client acted on).
        `seen` is the version of the view the action was chosen on: if the seat's question has
        changed since, the action answered another question and is refused (`MOVED_ON`); an
        `any_time` action stands on its own and is only checked by the rules.
        """
        now = self.now()
        if not is_time(action):
            self._settle_clock(now)
        if seen is not None and self._chosen_too_early(seat, action, seen):
            raise IllegalAction(MOVED_ON)
        return self._apply(seat, action, now, meta or {})

    def _chosen_too_early(self, seat: int, action: Action, seen: int) -> bool:
        """True if `action`, chosen on `seat`'s view of version `seen`, answered a question
        the seat is no longer asked."""
        if not 0 <= seat < self.players or not isinstance(action, dict):
            return False  # the rules say what is wrong with it
        if action.get("type") in self.state.any_time:
            return False
        return seen < self._asked_since(seat, self.state.legal(seat))

    def settle_clock(self) -> bool:
        """Apply the game's `time` action if its deadline has passed; True if it did.

        Drivers call it when they wake at `state.deadline()`, so the game moves on by itself
        even when nobody acts.
        """
        return self._settle_clock(self.now())

    def _settle_clock(self, now: float) -> bool:
        settled = False
        while not self.state.over:
            due = self.state.deadline()
            if due is None or now < due:
                break
            self._apply(CLOCK_SEAT, {"type": TIME}, now, {})
            settled = True
        return settled

    def _apply(self, seat: int, action: Action, now: float, meta: dict[str, Any]) -> list[Event]:
        """Apply, log, persist (listeners) and publish one action at table time `now`."""
        required = seat in self.state.waiting_for() and not is_time(action)
        events = self.state.apply(seat, action, now)
        self.log.append((seat, action, now))
        self.version += 1
        self.turns_taken += required
        accepted = Accepted(
            len(self.log) - 1,
            seat,
            action,
            now,
            self.state.result() if self.state.over else None,
            meta,
        )
        for listener in self._listeners:
            listener(accepted)
        for watcher, subscriber in list(self._subscribers):
            subscriber(self.update_for(watcher, events))
        self._bots_talk(events)
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
                turns.append((seat, self.view_for(seat), legal))
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

    Turn-based bots move `pace` seconds after the last change, so a human can follow them.
    Real-time bots keep their own reaction times, divided by `speed` (2.0: twice as quick).
    """

    def __init__(
        self, table: Table, seats: Sequence[int], pace: float = 0.5, speed: float = 1.0
    ) -> None:
        if speed <= 0:
            raise ValueError("speed must be more than 0")
        self.table = table
        self.seats = list(seats)
        self.pace = pace
        self.speed = speed  # real-time games run this much faster (or slower) than life
        self._changed = asyncio.Event()
        self._listeners: list[Callable[[int, Update], None]] = []
        self.saved_as: tuple[SavedIn, int] | None = None  # where the game is being saved
        self.read_only = False
        self.presence: dict[str, Any] | None = None  # (network games only)
        self.presence_at = 0.0
        self.stop_saving: Callable[[], None] = lambda: None
        for seat in self.seats:
            table.subscribe(seat, self._relay(seat))
        table.on_action(lambda accepted: self._changed.set())

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

    def submit(self, seat: int, action: Action, seen: int | None = None) -> str | None:
        """Play `action` for `seat`, chosen on its view of version `seen` (None: the latest);
        returns the reason it was refused, or None if accepted."""
        return self._as(seat, lambda: self.table.submit(seat, action, seen=seen))

    def claim(self, seat: int, claim: dict[str, Any]) -> str | None:
        """Make `seat`'s claim; returns the reason it was refused, or None if it was made."""
        return self._as(seat, lambda: self.table.say(seat, claim))

    def _as(self, seat: int, act: Callable[[], object]) -> str | None:
        """Do `act` for one of this client's seats: why it was refused, or None."""
        if seat not in self.seats:
            return "that seat is not yours"
        try:
            act()
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

    def way_back(self) -> str:
        """A game on this machine comes back from where it is saved (`saved_game`)."""
        return ""

    def saved_game(self) -> tuple[int, Path] | None:
        """The saved game's id and file while it is being saved, else None."""
        if self.saved_as is None:
            return None
        store, table_id = self.saved_as
        return table_id, store.path

    @property
    def paces_bots(self) -> bool:
        return bool(self.table.bots)

    def listen_notices(self, listener: Callable[[str, str], None]) -> None:
        """Nothing comes but updates at a table on this machine."""

    async def run_bots(self) -> None:
        """Drive this table's bots until the game ends: paced turns, or real time at `speed`."""
        await drive_bots(self.table, self.pace, self._changed, self.speed)


def realtime_view(table: Table, seat: int, speed: float = 1.0) -> View:
    """What a real-time bot in `seat` is shown: its view, the table's time and the speed."""
    view = table.state.view(seat)
    view["now"] = table.now()
    view["speed"] = speed
    return view


def realtime_move(table: Table, speed: float = 1.0) -> tuple[int, Action] | None:
    """Ask every real-time bot once, at the table's time now; the first that acts wins.

    Bots are asked earliest wake-up first, so the one whose reaction time ran out first gets
    its action in first (a race for an ocean card goes to whoever arrives first). Every bot sees
    each change, even one that does nothing about it. None if no bot acts now.
    """
    for seat in realtime_order(table):
        legal = table.state.legal(seat)
        if not legal:
            continue
        action = table.bots[seat].choose(realtime_view(table, seat, speed), legal)
        if action is not None:
            return seat, action
    return None


def realtime_order(table: Table) -> list[int]:
    """The real-time bots' seats, the earliest wake-up first, then those with none, by seat."""

    def due(seat: int) -> tuple[float, int]:
        wake = table.bots[seat].wake_at()  # type: ignore[attr-defined]
        return (float("inf") if wake is None else float(wake), seat)

    return sorted((seat for seat, bot in table.bots.items() if is_realtime(bot)), key=due)


def next_wake(table: Table) -> float | None:
    """The earliest table time a real-time bot wants to be asked again, or the game's deadline
    if that comes first; None if neither.

    A bot with nothing it may do is not asked (`realtime_move`), so its wish is left out: the
    driver would otherwise wake again and again for nothing (a change will ask it anyway).
    """
    times = [
        float(wake)
        for seat, bot in table.bots.items()
        if is_realtime(bot)
        and (wake := bot.wake_at()) is not None  # type: ignore[attr-defined]
        and table.state.legal(seat)
    ]
    due = table.state.deadline()
    if due is not None and not table.over:
        times.append(float(due))
    return min(times, default=None)


#: The least a virtual clock moves when a bot asks to wake at a moment already past.
MIN_STEP = 0.001


def run_realtime(
    table: Table,
    clock: VirtualClock,
    max_actions: int,
    speed: float = 1.0,
    max_seconds: float = float("inf"),
) -> int:
    """Play a real-time table's bots on `clock` (the table's clock) until the game ends.

    Between actions the clock jumps straight to the next bot's wake-up or the game's deadline
    (where the table applies `time`), so a game of many minutes plays in moments. Stops when
    nothing will happen again, after `max_actions` actions or past `max_seconds` of table time.
    Returns the number of actions taken, `time` ones included. A bot's illegal action raises: in
    a simulation that is a bug to see, not to hide.
    """
    taken = 0
    while not table.over and taken < max_actions:
        if table.settle_clock():
            taken += 1
            continue
        move = realtime_move(table, speed)
        if move is not None:
            table.submit(*move)
            taken += 1
            continue
        wake = next_wake(table)
        if wake is None or wake > max_seconds:
            break
        clock.advance(max(wake - table.now(), MIN_STEP))
    return taken


#: A bot's call-out on another player's slip (`State.call_outs`: crates' Dope!) waits this
#: many of the bots' paces after it became possible: the player may mend the slip first, as
#: the rules allow (1.5 s at the default pace; at 0.5 s it was a race nobody could win).
FAIR_MOMENT = 3.0


class CallOuts:
    """When each call-out a bot could make became possible, so that it waits a fair moment."""

    def __init__(self, pace: float) -> None:
        self.wait = FAIR_MOMENT * pace
        self.since: dict[tuple[int, str], float] = {}  # (seat, action) -> when first offered

    @staticmethod
    def _key(seat: int, action: Action) -> tuple[int, str]:
        return seat, repr(sorted(action.items()))

    def note(self, table: Table, now: float) -> None:
        """Note the call-outs the bots may make now (and forget those they no longer may)."""
        kinds = table.state.call_outs
        offered = {
            self._key(seat, action)
            for seat in table.bots
            for action in (table.state.legal(seat) if kinds else ())
            if action.get("type") in kinds
        }
        self.since = {key: self.since.get(key, now) for key in offered}

    def held(self, seat: int, action: Action, now: float) -> bool:
        """True if `action` is a call-out that must wait longer."""
        first = self.since.get(self._key(seat, action))
        return first is not None and now < first + self.wait

    def due(self) -> float | None:
        """When the first call-out held now may be made (None: none is held)."""
        return min((first + self.wait for first in self.since.values()), default=None)


async def drive_bots(table: Table, pace: float, changed: asyncio.Event, speed: float = 1.0) -> None:
    """Let `table`'s bots play until the game ends, re-deciding whenever the table changes.

    `changed` must be set whenever the table changes (an action, a bot joining). Turn-based
    bots move one at a time, `pace` seconds after the last change; they think in a worker
    thread on their own view, so other work goes on, and a decision made while the table
    changed is dropped and made again on the new state. A bot thinks during its `pace`, so a
    slow decision shows only when it takes longer than the pause. Real-time bots (`RealtimeBot`) are
    asked on every change and at their wake-up times instead, with their reaction times divided
    by `speed`; `pace` does not slow them. Whoever sits at the table, even humans alone, the
    driver also wakes at the game's deadline and settles the clock (`Table.settle_clock`). A
    call-out on another player's slip waits a fair moment first (`CallOuts`).
    """
    call_outs = CallOuts(pace)
    while not table.over:
        if table.settle_clock():
            await asyncio.sleep(0)  # let the screen or the server see the change
            continue
        if any(is_realtime(bot) for bot in table.bots.values()):
            await _realtime_round(table, changed, speed)
        else:
            await _paced_round(table, pace, changed, call_outs)


async def _realtime_round(table: Table, changed: asyncio.Event, speed: float) -> None:
    """Submit the real-time bots' actions due now, then sleep until a change or a wake-up."""
    changed.clear()
    move = realtime_move(table, speed)  # real-time bots decide in well under a millisecond
    if move is not None:
        try:
            table.submit(*move)
        except IllegalAction:  # a bot's mistake must never stop the table
            await asyncio.sleep(0.05)
        await asyncio.sleep(0)  # let the screen or the server see the change before the next
        return
    await _wait_for_change(table, changed, next_wake(table))


async def _wait_for_change(table: Table, changed: asyncio.Event, wake: float | None) -> None:
    """Sleep until `changed` is set, or until table time `wake` or the game's deadline."""
    moments = [moment for moment in (wake, table.state.deadline()) if moment is not None]
    timeout = max(min(moments) - table.now(), MIN_STEP) if moments else None
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(changed.wait(), timeout)


async def _paced_round(
    table: Table, pace: float, changed: asyncio.Event, call_outs: CallOuts | None = None
) -> None:
    """One paced move of a turn-based table's bots, or a wait for the next change."""
    changed.clear()
    if not table.bots:  # all humans: nothing to pace until a bot takes a seat over (or time)
        await _wait_for_change(table, changed, None)
        return
    loop = asyncio.get_running_loop()
    call_outs = call_outs or CallOuts(pace)
    call_outs.note(table, loop.time())
    ready_at = loop.time() + pace  # a bot thinks during its pause, not after it
    version, moved = table.version, False
    for seat, view, legal in table.bot_turns():
        bot = table.bots.get(seat)
        if bot is None:
            continue
        action = await asyncio.to_thread(bot.choose, view, legal)
        if action is not None and call_outs.held(seat, action, ready_at):
            # Not yet: whatever else the bot would do meanwhile (its turn), or nothing.
            rest = [option for option in legal if option.get("type") not in table.state.call_outs]
            action = await asyncio.to_thread(bot.choose, view, rest) if rest else None
        await asyncio.sleep(max(ready_at - loop.time(), 0.0))
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
        due = call_outs.due()
        wake = None if due is None else table.now() + max(due - loop.time(), MIN_STEP)
        await _wait_for_change(table, changed, wake)
