"""Headless bot-only games through the table, summarised for `tablegames simulate`.

Real-time games (crabs) run on a `VirtualClock`: the table's time jumps to the next bot's
wake-up, so a game of many minutes plays in a fraction of a second and replays exactly.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from .bots import get_bot
from .drivers import run_realtime
from .rules import get_game
from .table import Table, VirtualClock, is_realtime

MAX_ACTIONS_PER_GAME = 1_000_000
#: Table time after which a real-time bot game is given up (random bots may never finish).
MAX_GAME_SECONDS = 6 * 3600.0


def play_bot_game(
    game_name: str,
    players: int,
    seed: int,
    level: str,
    levels: Sequence[str] = (),
    **options: Any,
) -> Table:
    """One complete bot-only game, every seat's bot of `level` (or of `levels[seat]`, bots of
    mixed levels); returns its finished table."""
    game = get_game(game_name)
    rng = random.Random(seed)
    bots = {
        seat: get_bot(game_name, levels[seat] if levels else level, seat, rng)
        for seat in range(players)
    }
    names = [f"bot {seat}" for seat in range(players)]
    if any(is_realtime(bot) for bot in bots.values()):
        clock = VirtualClock()
        table = Table(game, players, names, seed=seed, options=options, bots=bots, clock=clock)
        run_realtime(table, clock, MAX_ACTIONS_PER_GAME, max_seconds=MAX_GAME_SECONDS)
    else:
        table = Table(game, players, names, seed=seed, options=options, bots=bots)
        table.run_bots(MAX_ACTIONS_PER_GAME)
    if not table.over:
        raise RuntimeError(f"{game_name} seed {seed}: bots stopped before the game ended")
    return table


def simulate_games(
    game_name: str,
    games: int,
    players: int,
    seed: int,
    level: str,
    progress: Callable[[], None] | None = None,
    **options: Any,
) -> dict[str, object]:
    """Play `games` bot-only games (seeds seed, seed+1, ...) and summarise them; `progress()`
    is called as each game ends."""
    wins = [0.0] * players
    rounds = turns = actions = 0
    game_seconds = 0.0
    started = time.perf_counter()
    for index in range(games):
        table = play_bot_game(game_name, players, seed + index, level, **options)
        result = table.state.result()
        for winner in result["winners"]:
            wins[winner] += 1 / len(result["winners"])
        rounds += result.get("rounds", 1)
        turns += table.turns_taken
        actions += len(table.log)
        if isinstance(table.clock, VirtualClock):
            game_seconds += table.now()
        if progress is not None:
            progress()
    elapsed = time.perf_counter() - started
    summary: dict[str, object] = {
        "game": game_name,
        "games": games,
        "players": players,
        "bots": level,
        "options": options,
        "mean_rounds": rounds / games,
        "mean_turns": turns / games,
        "mean_actions": actions / games,
        "wins_per_seat": [round(w, 2) for w in wins],
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 2),
        "hands_per_s": round(rounds / elapsed, 2),
    }
    if game_seconds:  # a real-time game: how long it took at the table, on the virtual clock
        summary["mean_game_seconds"] = round(game_seconds / games, 1)
        summary["speedup"] = round(game_seconds / elapsed, 1)
    return summary
