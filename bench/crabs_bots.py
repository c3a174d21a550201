"""Crabs bot strength and speed: `hard` teams against `normal` teams on a virtual clock.

Plays bot-only real-time games through the table (`run_realtime` on a `VirtualClock`, so a game
of minutes takes a fraction of a second and repeats exactly). In each game every other team is
`hard` (which teams alternates from game to game, so each level sits in every seat); a `normal`
vs `normal` batch on the same seeds is the baseline. Prints the hard teams' share of wins against
their fair share, token margins, game length in table time, decision latency per level
(every `choose` call, most of which return None while a reaction time runs) and how much faster
than real time the games ran. Figures only: nothing here passes or fails.

    .venv/bin/python bench/crabs_bots.py --games 400 --players 4 --jobs 4
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import percentile, save_json
from bench.matchups import BotTally, each_matchup, in_parallel, win_rate_words
from tablegames.bots.crabs import BOTS
from tablegames.drivers import run_realtime
from tablegames.rules import Action, View, get_game
from tablegames.table import Table, VirtualClock

ACTION_LIMIT = 100_000  # a bot-only game takes a few hundred actions; this only stops a hang
TIME_LIMIT = 4 * 3600.0  # table seconds


class Timed:
    """Wraps a bot to time each decision (wall clock) under its level's name."""

    def __init__(self, bot: Any, level: str, latencies: dict[str, list[float]]) -> None:
        self.bot, self.times = bot, latencies.setdefault(level, [])

    def wake_at(self) -> float | None:
        wake: float | None = self.bot.wake_at()
        return wake

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        started = time.perf_counter()
        action: Action | None = self.bot.choose(view, legal)
        self.times.append(time.perf_counter() - started)
        return action


@dataclass
class Tally(BotTally):
    """What a batch measured: per game the hero teams' win share and token margin, and times."""

    shares: list[float] = field(default_factory=list)
    fair: list[float] = field(default_factory=list)
    margins: list[float] = field(default_factory=list)
    table_seconds: list[float] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)


def play_game(hero: str, rival: str, players: int, seed: int, tally: Tally) -> None:
    """One game: teams seed%2, seed%2+2, ... play `hero`, the others `rival`."""
    game = get_game("crabs")
    state = game.new(players, seed)
    teams: list[list[int]] = state.view(None)["teams"]
    heroes = [t for t in range(len(teams)) if t % 2 == seed % 2]
    levels = {
        seat: hero if team in heroes else rival
        for team, members in enumerate(teams)
        for seat in members
    }
    rng = random.Random(seed * 7919)
    bots: dict[int, Any] = {
        seat: Timed(BOTS[level](seat, random.Random(rng.getrandbits(64))), level, tally.latencies)
        for seat, level in levels.items()
    }
    clock = VirtualClock()
    names = [f"{levels[seat]} {seat}" for seat in range(players)]
    table = Table(game, players, names, seed=seed, bots=bots, clock=clock)
    run_realtime(table, clock, ACTION_LIMIT, max_seconds=TIME_LIMIT)
    if not table.over:
        raise AssertionError(f"game {seed} did not end in {TIME_LIMIT:.0f} table seconds")
    result = table.state.result()
    winning = result["winning_team"]
    tally.shares.append(1.0 if winning in heroes else 0.0)
    tally.fair.append(len(heroes) / len(teams))
    tokens = result["team_tokens"]
    hero_mean = statistics.fmean(tokens[t] for t in heroes)
    rival_mean = statistics.fmean(tokens[t] for t in range(len(teams)) if t not in heroes)
    tally.margins.append(hero_mean - rival_mean)
    tally.table_seconds.append(table.now())
    tally.actions.append(len(table.log))


def play_batch(hero: str, rival: str, players: int, seeds: list[int]) -> Tally:
    tally = Tally()
    started = time.perf_counter()
    for seed in seeds:
        play_game(hero, rival, players, seed, tally)
    tally.seconds = time.perf_counter() - started
    return tally


def run_matchup(hero: str, rival: str, args: argparse.Namespace) -> Tally:
    """`args.games` games of `hero` teams against `rival` teams, over `args.jobs` processes."""
    seeds = [args.seed + index for index in range(args.games)]
    total = in_parallel(Tally(), args.jobs, play_batch, seeds, hero, rival, args.players)
    total.seconds /= args.jobs  # the processes ran side by side
    return total


def summary(hero: str, rival: str, tally: Tally) -> dict[str, Any]:
    """The figures for one matchup, ready to print or dump as JSON."""
    games = len(tally.shares)
    rate = statistics.fmean(tally.shares)
    spread = statistics.stdev(tally.shares) / math.sqrt(games) if games > 1 else 0.0
    return {
        "hero": hero,
        "rival": rival,
        "games": games,
        "win_rate": rate,
        "win_rate_95": [rate - 1.96 * spread, rate + 1.96 * spread],
        "fair_share": statistics.fmean(tally.fair),
        "token_margin": statistics.fmean(tally.margins),
        "mean_table_seconds": statistics.fmean(tally.table_seconds),
        "mean_actions": statistics.fmean(tally.actions),
        "faster_than_real_time": sum(tally.table_seconds) / tally.seconds,
        "latency": {
            level: {
                "calls": len(times),
                "p50_us": 1e6 * percentile(times, 0.50),
                "p99_us": 1e6 * percentile(times, 0.99),
                "max_ms": 1000 * max(times),
            }
            for level, times in sorted(tally.latencies.items())
        },
    }


def report(figures: dict[str, Any]) -> str:
    """A few readable lines for one matchup."""
    lines = [
        f"{figures['hero']} teams vs {figures['rival']} teams: {win_rate_words(figures)}, "
        f"fair share {figures['fair_share']:.0%}, over {figures['games']} games",
        f"  token margin per game {figures['token_margin']:+.2f}; a game lasts "
        f"{figures['mean_table_seconds']:.0f} table seconds, {figures['mean_actions']:.0f} "
        f"actions; ran {figures['faster_than_real_time']:.0f}× faster than real time",
    ]
    for level, times in figures["latency"].items():
        lines.append(
            f"  {level} choose(): p50 {times['p50_us']:.0f} µs, p99 {times['p99_us']:.0f} µs, "
            f"max {times['max_ms']:.1f} ms ({times['calls']} calls)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per matchup")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1, help="first game's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play games in")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    args = parser.parse_args(argv)
    print(
        f"Crabs bots: {args.players} players, {args.games} games a matchup, seeds from {args.seed}"
    )
    results = each_matchup(
        (("normal", "normal"), ("hard", "normal")),
        lambda pair: summary(*pair, run_matchup(*pair, args)),
        report,
    )
    save_json(args.json, {"options": vars(args), "matchups": results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
