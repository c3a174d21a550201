"""Every registered game obeys the rules contract: random playouts, replay, illegal actions."""

from __future__ import annotations

import pytest

from tablegames.rules import SetupError, get_game


def test_option_values_are_checked_before_the_game_sees_them():
    short = get_game("crates").options[0]
    with pytest.raises(SetupError, match="short must be true or false, not 1"):
        get_game("crates").new(4, 1, short=1)
    assert short.values == (False, True)
    board = next(option for option in get_game("kraken").options if option.name == "board")
    assert board.values == (None, "quick", "long")  # None: the board for the player count
    with pytest.raises(SetupError, match="board must be quick or long"):
        get_game("kraken").new(5, 1, board="medium")
