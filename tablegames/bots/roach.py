"""Roach bots: `random`, `normal` (weighs claims against unseen cards) and `hard` (reads bluffs).

Both thinking bots start the same way. From the view alone they count the cards nobody has shown
face up, read the public log for who took the joker or the blank into their hand and how often
each player's claims turned out true, and price every card for every player: what taking it
would do to their face-up display (a third of a kind costs far more than a first; the losing
card, or a card taken with nothing left to offer, costs the game). A choice is worth what it is
expected to cost us, minus a smaller share of what it costs the others — so cards go to the
players closest to losing, and the bot shies away from its own third and fourth of a kind.

- `normal` reads a claim from the unseen cards and the sender's record of true claims, and
  expects others to answer by weighing true against false the same way, swayed by how often
  they have believed and passed so far (the more, the longer their record: a player who
  always says "false" is soon sent true claims).
- `hard` assumes everyone plays like `normal` and turns that round: it reads a claim through the
  card and claim that sender would most have liked to send it, and makes each offer against the
  answer that receiver would most likely give (a normal bot's own reckoning, passes included).
  It also plays closer to its best estimate.

Every choice is drawn from a soft maximum, so claims (true or not) cannot be read off the cards;
an offer weighs telling the truth against lying, not one true claim against seven false ones.
In this game a passer names the new claim before peeking (the pass action implies the peek), or
passes the card on without looking at all, so only the first claim of a chain tells anything
about the card; later claims are read as blind. The thinking bots always look as they pass (it
costs nothing), and a card never goes back to a seat it has been with (`held_by`), seen or not.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from ..rules.roach import (
    ANIMAL_OF,
    ANIMALS,
    CLAIMS,
    DECK_COUNTS,
    SPECIALS,
    any_lays,
    is_royal,
    matches,
)
from ..rules.roach import claim_is_true as _claim_is_true
from ..rules.roach_types import (
    ChallengeAction,
    ClaimEvent,
    LayAction,
    OfferAction,
    PassAction,
    RoachAction,
    RoachEvent,
    RoachView,
)
from .typed import GameBot, seat_of

TYPES = tuple(DECK_COUNTS)  # the 16 card codes
TRUE = {(card, claim): _claim_is_true(card, claim) for card in TYPES for claim in CLAIMS}
TRUE_CLAIMS = {card: sum(TRUE[card, claim] for claim in CLAIMS) for card in TYPES}
ROYAL_CARDS = {card: is_royal(card) for card in TYPES}

Odds = dict[str, float]  # card code -> chance that the card in question is that card

# -- prices ---------------------------------------------------------------------------------------
#: What holding n of one animal face up costs, by n, when 4 (or, with two players, 5) lose.
DISPLAY_COST = {4: (0.0, 1.0, 4.0, 12.0), 5: (0.0, 1.0, 3.0, 7.0, 15.0)}
FATAL = 100.0  # the losing card, or a card taken with nothing left to offer
OTHERS = 0.5  # a card another player takes is worth this share of its cost to us
SPECIAL_FOR_OTHERS = 0.75  # share of two cheap cards another player lays out for a special
#: A card passed on ends with one of those yet to see it, but a player it would cost dearly
#: takes care not to take it: what it costs them counts no more than this.
PASSED_ON_CAP = 3.0
#: Cards on a player already loaded with face-up cards bring their loss (not ours) nearer:
#: what they cost counts more by their display's cost over this.
LOAD_SCALE = 12.0


@dataclass
class Record:
    """What the log shows of one seat: first claims shown true or false, answers given."""

    told_truth: int = 0
    claims_shown: int = 0
    said_true: int = 0
    challenges: int = 0
    passes: int = 0


@dataclass
class Reading:
    """What a bot works out once from its view: unseen cards, special cards' holders, prices."""

    me: int
    players: int
    lose_at: int
    hand: Counter[str]
    hand_sizes: list[int]
    counts: list[dict[str, int]]
    penalty_top: str | None
    holders: dict[str, int]  # special card -> the seat seen taking it into their hand
    records: list[Record]
    pool: Counter[str]  # cards we have not seen: not ours, not face up, not known elsewhere
    public_pool: Counter[str]  # the same for someone who cannot see our hand
    _prices: dict[tuple[int, str, int], dict[str, float]] = field(default_factory=dict)
    _lays: dict[tuple[str, str], tuple[tuple[str, ...], float]] = field(default_factory=dict)
    _lay_costs: dict[tuple[str, ...], float] = field(default_factory=dict)

    @classmethod
    def of(cls, view: RoachView) -> Reading:
        """Read a seat's view of a roach game."""
        me = seat_of(view)
        records = [Record() for _ in range(view["players"])]
        holders = read_log(view["log"], records)
        face_up: Counter[str] = Counter()
        for front in view["fronts"]:
            face_up.update(front)
        if view["penalty_top"] is not None:
            face_up[view["penalty_top"]] += 1
        hand: Counter[str] = Counter(view["hand"])
        for special in SPECIALS:
            if face_up[special] or hand[special]:
                holders.pop(special, None)  # the log is older than what we see
        deck = Counter(DECK_COUNTS)
        return cls(
            me=me,
            players=view["players"],
            lose_at=view["lose_at"],
            hand=hand,
            hand_sizes=list(view["hand_sizes"]),
            counts=[dict(counts) for counts in view["front_counts"]],
            penalty_top=view["penalty_top"],
            holders=holders,
            records=records,
            pool=deck - face_up - hand - Counter(holders.keys()),
            public_pool=deck - face_up - Counter(holders.keys()),
        )

    # -- what taking a card costs ----------------------------------------------------------------
    def add_cost(self, seat: int, animals: Iterable[str]) -> float:
        """The display cost for `seat` of laying out cards of these animals, one after another."""
        table = DISPLAY_COST[self.lose_at]
        counts = dict(self.counts[seat])
        total = 0.0
        for animal in animals:
            held = counts[animal]
            if held + 1 >= self.lose_at:
                return FATAL
            total += table[held + 1] - table[held]
            counts[animal] = held + 1
        return total

    def load(self, seat: int) -> float:
        """What `seat`'s face-up display costs so far."""
        table = DISPLAY_COST[self.lose_at]
        return sum(table[min(n, len(table) - 1)] for n in self.counts[seat].values())

    def laid_animals(self, cards: Iterable[str]) -> list[str]:
        """The animals that land face up when `cards` are laid out, penalty cards included.

        Only the first royal card's penalty card is known (the face-up one); later pulls are
        unknown and counted as nothing.
        """
        animals: list[str] = []
        pulled = False
        for card in cards:
            animal = ANIMAL_OF[card]
            if animal is None:
                continue
            animals.append(animal)
            if not pulled and ROYAL_CARDS.get(card):
                pulled = True
                top = ANIMAL_OF[self.penalty_top] if self.penalty_top else None
                if top is not None:
                    animals.append(top)
        return animals

    def prices(self, seat: int, claim: str = "", hand_size: int | None = None) -> dict[str, float]:
        """What taking each card costs `seat` (FATAL: it loses them the game).

        `claim` is the claim a special card would be judged against (it says what we may lay out
        for it; others' hands are unknown, so it only matters for us). `hand_size` is the taker's
        hand at that moment (default: as the view shows it).
        """
        size = self.hand_sizes[seat] if hand_size is None else hand_size
        key = (seat, claim if seat == self.me else "", size)
        if key not in self._prices:
            if key[1]:  # the claim changes only what the special cards cost us
                prices = dict(self.prices(seat, "", size))
                for special in SPECIALS:
                    prices[special] = self._price(seat, special, claim, size)
            else:
                prices = {card: self._price(seat, card, claim, size) for card in TYPES}
            self._prices[key] = prices
        return self._prices[key]

    def _price(self, seat: int, card: str, claim: str, size: int) -> float:
        if card in SPECIALS:
            if size == 0:
                return FATAL  # it goes out in front of them, and their hand is empty
            if seat == self.me and claim:
                return self.best_lay(card, claim)[1]
            steps = sorted(self.add_cost(seat, [animal]) for animal in ANIMALS)
            return SPECIAL_FOR_OTHERS * sum(steps[: min(2, size)])
        pulls_special = is_royal(card) and self.penalty_top in SPECIALS
        if size == 0 and not pulls_special:
            return FATAL  # they must offer next, with nothing to offer
        return self.add_cost(seat, self.laid_animals([card]))

    def best_lay(self, special: str, claim: str) -> tuple[tuple[str, ...], float]:
        """Our cheapest lay, and its cost, after taking `special` judged against `claim`."""
        if (special, claim) not in self._lays:
            self._lays[special, claim] = self._best_lay(special, claim)
        return self._lays[special, claim]

    def _best_lay(self, special: str, claim: str) -> tuple[tuple[str, ...], float]:
        # The engine's choices (`lay_choices`), each in name order: a tie goes to the first by
        # name. Those open whatever the claim are weighed once a special card, not once a claim;
        # a special card matches no claim, so the one card of the claim comes from our hand.
        singles = [((card,), self.lay_cost((card,))) for card in self.hand if matches(card, claim)]
        return min([*singles, self.best_any_lay(special)], key=lambda pair: (pair[1], pair[0]))

    def best_any_lay(self, special: str) -> tuple[tuple[str, ...], float]:
        """Our cheapest lay open whatever the claim (`any_lays`) after taking `special`."""
        if (special, "") not in self._lays:
            others = self.hand.copy()
            others[special] -= 1
            options = {tuple(sorted(lay)) for lay in any_lays(list(others.elements()))}
            self._lays[special, ""] = min(
                ((o, self.lay_cost(o)) for o in options), key=lambda pair: (pair[1], pair[0])
            )
        return self._lays[special, ""]

    def lay_cost(self, cards: Sequence[str]) -> float:
        """What laying out `cards` costs us."""
        key = tuple(cards)
        cost = self._lay_costs.get(key)
        if cost is None:
            cost = self._lay_costs[key] = self.add_cost(self.me, self.laid_animals(cards))
        return cost

    # -- reading a player's claims ---------------------------------------------------------------
    def truth_rate(self, seat: int, prior: float, weight: float) -> float:
        """How often `seat`'s claims were true, pulled towards `prior` as if by `weight` claims."""
        record = self.records[seat]
        return (record.told_truth + prior * weight) / (record.claims_shown + weight)

    def prior(self, sender: int, public: bool) -> Odds:
        """The chance the card `sender` slid is each card, before hearing the claim.

        Seen by us (`public` False) or by someone who cannot see our hand. A special card the
        sender was seen taking into their hand is one card of the hand it came from.
        """
        weights = {
            card: float(count)
            for card, count in (self.public_pool if public else self.pool).items()
        }
        held = self.hand_sizes[sender] + 1  # the hand the card came from
        for special, holder in self.holders.items():
            if holder != sender or (not public and holder == self.me):
                continue
            if held <= 1:
                return {special: 1.0}
            weights[special] = sum(weights.values()) / (held - 1)
        return normalised(weights)


def read_log(log: Sequence[RoachEvent], records: list[Record]) -> dict[str, int]:
    """Tally each seat's claims and answers from the public log; returns who took which special.

    Only the first claim of a chain counts towards a record: a passer claims before peeking.
    """
    holders: dict[str, int] = {}
    chain: list[ClaimEvent] = []
    for entry in log:
        if entry["to"] is not None:
            continue  # private lines say nothing about the others
        if entry["kind"] == "offer" or entry["kind"] == "pass":
            if chain:
                records[entry["sender"]].passes += 1
            chain.append(entry)
        elif entry["kind"] == "judge" and chain:
            answerer = records[chain[-1]["receiver"]]
            answerer.challenges += 1
            answerer.said_true += entry["believe"]
        elif entry["kind"] == "reveal":
            card = entry["card"]
            if chain:
                first = records[chain[0]["sender"]]
                first.claims_shown += 1
                first.told_truth += TRUE[card, chain[0]["claim"]]
            if card in SPECIALS:
                holders[card] = entry["taker"]
            chain = []
        elif entry["kind"] == "special_taken" or entry["kind"] == "penalty_to_hand":
            holders[entry["card"]] = entry["seat"]
        elif entry["kind"] == "lay":
            for card in entry["cards"]:
                holders.pop(card, None)
    return holders


def likelihood(card: str, claim: str, truth: float) -> float:
    """Chance of `claim` about `card` from a sender who tells the truth at rate `truth`."""
    true_claims = TRUE_CLAIMS[card]
    if not true_claims:
        return 1 / len(CLAIMS)
    if TRUE[card, claim]:
        return truth / true_claims
    return (1 - truth) / (len(CLAIMS) - true_claims)


def normalised(weights: dict[str, float]) -> Odds:
    """`weights` scaled to add up to 1, without the zero ones."""
    total = sum(weights.values())
    return {card: w / total for card, w in weights.items() if w > 0} if total > 0 else {}


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-max(-60.0, min(60.0, x))))


def soft_pick(rng: random.Random, values: Sequence[float], temperature: float) -> int:
    """An index drawn with chance growing as exp(value / temperature)."""
    best = max(values)
    weights = [math.exp((value - best) / temperature) for value in values]
    point = rng.random() * sum(weights)
    for index, weight in enumerate(weights):
        point -= weight
        if point <= 0:
            return index
    return len(values) - 1


def soft_shares(values: Sequence[float], temperature: float) -> list[float]:
    """The chances `soft_pick` gives each value."""
    best = max(values)
    weights = [math.exp((value - best) / temperature) for value in values]
    total = sum(weights)
    return [weight / total for weight in weights]


# -- random ---------------------------------------------------------------------------------------


class RandomBot(GameBot[RoachView, RoachAction]):
    """Offers any card to anyone with any claim; believes, doubts or passes with equal odds."""

    def decide(self, view: RoachView, legal: list[RoachAction]) -> RoachAction | None:
        if not legal:
            return None
        if legal[0]["type"] in ("offer", "lay"):
            return self.rng.choice(legal)
        answers = [action for action in legal if action["type"] == "challenge"]
        passes = [action for action in legal if action["type"] == "pass"]
        if passes and self.rng.randrange(3) == 2:
            return self.rng.choice(passes)
        return self.rng.choice(answers)


# -- normal and hard -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """How a thinking bot reads the others and how greedily it picks."""

    truth_prior: float = 0.3  # how often a first claim is true, before a player's record shows
    record_weight: float = 4.0  # the prior counts as this many claims of record
    pass_odds: float = 0.25  # how often others are expected to pass when they can...
    habit_share: float = 0.3  # ...and how much their record of believing sways their answers,
    habit_most: float = 0.9  # growing to this share as their record fills up...
    habit_evidence: float = 8.0  # ...halfway there after this many answers
    answer_spread: float = 2.0  # how loosely others are expected to weigh true against false
    offer_temperature: float = 1.0  # softness of our offers and passes (keeps bluffs unreadable)
    answer_temperature: float = 0.6  # softness of our answers
    reads_senders: bool = False  # read a claim through the sender's choice of card and claim
    models_answers: bool = False  # expect receivers to answer as a normal bot would
    sender_model_trust: float = 0.8  # share of that reading against the plain one


NORMAL = Style()
HARD = Style(offer_temperature=0.5, answer_temperature=0.3, reads_senders=True, models_answers=True)


@dataclass(frozen=True)
class Answer:
    """How a receiver is expected to answer a claim: chances to believe, doubt and pass."""

    believe: float
    doubt: float
    passes: float

    def worth(self, true: bool, back: float, taken: float, onward: float | None) -> float:
        """A card's worth to its sender once answered: `back` (it comes back to the sender:
        believed and true, or doubted and false), `taken` (the receiver keeps it), or `onward`
        (passed on; None where it cannot be)."""
        if true:
            value = self.believe * back + self.doubt * taken
        else:
            value = self.believe * taken + self.doubt * back
        if onward is not None:
            value += self.passes * onward
        return value


class Thinker:
    """One decision by a thinking bot: the reading of its view, its style's models, their values."""

    def __init__(self, view: RoachView, style: Style, rng: random.Random) -> None:
        self.view = view
        self.style = style
        self.rng = rng
        self.read = Reading.of(view)
        self.me = self.read.me
        self._odds: dict[Hashable, Odds] = {}
        self._answers: dict[Hashable, Answer] = {}
        self._worth: dict[Hashable, dict[str, float]] = {}

    # -- what outcomes are worth ----------------------------------------------------------------
    def worth(
        self, viewer: int, taker: int, claim: str = "", size: int | None = None
    ) -> dict[str, float]:
        """What `taker` taking each card is worth to `viewer`; `size`: the taker's hand then."""
        key = (viewer, taker, claim, size)
        if key not in self._worth:
            prices = self.read.prices(taker, claim, size)
            share = -1.0 if taker == viewer else OTHERS * (1 + self.read.load(taker) / LOAD_SCALE)
            self._worth[key] = {card: share * price for card, price in prices.items()}
        return self._worth[key]

    def after_pass(self, viewer: int, seen: Iterable[int]) -> dict[str, float]:
        """What each card is worth to `viewer` once passed on by a receiver.

        It ends with that receiver or someone after them: anyone but `viewer` and `seen`.
        """
        left = tuple(s for s in range(self.read.players) if s not in set(seen) and s != viewer)
        key = ("pass", viewer, left)
        if key not in self._worth:
            tables = [self.worth(viewer, seat) for seat in left]
            self._worth[key] = {
                card: sum(min(t[card], PASSED_ON_CAP) for t in tables) / len(tables)
                if tables
                else 0.0
                for card in TYPES
            }
        return self._worth[key]

    # -- reading a card -------------------------------------------------------------------------
    def truth(self, seat: int) -> float:
        return self.read.truth_rate(seat, self.style.truth_prior, self.style.record_weight)

    def public_odds(self, sender: int, claim: str) -> Odds:
        """What someone who sees only the table makes of `sender`'s first claim."""
        key = ("public", sender, claim)
        if key not in self._odds:
            prior = self.read.prior(sender, public=True)
            truth = self.truth(sender)
            self._odds[key] = normalised(
                {card: p * likelihood(card, claim, truth) for card, p in prior.items()}
            )
        return self._odds[key]

    def my_odds(self, sender: int, receiver: int, claim: str) -> Odds:
        """What we make of the card `sender` slid to `receiver` claiming `claim`."""
        prior = self.read.prior(sender, public=False)
        truth = self.truth(sender)
        plain = normalised({card: p * likelihood(card, claim, truth) for card, p in prior.items()})
        if not self.style.reads_senders or not plain:
            return plain
        return self.read_sender(sender, receiver, claim, prior, plain)

    def read_sender(self, sender: int, receiver: int, claim: str, prior: Odds, plain: Odds) -> Odds:
        """Weigh each card by how keen a normal bot in `sender`'s seat would be to send it so.

        A normal sender draws card, target and claim together from a soft maximum over their
        values, so each card is as likely as that made this target and claim. The plain reading
        keeps a share (`sender_model_trust`), since nobody plays exactly like the model.
        """
        temperature = NORMAL.offer_temperature
        size = self.read.hand_sizes[sender]
        values = self.offer_values(sender, receiver, claim, size, NORMAL)
        top = max(values[card] for card in prior)
        modelled = normalised(
            {card: p * math.exp((values[card] - top) / temperature) for card, p in prior.items()}
        )
        trust = self.style.sender_model_trust
        return normalised(
            {
                card: trust * modelled.get(card, 0.0) + (1 - trust) * plain.get(card, 0.0)
                for card in prior
            }
        )

    # -- other players' answers -----------------------------------------------------------------
    def expected_answer(
        self, receiver: int, sender: int, claim: str, odds_key: Hashable, odds: Odds, passing: bool
    ) -> Answer:
        """How `receiver` is expected to answer: weighing true against false on `odds`."""
        key = ("plain", receiver, sender, claim, odds_key, passing)
        if key not in self._answers:
            theirs = self.worth(receiver, receiver)
            senders = self.worth(receiver, sender)
            lean = 0.0  # what believing gains the receiver over doubting
            for card, p in odds.items():
                gap = senders[card] - theirs[card]
                lean += p * gap if TRUE[card, claim] else -p * gap
            record = self.read.records[receiver]
            weight = self.style.record_weight
            habit = (record.said_true + 0.5 * weight) / (record.challenges + weight)
            style = self.style
            known = record.challenges / (record.challenges + style.habit_evidence)
            share = style.habit_share + (style.habit_most - style.habit_share) * known
            believe = (1 - share) * sigmoid(lean / self.style.answer_spread) + share * habit
            passes = 0.0
            if passing:
                answered = record.passes + record.challenges
                passes = (record.passes + self.style.pass_odds * weight) / (answered + weight)
            self._answers[key] = Answer(
                (1 - passes) * believe, (1 - passes) * (1 - believe), passes
            )
        return self._answers[key]

    def normal_answer(self, receiver: int, sender: int, claim: str) -> Answer:
        """How a normal bot in `receiver`'s seat would answer `sender`'s fresh offer."""
        key = ("normal", receiver, sender, claim)
        if key not in self._answers:
            odds_key = ("public", sender, claim)
            odds = self.public_odds(sender, claim)
            values = self.answer_values(receiver, sender, claim, odds, [sender], odds_key, odds)
            options = [values.believe, values.doubt]
            if values.passes:
                options.append(max(values.passes.values()))
            shares = [*soft_shares(options, NORMAL.answer_temperature), 0.0]
            self._answers[key] = Answer(shares[0], shares[1], shares[2])
        return self._answers[key]

    def receiver_answer(self, receiver: int, sender: int, claim: str, style: Style) -> Answer:
        """The answer to a fresh offer that `style` expects from `receiver`."""
        if style.models_answers:
            return self.normal_answer(receiver, sender, claim)
        passing = self.read.players > 2
        odds = self.public_odds(sender, claim)
        return self.expected_answer(
            receiver, sender, claim, ("public", sender, claim), odds, passing
        )

    # -- values ---------------------------------------------------------------------------------
    def offer_values(
        self, sender: int, to: int, claim: str, size: int | None, style: Style
    ) -> dict[str, float]:
        """What sliding each card to `to` claiming `claim` is worth to `sender`, as `style` sees it.

        `size` is the sender's hand once the card is gone.
        """
        key = ("offer", sender, to, claim, size, style.models_answers)
        if key in self._worth:
            return self._worth[key]
        answer = self.receiver_answer(to, sender, claim, style)
        back = self.worth(sender, sender, claim, size)  # the card comes back to the sender
        taken = self.worth(sender, to, claim)
        passed = self.after_pass(sender, [sender]) if answer.passes else None
        values = {
            card: answer.worth(
                TRUE[card, claim], back[card], taken[card], None if passed is None else passed[card]
            )
            for card in TYPES
        }
        self._worth[key] = values
        return values

    def answer_values(
        self,
        me: int,
        sender: int,
        claim: str,
        odds: Odds,
        seen: Sequence[int],
        first_key: Hashable,
        first_odds: Odds,
    ) -> Answers:
        """`me`'s value of believing, doubting and each pass, judging the card by `odds`.

        Later receivers judge by the first claim (`first_odds`), the only one made knowing the
        card.
        """
        mine = self.worth(me, me, claim)
        theirs = self.worth(me, sender)
        believe = doubt = 0.0
        for card, p in odds.items():
            if TRUE[card, claim]:
                believe += p * theirs[card]
                doubt += p * mine[card]
            else:
                believe += p * mine[card]
                doubt += p * theirs[card]
        values = Answers(believe, doubt)
        now_seen = [*seen, me]
        targets = [seat for seat in range(self.read.players) if seat not in now_seen]
        if not targets:
            return values
        passes = values.passes
        for to in targets:
            passing = len(now_seen) + 1 < self.read.players
            taken = self.worth(me, to)
            onward = self.after_pass(me, now_seen) if passing else None
            for new_claim in CLAIMS:
                answer = self.expected_answer(to, me, new_claim, first_key, first_odds, passing)
                back = self.worth(me, me, new_claim)
                value = 0.0
                for card, p in odds.items():
                    later = None if onward is None else onward[card]
                    value += p * answer.worth(TRUE[card, new_claim], back[card], taken[card], later)
                passes[to, new_claim] = value
        return values

    # -- the decisions --------------------------------------------------------------------------
    def offer(self, legal: list[OfferAction]) -> OfferAction:
        """Slide the card, to the player, with the claim worth most (softly)."""
        size = self.read.hand_sizes[self.me] - 1
        temperature = self.style.offer_temperature
        # Seven false claims to one true one would tilt a soft maximum towards lying whatever
        # the values: each (card, player, true or false) counts once, split among its claims.
        group: Counter[tuple[str, int, bool]] = Counter(
            (a["card"], a["to"], TRUE[a["card"], a["claim"]]) for a in legal
        )
        offers = {
            (to, claim): self.offer_values(self.me, to, claim, size, self.style)
            for to, claim in {(a["to"], a["claim"]) for a in legal}
        }
        values = [
            offers[a["to"], a["claim"]][a["card"]]
            - temperature * math.log(group[a["card"], a["to"], TRUE[a["card"], a["claim"]]])
            for a in legal
        ]
        return legal[soft_pick(self.rng, values, temperature)]

    def answer(self, passes: list[PassAction]) -> ChallengeAction | PassAction:
        """Believe, doubt or pass the card slid to us (`passes`: the legal passes), whichever
        is worth most (softly)."""
        flight = self.view["flight"]
        assert flight is not None  # (a card was slid to us)
        first = flight["claims"][0]
        sender0, claim0 = first["from"], first["claim"]
        odds = self.my_odds(sender0, first["to"], claim0)
        values = self.answer_values(
            self.me,
            flight["from"],
            flight["claim"],
            odds,
            list(flight["held_by"]),
            ("public", sender0, claim0),
            self.public_odds(sender0, claim0),
        )
        kinds = ["believe", "doubt"] + (["pass"] if values.passes else [])
        worth = {"believe": values.believe, "doubt": values.doubt}
        if values.passes:
            worth["pass"] = max(values.passes.values())
        choice = kinds[
            soft_pick(self.rng, [worth[k] for k in kinds], self.style.answer_temperature)
        ]
        if choice != "pass":
            return {"type": "challenge", "believe": choice == "believe"}
        options = [
            a for a in passes if (a["to"], a["claim"]) in values.passes and a.get("look", True)
        ]
        scores = [values.passes[a["to"], a["claim"]] for a in options]
        return options[soft_pick(self.rng, scores, self.style.offer_temperature)]

    def lay(self, legal: list[LayAction]) -> LayAction:
        """Lay out the cheapest legal choice (ties drawn at random). Two cards are listed in
        both orders; the first listed is weighed (the order changes nothing we price)."""
        lays: dict[tuple[str, ...], LayAction] = {}
        for action in legal:
            lays.setdefault(tuple(sorted(action["cards"])), action)
        unique = list(lays.values())
        costs = [self.read.lay_cost(action["cards"]) for action in unique]
        cheapest = [
            action for action, cost in zip(unique, costs, strict=True) if cost == min(costs)
        ]
        return self.rng.choice(cheapest)


@dataclass
class Answers:
    """What believing, doubting and each pass (to a seat, claiming) are worth to a receiver."""

    believe: float
    doubt: float
    passes: dict[tuple[int, str], float] = field(default_factory=dict)


class ThinkingBot(GameBot[RoachView, RoachAction]):
    """A bot that prices every choice from its view (see the module docstring)."""

    style = NORMAL

    def decide(self, view: RoachView, legal: list[RoachAction]) -> RoachAction | None:
        if not legal:
            return None
        thinker = Thinker(view, self.style, self.rng)
        offers = [action for action in legal if action["type"] == "offer"]
        lays = [action for action in legal if action["type"] == "lay"]
        if offers:
            return thinker.offer(offers)
        if lays:
            return thinker.lay(lays)
        return thinker.answer([action for action in legal if action["type"] == "pass"])


class NormalBot(ThinkingBot):
    """Reads claims from the unseen cards and records; sends cards to those closest to losing."""

    style = NORMAL


class HardBot(ThinkingBot):
    """Reads every claim through what a normal sender would send, and offers against answers."""

    style = HARD


BOTS = {"random": RandomBot, "normal": NormalBot, "hard": HardBot}
