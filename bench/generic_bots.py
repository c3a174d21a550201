"""The generic bots of a game without bots of its own: each level's share of won rounds against
`random` bots, and how long one decision takes.

By default the game is Love Letter (`tests/plugins/loveletter.py`, loaded as any plugin is:
``--plugin package.module:NAME``), whose generic `normal` and `hard` are determinized Monte
Carlo over its `from_view`. One bot of the level sits at a table of `random` bots, rotating
through the seats on paired seeds (the same deals for every level); a decision's time is the
thread's CPU time, which a busy machine does not inflate, with the wall time beside it. Figures
only: nothing here passes or fails on time.

    nice -n 10 .venv/bin/python -m bench.generic_bots --games 1000 --players 3 --seed 100000
"""

from __future__ import annotations

import argparse
import math
import random
import time
from typing import Any

from tablegames.bots import get_bot
from tablegames.rules import get_game
from tablegames.rules.core import load

from .figures import latency_ms, save_json

PLUGIN = "tests.plugins.loveletter:LOVELETTER"
LEVELS = ("random", "normal", "hard")


def play_round(
    game: str, level: str, players: int, seed: int
) -> tuple[float, list[float], list[float]]:
    """One game: the `level` bot's share of the win, and its decisions' CPU and wall times."""
    hero = seed % players
    rng = random.Random(seed)
    bots = {s: get_bot(game, level if s == hero else "random", s, rng) for s in range(players)}
    state = get_game(game).new(players, seed)
    cpu: list[float] = []
    wall: list[float] = []
    while not state.over:
        seat = min(state.waiting_for())
        started, ticks = time.perf_counter(), time.thread_time()
        action = bots[seat].choose(state.view(seat), state.legal(seat))
        if seat == hero:
            cpu.append(time.thread_time() - ticks)
            wall.append(time.perf_counter() - started)
        assert action is not None
        state.apply(seat, action)
    winners = state.result()["winners"]
    return (hero in winners) / len(winners), cpu, wall


def interval(share: float, games: int) -> tuple[float, float]:
    """A 95% normal interval around a win share."""
    half = 1.96 * math.sqrt(max(share * (1 - share), 1e-9) / games)
    return max(0.0, share - half), min(1.0, share + half)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plugin", default=PLUGIN, help="the game, as TABLEGAMES_GAMES names it")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--json", default=None, help="write the figures to this file")
    args = parser.parse_args(argv)
    game = load(args.plugin).name
    seeds = range(args.seed, args.seed + args.games)
    figures: dict[str, Any] = {"game": game, "players": args.players, "games": args.games}
    print(f"{game}: one bot of each level against {args.players - 1} random bots")
    for level in LEVELS:
        won, cpu, wall = 0.0, [], []
        for seed in seeds:
            share, ticks, waited = play_round(game, level, args.players, seed)
            won, cpu, wall = won + share, cpu + ticks, wall + waited
        share = won / args.games
        low, high = interval(share, args.games)
        times, waits = latency_ms(cpu), latency_ms(wall)
        figures[level] = {"share": share, "interval": [low, high], "cpu": times, "wall": waits}
        print(
            f"  {level:6}: won {share:.3f} (95% {low:.3f}-{high:.3f}; chance "
            f"{1 / args.players:.3f}); decision CPU p50 {times['p50_ms']:.1f} ms, "
            f"p99 {times['p99_ms']:.1f} ms, max {times['max_ms']:.1f} ms "
            f"(wall p99 {waits['p99_ms']:.1f} ms; {times['count']} decisions)"
        )
    save_json(args.json, figures)
    return figures


if __name__ == "__main__":
    main()
