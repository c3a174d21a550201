"""Feed the Kraken bots: faction balance and strength, and how long a decision takes.

Plays bot-only games straight through the engine and prints:
- balance: every seat at one level (normal by default), the share of games each faction wins at
  5, 7 and 11 players (a faction is one side: sailors, pirates, or the cult with its converts);
- strength: one faction's seats at a stronger level against the rest at a weaker one (normal
  against random, hard against normal), that faction's win rate next to its rate when every
  seat plays the weaker level, at 7 players;
- decision latency per level (the decisions a table waits for) and games per second.
With `--paired`, the strength lines also give the difference seed by seed (the same seeds deal the
same roles in both runs) with its 95% interval, and the mean over the three factions.
Figures only: nothing here passes or fails.

    .venv/bin/python bench/kraken_bots.py --games 200 --jobs 2 --json figures.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import percentile
from tablegames.bots.kraken import BOTS
from tablegames.bots.kraken.chart import SIDE_OF
from tablegames.rules import Action, State, get_game

SIDES = ("sailor", "pirate", "cult")
SIDE_WORDS = {"sailor": "sailors", "pirate": "pirates", "cult": "cult"}
MATCHUPS = {"normal": "random", "hard": "normal"}  # the stronger level -> the weaker one
ACTION_LIMIT = 5_000  # a bot-only game takes a few hundred actions; this only stops a hang


@dataclass
class Tally:
    """What a batch of games measured: winners, decision times and elapsed time."""

    winners: Counter[str] = field(default_factory=Counter)
    by_seed: dict[int, str] = field(default_factory=dict)  # seed -> winner
    games: int = 0
    actions: int = 0
    latencies: dict[str, list[float]] = field(default_factory=dict)
    seconds: float = 0.0

    def merge(self, other: Tally) -> None:
        self.winners.update(other.winners)
        self.by_seed.update(other.by_seed)
        self.games += other.games
        self.actions += other.actions
        for level, times in other.latencies.items():
            self.latencies.setdefault(level, []).extend(times)
        self.seconds += other.seconds


def next_move(state: State, bots: list[Any], levels: list[str], tally: Tally) -> tuple[int, Action]:
    """Ask the seats with only an optional move ("any time" characters) first, then the rest,
    the way `Table.bot_move` does."""
    waiting = state.waiting_for()
    for seat in sorted(range(state.players), key=lambda s: s in waiting):
        legal = state.legal(seat)
        if not legal:
            continue
        started = time.perf_counter()
        action = bots[seat].choose(state.view(seat), legal)
        if seat in waiting:
            tally.latencies.setdefault(levels[seat], []).append(time.perf_counter() - started)
        if action is not None:
            if action not in legal:
                raise AssertionError(f"{levels[seat]} bot chose an illegal action {action}")
            return seat, action
    raise AssertionError(f"no bot moved while the game waits for {sorted(waiting)}")


def play_game(
    players: int, seed: int, strong: str, weak: str, side: str | None
) -> tuple[str | None, int, dict[str, list[float]]]:
    """One bot-only game: `side`'s seats (by their starting role) at `strong`, the rest at
    `weak` (every seat `weak` when `side` is None). Returns (winner, actions, latencies)."""
    state = get_game("kraken").new(players, seed)
    factions = _roles(state)
    levels = [strong if SIDE_OF[f] == side else weak for f in factions]
    bots = [
        BOTS[level](seat, random.Random(seed * 100 + seat)) for seat, level in enumerate(levels)
    ]
    tally = Tally()
    for count in range(ACTION_LIMIT):
        if state.over:
            return state.result()["winner"], count, tally.latencies
        state.apply(*next_move(state, bots, levels, tally))
    raise AssertionError(f"game with seed {seed} did not end in {ACTION_LIMIT} actions")


def _roles(state: State) -> list[str]:
    """Each seat's starting role, read the way the bench may: from the seat's own view."""
    return [state.view(seat)["faction"] for seat in range(state.players)]


def play_batch(players: int, seeds: list[int], strong: str, weak: str, side: str | None) -> Tally:
    tally = Tally()
    started = time.perf_counter()
    for seed in seeds:
        winner, actions, latencies = play_game(players, seed, strong, weak, side)
        tally.winners[winner or "nobody"] += 1
        tally.by_seed[seed] = winner or "nobody"
        tally.games += 1
        tally.actions += actions
        for level, times in latencies.items():
            tally.latencies.setdefault(level, []).extend(times)
    tally.seconds = time.perf_counter() - started
    return tally


def run(
    args: argparse.Namespace, players: int, games: int, strong: str, weak: str, side: str | None
) -> Tally:
    """`games` games split over `args.jobs` processes."""
    seeds = [args.seed + index for index in range(games)]
    total = Tally()
    if args.jobs == 1:
        total.merge(play_batch(players, seeds, strong, weak, side))
        return total
    chunks = [seeds[job :: args.jobs] for job in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs) as pool:
        batches = [pool.submit(play_batch, players, c, strong, weak, side) for c in chunks]
        for batch in batches:
            total.merge(batch.result())
    total.seconds /= args.jobs  # the processes ran side by side
    return total


def rate(wins: int, games: int) -> tuple[float, float, float]:
    """The win rate with a 95% interval (normal approximation)."""
    share = wins / games if games else 0.0
    spread = 1.96 * math.sqrt(share * (1 - share) / games) if games else 0.0
    return share, max(0.0, share - spread), min(1.0, share + spread)


def paired(strong: Tally, weak: Tally, side: str) -> list[float]:
    """Seed by seed: 1 if only the `strong` run's game went to `side`, -1 if only the weak one's."""
    return [
        float(strong.by_seed[seed] == side) - float(weak.by_seed[seed] == side)
        for seed in sorted(strong.by_seed)
    ]


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean of `values` and the half-width of its 95% interval (normal approximation)."""
    count = len(values)
    mean = sum(values) / count if count else 0.0
    if count < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (count - 1)
    return mean, 1.96 * math.sqrt(variance / count)


def latency_lines(latencies: dict[str, list[float]]) -> list[str]:
    lines = []
    for level, times in sorted(latencies.items()):
        if not times:
            continue
        lines.append(
            f"  {level} decision: p50 {1000 * percentile(times, 0.5):.2f} ms, "
            f"p99 {1000 * percentile(times, 0.99):.1f} ms, max {1000 * max(times):.0f} ms "
            f"({len(times)} decisions)"
        )
    return lines


def balance(args: argparse.Namespace, figures: dict[str, Any]) -> None:
    for players in args.players:
        games = args.games if players < 11 else args.big_games or args.games
        tally = run(args, players, games, args.level, args.level, None)
        shares = {side: rate(tally.winners[side], tally.games) for side in SIDES}
        text = ", ".join(
            f"{SIDE_WORDS[side]} {share:.0%} ({low:.0%}-{high:.0%})"
            for side, (share, low, high) in shares.items()
        )
        nobody = tally.winners["nobody"]
        print(
            f"{players} players, all {args.level}, {tally.games} games: {text}"
            + (f", nobody {nobody}" if nobody else "")
            + f"; {tally.games / tally.seconds:.1f} games/s, "
            f"{tally.actions / tally.games:.0f} actions/game",
            flush=True,
        )
        for line in latency_lines(tally.latencies):
            print(line)
        figures["balance"].append(
            {
                "players": players,
                "level": args.level,
                "games": tally.games,
                "win_rates": {side: shares[side][0] for side in SIDES},
                "games_per_second": tally.games / tally.seconds,
                "latency_ms": {
                    level: {
                        "p50": 1000 * percentile(t, 0.5),
                        "p99": 1000 * percentile(t, 0.99),
                        "max": 1000 * max(t),
                    }
                    for level, t in tally.latencies.items()
                },
            }
        )


def strength(args: argparse.Namespace, figures: dict[str, Any]) -> None:
    players = args.matchup_players
    for strong in args.only or list(MATCHUPS):
        weak = MATCHUPS[strong]
        games = args.hard_games if strong == "hard" and args.hard_games else args.games
        base = run(args, players, games, weak, weak, None)
        print(f"{players} players: one faction at {strong}, the others at {weak} ({games} games)")
        gains: list[list[float]] = []
        for side in SIDES:
            tally = run(args, players, games, strong, weak, side)
            share, low, high = rate(tally.winners[side], tally.games)
            before = base.winners[side] / base.games
            print(
                f"  {SIDE_WORDS[side]}: {share:.0%} ({low:.0%}-{high:.0%}) as {strong}, "
                f"{before:.0%} as {weak}: {share - before:+.0%}",
                flush=True,
            )
            if args.paired:
                gain = paired(tally, base, side)
                gains.append(gain)
                mean, half = mean_interval(gain)
                print(f"    paired: {mean:+.1%} ± {half:.1%} (95%)")
            for line in latency_lines({strong: tally.latencies.get(strong, [])}):
                print("  " + line)
            figures["strength"].append(
                {
                    "players": players,
                    "side": side,
                    "strong": strong,
                    "weak": weak,
                    "games": tally.games,
                    "win_rate": share,
                    "win_rate_95": [low, high],
                    "baseline": before,
                }
            )
        if gains:
            mean, half = mean_interval([sum(g) / len(g) for g in zip(*gains, strict=True)])
            print(f"  mean over the factions, paired: {mean:+.1%} ± {half:.1%} (95%)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per table size/matchup")
    parser.add_argument(
        "--players", type=int, nargs="+", default=[5, 7, 11], help="table sizes for balance"
    )
    parser.add_argument("--big-games", type=int, help="games at 11 players (default --games)")
    parser.add_argument("--level", default="normal", choices=sorted(BOTS), help="balance level")
    parser.add_argument("--matchup-players", type=int, default=7)
    parser.add_argument("--hard-games", type=int, help="games for hard vs normal")
    parser.add_argument("--only", choices=sorted(MATCHUPS), action="append")
    parser.add_argument("--skip", choices=("balance", "strength"), action="append", default=[])
    parser.add_argument("--seed", type=int, default=1, help="first game's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play games in")
    parser.add_argument(
        "--paired", action="store_true", help="strength: also the seed-by-seed difference"
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {"options": vars(args), "balance": [], "strength": []}
    print(f"Feed the Kraken bots, seeds from {args.seed}")
    started = time.perf_counter()
    if "balance" not in args.skip:
        balance(args, figures)
    if "strength" not in args.skip:
        strength(args, figures)
    print(f"({time.perf_counter() - started:.0f} s)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
