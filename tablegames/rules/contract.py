"""The wire-facing contract, typed: actions, events, views, results, secrets and the bot.

Everything here crosses a boundary as plain data (msgpack over the network, JSON from
`simulate`, SQLite in the store), so these are `TypedDict`s over dicts rather than classes:
an engine builds them as literals and every layer reads them with the same keys. A game adds
keys of its own to actions, events and views; the keys named here are the ones shared code
reads, each with one meaning, defined once (`SHARED_VIEW_KEYS` is drawn from `SharedView`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Generic, NotRequired, Protocol, TypedDict, TypeVar

#: An action: ``{"type": kind, **fields}``. Fields are the game's own (plain
#: data); the action types a game takes are its `State.handlers` keys, and ``time`` is the
#: table's (the clock).
#:
#: These three are the plain data a game's own hooks take and read as they like (a plugin
#: written against plain dicts type-checks as it is). Shared code reads only the keys every
#: game's data has, typed (`typed.shared`, `typed.event_base`); a game's bots
#: and screen read the rest as the game's own types, through its `typed.GameTypes`.
Action = dict[str, Any]
#: An event (`State.emit`): the `EventBase` keys, then the facts as the game's own fields.
Event = dict[str, Any]
#: A seat's view (`State.view`): the `SharedView` keys, then the game's own.
View = dict[str, Any]
#: One line of an action log: (seat, action, table time in seconds).
LogEntry = tuple[int, Action, float]


class EventText(TypedDict):
    """The keys every event has but its kind: what a game's own event types build on, each
    naming its kinds as literals (`crates_types.PlayEvent`, ``kind: Literal["play"]``), since a
    typed dict may not narrow a key it inherits. See `EventBase`."""

    text: str
    to: list[int] | None
    told: NotRequired[list[int]]


class EventBase(EventText):
    """The keys every event has.

    ``kind``: a short code naming what happened (bots, screens and replays branch on it);
    ``text``: the sentence people read, each seat written as a numbered field ``{n}`` (seat
    ``n``, counted from 0: ``"{2} plays the Guard."``) so every screen puts in its own names;
    ``to``: None for everyone, else the sorted seats that may see it. An event about one player
    also carries ``seat`` (the player its sentence opens with); a public event that some seats
    were also told in private words of their own names them in ``told`` (their logs show it in
    those words only).
    """

    kind: str


#: The events of a view's log: `Event` for any game; a game's own union of event types (its
#: ``*_types`` module) where its kinds are known.
EventT = TypeVar("EventT")
#: A finished game's outcome: `Result`, or a game's own (with the keys it adds).
ResultT = TypeVar("ResultT")


class SharedView(TypedDict, Generic[EventT, ResultT]):
    """The keys every view has, whatever the game (`State.view` fills them in).

    ``game``: the game's name; ``seat``: whose view it is (None: a spectator's); ``players``:
    how many seats; ``over``: whether the game has ended; ``result``: `Result` once over, else
    None; ``waiting``: the seats this viewer may see the game wait for; ``log``: the events
    this viewer may see, oldest first (`SharedView[Event, Result]` for any game; a game's view
    type names its own events and result: `crates_types.CratesView`).
    """

    game: str
    seat: int | None
    players: int
    over: bool
    result: ResultT | None
    waiting: list[int]
    log: list[EventT]


#: The shared view keys, defined once: screens draw them as seats and a log, the leak scanner
#: checks them apart, and everything else in a view is the game's own.
SHARED_VIEW_KEYS: frozenset[str] = frozenset(SharedView.__annotations__)


class KnownViewKeys(TypedDict, total=False):
    """The keys a game may add to its views that shared code reads, each with one meaning.

    A game need not have any; one that uses these names means this by them:
    ``hand``: the viewer's own cards or pieces, a list (the generic screen shows it first;
    `replay --all` and the replay screen show every seat's, "Every hand");
    ``table``: what lies on the table for everyone (the generic screen shows it after the
    hand); ``round``: the round being played, a whole number from 1 (replays step by it);
    ``chosen``: the viewer's own sealed choice (`State.commit`; `replay --all` shows each
    seat's at its moment). The rest are not a game's to set: ``talk``, the table talk of a
    game with claims (the table adds it: `talk.py`), and ``now`` and ``speed``, the table's
    time and pace in a real-time bot's view (the drivers add them).
    """

    hand: list[object]
    table: object
    round: int
    chosen: object
    talk: list[Said]
    now: float
    speed: float


#: The view keys with a meaning to shared code besides the shared ones (`KnownViewKeys`).
KNOWN_VIEW_KEYS: frozenset[str] = frozenset(KnownViewKeys.__annotations__)
#: Of those, the ones the table and drivers add: a game's view never holds them.
ADDED_VIEW_KEYS: frozenset[str] = frozenset(("talk", "now", "speed"))


class Claimed(TypedDict):
    """A claim made at the table, as the store keeps it: the ``n``-th, said once the table's
    log had ``after`` events and the speaker's ``line`` public ones, by ``seat``, at ``now``.
    The claim is the talk vocabulary's (`talk.check`: a ``kind`` and its fields), plain data of
    its own: its fields are the vocabulary's to type, and none types them yet (the one
    boundary of a game's data here that mypy does not check)."""

    n: int
    after: int
    line: int
    seat: int
    claim: dict[str, Any]
    now: float


class Said(Claimed):
    """A claim made at the table (`tablegames.talk.record`) as every view of a game with
    claims shows it (``talk``): `Claimed`, and ``text``, its sentence."""

    text: str


class _ResultRequired(TypedDict):
    winners: list[int]
    scores: list[object]


class Result(_ResultRequired, total=False):
    """A finished game's outcome (`State.result()`).

    ``winners``: the winning seats (empty only where a game's rules allow nobody to win);
    ``scores``: one entry per seat, a number or a short value a results table can show;
    ``rounds``: how many rounds were played, for games with rounds (`simulate` averages it);
    ``teams``: the seats that win or lose together (crabs' teams, kraken's factions), each seat
    in one; without it every seat plays for itself (the ratings read it: `ratings.placings`).
    A game may add keys of its own (crates: ``round_scores``).
    """

    rounds: int
    teams: list[list[int]]


#: A declared secret: the (field, value) pair that would betray it in any frame, and why it is
#: secret ("seat 2 holds the Princess"). See `State.secrets`.
SecretPair = tuple[str, Hashable]
Secrets = dict[SecretPair, str]
#: A declared secret's field for a word that betrays it wherever it is written, whole or in a
#: sentence: ``(WORD, "7H")`` for a card code no other card has.
WORD = "*word"
#: A declared secret's field for things hidden together (a hand, a pile) that betray it as a
#: list of the same items in any order: ``(GROUP, ("bat", "fly", "fly"))``, sorted.
GROUP = "*group"


class Bot(Protocol):
    """A player that chooses from its own view and legal actions, never from the state.

    `choose` returns the action to take, or None: nothing to do right now (a real-time bot that
    is still "reacting", an optional move left alone). Every bot, the games' own and the
    generic ones (`tablegames.bots.generic`), and every driver of bots (the table, `simulate`,
    `join --bot`) uses this one protocol.
    """

    def choose(self, view: View, legal: list[Action]) -> Action | None: ...
