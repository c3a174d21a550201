"""What Feed the Kraken bots make of everyone's claims: a track record per player, and how
much each claim moves the bot's belief about who is on which side.

A `Listener` reads the public talk in a view (`view["talk"]`) against what its seat knows:

- **Track records.** A claim is held against what was revealed later or what the seat knows
  for itself: a navigator who says they were handed no red when red was revealed lied; a
  captain's "I passed blue" when this seat, the navigator, was handed no blue is a lie; a
  captain and lieutenant whose passed cards cannot make up the revealed one cannot both be
  honest; a search or role claim about a seat whose group we know is right or wrong; a promise
  of guns is compared with the fist that opened. Each player's record is (claims borne out,
  lies caught), a caught lie shared when we cannot tell which of two players told it.
- **Beliefs.** Sailors rarely lie, so a caught lie makes a seat less likely a sailor and a record
  borne out more likely one. What a player says of others (a search result, "X is a pirate")
  counts as much as that player's record is worth: `reliability` = (borne out + 1) /
  (borne out + lies + 2).

The result is a factor per seat and side (sailor, pirate, cult) that `Mind.side_odds` multiplies
into its belief (`Mind.talk_factors`, the one hook in the existing belief code).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...rules.contract import Said
from ...rules.kraken import talk as vocabulary
from ...rules.kraken.types import KrakenView
from .chart import SIDE_OF

SIDES = ("sailor", "pirate", "cult")
#: How much one caught lie, and one claim borne out, weigh on a seat being a sailor.
LIE_WEIGHT = 0.45
TRUTH_WEIGHT = 1.12
#: How far a claim about someone else moves them, at full reliability: a search result, a role.
SEARCH_PULL = 1.5
ROLE_PULL = 0.5
SELF_PULL = 0.15  # "I am a sailor": everyone says it, so it says little
FLOOR, CEILING = 0.05, 20.0


def _bounded(row: list[float]) -> tuple[float, float, float]:
    """A seat's three factors (sailor, pirate, cult), each kept between FLOOR and CEILING."""
    sailor, pirate, cult = (min(CEILING, max(FLOOR, factor)) for factor in row)
    return sailor, pirate, cult


@dataclass
class Record:
    """One player's claims as we could check them."""

    borne_out: float = 0.0
    lies: float = 0.0

    @property
    def reliability(self) -> float:
        return (self.borne_out + 1) / (self.borne_out + self.lies + 2)


@dataclass
class Listener:
    """One bot seat's reading of the table talk."""

    seat: int
    records: dict[int, Record] = field(default_factory=dict)
    factors: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    _heard: tuple[int, int] = (-1, -1)

    def hear(self, view: KrakenView) -> dict[int, tuple[float, float, float]]:
        """Each seat's side factors (sailor, pirate, cult) from the talk in `view`."""
        talk = view.get("talk", [])
        key = (len(talk), len(view["log"]))
        if key == self._heard:
            return self.factors
        self._heard = key
        self.records = {}
        if not talk:
            self.factors = {}
            return self.factors
        known = self._known(view)
        self._check_navigations(view, talk)
        self._check_groups(talk, known)
        self._check_guns(view, talk)
        self.factors = self._weigh(talk, known)
        return self.factors

    def record(self, seat: int) -> Record:
        return self.records.setdefault(seat, Record())

    # -- what we know for sure ------------------------------------------------------------------
    def _known(self, view: KrakenView) -> dict[int, set[str]]:
        """The groups each seat may be in, as far as we know for certain."""
        groups: dict[int, set[str]] = {}
        me = self.seat
        faction = view["faction"]
        assert faction is not None  # (a seat's view)
        groups[me] = {SIDE_OF[faction]}
        for number, code in view["known"].items():
            groups[int(number)] = {"cult" if code in ("cult", "cult_leader", "cultist") else code}
        for seat, cards in enumerate(view["not_a"]):
            if cards and seat not in groups:
                groups[seat] = set(SIDES) - set(cards)
        return groups

    # -- checking claims ------------------------------------------------------------------------
    def _check_navigations(self, view: KrakenView, talk: list[Said]) -> None:
        navs = vocabulary.read_voyage(view).navs
        for number, nav in enumerate(navs, start=1):
            said = {
                (r["claim"]["kind"], r["claim"].get("office")): r
                for r in talk
                if r["claim"]["kind"] in ("passed", "handed") and r["claim"]["nav"] == number
            }
            revealed = nav["card"]
            passed = {}
            for office in ("captain", "lieutenant"):
                claim = said.get(("passed", office))
                if claim is not None:
                    passed[office] = (claim["seat"], claim["claim"]["passed"])
            handed = said.get(("handed", None))
            mine = nav["mine"]
            if handed is not None:
                cards = handed["claim"]["cards"]
                navigator = handed["seat"]
                if revealed not in cards:
                    self.record(navigator).lies += 1  # public: the card came from the logbook
                for seat, colour in passed.values():
                    if colour not in cards:
                        self._blame(seat, navigator)
                if len(passed) == 2 and sorted(c for _, c in passed.values()) == cards:
                    for seat, _ in passed.values():
                        self.record(seat).borne_out += 0.5
                    self.record(navigator).borne_out += 0.5
            if "cards" in mine:  # we were the navigator: we know both passed cards
                for seat, colour in passed.values():
                    if colour in mine["cards"]:
                        self.record(seat).borne_out += 0.5
                    else:
                        self.record(seat).lies += 1
            elif "passed" in mine:  # we drew: the other drawer passed the rest of the logbook
                other = [(s, c) for s, c in passed.values() if s != self.seat]
                if revealed != mine["passed"]:
                    for seat, colour in other:
                        if colour == revealed:
                            self.record(seat).borne_out += 1
                        else:
                            self.record(seat).lies += 1
                if (
                    handed is not None
                    and handed["seat"] != self.seat
                    and mine["passed"] not in handed["claim"]["cards"]
                ):
                    self.record(handed["seat"]).lies += 1
            elif len(passed) == 2 and revealed not in [c for _, c in passed.values()]:
                seats = [s for s, _ in passed.values()]
                self._blame(*seats)

    def _blame(self, *seats: int) -> None:
        """One of `seats` lied; we cannot tell which (we never blame ourselves)."""
        others = [s for s in seats if s != self.seat]
        if len(others) < len(seats):  # we know we did not: it was the other one
            for seat in others:
                self.record(seat).lies += 1
            return
        for seat in others:
            self.record(seat).lies += 1 / len(others)

    def _check_groups(self, talk: list[Said], known: dict[int, set[str]]) -> None:
        for said in talk:
            claim = said["claim"]
            if claim["kind"] not in ("searched", "role") or said["seat"] == self.seat:
                continue
            groups = known.get(claim["target"])
            if groups is None:
                continue
            if claim["group"] in groups:
                self.record(said["seat"]).borne_out += 1 if len(groups) == 1 else 0.3
            else:
                self.record(said["seat"]).lies += 1

    def _check_guns(self, view: KrakenView, talk: list[Said]) -> None:
        """A promise of guns against the next fists that opened after it."""
        fists: list[tuple[int, list[int | None]]] = []
        public = 0
        for event in view["log"]:
            if event["to"] is None:
                public += 1
                if event["kind"] == "fists":
                    fists.append((public, event["raised"]))
        for said in talk:
            claim = said["claim"]
            if claim["kind"] != "guns" or said["seat"] == self.seat:
                continue
            after = next((raised for line, raised in fists if line > said["line"]), None)
            if after is None or said["seat"] >= len(after) or after[said["seat"]] is None:
                continue
            gap = abs((after[said["seat"]] or 0) - claim["guns"])
            if gap >= 2:
                self.record(said["seat"]).lies += 0.5
            elif gap == 0:
                self.record(said["seat"]).borne_out += 0.5

    # -- weighing -------------------------------------------------------------------------------
    def _weigh(
        self, talk: list[Said], known: dict[int, set[str]]
    ) -> dict[int, tuple[float, float, float]]:
        factors: dict[int, list[float]] = {}

        def pull(seat: int, group: str, strength: float) -> None:
            row = factors.setdefault(seat, [1.0, 1.0, 1.0])
            row[SIDES.index(group)] *= 1 + strength

        for seat, record in self.records.items():
            row = factors.setdefault(seat, [1.0, 1.0, 1.0])
            row[0] *= LIE_WEIGHT**record.lies * TRUTH_WEIGHT ** min(record.borne_out, 4)
        for said in talk:
            claim, speaker = said["claim"], said["seat"]
            if claim["kind"] not in ("searched", "role") or speaker == self.seat:
                continue
            target = claim["target"]
            if target == self.seat or len(known.get(target, SIDES)) == 1:
                continue
            trust = self.record(speaker).reliability
            if claim["kind"] == "searched":
                strength = SEARCH_PULL
            else:
                strength = SELF_PULL if target == speaker else ROLE_PULL
            pull(target, claim["group"], strength * (2 * trust - 0.5))
        return {seat: _bounded(row) for seat, row in factors.items() if seat != self.seat}
