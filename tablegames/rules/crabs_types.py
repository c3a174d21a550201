"""You've Got Crabs' data as it crosses the wire, typed: a view, the actions, the events.

Plain dicts over msgpack, as every layer sends them; these `TypedDict`s say which keys they
have, so that mypy checks what bots and screens read (`CrabsView`, `CrabsAction`,
`CrabsEvent`). The engine builds them (`crabs.CrabsState`, `crabs_huddle.Huddle`), and a test
plays random games checking every view, legal action and event against them. A card is a crab
kind's code (`crabs.KINDS`: ``king``, ``ab``...); a gesture one of `crabs_huddle.GESTURES`.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from .contract import EventText, Result, SharedView
from .typed import GameTypes

#: ``huddle``: the teams pick their signals before play; ``asking``: the other side is asked
#: whether anyone wants to swap (nobody may swap meanwhile); ``closing``: the pot is empty and
#: only a double crab may still be settled.
Phase = Literal["huddle", "swap", "asking", "closing", "over"]
#: Where a token comes from or goes to: a seat, or the pot.
Source = int | Literal["pot"]


# -- actions ------------------------------------------------------------------------------------
class SwapAction(TypedDict):
    """Swap a card of the hand for one of a different kind in the ocean."""

    type: Literal["swap"]
    hand: str
    ocean: str


class DoneAction(TypedDict):
    """Lay the hand down: done swapping this turn."""

    type: Literal["done"]


class WantSwapAction(TypedDict):
    """Answer, when asked, whether this side wants to swap after all."""

    type: Literal["want_swap"]
    yes: bool


class AccuseAction(TypedDict):
    """Call "You've got crabs!" on a player (any time)."""

    type: Literal["accuse"]
    target: int


class DoubleTakeAction(TypedDict):
    """Collect a double crab: one source per token, ``"pot"`` or an opponent's seat."""

    type: Literal["double_take"]
    sources: list[Source]


class GestureAction(TypedDict):
    """Make a gesture (any time): a signal, or a decoy."""

    type: Literal["gesture"]
    name: str


class SignalAction(TypedDict):
    """Pick the team's signal in the huddle: one gesture, or two (``also``)."""

    type: Literal["signal"]
    name: str
    also: NotRequired[str]


CrabsAction = (
    SwapAction
    | DoneAction
    | WantSwapAction
    | AccuseAction
    | DoubleTakeAction
    | GestureAction
    | SignalAction
)


# -- events: every one at the table time it happened (``time``) --------------------------------
class TimedText(EventText):
    time: float


class AccuseEvent(TimedText):
    """A call settled: right or wrong (``correct``), the four shown (``cards``), a token paid
    (``paid_by`` a seat, ``"pot"``, or None: nobody could), a double crab (``double``)."""

    kind: Literal["accuse"]
    seat: int
    accuser: int
    target: int
    correct: bool
    cards: NotRequired[list[str]]
    paid_by: NotRequired[Source | None]
    paid_to: NotRequired[Source]
    double: NotRequired[bool]


class VoidCallEvent(TimedText):
    """A call on a four another call showed at most a second before: nothing changes."""

    kind: Literal["void_call"]
    seat: int
    accuser: int
    target: int
    first: int


class SwapEvent(TimedText):
    kind: Literal["swap"]
    seat: int
    gave: str
    took: str


class GestureEvent(TimedText):
    kind: Literal["gesture"]
    seat: int
    gesture: str


class SeatEvent(TimedText):
    """A seat lays its hand down (``done``) or, caught, draws a new hand (``redraw``)."""

    kind: Literal["done", "redraw"]
    seat: int


class WantSwapEvent(TimedText):
    kind: Literal["want_swap"]
    seat: int
    yes: bool


class SideEvent(TimedText):
    """Turns: a side starts, swaps again, the marker turns to it, or it is asked."""

    kind: Literal["start", "again", "marker", "asking"]
    side: int


class RefillEvent(TimedText):
    kind: Literal["refill"]
    ocean: list[str]


class DrawnEvent(TimedText):
    """To the caught player alone: their new hand."""

    kind: Literal["drawn"]
    cards: list[str]


class DoubleTakeEvent(TimedText):
    kind: Literal["double_take"]
    seat: int
    sources: list[Source]


class WindowClosedEvent(TimedText):
    kind: Literal["window_closed"]
    window_closed: int  # the team whose double-crab window closed


class ClosingEvent(TimedText):
    kind: Literal["closing"]
    closing: bool


class TiebreakEvent(TimedText):
    kind: Literal["tiebreak"]
    tiebreak: list[int]  # the tied teams


class OverEvent(TimedText):
    kind: Literal["over"]
    team: int
    winners: list[int]


class HuddleEvent(TimedText):
    kind: Literal["huddle"]
    ends: float


class DealtSignalEvent(TimedText):
    """To a team: the gesture it was dealt, its signal unless it picks another."""

    kind: Literal["dealt_signal"]
    signal: str


class SignalEvent(TimedText):
    """To a team: a member's pick (``signal``, its first gesture; ``signals``, all)."""

    kind: Literal["signal"]
    seat: int
    signal: str
    signals: list[str]


class SignalSettledEvent(TimedText):
    kind: Literal["signal_settled"]
    signal: str
    signals: list[str]
    timed_out: bool


class TeamReadyEvent(TimedText):
    kind: Literal["team_ready"]
    team: int


class ReshuffleEvent(TimedText):
    kind: Literal["reshuffle"]


CrabsEvent = (
    AccuseEvent
    | VoidCallEvent
    | SwapEvent
    | GestureEvent
    | SeatEvent
    | WantSwapEvent
    | SideEvent
    | RefillEvent
    | DrawnEvent
    | DoubleTakeEvent
    | WindowClosedEvent
    | ClosingEvent
    | TiebreakEvent
    | OverEvent
    | HuddleEvent
    | DealtSignalEvent
    | SignalEvent
    | SignalSettledEvent
    | TeamReadyEvent
    | ReshuffleEvent
)


# -- views --------------------------------------------------------------------------------------
class Gesture(TypedDict):
    """A gesture made, at its table time (a view keeps the last 20)."""

    seat: int
    name: str
    time: float


class DoubleOwed(TypedDict):
    """A double crab a team may collect: how many tokens now, and the two callers."""

    team: int
    tokens: int
    callers: list[int]


class HuddleView(TypedDict):
    """The huddle before play: when it ends, how many gestures a signal may have, the teams
    settled; for a player, their team's dealt gesture, proposal and each member's last pick
    (keyed by seat numbers as strings, None: no pick yet)."""

    ends: float
    most: int
    settled: list[int]
    dealt: NotRequired[str]
    proposal: NotRequired[list[str]]
    picks: NotRequired[dict[str, list[str] | None]]


class CrabsOwnView(TypedDict):
    """Crabs' own keys of a view (`CrabsState._view`).

    ``team`` and ``signal``/``signals`` are the viewer's (None and empty for a spectator);
    ``marker`` and ``active_side`` are the side swapping; ``window_closes``: the table time of
    the next `deadline` (the huddle's end, a double-crab window's); ``tiebreak``: the tied
    teams playing on, or None; ``winners``: empty until the game is won.
    """

    phase: Phase
    hand: list[str]
    hand_sizes: list[int]
    ocean: list[str]
    teams: list[list[int]]
    team: int | None
    sides: list[int]
    marker: int
    active_side: int
    done: list[int]
    asked: list[int]
    swapped_this_turn: bool
    tokens: list[int]
    team_tokens: list[int]
    pot: int
    draw_size: int
    discard_size: int
    signal: str | None
    signals: list[str]
    huddle: HuddleView | None
    kinds: list[str]
    gesture_names: list[str]
    gestures: list[Gesture]
    double_take: list[DoubleOwed]
    window_closes: float | None
    tiebreak: list[int] | None
    winners: list[int]


class CrabsResult(Result):
    """How a game of crabs ended: each team's tokens, the winning team, and whether it was won
    in a tie-break."""

    team_tokens: list[int]
    winning_team: int | None
    tiebreak: bool


class CrabsView(CrabsOwnView, SharedView[CrabsEvent, CrabsResult]):
    """What a seat of crabs is shown: the shared keys and crabs' own; a real-time bot's view
    also has the table's time (``now``) and the speed its driver runs it at (`drivers`)."""

    now: NotRequired[float]
    speed: NotRequired[float]


#: How crabs's bots and screen read the table's plain data as these types (`typed.GameTypes`).
TYPES = GameTypes[CrabsView, CrabsAction, CrabsEvent]()
