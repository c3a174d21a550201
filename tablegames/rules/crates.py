"""Crates, a Crazy Eights variant for 2–5 players: the rules engine.

Rules: ``rules/texts/crates.md``, what players read (``tablegames rules crates``). They follow
the project's spec ("the spec" below), made from the seed, the original rule text (Gujarati,
seed ``002_090a14f8d8bf6371``); neither is in this repository, so the seed is quoted here in
English, the three readings below also in the original.

Where the seed can be read two ways the engine takes one, and the rules text tells players so
("How this table reads the rules"):

- A 3 cancels before it scores −50: each 3 cancels the highest other card left in the hand, and
  only a 3 left with nothing to cancel scores −50. The seed gives the −50 to a hand of nothing
  but 3s, «જો કોઈ ખેલાડીના હાથમાં માત્ર 3 જ બાકી હોય, તો તેઓ તેમાંથી દરેક માટે પચાસ પોઈન્ટ લઈ જાય છે»
  ("if only 3s are left in a player's hand, they take fifty points for each"), and lets a 3
  cancel «ખેલાડી તેમના હાથમાં રહેલા અન્ય કાર્ડને રદ કરવા માટે 3 નો ઉપયોગ પણ કરી શકે છે» ("a player
  can also use a 3 to cancel another card in their hand"), with the example 3-2-8 scoring 20.
- The 7 makes the next player draw one card without losing their turn: they then play as
  usual. The seed's 7 only says «આગલો ખેલાડી કાર્ડ દોરે છે» ("the next player draws a card"),
  where the 4 says "skip the next player"; a draw is not a skip.
- A late "Crates!" counts until someone calls Dope!: a player holding one unannounced card may
  still announce it at any moment, and Dope! is only for one who has not. The seed: «એકવાર
  ખેલાડીના હાથમાં માત્ર એક જ કાર્ડ બાકી હોય, તો તેણે તેની જાહેરાત આમ કહીને. જો કોઈ ખેલાડી આમ
  કરવામાં નિષ્ફળ જાય, તો પ્રતિસ્પર્ધી તે ખેલાડીને મૂર્ખ કહીને ઇન્ટરજેકટ કરી શકે છે» ("once a player
  has only one card left in hand, they must announce it; if a player fails to do so, an
  opponent may interject by calling them Dope"): the failure is caught by the call, not by a
  clock.
- A card follows by suit or rank, never by colour alone (the spec's reading). The seed's first
  sentence says «તેઓએ એક જ પોશાક અથવા રંગનું કાર્ડ રમવું જોઈએ» ("they must play a card of the same
  suit or colour"), the next «જો કોઈ ખેલાડી સમાન પોશાક અથવા ક્ષમતાનું કાર્ડ રમવામાં અસમર્થ હોય, તો
  તેણે ડ્રોના પાઈલમાંથી એક કાર્ડ દોરવું જોઈએ» ("if a player cannot play a card of the same suit or
  ability, they must draw a card"). The seed gives the abilities rank by rank, so a card of "the
  same ability" is one of the same rank (not any card with none: a J on a Q); and a colour
  match would leave the 9 nothing to do, whose ability is to change the suit to «સમાન રંગનો અન્ય
  સૂટ» ("the other suit of the same colour").
- A player dealt a single card (round 8) has nothing to announce: only a play that leaves one
  card creates the duty (the spec's reading). The seed asks for it «એકવાર ખેલાડીના હાથમાં માત્ર
  એક જ કાર્ડ બાકી હોય» ("once a player has only one card *left* in hand"): a card is left when
  the others have gone, and a dealt hand has shed nothing. The announcement warns the table that
  a player is about to go out, and in round 8 everyone can see that everyone is; calling Dope!
  on a whole table of single cards would make the round a shouting match. A player dealt one
  card who draws and then plays down to one card again must announce it as usual.

What neither the spec nor the seed settles, each with the seed sentence it follows or the
silence it fills:

- "The next player" of a 4 or a 7 is the next seat in the current direction: the seed says
  "skip the next player", "the next player draws a card" and, for a 10, "reverse play and go
  the other way", so the next player is the one play goes to. A 7 makes that player draw even
  if they have lost their next turn to Dope!; the turn then skips them as usual (the seed is
  silent on the two together).
- A final 2's crank (the seed: the last card's ability "must still be followed by whoever it
  applies to") is silent on the players left: if every remaining player goes out during it,
  the round ends; with one player left (two-player games) it keeps coming back to them: they
  must add their aces and 2s while they can, then draw the count.
- If two players go out in one round (the second during a final crank), ``went_out`` names the
  first and both score 0: the seed only says "the round ends once a player plays their final
  card". A lost turn still pending when a round ends is forgotten ("they lose their next turn"
  is silent on a round that ends first).
- ``announce: True`` on a play that does not leave exactly one card is illegal (it names a
  mistake the player can fix), as is announcing when there is no duty to announce: the seed
  asks for it only "once a player has only one card left in hand".
- Dope! called while it is the caught player's turn (after a 6, say) leaves that turn to them:
  it is the *next* one they lose ("they lose their next turn").
- When a round ends the next one is dealt at once (the seed is silent on any pause); the view's
  ``last_round`` keeps the summary.
- ``deck`` (top first) may replace round 1's shuffle; ``dealer``/``hands``/``upcard``/``draw`` stack
  round 1 exactly (``hands`` and ``upcard`` go together; ``draw`` defaults to empty). These are
  set-ups for tests and replays, not rules.

Rules version 2: a 9 is no longer wild (it must match suit or rank; the seed calls only the 8
"a wild card", and the 9 lets its player "change the discard pile to the other suit of the same
colour"). Saved tables from version 1 were played with wild 9s.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import ClassVar

from .cards import (
    DECK,
    RANK_OF,
    RANK_ORDER,
    RANKS,
    SUIT_NAMES,
    SUIT_OF,
    SUITS,
    colour_partner,
    is_card,
    parse_cards,
    rank,
    suit,
)
from .contract import WORD, Action, Result, Secrets
from .core import SetupError, State, get_game
from .crates_types import (
    TYPES,
    CratesAction,
    CratesOwnView,
    CratesView,
    DopeAction,
    DrawAction,
    LastRound,
    Phase,
    PlayAction,
    SuitAction,
)

FULL_HAND_SIZES = (8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8)
SHORT_HAND_SIZES = FULL_HAND_SIZES[:8]
CARD_POINTS = {
    "A": 1, "2": 20, "3": 0, "4": 15, "5": 30, "6": 30, "7": 20,
    "8": 50, "9": 30, "10": 25, "J": 10, "Q": 10, "K": 10,
}  # fmt: skip
UNCANCELLED_THREE = -50
CRANK_VALUES = {"A": 1, "2": 2}
#: What a card does when played off a crank, by rank (the handler); other ranks just pass the turn.
ABILITIES = {
    "2": "_start_crank",
    "4": "_skip_next",
    "5": "_everyone_draws",
    "6": "_again",
    "7": "_next_draws",
    "10": "_reverse",
}
#: A play's fields at their defaults, which `normal_form` leaves out, as `legal` lists plays.
PLAY_DEFAULTS = {"announce": False, "suit": None}
#: Each seat alone, as `waiting_for` names it (one set each, not one per move).
ONE_SEAT = tuple(frozenset((seat,)) for seat in range(8))  # (five at most play)
WILD_RANKS = frozenset("8")  # playable on anything outside a crank
SUIT_NAMING_RANKS = frozenset("89")  # their player names the suit to follow


def score_hand(hand: list[str]) -> tuple[int, list[str]]:
    """Points for a hand left at the end of a round, and the cards the 3s cancelled (with the 3s).

    Each 3 cancels one other card, highest value first; both score 0. A 3 left over scores -50.
    """
    threes = [card for card in hand if rank(card) == "3"]
    others = sorted(
        (card for card in hand if rank(card) != "3"), key=lambda c: -CARD_POINTS[rank(c)]
    )
    paired = min(len(threes), len(others))
    cancelled = threes[:paired] + others[:paired]
    points = sum(CARD_POINTS[rank(c)] for c in others[paired:])
    points += UNCANCELLED_THREE * (len(threes) - paired)
    return points, cancelled


def suits_for(card: str) -> tuple[str, ...]:
    """The suits a player may name with an 8 (any) or a 9 (its own or its colour partner)."""
    if rank(card) == "8":
        return SUITS
    return (suit(card), colour_partner(suit(card)))


# Legality is a set lookup: these tables are worked out once, not per card per turn.
#: The cards that may join a running crank.
CRANK_CARDS = frozenset(card for card in DECK if rank(card) in CRANK_VALUES)
#: The cards that fit with no crank running, by (top card's rank, suit to follow): the suit,
#: the rank, or an 8. A 9 names a suit but is no wild card: it must fit like any other.
FITTING = {
    (top_rank, to_follow): frozenset(
        card
        for card in DECK
        if rank(card) in WILD_RANKS or suit(card) == to_follow or rank(card) == top_rank
    )
    for top_rank in RANKS
    for to_follow in SUITS
}
#: The 8s: they fit on anything outside a crank.
WILD_CARDS = frozenset(card for card in DECK if rank(card) in WILD_RANKS)
#: The 8s and 9s: a play of one names the suit to follow.
SUIT_NAMING_CARDS = frozenset(card for card in DECK if rank(card) in SUIT_NAMING_RANKS)
#: The suits a player may name with each 8 or 9.
NAMEABLE_SUITS = {card: suits_for(card) for card in SUIT_NAMING_CARDS}
#: "an 8", "a 10", "an ace": the ranks as a refusal sentence names them.
_A_RANK = {card_rank: f"a {card_rank}" for card_rank in RANKS} | {"A": "an ace", "8": "an 8"}
#: How a refusal sentence says which cards fit, by (top card's rank, suit to follow).
_FIT_ADVICE = {
    (top_rank, to_follow): (
        f"play a {SUIT_NAMES[to_follow][:-1]} or an 8"  # on an 8 its rank is the wild card
        if top_rank in WILD_RANKS
        else f"play a {SUIT_NAMES[to_follow][:-1]}, {_A_RANK[top_rank]}, or an 8"
    )
    for top_rank in RANKS
    for to_follow in SUITS
}


class CratesState(State):
    """A game of Crates in progress (all rounds).

    One fast path, for bots' look-ahead (quiet states, thousands of playouts per decision):
    the two commonest events, a play and a draw, skip building their sentences when quiet.
    Otherwise speed comes from the rules being data: which cards fit is a set lookup
    (`FITTING`), and a card's ability one lookup (`ABILITIES`).

    What bots' look-ahead reads (public, never set by them): `hands`, `draw_pile`,
    `discard_pile`, `scores`, `turn`, `phase`, `crank`, `suit`, `direction`, `must_announce`,
    `round_index`, `last_round`; it asks `fitting()` and builds states with `from_view`.
    """

    handlers: ClassVar[dict[str, str]] = {
        "play": "_play",
        "draw": "_draw",
        "suit": "_name_suit",
        "announce": "_announce",
        "dope": "_dope",
    }
    #: The hands at the end of the last round: public then, maybe dealt again since.
    history: ClassVar[frozenset[str]] = frozenset(("last_round",))
    refusals: ClassVar[dict[str, str]] = {
        "play": "_why_not_play",
        "draw": "_why_not_draw",
        "suit": "_why_not_suit",
        "announce": "_why_not_announce",
        "dope": "_why_not_dope",
    }
    any_time = frozenset({"announce", "dope"})  # (see `State.question`)
    call_outs = frozenset({"dope"})  # bots give a late "Crates!" a fair moment

    def __init__(
        self,
        players: int,
        seed: int,
        short: bool = False,
        dealer: int | None = None,
        hands: list[list[str]] | None = None,
        upcard: str | None = None,
        draw: list[str] | None = None,
        deck: list[str] | None = None,
    ) -> None:
        super().__init__(players, random.Random(seed))
        self._clear_table(SHORT_HAND_SIZES if short else FULL_HAND_SIZES)
        self._round_one = _check_stacked_round(players, hands, upcard, draw)
        self._deck_order = _check_deck(deck, stacked=self._round_one is not None)
        if dealer is None:
            self.first_dealer = self._draw_for_dealer()
        else:
            if not isinstance(dealer, int) or not 0 <= dealer < players:
                raise SetupError(f"dealer must be a seat from 0 to {players - 1}")
            self.first_dealer = dealer
            self.emit("dealer", f"{{{dealer}}} deals first.", seat=dealer)
        self.dealer = self.first_dealer
        self._start_round()

    def _clear_table(self, hand_sizes: tuple[int, ...]) -> None:
        """Every attribute of a game, as before the first deal (round 1, nobody's cards)."""
        players = self.players
        self.hand_sizes_by_round = hand_sizes
        self.scores = [0] * players
        self.round_index = 0
        self.last_round: LastRound | None = None
        self.phase: Phase = "play"  # (`suit`: the dealer names one for a turned-up 8 or 9)
        self.over = False
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.draw_pile: list[str] = []  # top card last
        self.discard_pile: list[str] = []  # top card last
        self.suit = "S"
        self.crank = 0
        self.direction = 1
        self.dealer = self.first_dealer = self.turn = 0
        self.announced: set[int] = set()
        self.must_announce: set[int] = set()  # hold one card, not announced: Dope! catches them
        self.lost_turn: set[int] = set()
        self.passed: set[int] = set()
        self.gone_out: int | None = None
        self._round_one = self._deck_order = None  # set-ups for round 1 (see __init__)

    @classmethod
    def from_view(
        cls,
        seen: Mapping[str, object],
        rng: random.Random,
        hands: list[list[str]] | None = None,
        draw: list[str] | None = None,
    ) -> CratesState:
        """A quiet state matching a `CratesView` (see `State.from_view`), drawing from `rng` from
        then on.

        `hands` (every seat's; the viewer's own as the view shows it) and `draw` (the draw pile,
        top first) fill in the hidden cards; without them the unseen cards are dealt at random.
        """
        view = TYPES.view(seen)  # (what `view` of a crates state is)
        state = cls.__new__(cls)
        State.__init__(state, view["players"], rng)
        state.quiet, state.trusted = True, True  # (a bot's look-ahead)
        state.game = get_game(view["game"])
        state._clear_table(FULL_HAND_SIZES[: view["rounds"]])
        if hands is None or draw is None:
            hands, draw = deal_unseen(view, rng)
        state.hands, state.draw_pile = [list(hand) for hand in hands], list(reversed(draw))
        state.scores, state.discard_pile = list(view["scores"]), list(view["discard"])
        state.phase, state.suit, state.crank = view["phase"], view["suit"], view["crank"]
        state.over = state.phase == "over"
        state.direction, state.last_round = view["direction"], view["last_round"]
        state.round_index = view["round"] - 1
        state.turn = view["turn"] if view["turn"] is not None else 0
        state.dealer = view["dealer"]
        state.first_dealer = (state.dealer - state.round_index) % state.players
        state.announced, state.must_announce = set(view["announced"]), set(view["exposed"])
        state.lost_turn = set(view["lost_turn"])
        state.gone_out = next((s for s, size in enumerate(view["hand_sizes"]) if size == 0), None)
        return state

    # -- the contract -------------------------------------------------------------------------
    def _waiting_for(self) -> frozenset[int]:
        return ONE_SEAT[self.turn]  # the suit to name, a play or a draw: always one seat

    def _legal(self, seat: int) -> Sequence[CratesAction]:
        # (A `Sequence`, which a list of one kind of action is: no copy to widen its type.)
        actions: Sequence[CratesAction]
        if seat != self.turn:
            actions = []
        elif self.phase == "suit":
            upcard = self.discard_pile[-1]
            actions = [{"type": "suit", "suit": s} for s in suits_for(upcard)]
        else:
            actions = self._turn_actions(seat)
        if not self.must_announce:
            return actions
        # Someone holds one card unannounced: the calls are open.
        calls: list[CratesAction] = [{"type": "announce"}] if seat in self.must_announce else []
        calls += [
            {"type": "dope", "target": target}
            for target in sorted(self.must_announce)
            if target != seat
        ]
        return [*actions, *calls]

    #: The phase is "over" (`_end_round` sets both after the last round): an attribute, not
    #: the base class's property, as it is asked several times a move.
    over: bool = False

    def _turn_actions(self, seat: int) -> Sequence[CratesAction]:
        hand = self.hands[seat]
        fitting = self.fitting()
        # (a play that leaves one card may announce Crates! with it)
        made = PLAYS_ANNOUNCING if len(hand) == 2 else PLAYS
        plays: list[CratesAction] = []
        for card in hand:
            if card in fitting:
                plays += made[card]
        if State.checking:  # (the tests: what was handed out is still as it was made)
            _check_made(plays)
        return plays or [DRAW]

    def _view(self, seat: int | None) -> CratesOwnView:
        hand = list(self.hands[seat]) if seat is not None else []
        unplayable: dict[str, str] = {}
        if seat is not None and seat == self.turn and self.phase == "play":
            fitting = self.fitting()
            for card in hand:
                if card not in fitting:
                    unplayable[card] = self._misfit(card, hand)
        return {
            "hand": hand,
            "hand_sizes": [len(h) for h in self.hands],
            "top": self.discard_pile[-1] if self.discard_pile else None,
            "suit": self.suit,
            "crank": self.crank,
            "direction": self.direction,
            "turn": None if self.over else self.turn,
            "phase": self.phase,
            "dealer": self.dealer,
            "round": self.round_index + 1 if not self.over else len(self.hand_sizes_by_round),
            "rounds": len(self.hand_sizes_by_round),
            "hand_size": self.hand_sizes_by_round[min(self.round_index, self.rounds_total - 1)],
            "scores": list(self.scores),
            "announced": sorted(self.announced),
            "exposed": sorted(self.must_announce),
            "lost_turn": sorted(self.lost_turn),
            "draw_size": len(self.draw_pile),
            "discard": list(self.discard_pile),
            "unplayable": unplayable,
            "last_round": self.last_round,
        }

    def secrets(self, seat: int | None) -> Secrets:
        """Other hands and the draw pile, card by card (each card is the only one of its code,
        so its code betrays it wherever it is written)."""
        found: Secrets = {}
        for other, hand in enumerate(self.hands):
            if other != seat:
                for card in hand:
                    found.setdefault((WORD, card), f"seat {other} holds {card}")
        for card in self.draw_pile:
            found.setdefault((WORD, card), f"{card} is in the draw pile")
        return found

    def _result(self) -> Result:
        best = min(self.scores)
        return {
            "scores": list(self.scores),
            "winners": [seat for seat, total in enumerate(self.scores) if total == best],
            "rounds": self.rounds_total,
        }

    @property
    def rounds_total(self) -> int:
        return len(self.hand_sizes_by_round)

    # -- actions (each given one of `legal(seat)`: `State.apply` checks) ---------------------
    def _play(self, seat: int, action: PlayAction, now: float) -> None:
        card, named = action["card"], action.get("suit")
        announce = action.get("announce", False)
        hand = self.hands[seat]
        hand.remove(card)
        self.discard_pile.append(card)
        self.suit = named or SUIT_OF[card]  # a suit for an 8 or 9 (see `_turn_actions`)
        self.passed.clear()
        self._hand_changed(seat)
        if len(hand) == 1:
            (self.announced if announce else self.must_announce).add(seat)
        if not self.quiet:  # the fast path (see the class docstring)
            names = f" and names {SUIT_NAMES[named]}" if named is not None else ""
            text = f"{{{seat}}} plays {card}{names}."
            self.emit("play", text, seat=seat, card=card, suit=named)
        if announce:
            self.emit("announce", f"{{{seat}}} announces Crates!", seat=seat)
        if not hand and self.gone_out is None:
            self.gone_out = seat
            self.emit("out", f"{{{seat}}} goes out!", seat=seat)
        self._resolve(seat, card)
        # A player who went out ends the round once the card's ability is done; a crank (from a
        # final 2, or an ace or 2 played out on a crank) first runs among the others.
        if self.gone_out is not None and (self.crank == 0 or not any(self.hands)):
            self._end_round(blocked=False)

    def _draw(self, seat: int, action: DrawAction, now: float) -> None:
        if self.crank:  # (nobody may draw holding an ace or a 2 for it)
            count, self.crank = self.crank, 0
            self.emit(
                "crank_lost", f"{{{seat}}} cannot keep the crank of {count} going.", seat=seat
            )
            self._draw_cards(seat, count)
            self.passed.clear()
            if self.gone_out is not None:
                self._end_round(blocked=False)
            else:
                self._pass_turn(seat)
            return
        drawn = self._draw_cards(seat, 1)
        if drawn:
            self.passed.clear()
        else:
            self.passed.add(seat)
            self.emit("pass", f"{{{seat}}} has nothing to draw and passes.", seat=seat)
            if len(self.passed) == self.players:
                self.emit("blocked", "Nobody can play or draw: the round is blocked.")
                self._end_round(blocked=True)
                return
        self._pass_turn(seat)

    def _name_suit(self, seat: int, action: SuitAction, now: float) -> None:
        named = action["suit"]
        self.suit = named
        self.phase = "play"
        self.emit("suit", f"{{{seat}}} names {SUIT_NAMES[named]}.", seat=seat, suit=named)
        self._pass_turn(seat)

    def _announce(self, seat: int, action: Action, now: float) -> None:
        self.must_announce.discard(seat)
        self.announced.add(seat)
        self.emit("announce", f"{{{seat}}} announces Crates!", seat=seat)

    def _dope(self, seat: int, action: DopeAction, now: float) -> None:
        target = action["target"]
        self.emit(
            "dope",
            f"{{{seat}}} calls Dope! on {{{target}}}, who draws two and loses a turn.",
            seat=seat,
            target=target,
        )
        self._draw_cards(target, 2)
        self.lost_turn.add(target)

    # -- refusals: what a player is told (legality itself is `legal`'s) ----------------------
    def normal_form(self, action: Action) -> Action:
        """A play's defaults may be spelt out: ``announce: false``, and ``suit: null`` for a
        card that names none."""
        if action.get("announce", True) is not False and action.get("suit", "") is not None:
            return action
        return {
            key: value
            for key, value in action.items()
            if not (key in PLAY_DEFAULTS and value is PLAY_DEFAULTS[key])
        }

    def _why_not_play(self, seat: int, action: Action) -> str | None:
        turn = self._why_not_turn(seat)
        card = action.get("card")
        if turn is not None or not is_card(card):
            # (an example from the seat's own hand: any other card code may be a secret)
            example = f", like {self.hands[seat][0]}" if self.hands[seat] else ""
            return turn or f"say which card to play{example}"
        assert isinstance(card, str)
        hand = self.hands[seat]
        if card not in hand:
            return f"you do not hold {card}"
        if card not in self.fitting():
            return self._misfit(card, hand)
        named = action.get("suit")
        if card in SUIT_NAMING_CARDS and named not in NAMEABLE_SUITS[card]:
            choices = " or ".join(SUIT_NAMES[s] for s in suits_for(card))
            return f"name a suit for your {card}: {choices}"
        if card not in SUIT_NAMING_CARDS and named is not None:
            return f"only an 8 or a 9 lets you name a suit, not {card}"
        announce = action.get("announce", False)
        if announce not in (True, False):
            return "'announce' must be true or false"
        if announce and len(hand) != 2:
            return "you can only announce Crates! with a play that leaves one card"
        return None

    def _why_not_draw(self, seat: int, action: Action) -> str | None:
        turn = self._why_not_turn(seat)
        if turn is not None:
            return turn
        hand = self.hands[seat]
        keepers = [c for c in hand if c in CRANK_CARDS] if self.crank else []
        if keepers:
            return f"you hold {', '.join(keepers)}: you must play an ace or a 2 on the crank"
        playable = [] if self.crank else [c for c in hand if c in self.fitting()]
        if playable:
            return f"you can play {', '.join(playable)}: you may only draw when nothing fits"
        return None

    def _why_not_suit(self, seat: int, action: Action) -> str | None:
        if self.phase != "suit" or seat != self.turn:
            return "there is no suit to name now"
        upcard = self.discard_pile[-1]
        if action.get("suit") not in suits_for(upcard):
            choices = " or ".join(SUIT_NAMES[s] for s in suits_for(upcard))
            return f"name a suit for the turned-up {upcard}: {choices}"
        return None

    def _why_not_announce(self, seat: int, action: Action) -> str | None:
        if seat in self.must_announce:
            return None
        if seat in self.announced:
            return "you have already announced Crates!"
        if len(self.hands[seat]) == 1:
            return "you were dealt one card: there is nothing to announce"
        return "you can only announce Crates! when a play leaves you one card"

    def _why_not_dope(self, seat: int, action: Action) -> str | None:
        target = action.get("target")
        if wrong := self.why_not_a_seat(target, "say whom you call Dope! on"):
            return wrong
        if target == seat:
            return "you cannot call Dope! on yourself"
        if target in self.announced:
            return "that player has announced Crates!"
        if target not in self.must_announce:
            return "Dope! only catches a player holding one unannounced card"
        return None

    def _why_not_turn(self, seat: int) -> str | None:
        if seat != self.turn:
            return "it is not your turn"
        if self.phase == "suit":
            return "the dealer must first name a suit for the turned-up card"
        return None

    # -- helpers ------------------------------------------------------------------------------
    def fitting(self) -> frozenset[str]:
        """The cards that may be played now, whoever holds them (bots' look-ahead asks too)."""
        if self.crank:
            return CRANK_CARDS
        return FITTING[RANK_OF[self.discard_pile[-1]], self.suit]

    def _misfit(self, card: str, hand: list[str]) -> str:
        """The sentence telling the player holding `hand` why `card`, which does not fit now,
        cannot be played."""
        if self.crank:
            running = f"a crank of {self.crank} is running"
            if CRANK_CARDS.isdisjoint(hand):
                return f"{running}: play an ace or a 2, or draw {self.crank}"
            # Whoever holds an ace or a 2 must play one: drawing is no choice for them.
            return f"{running}: you must play an ace or a 2"
        top_rank = RANK_OF[self.discard_pile[-1]]
        return f"{card} does not fit: {_FIT_ADVICE[top_rank, self.suit]}"

    def _resolve(self, seat: int, card: str) -> None:
        """Apply the ability of `card`, just played (or turned up) by `seat`, and move the turn."""
        card_rank = RANK_OF[card]
        if self.crank:  # an ace or a 2 played on a running crank
            self.crank += CRANK_VALUES[card_rank]
            self.emit("crank", f"The crank is at {self.crank}.", crank=self.crank)
            self._pass_turn(seat)
            return
        ability = ABILITIES.get(card_rank)
        if ability is None:
            self._pass_turn(seat)
        else:
            getattr(self, ability)(seat)

    # -- abilities (see ABILITIES) ------------------------------------------------------------
    def _start_crank(self, seat: int) -> None:
        self.crank = 2
        self.emit("crank", "A crank starts at 2.", crank=2)
        self._pass_turn(seat)

    def _skip_next(self, seat: int) -> None:
        skipped = self._next(seat)
        self.emit("skip", f"{{{skipped}}} is skipped.", seat=skipped)
        self._pass_turn(skipped)

    def _everyone_draws(self, seat: int) -> None:
        for offset in range(1, self.players):
            self._draw_cards((seat + offset * self.direction) % self.players, 1)
        self._pass_turn(seat)

    def _again(self, seat: int) -> None:
        if self.hands[seat]:
            self.emit("again", f"{{{seat}}} takes another turn.", seat=seat)
        self.turn = seat

    def _next_draws(self, seat: int) -> None:
        self._draw_cards(self._next(seat), 1)
        self._pass_turn(seat)

    def _reverse(self, seat: int) -> None:
        self.direction = -self.direction
        way = "clockwise" if self.direction == 1 else "anticlockwise"
        self.emit("direction", f"Play now goes {way}.", direction=self.direction)
        self._pass_turn(seat)

    def _next(self, seat: int) -> int:
        return (seat + self.direction) % self.players

    def _pass_turn(self, seat: int) -> None:
        """Give the turn to the next player after `seat` who holds cards and has not lost it."""
        for _ in range(2 * self.players):
            seat = (seat + self.direction) % self.players
            if not self.hands[seat]:
                continue
            if seat in self.lost_turn:
                self.lost_turn.discard(seat)
                self.emit("lose_turn", f"{{{seat}}} loses this turn.", seat=seat)
                continue
            self.turn = seat
            return

    def _draw_cards(self, seat: int, count: int) -> list[str]:
        """Move up to `count` cards from the draw pile to `seat`, reshuffling discards if needed."""
        drawn = []
        for _ in range(count):
            if not self.draw_pile and len(self.discard_pile) > 1:
                top = self.discard_pile.pop()
                self.draw_pile = self.discard_pile
                self.rng.shuffle(self.draw_pile)
                self.discard_pile = [top]
                self.emit("reshuffle", "The discard pile is shuffled into a new draw pile.")
            if not self.draw_pile:
                break
            drawn.append(self.draw_pile.pop())
        if drawn:
            self.hands[seat].extend(drawn)
            self._hand_changed(seat)
            if not self.quiet:  # the fast path (see the class docstring)
                plural = "s" if len(drawn) > 1 else ""
                text = f"{{{seat}}} draws {len(drawn)} card{plural}."
                self.emit("draw", text, seat=seat, count=len(drawn), told=[seat])
                cards = ", ".join(drawn)  # (named as every line names a player: no "you")
                self.emit("drawn", f"{{{seat}}} draws {cards}.", (seat,), seat=seat, cards=drawn)
        return drawn

    def _hand_changed(self, seat: int) -> None:
        self.announced.discard(seat)
        self.must_announce.discard(seat)

    # -- rounds -------------------------------------------------------------------------------
    def _draw_for_dealer(self) -> int:
        """Everyone draws a card; the lowest deals (ace low), ties among the lowest redraw."""
        contenders = list(range(self.players))
        while True:
            deck = list(DECK)
            self.rng.shuffle(deck)
            drawn = {seat: deck.pop() for seat in contenders}
            for seat, card in drawn.items():
                self.emit(
                    "deal_draw", f"{{{seat}}} draws {card} for the deal.", seat=seat, card=card
                )
            low = min(RANK_ORDER[rank(card)] for card in drawn.values())
            lowest = [seat for seat, card in drawn.items() if RANK_ORDER[rank(card)] == low]
            if len(lowest) == 1:
                self.emit("dealer", f"{{{lowest[0]}}} drew lowest and deals first.", seat=lowest[0])
                return lowest[0]
            self.emit("deal_tie", "A tie for lowest: those players draw again.", seats=lowest)
            contenders = lowest

    def _start_round(self) -> None:
        size = self.hand_sizes_by_round[self.round_index]
        dealer = self.dealer = (self.first_dealer + self.round_index) % self.players
        self.direction, self.crank, self.phase, self.gone_out = 1, 0, "play", None
        for marks in (self.announced, self.must_announce, self.lost_turn, self.passed):
            marks.clear()
        if self.round_index == 0 and self._round_one is not None:
            hands, upcard, draw = self._round_one
            self.hands = [list(h) for h in hands]
            self.draw_pile = list(reversed(draw))
        else:
            if self.round_index == 0 and self._deck_order is not None:
                deck = list(reversed(self._deck_order))
            else:
                deck = list(DECK)
                self.rng.shuffle(deck)
            self.hands = [[] for _ in range(self.players)]
            for _ in range(size):
                for offset in range(1, self.players + 1):
                    self.hands[(dealer + offset) % self.players].append(deck.pop())
            upcard = deck.pop()
            self.draw_pile = deck
        self.discard_pile = [upcard]
        self.suit = suit(upcard)
        self.emit(
            "round",
            f"Round {self.round_index + 1} of {self.rounds_total}: {{{dealer}}} deals "
            f"{size} card{'s' if size > 1 else ''} each and turns up {upcard}.",
            round=self.round_index + 1,
            dealer=dealer,
            card=upcard,
        )
        if rank(upcard) in SUIT_NAMING_RANKS:  # the dealer names the suit, as if playing it
            self.phase, self.turn = "suit", dealer
        else:
            self._resolve(dealer, upcard)

    def _end_round(self, blocked: bool) -> None:
        scored = [score_hand(hand) for hand in self.hands]
        points = [p for p, _ in scored]
        for seat, p in enumerate(points):
            self.scores[seat] += p
        self.last_round = {
            "round": self.round_index + 1,
            "hands": [list(h) for h in self.hands],
            "points": points,
            "cancelled": [c for _, c in scored],
            "went_out": self.gone_out,
            "blocked": blocked,
        }
        summary = ", ".join(f"{{{seat}}} {p}" for seat, p in enumerate(points))
        self.emit(
            "round_over",
            f"Round {self.round_index + 1} scores: {summary}.",
            round=self.round_index + 1,
            points=points,
        )
        self.round_index += 1
        if self.round_index == self.rounds_total:
            self.phase, self.over = "over", True
            winners = self._result()["winners"]
            named = " and ".join(f"{{{seat}}}" for seat in winners)
            self.emit("over", f"Game over: lowest total wins: {named}.", winners=winners)
            return
        self.restart_log(keep=1)  # the new round's log opens with the last round's scores
        self._start_round()


def announcing(play: PlayAction) -> PlayAction:
    """`play` announcing Crates! with it (a play that leaves one card)."""
    return {**play, "announce": True}


# -- what may be done: each action made once, handed out as it is (as `core.made_once`'s) ------
def card_plays(card: str) -> tuple[PlayAction, ...]:
    """The plays of `card`: one, or for an 8 or 9 one naming each suit it may name."""
    named = NAMEABLE_SUITS.get(card)
    if named is None:
        return ({"type": "play", "card": card},)
    return tuple({"type": "play", "card": card, "suit": suit} for suit in named)


#: Each card's plays, and each with its announcing twin after it (a play leaving one card):
#: `legal` lists them for every turn of every playout, and an answer of `legal` is the
#: engine's own, never changed by whoever holds it (`_check_made` holds the tests to it).
PLAYS = {card: card_plays(card) for card in DECK}
PLAYS_ANNOUNCING = {
    card: tuple(twin for play in plays for twin in (play, announcing(play)))
    for card, plays in PLAYS.items()
}
DRAW: DrawAction = {"type": "draw"}


#: A copy of each action made once, by the action's identity (what `_check_made` compares).
_AS_MADE = {
    id(action): dict(action)
    for action in (
        DRAW,
        *(play for made in (PLAYS, PLAYS_ANNOUNCING) for plays in made.values() for play in plays),
    )
}


def _check_made(actions: list[CratesAction]) -> None:
    """AssertionError if an action made once was changed since by one that held it."""
    for action in [*actions, DRAW]:
        if action != _AS_MADE[id(action)]:
            raise AssertionError(f"an action made once was changed by its holder: {action}")


def deal_unseen(view: CratesView, rng: random.Random) -> tuple[list[list[str]], list[str]]:
    """The cards `view`'s seat has not seen, dealt at random: every hand (its own as it is) and
    the draw pile, top first."""
    seen = set(view["hand"]) | set(view["discard"])
    unseen = [card for card in DECK if card not in seen]
    rng.shuffle(unseen)
    hands = [
        list(view["hand"]) if seat == view["seat"] else [unseen.pop() for _ in range(size)]
        for seat, size in enumerate(view["hand_sizes"])
    ]
    return hands, unseen


def _check_stacked_round(
    players: int,
    hands: list[list[str]] | None,
    upcard: str | None,
    draw: list[str] | None,
) -> tuple[list[list[str]], str, list[str]] | None:
    """Validate a stacked round 1: (hands, upcard, draw top first), or None when not stacked."""
    if hands is None and upcard is None and draw is None:
        return None
    if hands is None or upcard is None:
        raise SetupError("a stacked round needs both hands and upcard (draw is optional)")
    if len(hands) != players:
        raise SetupError(f"hands must list one hand per seat ({players})")
    stacked_hands = [parse_cards(hand, f"hand {i}") for i, hand in enumerate(hands)]
    stacked_draw = parse_cards(draw or [], "draw")
    (stacked_upcard,) = parse_cards([upcard], "upcard")
    every = [c for hand in stacked_hands for c in hand] + stacked_draw + [stacked_upcard]
    if len(set(every)) != len(every):
        raise SetupError("a card appears twice in the setup")
    return stacked_hands, stacked_upcard, stacked_draw


def _check_deck(deck: list[str] | None, stacked: bool) -> list[str] | None:
    """Validate an explicit order (top first) for round 1's deck."""
    if deck is None:
        return None
    if stacked:
        raise SetupError("give either a deck order or hands/upcard/draw, not both")
    cards = parse_cards(deck, "deck")
    if sorted(cards) != sorted(DECK):
        raise SetupError("deck must hold each of the 52 cards once")
    return cards
