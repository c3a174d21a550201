"""A table screen over game after game: does what it keeps stay bounded?

One app (as a party session keeps one through rematches) shows bots' games one after another
at a quick pace, in-process under Textual's test driver; after each game the process's RSS is
read (after a full collection). A screen that keeps what it drew grows game after game; one
whose caches fill up levels off. The bots run in this process too (in a party they run in the
server), so the figures are the screen's and the bots' together: the trend is what counts.

    .venv/bin/python -m bench.screen_memory [--game kraken] [--players 11] [--games 8]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sys
import time
from typing import Any

from tablegames.bots import get_bot
from tablegames.drivers import LocalClient
from tablegames.local import local_table
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.game import table_screen

GAME_LIMIT = 900.0  # seconds a game may take before the bench gives up on it


def say(line: str) -> None:
    """Print now, past the app (which takes what is printed while it runs)."""
    sys.__stdout__.write(line + "\n")
    sys.__stdout__.flush()


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return 0.0


def bots_only(game: str, players: int, seed: int, pace: float) -> LocalClient:
    """A table whose every seat a bot plays (seat 0's screen shown, as a hot-seat player's)."""
    client = local_table(game, players, humans=1, seed=seed, pace=pace)
    client.table.bots[0] = get_bot(game, "normal", 0, random.Random(seed))
    return client


async def play(args: argparse.Namespace) -> list[dict[str, Any]]:
    client = bots_only(args.game, args.players, args.seed, args.pace)
    app = TableGamesApp(client)
    games = []
    async with app.run_test(size=(100, 30)) as pilot:
        for number in range(args.games):
            started = time.monotonic()
            while not client.table.state.over:
                if time.monotonic() - started > GAME_LIMIT:
                    raise TimeoutError(f"game {number + 1} did not end in {GAME_LIMIT:.0f} s")
                await pilot.pause(0.5)
                await pilot.press("escape")  # (a dialog that waits for a key goes)
            await pilot.pause(1.0)
            gc.collect()
            games.append(
                {
                    "game": number + 1,
                    "actions": client.table.version,
                    "seconds": round(time.monotonic() - started),
                    "rss_mib": round(rss_mib(), 1),
                }
            )
            say(
                f"  game {number + 1}: {client.table.version} actions in "
                f"{games[-1]['seconds']} s; RSS after it {games[-1]['rss_mib']} MiB"
            )
            client = bots_only(args.game, args.players, args.seed + number + 1, args.pace)
            while len(app.screen_stack) > 1:
                app.pop_screen()
            await app.push_screen(table_screen(client))
    return games


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="kraken")
    parser.add_argument("--players", type=int, default=11)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--pace", type=float, default=0.1, help="bots' pace (s)")
    args = parser.parse_args(argv)
    print(f"{args.game}, {args.players} bots, {args.games} games in one app:")
    games = asyncio.run(play(args))
    first, last = games[0]["rss_mib"], games[-1]["rss_mib"]
    half = games[len(games) // 2]["rss_mib"]
    print(
        f"  RSS after game 1: {first} MiB; after game {len(games) // 2 + 1}: {half} MiB; "
        f"after game {len(games)}: {last} MiB (second half grew {last - half:+.1f} MiB)"
    )
    return games


if __name__ == "__main__":
    main()
