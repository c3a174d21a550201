"""Cockroach Poker Royal for 2–6 players: the rules engine (game name ``roach``).

Rules: ``rules/texts/roach.md``, what players read (``tablegames rules roach``). They follow the
project's spec ("the spec" below), made from the seed, the original rule text (Persian, seed
``001_b030dd43a419f4d3``); neither is in this repository, so the seed is quoted here.
Where the seed is ambiguous the engine reads it one way, and the rules text says so to players
("How this table reads the rules"):

- A penalty card goes face up in front of the player who laid the royal card. The seed's royal
  section says so («باید کارت بالایی را نیز از روی دسته کارت ویژه بردارد و همچنین آن را به رو در
  مقابل خود قرار دهد», "must also take the top card of the special pile and also lay it face up
  in front of them"); a later note says "in your hand" («آن را نیز در دست خود قرار دهید»). A
  penalty card is a penalty, so it goes in front, where it counts.
- A special card taken from the penalty pile goes to the hand with no further effect: the seed's
  «هر کس یکی از کارت های ویژه را دریافت کند آن را در مقابل خود قرار نمیدهد، بلکه آن را به دست خود
  اضافه میکند» ("whoever receives a special card does not lay it in front of them but adds it to
  their hand") is followed by laying out cards against "the last claim", and a card from the pile
  came with no claim.
- Who loses (option ``loser``). The seed's only sentence on losing is «بازیکنی که کارتهای بیشتری
  جمع کرده باشد بازنده است!» ("the player who has collected the most cards loses!"); the
  published game ends at four of one animal (five with two players) or an empty hand and makes
  that player the loser. ``four`` (the default) plays the published game. ``most`` ends the game
  the same way, and the player with the most face-up cards (every card in front: royals, penalty
  cards and a special card laid out included) loses. The seed names one loser («بازیکنی», "the
  player"), so a tie for the most is broken: the tied player who ended the game loses; else the
  tied player with the most cards of one animal (closest to the published loss); else the first
  tied player after the one who ended the game, in seat order. The game's end is then two
  events: ``end`` (``seat``, ``ended_by``: who ended it and how) and ``lose`` (``seat``,
  ``loser``, ``face_up`` per seat, ``tied``). No rules version change: a saved game without the
  option plays ``four``, as before.

Decisions the spec leaves open, taken as the rules intend:

- "The player who offered the card to them" is whoever slid it to the receiver last: the
  original player, or the last player who passed it on.
- The claim a special card is laid out against is the last claim, the one the receiver judged.
  A card "matches" a claim if it is a plain or royal card of that animal (any royal card for a
  ``royal`` claim); the joker and the blank match nothing.
- "Two other hand cards" may be any two, matching or not, and may include the *other* special
  card. A special card laid out in front of a player counts as no animal.
- A player who takes a special card and holds no other card lays the special card itself out:
  with "all of them if they hold fewer" they would otherwise lay out nothing, and a lone special
  card could then circle the table for ever. They then lose at their turn with an empty hand.
  This makes every round move at least one card out of the hands or the penalty pile, so every
  game ends.
- The empty hand is checked when the turn to offer comes to a player (at the start, and after
  they take a card). An empty-handed player may still receive, pass and judge cards; taking a
  card they cannot lay out elsewhere makes them lose.
- Royal cards laid out while resolving a special card pull the penalty card one by one, in the
  order the player names them.
- Setup: the first player is drawn first, then the 65 cards are shuffled. The top 7 form the
  penalty pile (top first, its first card face up); the rest are dealt one at a time from the
  first player round the table; the first player gets one leftover, the others go under the pile.
  ``deck`` (65 codes, top first) replaces the shuffle. ``hands`` (one list per seat) stacks the
  game with ``penalty`` (top first, default empty) and ``fronts`` (face-up cards per seat, default
  none); cards named nowhere are left out. ``first`` names the first player in either case.
- Peeking may be its own step: ``{"type": "peek"}`` shows the receiver the card, who must then
  pass it on (they have seen it, so they may no longer judge it). This is how the printed game is
  played — look, then choose whom to pass to and what to claim. The spec's ``pass`` alone still
  works and peeks on the way.
- Passing without looking: ``{"type": "pass", "to": seat, "claim": ..., "look": False}`` slides
  the card on unseen (``look`` is true unless said: the spec's pass, which peeks on the way). The
  seed lets the receiver look; it does not make them: «او میتواند یک نگاه سریع به کارت بکند و آن
  را به بازیکن دیگری بجر غزاله پاس بدهد» ("she *may* take a quick look at the card and pass it to
  a player other than Ghazaleh"). That the card went on unseen is public (the log says "without
  looking", the event's ``looked`` is false); the passer is not in ``seen_by`` and learns
  nothing. After a peek the card can only go on as it is: ``look: False`` is refused.
- The card never goes back to a player it has been with, looked at or not (the flight's
  ``held_by``: the offerer, then each receiver). The spec says "never back to anyone who has
  seen it"; the seed excludes the player who gave it («بجر غزاله», "other than Ghazaleh"), and a
  card passed on unseen that could come back would let a chain go round for ever. So the last
  possible receiver, who must judge («آخرین بازیکن چاره ای جز نشان دادن کارت ندارد», "the last
  player has no choice but to reveal the card"), is the last one the card has not been with.
- The view's ``turn`` is the seat whose move the game needs (the player to offer, the receiver of
  the card in flight, or the player who must lay out cards); the log keeps the last 60 events.
  Beyond the spec's keys a view has ``phase`` (offer, respond, lay, over), ``flight.held_by``,
  ``lay`` (who must lay out cards, for which claim and special card), ``front_counts`` (per
  seat, animal -> count), ``lose_at`` (4, or 5 with two players), ``loser``, ``loser_rule``
  (``four`` or ``most``), ``seat`` and ``players``. ``result()`` adds ``ended_by`` and
  ``face_up`` (cards per seat).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain, combinations_with_replacement
from typing import ClassVar

from .contract import Action, Secrets
from .core import SetupError, State, hidden_group, made_once
from .roach_types import (
    ChallengeAction,
    LayAction,
    LoserRule,
    OfferAction,
    PassAction,
    PeekAction,
    Phase,
    RoachAction,
    RoachOwnView,
    RoachResult,
)
from .roach_types import Flight as FlightView

#: The losing rules (the `loser` option): four of one animal, or the most face-up cards.
FOUR, MOST = "four", "most"

ANIMALS = ("bat", "fly", "cockroach", "frog", "mouse", "scorpion", "ladybug")
PLURALS = {
    "bat": "bats", "fly": "flies", "cockroach": "cockroaches", "frog": "frogs",
    "mouse": "mice", "scorpion": "scorpions", "ladybug": "ladybugs",
}  # fmt: skip
ROYAL = "royal"
CLAIMS = (*ANIMALS, ROYAL)
#: The printed game's names for three of the animals, accepted when parsing a claim.
CLAIM_ALIASES = {"toad": "frog", "rat": "mouse", "stink bug": "ladybug", "stinkbug": "ladybug"}
JOKER, BLANK = "joker", "blank"
SPECIALS = (JOKER, BLANK)
PLAIN_COPIES = 8
ROYALS = tuple(f"royal-{animal}" for animal in ANIMALS)
#: How many of each card code the deck holds (65 cards in all).
DECK_COUNTS: dict[str, int] = {
    **{animal: PLAIN_COPIES for animal in ANIMALS},
    **{royal: 1 for royal in ROYALS},
    **{special: 1 for special in SPECIALS},
}
DECK = tuple(code for code, copies in DECK_COUNTS.items() for _ in range(copies))
PENALTY_SIZE = 7
LOG_LIMIT = 60
#: The phase in which each action may be taken.
PHASE_OF: dict[str, Phase] = {
    "offer": "offer",
    "challenge": "respond",
    "peek": "respond",
    "pass": "respond",
    "lay": "lay",
}
_ORDER = {code: index for index, code in enumerate(c for a in ANIMALS for c in (a, f"royal-{a}"))}
_ORDER |= {JOKER: len(_ORDER), BLANK: len(_ORDER) + 1}


# -- cards and claims ----------------------------------------------------------------------------
def is_card(code: object) -> bool:
    """True if `code` is one of the card codes (`bat`, `royal-bat`, `joker`, `blank`...)."""
    return isinstance(code, str) and code in DECK_COUNTS


def animal_of(card: str) -> str | None:
    """The animal a card counts as in front of a player: `royal-fly` -> `fly`; None if special."""
    if card in SPECIALS:
        return None
    return card.removeprefix("royal-")


#: Each card's animal (`animal_of`), looked up: every view counts every display.
ANIMAL_OF = {card: animal_of(card) for card in DECK_COUNTS}


def is_royal(card: str) -> bool:
    """True for the seven crowned cards."""
    return card.startswith("royal-")


def parse_claim(value: object) -> str | None:
    """The claim `value` names (an animal or `royal`, aliases accepted), or None."""
    if not isinstance(value, str):
        return None
    key = " ".join(value.strip().lower().replace("-", " ").replace("_", " ").split())
    key = CLAIM_ALIASES.get(key, key)
    return key if key in CLAIMS else None


def claim_is_true(card: str, claim: str) -> bool:
    """Whether `claim` about `card` is true, by the spec's table."""
    if card == BLANK:
        return False
    if card == JOKER:
        return claim != ROYAL
    if claim == ROYAL:
        return is_royal(card)
    return animal_of(card) == claim


def matches(card: str, claim: str) -> bool:
    """True if `card` may be laid out alone after taking a special card against `claim`."""
    if claim == ROYAL:
        return is_royal(card)
    return card not in SPECIALS and animal_of(card) == claim


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards in table order: each animal with its royal, then the joker and the blank."""
    return sorted(cards, key=_ORDER.__getitem__)


def lay_choices(others: Sequence[str], claim: str) -> set[tuple[str, ...]]:
    """Every distinct lay open to a player who took a special card judged against `claim`, whose
    other hand cards are `others`: one card of the claim, or any two others (or the only one)."""
    return {(card,) for card in set(others) if matches(card, claim)} | any_lays(others)


def any_lays(others: Sequence[str]) -> set[tuple[str, ...]]:
    """The lays open whatever the claim (`lay_choices` without the one card of the claim): any
    two of `others`, or the only one."""
    if len(others) < 2:
        return {tuple(others)}
    counts = Counter(others)
    return {
        (a, b)
        for a, b in combinations_with_replacement(sort_cards(counts), 2)
        if a != b or counts[a] >= 2
    }


# -- what may be done: each action made once, handed out as it is (`made_once`) -----------------
@made_once
def offers(card: str, targets: tuple[int, ...]) -> tuple[OfferAction, ...]:
    """Every offer of `card` to one of `targets`, each with every claim, in `legal`'s order."""
    return tuple(
        {"type": "offer", "card": card, "to": to, "claim": claim}
        for to in targets
        for claim in CLAIMS
    )


@made_once
def passes(targets: tuple[int, ...]) -> tuple[PassAction, ...]:
    """Every pass of a card looked at to one of `targets`, with every claim."""
    return tuple({"type": "pass", "to": to, "claim": claim} for to in targets for claim in CLAIMS)


@made_once
def responses(targets: tuple[int, ...]) -> tuple[RoachAction, ...]:
    """What the receiver of a card not yet looked at may do, the card free to go on to
    `targets`: judge it; or look, pass it (looking on the way) or pass it on unseen."""
    judging: tuple[RoachAction, ...] = (
        {"type": "challenge", "believe": True},
        {"type": "challenge", "believe": False},
    )
    if not targets:
        return judging
    unseen: tuple[PassAction, ...] = tuple(
        {"type": "pass", "to": to, "claim": claim, "look": False}
        for to in targets
        for claim in CLAIMS
    )
    return (*judging, {"type": "peek"}, *passes(targets), *unseen)


@dataclass
class Flight:
    """The card travelling face down, its chain of claims and who has seen it."""

    card: str
    sender: int
    receiver: int
    claim: str
    chain: list[tuple[int, int, str]] = field(default_factory=list)
    seen_by: list[int] = field(default_factory=list)

    def held_by(self) -> list[int]:
        """Every seat the card has been with, in order: the offerer, then each receiver."""
        return [self.chain[0][0], *(receiver for _, receiver, _ in self.chain)]


@dataclass(frozen=True)
class PendingLay:
    """A player who took a special card and must now lay out cards."""

    seat: int
    claim: str
    special: str


class RoachState(State):
    """A game of Cockroach Poker Royal in progress."""

    log_limit = LOG_LIMIT
    handlers: ClassVar[dict[str, str]] = {
        "offer": "_offer",
        "challenge": "_challenge",
        "peek": "_peek",
        "pass": "_pass",
        "lay": "_lay",
    }
    refusals: ClassVar[dict[str, str]] = {
        "offer": "_why_not_offer",
        "peek": "_why_not_peek",
        "pass": "_why_not_pass",
        "challenge": "_why_not_challenge",
        "lay": "_why_not_lay",
    }

    def __init__(
        self,
        players: int,
        seed: int,
        hands: list[list[str]] | None = None,
        penalty: list[str] | None = None,
        first: int | None = None,
        deck: list[str] | None = None,
        fronts: list[list[str]] | None = None,
        loser: str | None = None,
    ) -> None:
        super().__init__(players, random.Random(seed))
        if loser not in (None, FOUR, MOST):
            raise SetupError(f"loser must be {FOUR} or {MOST}")
        self.loser_rule: LoserRule = "most" if loser == MOST else "four"
        self.lose_at = 5 if players == 2 else 4
        self.ended_by: int | None = None
        self.phase: Phase = "offer"
        self.turn = 0
        self.flight: Flight | None = None
        self.pending: PendingLay | None = None
        self.loser: int | None = None
        self.reason = ""
        if first is not None and (
            not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players
        ):
            raise SetupError(f"first must be a seat from 0 to {players - 1}")
        starter = first if first is not None else self.rng.randrange(players)
        if hands is not None:
            if deck is not None:
                raise SetupError("give either a deck order or hands/penalty/fronts, not both")
            self.hands, self.penalty, self.fronts = _stacked(players, hands, penalty, fronts)
        elif penalty is not None or fronts is not None:
            raise SetupError("a stacked game needs hands (penalty and fronts are optional)")
        else:
            self.hands, self.penalty, self.fronts = _dealt(players, starter, deck, self.rng)
        pile = f"shows {self.penalty[0]}" if self.penalty else "is empty"
        self.emit(
            "start",
            f"{{{starter}}} starts. The penalty pile {pile}.",
            seat=starter,
            card=self.penalty[0] if self.penalty else None,
        )
        self._begin_turn(starter)

    # -- the contract -------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == "over"

    def _waiting_for(self) -> frozenset[int]:
        return frozenset((self.turn,))

    def _legal(self, seat: int) -> list[RoachAction]:
        if seat != self.turn:
            return []
        # (actions made once: this runs for every action of a playout)
        if self.phase == "offer":
            targets = tuple(other for other in range(self.players) if other != seat)
            cards = sort_cards(set(self.hands[seat]))
            return list(chain.from_iterable(offers(card, targets) for card in cards))
        if self.phase == "respond":
            targets = tuple(self._pass_targets())
            return list(passes(targets) if self._peeked() else responses(targets))
        return [{"type": "lay", "cards": list(cards)} for cards in self._lay_choices()]

    def _view(self, seat: int | None) -> RoachOwnView:
        return {
            "phase": self.phase,
            "turn": None if self.over else self.turn,
            "hand": list(self.hands[seat]) if seat is not None else [],
            "hand_sizes": [len(hand) for hand in self.hands],
            "fronts": [list(front) for front in self.fronts],
            "front_counts": [self._counts(s) for s in range(self.players)],
            "lose_at": self.lose_at,
            "penalty_top": self.penalty[0] if self.penalty else None,
            "penalty_size": len(self.penalty),
            "flight": self._flight_view(seat),
            "lay": None
            if self.pending is None
            else {
                "seat": self.pending.seat,
                "claim": self.pending.claim,
                "special": self.pending.special,
            },
            "loser": self.loser,
            "loser_rule": self.loser_rule,
        }

    def _flight_view(self, seat: int | None) -> FlightView | None:
        flight = self.flight
        if flight is None:
            return None
        shown: FlightView = {
            "from": flight.sender,
            "to": flight.receiver,
            "claim": flight.claim,
            "claims": [{"from": s, "to": r, "claim": c} for s, r, c in flight.chain],
            "seen_by": list(flight.seen_by),
            "held_by": flight.held_by(),
        }
        if seat is not None and seat in flight.seen_by:
            shown["card"] = flight.card
        return shown

    def secrets(self, seat: int | None) -> Secrets:
        """Other hands, the face-down penalty cards, the card in flight for the unseen."""
        found: Secrets = {}
        seen = [self.hands[seat] if seat is not None else None, *self.fronts]
        for other, hand in enumerate(self.hands):
            if other != seat:
                # Two common cards ("fly, fly") look like any pair laid out in public, so a
                # hand is declared from three cards up (a real leak sends whole hands).
                hidden_group(found, hand, f"seat {other}'s hand", seen, minimum=3)
        hidden_group(found, self.penalty[1:], "the face-down penalty cards", seen, minimum=4)
        flight = self.flight
        if flight is not None and (seat is None or seat not in flight.seen_by):
            found[("card", flight.card)] = f"the card in flight is {flight.card}"
        return found

    def _result(self) -> RoachResult:
        return {
            "loser": self.loser,
            "winners": [seat for seat in range(self.players) if seat != self.loser],
            "scores": [1 if seat == self.loser else 0 for seat in range(self.players)],
            "reason": self.reason,
            "ended_by": self.ended_by,
            "face_up": [len(front) for front in self.fronts],
        }

    # -- actions (each given one of `legal(seat)`: `State.apply` checks) ---------------------
    def _offer(self, seat: int, action: OfferAction, now: float) -> None:
        card, to, claim = action["card"], action["to"], action["claim"]
        self.hands[seat].remove(card)
        self.flight = Flight(card, seat, to, claim, [(seat, to, claim)], [seat])
        self.phase, self.turn = "respond", to
        self.emit(
            "slid",
            f"You slide {card} to {{{to}}}, claiming {claim}.",
            (seat,),
            card=card,
            receiver=to,
        )
        self.emit(
            "offer",
            f"{{{seat}}} slides a card to {{{to}}}, claiming {claim}.",
            seat=seat,
            sender=seat,
            receiver=to,
            claim=claim,
            told=[seat],
        )

    def _peek(self, seat: int, action: PeekAction, now: float) -> None:
        flight = self.flight
        assert flight is not None
        flight.seen_by.append(seat)
        self.emit("seen", f"You peek: the card is {flight.card}.", (seat,), card=flight.card)
        self.emit("peek", f"{{{seat}}} peeks at the card.", seat=seat, peeker=seat, told=[seat])

    def _pass(self, seat: int, action: PassAction, now: float) -> None:
        flight = self.flight
        assert flight is not None
        to, claim, look = action["to"], action["claim"], action.get("look", True)
        looked_first = self._peeked()
        if look and not looked_first:  # a pass without a peek first peeks on the way
            flight.seen_by.append(seat)
            self.emit("seen", f"You peek: the card is {flight.card}.", (seat,), card=flight.card)
        flight.chain.append((seat, to, claim))
        flight.sender, flight.receiver, flight.claim = seat, to, claim
        self.turn = to
        verb = "passes" if looked_first else "peeks and passes" if look else "passes"
        unseen = "" if look else " without looking"
        self.emit(
            "pass",
            f"{{{seat}}} {verb} the card to {{{to}}}{unseen}, claiming {claim}.",
            seat=seat,
            sender=seat,
            receiver=to,
            claim=claim,
            looked=look,
        )

    def _peeked(self) -> bool:
        """True once the player holding the card in flight has looked at it."""
        flight = self.flight
        return flight is not None and flight.receiver in flight.seen_by

    def _challenge(self, seat: int, action: ChallengeAction, now: float) -> None:
        flight = self.flight
        assert flight is not None
        believe = action["believe"]
        card, claim, sender = flight.card, flight.claim, flight.sender
        truth = claim_is_true(card, claim)
        taker = sender if believe == truth else seat
        self.flight = None
        verdict = "true" if believe else "false"
        self.emit(
            "judge", f"{{{seat}}} says the claim {claim} is {verdict}.", seat=seat, believe=believe
        )
        outcome = (
            f"{{{seat}}} was right, so {{{sender}}} takes it"
            if taker == sender
            else f"{{{seat}}} was wrong and takes it"
        )
        self.emit(
            "reveal",
            f"The card is {card}: the claim was {'true' if truth else 'false'}. {outcome}.",
            card=card,
            truth=truth,
            taker=taker,
        )
        if card in SPECIALS:
            self._take_special(taker, card, claim)
        else:
            self._lay_out(taker, card)
            self._after_laying(taker)

    def _lay(self, seat: int, action: LayAction, now: float) -> None:
        cards = action["cards"]
        self.pending = None
        self.emit(
            "lay", f"{{{seat}}} lays out {' and '.join(cards)}.", seat=seat, cards=list(cards)
        )
        for card in cards:
            self.hands[seat].remove(card)
            self._lay_out(seat, card)
        self._after_laying(seat)

    # -- refusals: what a player is told (legality itself is `legal`'s) ----------------------
    def normal_form(self, action: Action) -> Action:
        """A claim may name an animal by another name (`parse_claim`: "toad" is a frog), and a
        pass may say that it looks (``look: true``, the default)."""
        claim = parse_claim(action.get("claim"))
        if claim == action.get("claim") and action.get("look") is not True:
            return action
        normal = {key: value for key, value in action.items() if (key, value) != ("look", True)}
        if claim is not None:
            normal["claim"] = claim
        return normal

    def why_illegal(self, seat: int, action: Action) -> str | None:
        kind = action["type"]
        wrong_phase = self._why_not_now(seat, PHASE_OF[kind])
        if wrong_phase is not None:
            return wrong_phase
        return super().why_illegal(seat, action)

    def _why_not_now(self, seat: int, phase: Phase) -> str | None:
        """Why `seat` may not act at all now, or not with an action of `phase`."""
        if seat != self.turn:
            return "it is not your turn"
        if self.phase == phase:
            return None
        return {
            "offer": "you must first offer a card to another player",
            "respond": "a card was slid to you: say true or false, or pass it on",
            "lay": "you took a special card: first lay out one card of the claim or two others",
        }[self.phase]

    def _why_not_offer(self, seat: int, action: Action) -> str | None:
        card = action.get("card")
        if not is_card(card):
            return "say which card to offer, like bat or royal-fly"
        if card not in self.hands[seat]:
            return f"you have no {card} card in your hand"
        return self._why_not_target(action.get("to"), seat, "offer") or self._why_not_claim(
            action.get("claim")
        )

    def _why_not_peek(self, seat: int, action: Action) -> str | None:
        if self._peeked():
            return "you have already looked at this card: now pass it on"
        return self._why_not_passed()

    def _why_not_pass(self, seat: int, action: Action) -> str | None:
        stuck = self._why_not_passed()
        to = action.get("to")
        wrong = stuck or self._why_not_target(to, seat, "pass")
        if wrong is not None:
            return wrong
        flight = self.flight
        if flight is not None and to not in self._pass_targets():
            if to in flight.seen_by:
                return "that player has already seen this card: pass it to someone new"
            return "the card has already been with that player: pass it to someone new"
        look = action.get("look", True)
        if not isinstance(look, bool):
            return "'look' must be true or false: whether you look before passing"
        if self._peeked() and not look:
            return "you have already looked at this card: pass it on as it is"
        return self._why_not_claim(action.get("claim"))

    def _why_not_challenge(self, seat: int, action: Action) -> str | None:
        if not isinstance(action.get("believe"), bool):
            return "say whether you believe the claim: believe true or false"
        if self._peeked():
            return "you have looked at the card: now you must pass it on"
        return None

    def _why_not_lay(self, seat: int, action: Action) -> str | None:
        pending = self.pending
        cards = action.get("cards")
        if not isinstance(cards, list) or not all(is_card(card) for card in cards):
            return "say which cards to lay out, like [bat] or [fly, mouse]"
        if Counter(cards) - Counter(self.hands[seat]):
            return "you can only lay out cards from your hand"
        if pending is None:
            return None
        others = self._others(pending)
        if pending.special in cards:
            return f"you cannot lay out the {pending.special} you just took"
        if len(cards) == 1 and matches(cards[0], pending.claim):
            return None
        if len(cards) == min(2, len(others)):
            return None
        kind = "royal card" if pending.claim == ROYAL else f"{pending.claim} card"
        if len(others) < 2:
            return f"lay out one {kind}, or your only other card"
        return f"lay out one {kind}, or any two other cards"

    def _why_not_passed(self) -> str | None:
        """Why the card in flight may not be passed at all (it has been with everyone else)."""
        if self.flight is None or self._pass_targets():
            return None
        if self.players == 2:
            return "with two players a card cannot be passed: say true or false"
        return "the card has been with everyone else: you must say true or false"

    def _why_not_target(self, value: object, seat: int, verb: str) -> str | None:
        if wrong := self.why_not_a_seat(value, f"say which player to {verb} the card to"):
            return wrong
        if value == seat:
            return f"you cannot {verb} a card to yourself"
        return None

    @staticmethod
    def _why_not_claim(value: object) -> str | None:
        if parse_claim(value) is None:
            return f"claim one of: {', '.join(ANIMALS)} or royal"
        return None

    # -- what may be done ---------------------------------------------------------------------
    def _pass_targets(self) -> list[int]:
        """Players the card in flight has not been with (looked at or not)."""
        flight = self.flight
        assert flight is not None
        held = flight.held_by()
        return [seat for seat in range(self.players) if seat not in held]

    def _others(self, pending: PendingLay) -> list[str]:
        """The hand of the player who must lay, without the special card just taken."""
        others = list(self.hands[pending.seat])
        others.remove(pending.special)
        return others

    def _lay_choices(self) -> list[tuple[str, ...]]:
        """Every distinct legal lay for the player who took a special card."""
        pending = self.pending
        assert pending is not None
        choices = lay_choices(self._others(pending), pending.claim)
        ordered = sorted(choices, key=lambda cs: (len(cs), [_ORDER[c] for c in cs]))
        # Two cards may be named in either order: the first royal pulls the first penalty card.
        return [named for lay in ordered for named in dict.fromkeys((lay, lay[::-1]))]

    # -- moving cards -------------------------------------------------------------------------
    def _take_special(self, seat: int, card: str, claim: str) -> None:
        """`seat` takes a special card into their hand and must lay out cards for it."""
        self._add_to_hand(seat, card)
        if len(self.hands[seat]) == 1:
            self.emit(
                "special_out",
                f"{{{seat}}} has no other card, so the {card} goes out in front of them.",
                seat=seat,
                card=card,
            )
            self.hands[seat].remove(card)
            self.fronts[seat].append(card)
            self._after_laying(seat)
            return
        self.pending = PendingLay(seat, claim, card)
        self.phase, self.turn = "lay", seat
        kind = "royal card" if claim == ROYAL else f"{claim} card"
        rest = "two other cards" if len(self.hands[seat]) > 2 else "their only other card"
        self.emit(
            "special_taken",
            f"{{{seat}}} takes the {card} into their hand and must lay out one {kind} or {rest}.",
            seat=seat,
            card=card,
            claim=claim,
        )

    def _lay_out(self, seat: int, card: str) -> None:
        """Put `card` face up in front of `seat`; a royal card pulls the penalty card too."""
        self.fronts[seat].append(card)
        if not is_royal(card):
            return
        if not self.penalty:
            self.emit(
                "penalty_empty", "The penalty pile is empty: there is no penalty card to take."
            )
            return
        pulled = self.penalty.pop(0)
        # A penalty card never pulls again, and a special one goes to the hand with no effect.
        if pulled in SPECIALS:
            self._add_to_hand(seat, pulled)
            self.emit(
                "penalty_to_hand",
                f"{{{seat}}} takes the {pulled} from the penalty pile into their hand.",
                seat=seat,
                card=pulled,
            )
        else:
            self.fronts[seat].append(pulled)
            self.emit(
                "penalty",
                f"{{{seat}}} also takes {pulled} from the penalty pile.",
                seat=seat,
                card=pulled,
            )
        top = f"shows {self.penalty[0]}" if self.penalty else "is now empty"
        self.emit(
            "penalty_top",
            f"The penalty pile {top}.",
            card=self.penalty[0] if self.penalty else None,
        )

    def _after_laying(self, seat: int) -> None:
        """Check `seat`'s face-up cards, then give them the next turn."""
        counts = self._counts(seat)
        animal = max(ANIMALS, key=counts.__getitem__)
        if counts[animal] >= self.lose_at:
            self._lose(seat, f"{counts[animal]} {PLURALS[animal]} in front of them")
            return
        self._begin_turn(seat)

    def _begin_turn(self, seat: int) -> None:
        self.phase, self.turn = "offer", seat
        if not self.hands[seat]:
            self._lose(seat, "no card left to offer")

    def _lose(self, seat: int, reason: str) -> None:
        """The game ends with `seat` at `reason`; who loses is the `loser` option's to say."""
        self.phase, self.ended_by = "over", seat
        if self.loser_rule == FOUR:
            self.loser, self.reason = seat, reason
            self.emit(
                "lose",
                f"{{{seat}}} has {reason} and loses! Everyone else wins.",
                seat=seat,
                loser=seat,
            )
            return
        loser = most_face_up(self.fronts, seat)
        count = len(self.fronts[loser])
        self.loser, self.reason = loser, f"the most face-up cards ({count})"
        self.emit("end", f"{{{seat}}} has {reason}: the game ends.", seat=seat, ended_by=seat)
        tied = [s for s, front in enumerate(self.fronts) if len(front) == count]
        tie = f", tied with {_names(s for s in tied if s != loser)}" if len(tied) > 1 else ""
        self.emit(
            "lose",
            f"{{{loser}}} has the most face-up cards ({count}{tie}) and loses! Everyone else wins.",
            seat=loser,
            loser=loser,
            face_up=[len(front) for front in self.fronts],
            tied=tied,
        )

    def _add_to_hand(self, seat: int, card: str) -> None:
        self.hands[seat] = sort_cards([*self.hands[seat], card])

    def _counts(self, seat: int) -> dict[str, int]:
        counts = dict.fromkeys(ANIMALS, 0)
        for card in self.fronts[seat]:
            animal = ANIMAL_OF[card]
            if animal is not None:
                counts[animal] += 1
        return counts


def most_face_up(fronts: Sequence[Sequence[str]], ended_by: int) -> int:
    """Who loses under ``loser=most``: the player with the most face-up cards. Among players
    tied for the most, the one who ended the game, else the one with the most of one animal,
    else the first of them after the one who ended it, in seat order."""
    players = len(fronts)
    most = max(len(front) for front in fronts)
    tied = [seat for seat, front in enumerate(fronts) if len(front) == most]

    def one_animal(seat: int) -> int:
        counts = Counter(animal_of(card) for card in fronts[seat] if card not in SPECIALS)
        return max(counts.values(), default=0)

    return min(
        tied,
        key=lambda seat: (seat != ended_by, -one_animal(seat), (seat - ended_by) % players),
    )


def _names(seats: Iterable[int]) -> str:
    """`{1}`, `{1} and {3}`, `{1}, {2} and {3}`."""
    named = [f"{{{seat}}}" for seat in seats]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


# -- setup ---------------------------------------------------------------------------------------
def _dealt(
    players: int, first: int, deck: list[str] | None, rng: random.Random
) -> tuple[list[list[str]], list[str], list[list[str]]]:
    """Shuffle (or take `deck`, top first), form the penalty pile and deal from `first`."""
    if deck is None:
        cards = list(DECK)
        rng.shuffle(cards)
    else:
        cards = _codes(deck, "deck")
        if Counter(cards) != Counter(DECK):
            raise SetupError("deck must hold all 65 cards: 8 of each animal, 7 royals, 2 specials")
    penalty, rest = cards[:PENALTY_SIZE], cards[PENALTY_SIZE:]
    each, leftover = divmod(len(rest), players)
    hands: list[list[str]] = [[] for _ in range(players)]
    for index, card in enumerate(rest[: each * players]):
        hands[(first + index) % players].append(card)
    if leftover:
        hands[first].append(rest[each * players])
        penalty += rest[each * players + 1 :]
    return [sort_cards(hand) for hand in hands], penalty, [[] for _ in range(players)]


def _stacked(
    players: int,
    hands: object,
    penalty: object,
    fronts: object,
) -> tuple[list[list[str]], list[str], list[list[str]]]:
    """Validate a stacked setup: hands, penalty (top first) and fronts, per seat."""
    stacked_hands = _per_seat(hands, players, "hands")
    stacked_fronts = _per_seat(fronts, players, "fronts") if fronts is not None else None
    stacked_penalty = _codes(penalty if penalty is not None else [], "penalty")
    every = Counter(stacked_penalty)
    for seat_cards in (stacked_hands, stacked_fronts or []):
        for cards in seat_cards:
            every.update(cards)
    too_many = sorted(code for code, count in every.items() if count > DECK_COUNTS[code])
    if too_many:
        raise SetupError(f"the setup names more cards than the deck holds: {', '.join(too_many)}")
    lose_at = 5 if players == 2 else 4
    for seat, front in enumerate(stacked_fronts or []):
        counts = Counter(animal_of(card) for card in front if card not in SPECIALS)
        if counts and max(counts.values()) >= lose_at:
            raise SetupError(f"seat {seat} would already have lost with those face-up cards")
    return (
        [sort_cards(hand) for hand in stacked_hands],
        stacked_penalty,
        stacked_fronts or [[] for _ in range(players)],
    )


def _per_seat(value: object, players: int, what: str) -> list[list[str]]:
    if not isinstance(value, (list, tuple)) or len(value) != players:
        raise SetupError(f"{what} must list one list of cards per seat ({players})")
    return [_codes(cards, f"{what} {seat}") for seat, cards in enumerate(value)]


def _codes(value: object, what: str) -> list[str]:
    if not isinstance(value, (list, tuple)):
        raise SetupError(f"{what} must be a list of card codes")
    for code in value:
        if not is_card(code):
            raise SetupError(f"{what}: {code!r} is not a card (e.g. bat, royal-fly, joker)")
    return [str(code) for code in value]
