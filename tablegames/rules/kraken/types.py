"""Feed the Kraken's data as it crosses the wire, typed: a seat's view, the actions, the events.

Plain dicts over msgpack, as every layer sends them; these `TypedDict`s say which keys they
have, so that mypy checks what bots and screens read (`KrakenView`, `KrakenAction`,
`KrakenEvent`). The engine builds them (`game.KrakenState` and its parts), and a test plays
random games checking every view, legal action and event against them. A navigation card is
``<colour>-<action>`` (``red-drunk``); a faction ``sailor``, ``pirate``, ``cult_leader`` or
``cultist``; what a seat knows of another (``known``) a faction or the group ``cult``.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from ..contract import EventText, Result, Said, SharedView
from ..typed import GameTypes

#: Where the round stands (`voyage.ROUND_STEPS` runs while ``auto``): the team is appointed
#: (``emergency``: a navigator after a jump), fists are chosen, a tie broken, navigation cards
#: drawn and kept, the course steered, a player picked for a map or card action, the cult
#: leader acts with everyone's eyes closed (``convert``, ``stash``), characters fit a window.
Phase = Literal[
    "auto",
    "appoint",
    "emergency",
    "mutiny",
    "tie_break",
    "navigation",
    "steer",
    "pick",
    "convert",
    "stash",
    "window",
    "over",
]
#: A one-seat prompt that holds up everything else: a peek at the top card (telescope,
#: Look-out), the Instigator's chosen player, the Spiritualist handing out guns.
Interruption = Literal["peek", "instigate", "give"]
#: A navigation card's colour, which says where the ship sails.
Colour = Literal["red", "yellow", "blue"]
#: What a seat is asked now (`KrakenPrivate.prompt`): the phase, ``keep`` while drawing.
Prompt = Literal[
    "appoint",
    "emergency",
    "mutiny",
    "tie_break",
    "keep",
    "steer",
    "pick",
    "convert",
    "stash",
    "window",
    "peek",
    "instigate",
    "give",
]


# -- actions ------------------------------------------------------------------------------------
class AppointAction(TypedDict):
    """Name the lieutenant and navigator (one of them: the Consultant's lieutenant, then the
    captain's navigator; an emergency navigator; None for the office the cards fill)."""

    type: Literal["appoint"]
    lieutenant: NotRequired[int | None]
    navigator: NotRequired[int | None]


class MutinyAction(TypedDict):
    """Raise guns in secret (or, asked by the Instigator, add all of them)."""

    type: Literal["mutiny"]
    guns: int


class TargetAction(TypedDict):
    """Name a player: remove them from a tie, pick them for an action (or, for the
    Spiritualist, to receive a gun), convert them to the cult."""

    type: Literal["tie_break", "pick", "convert"]
    target: int


class CardAction(TypedDict):
    """Keep a drawn navigation card for the logbook, or steer by a logbook card."""

    type: Literal["keep", "steer"]
    card: str


class TelescopeAction(TypedDict):
    """Leave the top card seen where it is, or discard it."""

    type: Literal["telescope"]
    choice: Literal["keep", "discard"]


class StashAction(TypedDict):
    """Hand out the gun stash: three players on board, repeats allowed, in seat order."""

    type: Literal["stash"]
    recipients: list[int]


class Uses(TypedDict, total=False):
    """What a character acts on (`abilities`: each `_options_<name>` lists them)."""

    target: int
    targets: list[int]  # two players, in seat order
    source: int  # the Herbalist's off-duty sign holder


class CharacterAction(Uses):
    """Use the character card: its code and what it acts on."""

    type: Literal["character"]
    name: str


class BareAction(TypedDict):
    """Discard the drawn cards for new ones (Archivist), jump overboard, or decline (a
    character window, the Instigator)."""

    type: Literal["redraw", "jump", "decline"]


KrakenAction = (
    AppointAction
    | MutinyAction
    | TargetAction
    | CardAction
    | TelescopeAction
    | StashAction
    | CharacterAction
    | BareAction
)


# -- events -------------------------------------------------------------------------------------
class AppointEvent(EventText):
    kind: Literal["appoint"]
    seat: int
    captain: int
    lieutenant: int | None
    navigator: int | None
    consultant: int | None  # the Consultant who named the lieutenant first, if any


class ConsultantEvent(EventText):
    kind: Literal["consultant"]
    seat: int
    lieutenant: int


class EmergencyNavigatorEvent(EventText):
    kind: Literal["emergency_navigator"]
    seat: int
    captain: int
    navigator: int


class CaptainEvent(EventText):
    """Who is captain: the first, one a drunk captain hands over to (``previous``), or the
    captain who must name an emergency navigator."""

    kind: Literal["first_captain", "drunk", "emergency"]
    seat: int
    captain: int
    previous: NotRequired[int]


class CommandEvent(EventText):
    """A mutiny's new captain; ``returned``: the raised guns each seat got back."""

    kind: Literal["command"]
    seat: int
    captain: int
    previous: int
    returned: list[int]


class CharacterEvent(EventText):
    """A character revealed and used, with what it acted on."""

    kind: Literal["character"]
    seat: int
    character: str | None
    target: NotRequired[int]
    targets: NotRequired[list[int]]
    source: NotRequired[int]
    captain: NotRequired[int]  # (the Chief cook's new captain)


class CharacterDealtEvent(EventText):
    kind: Literal["character_dealt"]
    character: str


class FactionEvent(EventText):
    """To a seat alone: its faction."""

    kind: Literal["faction"]
    seat: int
    faction: str


class PiratesEvent(EventText):
    """To a pirate alone: the other pirates."""

    kind: Literal["pirates"]
    mates: list[int]


class MutinyEvent(EventText):
    kind: Literal["mutiny"]
    mutineers: list[int]
    threshold: int


class GunsEvent(EventText):
    """Guns: raised in secret (to the seat alone), or all added at the Instigator's word."""

    kind: Literal["raise", "instigated"]
    seat: int
    guns: int


class FistsEvent(EventText):
    """The fists open: each seat's raise (None: not a mutineer)."""

    kind: Literal["fists"]
    raised: list[int | None]


class MutinySucceedsEvent(EventText):
    kind: Literal["mutiny_succeeds"]
    guns: int
    needed: int


class TieEvent(EventText):
    kind: Literal["tie"]
    tied: list[int]
    captain: int


class TargetEvent(EventText):
    """Something a seat does to another: fed to the Kraken, a gun given, a mermaid visited, a
    cabin searched, a telescope handed, a player removed from a tie."""

    kind: Literal["fed", "gun_given", "mermaid", "search", "telescope", "tie_removed"]
    seat: int
    target: int


class TargetedEvent(EventText):
    """Something done to a seat: converted (to the leader alone), its tongue cut off."""

    kind: Literal["convert", "tongue"]
    target: int


class FloggedEvent(EventText):
    kind: Literal["flogged"]
    target: int
    not_a: str  # the faction card shown: what the flogged player is not


class SearchedEvent(EventText):
    """To the searcher alone: the group a cabin search showed."""

    kind: Literal["searched"]
    seat: int
    target: int
    group: str


class ConvertedEvent(EventText):
    """To the converted player alone: who the leader is."""

    kind: Literal["converted"]
    leader: int


class CultSearchEvent(EventText):
    """To the cult leader alone: the group of each of the team's seats, ``[seat, group]``."""

    kind: Literal["cult_search"]
    found: list[list[int | str]]


class StashEvent(EventText):
    kind: Literal["stash"]
    recipients: list[int]


class EyesOpenEvent(EventText):
    """Everyone opens their eyes; after a gun stash, ``guns``: ``[seat, guns gained]``."""

    kind: Literal["eyes_open"]
    guns: NotRequired[list[list[int]]]


class CardsEvent(EventText):
    """Cards a seat sees alone: drawn (or drawn anew), handed as navigator, the mermaid's."""

    kind: Literal["drawn", "redrawn", "logbook", "mermaid_cards"]
    cards: list[str]
    seat: NotRequired[int]


class CardEvent(EventText):
    """One card a seat sees alone: kept for the logbook, seen on top of the draw pile."""

    kind: Literal["kept", "peek"]
    seat: int
    card: str


class NavigationEvent(EventText):
    kind: Literal["navigation"]
    drawers: list[int]
    seat: NotRequired[int]  # (when one seat draws)


class RevealEvent(EventText):
    kind: Literal["reveal"]
    captain: int
    card: str


class SailEvent(EventText):
    kind: Literal["sail"]
    start: str
    way: str
    ship: str


class RitualEvent(EventText):
    kind: Literal["ritual"]
    captain: int
    ritual: str


class PickEvent(EventText):
    """The captain must pick a player for ``action`` (a map or card action)."""

    kind: Literal["pick"]
    seat: int
    captain: int
    action: str


class TopCardEvent(EventText):
    kind: Literal["top_card"]
    seat: int
    choice: Literal["keep", "discard"]


class NavigatorEvent(EventText):
    """The navigator gains (``armed``) or loses (``disarmed``) a gun."""

    kind: Literal["armed", "disarmed"]
    navigator: int


class OffDutyEvent(EventText):
    kind: Literal["off_duty"]
    seats: list[int]


class WindowEvent(EventText):
    kind: Literal["window"]
    window: str


class OverEvent(EventText):
    kind: Literal["over"]
    reason: str
    winner: str


class SeatEvent(EventText):
    """Something one seat did: kept its character, chose its fists, refused the Instigator,
    jumped overboard, kept a card (public words), drew anew (public words)."""

    kind: Literal["character_kept", "chosen", "instigator_refused", "jump", "keeps", "redraw"]
    seat: int


class TableEvent(EventText):
    """Something about the table, with nothing more to say than its words."""

    kind: Literal[
        "cards_appoint",
        "cards_steer",
        "cult_unknown",
        "empty_pile",
        "eyes_closed",
        "mutiny_fails",
        "no_rituals",
        "nobody_to_pick",
        "reshuffle",
        "supply_line",
    ]


KrakenEvent = (
    AppointEvent
    | ConsultantEvent
    | EmergencyNavigatorEvent
    | CaptainEvent
    | CommandEvent
    | CharacterEvent
    | CharacterDealtEvent
    | FactionEvent
    | PiratesEvent
    | MutinyEvent
    | GunsEvent
    | FistsEvent
    | MutinySucceedsEvent
    | TieEvent
    | TargetEvent
    | TargetedEvent
    | FloggedEvent
    | SearchedEvent
    | ConvertedEvent
    | CultSearchEvent
    | StashEvent
    | EyesOpenEvent
    | CardsEvent
    | CardEvent
    | NavigationEvent
    | RevealEvent
    | SailEvent
    | RitualEvent
    | PickEvent
    | TopCardEvent
    | NavigatorEvent
    | OffDutyEvent
    | WindowEvent
    | OverEvent
    | SeatEvent
    | TableEvent
)


# -- views --------------------------------------------------------------------------------------
class Space(TypedDict):
    """A space of the chart: where each colour sails to (a space or a goal, None: nowhere),
    its action."""

    red: str | None
    yellow: str | None
    blue: str | None
    action: str | None


class MutinyView(TypedDict):
    """The mutiny under way: who may raise, who has chosen (``ready``), the fists once open
    (``raised``, one per seat, None for a non-mutineer), and what characters did to it."""

    mutineers: list[int]
    ready: list[int]
    raised: list[int | None] | None
    threshold: int
    max_raise: int | None
    must_raise: list[int]
    doubled: list[int]
    cancelled: list[int]
    strategists: list[int]
    tied: list[int]


class UpcomingView(TypedDict):
    """Character effects waiting for the next mutiny (Minstrel, Agitator, Equalizer)."""

    sit_out: list[int]
    must_raise: list[int]
    equalizer: bool


class Peek(TypedDict):
    """Cards a seat was shown (a telescope, the Look-out, the mermaid) and what it chose."""

    source: str
    cards: list[str]
    choice: NotRequired[Literal["keep", "discard"]]


class KrakenPrivate(TypedDict, total=False):
    """What the viewer alone knows and is asked (empty for a spectator).

    ``drawn``: its navigation cards; ``kept``: the one it put in the logbook; ``logbook``: the
    cards it steers by (as navigator); ``peek``: the top card it is looking at; ``giver``: whose
    gun the Spiritualist hands on next; ``mutiny_guns``: its closed fist; ``character_waits``:
    why its unused character cannot be used now (None: it can, or there is none to use).
    """

    prompt: Prompt | None
    character: str | None
    character_waits: str | None
    drawn: list[str]
    kept: str | None
    can_redraw: bool
    logbook: list[str]
    peek: str | None
    giver: int | None
    peeks: list[Peek]
    mutiny_guns: int | None
    convertible: list[int]


class KrakenOwnView(TypedDict):
    """Feed the Kraken's own keys of a view (`KrakenState._view`).

    ``known``: what the viewer knows of other seats, keyed by seat numbers as strings;
    ``map``: the chart, space -> `Space`; ``not_a``: per seat, the faction cards a flogging
    showed it is not; ``characters``: per seat, the revealed character or None; ``silence``:
    why the viewer may not talk now (None: it may); ``roles``: every faction, once over.
    """

    faction: str | None
    known: dict[str, str]
    board: str
    map: dict[str, Space]
    supply_line: list[str]
    ship: str
    round: int
    captain: int
    lieutenant: int | None
    navigator: int | None
    off_duty: list[int]
    guns: list[int]
    resumes: list[list[str]]
    eliminated: list[int]
    tongueless: list[int]
    not_a: list[list[str]]
    unconvertible: list[int]
    deck_size: int
    discard_size: int
    rituals_used: list[str]
    rituals_left: int
    last_card: str | None
    characters: list[str | None]
    characters_used: list[bool]
    captain_card: int | None
    gunsmiths: list[int]
    phase: Phase | Interruption
    window: str | None
    pick: str | None
    mutiny: MutinyView | None
    upcoming: UpcomingView
    private: KrakenPrivate
    silence: str | None
    winner: str | None
    roles: list[str] | None


class KrakenResult(Result):
    """How the voyage ended: the side that won (None: nobody), why (the goal reached, or
    ``cult_leader_fed``), every faction, and where the ship stood."""

    winner: str | None
    reason: str | None
    roles: list[str]
    ship: str


class KrakenView(KrakenOwnView, SharedView[KrakenEvent, KrakenResult]):
    """What a seat of Feed the Kraken is shown: the shared keys and the game's own; at a table
    that keeps its talk, also the claims made so far (``talk``: `tablegames.talk` records)."""

    talk: NotRequired[list[Said]]


#: How Feed the Kraken's bots and screen read the table's plain data as these types
#: (`typed.GameTypes`).
TYPES = GameTypes[KrakenView, KrakenAction, KrakenEvent]()
