"""Whole games: random ones end with winners at every table size, the same seed plays the same
game, and bots of every level play a game to its end through the table."""

from __future__ import annotations

import pytest

from tablegames.bots import LEVELS
from tablegames.rules import get_game
from tablegames.simulate import play_bot_game

from ..cases import case
from ..playing import random_playout


def test_random_playouts_end_with_winners(game_name: str) -> None:
    """Random games end, at every table size, with winners (only where the rules let nobody
    win, none), a score for every seat, and nothing left to do."""
    game = get_game(game_name)
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(5):
            state, _, _ = random_playout(game_name, players, seed)
            result = state.result()
            assert result["winners"] or case(game_name).may_end_without_winners
            assert all(0 <= seat < players for seat in result["winners"])
            assert len(result["scores"]) == players
            assert state.legal(0) == [] and state.waiting_for() == frozenset()


def test_same_seed_same_game(game_name: str) -> None:
    """The same seed and the same moves make the same game."""
    game = get_game(game_name)
    first = random_playout(game_name, game.default_players, 42)
    second = random_playout(game_name, game.default_players, 42)
    assert first[1] == second[1]
    assert first[0].view(0) == second[0].view(0)


@pytest.mark.parametrize(
    "level",
    # (hard is the normal level's look-ahead at length: by default a whole game of it is left
    # to the slow run)
    [level if level != "hard" else pytest.param(level, marks=pytest.mark.slow) for level in LEVELS],
)
def test_bots_of_every_level_play_a_whole_game(game_name: str, level: str) -> None:
    """Bots of every level play a whole game at a table, every move they choose legal."""
    players = get_game(game_name).min_players
    table = play_bot_game(
        game_name, players, seed=3, level=level, **get_game(game_name).quick_options()
    )
    assert table.over and len(table.state.result()["scores"]) == players
