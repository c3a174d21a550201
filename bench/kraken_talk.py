"""Feed the Kraken with talking bots against silent ones: win rates per faction, paired seeds.

Each seed is played twice at the same table (the same deal, the same bot generators): once with
every bot talking and listening (`NormalBot.talks`), once with every bot silent (the bots of
before). Prints, per player count, each faction's win rate in both with its 95% Wilson interval,
the paired difference (talking minus silent, seed by seed) with its 95% interval, how many
games changed winner, the claims per game, and how often each side's claims about what it saw
were true. Figures only: nothing here passes or fails.

    nice -n 10 .venv/bin/python bench/kraken_talk.py --games 60 --players 5 7 9 11 --jobs 2
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
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablegames.bots.kraken import BOTS, NormalBot
from tablegames.rules import get_game
from tablegames.table import Table

SIDES = ("sailor", "pirate", "cult")
ACTION_LIMIT = 5_000


def wilson(hits: int, tries: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a rate."""
    if not tries:
        return (0.0, 1.0)
    rate = hits / tries
    centre = (rate + z * z / (2 * tries)) / (1 + z * z / tries)
    half = (
        z * math.sqrt(rate * (1 - rate) / tries + z * z / (4 * tries * tries)) / (1 + z * z / tries)
    )
    return (max(0.0, centre - half), min(1.0, centre + half))


def paired(diffs: list[int], z: float = 1.96) -> tuple[float, float, float]:
    """Mean of paired differences (each -1, 0 or 1) and its normal 95% interval."""
    n = len(diffs)
    if not n:
        return (0.0, 0.0, 0.0)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def play(players: int, seed: int, talks: bool, level: str) -> dict[str, Any]:
    """One bot-only game; its winner, the claims made and each side's honesty tally."""
    rng = random.Random(seed)
    bots: dict[int, NormalBot] = {}
    for seat in range(players):
        bot = BOTS[level](seat, rng)
        assert isinstance(bot, NormalBot)
        bot.talks = talks
        bots[seat] = bot
    names = [f"P{n}" for n in range(players)]
    table = Table(get_game("kraken"), players, names, seed=seed, bots=dict(bots))
    table.run_bots(ACTION_LIMIT)
    honest: dict[str, list[int]] = {side: [0, 0] for side in SIDES}
    for bot in bots.values():
        for _, truthful, side in bot.talker.said:
            if truthful is not None:
                honest[side][0] += int(truthful)
                honest[side][1] += 1
    result = table.state.result() if table.over else {}
    return {"winner": result.get("winner"), "claims": len(table.talk), "honest": honest}


def run_pair(args: tuple[int, int, str]) -> tuple[int, int, dict[str, Any], dict[str, Any]]:
    players, seed, level = args
    return players, seed, play(players, seed, True, level), play(players, seed, False, level)


def report(
    players: int, results: list[tuple[int, int, dict[str, Any], dict[str, Any]]], level: str
) -> dict[str, Any]:
    """Print one player count's figures; returns them."""
    rows = [(t, s) for p, _, t, s in results if p == players]
    talk_wins = Counter(t["winner"] for t, _ in rows)
    silent_wins = Counter(s["winner"] for _, s in rows)
    n = len(rows)
    print(f"\n{players} players, {n} paired games ({level} bots)")
    print(f"  {'faction':<8} {'talking':>22} {'silent':>22} {'paired diff':>24}")
    entry: dict[str, Any] = {}
    for side in SIDES:
        hits_t, hits_s = talk_wins[side], silent_wins[side]
        low_t, high_t = wilson(hits_t, n)
        low_s, high_s = wilson(hits_s, n)
        diffs = [int(t["winner"] == side) - int(s["winner"] == side) for t, s in rows]
        mean, low_d, high_d = paired(diffs)
        print(
            f"  {side:<8} {hits_t / n:6.2f} [{low_t:.2f}, {high_t:.2f}]"
            f"  {hits_s / n:6.2f} [{low_s:.2f}, {high_s:.2f}]"
            f"  {mean:+6.2f} [{low_d:+.2f}, {high_d:+.2f}]"
        )
        entry[side] = {
            "talking": hits_t / n,
            "talking_95": [low_t, high_t],
            "silent": hits_s / n,
            "silent_95": [low_s, high_s],
            "paired_diff": mean,
            "paired_95": [low_d, high_d],
        }
    changed = sum(t["winner"] != s["winner"] for t, s in rows)
    claims = sum(t["claims"] for t, _ in rows) / max(1, n)
    honesty = {
        side: (
            sum(t["honest"][side][0] for t, _ in rows),
            sum(t["honest"][side][1] for t, _ in rows),
        )
        for side in SIDES
    }
    truths = ", ".join(
        f"{side} {hit / max(1, tries):.2f} of {tries}" for side, (hit, tries) in honesty.items()
    )
    print(f"  winner changed in {changed} of {n}; {claims:.1f} claims a game")
    print(f"  claims about what one saw that were true: {truths}")
    entry.update(changed=changed, claims_per_game=claims, honesty=honesty)
    return entry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="seeds per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[5, 7, 9, 11])
    parser.add_argument("--level", default="normal", choices=["normal", "hard"])
    parser.add_argument("--seed", type=int, default=20_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    options = parser.parse_args()
    start = time.perf_counter()
    figures: dict[str, Any] = {"level": options.level, "games": options.games, "by_players": {}}
    pool = ProcessPoolExecutor(options.jobs) if options.jobs > 1 else None
    everything: list[tuple[int, int, dict[str, Any], dict[str, Any]]] = []
    for players in options.players:  # each count is printed as soon as it is done
        work = [(players, options.seed + n, options.level) for n in range(options.games)]
        if pool is not None:
            results = list(pool.map(run_pair, work, chunksize=4))
        else:
            results = [run_pair(item) for item in work]
        figures["by_players"][players] = report(players, results, options.level)
        everything += results
        sys.stdout.flush()
    if len(options.players) > 1:
        print("\nAll player counts, pooled (the same seeds' pairs):")
        for side in SIDES:
            diffs = [
                int(t["winner"] == side) - int(s["winner"] == side) for _, _, t, s in everything
            ]
            mean, low, high = paired(diffs)
            print(f"  {side:<8} paired diff {mean:+.3f} [{low:+.3f}, {high:+.3f}]")
            figures.setdefault("pooled", {})[side] = {"paired_diff": mean, "paired_95": [low, high]}
    if pool is not None:
        pool.shutdown()
    elapsed = time.perf_counter() - start
    print(f"\n{2 * options.games * len(options.players)} games in {elapsed:.0f} s")
    if options.json:
        options.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
