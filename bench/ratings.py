"""The ratings of the bot levels: bot-only games of mixed levels, rated as the store rates games.

Each game seats bots of mixed levels (every level at least once where the table is big enough,
shuffled by the game's seed) and is played through `simulate`'s machinery (`play_bot_game`:
the table the server uses, real-time games on a virtual clock); its result is rated by
`ratings.Book`, each bot seat a player of its own (`normal bot`, `normal bot 2`: the first and
second seat of that level at the table), as `tablegames stats` rates a stored game. Printed per
game: each level's rating (openskill's ordinal, mu - 3 sigma), mu and sigma (its players',
weighted by the games each played), and its seats' share of the wins beside the fair share
(what every seat would win if the levels played alike: the mean share of seats among the
winners). The games are played in
parallel with `--jobs` and rated in seed order, so a run's figures depend on its seeds alone.

    nice -n 10 .venv/bin/python -m bench.ratings --games 200 --seed 100000 [--game crates]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tablegames.bots import LEVELS
from tablegames.ratings import Book, SeatRecord, bot_level, sitters
from tablegames.rules import get_game
from tablegames.simulate import play_bot_game

from .figures import save_json, table

GAMES = ("crates", "roach", "crabs", "kraken")
#: Each game as `tablegames play` deals it by default, crates in its short form (8 rounds: a
#: table with a hard bot plays a game in about 10 s on one core).
OPTIONS: dict[str, dict[str, Any]] = {"crates": {"short": True}}


def seat_levels(players: int, seed: int) -> list[str]:
    """The levels at a table of `players`, every level as evenly as the seats allow, shuffled
    by `seed` (which level takes the odd seats turns with the seed too)."""
    rng = random.Random(seed)
    start = rng.randrange(len(LEVELS))
    levels = [LEVELS[(start + seat) % len(LEVELS)] for seat in range(players)]
    rng.shuffle(levels)
    return levels


def play(job: tuple[str, int, int]) -> tuple[list[str], dict[str, Any], float]:
    """One bot-only game (`game`, `players`, `seed`): its levels, its result and CPU seconds."""
    game, players, seed = job
    levels = seat_levels(players, seed)
    started = time.process_time()
    table = play_bot_game(game, players, seed, "normal", levels=levels, **OPTIONS.get(game, {}))
    return levels, table.state.result(), time.process_time() - started


def level_figures(book: Book, game: str, level: str) -> dict[str, float]:
    """A level's rating, mu and sigma at `game`: its bot players', weighted by their games."""
    mine = [s for (at, who), s in book.standings.items() if at == game and bot_level(who) == level]
    weight = sum(standing.played for standing in mine) or 1
    return {
        figure: round(sum(getattr(s, figure) * s.played for s in mine) / weight, 2)
        for figure in ("rating", "mu", "sigma")
    }


def rate_game(
    game: str, games: int, seed: int, jobs: int, players: int | None = None
) -> dict[str, Any]:
    """Play and rate `games` games of `game` (seeds seed, seed+1, ...); the figures per level."""
    seats = players or get_game(game).default_players
    book = Book()
    seated = {level: 0 for level in LEVELS}
    played = {level: 0 for level in LEVELS}
    won = {level: 0.0 for level in LEVELS}
    cpu = shares = 0.0
    jobs_list = [(game, seats, seed + index) for index in range(games)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for number, (levels, result, seconds) in enumerate(pool.map(play, jobs_list), start=1):
            cpu += seconds  # (rated in seed order, whichever game ended first)
            if number % 10 == 0:
                print(f"{game}: {number}/{games} games", file=sys.stderr, flush=True)
            records = [SeatRecord(s, f"{lv} bot", lv) for s, lv in enumerate(levels)]
            book.add(game, seats, sitters(records, here=True), result)
            shares += len(result["winners"]) / seats
            for level in set(levels):
                played[level] += 1
            for seat, level in enumerate(levels):
                seated[level] += 1
                won[level] += seat in result["winners"]
    rows = {}
    for level in LEVELS:
        rows[level] = {
            **level_figures(book, game, level),
            "games": played[level],
            "seats": seated[level],
            "seat_win_share": round(won[level] / seated[level], 3) if seated[level] else None,
        }
    return {
        "players": seats,
        "games": games,
        "cpu_seconds": round(cpu, 1),
        "fair_share": round(shares / games, 3),  # a seat's share of the wins, all being equal
        "levels": rows,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument("--players", type=int, help="seats at each table (the game's default)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {"seed": args.seed, "games": args.games}
    for game in args.game or GAMES:
        rated = rate_game(game, args.games, args.seed, args.jobs, args.players)
        figures[game] = rated
        rows = [
            [level, r["rating"], r["mu"], r["sigma"], r["games"], r["seats"], r["seat_win_share"]]
            for level, r in sorted(rated["levels"].items(), key=lambda item: -item[1]["rating"])
        ]
        title = (
            f"{game}: {rated['games']} games of {rated['players']} bots of mixed levels "
            f"({rated['cpu_seconds']} s of CPU); a seat's fair share of the wins "
            f"{rated['fair_share']:.2f}"
        )
        header = ["level", "rating", "mu", "sigma", "games", "seats", "seat win share"]
        print(table(title, header, rows), flush=True)
    save_json(args.json, figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
