"""The table: one game for any mix of local humans, bots and remote players, and its action log.

Every change goes through `Table.submit`, which validates with the engine, appends to the log,
bumps the version and publishes to each subscriber an `Update` built from `view(seat)` alone.
The table is pure: it never sleeps, reads a socket or starts a task. Drivers (`drivers.py`:
the TUI's `LocalClient`, the asyncio `drive_bots` the server and the TUI run, the virtual-clock
`run_realtime` of tests and `simulate`) decide when bots move, using `bot_move()`.

A game may change by itself at a moment (`state.deadline()`: crabs' double-crab window). The
table turns that into an ordinary logged action, `{"type": "time"}`: `submit` applies it first
whenever an action arrives at or after the deadline, and the drivers wake at the deadline to
apply it (`settle_clock`) when nobody acts, bots or not. Replays simply replay it.

Real-time games (crabs) have no turns: their bots are `RealtimeBot`s, asked again whenever the
table changes and at the moment each says it wants to be asked (`wake_at`). They are told the
table's time with every view, so a bot acts after a human-like reaction time by returning None
until then; nobody sleeps inside a bot.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypedDict, TypeGuard

from . import talk as table_talk
from .rules import Action, Bot, Event, Game, IllegalAction, Result, State, View, shared
from .rules.contract import Claimed, Said
from .rules.core import visible_to


class RealtimeBot(Bot, Protocol):
    """A bot for a real-time game: it decides when, as well as what.

    Its views carry two extra keys from the driver: `now` (the table's time in seconds) and
    `speed` (the factor its reaction times are divided by). `choose` returns None until the bot
    wants to act; `wake_at` is the table time it next wants to be asked even if nothing changes
    (None: only when something changes).
    """

    def wake_at(self) -> float | None: ...


def is_realtime(bot: object) -> TypeGuard[RealtimeBot]:
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


class Meta(TypedDict, total=False):
    """What the one who submitted an action added to it (`Table.submit`): the version its
    client acted on, and who they are (`net.hosting`)."""

    client_version: int
    by: str


@dataclass(frozen=True)
class Accepted:
    """An action the table accepted, as its listeners (the store, the server) hear of it."""

    seq: int  # its place in the action log
    seat: int
    action: Action
    now: float
    result: Result | None  # the game's result, if this action ended it
    meta: Meta  # what the one who submitted it added (the version its client saw)


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
    options: dict[str, object] = field(default_factory=dict)
    bots: dict[int, Bot] = field(default_factory=dict)
    clock: Callable[[], float] = time.monotonic
    log: list[tuple[int, Action, float]] = field(default_factory=list)
    talk: list[Claimed] = field(default_factory=list)  # claims made (see `talk.py`)

    def __post_init__(self) -> None:
        if len(self.names) != self.players:
            raise ValueError(f"need {self.players} names, got {len(self.names)}")
        self.state: State = self.game.new(self.players, self.seed, **self.options)
        self.version = 0
        #: Turns from now on: the game's questions, each a moment it asks the seats it waits
        #: for something new (one turn however many seats it asks at once; a question asked
        #: again, as after a draw, is the same turn).
        self.turns_taken = 0
        # A restored table's time goes on from its last action: the engine may compare times.
        self._start = self.clock() - (float(self.log[-1][2]) if self.log else 0.0)
        self._subscribers: list[tuple[int | None, Subscriber]] = []
        self._listeners: list[Callable[[Accepted], None]] = []
        self._talk_listeners: list[Callable[[Said], None]] = []
        self._change_listeners: list[Callable[[], None]] = []
        # Each seat's question (`State.question`) and the version it was first seen at.
        self._questions: dict[int, tuple[Hashable, int]] = {}
        # Each seat's legal actions and question at a version (`_asked_now`).
        self._asked: dict[int, tuple[int, list[Action], Hashable]] = {}
        self.vocabulary = table_talk.vocabulary(self.game)
        for seat, action, now in self.log:  # restoring a saved table
            self.state.apply(seat, action, now)
            self.version += 1
        self._count_turn()
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

    def on_claim(self, listener: Callable[[Said], None]) -> Callable[[], None]:
        """Tell `listener` of every claim's record (see `talk.py`) before anyone is told of it.

        Returns a function that stops the calls.
        """
        self._talk_listeners.append(listener)
        return lambda: (
            self._talk_listeners.remove(listener) if listener in self._talk_listeners else None
        )

    def on_change(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call `listener()` whenever what the bots decide on changes: an action accepted, or a
        seat changing hands (`seat_bot`, `unseat_bot`). Drivers listen here, so a bot seated by
        anyone (the host, a takeover) moves at once. Returns a function that stops the calls.
        """
        self._change_listeners.append(listener)
        return lambda: (
            self._change_listeners.remove(listener) if listener in self._change_listeners else None
        )

    def _changed(self) -> None:
        for listener in list(self._change_listeners):
            listener()

    def seat_bot(self, seat: int, bot: Bot) -> None:
        """`bot` plays `seat` from now on, in place of whoever did; the drivers are told."""
        self.bots[seat] = bot
        self._changed()

    def unseat_bot(self, seat: int) -> None:
        """No bot plays `seat` any more (its player is back); the drivers are told."""
        if self.bots.pop(seat, None) is not None:
            self._changed()

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

    def say(self, seat: int, claim: object) -> Said:
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
        line = sum(1 for event in shared(self.state.view(None))["log"] if event["to"] is None)
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
        """Ask talking bots (those with `speak(view) -> claims`) what they say now: each whose
        seat is shown one of the vocabulary's moments among `events` (`talk.at_moment`), on the
        view its seat was sent with them, before any of them speaks (a bot over the network
        speaks on that view too, before it hears the others)."""
        if self.vocabulary is None or self.state.over:
            return
        speakers = [
            (seat, speak, self.view_for(seat))
            for seat in sorted(self.bots)
            if (speak := getattr(self.bots[seat], "speak", None)) is not None
            and table_talk.at_moment(self.vocabulary, (e for e in events if visible_to(e, seat)))
        ]
        for seat, speak, view in speakers:
            for claim in speak(view):
                with contextlib.suppress(IllegalAction):  # a bot's slip must not stop the table
                    self.say(seat, claim)

    def update_for(self, seat: int | None, events: Sequence[Event] = ()) -> Update:
        """The current update for `seat`, with those of `events` it may see."""
        legal = [] if seat is None else self._asked_now(seat)[0]
        view = self.view_for(seat)
        return Update(
            version=self.version,
            view=view,
            events=[e for e in events if visible_to(e, seat)],
            over=self.state.over,
            legal=list(legal),
            waiting=list(view["waiting"]),  # (the view's: `visible_waiting`, worked out once)
            asked=0 if seat is None else self._asked_since(seat),
        )

    def _asked_now(self, seat: int) -> tuple[list[Action], Hashable]:
        """`seat`'s legal actions and question (`State.question`) now, worked out once a
        version: a seat's updates, the turn count and a late action's check all ask, and the
        state changes only with the version (`_apply`)."""
        known = self._asked.get(seat)
        if known is None or known[0] != self.version:
            legal = self.state.legal(seat)
            known = self._asked[seat] = (self.version, legal, self.state.question(seat, legal))
        return known[1], known[2]

    def _asked_since(self, seat: int) -> int:
        """The version since which `seat` has been asked what it is asked now.

        Every version a seat is shown passes through here (`update_for`), so a question that
        changed is noted at the first version that shows it.
        """
        question = self._asked_now(seat)[1]
        known = self._questions.get(seat)
        if known is None or known[0] != question:
            known = self._questions[seat] = (question, self.version)
        return known[1]

    def submit(
        self,
        seat: int,
        action: Action,
        meta: Meta | None = None,
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
        return seen < self._asked_since(seat)

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

    def _apply(self, seat: int, action: Action, now: float, meta: Meta) -> list[Event]:
        """Apply, log, persist (listeners) and publish one action at table time `now`."""
        waited = self.state.waiting_for()
        events = self.state.apply(seat, action, now)
        self.log.append((seat, action, now))
        self.version += 1
        self._count_turn(waited)
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
        self._changed()
        self._bots_talk(events)
        return events

    def _count_turn(self, waited: frozenset[int] = frozenset()) -> None:
        """Count a turn if the game asks a seat it waits for something new now. The questions
        of the seats it `waited` for before are noted too: a seat that answered and is asked
        again later (the next round of bids) is asked anew."""
        version, waiting = self.version, self.state.waiting_for()
        asked = [
            self._asked_since(seat) == version and seat in waiting
            for seat in sorted(waited | waiting)
        ]
        self.turns_taken += any(asked)

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

    def run_bots(self, max_actions: int) -> int:
        """Let bots play without pause until none wants to move (bounded); returns actions taken."""
        for taken in range(max_actions):
            move = self.bot_move()
            if move is None:
                return taken
            self.submit(*move)
        return max_actions
