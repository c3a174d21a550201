"""Crates: variants of the hard bot in one seat against three normal bots, the same seeds each.

Every seed is played once per variant, the variant in the same seat (rotating with the seed) and
everything else alike, and the win shares are compared paired by seed. Variants:

- `hard`: the hard bot as it plays (for the chance of winning the game);
- `hard-by-round`: the same search judging a round by its points against the others' mean;
- `hard-knowing-hands`: the hard bot dealt the opponents' true hands: the upper bound for
  reading them from the log (`bench/crates_choices.py`'s `KnowingHands`);
- `normal`: the seat as a normal bot (its share is the fair share on these seeds).

Figures only. Tune on seeds 1-999, report from 100000.

    nice -n 10 .venv/bin/python bench/crates_variants.py --games 600 --seed 1 --jobs 2 \
        --variants hard hard-by-round
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.crates_bots import Tally, make_bots, play_out
from bench.crates_choices import KnowingHands
from tablegames.bots.crates import HardBot, NormalBot, round_outcome
from tablegames.rules import View, get_game


class HardByRound(HardBot):
    """The hard search judging a round by its points against the others' mean."""

    def outcome(self, view: View, points: list[int]) -> float:
        return round_outcome(points, self.seat)


VARIANTS: dict[str, type[Any]] = {
    "hard": HardBot,
    "hard-by-round": HardByRound,
    "hard-knowing-hands": KnowingHands,
    "normal": NormalBot,
}


def play(
    seed: int, variant: str, players: int, short: bool, budget: int | None = None
) -> float | None:
    """The tested seat's share of the win in game `seed` (None if it never ends); `budget`:
    a searching variant's rollout budget, if not its own."""
    seat, levels = seed % players, ["normal"] * players
    bots = make_bots(levels, seed)
    bots[seat] = VARIANTS[variant](seat, random.Random(seed * 100 + seat))
    if budget is not None and isinstance(bots[seat], HardBot):
        bots[seat].budget = budget
    state = get_game("crates").new(players, seed, short=short)
    bots[seat].truth = state  # only `hard-knowing-hands` reads it
    result = play_out(state, bots, levels, Tally())
    if result is None:
        return None
    return 1 / len(result["winners"]) if seat in result["winners"] else 0.0


def play_seeds(
    seeds: list[int], variants: list[str], players: int, short: bool, budget: int | None
) -> list[Any]:
    return [[play(seed, variant, players, short, budget) for variant in variants] for seed in seeds]


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (unbounded below two games)."""
    if len(values) < 2:
        return (values[0] if values else math.nan), math.inf
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1, help="first game's seed")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--full", action="store_true", help="15 rounds instead of 8")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--variants", nargs="+", choices=sorted(VARIANTS), default=["hard"])
    parser.add_argument(
        "--budget", type=int, help="the searching variants' rollout budget (the smoke test's)"
    )
    args = parser.parse_args(argv)
    seeds = list(range(args.seed, args.seed + args.games))
    started = time.perf_counter()
    task, jobs = (args.variants, args.players, not args.full, args.budget), args.jobs
    with ProcessPoolExecutor(args.jobs) as pool:
        parts = [pool.submit(play_seeds, seeds[job :: args.jobs], *task) for job in range(jobs)]
        rows = [row for part in parts for row in part.result()]
    rows = [row for row in rows if None not in row]  # games that never ended are left out
    print(
        f"Crates: one variant seat against {args.players - 1} normal bots, {len(rows)} games "
        f"({'15' if args.full else '8'} rounds, seeds {seeds[0]}-{seeds[-1]}), "
        f"{time.perf_counter() - started:.0f} s; win share ± 95%"
    )
    for index, name in enumerate(args.variants):
        share, half = interval([row[index] for row in rows])
        print(f"  {name:>18}: {share:.3f} ± {half:.3f} ({share * args.players:.2f}× fair)")
    for (a, first), (b, second) in itertools.combinations(enumerate(args.variants), 2):
        gain, half = interval([row[a] - row[b] for row in rows])
        print(f"  {first} − {second}, paired by seed: {gain:+.3f} ± {half:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
