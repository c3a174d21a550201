"""Feed the Kraken: an upper bound for one bot seat with a perfect belief ("oracle").

Issue 19 asks one hard seat to win 5 points more than a normal one in its seat. This measures
what a seat would gain if it knew every hidden role: with the normal judgement it gains about
nothing at 7 players, so the limit is how trust becomes action, not the belief.

Reuses bench/kraken_bots.py (its `versus` mode, statistics and printing) and adds hero levels:

- `oracle`: the normal bot whose Mind knows every seat's true starting role and current faction
  (conversions to the cult as they happen): side/leader odds are one-hot from the real engine
  state, the belief holds the one true deal (so everything reading `belief` sees it too), and
  `converted` is 0/1 from the truth. Decisions are the normal judge's, unchanged.
- `oracle-hard`: the same mind under the hard judge (its look-ahead `imagine` then samples
  the true roles and conversions; the unseen cards are still dealt at random).

The bench owns the real state: `get_game` in the bench module is wrapped so that the state of
the game being set up is remembered, and an oracle bot (built right after, by `make_bot`) keeps
a reference to it. Games run one at a time, so this is unambiguous.

    nice -n 10 .venv/bin/python bench/kraken_oracle.py --every-side --seed 100000 --games 999 \
        --skip balance --matchup-players 7 --matchups oracle oracle-hard hard random

Extra options (read before the bench's own): `--check` asserts the oracle's picture against the
truth at every decision; `--diff` also asks a shadow normal bot (same view, same random state)
what it would have done, and counts how often the oracle's decision differs, per prompt.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script

import bench.kraken_bots as kb
from tablegames.bots.kraken import BOTS, HardBot, NormalBot
from tablegames.bots.kraken.belief import ROLES
from tablegames.bots.kraken.chart import SIDE_OF
from tablegames.bots.kraken.hearing import Listener
from tablegames.bots.kraken.mind import SIDE_NAMES, Mind

CHECK = "--check" in sys.argv
DIFF = "--diff" in sys.argv
sys.argv = [a for a in sys.argv if a not in ("--check", "--diff")]

_STATES: list[Any] = []  # the state of the game being set up (the bench's, the real one)
STATS: Counter[str] = Counter()
DIFFS: dict[str, Counter[str]] = {}


class _RecordingGame:
    """The kraken Game, remembering each state it makes."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def new(self, *args: Any, **kwargs: Any) -> Any:
        state = self._game.new(*args, **kwargs)
        _STATES[:] = [state]
        return state

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


_get_game = kb.get_game
kb.get_game = lambda name: _RecordingGame(_get_game(name))


class OracleMind(Mind):
    """A Mind that knows the truth: every seat's starting role and current faction."""

    def __init__(self, view: Any, model: Any, truth: Any, start: list[str]) -> None:
        self.truth, self.start = truth, start
        super().__init__(view, model)

    def _facts(self, view: Any) -> Any:
        allowed = tuple(frozenset((ROLES.index(role),)) for role in self.start)
        settled = {
            seat: float(self.truth.factions[seat] != self.start[seat])
            for seat in range(self.players)
        }
        return (allowed, ()), settled

    def _conversion(self, view: Any, conversion: Any) -> None:
        # `converted` comes from the truth (`_facts`' settled chances, read at every update).
        for seat in range(self.players):
            self.converted[seat] = float(self.truth.factions[seat] != self.start[seat])

    def _side_odds(self, seat: int) -> dict[str, float]:
        side = SIDE_OF[self.truth.factions[seat]]
        return {name: float(name == side) for name in SIDE_NAMES}

    def leader_odds(self, seat: int) -> float:
        return float(self.truth.factions[seat] == "cult_leader")

    def cult_start(self, seat: int) -> float:
        return float(self.start[seat] in ("cult_leader", "cultist"))


def check(mind: OracleMind) -> None:
    """The oracle's picture is the truth: one-hot side odds matching the engine's factions, the
    belief certain of the true starting roles, conversions known."""
    truth = mind.truth
    assert mind.belief is not None
    for seat in range(mind.players):
        odds = mind.side_odds(seat)
        side = SIDE_OF[truth.factions[seat]]
        assert odds == {n: float(n == side) for n in SIDE_NAMES}, (seat, odds, truth.factions)
        assert abs(mind.belief.role_chance(seat, ROLES.index(mind.start[seat])) - 1) < 1e-9
        assert mind.converted[seat] == float(truth.factions[seat] != mind.start[seat])
        assert mind.ally(seat) == float(side == mind.side)
        STATS["checked seats"] += 1
        if truth.factions[seat] != mind.start[seat]:
            STATS["checked seats converted"] += 1
    assert mind.side == SIDE_OF[truth.factions[mind.me]]
    assert mind.belief.sample(0.37) == tuple(ROLES.index(r) for r in mind.start)
    STATS["checked decisions"] += 1


class OracleMixin:
    """think() with an OracleMind on the real state of the game this bot was made for."""

    seat: int
    model: Any
    talks: bool
    mind: Mind | None

    def _bind(self) -> None:
        self.truth = _STATES[0]
        self.start = list(self.truth.factions)  # made right after the deal: starting roles
        self.shadow = NormalBot(self.seat, random.Random(0)) if DIFF else None

    def think(self, view: Any) -> Mind:
        mind = self.mind
        if mind is None or mind.me != view["seat"] or not mind.history.fits(view["log"]):
            mind = self.mind = OracleMind(view, self.model, self.truth, self.start)
            self.listener = Listener(view["seat"])
        mind.update(view)
        if self.talks:
            mind.talk_factors = self.listener.hear(view)
        if CHECK:
            check(mind)  # type: ignore[arg-type]
        return mind

    def choose(self, view: Any, legal: list[Any]) -> Any:
        shadow_action = None
        if self.shadow is not None and legal:
            self.shadow.rng = random.Random()
            self.shadow.rng.setstate(self.rng.getstate())  # type: ignore[attr-defined]
            shadow_action = self.shadow.choose(view, legal)
        action = super().choose(view, legal)  # type: ignore[misc]
        if self.shadow is not None and legal:
            waiting = view["seat"] in view["waiting"]
            prompt = str(view["private"]["prompt"]) if waiting else "any-time"
            if prompt == "pick":
                prompt = f"pick:{view['pick']}"
            side = SIDE_OF[self.truth.factions[self.seat]]
            tally = DIFFS.setdefault(f"{side} {prompt}", Counter())
            tally["asked"] += 1
            if action != shadow_action:
                tally["changed"] += 1
        return action


class OracleBot(OracleMixin, NormalBot):
    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self._bind()


class OracleHardBot(OracleMixin, HardBot):
    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self._bind()


BOTS["oracle"] = OracleBot  # the bench's BOTS is this same dict
BOTS["oracle-hard"] = OracleHardBot
kb.MATCHUPS["oracle"] = ("oracle", "normal")
kb.MATCHUPS["oracle-hard"] = ("oracle-hard", "normal")
kb.MATCHUPS["random"] = ("random", "normal")  # calibration: how much one seat can lose


def main() -> int:
    code = kb.main()
    if CHECK:
        print("oracle checks:", dict(STATS))
    if DIFF:
        print("oracle decisions that differ from a normal mind's (same view, same random state):")
        for key in sorted(DIFFS):
            tally = DIFFS[key]
            if tally["changed"] or tally["asked"] >= 50:
                share = tally["changed"] / tally["asked"]
                print(f"  {key:32s} {tally['changed']:6d} / {tally['asked']:7d}  {share:6.1%}")
    return code


if __name__ == "__main__":
    sys.exit(main())
