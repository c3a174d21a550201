"""The rules contract every game obeys: Game, State hooks, IllegalAction and the registry."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]
LogEntry = tuple[int, Action, float]


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is a sentence for the player."""


class SetupError(ValueError):
    """Options that do not describe a possible game (bad card codes, wrong player count...)."""


class State:
    """One game in progress: subclasses implement the `_` hooks, this class owns the guards.

    Dispatch: an action `{"type": "play", ...}` is handled by the method named in
    `handlers["play"]`, which reports what happened through `emit`. Handlers must validate
    everything before changing anything, so that an IllegalAction leaves the state untouched.
    """

    handlers: ClassVar[dict[str, str]] = {}
    _dispatch: ClassVar[dict[str, Callable[..., None]]] = {}  # `handlers`, resolved once

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._dispatch = {kind: getattr(cls, name) for kind, name in cls.handlers.items()}

    def __init__(self, players: int, rng: random.Random) -> None:
        self.players = players
        self.rng = rng
        self.quiet = False  # bots' simulations switch the log off for speed
        self._emitted: list[Event] = []

    # -- the contract -------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the game has ended."""
        raise NotImplementedError

    def legal(self, seat: int) -> list[Action]:
        """Every action `seat` may take now (empty when the game is over)."""
        if self.over or not 0 <= seat < self.players:
            return []
        return self._legal(seat)

    def waiting_for(self) -> frozenset[int]:
        """Seats whose move the game needs in order to progress."""
        return frozenset() if self.over else self._waiting_for()

    def apply(self, seat: int, action: Action, now: float = 0.0) -> list[Event]:
        """Apply `action` for `seat` and return its events; IllegalAction leaves all untouched."""
        if self.over:
            raise IllegalAction("the game is over")
        if type(seat) is not int or not 0 <= seat < self.players:  # (True is not a seat)
            raise IllegalAction(f"there is no seat {seat!r} at this table")
        if not isinstance(action, dict):
            raise IllegalAction("an action must be a map with a 'type'")
        kind = action.get("type")
        if kind == "time":
            return self._time(now)
        handler = self._dispatch.get(kind) if type(kind) is str else None
        if handler is None:
            raise IllegalAction(f"unknown action type {kind!r}")
        self._emitted = []
        handler(self, seat, action, now)
        return self._emitted

    def deadline(self) -> float | None:
        """The table time at which the game changes by itself, or None (only moves change it).

        From that moment the table submits `{"type": "time"}` (for any seat, before any other
        action), so that what the clock decided is in the action log and replays exactly.
        """
        return None

    def _time(self, now: float) -> list[Event]:
        due = self.deadline()
        if due is None or now < due:
            raise IllegalAction("nothing is waiting on the clock")
        self._emitted = []
        self._time_passes(now)
        return self._emitted

    def visible_waiting(self, seat: int | None) -> list[int]:
        """The seats `seat` may see the game waiting for (games with secret prompts narrow it)."""
        return sorted(self.waiting_for())

    def view(self, seat: int | None) -> View:
        """What `seat` may know now; None is a spectator who sees only public information."""
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat} at this table")
        return self._view(seat)

    def result(self) -> dict[str, Any]:
        """Final outcome: at least {"winners": [...], "scores": [...]}; only once over."""
        if not self.over:
            raise ValueError("the game is not over")
        return self._result()

    def emit(self, text: str, to: Iterable[int] | None = None, **fields: Any) -> Event | None:
        """Record a log event caused by the action being applied (None when quiet)."""
        if self.quiet:
            return None
        new = event(text, to, **fields)
        self._emitted.append(new)
        return new

    # -- hooks --------------------------------------------------------------------------------
    def _legal(self, seat: int) -> list[Action]:
        raise NotImplementedError

    def _waiting_for(self) -> frozenset[int]:
        raise NotImplementedError

    def _view(self, seat: int | None) -> View:
        raise NotImplementedError

    def _result(self) -> dict[str, Any]:
        raise NotImplementedError

    def _time_passes(self, now: float) -> None:
        """Settle what the clock decided at `deadline()` (games with a deadline implement it)."""
        raise NotImplementedError


def visible_to(event: Event, seat: int | None) -> bool:
    """True if `seat` may see `event` (events carry `to`: None for public, else a list of seats)."""
    to = event.get("to")
    return to is None or (seat is not None and seat in to)


def event(text: str, to: Iterable[int] | None = None, **fields: Any) -> Event:
    """A log event. `text` names seats as {0}, {1}... so each screen can put in player names."""
    return {"text": text, "to": None if to is None else sorted(to), **fields}


@dataclass(frozen=True)
class Game:
    """A registered game: metadata plus how to start and replay one."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    blurb: str
    factory: Callable[..., State] = field(repr=False)
    option_names: tuple[str, ...] = ()
    chat: bool = True  # whether players may chat at the table (crabs uses gestures instead)
    #: Bumped whenever a rule changes what a saved action log means: a table saved under other
    #: rules is not replayed (it would become a different game).
    rules_version: int = 1

    def new(self, players: int, seed: int, **options: Any) -> State:
        """A new game for `players` seats, deterministic for a given seed and options."""
        if not self.min_players <= players <= self.max_players:
            raise SetupError(
                f"{self.title} takes {self.min_players}–{self.max_players} players, not {players}"
            )
        unknown = set(options) - set(self.option_names)
        if unknown:
            raise SetupError(f"unknown option(s) for {self.name}: {', '.join(sorted(unknown))}")
        return self.factory(players, seed, **options)

    def replay(
        self,
        players: int,
        seed: int,
        options: dict[str, Any],
        log: Sequence[LogEntry] | Iterable[Sequence[Any]],
    ) -> State:
        """The state reached by applying `log` [(seat, action, now), ...] to a new game."""
        state = self.new(players, seed, **options)
        for seat, action, now in log:
            state.apply(seat, action, now)
        return state


GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add `game` to the registry under its name and return it."""
    GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The registered game called `name`; KeyError with the known names otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise KeyError(f"no game called {name!r} (known: {known})") from None
