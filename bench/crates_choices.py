"""Crates hard's choices judged on the true cards: how much each one gains over normal's.

Win rates between close bots need thousands of games. This judges decisions instead: normal
bots play games, and at each turn of the seat under test where hard has a real choice, every
candidate is played out from the true state (the real hands and the real draw pile, with
normal bots to the round's end) to learn what each is really worth by the hard bot's own
measure (`HardBot.outcome`: the chance of winning the game as the totals stand after the
round). Each searcher then decides from the seat's view, and its gain is the true value of its
choice against normal's, in points of that chance (positive: better than normal). Searchers:

- `hard`: the hard bot as it plays;
- `hard-knowing-hands`: the same search dealt the opponents' true hands (the draw pile still
  shuffled): how much a perfect reading of the hands could add;
- `hard-without-deadline`: the same search spending its whole budget however long it takes
  (no `HardBot.max_seconds`): what the CPU deadline costs.

Figures only: nothing here passes or fails. Tune on seeds 1-999, report from 100000.

    nice -n 10 .venv/bin/python bench/crates_choices.py --games 30 --seed 100000 \
        [--searchers hard-knowing-hands hard-without-deadline]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import percentile
from tablegames.bots.crates import (
    HardBot,
    NormalBot,
    RoundReading,
    optional_action,
    play_round,
)
from tablegames.rules import Action, View, get_game
from tablegames.rules.crates import CratesState

TRUE_PLAYOUTS = 8  # the true draw pile is known: only reshuffles differ between playouts


class KnowingHands(HardBot):
    """Hard dealt the opponents' true hands: an upper bound for reading them from the log."""

    truth: CratesState

    def deal_unseen(self, view: View, reading: RoundReading) -> tuple[list[list[str]], list[str]]:
        draw = list(self.truth.draw_pile)
        self.rng.shuffle(draw)
        return [list(hand) for hand in self.truth.hands], draw


class WithoutDeadline(HardBot):
    """Hard spending its whole budget, however long that takes (no CPU deadline)."""

    max_seconds = math.inf


SEARCHERS: dict[str, type[HardBot]] = {
    "hard": HardBot,
    "hard-knowing-hands": KnowingHands,
    "hard-without-deadline": WithoutDeadline,
}


def true_values(state: CratesState, view: View, candidates: list[Action]) -> list[float]:
    """Each candidate's mean outcome from the true state (lower is better)."""
    draw = list(reversed(state.draw_pile))
    judge = HardBot(view["seat"], random.Random(0))
    values = []
    for candidate in candidates:
        outcomes = []
        for seed in range(TRUE_PLAYOUTS):
            hands = [list(hand) for hand in state.hands]
            points = play_round(view, hands, list(draw), seed, candidate)
            outcomes.append(judge.outcome(view, points))
        values.append(statistics.fmean(outcomes))
    return values


def judge(
    games: int, seed: int, players: int, searchers: list[str] | None = None
) -> dict[str, Any]:
    """Play `games` normal games (8 rounds), judging each searcher at the tested seat."""
    names = searchers or list(SEARCHERS)
    gains: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for game in range(seed, seed + games):
        state = get_game("crates").new(players, game, short=True)
        assert isinstance(state, CratesState)
        tested = game % players
        bots = [NormalBot(seat, random.Random(seat)) for seat in range(players)]
        while not state.over:
            seat = state.turn
            view, legal = state.view(seat), state.legal(seat)
            if seat == tested and not optional_action(legal):
                candidates = HardBot(seat, random.Random(0)).candidates(view, legal)
                if len(candidates) > 1:
                    judge_one(state, view, candidates, game, gains, cpu)
            action = bots[seat].choose(view, legal)
            assert action is not None
            state.apply(seat, action)
    return {"gains": gains, "cpu": cpu}


def judge_one(
    state: CratesState,
    view: View,
    candidates: list[Action],
    game: int,
    gains: dict[str, list[float]],
    cpu: dict[str, list[float]],
) -> None:
    """Every searcher's choice at one decision, and its true gain over normal's choice."""
    values = true_values(state, view, candidates)
    for name in gains:
        searcher = SEARCHERS[name](view["seat"], random.Random(game * 1000 + len(gains[name])))
        if isinstance(searcher, KnowingHands):
            searcher.truth = state
        started = time.process_time()
        chosen = searcher.search(view, candidates)
        cpu[name].append(time.process_time() - started)
        gains[name].append(100 * (values[0] - values[chosen]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=100_000, help="first game's seed")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--searchers", nargs="+", choices=sorted(SEARCHERS), default=["hard", "hard-knowing-hands"]
    )
    args = parser.parse_args(argv)
    if "hard" not in args.searchers:
        args.searchers.insert(0, "hard")  # (the others are paired with it)
    figures = judge(args.games, args.seed, args.players, args.searchers)
    gains, cpu = figures["gains"], figures["cpu"]
    decisions = len(gains["hard"])
    print(
        f"Crates: {decisions} decisions of the tested seat in {args.games} games of "
        f"{args.players} (8 rounds, seeds from {args.seed}); gain over normal's choice on the "
        "true cards, in points of the chance of winning the game per decision, ± 1 s.e."
    )
    for name in args.searchers:
        found, times = gains[name], cpu[name]
        error = statistics.stdev(found) / math.sqrt(len(found)) if len(found) > 1 else 0.0
        changed = sum(1 for gain in found if gain) / max(len(found), 1)
        line = (
            f"  {name:>18}: {statistics.fmean(found):+.2f} ± {error:.2f} (differs from normal's "
            f"value in {changed:.0%}); CPU p50 {percentile(times, 0.5) * 1000:.0f} ms, p99 "
            f"{percentile(times, 0.99) * 1000:.0f} ms"
        )
        if name != "hard":
            paired = [a - b for a, b in zip(found, gains["hard"], strict=True)]
            spread = statistics.stdev(paired) / math.sqrt(len(paired)) if len(paired) > 1 else 0
            line += f"; over hard {statistics.fmean(paired):+.2f} ± {spread:.2f}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
