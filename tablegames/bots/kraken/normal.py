"""The normal Feed the Kraken bot's judgement: one function per prompt, all reading a `Mind`.

The bot steers by the chart (`chart.py`) and trusts by its belief (`mind.py`, which weighs the
table's claims through `hearing.py`). Talk is the table's, not the engine's: what the bot says
is `talk.py`'s, asked for by the table at the moments claims are made.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from itertools import product
from operator import mul

from ...rules.kraken.types import (
    AppointAction,
    Colour,
    KrakenAction,
    KrakenView,
    MutinyAction,
    TargetAction,
)
from ..typed import seat_of
from .belief import reveal_odds
from .chart import (
    COLOURS,
    SIDES,
    best_colour,
    colour_odds,
    colour_value,
    ends_game,
    voyage_ahead,
)
from .mind import Mind

#: How much a mutiny must improve the navigation we expect before we raise guns, and the
#: improvement for which we raise everything.
MUTINY_GAIN = 0.12
ALL_IN_GAIN = 0.3
DANGER = 0.5  # how much a team that may lose the game with the next card spurs a mutiny
#: Guns are scarce: only the supply line, an armed card or a character gives more, and every gun
#: raised in a successful mutiny is lost. Early in the voyage a mutiny must promise `GUN_COST`
#: more per gun it would cost us, and we hold `RESERVE` guns back for the mutiny that matters
#: (both shrink as the goals draw near; a card that could lose the game now spends everything).
GUN_COST = 0.04
RESERVE = 2
CERTAIN = 1 - 1e-9  # a belief this sure is knowledge (every other deal was ruled out)
UNIFORM = (1 / 3, 1 / 3, 1 / 3)  # side odds for an office nobody holds


def colour_of(card: str) -> str:
    return card.split("-", 1)[0]


def action_of(card: str) -> str:
    return card.split("-", 1)[1]


@lru_cache(maxsize=256)
def shown_values(
    board: str, ship: str, odds: tuple[float, ...], side: str
) -> dict[tuple[int, int, int], float]:
    """(captain, lieutenant, navigator side) -> what the card they reveal is worth to `side`,
    with these colour odds of a draw (`reveal_odds`): the same for every seat of a side and
    every decision until the ship moves or a card is revealed, so kept (not to be changed)."""
    table = reveal_odds(board, ship, dict(zip(COLOURS, odds, strict=True)))
    values = [colour_value(board, ship, side, c) for c in COLOURS]
    return {
        key: sum(p * v for p, v in zip(shown, values, strict=True)) for key, shown in table.items()
    }


class Judge:
    """The normal bot's decisions for one view (worked out lazily, once per view)."""

    mutiny_gain = MUTINY_GAIN
    all_in_gain = ALL_IN_GAIN

    def __init__(self, mind: Mind, view: KrakenView, rng: random.Random) -> None:
        self.mind, self.view, self.rng = mind, view, rng
        self.me = seat_of(view)
        self.side = mind.side
        self.board = view["board"]
        self.ship = view["ship"]
        self.odds = colour_odds(view)
        self.living = [s for s in range(view["players"]) if s not in view["eliminated"]]
        self._shown: dict[tuple[int, int, int], float] | None = None
        self._rows: dict[int, list[float]] = {}
        self._odds: dict[int, tuple[float, float, float]] = {}
        self._spread: dict[tuple[int | None, bool], tuple[float, ...]] = {}

    # -- values ---------------------------------------------------------------------------------
    def colour_value(self, colour: str, side: str | None = None) -> float:
        return colour_value(self.board, self.ship, side or self.side, colour)

    def card_value(self, card: str) -> float:
        """How good revealing `card` now would be for us: its colour, then its action."""
        return self.colour_value(colour_of(card)) + self.action_bonus(card)

    def action_bonus(self, card: str) -> float:
        view, mind = self.view, self.mind
        kind = action_of(card)
        captain = view["captain"]
        if kind == "drunk":
            new = self.next_captain(extra=1)
            if new is None:
                return 0.0
            return 0.06 * (mind.ally(new) - mind.ally(captain))
        if kind == "uprising":
            if not view["rituals_left"]:
                return 0.0
            return 0.08 if self.side == "cult" else -0.06
        navigator = view["navigator"]
        if kind in ("armed", "disarmed") and navigator is not None:
            sign = 1 if kind == "armed" else -1
            return sign * 0.02 * (mind.ally(navigator) - 0.5)
        return 0.01 * (mind.ally(captain) - 0.5)

    def next_captain(self, extra: int = 0) -> int | None:
        """Who takes over from a drunk captain (the captain holding `extra` more résumé cards)."""
        view = self.view
        captain = view["captain"]
        players = view["players"]
        able = [
            (captain + step) % players
            for step in range(1, players)
            if (captain + step) % players not in view["eliminated"]
            and (captain + step) % players not in view["tongueless"]
        ]
        if not able:
            return None
        counts = {s: len(view["resumes"][s]) for s in able}
        fewest = min(counts.values())
        return next(s for s in able if counts[s] == fewest)

    def steer_value(self, seat: int) -> float:
        """What we expect if `seat` chooses the course: each side's favourite, by our belief."""
        odds = self.mind.side_odds(seat)
        return sum(
            odds[side] * self.colour_value(best_colour(self.board, self.ship, side))
            for side in SIDES
        )

    def team_value(self, captain: int, lieutenant: int | None, navigator: int | None) -> float:
        """Our expected value of the next revealed card with this team: over the sides b of the
        lieutenant and c of the navigator, P(b) * P(c) * rows[3 * b + c], summed in that order
        (a best team weighs every pair of candidates: the sum runs in C, see `_spread_odds`)."""
        rows = self._captain_rows(captain)
        pairs = map(mul, self._spread_odds(lieutenant, False), self._spread_odds(navigator, True))
        value: float = sum(map(mul, pairs, rows))
        return value

    def _spread_odds(self, seat: int | None, inner: bool) -> tuple[float, ...]:
        """`seat`'s side odds lined up with `rows[3 * b + c]`: each repeated three times for the
        lieutenant's b, the three in turn three times for the navigator's c (`inner`)."""
        spread = self._spread.get((seat, inner))
        if spread is None:
            odds = self._odds_of(seat)
            spread = odds * 3 if inner else tuple(p for p in odds for _ in range(3))
            self._spread[(seat, inner)] = spread
        return spread

    def _odds_of(self, seat: int | None) -> tuple[float, float, float]:
        """`seat`'s side odds (sailor, pirate, cult); no seat: even odds."""
        if seat is None:
            return UNIFORM
        odds = self._odds.get(seat)
        if odds is None:
            sides = self.mind.side_odds(seat)
            odds = self._odds[seat] = (sides["sailor"], sides["pirate"], sides["cult"])
        return odds

    def _captain_rows(self, captain: int) -> list[float]:
        """For `captain`: (lieutenant side, navigator side) -> our value of the revealed card,
        the captain's side weighed by our belief (worked out once per view and captain)."""
        cached = self._rows.get(captain)
        if cached is not None:
            return cached
        if self._shown is None:
            odds = tuple(self.odds[c] for c in COLOURS)
            self._shown = shown_values(self.board, self.ship, odds, self.side)
        c_odds = self._odds_of(captain)
        rows = [
            sum(c_odds[a] * self._shown[(a, b, c)] for a in range(3))
            for b in range(3)
            for c in range(3)
        ]
        self._rows[captain] = rows
        return rows

    def best_team(self, captain: int, candidates: list[int]) -> tuple[float, int | None, int]:
        """The team we would name as `captain` from `candidates`: (value, lieutenant, nav)."""
        best: tuple[float, int | None, int] | None = None
        for lieutenant, navigator in product(candidates, repeat=2):
            if lieutenant == navigator:
                continue
            value = self.team_value(captain, lieutenant, navigator)
            if best is None or value > best[0]:
                best = (value, lieutenant, navigator)
        if best is None:
            return (self.team_value(captain, None, candidates[0]), None, candidates[0])
        return best

    def officer_candidates(self, captain: int) -> list[int]:
        view = self.view
        others = [s for s in self.living if s != captain]
        on_duty = [s for s in others if s not in view["off_duty"]]
        return on_duty if len(on_duty) >= 2 else others

    # -- prompts --------------------------------------------------------------------------------
    def appoint(self, legal: list[KrakenAction]) -> KrakenAction:
        view = self.view
        captain = view["captain"]
        appoints = [action for action in legal if action["type"] == "appoint"]

        def score(action: AppointAction) -> float:
            lieutenant = action.get("lieutenant", view["lieutenant"])
            navigator = action.get("navigator", view["navigator"])
            if "navigator" not in action and navigator is None:
                # The Consultant names the lieutenant; the captain will name the navigator.
                assert lieutenant is not None
                return self.steer_value(lieutenant) + 0.05 * self.mind.ally(lieutenant)
            value = self.team_value(captain, lieutenant, navigator)
            # Trust matters beyond this card: officers go off duty, allies stay useful.
            trust = 0.02 * self.mind.ally(navigator) if navigator is not None else 0.0
            return value + trust + self.rng.random() * 1e-6

        return max(appoints, key=score)

    def mutiny_want(self) -> float:
        """How much better the next navigation would look after a mutiny we lead."""
        view = self.view
        captain = view["captain"]
        mind = self.mind
        if mind.ally(captain) > 0.97:
            return -1.0
        now = self.team_value(captain, view["lieutenant"], view["navigator"])
        ours, _, _ = self.best_team(self.me, self.officer_candidates(self.me))
        # A captain we distrust keeps naming teams: count the rounds to come, a little.
        gain = (ours - now) * (1.0 + 0.5 * (1 - mind.ally(captain)))
        return gain + self.danger(now) + self.feeding_risk(captain)

    def feeding_risk(self, captain: int) -> float:
        """What we stand to lose if a cultist captain reaches a Kraken space and feeds it its
        own leader (or, for the cult, what we stand to win)."""
        if self.side == "cult":
            return 0.0
        reach = sum(self.odds[c] for c in COLOURS if self.reaches_kraken(c))
        if not reach:
            return 0.0
        cultist = self.mind.side_odds(captain)["cult"] - self.mind.leader_odds(captain)
        return 0.5 * reach * max(0.0, cultist)

    def danger(self, now: float) -> float:
        """Extra reason to act when a bad card could end the voyage against us now."""
        losing = [
            c for c in COLOURS if ends_game(self.board, self.ship, c) not in (None, self.side)
        ]
        if not losing:
            return 0.0
        return DANGER * max(0.0, 0.7 - now)

    def mutiny(self, legal: list[KrakenAction]) -> MutinyAction:
        choices = sorted(a["guns"] for a in legal if a["type"] == "mutiny")
        least, most = choices[0], choices[-1]
        want = self.mutiny_want()
        if self.grab_for_the_cult(most):
            return {"type": "mutiny", "guns": most}
        if self.side == "pirate":
            guns = min(most, self.pirate_share())
        else:
            guns = most if want > self.all_in_gain else min(most, 2)
        guns = min(guns, most - self.reserve(want))
        if guns <= 0 or want <= self.mutiny_gain + self.gun_cost(guns):
            return {"type": "mutiny", "guns": least}
        return {"type": "mutiny", "guns": max(least, guns)}

    def grab_for_the_cult(self, guns: int) -> bool:
        """True if we are in the cult and can take the ship from a captain outside it alone:
        the captaincy is the cult's way to the Kraken (a scripted player who always raises
        everything did clearly better in the cult's seats than one that waits)."""
        mutiny = self.view["mutiny"]
        needed = mutiny["threshold"] if mutiny is not None else 3
        return self.side == "cult" and guns >= needed and self.mind.ally(self.view["captain"]) < 0.5

    def urgent(self) -> bool:
        """True if the next card could end the game against us, or reach a Kraken space."""
        for colour in COLOURS:
            if ends_game(self.board, self.ship, colour) not in (None, self.side):
                return True
            if self.reaches_kraken(colour):
                return True
        return False

    def reaches_kraken(self, colour: Colour) -> bool:
        """True if a card of `colour` takes the ship to a Kraken space."""
        chart = self.view["map"]
        ahead = chart[self.ship][colour]
        space = chart.get(ahead) if ahead is not None else None
        return space is not None and space["action"] == "feed_the_kraken"

    def voyage_ahead(self) -> float:
        """How much of the voyage is left to keep guns for: none when the next card matters, or
        for the cult (the leader stands alone, and the captaincy is its way to the Kraken)."""
        if self.side == "cult" or self.urgent():
            return 0.0
        return voyage_ahead(self.board, self.ship)

    def reserve(self, want: float) -> int:
        """Guns to hold back for later mutinies: none when it matters now (see `RESERVE`)."""
        if want > self.all_in_gain + 0.2:
            return 0
        return round(RESERVE * self.voyage_ahead())

    def gun_cost(self, guns: int) -> float:
        """What spending `guns` now costs us in later mutinies (see `GUN_COST`)."""
        return GUN_COST * guns * self.voyage_ahead()

    def pirate_share(self) -> int:
        """Pirates know each other: each raises a share of what the mutiny needs, and the first
        of them (in seat order) one more, so that a pirate and nobody else comes out on top."""
        view = self.view
        mutiny = view["mutiny"]
        mutineers = mutiny["mutineers"] if mutiny is not None else []
        mates = sorted(
            s
            for s in mutineers
            if (s == self.me or view["known"].get(str(s)) == "pirate") and view["guns"][s] > 0
        )
        needed = mutiny["threshold"] if mutiny is not None else 3
        share = -(-needed // max(1, len(mates)))
        return share + (1 if mates and mates[0] == self.me else 0)

    def tie_break(self, legal: list[KrakenAction]) -> KrakenAction:
        removals = [a for a in legal if a["type"] == "tie_break"]
        return min(removals, key=lambda a: (self.mind.ally(a["target"]), a["target"]))

    def keep(self, legal: list[KrakenAction]) -> KrakenAction:
        redraw = [a for a in legal if a["type"] == "redraw"]
        keeps = [a for a in legal if a["type"] == "keep"]
        if redraw:
            expected = sum(self.odds[c] * self.colour_value(c) for c in COLOURS)
            if max(self.card_value(a["card"]) for a in keeps) < expected - 0.05:
                return redraw[0]
        return max(keeps, key=lambda a: (self.card_value(a["card"]), a["card"]))

    def steer(self, legal: list[KrakenAction]) -> KrakenAction:
        steers = [a for a in legal if a["type"] == "steer"]
        jump = [a for a in legal if a["type"] == "jump"]
        losing = [
            a
            for a in steers
            if ends_game(self.board, self.ship, colour_of(a["card"])) not in (None, self.side)
        ]
        if jump and len(losing) == len(steers):
            return jump[0]
        return max(steers, key=lambda a: (self.card_value(a["card"]), a["card"]))

    def pick(self, legal: list[KrakenAction]) -> TargetAction:
        reason = self.view["pick"]
        targets = [a["target"] for a in legal if a["type"] == "pick"]
        choose = PICKS.get(reason or "", Judge.pick_trusted)
        target = choose(self, targets)
        return {"type": "pick", "target": target}

    def pick_trusted(self, targets: list[int]) -> int:
        return self.mind.trusted(targets)[0]

    def pick_unknown(self, targets: list[int]) -> int:
        """The player whose side we are least sure of (a search or a flogging tells most)."""
        known = self.view["known"]

        def doubt(seat: int) -> float:
            if str(seat) in known:
                return -1.0
            odds = self.mind.side_odds(seat)
            return 1.0 - max(odds.values()) + 0.001 * self.rng.random()

        return max(targets, key=doubt)

    def pick_enemy(self, targets: list[int]) -> int:
        return min(targets, key=lambda s: (self.mind.ally(s), s))

    def pick_feed(self, targets: list[int]) -> int:
        mind = self.mind
        if self.side == "cult":
            # Feeding our own leader wins the game for the cult: only when we know who it is. A
            # search shows "cult" for a cultist too; that is the leader only if nobody else can be.
            leader = [s for s in targets if self.knows_leader(s)]
            if leader:
                return leader[0]

        def harm(seat: int) -> float:
            if self.side == "cult":
                return 1 - mind.ally(seat) + 0.05 * self.view["guns"][seat]
            return 1 - mind.ally(seat) - 4 * mind.leader_odds(seat)

        return max(targets, key=lambda s: (harm(s), -s))

    def knows_leader(self, seat: int) -> bool:
        """True if we know `seat` is the cult leader: told so, or no other role is left for a
        seat searched as "cult" (no conversion could have reached it, say)."""
        known = self.view["known"].get(str(seat))
        if known == "cult_leader":
            return True
        return known == "cult" and self.mind.leader_odds(seat) >= CERTAIN

    def peek(self, legal: list[KrakenAction]) -> KrakenAction:
        card = self.view["private"]["peek"]
        expected = sum(self.odds[c] * self.colour_value(c) for c in COLOURS)
        keep = card is None or self.card_value(card) >= expected
        return {"type": "telescope", "choice": "keep" if keep else "discard"}

    def instigate(self, legal: list[KrakenAction]) -> KrakenAction:
        raise_all = next(a for a in legal if a["type"] == "mutiny")
        mutiny = self.view["mutiny"]
        captain = self.view["captain"]
        if self.mind.ally(captain) > 0.6 or mutiny is None:
            return {"type": "decline"}
        return raise_all

    def give(self, legal: list[KrakenAction]) -> KrakenAction:
        targets = [a["target"] for a in legal if a["type"] == "pick"]
        return {"type": "pick", "target": self.pick_trusted(targets)}

    def convert(self, legal: list[KrakenAction]) -> KrakenAction:
        view = self.view
        converts = [a for a in legal if a["type"] == "convert"]

        def worth(action: TargetAction) -> float:
            seat = action["target"]
            office = 3.0 if seat == view["captain"] else 0.0
            office += 2.0 if seat == view["navigator"] else 0.0
            office += 1.5 if seat == view["lieutenant"] else 0.0
            return office + view["guns"][seat] / 3 + 0.01 * self.rng.random()

        return max(converts, key=worth)

    def stash(self, legal: list[KrakenAction]) -> KrakenAction:
        known = self.view["known"]
        # To the leader, anyone else known to be in the cult ("cult" from a search) is a cultist.
        cultists = sorted(int(s) for s, f in known.items() if f in ("cultist", "cult"))
        wanted = sorted((cultists + [self.me] * 3)[:3])
        for action in legal:
            if action["type"] == "stash" and sorted(action["recipients"]) == wanted:
                return action
        return legal[0]


PICKS: dict[str, Callable[[Judge, list[int]], int]] = {
    "cabin_search": Judge.pick_unknown,
    "flogging": Judge.pick_unknown,
    "off_with_the_tongue": Judge.pick_enemy,
    "feed_the_kraken": Judge.pick_feed,
    "mermaid": Judge.pick_trusted,
    "telescope": Judge.pick_trusted,
}

#: Prompt -> the name of the Judge method that answers it.
PROMPTS: dict[str, str] = {
    "appoint": "appoint",
    "emergency": "appoint",
    "mutiny": "mutiny",
    "tie_break": "tie_break",
    "keep": "keep",
    "steer": "steer",
    "pick": "pick",
    "peek": "peek",
    "instigate": "instigate",
    "give": "give",
    "convert": "convert",
    "stash": "stash",
}
