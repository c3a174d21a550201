"""A table's clock that the screen can hold still: no time passes for the table meanwhile."""

from __future__ import annotations

from collections.abc import Callable


class HeldClock:
    """Wraps a table's clock; while held, the table's time stands still, and it goes on from
    there once let go (a real-time game waits while its only human chooses a signal)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.held_at: float | None = None
        self.held_for = 0.0  # time the table did not see pass

    def __call__(self) -> float:
        now = self.clock() if self.held_at is None else self.held_at
        return now - self.held_for

    @property
    def held(self) -> bool:
        return self.held_at is not None

    def hold(self) -> None:
        """Stop the table's time now."""
        if self.held_at is None:
            self.held_at = self.clock()

    def let_go(self) -> None:
        """Let the table's time go on from where it stood."""
        if self.held_at is not None:
            self.held_for += self.clock() - self.held_at
            self.held_at = None
