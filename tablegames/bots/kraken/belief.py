"""A seat's belief about everyone's starting role: every role deal it cannot rule out, weighted.

The deals consistent with what the seat knows for certain (its own role, fellow pirates) are
listed once; each thing seen afterwards multiplies every deal's weight by how likely the deal
makes it: a revealed navigation card (given who drew, kept and steered), a mutiny's fists, a
pirate captain's choice of team, a search result or a flogging. Conversions are kept apart (see
`mind.py`): this belief is about the roles dealt at the start.

An 11-player seat weighs up to 1500 deals, so the work per deal is kept in C: deals and their
columns are byte strings (`Dealt`), a piece of evidence is a lookup of each deal's sides or roles
as one byte code (`_digits`, `_look_up`), evidence waits until the belief is read and is then
weighed in several pieces per pass (`Belief._flush`), and the factors worked out are kept for the
next belief dealt from the same deals (`Memory`). Every weight is the very float the plain
one-piece-at-a-time product gives: the bots decide exactly as they did.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import compress, product
from math import prod
from operator import itemgetter
from typing import TypeVar

from ...rules.kraken.roles import ROLE_TABLE
from .chart import COLOURS, SIDES, colour_value
from .history import Appointment, Navigation, Vote

ROLES = ("sailor", "pirate", "cult_leader", "cultist")
SAILOR, PIRATE, LEADER, CULTIST = range(4)
#: Role index -> side index (sailor 0, pirate 1, cult 2).
SIDE_INDEX = (0, 1, 2, 2)
EVERY_ROLE = frozenset(range(len(ROLES)))
#: `bytes.translate` tables: a column of role indices to sides, and to a 0/1 mask per role.
_SIDE_OF_ROLE = bytes(SIDE_INDEX) + bytes(256 - len(SIDE_INDEX))
_ROLE_MASKS = [bytes(int(r == role) for r in range(256)) for role in range(len(ROLES))]
#: `bytes.translate` tables multiplying each byte by a small number (results below 256 only).
_TIMES = {factor: bytes(b * factor & 0xFF for b in range(256)) for factor in range(2, 6)}
Model = dict[str, tuple[float, float, float]]
#: How players are expected to play, by side (sailor, pirate, cult): how often they keep or
#: steer by a card not the best for their side, and how often they raise guns against a
#: captain of their own side and of another side. This generic model is the normal bot's.
GENERIC: Model = {
    "keep": (0.08, 0.2, 0.15),
    "steer": (0.05, 0.15, 0.1),
    "raise_with": (0.1, 0.03, 0.1),
    "raise_against": (0.3, 0.5, 0.3),
}
SLIP = GENERIC  # the policy's own team model (`reveal_odds`) uses the generic slips
#: How much likelier a pirate captain names a fellow pirate (navigator, lieutenant).
PIRATE_PICK = (3.0, 2.0)
#: What a yellow card's cult ritual is worth to each side (sailor, pirate, cult) besides its move.
RITUAL_PULL = (-0.06, -0.06, 0.08)
MAX_DEALS = 1500  # more deals than this (an 11-player sailor faces 6300) are sampled
FLOOR = 1e-9  # deals this unlikely (relative to the best) are dropped...
PRUNE_EVERY = 8  # ...when we look, every few updates
RESCALE = 1e-150  # weights are scaled back up when the best falls below this
#: Each current deal's factor, read from a belief's columns.
Factors = Callable[["Belief"], Iterable[float]]
#: A product of floats multiplied left to right in C: `prod((a, b, c))` is `((1 * a) * b) * c`,
#: the very float the running product `a * b * c` gives in Python (`1 * a` is `a`).
_product: Callable[[Iterable[float]], float] = prod


def role_mixes(players: int) -> list[tuple[list[int], float]]:
    """Every starting role mix for `players` as role counts (by role index), with its chance."""
    sailors, pirates, cultists = ROLE_TABLE[players]
    if players == 5:  # one of 3 sailor and 2 pirate roles is removed unseen
        return [
            ([sailors - 1, pirates, 1, cultists], 0.6),
            ([sailors, pirates - 1, 1, cultists], 0.4),
        ]
    return [([sailors, pirates, 1, cultists], 1.0)]


class Belief:
    """Weighted role deals for one seat's view of the table."""

    def __init__(
        self,
        players: int,
        me: int,
        my_role: str,
        allowed: Sequence[frozenset[int]] | None = None,
        max_deals: int = MAX_DEALS,
        model: Model | None = None,
        memory: Memory | None = None,
    ) -> None:
        """`allowed` names, per seat, the starting roles (indices) it may have had; `model`
        how players are expected to play (GENERIC by default); `memory` the factors an earlier
        belief of this seat worked out (used if it started from the same deals)."""
        self.players, self.me = players, me
        self.model = model or GENERIC
        can = [frozenset(a) for a in allowed] if allowed else [EVERY_ROLE] * players
        can[me] = frozenset((ROLES.index(my_role),))
        start = (players, me, my_role, tuple(can), max_deals)
        if memory is not None and memory.start == start:
            dealt, weights = memory.dealt, memory.weights
        else:
            dealt, weights = _starting_deals(*start)
            if memory is None or memory.dealt.deals != dealt.deals:
                memory = Memory(start, dealt, weights)
        self.memory = memory
        self._use(dealt)
        self.weights: Sequence[float] = weights
        self._marginals: dict[tuple[int, int], float] | None = None  # (seat, role) asked
        self._total = 1.0  # of the weights, for the marginals
        self._updates = 0
        self._pending: list[Weighing] = []  # evidence not weighed in yet (see `_weigh`)
        self._kept: list[int] | None = None  # where the deals left stand in `memory.dealt`

    def _use(self, dealt: Dealt) -> None:
        """Weigh the deals of `dealt` from now on (see `Dealt` for the columns)."""
        self.deals = dealt.deals
        self.cols, self.sides, self.masks = dealt.cols, dealt.sides, dealt.masks
        self.pirate_counts = dealt.pirate_counts

    # -- reading the weights --------------------------------------------------------------------
    def role_odds(self, seat: int) -> list[float]:
        """P(seat's starting role) for sailor, pirate, cult leader, cultist."""
        return [self.role_chance(seat, role) for role in range(len(ROLES))]

    def role_chance(self, seat: int, role: int) -> float:
        """P(seat's starting role is `role`), worked out when first asked (a pass over the deals
        each: a decision asks about every seat's sides, seldom about every role)."""
        self._flush()
        if self._marginals is None:
            self._marginals = {}
            self._total = sum(self.weights) or 1.0
        chance = self._marginals.get((seat, role))
        if chance is None:
            chance = sum(compress(self.weights, self.masks[seat][role])) / self._total
            self._marginals[(seat, role)] = chance
        return chance

    def sample(self, rng_value: float) -> tuple[int, ...]:
        """The deal at cumulative weight `rng_value` (0..1): a draw from the belief."""
        self._flush()
        target = rng_value * sum(self.weights)
        running = 0.0
        for deal, weight in zip(self.deals, self.weights, strict=True):
            running += weight
            if running >= target:
                return tuple(deal)
        return tuple(self.deals[-1])

    # -- updating -------------------------------------------------------------------------------
    def _weigh(
        self, factors: Factors, most: float, evidence: object = None, detail: Hashable = None
    ) -> None:
        """Weigh each deal by its factor from `factors(self)` (read from the columns as they
        are then), none above `most`. Evidence waits until the belief is read: then a pass over
        the deals takes in several pieces at once (`_flush`). The factors of `evidence` (with
        a `detail` they also depend on) are remembered (see `Memory`)."""
        self._pending.append(Weighing(factors, most, evidence, detail))

    def _factors(self, piece: Weighing) -> Iterable[float]:
        """Each deal's factor for `piece`: remembered, or worked out (and remembered if worked
        out for every deal of `memory.dealt`, as before the first prune)."""
        if piece.evidence is None:
            return piece.factors(self)
        remembered = self.memory.recall(piece.evidence, piece.detail)
        if remembered is not None:
            return remembered if self._kept is None else map(remembered.__getitem__, self._kept)
        factors = piece.factors(self)
        if self._kept is not None:
            return factors
        return self.memory.keep(piece.evidence, piece.detail, factors)

    def _flush(self) -> None:
        """Weigh in the pending evidence, in order, with the very weights one `_scale` per
        piece gives: up to the next prune several at a time where no piece could have been
        ignored or rescaled (`_scale_together`), else one at a time."""
        pending, self._pending = self._pending, []
        at = 0
        while at < len(pending):
            room = PRUNE_EVERY - self._updates % PRUNE_EVERY
            chunk = pending[at : at + room]
            if len(chunk) > 1 and self._scale_together(chunk):
                at += len(chunk)
            else:
                self._scale(self._factors(pending[at]))
                at += 1

    def _scale_together(self, chunk: list[Weighing]) -> bool:
        """`_scale` by each piece of `chunk` in turn, in one pass: each deal's weight times its
        factors left to right (`_product`), the same floats as one piece at a time. That holds
        unless a piece would have been ignored (every weight 0) or rescaled (the best below
        `RESCALE`): not if the best weight at the end is far enough above `RESCALE` that no
        step before could have been below it, factors growing a weight by at most `most`
        (with room for rounding). False, and nothing changed, if that cannot be shown."""
        factors = [self._factors(piece) for piece in chunk]
        new = list(map(_product, zip(self.weights, *factors, strict=True)))
        best = max(new, default=0.0)
        growth = _product(max(1.0, piece.most) for piece in chunk)
        if not best >= 2 * RESCALE * growth:
            return False
        self._marginals = None
        self.weights = new
        self._updates += len(chunk)
        if self._updates % PRUNE_EVERY == 0:
            self._prune(best)
        return True

    def _scale(self, factors: Iterable[float]) -> None:
        """Multiply each deal's weight by its factor, unless that would rule out every deal."""
        new = [w * f for w, f in zip(self.weights, factors, strict=True)]
        best = max(new, default=0.0)
        if best <= 0.0:
            return  # evidence against every deal: our model was wrong, ignore it
        self._marginals = None
        if best < RESCALE:
            new = [w / best for w in new]
            best = 1.0
        self.weights = new
        self._updates += 1
        if self._updates % PRUNE_EVERY == 0:
            self._prune(best)

    def _prune(self, best: float) -> None:
        """Drop the deals far less likely than the best, if that drops many."""
        floor = best * FLOOR
        keep = list(compress(range(len(self.weights)), map(floor.__le__, self.weights)))
        if len(keep) < len(self.weights) * 2 // 3:
            self._use(Dealt([self.deals[i] for i in keep], self.players))
            self.weights = [self.weights[i] for i in keep]
            self._kept = keep if self._kept is None else [self._kept[i] for i in keep]

    def role_factor(self, seat: int, factor: Sequence[float]) -> None:
        """Weigh each deal by `factor[role of seat]` (0 rules a role out)."""
        self._weigh(lambda belief: map(factor.__getitem__, belief.cols[seat]), max(factor))

    def side_table(
        self,
        seats: Sequence[int | None],
        table: dict[tuple[int, ...], float],
        evidence: object = None,
        detail: Hashable = None,
    ) -> None:
        """Weigh each deal by `table[sides of seats]` (None seats are left out of the key; the
        table has every combination of sides); the table comes from `evidence` and `detail`
        (see `_weigh`), if given."""
        present = [s for s in seats if s is not None]
        # The table as a list, indexed by the sides as the digits of a number in base 3.
        values = [table[key] for key in product(range(3), repeat=len(present))]

        def factors(belief: Belief) -> Iterable[float]:
            sides = _digits([belief.sides[s] for s in present], [3] * len(present))
            return _look_up(values, sides)

        self._weigh(factors, max(values), evidence, detail)

    def see_navigation(self, nav: Navigation, board: str) -> None:
        """Weigh deals by how likely they make the revealed card, given what we saw of it."""
        key = len(nav.mermaid)
        if nav.table is None or nav.table[0] != key:
            nav.table = (key, navigation_table(nav, board, self.me, self.model))
        table = nav.table[1]
        if table is not None:
            self.side_table([nav.captain, nav.lieutenant, nav.navigator], table, nav, key)

    def see_vote(self, vote: Vote) -> None:
        """Weigh deals by each mutineer's raise against the captain (one pass for them all).

        A deal's factor is the product, mutineer by mutineer in vote order, of the chance of
        that mutineer's raise given its side and the captain's: `math.prod` of the deal's
        chances multiplies them in that order, as a running product would, without a Python
        step per mutineer and deal (an 11-player vote has ten mutineers and 1500 deals)."""
        captain = vote.captain
        mutineers = [s for s in vote.raised if s not in (self.me, captain)]
        if not mutineers:
            return
        with_, against = self.model["raise_with"], self.model["raise_against"]
        tables = {}
        for up in (True, False):
            table = []
            for theirs in range(3):  # the captain's side, then the mutineer's
                for mine in range(3):
                    chance = with_[mine] if mine == theirs else against[mine]
                    table.append(chance if up else 1 - chance)
            tables[up] = table

        def factors(belief: Belief) -> Iterable[float]:
            # Each deal's (captain's side, mutineer's side) as one index 3 * captain + mutineer.
            sides = belief.sides
            chances = [
                _look_up(
                    tables[vote.raised[seat] > 0], _digits([sides[captain], sides[seat]], (3, 3))
                )
                for seat in mutineers
            ]
            return map(_product, zip(*chances, strict=True))

        most = max(max(table) for table in tables.values()) ** len(mutineers)
        self._weigh(factors, most, vote)

    def see_appointment(self, appointment: Appointment, candidates: Sequence[int]) -> None:
        """Weigh deals by a pirate captain's habit of naming fellow pirates."""
        captain = appointment.captain
        if captain == self.me:
            return
        pool = len([c for c in candidates if c != captain])
        named = [
            (who, boost)
            for who, boost in zip(
                (appointment.navigator, appointment.lieutenant), PIRATE_PICK, strict=True
            )
            if who is not None and who in candidates and who != captain
        ]
        if not named or pool < 2:
            return

        # What a deal's factor depends on: whether the captain is a pirate, the named players'
        # roles and the pirates in the deal, as the digits of one number (`_digits`).
        radices = [2] + [len(ROLES)] * len(named) + [ROLE_TABLE[self.players][1] + 1]
        pirate_captain = _product(radices[1:])  # the codes from here on have one

        def factor(code: int) -> float:
            if code < pirate_captain:
                return 1.0
            _, *roles, pirates = _undigits(code, radices)
            value, left, mates = 1.0, pool, pirates - 1
            for (_, boost), role in zip(named, roles, strict=True):
                # Against the uniform choice of a captain who knows nobody.
                value *= (boost if role == PIRATE else 1.0) * left / (left + (boost - 1) * mates)
                if role == PIRATE:
                    mates -= 1
                left -= 1
            return value

        memo = Memo(factor)

        def factors(belief: Belief) -> Iterable[float]:
            columns = [belief.masks[captain][PIRATE]] + [belief.cols[who] for who, _ in named]
            codes = _digits([*columns, belief.pirate_counts], radices)
            return _look_up(memo, codes)

        # A captain's factor is at most the product of the boosts (1 if not a pirate).
        most = _product(boost for _, boost in named)
        self._weigh(factors, most, appointment, tuple(candidates))


@dataclass
class Weighing:
    """A piece of evidence waiting to be weighed in (see `Belief._weigh`)."""

    factors: Factors
    most: float  # no factor is larger
    evidence: object  # what it comes from, to remember its factors by (None: not remembered)
    detail: Hashable  # anything else the factors depend on


class Dealt:
    """Deals (each a byte string: every seat's role in turn) with, per seat, its column of
    roles and of sides and a 0/1 mask per role, and the pirates in each deal: bytes, so that
    weighing and marginals run over them in C (`map`, `compress`, `translate`)."""

    def __init__(self, deals: Sequence[bytes], players: int) -> None:
        self.deals = deals
        joined = b"".join(deals)
        self.cols = [joined[seat::players] for seat in range(players)]
        self.sides = [col.translate(_SIDE_OF_ROLE) for col in self.cols]
        self.masks = [[col.translate(mask) for mask in _ROLE_MASKS] for col in self.cols]
        pirates = b"\0" * len(deals)
        for masks in self.masks:
            pirates = _add_bytes(pirates, masks[PIRATE])
        self.pirate_counts = pirates


class Memory:
    """The factors each piece of evidence gave every deal of `dealt`, kept from one belief to
    the next of the same seat that starts from the same deals: when only a soft fact changes
    (a flogging's "not a sailor"), weighing everything again reads the factors back instead of
    working them out. Keyed by the evidence's identity (and a detail): the entry holds the
    evidence, so no other object can take its id. Lists, not arrays: reading them back makes
    no new floats, and most factors are the same few objects from a small table."""

    def __init__(self, start: Hashable, dealt: Dealt, weights: Sequence[float]) -> None:
        self.start = start  # what the deals were dealt from (see `Belief.__init__`)
        self.dealt, self.weights = dealt, weights  # the deals and their starting weights
        self._factors: dict[tuple[int, Hashable], tuple[object, list[float]]] = {}

    def recall(self, evidence: object, detail: Hashable) -> list[float] | None:
        entry = self._factors.get((id(evidence), detail))
        return entry[1] if entry is not None and entry[0] is evidence else None

    def keep(self, evidence: object, detail: Hashable, factors: Iterable[float]) -> list[float]:
        kept = list(factors)
        self._factors[(id(evidence), detail)] = (evidence, kept)
        return kept


Key = TypeVar("Key")


class Memo(dict[Key, float]):
    """`function(key)` worked out once per key: `_look_up(memo, codes)` looks the few distinct
    codes of many deals up in C instead of calling Python once per deal."""

    def __init__(self, function: Callable[[Key], float]) -> None:
        super().__init__()
        self.function = function

    def __missing__(self, key: Key) -> float:
        value = self[key] = self.function(key)
        return value


def _look_up(table: Sequence[float] | Memo[int], codes: bytes) -> Sequence[float]:
    """`table[code]` for each code, looked up in C (`itemgetter` of two codes or more)."""
    if len(codes) < 2:
        return [table[code] for code in codes]
    found: tuple[float, ...] = itemgetter(*codes)(table)
    return found


def _digits(columns: Sequence[bytes], radices: Sequence[int]) -> bytes:
    """Per deal, the number whose digits are the columns' values (the first most significant;
    each below its radix, the number below 256), one byte per deal, worked out in C."""
    number = columns[0]
    for column, radix in zip(columns[1:], radices[1:], strict=True):
        number = _add_bytes(number.translate(_TIMES[radix]), column)
    return number


def _undigits(number: int, radices: Sequence[int]) -> tuple[int, ...]:
    """The digits `_digits` made `number` of."""
    digits = []
    for radix in reversed(radices):
        number, digit = divmod(number, radix)
        digits.append(digit)
    return tuple(reversed(digits))


def _add_bytes(first: bytes, second: bytes) -> bytes:
    """Two equally long byte strings added byte by byte, in C: as big numbers, which do not
    carry from byte to byte as long as every sum stays below 256 (side codes do)."""
    total = int.from_bytes(first, "big") + int.from_bytes(second, "big")
    return total.to_bytes(len(first), "big")


def _deals(allowed: Sequence[frozenset[int]], counts: Sequence[int]) -> list[bytes]:
    """Every way to deal the role `counts` to the seats, each a role it is `allowed`, in
    lexicographic order (the order `_sample` picks from); a deal is each seat's role in turn.

    Meet in the middle: every allowed first half of a deal, each followed by every second half
    that deals the roles it left (worked out once per roles left): a 6300-deal table costs one
    concatenation per deal, not one per seat."""
    seats = len(allowed)
    if sum(counts) != seats:
        return []
    options = [sorted(a) for a in allowed]
    half = seats // 2

    def dealt(left: tuple[int, ...], role: int) -> tuple[int, ...]:
        return (*left[:role], left[role] - 1, *left[role + 1 :])

    @cache
    def tails(at: int, left: tuple[int, ...]) -> list[bytes]:
        """Every way to deal `left` to the seats from `at` on."""
        if at == seats:
            return [b""]
        out: list[bytes] = []
        for role in options[at]:
            if left[role]:
                head = bytes((role,))
                out += [head + tail for tail in tails(at + 1, dealt(left, role))]
        return out

    heads: list[tuple[bytes, tuple[int, ...]]] = []  # (first half, roles left)

    def fill(at: int, left: tuple[int, ...], head: bytes) -> None:
        if at == half:
            heads.append((head, left))
            return
        for role in options[at]:
            if left[role]:
                fill(at + 1, dealt(left, role), head + bytes((role,)))

    fill(0, tuple(counts), b"")
    return [head + tail for head, left in heads for tail in tails(half, left)]


def _starting_deals(
    players: int, me: int, my_role: str, allowed: tuple[frozenset[int], ...], max_deals: int
) -> tuple[Dealt, tuple[float, ...]]:
    """The deals a belief starts from, and their weights: every deal of each role mix that
    gives each seat a role it is `allowed` (a fixed sample if there are too many), the mix's
    chance spread evenly. Kept for a seat that knows only its own role (the same every game:
    an 11-player sailor's 6300 deals to sample from)."""
    if all(roles == EVERY_ROLE for seat, roles in enumerate(allowed) if seat != me):
        return _knowing_nothing(players, me, my_role, max_deals)
    return _weighted_deals(players, me, my_role, allowed, max_deals)


@lru_cache(maxsize=128)
def _knowing_nothing(
    players: int, me: int, my_role: str, max_deals: int
) -> tuple[Dealt, tuple[float, ...]]:
    """`_weighted_deals` for a seat that knows nothing but its own role."""
    allowed = [EVERY_ROLE] * players
    allowed[me] = frozenset((ROLES.index(my_role),))
    return _weighted_deals(players, me, my_role, tuple(allowed), max_deals)


def _weighted_deals(
    players: int, me: int, my_role: str, allowed: tuple[frozenset[int], ...], max_deals: int
) -> tuple[Dealt, tuple[float, ...]]:
    """`_starting_deals`, worked out."""
    deals: list[bytes] = []
    weights: list[float] = []
    for counts, chance in role_mixes(players):
        found = _deals(allowed, counts)
        if len(found) > max_deals:
            # Too many to weigh at every step: a fixed sample stands in for them all.
            picked = _sample(f"{players}/{me}/{my_role}", len(found), max_deals)
            found = [found[i] for i in picked]
        if found:
            deals += found
            weights += [chance / len(found)] * len(found)
    if not deals:  # what we were told contradicts itself: forget all but our own role
        can = [EVERY_ROLE] * players
        can[me] = allowed[me]
        for counts, chance in role_mixes(players):
            found = _deals(can, counts)
            deals += found
            weights += [chance / max(1, len(found))] * len(found)
    return Dealt(tuple(deals), players), tuple(weights)


@lru_cache(maxsize=512)
def _sample(seed: str, size: int, wanted: int) -> array[int]:
    """The indices `random.Random(seed).sample` picks, `wanted` of `size` (the same picks as
    sampling the deals themselves: it reads only their number), kept for the next belief."""
    return array("I", random.Random(seed).sample(range(size), wanted))


# -- the navigation model -------------------------------------------------------------------------


def _choice(values: list[float], a: int, b: int, slip: float) -> dict[int, float]:
    """Chances of keeping colour a or b (indices) for a player who values colours by `values`."""
    if a == b:
        return {a: 1.0}
    if abs(values[a] - values[b]) < 1e-9:
        return {a: 0.5, b: 0.5}
    better, worse = (a, b) if values[a] > values[b] else (b, a)
    return {better: 1 - slip, worse: slip}


def navigation_table(
    nav: Navigation,
    board: str,
    me: int,
    slips: Model = GENERIC,
) -> dict[tuple[int, ...], float] | None:
    """P(what we saw of `nav` | sides of its captain, lieutenant, navigator), keyed by those
    sides (absent offices left out). None if we cannot tell anything from it.

    Worked out from what we saw only (`_navigation_table`, kept): every seat that drew no card,
    did not steer and saw no discards sees the same, and shares one table (not to be changed).
    """
    return _navigation_table(
        board,
        nav.ship,
        tuple(nav.odds[c] for c in COLOURS),
        _colour(nav.card),
        _draw_seen(nav, nav.captain, me),
        _draw_seen(nav, nav.lieutenant, me),
        "none" if nav.navigator is None else "me" if nav.navigator == me else "other",
        tuple(sorted(_colour(c) for c in nav.logbook)),
        tuple(sorted(_colour(c) for c in nav.mermaid)),
        tuple(slips["keep"]),
        tuple(slips["steer"]),
    )


def _draw_seen(nav: Navigation, seat: int | None, me: int) -> tuple[int, ...] | None:
    """What we saw of `seat`'s draw: None if nobody drew (no lieutenant), (kept colour,
    discarded colour or -1) if we drew it, () if someone else did."""
    if seat is None:
        return None
    if seat == me and nav.kept is not None and nav.drawn:
        kept = _colour(nav.kept)
        rest = [_colour(c) for c in nav.drawn]
        rest.remove(kept)
        return (kept, rest[0] if len(rest) == 1 else -1)
    return ()


@lru_cache(maxsize=256)
def _navigation_table(
    board: str,
    ship: str,
    odds: tuple[float, ...],
    shown: int,
    captain: tuple[int, ...] | None,
    lieutenant: tuple[int, ...] | None,
    navigator: str,
    logbook: tuple[int, ...],
    mermaid: tuple[int, ...],
    keep_slips: tuple[float, ...],
    steer_slips: tuple[float, ...],
) -> dict[tuple[int, ...], float] | None:
    """`navigation_table` from what we saw: the colour odds of a draw, the revealed colour,
    each drawer's draw as `_draw_seen` gives it, the navigator ("none", "me" or "other"), the
    logbook we were handed and the discards a mermaid showed us (colours, sorted)."""
    values = side_values(board, ship)
    drawers = [
        [_kept_odds(draw, odds, values[side], keep_slips[side]) for side in range(3)]
        for draw in (captain, lieutenant)
    ]

    def steered(side_n: int, k_c: int, k_l: int) -> float:
        """The chance the navigator of `side_n` reveals the shown card from kept k_c, k_l."""
        if navigator == "me" or k_c == k_l:
            return 1.0
        if navigator == "none":
            return 0.5
        return _choice(values[side_n], k_c, k_l, steer_slips[side_n])[shown]

    # The drawers' kept and discarded cards that fit what we saw (whatever their sides), and
    # those with their joint chance per (captain's side, lieutenant's side): the same for every
    # navigator's side.
    fitting = {
        (k_c, d_c, k_l, d_l)
        for k_c, d_c in {key for odds in drawers[0] for key in odds}
        for k_l, d_l in {key for odds in drawers[1] for key in odds}
        if _fits(shown, logbook, mermaid, k_c, d_c, k_l, d_l)
    }
    fits: dict[tuple[int, int], list[tuple[float, int, int]]] = {}
    for side_c, side_l in product(range(3), repeat=2):
        fits[(side_c, side_l)] = [
            (p_c * p_l, k_c, k_l)
            for (k_c, d_c), p_c in drawers[0][side_c].items()
            for (k_l, d_l), p_l in drawers[1][side_l].items()
            if (k_c, d_c, k_l, d_l) in fitting
        ]
    chances = Memo[tuple[int, int, int]](lambda key: steered(*key))
    present = (True, lieutenant is not None, navigator != "none")
    table: dict[tuple[int, ...], float] = {}
    for side_c, side_l, side_n in product(range(3), repeat=3):
        total = 0.0
        for pair, k_c, k_l in fits[(side_c, side_l)]:
            total += pair * chances[(side_n, k_c, k_l)]
        key = tuple(
            side for side, there in zip((side_c, side_l, side_n), present, strict=True) if there
        )
        table[key] = table.get(key, 0.0) + total
    if all(value == 0.0 for value in table.values()):
        return None
    return table


def _fits(
    shown: int,
    logbook: tuple[int, ...],
    mermaid: tuple[int, ...],
    k_c: int,
    d_c: int,
    k_l: int,
    d_l: int,
) -> bool:
    """True if the captain keeping k_c (discarding d_c) and the lieutenant k_l (d_l) fits the
    revealed card, the logbook we were handed and the discards a mermaid showed us."""
    if logbook and tuple(sorted((k_c, k_l))) != logbook:
        return False
    if shown not in (k_c, k_l):
        return False
    if mermaid and -1 not in (d_c, d_l):
        other = k_l if shown == k_c else k_c
        return tuple(sorted((d_c, d_l, other))) == mermaid
    return True


def side_values(board: str, ship: str) -> list[list[float]]:
    """How each side values each colour from `ship`: the chart, and a yellow card's ritual
    (the cult longs for one, everyone else fears it)."""
    return [
        [
            colour_value(board, ship, side, colour) + (pull if colour == "yellow" else 0.0)
            for colour in COLOURS
        ]
        for side, pull in zip(SIDES, RITUAL_PULL, strict=True)
    ]


def _colour(card: str) -> int:
    return COLOURS.index(card.split("-", 1)[0])


def _kept_odds(
    draw: tuple[int, ...] | None,
    odds: tuple[float, ...],
    values: list[float],
    slip: float,
) -> dict[tuple[int, int], float]:
    """(kept colour, discarded colour) -> chance, for one drawer who values colours by `values`
    (-1: not one card); `draw` as `_draw_seen` gives it."""
    if draw:  # our own draw
        return {(draw[0], draw[1]): 1.0}
    out: dict[tuple[int, int], float] = {}
    for a in range(3):
        for b in range(3):
            pair = odds[a] * odds[b]
            if draw is None:  # no lieutenant: the cards keep one at random
                choices = {a: 0.5, b: 0.5} if a != b else {a: 1.0}
            else:
                choices = _choice(values, a, b, slip)
            for kept, chance in choices.items():
                key = (kept, b if kept == a else a)
                out[key] = out.get(key, 0.0) + pair * chance
    return out


_REVEALS: dict[tuple[str, str, tuple[float, ...]], dict[tuple[int, int, int], list[float]]] = {}


def reveal_odds(
    board: str, ship: str, odds: dict[str, float]
) -> dict[tuple[int, int, int], list[float]]:
    """(captain, lieutenant, navigator side) -> chance of each colour being revealed, if each
    keeps and steers by what is best for their side (with the model's slips)."""
    rounded = tuple(round(odds[c], 2) for c in COLOURS)
    key = (board, ship, rounded)
    if key in _REVEALS:
        return _REVEALS[key]
    values = side_values(board, ship)
    kept = []
    for side in range(3):
        dist = [0.0, 0.0, 0.0]
        for a in range(3):
            for b in range(3):
                for colour, chance in _choice(values[side], a, b, SLIP["keep"][side]).items():
                    dist[colour] += rounded[a] * rounded[b] * chance
        kept.append(dist)
    table: dict[tuple[int, int, int], list[float]] = {}
    for side_c, side_l, side_n in product(range(3), repeat=3):
        shown = [0.0, 0.0, 0.0]
        for k_c in range(3):
            for k_l in range(3):
                pair = kept[side_c][k_c] * kept[side_l][k_l]
                for colour, chance in _choice(
                    values[side_n], k_c, k_l, SLIP["steer"][side_n]
                ).items():
                    shown[colour] += pair * chance
        total = sum(shown) or 1.0
        table[(side_c, side_l, side_n)] = [x / total for x in shown]
    if len(_REVEALS) > 2000:
        _REVEALS.clear()
    _REVEALS[key] = table
    return table
