"""Helpers every game's scenario tests share: refusing an action must change nothing visible."""

from __future__ import annotations

import copy
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


def assert_illegal(state: Any, seat: Any, action: Any, now: float = 0.0, words: int = 2) -> str:
    """The action raises IllegalAction with a sentence and changes nothing anybody can see."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, copy.deepcopy(action), now)
    assert snapshot(state) == before
    message = str(caught.value)
    assert len(message.split()) >= words, f"not a sentence: {message!r}"
    return message


TIME = {"type": "time"}


def settle_clock(
    state: Any, now: float, log: list[Any] | None = None
) -> tuple[float, list[dict[str, Any]]]:
    """Do what the table does before an action at `now`: apply `time` once the game's deadline
    has passed, and let the clock run on to the deadline when nobody's move is needed.

    Returns the time reached (`now`, or a later deadline the clock was run to) and the events;
    each `time` applied is added to `log` as `(seat, action, now)`, if given.
    """
    events: list[dict[str, Any]] = []
    while not state.over and (due := state.deadline()) is not None:
        if now < due and state.waiting_for():
            break
        now = max(now, due)
        events += state.apply(0, dict(TIME), now)
        if log is not None:
            log.append((0, dict(TIME), now))
    return now, events
