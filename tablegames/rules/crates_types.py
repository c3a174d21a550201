"""Crates' data as it crosses the wire, typed: a seat's view, the actions, the events.

Plain dicts over msgpack, as every layer sends them; these `TypedDict`s say which keys they
have, so that mypy checks what bots and screens read (`CratesView`, `CratesAction`,
`CratesEvent`). The engine builds them (`crates.CratesState._view`, `_legal`, `emit`), and a
test plays random games checking every view, legal action and event against them.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from .contract import EventText, Result, SharedView
from .typed import GameTypes

#: ``suit``: the dealer names the suit for a turned-up 8 or 9 before anyone plays.
Phase = Literal["play", "suit", "over"]


# -- actions ------------------------------------------------------------------------------------
class PlayAction(TypedDict):
    """Play a card; an 8 or 9 names the suit to follow, and a play that leaves one card may
    announce Crates! with it."""

    type: Literal["play"]
    card: str
    suit: NotRequired[str]
    announce: NotRequired[Literal[True]]


class DrawAction(TypedDict):
    """Draw a card (nothing fits), or the running crank's count."""

    type: Literal["draw"]


class SuitAction(TypedDict):
    """The dealer names the suit to follow for a turned-up 8 or 9."""

    type: Literal["suit"]
    suit: str


class AnnounceAction(TypedDict):
    """Announce Crates! (any time, while holding one card unannounced)."""

    type: Literal["announce"]


class DopeAction(TypedDict):
    """Call Dope! on a player holding one card unannounced (any time)."""

    type: Literal["dope"]
    target: int


CratesAction = PlayAction | DrawAction | SuitAction | AnnounceAction | DopeAction


# -- events -------------------------------------------------------------------------------------
class PlayEvent(EventText):
    kind: Literal["play"]
    seat: int
    card: str
    suit: str | None  # the suit an 8 or 9 named


class RoundEvent(EventText):
    """A round is dealt: its number, the dealer and the card turned up."""

    kind: Literal["round"]
    round: int
    dealer: int
    card: str


class DrawEvent(EventText):
    """Public: how many cards a seat drew (`DrawnEvent` tells it which)."""

    kind: Literal["draw"]
    seat: int
    count: int


class DrawnEvent(EventText):
    kind: Literal["drawn"]
    seat: int
    cards: list[str]


class SuitEvent(EventText):
    kind: Literal["suit"]
    seat: int
    suit: str


class DopeEvent(EventText):
    kind: Literal["dope"]
    seat: int
    target: int


class CrankEvent(EventText):
    kind: Literal["crank"]
    crank: int


class DirectionEvent(EventText):
    kind: Literal["direction"]
    direction: int


class DealDrawEvent(EventText):
    kind: Literal["deal_draw"]
    seat: int
    card: str


class DealTieEvent(EventText):
    kind: Literal["deal_tie"]
    seats: list[int]


class RoundOverEvent(EventText):
    kind: Literal["round_over"]
    round: int
    points: list[int]


class OverEvent(EventText):
    kind: Literal["over"]
    winners: list[int]


class SeatEvent(EventText):
    """Something about one seat: the kind says what (``pass``: it had nothing to draw)."""

    kind: Literal["again", "announce", "crank_lost", "dealer", "lose_turn", "out", "pass", "skip"]
    seat: int


class TableEvent(EventText):
    """Something about the table: a blocked round, a reshuffled discard pile."""

    kind: Literal["blocked", "reshuffle"]


CratesEvent = (
    PlayEvent
    | RoundEvent
    | DrawEvent
    | DrawnEvent
    | SuitEvent
    | DopeEvent
    | CrankEvent
    | DirectionEvent
    | DealDrawEvent
    | DealTieEvent
    | RoundOverEvent
    | OverEvent
    | SeatEvent
    | TableEvent
)


# -- views --------------------------------------------------------------------------------------
class LastRound(TypedDict):
    """The round just scored: every hand as it ended, points, the cards 3s cancelled."""

    round: int
    hands: list[list[str]]
    points: list[int]
    cancelled: list[list[str]]
    went_out: int | None
    blocked: bool


class CratesOwnView(TypedDict):
    """Crates' own keys of a view (`CratesState._view`): the viewer's hand, the table, scores.

    ``exposed``: seats holding one card unannounced (Dope! catches them); ``unplayable``: for
    the player to act, why each card that does not fit cannot be played; ``turn`` is None once
    the game is over.
    """

    hand: list[str]
    hand_sizes: list[int]
    top: str | None
    suit: str
    crank: int
    direction: int
    turn: int | None
    phase: Phase
    dealer: int
    round: int
    rounds: int
    hand_size: int
    scores: list[int]
    announced: list[int]
    exposed: list[int]
    lost_turn: list[int]
    draw_size: int
    discard: list[str]
    unplayable: dict[str, str]
    last_round: LastRound | None


class CratesView(CratesOwnView, SharedView[CratesEvent, Result]):
    """What a seat of Crates is shown: the shared keys and Crates' own."""


#: How Crates's bots and screen read the table's plain data as these types (`typed.GameTypes`).
TYPES = GameTypes[CratesView, CratesAction, CratesEvent]()
