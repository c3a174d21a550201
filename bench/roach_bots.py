"""Roach bot strength and speed: one `normal` vs three `random`, one `hard` vs three `normal`.

Plays bot-only games straight through the engine, the one bot under test rotating through every
seat, and prints how often it loses (a fair share is 1/players: lower is better), how often each
game ended by four of a kind or an empty hand, decision latency per level and games per second.
Figures only: nothing here passes or fails.

    .venv/bin/python bench/roach_bots.py --games 1000 --seed 1 --json figures.json
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import decision_line, latency_ms, save_json
from bench.matchups import BotTally, each_matchup, hero_seat, in_parallel
from tablegames.bots.roach import BOTS
from tablegames.rules import get_game

MATCHUPS = {"normal": "random", "hard": "normal"}  # the one bot -> the level of the other seats
ACTION_LIMIT = 65 * 7  # every round moves a card out of the hands or the pile: games end sooner


@dataclass
class Tally(BotTally):
    """What a batch of games measured: whether the one bot lost, why games ended, decision times."""

    losses: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    actions: list[int] = field(default_factory=list)


def play_game(levels: list[str], seed: int, tally: Tally) -> dict[str, Any]:
    """Play one bot-only game; returns the engine's result."""
    state = get_game("roach").new(len(levels), seed)
    bots = [
        BOTS[level](seat, random.Random(seed * 100 + seat)) for seat, level in enumerate(levels)
    ]
    for taken in range(ACTION_LIMIT):
        if state.over:
            tally.actions.append(taken)
            return state.result()
        (seat,) = state.waiting_for()
        legal = state.legal(seat)
        started = time.perf_counter()
        action = bots[seat].choose(state.view(seat), legal)
        tally.latencies.setdefault(levels[seat], []).append(time.perf_counter() - started)
        if action not in legal:
            raise AssertionError(f"{levels[seat]} bot chose an illegal action {action}")
        state.apply(seat, action)
    raise AssertionError(f"game with seed {seed} did not end in {ACTION_LIMIT} actions")


def play_batch(hero: str, players: int, seeds: list[int]) -> Tally:
    """One `hero` bot against `players - 1` of its opponent level, rotating the hero's seat."""
    tally = Tally()
    started = time.perf_counter()
    for seed in seeds:
        seat, levels = hero_seat(hero, MATCHUPS[hero], players, seed)
        result = play_game(levels, seed, tally)
        tally.losses.append(int(result["loser"] == seat))
        tally.reasons["empty hand" if "offer" in result["reason"] else "four of a kind"] += 1
    tally.seconds = time.perf_counter() - started
    return tally


def run_matchup(hero: str, args: argparse.Namespace) -> Tally:
    """Play `args.games` games for `hero`, split over `args.jobs` processes."""
    seeds = [args.seed + index for index in range(args.games)]
    total = in_parallel(Tally(), args.jobs, play_batch, seeds, hero, args.players)
    total.seconds /= args.jobs  # the processes ran side by side
    return total


def wilson(hits: int, tries: int, z: float = 1.96) -> list[float]:
    """The 95% Wilson score interval for a rate of `hits` in `tries` (sound near 0 and 1)."""
    if not tries:
        return [0.0, 1.0]
    rate = hits / tries
    centre = (rate + z * z / (2 * tries)) / (1 + z * z / tries)
    half = z * math.sqrt(rate * (1 - rate) / tries + z * z / (4 * tries * tries))
    return [
        max(0.0, centre - half / (1 + z * z / tries)),
        min(1.0, centre + half / (1 + z * z / tries)),
    ]


def summary(hero: str, tally: Tally, players: int) -> dict[str, Any]:
    """The figures for one matchup, ready to print or dump as JSON."""
    games = len(tally.losses)
    rate = statistics.fmean(tally.losses)
    latency = {level: latency_ms(times) for level, times in sorted(tally.latencies.items())}
    return {
        "hero": hero,
        "opponents": MATCHUPS[hero],
        "games": games,
        "loss_rate": rate,
        "loss_rate_95": wilson(sum(tally.losses), games),
        "fair_share": 1 / players,
        "endings": dict(tally.reasons),
        "mean_actions": statistics.fmean(tally.actions),
        "games_per_second": games / tally.seconds if tally.seconds else 0.0,
        "latency": latency,
    }


def report(figures: dict[str, Any]) -> str:
    """A few readable lines for one matchup."""
    low, high = figures["loss_rate_95"]
    endings = ", ".join(f"{count} {why}" for why, count in sorted(figures["endings"].items()))
    lines = [
        f"one {figures['hero']} vs {figures['opponents']}s: loses {figures['loss_rate']:.1%} "
        f"(95% {low:.1%}–{high:.1%}) = {figures['loss_rate'] / figures['fair_share']:.2f}× a fair "
        f"{figures['fair_share']:.0%} over {figures['games']} games",
        f"  endings: {endings}; {figures['mean_actions']:.0f} actions a game; "
        f"{figures['games_per_second']:.1f} games/s",
    ]
    lines += [decision_line(level, times) for level, times in figures["latency"].items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per matchup")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1, help="first game's seed")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play games in")
    parser.add_argument(
        "--only", choices=sorted(MATCHUPS), action="append", help="run just this matchup"
    )
    args = parser.parse_args(argv)
    print(f"Roach bots: {args.players} players, seeds from {args.seed}")
    results = each_matchup(
        args.only or list(MATCHUPS),
        lambda hero: summary(hero, run_matchup(hero, args), args.players),
        report,
    )
    save_json(args.json, {"options": vars(args), "matchups": results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
