"""The built-in games' side of the rules contract. Every game's own contract tests, these
games' too, are the per-game matrix's (`tablegames/testing/matrix/test_contract.py`)."""

from __future__ import annotations

import pytest

from tablegames.rules import SetupError, declared, get_game
from tablegames.rules.plugins import own
from tablegames.testing.playing import positions


def test_option_values_are_checked_before_the_game_sees_them():
    short = get_game("crates").options[0]
    with pytest.raises(SetupError, match="short must be true or false, not 1"):
        get_game("crates").new(4, 1, short=1)
    assert short.values == (False, True)
    board = next(option for option in get_game("kraken").options if option.name == "board")
    assert board.values == (None, "quick", "long")  # None: the board for the player count
    with pytest.raises(SetupError, match="board must be quick or long"):
        get_game("kraken").new(5, 1, board="medium")


@pytest.mark.parametrize("name", [declared(plugin.reference).name for plugin in own()])
def test_of_the_built_in_games_only_kraken_imposes_silence(name):
    silenced = 0
    for seed in range(3):
        for state in positions(name, seed):
            silenced += sum(state.may_talk(seat) is not None for seat in range(state.players))
    assert (silenced > 0) == (name == "kraken")
