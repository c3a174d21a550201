"""Crates bot strength and speed: one `normal` vs three `random`, one `hard` vs three `normal`.

Plays bot-only games straight through the engine, the one stronger bot rotating through every
seat, and prints its win rate (a shared win counts 1/len(winners); a fair share is 1/players),
decision latency per level and games per second. Figures only: nothing here passes or fails.

    .venv/bin/python bench/crates_bots.py --games 1000 --players 4 --json figures.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tablegames.bots.crates import BOTS
from tablegames.rules import Action, State, get_game

MATCHUPS = {"normal": "random", "hard": "normal"}  # the one bot -> the level of the other seats
ACTION_LIMIT = 50_000  # a bot-only game takes a few hundred actions; this only stops a hang


@dataclass
class Tally:
    """What a batch of games measured: the one bot's win shares, scores and decision times."""

    shares: list[float] = field(default_factory=list)
    hero_scores: list[int] = field(default_factory=list)
    field_scores: list[float] = field(default_factory=list)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    unfinished: list[int] = field(default_factory=list)  # seeds of games that never ended
    seconds: float = 0.0

    def merge(self, other: Tally) -> None:
        self.shares += other.shares
        self.hero_scores += other.hero_scores
        self.field_scores += other.field_scores
        self.unfinished += other.unfinished
        for level, times in other.latencies.items():
            self.latencies.setdefault(level, []).extend(times)
        self.seconds += other.seconds


def next_move(state: State, bots: list[Any], levels: list[str], tally: Tally) -> tuple[int, Action]:
    """Ask the seats with an optional move (announce, Dope!) first, then the seat to act.

    Unlike `Table.bot_move`, which asks the seat to act first (so bots at a bot-only table never
    get to call Dope! on each other), everyone gets the chance a quick human would.
    """
    waiting = state.waiting_for()
    for seat in sorted(range(state.players), key=lambda s: s in waiting):
        legal = state.legal(seat)
        if not legal:
            continue
        started = time.perf_counter()
        action = bots[seat].choose(state.view(seat), legal)
        if seat in waiting:  # a turn decision: the one a player waits for
            tally.latencies.setdefault(levels[seat], []).append(time.perf_counter() - started)
        if action is not None:
            if action not in legal:
                raise AssertionError(f"{levels[seat]} bot chose an illegal action {action}")
            return seat, action
    raise AssertionError(f"no bot moved while the game waits for {sorted(waiting)}")


def play_game(levels: list[str], seed: int, short: bool, tally: Tally) -> dict[str, Any] | None:
    """Play one bot-only game; returns the engine's result, or None if it never ends."""
    state = get_game("crates").new(len(levels), seed, short=short)
    bots = [
        BOTS[level](seat, random.Random(seed * 100 + seat)) for seat, level in enumerate(levels)
    ]
    for _ in range(ACTION_LIMIT):
        if state.over:
            return state.result()
        state.apply(*next_move(state, bots, levels, tally))
    # The rules have no end for a round in which nobody can shed: counted, not scored.
    return None


def play_batch(hero: str, players: int, short: bool, seeds: list[int]) -> Tally:
    """One `hero` bot against `players - 1` of its opponent level, rotating the hero's seat."""
    tally = Tally()
    started = time.perf_counter()
    for seed in seeds:
        seat = seed % players
        levels = [MATCHUPS[hero]] * players
        levels[seat] = hero
        result = play_game(levels, seed, short, tally)
        if result is None:
            tally.unfinished.append(seed)
            continue
        winners = result["winners"]
        tally.shares.append(1 / len(winners) if seat in winners else 0.0)
        scores = result["scores"]
        tally.hero_scores.append(scores[seat])
        tally.field_scores.append((sum(scores) - scores[seat]) / (players - 1))
    tally.seconds = time.perf_counter() - started
    return tally


def run_matchup(hero: str, args: argparse.Namespace) -> Tally:
    """Play `args.games` games for `hero`, split over `args.jobs` processes."""
    seeds = [args.seed + index for index in range(args.games)]
    chunks = [seeds[job :: args.jobs] for job in range(args.jobs)]
    total = Tally()
    if args.jobs == 1:
        total.merge(play_batch(hero, args.players, args.short, seeds))
        return total
    with ProcessPoolExecutor(args.jobs) as pool:
        batches = [pool.submit(play_batch, hero, args.players, args.short, c) for c in chunks]
        for batch in batches:
            total.merge(batch.result())
    total.seconds /= args.jobs  # the processes ran side by side
    return total


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of `values` fall (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1)]


def summary(hero: str, tally: Tally, players: int) -> dict[str, Any]:
    """The figures for one matchup, ready to print or dump as JSON."""
    games = len(tally.shares)
    rate = statistics.fmean(tally.shares)
    spread = statistics.stdev(tally.shares) / math.sqrt(games) if games > 1 else 0.0
    latency = {
        level: {
            "decisions": len(times),
            "p50_ms": 1000 * percentile(times, 0.50),
            "p99_ms": 1000 * percentile(times, 0.99),
            "max_ms": 1000 * max(times),
        }
        for level, times in sorted(tally.latencies.items())
    }
    return {
        "hero": hero,
        "opponents": MATCHUPS[hero],
        "games": games,
        "win_rate": rate,
        "win_rate_95": [rate - 1.96 * spread, rate + 1.96 * spread],
        "fair_share": 1 / players,
        "hero_mean_total": statistics.fmean(tally.hero_scores),
        "field_mean_total": statistics.fmean(tally.field_scores),
        "games_per_second": games / tally.seconds if tally.seconds else 0.0,
        "latency": latency,
    }


def report(figures: dict[str, Any]) -> str:
    """A few readable lines for one matchup."""
    low, high = figures["win_rate_95"]
    lines = [
        f"one {figures['hero']} vs {figures['opponents']}s: win rate {figures['win_rate']:.1%} "
        f"(95% {low:.1%}–{high:.1%}) = {figures['win_rate'] / figures['fair_share']:.2f}× fair "
        f"share {figures['fair_share']:.0%} over {figures['games']} games",
        f"  mean final total: {figures['hero']} {figures['hero_mean_total']:.0f}, "
        f"each {figures['opponents']} {figures['field_mean_total']:.0f}; "
        f"{figures['games_per_second']:.2f} games/s",
    ]
    for level, times in figures["latency"].items():
        lines.append(
            f"  {level} decision: p50 {times['p50_ms']:.2f} ms, p99 {times['p99_ms']:.2f} ms, "
            f"max {times['max_ms']:.1f} ms ({times['decisions']} decisions)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per matchup")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--short", action="store_true", help="8-round games instead of 15")
    parser.add_argument("--seed", type=int, default=1, help="first game's seed")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play games in")
    parser.add_argument(
        "--only", choices=sorted(MATCHUPS), action="append", help="run just this matchup"
    )
    parser.add_argument(
        "--hard-games", type=int, help="games for the hard matchup (default --games)"
    )
    args = parser.parse_args(argv)
    length = "8-round (short)" if args.short else "15-round"
    print(f"Crates bots: {args.players} players, {length} games, seeds from {args.seed}")
    results = []
    for hero in args.only or list(MATCHUPS):
        games = args.hard_games if hero == "hard" and args.hard_games else args.games
        figures = summary(
            hero,
            run_matchup(hero, argparse.Namespace(**{**vars(args), "games": games})),
            args.players,
        )
        results.append(figures)
        print(report(figures), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"options": vars(args), "matchups": results}, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
