"""Each bot level against the level below, for the bundled plugin examples and Skull: the one
bot's share of the wins with its 95% interval, against the fair share (the figures the check's
`bots` part judges, `tablegames/testing/strength.py`, on more games).

Skull also plays a trivial fixed policy (a skull first, bid 1, raise by 2) against three `hard`
bots: a look-ahead that imagines people playing at random lost to it.

    nice -n 10 .venv/bin/python -m bench.bot_strength --games 200
    nice -n 10 .venv/bin/python -m bench.bot_strength --game skull --games 100 --jobs 2

Figures only: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tablegames.rules.core import load
from tablegames.testing.strength import MATCHUPS, Matchup, levels_differ, matchup
from tests.plugins.skull.bots import SkullFirst

from .figures import save_json

#: The bundled examples (`tests/plugins/`), as a game from elsewhere names them.
EXAMPLES = {
    "loveletter": "tests.plugins.loveletter:LOVELETTER",
    "sealedbids": "tests.plugins.sealedbids:SEALED_BIDS",
    "skull": "tests.plugins.skull:SKULL_GAME",
}
SEED = 300_000


def measure(name: str, hero: str, below: str, seeds: list[int]) -> Matchup:
    """One batch of a matchup: `hero` (a level, or "skull-first") vs `below`, these seeds."""
    load(EXAMPLES[name])
    hero_bot = SkullFirst if hero == "skull-first" else None
    total: Matchup | None = None
    for seed in seeds:
        one = matchup(name, hero, below, games=1, seed=seed, hero_bot=hero_bot)
        total = one if total is None else add(total, one)
    assert total is not None
    return total


def add(one: Matchup, other: Matchup) -> Matchup:
    return Matchup(
        one.game,
        one.level,
        one.below,
        one.players,
        one.games + other.games,
        one.won + other.won,
        one.seconds + other.seconds,
        one.unfinished + other.unfinished,
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per matchup")
    parser.add_argument("--game", action="append", choices=sorted(EXAMPLES), help="one game")
    parser.add_argument(
        "--policy-games", type=int, default=None, help="Skull's fixed policy's games (--games)"
    )
    parser.add_argument(
        "--level", action="append", help="only this one bot's level (or skull-first)"
    )
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--json", default=None, help="write the figures to this file")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {"games": args.games, "seed": args.seed, "matchups": []}
    for name in args.game or list(EXAMPLES):
        load(EXAMPLES[name])
        if not levels_differ(name):
            print(f"{name}: every level plays at random")
            continue
        pairs = list(MATCHUPS)
        if name == "skull":
            pairs.append(("skull-first", "hard"))
        for hero, below in pairs:
            if args.level and hero not in args.level:
                continue
            count = args.policy_games if hero == "skull-first" and args.policy_games else args.games
            seeds = [args.seed + index for index in range(count)]
            batches = [seeds[job :: args.jobs] for job in range(args.jobs)]
            with ProcessPoolExecutor(args.jobs) as pool:
                done = [pool.submit(measure, name, hero, below, batch) for batch in batches]
                results = [batch.result() for batch in done]
            total = results[0]
            for more in results[1:]:
                total = add(total, more)
            print(f"{name}: {total.words()}", flush=True)
            low, high = total.interval
            figures["matchups"].append(
                {
                    "game": name,
                    "level": hero,
                    "below": below,
                    "games": total.games,
                    "share": total.share,
                    "interval": [low, high],
                    "fair": total.fair,
                    "seconds": total.seconds,
                }
            )
    save_json(args.json, figures)
    return figures


if __name__ == "__main__":
    main()
