"""Pacing a local table's bots from the table: space pauses them, - and + slow or hurry them."""

from __future__ import annotations

from textual.binding import Binding, BindingType

PACES = (0.25, 0.5, 1.0, 2.0, 4.0)  # seconds between the bots' moves that - and + step through
#: The keys and what they do, for the help of turn-based games (real-time ones have no pace).
PACE_KEYS = (
    ("space", "pause the bots, or let them play on (a game with bots on this machine)"),
    ("- +", "the bots play slower, faster"),
)
#: Space at a table; - and + are the app's (`TableGamesApp.PACE_BINDINGS`): they work over
#: any screen the table opened, a question included, and say the pace wherever it is.
PACE_BINDINGS: list[BindingType] = [Binding("space", "pause_bots", "Pause bots", show=False)]


def next_pace(pace: float, step: int) -> float:
    """The pace `step` steps slower (positive) or faster than `pace`, within `PACES`."""
    nearest = min(range(len(PACES)), key=lambda index: abs(PACES[index] - pace))
    return PACES[max(0, min(len(PACES) - 1, nearest + step))]


def pace_words(pace: float) -> str:
    """` one move every 2 s` (nothing for no pace at all)."""
    return f" one move every {pace:g} s" if pace else ""
