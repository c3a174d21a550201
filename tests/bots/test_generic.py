"""The generic look-ahead's `hard` overrules the move of the level it keeps only when its
playouts show another surely better (`surely_better`)."""

from __future__ import annotations

from tablegames.bots.generic import FEWEST_STATES, surely_better


def test_a_gain_in_every_state_is_sure_over_enough_states():
    assert surely_better([1.0] * FEWEST_STATES)
    assert not surely_better([1.0] * (FEWEST_STATES - 1))  # (too few states to tell)


def test_a_gain_that_comes_and_goes_is_not_sure():
    assert not surely_better([1.0, -1.0] * 5 + [1.0])  # a mean of 0.09, a spread of 1
    assert surely_better([1.0, 0.0] * 20)  # a mean of 0.5 over 40 states
    assert not surely_better([0.0] * 10) and not surely_better([-1.0] * 10)


def test_a_look_ahead_may_ask_more_standard_errors_to_overrule_its_kept_move():
    gains = [1.0, 0.0] * 5  # a mean of 0.5, 2.85 standard errors above nothing
    assert surely_better(gains) and surely_better(gains, sure=2.5)
    assert not surely_better(gains, sure=3.0)  # (Love Letter's `hard` keeps a sure Guard so)
