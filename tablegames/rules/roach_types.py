"""Cockroach Poker Royal's data as it crosses the wire, typed: a view, the actions, the events.

Plain dicts over msgpack, as every layer sends them; these `TypedDict`s say which keys they
have, so that mypy checks what bots and screens read (`RoachView`, `RoachAction`,
`RoachEvent`). The engine builds them (`roach.RoachState`), and a test plays random games
checking every view, legal action and event against them. A claim is an animal or ``royal``
(`roach.CLAIMS`); a card code an animal, ``royal-<animal>``, ``joker`` or ``blank``.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from .contract import EventText, Result, SharedView
from .typed import GameTypes

#: ``respond``: the receiver of the card in flight judges it, peeks or passes it on; ``lay``: a
#: player who took a special card lays out cards for it.
Phase = Literal["offer", "respond", "lay", "over"]
LoserRule = Literal["four", "most"]


# -- actions ------------------------------------------------------------------------------------
class OfferAction(TypedDict):
    """Slide a card face down to another player, claiming what it is."""

    type: Literal["offer"]
    card: str
    to: int
    claim: str


class ChallengeAction(TypedDict):
    """Judge the claim: ``believe`` true (it is true) or false."""

    type: Literal["challenge"]
    believe: bool


class PeekAction(TypedDict):
    """Look at the card in flight (then it must be passed on)."""

    type: Literal["peek"]


class PassAction(TypedDict):
    """Pass the card in flight on with a new claim, looking first unless ``look`` is false."""

    type: Literal["pass"]
    to: int
    claim: str
    look: NotRequired[Literal[False]]


class LayAction(TypedDict):
    """Lay out cards for a special card taken: one of the claim, or two others, in this order."""

    type: Literal["lay"]
    cards: list[str]


RoachAction = OfferAction | ChallengeAction | PeekAction | PassAction | LayAction


# -- events -------------------------------------------------------------------------------------
class StartEvent(EventText):
    kind: Literal["start"]
    seat: int
    card: str | None  # the penalty pile's top card


class ClaimEvent(EventText):
    """A card slid (``offer``) or passed on (``pass``, ``looked`` saying whether it was seen)."""

    kind: Literal["offer", "pass"]
    seat: int
    sender: int
    receiver: int
    claim: str
    looked: NotRequired[bool]


class SlidEvent(EventText):
    """To the sender alone: the card they slid."""

    kind: Literal["slid"]
    card: str
    receiver: int


class PeekEvent(EventText):
    kind: Literal["peek"]
    seat: int
    peeker: int


class SeenEvent(EventText):
    """To the peeker alone: the card in flight."""

    kind: Literal["seen"]
    card: str


class JudgeEvent(EventText):
    kind: Literal["judge"]
    seat: int
    believe: bool


class RevealEvent(EventText):
    """The judged card: whether the claim was true, and who takes it."""

    kind: Literal["reveal"]
    card: str
    truth: bool
    taker: int


class SeatCardEvent(EventText):
    """A card goes to a seat: a penalty card face up, a special card to the hand, a special
    card taken in or laid out at once."""

    kind: Literal["penalty", "penalty_to_hand", "special_out"]
    seat: int
    card: str


class SpecialTakenEvent(EventText):
    kind: Literal["special_taken"]
    seat: int
    card: str
    claim: str


class LayEvent(EventText):
    kind: Literal["lay"]
    seat: int
    cards: list[str]


class PenaltyTopEvent(EventText):
    kind: Literal["penalty_top"]
    card: str | None


class PenaltyEmptyEvent(EventText):
    kind: Literal["penalty_empty"]


class EndEvent(EventText):
    """Under ``loser=most``: who ended the game (`LoseEvent` says who loses)."""

    kind: Literal["end"]
    seat: int
    ended_by: int


class LoseEvent(EventText):
    kind: Literal["lose"]
    seat: int
    loser: int
    face_up: NotRequired[list[int]]  # (under ``loser=most``)
    tied: NotRequired[list[int]]


RoachEvent = (
    StartEvent
    | ClaimEvent
    | SlidEvent
    | PeekEvent
    | SeenEvent
    | JudgeEvent
    | RevealEvent
    | SeatCardEvent
    | SpecialTakenEvent
    | LayEvent
    | PenaltyTopEvent
    | PenaltyEmptyEvent
    | EndEvent
    | LoseEvent
)


# -- views --------------------------------------------------------------------------------------
#: One claim of the card in flight's chain: who slid it to whom, claiming what.
ChainClaim = TypedDict("ChainClaim", {"from": int, "to": int, "claim": str})

#: The card travelling face down: its last move and claim, the chain of claims, who has seen
#: it and who it has been with; ``card`` only for a viewer who has seen it.
Flight = TypedDict(
    "Flight",
    {
        "from": int,
        "to": int,
        "claim": str,
        "claims": list[ChainClaim],
        "seen_by": list[int],
        "held_by": list[int],
        "card": NotRequired[str],
    },
)


class LayView(TypedDict):
    """Who must lay out cards, for which claim, having taken which special card."""

    seat: int
    claim: str
    special: str


class RoachOwnView(TypedDict):
    """Roach's own keys of a view (`RoachState._view`): the viewer's hand and the table.

    ``turn``: the seat whose move the game needs (None once over); ``front_counts``: per seat,
    animal -> face-up count; ``lose_at``: 4, or 5 with two players.
    """

    phase: Phase
    turn: int | None
    hand: list[str]
    hand_sizes: list[int]
    fronts: list[list[str]]
    front_counts: list[dict[str, int]]
    lose_at: int
    penalty_top: str | None
    penalty_size: int
    flight: Flight | None
    lay: LayView | None
    loser: int | None
    loser_rule: LoserRule


class RoachResult(Result):
    """How a game of roach ended: who lost (``loser``) and why, who ended it, and each seat's
    face-up cards."""

    loser: int | None
    reason: str
    ended_by: int | None
    face_up: list[int]


class RoachView(RoachOwnView, SharedView[RoachEvent, RoachResult]):
    """What a seat of roach is shown: the shared keys and roach's own."""


#: How roach's bots and screen read the table's plain data as these types (`typed.GameTypes`).
TYPES = GameTypes[RoachView, RoachAction, RoachEvent]()
