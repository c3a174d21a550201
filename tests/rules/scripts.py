"""Helpers every game's scenario tests share: refusing an action must change nothing visible,
and a secret must change no view but those of the seats that may know it."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

import pytest

from tablegames.rules import IllegalAction


def snapshot(state: Any) -> Any:
    """Everything anyone can observe of `state`: every view, every seat's legal moves, who acts."""
    seats = range(state.players)
    return copy.deepcopy(
        (
            [state.view(seat) for seat in seats],
            state.view(None),
            [state.legal(seat) for seat in seats],
            state.waiting_for(),
            state.over,
        )
    )


def same_for(
    first: Any, second: Any, seats: Iterable[int | None], differ: Iterable[int | None] = ()
) -> None:
    """Two tables that differ only in a secret look exactly the same to each of `seats` (None: a
    spectator), and different to each of `differ` (the seats that may know it: the check can
    tell the tables apart)."""
    for seat in seats:
        assert first.view(seat) == second.view(seat), seat
    for seat in differ:
        assert first.view(seat) != second.view(seat), seat


def assert_illegal(state: Any, seat: Any, action: Any, now: float = 0.0, words: int = 2) -> str:
    """The action raises IllegalAction with a sentence and changes nothing anybody can see."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, copy.deepcopy(action), now)
    assert snapshot(state) == before
    message = str(caught.value)
    assert len(message.split()) >= words, f"not a sentence: {message!r}"
    return message


def changing_it_is_caught(action: dict[str, Any], key: str, wrong: object, legal: Any) -> None:
    """An action `legal` handed out is made once (the engine's own): with `action[key]` changed
    to `wrong`, the next `legal()` is refused by the tests' check (`State.checking`). The action
    is put back as it was."""
    kept = action[key]
    action[key] = wrong
    try:
        with pytest.raises(AssertionError, match="was changed by its holder"):
            legal()
    finally:
        action[key] = kept
