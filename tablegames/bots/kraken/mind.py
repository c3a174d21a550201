"""One bot's picture of the table: its history, its belief, and whom it may trust now.

A `Mind` is fed every view its seat is shown; it reads only the new log lines, so it costs
little to keep up. Everything it concludes comes from those views: the same views always give the
same picture, whatever the hidden truth.

A search shows a group, not a rank: a seat known as ``cult`` is the cult leader, the starting
cultist (11 players) or a convert. The belief weighs those by the chance that seat was converted
before it was searched; with no conversion possible it must have started in the cult.
"""

from __future__ import annotations

from ...rules.kraken.types import KrakenView
from ..typed import seat_of
from .belief import CULTIST, LEADER, PIRATE, SAILOR, Belief, Model
from .chart import SIDE_OF, colour_odds
from .history import Conversion, History

SIDE_NAMES = ("sailor", "pirate", "cult")
#: What `known` may say of a seat that puts it in the cult: a rank, or only the group.
CULT_CODES = frozenset(("cult_leader", "cultist", "cult"))
#: How much likelier the cult leader converts the captain, lieutenant, navigator of the round.
CONVERT_BOOST = (3.0, 1.5, 2.0)
Facts = tuple[tuple[frozenset[int], ...], tuple[tuple[int, tuple[float, ...]], ...]]


def weigh_talk(
    odds: dict[str, float], factors: tuple[float, float, float] | None
) -> dict[str, float]:
    """`odds` weighed by what the table talk says (factors per side), normalised again."""
    if factors is None:
        return odds
    weighed = {side: odds[side] * f for side, f in zip(SIDE_NAMES, factors, strict=True)}
    total = sum(weighed.values())
    return {side: w / total for side, w in weighed.items()} if total > 0 else odds


class Mind:
    """What one seat believes about every other seat, kept up to date view by view."""

    def __init__(self, view: KrakenView, model: Model | None = None) -> None:
        self.model = model
        self.me = seat_of(view)
        self.players = view["players"]
        self.board = view["board"]
        self.history = History(self.me)
        self.belief: Belief | None = None
        self.converted = [0.0] * self.players  # chance each seat was converted to the cult
        self.turned_if_loyal = [0.0] * self.players  # the same, had it started a sailor or pirate
        self._conversions_seen = 0
        self._navigations_seen = 0
        self._votes_seen = 0
        self._appointments_seen = 0
        self._facts_used: Facts | None = None
        self.view = view
        self._odds: dict[int, dict[str, float]] = {}
        # What the table talk says of each seat, per side (set by `hearing.Listener`).
        self.talk_factors: dict[int, tuple[float, float, float]] = {}

    # -- keeping up -----------------------------------------------------------------------------
    def update(self, view: KrakenView) -> None:
        """Take in everything new in `view`."""
        self.view = view
        self._odds = {}
        fresh = self.history.read(view["log"], colour_odds(view))
        if not self._deal_afresh(view) and not fresh:
            return
        self._catch_up(view)
        if self._facts(view)[0] != self._facts_used:
            # A conversion read only now, with a search's "cult" result, changes what that
            # result says: weigh everything again.
            self._deal_afresh(view)
            self._catch_up(view)

    def _deal_afresh(self, view: KrakenView) -> bool:
        """Start the belief over if the certain facts changed (or there is none yet)."""
        facts, settled = self._facts(view)
        for seat, chance in settled.items():
            self.converted[seat] = chance
        if self.belief is not None and facts == self._facts_used:
            return False
        # Certain facts change which deals are possible: deal afresh, weigh everything again.
        self._facts_used = facts
        allowed, soft = facts
        first = self.history.first_faction or self.faction
        memory = self.belief.memory if self.belief is not None else None
        self.belief = Belief(self.players, self.me, first, allowed, model=self.model, memory=memory)
        for seat, factor in soft:
            self.belief.role_factor(seat, factor)
        self._navigations_seen = self._votes_seen = self._appointments_seen = 0
        return True

    def _catch_up(self, view: KrakenView) -> None:
        """Weigh the belief by everything read but not weighed yet."""
        history, belief = self.history, self.belief
        assert belief is not None
        for nav in history.navigations[self._navigations_seen :]:
            belief.see_navigation(nav, self.board)
        self._navigations_seen = len(history.navigations)
        for vote in history.votes[self._votes_seen :]:
            belief.see_vote(vote)
        self._votes_seen = len(history.votes)
        on_board = [s for s in range(self.players) if s not in view["eliminated"]]
        for appointment in history.appointments[self._appointments_seen :]:
            belief.see_appointment(appointment, on_board)
        self._appointments_seen = len(history.appointments)
        for conversion in history.conversions[self._conversions_seen :]:
            self._conversion(view, conversion)
        self._conversions_seen = len(history.conversions)

    def _facts(self, view: KrakenView) -> tuple[Facts, dict[int, float]]:
        """What we know for certain about starting roles (search results, cult contacts, fellow
        pirates, floggings), as the roles each seat may have had plus a few soft factors; and
        the conversion chances those facts settle."""
        allowed = [frozenset(range(4))] * self.players
        soft: list[tuple[int, tuple[float, ...]]] = []
        settled: dict[int, float] = {}
        first = self.history.first_faction or self.faction
        known = {int(k): f for k, f in view["known"].items()}
        if first == "pirate":
            # Our mates from the start (a converted one no longer shows as a pirate).
            mates = self.history.mates | {s for s, f in known.items() if f == "pirate"}
            allowed = [
                frozenset((PIRATE,)) if s in mates else frozenset((SAILOR, LEADER, CULTIST))
                for s in range(self.players)
            ]
        for seat, faction in known.items():
            if faction == "cult" and self.faction == "cult_leader":
                faction = "cultist"  # to the leader, anyone else in the cult is a cultist
            if faction == "cult":
                self._cult_seen(seat, allowed, soft, settled)
            elif faction == "cultist":
                settled[seat] = 1.0
                allowed[seat] = allowed[seat] - {LEADER}
            else:
                role = ("sailor", "pirate", "cult_leader").index(faction)
                allowed[seat] = allowed[seat] & {role}
                if faction != "cult_leader":
                    settled[seat] = 0.0
        for seat, cards in enumerate(view["not_a"]):
            for card in cards:
                if card == "cult":
                    allowed[seat] = allowed[seat] - {LEADER, CULTIST}
                    settled[seat] = 0.0
                else:  # a converted player shows "not a sailor" too: rare, so nearly ruled out
                    factor = [1.0, 1.0, 1.0, 1.0]
                    factor[SAILOR if card == "sailor" else PIRATE] = 0.03
                    soft.append((seat, tuple(factor)))
        return (tuple(allowed), tuple(soft)), settled

    def _cult_seen(
        self,
        seat: int,
        allowed: list[frozenset[int]],
        soft: list[tuple[int, tuple[float, ...]]],
        settled: dict[int, float],
    ) -> None:
        """`seat` showed "cult" in a search: the cult leader, a starting cultist or a convert.
        A convert started as a sailor or pirate: those roles keep the chance that a loyal seat
        was converted before the search; with no such chance, it started in the cult."""
        started_cult = allowed[seat] & {LEADER, CULTIST}
        if not started_cult:  # a fellow pirate shown as cult: converted
            settled[seat] = 1.0
            return
        turned = min(1.0, self.turned_if_loyal[seat])
        if turned <= 0.0:
            allowed[seat] = started_cult
        else:
            soft.append((seat, (turned, turned, 1.0, 1.0)))

    def _conversion(self, view: KrakenView, conversion: Conversion) -> None:
        """A conversion ritual: someone convertible then may have joined the cult, likeliest the
        captain or another officer of that navigation (the cult wants them most)."""
        if self.faction in ("cult_leader",):
            return  # the leader knows exactly (the `known` map)
        candidates = [
            s
            for s in range(self.players)
            if s != self.me
            and s not in view["eliminated"]
            and s not in conversion.unconvertible
            and self.converted[s] < 1.0
        ]
        boost = {s: b for s, b in zip(conversion.team, CONVERT_BOOST, strict=True) if s is not None}
        weights = {s: (1.0 - self.cult_start(s)) * boost.get(s, 1.0) for s in candidates}
        total = sum(weights.values())
        for seat, weight in weights.items():
            # The same chance for a seat we take to have started loyal: a "cult" search result
            # weighs a convert against the cult it started in by this (see `_cult_seen`).
            mine = boost.get(seat, 1.0)
            share = mine / (total - weight + mine)
            self.turned_if_loyal[seat] = 1 - (1 - self.turned_if_loyal[seat]) * (1 - share)
        if total <= 0:
            return
        for seat, weight in weights.items():
            share = weight / total
            self.converted[seat] = 1 - (1 - self.converted[seat]) * (1 - share)

    # -- reading --------------------------------------------------------------------------------
    @property
    def faction(self) -> str:
        return str(self.view["faction"])

    @property
    def side(self) -> str:
        return SIDE_OF[self.faction]

    def cult_start(self, seat: int) -> float:
        """P(seat started in the cult)."""
        assert self.belief is not None
        return self.belief.role_chance(seat, LEADER) + self.belief.role_chance(seat, CULTIST)

    def leader_odds(self, seat: int) -> float:
        """P(seat is the cult leader): a seat searched as "cult" may be a cultist too."""
        if seat == self.me:
            return float(self.faction == "cult_leader")
        assert self.belief is not None
        return self.belief.role_chance(seat, LEADER)

    def side_odds(self, seat: int) -> dict[str, float]:
        """P(seat is on each side now): sailor, pirate, cult."""
        if seat not in self._odds:
            self._odds[seat] = self._side_odds(seat)
        return self._odds[seat]

    def _side_odds(self, seat: int) -> dict[str, float]:
        if seat == self.me:
            return {name: float(name == self.side) for name in SIDE_NAMES}
        known = self.view["known"].get(str(seat))
        if known in CULT_CODES:
            return {"sailor": 0.0, "pirate": 0.0, "cult": 1.0}
        assert self.belief is not None
        belief = self.belief
        turned = self.converted[seat]
        if self.faction == "cult_leader":
            turned = 0.0  # the leader knows every convert
        if self.faction == "cultist" and known is None:
            turned = min(turned, 0.5)
        sailor = belief.role_chance(seat, SAILOR) * (1 - turned)
        pirate = belief.role_chance(seat, PIRATE) * (1 - turned)
        return weigh_talk(
            {"sailor": sailor, "pirate": pirate, "cult": 1 - sailor - pirate},
            self.talk_factors.get(seat),
        )

    def ally(self, seat: int) -> float:
        """P(seat wins with us)."""
        if seat == self.me:
            return 1.0
        return self.side_odds(seat)[self.side]

    def trusted(self, seats: list[int]) -> list[int]:
        """`seats` from the most to the least trusted (seat order on a tie)."""
        return sorted(seats, key=lambda s: (-self.ally(s), s))
