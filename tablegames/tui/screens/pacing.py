"""Pacing a local table's bots from the table: space pauses them, - and + slow or hurry them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.worker import Worker, WorkerState

from .said import Said

if TYPE_CHECKING:
    from ..client import Pacing

PACES = (0.25, 0.5, 1.0, 2.0, 4.0)  # seconds between the bots' moves that - and + step through
#: Space at a table; - and + are the app's (`TableGamesApp.PACE_BINDINGS`): they work over
#: any screen the table opened, a question included, and say the pace wherever it is.
PACE_BINDINGS: list[BindingType] = [
    Binding(
        "space",
        "pause_bots",
        "Pause bots",
        show=False,
        tooltip="pause the bots, or let them play on (a game with bots on this machine)",
    )
]
#: The app's: the bots' pace at a table and over whatever it opened (a question takes every
#: other key it is typed); never in a line being typed (`TableGamesApp.check_action`).
APP_PACE_BINDINGS: list[BindingType] = [
    Binding(
        "minus", "pace(1)", "Slower", show=False, priority=True, tooltip="the bots play slower"
    ),
    Binding(
        "plus,equals_sign",
        "pace(-1)",
        "Faster",
        show=False,
        priority=True,
        tooltip="the bots play faster",
    ),
]


def next_pace(pace: float, step: int) -> float:
    """The pace `step` steps slower (positive) or faster than `pace`, within `PACES`."""
    nearest = min(range(len(PACES)), key=lambda index: abs(PACES[index] - pace))
    return PACES[max(0, min(len(PACES) - 1, nearest + step))]


def pace_words(pace: float) -> str:
    """` one move every 2 s` (nothing for no pace at all)."""
    return f" one move every {pace:g} s" if pace else ""


class BotPacer(Widget):
    """Drives the table's bots from this terminal, in a worker: started and stopped by the
    table (a round's scores hold them, the game's end stops them), paused and paced by the
    player's keys. Shows nothing; says why it stopped, if it fails (`Said`)."""

    def __init__(self, bots: Pacing | None, turn_based: bool, read_only: bool, network: bool):
        super().__init__()
        self.bots = bots
        self.done = False  # the game is over, or the table left: no bots from here on
        self.paused = False  # the player paused them (space)
        self._turn_based = turn_based
        self._read_only = read_only
        self._network = network  # a network table (whose bots its host paces)
        self._worker: Worker[None] | None = None

    @property
    def running(self) -> bool:
        return self._worker is not None

    @property
    def paced_here(self) -> bool:
        """True when this terminal paces the table's bots (a turn-based game on this machine)."""
        here = self.bots is not None and self.bots.paces_bots
        return self._turn_based and here and not self._read_only and not self.done

    def start(self) -> None:
        """Let the bots play (unless the game is done, they are paused, or they play now)."""
        if self.bots is None or self.done or self.paused or self._worker is not None:
            return
        self._worker = self.run_worker(
            self.bots.run_bots, name="bots", group="bots", exit_on_error=False
        )

    def stop(self) -> None:
        """Hold the bots (`start` lets them play on)."""
        if self._worker is not None:
            self._worker.cancel()
            self._worker = None

    def finish(self) -> None:
        """Stop the bots for good: nothing is left for them to do here."""
        self.done = True
        self.stop()

    def pause(self) -> str | None:
        """Pause the bots, or let them play on: what to say of it (None: no bots to pause)."""
        if not self.paced_here:
            return None
        self.paused = not self.paused
        if self.paused:
            self.stop()
            return "The bots are paused: space lets them play on."
        self.start()
        return f"The bots play on{pace_words(self.bots.pace if self.bots else 0.0)}."

    def step(self, step: int) -> str | None:
        """Bots slower (1) or faster (-1); faster lets paused bots go on. What to say: the
        pace, or why there is none to set here (None: nothing, the game is done)."""
        bots = self.bots
        if self.paced_here and bots is not None:
            bots.pace = next_pace(bots.pace, step)  # read when its bots start
            self.paused = False
            self.stop()
            self.start()
            return f"The bots play{pace_words(bots.pace)} (- slower, + faster, space pauses)."
        if self.done or self._read_only:
            return None
        if bots is None and self._network:
            return "The bots play at the pace the host set: - and + pace bots on this machine."
        if bots is None or not bots.paces_bots:
            return "No bots play at this table: - and + pace bots."
        return "The bots play in real time here: --speed sets how fast, as a game starts."

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is self._worker and event.state == WorkerState.ERROR:
            self._worker = None
            self.post_message(Said(f"The bots stopped: {event.worker.error}"))
