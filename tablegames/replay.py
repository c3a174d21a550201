"""Stepping through a finished game: every position from the deal on, seen from any seat.

A `Replay` is built from a store *record* (`Store.record`), which exists only once a game is
over: the seed and the log of an unfinished game never leave the store this way. Position 0 is
the deal and position i is the state after the i-th action. The game is replayed once to learn
each step's events and round; states are then rebuilt on demand from deep-copied checkpoints, so
going back is as quick as going forward even for games of thousands of actions.

`ReplayClient` puts one seat's (or a spectator's) view of a replay behind the same client
interface the table screens use for live games; it refuses every action.
"""

from __future__ import annotations

import copy
import re
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from . import talk as table_talk
from .rules import Action, Event, Game, Result, State, View, get_game
from .rules.contract import Claimed
from .rules.core import visible_to
from .table import Update

if TYPE_CHECKING:
    from .store import SavedTable, Store

CHECKPOINT_EVERY = 64  # steps between saved states: going back rebuilds at most this many
VIEWS_KEPT = 256  # views remembered (each can hold a round's log)
REFUSAL = "this is a replay: nothing can be played"


class SealedRecord(PermissionError):
    """The game is still being played: its record (seed and log) stays sealed until it ends."""


@dataclass(frozen=True)
class Step:
    """What happened to reach one position: who acted, how, when, and every event it caused."""

    seat: int
    action: Action
    now: float
    events: list[Event]


class Replay:
    """A finished game's positions: 0 is the deal, i the state after the i-th action."""

    def __init__(
        self,
        game: Game,
        players: int,
        seed: int,
        options: dict[str, object],
        log: Sequence[tuple[int, Action, float]],
        names: Sequence[str] | None = None,
        table_id: int | None = None,
        humans: Sequence[int] | None = None,
        talk: Sequence[Claimed] = (),
    ) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self.options = dict(options)
        self.names = (
            list(names) if names is not None else [f"Player {n + 1}" for n in range(players)]
        )
        self.table_id = table_id
        self.humans = list(humans) if humans is not None else list(range(players))
        self.vocabulary = table_talk.vocabulary(game)
        vocab = self.vocabulary
        self.talk = (
            []
            if vocab is None
            else [
                table_talk.record(vocab, n, r["after"], r["line"], r["seat"], r["claim"], r["now"])
                for n, r in enumerate(talk)
            ]
        )
        self.steps: list[Step] = []
        self.rounds: list[int | None] = []  # the round shown at each position (None: no rounds)
        # Each seat's question (`State.question`) as last seen, and at each position the
        # position since which the seat had been asked it (the table's `Update.asked`).
        self._questions: list[Hashable] = [None] * players
        self._asked: list[list[int]] = [[] for _ in range(players)]
        self._checkpoints: list[State] = []
        self._views: OrderedDict[tuple[int, int | None], View] = OrderedDict()
        self._copyable = True
        state = self._fresh()
        self._note_position(state, 0)
        for seat, action, now in log:
            events = state.apply(seat, action, now)
            self.steps.append(Step(seat, action, now, list(events)))
            self._note_position(state, len(self.steps))
        # a working state and the position it is at: stepping on from it needs no copy
        self._cursor: tuple[int, State] | None = (self.last, state)

    @classmethod
    def from_record(cls, saved: SavedTable) -> Replay:
        """The replay of a stored record; SealedRecord if the game is not over."""
        # A record is only ever read for a finished game: refuse anything else, even if a caller
        # got hold of an unfinished table through `Store.load`.
        if saved.finished is None or saved.seed is None:
            raise SealedRecord(f"game {saved.id} is still being played: its record is sealed")
        saved.check_rules()
        return cls(
            get_game(saved.game),
            saved.players,
            saved.seed,
            saved.options,
            saved.log,
            names=saved.names if len(saved.names) == saved.players else None,
            table_id=saved.id,
            humans=[seat.seat for seat in saved.seats if seat.bot_level is None],
            talk=saved.talk,
        )

    @classmethod
    def load(cls, store: Store, table_id: int) -> Replay:
        """Finished game `table_id` to replay: KeyError if unknown, SealedRecord if unfinished."""
        try:
            saved = store.record(table_id)
        except PermissionError:
            raise SealedRecord(
                f"game {table_id} is still being played: its record is sealed until it ends"
            ) from None
        return cls.from_record(saved)

    # -- positions ----------------------------------------------------------------------------
    @property
    def last(self) -> int:
        """The final position (the number of actions in the game)."""
        return len(self.steps)

    def clamp(self, step: int) -> int:
        """`step` brought within 0..last."""
        return max(0, min(self.last, step))

    def state(self, step: int) -> State:
        """The game's state at position `step`; shared and rebuilt as needed: never change it."""
        step = self._check(step)
        if self._cursor is not None:
            at, state = self._cursor
            if at <= step < at + CHECKPOINT_EVERY:
                return self._advance(state, at, step)
        if self._copyable:
            index = min(step // CHECKPOINT_EVERY, len(self._checkpoints) - 1)
            return self._advance(
                copy.deepcopy(self._checkpoints[index]), index * CHECKPOINT_EVERY, step
            )
        return self._advance(self._fresh(), 0, step)

    def view(self, step: int, seat: int | None) -> View:
        """What `seat` (None: a spectator) could see at position `step`."""
        key = (self._check(step), seat)
        view = self._views.get(key)
        if view is None:
            view = self.state(step).view(seat)
            if self.vocabulary is not None:  # what had been said by then (talk is public)
                view["talk"] = [dict(said) for said in self.talk if said["after"] <= key[0]]
            self._views[key] = view
            if len(self._views) > VIEWS_KEPT:
                self._views.popitem(last=False)
        else:
            self._views.move_to_end(key)
        return view

    def events(self, step: int, seat: int | None, since: int | None = None) -> list[Event]:
        """The events `seat` saw on the way to `step` (from `since`, by default the step before)."""
        step = self._check(step)
        start = step - 1 if since is None else self._check(since)
        return [
            event
            for taken in self.steps[max(start, 0) : step]
            for event in taken.events
            if visible_to(event, seat)
        ]

    def update(self, step: int, seat: int | None, since: int | None = None) -> Update:
        """What the table told `seat` at position `step`, as it would have during the game."""
        state = self.state(step)
        return Update(
            version=step,
            view=self.view(step, seat),
            events=self.events(step, seat, since),
            over=state.over,
            legal=[] if seat is None else state.legal(seat),
            waiting=state.visible_waiting(seat),
            asked=0 if seat is None else self._asked[seat][step],
        )

    def revealed(self, step: int) -> list[View]:
        """Every seat's own view at position `step`: the game fully revealed."""
        return [self.view(step, seat) for seat in range(self.players)]

    def private_part(self, step: int, seat: int) -> dict[str, object]:
        """What `seat` could see at `step` that a spectator could not (the log aside)."""
        own, public = self.view(step, seat), self.view(step, None)
        return {
            key: value
            for key, value in own.items()
            if key not in ("seat", "log") and public.get(key) != value
        }

    def is_over(self, step: int) -> bool:
        """True if the game had ended at position `step` (only the last one, in a record)."""
        return self.state(step).over

    # -- rounds and jumps ---------------------------------------------------------------------
    @property
    def has_rounds(self) -> bool:
        """True if the game's views name a round (jumps then go by round, else by step)."""
        return any(found is not None for found in self.rounds)

    def round_of(self, step: int) -> int | None:
        """The round shown at position `step`, or None for a game without rounds."""
        return self.rounds[self._check(step)]

    def round_starts(self) -> dict[int, int]:
        """Each round mapped to its first position (for round 1, the deal)."""
        starts: dict[int, int] = {}
        for step, found in enumerate(self.rounds):
            if found is not None and found not in starts:
                starts[found] = step
        return starts

    def start_of_round(self, number: int) -> int:
        """The first position of round `number`; ValueError naming the rounds there were."""
        starts = self.round_starts()
        if number not in starts:
            if not starts:
                raise ValueError(f"this game has no rounds: go to {self.find_hint()}")
            raise ValueError(f"there is no round {number}: rounds {min(starts)}–{max(starts)}")
        return starts[number]

    def next_round(self, step: int) -> int:
        """The first position of the round after the one at `step` (or the end)."""
        later = [start for start in self.round_starts().values() if start > step]
        return min(later, default=self.last)

    def previous_round(self, step: int) -> int:
        """The start of the round at `step`, or of the one before when already at its start."""
        earlier = [start for start in self.round_starts().values() if start < step]
        return max(earlier, default=0)

    def at_percent(self, percent: float) -> int:
        """The position `percent` of the way through the game."""
        return self.clamp(round(self.last * percent / 100))

    def find(self, text: str) -> int:
        """The position a player typed: `3` or `r3` (round 3), `s120` (step 120), `40%`, `end`.

        Without rounds a bare number is a step. ValueError with a sentence saying what is possible.
        """
        given = text.strip().lower()
        if given in ("start", "deal"):
            return 0
        if given in ("end", "last"):
            return self.last
        match = _POSITION.fullmatch(given)
        if match is None:
            raise ValueError(f"type {self.find_hint()}")
        kind, number = match["kind"] or "", match["number"]
        if match["percent"]:
            return self.at_percent(float(number))
        if "." in number:
            raise ValueError(f"type {self.find_hint()}")
        if kind.startswith("r") or (not kind and self.has_rounds):
            return self.start_of_round(int(number))
        return self._check(int(number))

    def find_hint(self) -> str:
        """What `find` accepts, for this game."""
        share = "a point in the game like 50% (halfway), or end"
        if self.has_rounds:
            starts = self.round_starts()
            return (
                f"a round {min(starts)}–{max(starts)}, s and a step 0–{self.last} like "
                f"s12 (after the 12th move), {share}"
            )
        return f"a step 0–{self.last} like 12 (after the 12th move), {share}"

    # -- seats and describing -----------------------------------------------------------------
    def seat_named(self, given: str | None) -> int:
        """The seat a player means by `given`: a number from 1, or a name (or its start).

        None means the first human player's seat. ValueError listing the seats otherwise.
        """
        if given is None:
            return self.humans[0] if self.humans else 0
        text = given.strip()
        if text.isdigit() and 1 <= int(text) <= self.players:
            return int(text) - 1
        wanted = text.casefold()
        exact = [seat for seat, name in enumerate(self.names) if name.casefold() == wanted]
        starts = [
            seat for seat, name in enumerate(self.names) if name.casefold().startswith(wanted)
        ]
        found = exact or starts
        if wanted and len(found) == 1:
            return found[0]
        seats = ", ".join(f"{seat + 1} {name}" for seat, name in enumerate(self.names))
        choices = f"choose 1–{self.players} or a name: {seats}"
        if wanted and len(found) > 1:
            raise ValueError(f"{given!r} could be several players; {choices}")
        raise ValueError(f"there is no seat {given!r} in this game; {choices}")

    def result(self) -> Result:
        """The game's final result (winners, scores...)."""
        return self.state(self.last).result()

    def winners(self) -> list[str]:
        """The winners' names."""
        return [self.names[seat] for seat in self.result().get("winners", [])]

    def describe(self, step: int, seat: int | None) -> list[str]:
        """The sentences `seat` saw at `step`, names filled in (card codes left as they are)."""
        return [
            _fill_names(str(event.get("text", "")), self.names) for event in self.events(step, seat)
        ]

    # -- internals ----------------------------------------------------------------------------
    def _fresh(self) -> State:
        return self.game.new(self.players, self.seed, **self.options)

    def _check(self, step: int) -> int:
        if not 0 <= step <= self.last:
            raise ValueError(f"there is no step {step}: steps 0–{self.last}")
        return step

    def _note_position(self, state: State, step: int) -> None:
        """Remember what the first pass learns of position `step`: its round, maybe a checkpoint."""
        found = state.view(None).get("round")
        self.rounds.append(
            found if isinstance(found, int) and not isinstance(found, bool) else None
        )
        for seat, asked in enumerate(self._asked):
            question = state.question(seat, state.legal(seat))
            if not asked or question != self._questions[seat]:
                self._questions[seat] = question
                asked.append(step)
            else:
                asked.append(asked[-1])
        if self._copyable and step % CHECKPOINT_EVERY == 0:
            try:
                self._checkpoints.append(copy.deepcopy(state))
            except (TypeError, copy.Error):  # a state that cannot be copied: replay from the deal
                self._copyable = False
                self._checkpoints.clear()

    def _advance(self, state: State, at: int, step: int) -> State:
        for taken in self.steps[at:step]:
            state.apply(taken.seat, taken.action, taken.now)
        self._cursor = (step, state)
        return state


_POSITION = re.compile(r"(?P<kind>round|r|step|s|#)?\s*(?P<number>\d+(?:\.\d+)?)\s*(?P<percent>%)?")


def _fill_names(template: str, names: Sequence[str]) -> str:
    try:
        return template.format(*names)
    except (IndexError, KeyError, ValueError):
        return template


def compact(value: object) -> str:
    """A short one-line rendering of a piece of a view (lists joined by spaces, maps as k=v)."""
    if isinstance(value, list | tuple):
        return " ".join(compact(item) for item in value) if value else "none"
    if isinstance(value, dict):
        return ", ".join(f"{key}={compact(item)}" for key, item in value.items()) or "none"
    if value is None:
        return "-"
    return str(value)


def private_line(replay: Replay, step: int, seat: int) -> str:
    """One seat's private information at `step` in one line: its hand if the game has one,
    and a choice it has sealed that the others have not seen yet (``chosen``: see
    `State.commit`)."""
    view = replay.view(step, seat)
    private = replay.private_part(step, seat)
    sealed = private.get("chosen")
    if "hand" in view:
        said = compact(view["hand"]) if view["hand"] else "(no cards)"
        return said if sealed is None else f"{said}; sealed: {compact(sealed)}"
    return compact(private) if private else "(nothing hidden)"


class ReplayClient:
    """One seat's (None: a spectator's) view of a replay, for the game's own table screen.

    The step moves with `go`; listeners hear of every move. Moving forward carries the events
    passed over, so a screen's log stays whole. Actions are refused and bots never move.
    """

    read_only = True  # for screens: nothing may be played, so do not prompt for moves

    def __init__(self, replay: Replay, seat: int | None, step: int = 0) -> None:
        if seat is not None and not 0 <= seat < replay.players:
            raise ValueError(f"there is no seat {seat} at this table")
        self.replay = replay
        self.seat = seat
        self.step = replay.clamp(step)
        self._listeners: list[Callable[[int | None, Update], None]] = []
        self._notices: list[Callable[[str, str], None]] = []
        self._current: Update | None = None

    @property
    def names(self) -> list[str]:
        return self.replay.names

    @property
    def seats(self) -> list[int]:
        return [] if self.seat is None else [self.seat]

    @property
    def game(self) -> Game:
        return self.replay.game

    def listen(self, listener: Callable[[int | None, Update], None]) -> None:
        """Call `listener(seat, update)` whenever the step changes."""
        self._listeners.append(listener)

    def update(self, seat: int | None = None) -> Update:
        """The update for this client's seat at the current step (whatever seat is asked for).

        Like a network client, it never gives another seat's view. `over` is left False: the
        table screen would otherwise offer to leave the game when the replay reaches its end.
        """
        if self._current is None:
            self._current = self._make(self.step, None)
        return self._current

    def go(self, step: int) -> None:
        """Move to position `step` and tell the listeners (with the events passed over)."""
        step = self.replay.clamp(step)
        if step == self.step:
            return
        since = self.step if step > self.step else step
        self.step = step
        self._current = self._make(step, since)
        for listener in list(self._listeners):
            listener(self.seat, self._current)

    def submit(self, seat: int, action: dict[str, object], seen: int | None = None) -> None:
        """Refuse: a replay cannot be played."""
        self._refuse()

    def claim(self, seat: int, claim: dict[str, object]) -> None:
        """Refuse: nothing can be said in a replay."""
        self._refuse()

    def _refuse(self) -> None:
        for listener in list(self._notices):
            listener("error", REFUSAL)

    def waiting_for(self) -> frozenset[int]:
        """The seats the game waited for at this step, as far as this seat could see."""
        return frozenset(self.update().waiting)

    def listen_notices(self, listener: Callable[[str, str], None]) -> None:
        """A replay has no news but its steps, and why nothing can be played (`error`)."""
        self._notices.append(listener)

    def rating_changes(self) -> dict[int, tuple[float, float]]:
        """A replay never ends in the results: nothing to show."""
        return {}

    def _make(self, step: int, since: int | None) -> Update:
        update = self.replay.update(step, self.seat, since=step if since is None else since)
        return replace(update, over=False)
