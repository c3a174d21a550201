"""The generic bots of a game without bots of its own: each level's share of won games against
bots of another level (`random` by default), and how long one decision takes.

By default the game is Love Letter (`tests/plugins/loveletter.py`, loaded as any plugin is:
``--plugin package.module:NAME``), whose generic `normal` and `hard` are determinized Monte
Carlo over its `from_view`. One bot of the level sits at a table of `--versus` bots, rotating
through the seats on paired seeds (the same deals for every level); a decision's time is the
thread's CPU time, which a busy machine does not inflate, with the wall time beside it. Figures
only: nothing here passes or fails on time.

    nice -n 10 .venv/bin/python -m bench.generic_bots --games 1000 --players 3 --seed 100000

A game of many rounds: Sealed Bids (`tests/plugins/sealedbids.py`, every seat bids at once, in
hands to 25 points), `hard` against two `normal` bots; its `evaluate` ends the bots' playouts at
the end of a hand, judged by the scores. `--without-evaluate` plays the same deals with the
hook taken away (every playout to the end of the game, as before it existed):

    nice -n 10 .venv/bin/python -m bench.generic_bots --plugin \
        tests.plugins.sealedbids:SEALED_BIDS --levels hard --versus normal --games 300
"""

from __future__ import annotations

import argparse
import math
import random
import time
from typing import Any

from tablegames.bots import get_bot
from tablegames.rules import State, get_game
from tablegames.rules.core import load

from .figures import latency_ms, save_json

PLUGIN = "tests.plugins.loveletter:LOVELETTER"
LEVELS = ("random", "normal", "hard")


def play_round(
    game: str,
    level: str,
    players: int,
    seed: int,
    versus: str = "random",
    options: dict[str, Any] | None = None,
) -> tuple[float, list[float], list[float]]:
    """One game: the `level` bot's share of the win against `versus` bots, and its decisions'
    CPU and wall times."""
    hero = seed % players
    rng = random.Random(seed)
    bots = {s: get_bot(game, level if s == hero else versus, s, rng) for s in range(players)}
    state = get_game(game).new(players, seed, **(options or {}))
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


def option_value(given: str) -> tuple[str, Any]:
    """NAME=VALUE as a game option: a number where it is one."""
    name, _, value = given.partition("=")
    return name, int(value) if value.lstrip("-").isdigit() else value


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
    parser.add_argument("--levels", default=",".join(LEVELS), help="the levels measured")
    parser.add_argument("--versus", default="random", help="the other bots' level")
    parser.add_argument(
        "--option", action="append", default=[], help="a game option, NAME=VALUE (repeatable)"
    )
    parser.add_argument(
        "--without-evaluate",
        action="store_true",
        help="take the game's `evaluate` away: playouts go to the end of the game",
    )
    parser.add_argument("--json", default=None, help="write the figures to this file")
    args = parser.parse_args(argv)
    game = load(args.plugin).name
    options = dict(option_value(given) for given in args.option)
    if args.without_evaluate:
        get_game(game).state_class.evaluate = State.evaluate  # type: ignore[method-assign]
    seeds = range(args.seed, args.seed + args.games)
    figures: dict[str, Any] = {"game": game, "players": args.players, "games": args.games}
    figures |= {"versus": args.versus, "options": options, "evaluate": not args.without_evaluate}
    others = f"{args.players - 1} {args.versus} bots"
    given = f" {options}" if options else ""
    print(f"{game}{given}: one bot of each level against {others}")
    for level in args.levels.split(","):
        won, cpu, wall = 0.0, [], []
        for seed in seeds:
            share, ticks, waited = play_round(game, level, args.players, seed, args.versus, options)
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
