"""Setting up a game on this machine: humans in hot-seat, the other seats taken by bots."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .bots import get_bot
from .rules import get_game
from .table import LocalClient, Table

BOT_NAMES = ("Ada", "Bruno", "Chidi", "Dara", "Emil", "Farah", "Gus", "Hana", "Ivo", "Juno")


def seat_names(players: int, humans: int, human_names: Sequence[str]) -> list[str]:
    """Names for every seat: the given human names (or Player N), then bot names."""
    names = [
        human_names[i] if i < len(human_names) and human_names[i] else f"Player {i + 1}"
        for i in range(humans)
    ]
    bots = [name for name in BOT_NAMES if name not in names]
    return names + [f"{bots[i % len(bots)]} (bot)" for i in range(players - humans)]


def local_table(
    game_name: str,
    players: int,
    humans: int = 1,
    bot_level: str = "normal",
    seed: int | None = None,
    names: Sequence[str] = (),
    pace: float = 0.5,
    **options: Any,
) -> LocalClient:
    """A table with `humans` hot-seat players in seats 0.. and bots in the rest."""
    game = get_game(game_name)
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game.title} takes {game.min_players}–{game.max_players} players")
    if not 1 <= humans <= players:
        raise ValueError(f"humans must be between 1 and {players}")
    bot_rng = random.Random(seed)
    bots = {seat: get_bot(game_name, bot_level, seat, bot_rng) for seat in range(humans, players)}
    table_args: dict[str, Any] = {} if seed is None else {"seed": seed}
    table = Table(
        game=game,
        players=players,
        names=seat_names(players, humans, names),
        options=options,
        bots=bots,
        **table_args,
    )
    return LocalClient(table, seats=range(humans), pace=pace)
