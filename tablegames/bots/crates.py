"""Crates bots: `random`, `normal` (card-sense heuristics) and `hard` (samples the hidden cards)."""

from __future__ import annotations

import math
import random
import re
import statistics

from ..rules import Action, View
from ..rules.cards import DECK, SUIT_NAMES, rank, suit
from ..rules.crates import CARD_POINTS, WILD_RANKS, CratesState, score_hand, suits_for

TURN_TYPES = frozenset(("play", "draw", "suit"))
ATTACK_RANKS = frozenset(("2", "4", "7"))  # hurt only the next player

# -- shared helpers -------------------------------------------------------------------------------


def turn_actions(legal: list[Action]) -> list[Action]:
    """The legal actions that take a turn (play, draw, name a suit), without optional ones."""
    return [action for action in legal if action["type"] in TURN_TYPES]


def optional_action(legal: list[Action]) -> Action | None:
    """Announce Crates! if we owe it, else call Dope! on an exposed opponent, else None."""
    for action in legal:
        if action["type"] == "announce":
            return action
    for action in legal:
        if action["type"] == "dope":
            return action
    return None


def next_seat(view: View, seat: int) -> int:
    """The seat that plays after `seat` in the current direction."""
    return int((seat + view["direction"]) % view["players"])


def is_threat(view: View, seat: int) -> bool:
    """True if `seat` is close to going out or leads the game (lowest total)."""
    return bool(view["hand_sizes"][seat] <= 2 or view["scores"][seat] == min(view["scores"]))


def fits(card: str, top_rank: str, current_suit: str) -> bool:
    """True if `card` could be played on a top card of `top_rank` with `current_suit` named."""
    return rank(card) in WILD_RANKS or suit(card) == current_suit or rank(card) == top_rank


def best_suit(choices: tuple[str, ...] | list[str], cards: list[str]) -> str:
    """The suit among `choices` we hold most of in `cards` (wilds and 3s aside), then most points."""
    weights = {named: [0, 0] for named in choices}
    for card in cards:
        card_rank, card_suit = rank(card), suit(card)
        # A 3 we would rather keep than be made to play; a wild fits any suit anyway.
        if card_suit in weights and card_rank != "3" and card_rank not in WILD_RANKS:
            weights[card_suit][0] += 1
            weights[card_suit][1] += CARD_POINTS[card_rank]
    return max(choices, key=lambda named: weights[named])


# -- random ---------------------------------------------------------------------------------------

RANDOM_ANNOUNCE_CHANCE = 0.5
RANDOM_DOPE_CHANCE = 0.05  # asked after every action, so it still catches most exposed players


class RandomBot:
    """Takes a uniformly random turn action; announces half the time, rarely calls Dope!."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        dopes = [a for a in legal if a["type"] == "dope"]
        if dopes and self.rng.random() < RANDOM_DOPE_CHANCE:
            return self.rng.choice(dopes)
        # The announce flag doubles some plays; pick among plain ones so every card is as likely.
        plain = [a for a in turn_actions(legal) if not a.get("announce")]
        if not plain:
            return None  # its announce coin was flipped with the play: no second chance
        action = self.rng.choice(plain)
        announced = {**action, "announce": True}
        if announced in legal and self.rng.random() < RANDOM_ANNOUNCE_CHANCE:
            return announced
        return action


# -- normal ---------------------------------------------------------------------------------------

GOING_OUT = 10_000
KEEP_THREE = 200  # a 3 cancels our highest card at the end of the round, or scores -50 alone
KEEP_WILD = 80  # an 8 or 9 rescues a turn when nothing else fits
WILD_WHEN_DANGER = 30  # ...but an 8 caught in hand costs 50 when someone is about to go out
ATTACK_BONUS = 40
FIVE_BONUS = 15
FOLLOW_UP = 6  # per card we could play next on what we leave on top


def normal_choice(view: View, legal: list[Action]) -> Action | None:
    """The normal bot's action: announce, call Dope!, then the best-looking turn action."""
    extra = optional_action(legal)
    if extra is not None:
        return extra
    options = turn_actions(legal)
    if not options:
        return None
    if options[0]["type"] == "suit":
        return name_suit(view, options)
    if options[0]["type"] == "draw":
        return options[0]
    judge = PlayJudge(view)
    cards = list(dict.fromkeys(play["card"] for play in options))
    named = {card: judge.suit_to_name(card) for card in cards}
    card = max(cards, key=lambda c: judge.value(c, named[c]))
    return play_action(view, options, card, named[card])


def play_action(view: View, plays: list[Action], card: str, named: str) -> Action:
    """The legal play of `card` naming `named` (if wild), announcing if it leaves one card."""
    wanted: Action = {"type": "play", "card": card}
    if rank(card) in WILD_RANKS:
        wanted["suit"] = named
    if len(view["hand"]) == 2:
        wanted["announce"] = True
    return next((play for play in plays if play == wanted), wanted)


def name_suit(view: View, options: list[Action]) -> Action:
    """For the dealer's turned-up wild: the suit we hold most of."""
    named = best_suit([o["suit"] for o in options], view["hand"])
    return next(o for o in options if o["suit"] == named)


class PlayJudge:
    """Scores the plays open to one seat; what it learns about the table is worked out once."""

    def __init__(self, view: View) -> None:
        self.hand: list[str] = view["hand"]
        self.crank: int = view["crank"]
        me: int = view["seat"]
        sizes: list[int] = view["hand_sizes"]
        opponents = [s for s in range(view["players"]) if s != me and sizes[s] > 0]
        # Someone about to go out: whatever we hold is about to be scored.
        self.danger = any(sizes[s] <= 2 for s in opponents)
        ahead = next_seat(view, me)
        behind = int((me - view["direction"]) % view["players"])
        self.attack = ATTACK_BONUS if is_threat(view, ahead) else 0
        threats = 0 if ahead == behind else is_threat(view, ahead) - is_threat(view, behind)
        self.reverse = ATTACK_BONUS * threats  # a 10 turns play away from a threat
        self.twos = sum(1 for card in self.hand if rank(card) == "2")

    def suit_to_name(self, card: str) -> str:
        """The suit we would name with `card` if it is wild, else its own suit."""
        if rank(card) not in WILD_RANKS:
            return suit(card)
        rest = [c for c in self.hand if c != card]
        return best_suit(suits_for(card), rest)

    def value(self, card: str, named: str) -> float:
        """How much we like playing `card` (naming `named`); higher is better."""
        card_rank = rank(card)
        left = len(self.hand) - 1
        if not left:
            return GOING_OUT
        value: float = CARD_POINTS[card_rank]  # shed the costly cards first
        if self.crank:
            return value + self.crank_value(card_rank, left)
        if card_rank == "3":
            value -= KEEP_THREE
        elif card_rank in WILD_RANKS:
            value -= WILD_WHEN_DANGER if self.danger else KEEP_WILD
        elif card_rank in ATTACK_RANKS:
            value += self.attack
        elif card_rank == "5":
            value += FIVE_BONUS + (ATTACK_BONUS if self.danger else 0)
        elif card_rank == "10":
            value += self.reverse
        follow_ups = sum(
            1
            for c in self.hand
            if c != card and fits(c, card_rank, named) and not c.startswith("3")
        )
        if card_rank == "6":
            # Another turn at once: worth a lot with a follow-up, a forced draw without one.
            value += 25 if follow_ups else -25
        return value + FOLLOW_UP * follow_ups

    def crank_value(self, card_rank: str, left: int) -> float:
        """On a crank the 2 (20 points, +2) goes first, unless it is early and our only 2.

        Early in a round a 2 kept back can start a crank of our own later; the ace is worth 1.
        """
        if card_rank == "A" and self.twos == 1 and not self.danger and left >= 3:
            return 30.0
        return 0.0


class NormalBot:
    """Always announces and calls Dope!; sheds costly cards, keeps wilds and 3s, attacks threats."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        return normal_choice(view, legal)


# -- hard -----------------------------------------------------------------------------------------

SAMPLES = 12  # hidden-card deals per decision; sized so a decision's p99 stays well under 250 ms
MAX_CANDIDATES = 5  # the normal bot's favourites; the rest are rarely better and cost time
CONFIDENCE = 1.0  # standard errors a candidate must beat the normal bot's choice by
ROLLOUT_LIMIT = 300  # actions; a round of normal bots ends long before this


class HardBot:
    """Deals the unseen cards at random many times and plays each candidate out with normal bots.

    Picks the turn action whose rollouts end the round with our points lowest against the mean
    of the others'. Announce and Dope! are never worth searching: it always takes them.
    """

    samples = SAMPLES
    read_misses = True
    max_candidates = MAX_CANDIDATES
    confidence = CONFIDENCE

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        extra = optional_action(legal)
        if extra is not None:
            return extra
        candidates = self.candidates(view, legal)
        if len(candidates) < 2:
            return candidates[0] if candidates else None
        # The same deals and shuffles for every candidate, so they differ only by the action.
        misses = read_misses(view) if self.read_misses else {}
        worlds = [
            (*self.deal_unseen(view, misses), self.rng.getrandbits(32))
            for _ in range(self.samples)
        ]
        outcomes = [
            [rollout(view, hands, draw, seed, action) for hands, draw, seed in worlds]
            for action in candidates
        ]
        return candidates[self.pick(outcomes)]

    def pick(self, outcomes: list[list[float]]) -> int:
        """The index of the candidate to play, given each one's rollout results (lower is better).

        Candidate 0 is the normal bot's choice; another must beat it clearly over the same deals,
        because a few samples of a high-variance round mostly measure luck.
        """
        best, best_gain = 0, 0.0
        for index, results in enumerate(outcomes[1:], start=1):
            gains = [base - mine for base, mine in zip(outcomes[0], results, strict=True)]
            mean = statistics.fmean(gains)
            error = statistics.stdev(gains) / math.sqrt(len(gains))
            if mean - self.confidence * error > best_gain:
                best, best_gain = index, mean - self.confidence * error
        return best

    def candidates(self, view: View, legal: list[Action]) -> list[Action]:
        """The turn actions worth comparing, the normal bot's favourites first."""
        options = turn_actions(legal)
        if not options or options[0]["type"] == "draw":
            return options[:1]
        if options[0]["type"] == "suit":
            return options
        if len(view["hand"]) == 1:
            return options[:1]  # going out: nothing to compare
        plays = [p for p in options if p.get("announce") or len(view["hand"]) != 2]
        judge = PlayJudge(view)
        plays.sort(
            key=lambda play: -judge.value(play["card"], play.get("suit") or suit(play["card"]))
        )
        return plays[: self.max_candidates]

    def deal_unseen(
        self, view: View, misses: dict[int, list[Miss]]
    ) -> tuple[list[list[str]], list[str]]:
        """One guess at the hidden cards: every opponent's hand and the draw pile (top first).

        Unseen cards (not in our hand, not in the discard pile) are dealt at random, except that
        an opponent who had to draw held no card that fitted then (see `read_misses`).
        """
        seen = set(view["hand"]) | set(view["discard"])
        unseen = [card for card in DECK if card not in seen]  # DECK order: no set-order luck
        self.rng.shuffle(unseen)
        sizes: list[int] = view["hand_sizes"]
        hands: list[list[str]] = [[] for _ in sizes]
        hands[self.seat] = list(view["hand"])
        # The most telling cards first, so the fussy hands are not left with what nobody took.
        for seat, found in misses.items():
            if seat != self.seat:
                for count, tops in miss_layers(sizes[seat], found):
                    _take(unseen, hands[seat], count, tops)
        for seat, size in enumerate(sizes):
            if seat != self.seat:
                _take(unseen, hands[seat], size - len(hands[seat]), [])
        return hands, unseen


# -- reading the round's log ----------------------------------------------------------------------

Miss = tuple[str, str, int]  # (top rank, suit to follow, cards the player has drawn since)
PLAY_TEXT = re.compile(r"^\{(\d+)\} plays (?P<card>\w+)(?: and names (?P<named>\w+))?\.$")
DRAW_TEXT = re.compile(r"^\{(\d+)\} draws (\d+) cards?\.$")
PASS_TEXT = re.compile(r"^\{(\d+)\} has nothing to draw and passes\.$")
NAME_TEXT = re.compile(r"^\{(\d+)\} names (\w+)\.$")
DOPE_TEXT = re.compile(r"^\{(\d+)\} calls Dope! on \{(\d+)\}")
TURNED_UP_TEXT = re.compile(r"turns up (?P<card>\w+)(?P<named>)\.$")
SUIT_BY_NAME = {name: letter for letter, name in SUIT_NAMES.items()}


def read_misses(view: View) -> dict[int, list[Miss]]:
    """Each seat's misses this round, oldest first: the times it drew because nothing fitted.

    Read from the public log. Draws forced by a 7, a 5, a crank or Dope! say nothing about the
    hand and are only counted. A log line this does not know is skipped: fewer misses, no harm.
    """
    misses: dict[int, list[Miss]] = {}
    top_rank, to_follow = "", ""
    forced = 0  # draws the last 7 or 5 still owes
    crank = False
    dope_target: int | None = None
    for entry in view["log"]:
        if entry["to"] is not None:
            continue  # our own "You draw ..." lines
        text: str = entry["text"]
        if (match := PLAY_TEXT.match(text)) or (match := TURNED_UP_TEXT.search(text)):
            # A turned-up card acts as if the dealer had played it.
            top_rank = rank(match["card"])
            to_follow = SUIT_BY_NAME.get(match["named"] or "", suit(match["card"]))
            forced = {"7": 1, "5": view["players"] - 1}.get(top_rank, 0)
        elif match := DRAW_TEXT.match(text):
            seat, count = int(match[1]), int(match[2])
            misses[seat] = [(r, s, drawn + count) for r, s, drawn in misses.get(seat, [])]
            if crank:
                pass
            elif dope_target == seat:
                dope_target = None
            elif forced:
                forced -= 1
            elif count == 1 and top_rank:
                misses[seat].append((top_rank, to_follow, 1))
        elif match := PASS_TEXT.match(text):
            if top_rank and not crank:
                misses.setdefault(int(match[1]), []).append((top_rank, to_follow, 0))
        elif match := NAME_TEXT.match(text):
            to_follow = SUIT_BY_NAME.get(match[2], to_follow)
        elif match := DOPE_TEXT.match(text):
            dope_target = int(match[2])
        elif text.startswith(("A crank starts", "The crank is at")):
            crank = True
        elif "cannot keep the crank going" in text:
            crank = False
    return {seat: found for seat, found in misses.items() if found}


def miss_layers(size: int, misses: list[Miss]) -> list[tuple[int, list[tuple[str, str]]]]:
    """How a hand of `size` is dealt: (cards, the (rank, suit) tops they must not fit), oldest first.

    At least `size - drawn since` of today's cards were already held at a miss, so did not fit
    then; and a card held at one miss was held at every later one too.
    """
    layers: list[tuple[int, list[tuple[str, str]]]] = []
    placed = 0
    for at, (_, _, drawn) in enumerate(misses):
        held = max(0, size - drawn) - placed
        if held > 0:
            layers.append((held, [(r, s) for r, s, _ in misses[at:]]))
            placed += held
    return layers


def _take(pool: list[str], hand: list[str], count: int, tops: list[tuple[str, str]]) -> None:
    """Move `count` cards fitting none of `tops` from `pool` to `hand` (any cards if too few)."""
    if count <= 0:
        return
    chosen = [card for card in pool if not any(fits(card, r, s) for r, s in tops)][:count]
    chosen += [card for card in pool if card not in chosen][: count - len(chosen)]
    for card in chosen:
        pool.remove(card)
    hand.extend(chosen)


def rollout(view: View, hands: list[list[str]], draw: list[str], seed: int, first: Action) -> float:
    """Play `first` in one guessed deal, then normal bots to the round's end; our relative score."""
    me = view["seat"]
    state = CratesState.from_view(view, hands, draw, seed)
    start = state.round_index
    state.apply(me, first)
    for _ in range(ROLLOUT_LIMIT):
        if state.round_index != start:
            break
        if state.must_announce:
            target = min(state.must_announce)
            state.apply((target + 1) % state.players, {"type": "dope", "target": target})
            continue
        seat = state.turn
        action = normal_choice(_quick_view(state, seat), turn_actions(state.legal(seat)))
        assert action is not None
        state.apply(seat, action)
    if state.round_index != start and state.last_round is not None:
        points: list[int] = state.last_round["points"]
    else:
        points = [score_hand(hand)[0] for hand in state.hands]
    others = [p for seat, p in enumerate(points) if seat != me]
    return points[me] - sum(others) / len(others)


def _quick_view(state: CratesState, seat: int) -> View:
    """The few view keys the normal policy reads, built without copying logs (rollout speed)."""
    return {
        "seat": seat,
        "players": state.players,
        "hand": state.hands[seat],
        "hand_sizes": [len(hand) for hand in state.hands],
        "crank": state.crank,
        "direction": state.direction,
        "scores": state.scores,
    }


BOTS = {"random": RandomBot, "normal": NormalBot, "hard": HardBot}
