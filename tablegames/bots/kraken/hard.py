"""The hard Feed the Kraken bot: the normal judgement, sharper, warier, disguised, looking ahead.

What sets it apart from the normal bot:
- It reads other players more sharply (`SHARP`: it expects them to keep and steer for their
  side and to raise guns the way the normal bots were measured to, issue 19).
- As a sailor or in the cult it mutinies more warily (`MUTINY_GAIN`, `ALL_IN_GAIN`): only when
  the team it would name clearly beats the one in office. Pirates mutiny as the normal bot
  does: they share a mutiny between them, and one holding back leaves the rest short.
- In the cult it keeps and steers the card a sailor would when that costs little
  (`DISGUISE`): trust earned cheaply early is worth more when the course matters.
- Whom it feeds to the Kraken or silences, it checks by looking ahead: it deals the hidden
  information `SAMPLES` times from its own belief (everyone's role, conversions, the unseen
  cards in the draw and discard piles), builds a rules-engine state for each deal and plays
  every candidate to the end of the next navigation with quick role-aware players, scoring
  where the ship ends up for its side. The same deals serve every candidate, and a candidate
  must beat the normal choice by `CONFIDENCE` standard errors to replace it.

The same look-ahead for the card it keeps and the card it steers by is gone: it overturned the
normal choice in about 2% of keeps and 5% of steers (even with 40 samples and 2 standard
errors) and cost the sailors about 6 points of win rate. The quick players and the chart's odds
at the end of one navigation are too crude a model to second-guess the chart there.
Appointments are left to the normal judgement too: looking ahead there needs a model of every
other mutineer, and the quick one made the bot play worse.

Everything it samples from comes from its view: its belief (`mind.py`), the public piles and its
own cards. The engine state it builds is its imagination, never the real one.
"""

from __future__ import annotations

import math
import random
import statistics

from ...rules.kraken.game import KrakenState
from ...rules.kraken.types import (
    TYPES,
    AppointAction,
    CardAction,
    KrakenAction,
    KrakenView,
    TargetAction,
)
from ..typed import seat_of
from .belief import ROLES, Model
from .chart import SIDE_OF, best_colour, colour_value, ends_game, space_value
from .mind import Mind
from .normal import Judge, colour_of

SAMPLES = 40  # sampled worlds per decision
HORIZON = 1  # navigations played out after the decision
ROLLOUT_LIMIT = 120  # actions per rollout, a guard against a long string of mutinies
CONFIDENCE = 2.0  # standard errors a candidate must beat the normal choice by
MAX_CANDIDATES = 5
LIFE = 0.1  # what one of our side leaving the ship costs us, against the chart's odds
#: How much a mutiny must improve the navigation we expect before we raise guns, and the
#: improvement for which we raise everything: warier than the normal bot (0.12, 0.3).
MUTINY_GAIN = 0.25
ALL_IN_GAIN = 0.45
#: The hard bot reads other players more sharply: it expects them to keep and steer for their
#: side, and raise guns as bots were measured to (against a captain of their own side and of
#: another side, by side: sailor, pirate, cult).
SHARP: Model = {
    "keep": (0.015, 0.04, 0.05),
    "steer": (0.01, 0.03, 0.02),
    "raise_with": (0.055, 0.01, 0.07),
    "raise_against": (0.22, 0.44, 0.16),
}
#: The cult keeps and steers the card a sailor would when that costs it at most this much of the
#: chart's value: cheap trust, spent later when the course matters. (Pirates gained nothing
#: from it at 7 players, and a table of disguised pirates loses to random players.)
DISGUISE = 0.06


class HardJudge(Judge):
    """Decides like the normal judge but mutinies more warily, and looks ahead in sampled
    worlds before feeding someone to the Kraken or cutting a tongue."""

    mutiny_gain = MUTINY_GAIN
    all_in_gain = ALL_IN_GAIN
    #: Sides that mutiny as readily as the normal bot: pirates share a mutiny between them, and
    #: one holding back leaves the others short.
    eager_sides: tuple[str, ...] = ("pirate",)

    def __init__(self, mind: Mind, view: KrakenView, rng: random.Random) -> None:
        super().__init__(mind, view, rng)
        if self.side in self.eager_sides:
            self.mutiny_gain, self.all_in_gain = Judge.mutiny_gain, Judge.all_in_gain

    def keep(self, legal: list[KrakenAction]) -> KrakenAction:
        chosen = super().keep(legal)
        if chosen["type"] != "keep":
            return chosen
        return self.disguised([a for a in legal if a["type"] == "keep"], chosen)

    def steer(self, legal: list[KrakenAction]) -> KrakenAction:
        chosen = super().steer(legal)
        if chosen["type"] != "steer":
            return chosen
        return self.disguised([a for a in legal if a["type"] == "steer"], chosen)

    def disguised(self, cards: list[CardAction], chosen: CardAction) -> CardAction:
        """The card a sailor would choose, if we are in the cult and it costs us little."""
        if self.side != "cult" or self.urgent():
            return chosen
        sailorly = max(
            cards,
            key=lambda a: (self.colour_value(colour_of(a["card"]), "sailor"), a["card"]),
        )
        cost = self.card_value(chosen["card"]) - self.card_value(sailorly["card"])
        return sailorly if cost <= DISGUISE else chosen

    def pick(self, legal: list[KrakenAction]) -> TargetAction:
        first = super().pick(legal)
        if self.view["pick"] not in ("feed_the_kraken", "off_with_the_tongue"):
            return first
        picks = [a for a in legal if a["type"] == "pick"]
        trusted = self.mind.trusted([a["target"] for a in picks])
        shortlist = {first["target"], *trusted[-(MAX_CANDIDATES - 1) :]}
        return self._search([a for a in picks if a["target"] in shortlist], first)

    # -- the search -----------------------------------------------------------------------------
    def _search(self, candidates: list[TargetAction], first: TargetAction) -> TargetAction:
        """The candidate whose rollouts do clearly best, else `first` (the normal choice)."""
        options = [first] + [a for a in candidates if a != first]
        if len(options) < 2:
            return first
        worlds = []
        for _ in range(SAMPLES):
            world = imagine(self.view, self.mind, self.rng)
            if world is None:
                return first
            worlds.append((world, self.rng.getrandbits(32)))
        scores = [
            [play_out(world, seed, self.me, action) for world, seed in worlds] for action in options
        ]
        return options[pick_best(scores)]


def pick_best(scores: list[list[float]]) -> int:
    """The index of the option to take; option 0 unless another beats it clearly."""
    best, best_gain = 0, 0.0
    for index, results in enumerate(scores[1:], start=1):
        gains = [mine - base for base, mine in zip(scores[0], results, strict=True)]
        mean = statistics.fmean(gains)
        spread = statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0
        margin = mean - CONFIDENCE * spread
        if margin > best_gain and mean > 0.02:
            best, best_gain = index, margin
    return best


# -- imagining the hidden state -------------------------------------------------------------------


def imagine(view: KrakenView, mind: Mind, rng: random.Random) -> KrakenState | None:
    """A full engine state consistent with `view`, the rest dealt from our belief (None if the
    decision point is not one we can rebuild)."""
    belief = mind.belief
    if belief is None:
        return None
    deal = belief.sample(rng.random())
    first = [ROLES[r] for r in deal]
    current = list(first)
    me, faction = seat_of(view), view["faction"]
    assert faction is not None  # (a seat's view)
    current[me] = faction
    for seat in range(view["players"]):
        known = view["known"].get(str(seat))
        if seat == me:
            continue
        if known in ("cultist", "cult_leader"):
            current[seat] = known
        elif known == "cult":  # searched: the cult's rank is what the deal says, or a convert
            current[seat] = first[seat] if first[seat] in ("cult_leader", "cultist") else "cultist"
        elif first[seat] in ("sailor", "pirate") and rng.random() < mind.converted[seat]:
            current[seat] = "cultist"
    return KrakenState.imagine(view, rng, roles=first, factions=current)


# -- playing it out -------------------------------------------------------------------------------


def play_out(world: KrakenState, seed: int, me: int, first: KrakenAction) -> float:
    """Our side's prospects after taking `first` in a copy of `world`, then playing on."""
    state = world.copy(random.Random(seed ^ 0x5EED))
    rng = random.Random(seed)
    side = SIDE_OF[state.factions[me]]
    try:
        state.apply(me, first)
    except ValueError:
        return 0.0
    navigations = sum(len(r) for r in state.resumes)
    stop = navigations + HORIZON
    for _ in range(ROLLOUT_LIMIT):
        if state.over or sum(len(r) for r in state.resumes) >= stop:
            break
        waiting = sorted(state.waiting_for())
        if not waiting:
            break
        seat = waiting[0]
        legal = moves(state, seat)
        if not legal:
            break
        state.apply(seat, quick_move(state, seat, legal, rng))
    if state.over:
        return 1.0 if state.winner == side else 0.0
    if side == "cult" and state.cult_leader() in state.eliminated:
        return 0.0
    lost = sum(
        1 for seat in state.eliminated - world.eliminated if SIDE_OF[state.factions[seat]] == side
    )
    return space_value(state.board.name, state.ship, side) - LIFE * lost


def moves(state: KrakenState, seat: int) -> list[KrakenAction]:
    """`seat`'s legal actions in an imagined state (an engine's `legal` lists its own types)."""
    return TYPES.legal(state.legal(seat))


def quick_move(
    state: KrakenState, seat: int, legal: list[KrakenAction], rng: random.Random
) -> KrakenAction:
    """A fast, role-aware move for the imagined players: they play for their side, pirates and
    cultists know their own, sailors and the cult leader guess."""
    kind = legal[0]["type"]
    side = SIDE_OF[state.factions[seat]]
    board, ship = state.board.name, state.ship
    if kind == "keep":
        keeps = [a for a in legal if a["type"] == "keep"]
        return max(
            keeps,
            key=lambda a: (
                colour_value(board, ship, side, colour_of(a["card"])) + 0.1 * rng.random()
            ),
        )
    if kind in ("steer", "jump"):
        steers = [a for a in legal if a["type"] == "steer"]
        losing = [
            a for a in steers if ends_game(board, ship, colour_of(a["card"])) not in (None, side)
        ]
        if len(losing) == len(steers):
            return {"type": "jump"}
        return max(
            steers,
            key=lambda a: (
                colour_value(board, ship, side, colour_of(a["card"])) + 0.05 * rng.random()
            ),
        )
    if kind == "mutiny":
        captain = state.captain
        friendly = _friend(state, seat, captain)
        guns = [a["guns"] for a in legal if a["type"] == "mutiny"]
        most, least = max(guns), min(guns)
        if friendly or rng.random() < 0.6:
            return {"type": "mutiny", "guns": least}
        return {"type": "mutiny", "guns": max(least, min(most, 2))}
    if kind == "appoint":

        def trust(action: AppointAction) -> float:
            value = rng.random()
            for other, weight in ((action.get("navigator"), 2.0), (action.get("lieutenant"), 1.0)):
                if other is not None and _friend(state, seat, other):
                    value += weight
            return value

        return max((a for a in legal if a["type"] == "appoint"), key=trust)
    if kind == "pick" or kind == "tie_break":
        targets = [a["target"] for a in legal if a["type"] == "pick" or a["type"] == "tie_break"]
        if state.pick_reason == "feed_the_kraken" and kind == "pick":
            leader = state.cult_leader()
            if side == "cult" and leader in targets and leader in state.known[seat]:
                return {"type": "pick", "target": leader}
            safe = [t for t in targets if t != leader or side == "cult"] or targets
            return {"type": kind, "target": rng.choice(safe)}
        strangers = [t for t in targets if not _friend(state, seat, t)] or targets
        if state.pick_reason in ("mermaid", "telescope"):
            strangers = targets
        return {"type": kind, "target": rng.choice(strangers)}
    if kind == "telescope":
        card = state.interrupt.card if state.interrupt is not None else None
        good = card is not None and colour_of(card) == best_colour(board, ship, side)
        return {"type": "telescope", "choice": "keep" if good else "discard"}
    if kind == "convert":
        targets = [a["target"] for a in legal if a["type"] == "convert"]
        target = state.captain if state.captain in targets else rng.choice(targets)
        return {"type": "convert", "target": target}
    return rng.choice(legal)


def _friend(state: KrakenState, seat: int, other: int) -> bool:
    """Whether `seat` would count on `other`: pirates and the cult know their own; a sailor or
    an unknowing cultist can only guess (a coin)."""
    if seat == other:
        return True
    mine, theirs = state.factions[seat], state.factions[other]
    if mine == "pirate":
        return theirs == "pirate"
    if mine in ("cult_leader", "cultist") and other in state.known[seat]:
        return True
    if mine == "cult_leader":
        return theirs == "cultist"
    return hash((seat, other, state.round)) % 2 == 0
