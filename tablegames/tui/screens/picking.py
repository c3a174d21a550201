"""Tables played from a hand of cards: arrows move a pick along it, digits pick a card."""

from __future__ import annotations

import time
from typing import ClassVar, Protocol

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.widget import Widget

from ..widgets.footer import Footer
from .game import ActionButton, ActionT, EventT, GameScreen, ViewT

#: Picking a card from a hand (`HandScreen`): the keys (a group's first binding says it in the
#: help).
PICK_BINDINGS: list[BindingType] = [
    Binding(
        "left", "select(-1)", "Pick", key_display="←→", tooltip="move the pick along your hand"
    ),
    Binding("right", "select(1)", "Pick", show=False),
    Binding(
        "1",
        "pick(1)",
        "Card 1",
        show=False,
        key_display="1-9",
        tooltip="pick a card by its number (1 2 for 12)",
    ),
    *[Binding(str(n), f"pick({n})", f"Card {n}", show=False) for n in range(10) if n != 1],
]
#: Seconds in which a second digit makes a two-digit card number (`1` then `2`: card 12).
SECOND_DIGIT = 1.0


class Picks(Protocol):
    """A game's flow (its presenter) that keeps the pick: a place in the hand, or None."""

    selected: int | None


class Hidden(Protocol):
    """A hand widget that can show no cards, only a message instead."""

    def clear(self, message: str = "") -> None: ...


class HandScreen(GameScreen[ViewT, ActionT, EventT]):
    """A game played from a hand of cards: arrows move a pick along it, digits pick a card.

    A hand of ten or more is numbered on: `1` picks card 1 at once, and a digit typed within
    `SECOND_DIGIT` seconds after it moves the pick to card 10-19 (`1`, `2`: card 12).

    Games list `PICK_KEYS` and `PICK_BINDINGS` with their own keys (their order is the footer's),
    keep the pick in their presenter (`flow`), say how many places the pick can stand on, and
    show a new pick in `_select`.
    """

    DIALOGS_ABOVE_HAND: ClassVar[bool] = True  # a question stands clear of the hand
    flow: Picks
    _first_digit: tuple[int, float] | None = None  # (digit, when) that may start a number

    @property
    def selected(self) -> int | None:
        """The picked place in the hand (the presenter's)."""
        return self.flow.selected

    @selected.setter
    def selected(self, index: int | None) -> None:
        self.flow.selected = index

    def _hand_box(self, hand: Widget, *buttons: tuple[str, str]) -> ComposeResult:
        """The hand with the game's (label, id) buttons beside it, the status line and the
        footer under it: the bottom of every hand game's screen."""
        with Horizontal(id="hand-box"):
            yield hand
            with Vertical(id="buttons"):
                for label, button_id in buttons:
                    yield ActionButton(label, id=button_id, compact=True)
        yield self.status_line
        yield Footer()

    def _hide_hand(self, hand: Hidden, box: Widget, whose_turn: str) -> bool:
        """Draw the hand hidden, to a spectator (`whose_turn` in its title) or before its
        player has the keyboard: True if it is hidden."""
        name = self.names[self.active_seat]
        if self.watching:
            hand.clear(self.keyboard.hidden_words("every hand"))
            box.border_title = escape(f"Watching {self.dash} {whose_turn}")
        elif not self.private:
            hand.clear(f"Waiting for {name} to take the seat.")
            box.border_title = escape(f"{name}'s hand (hidden)")
        else:
            return False
        box.border_subtitle = ""
        return True

    def _pickable(self) -> int:
        """How many places the pick can stand on now (0: no hand to pick from)."""
        raise NotImplementedError

    def _select(self, index: int) -> None:
        raise NotImplementedError

    def action_select(self, step: int) -> None:
        count = self._pickable()
        if count and not self.covered:
            start = self.selected if self.selected is not None else -step
            self._select((start + step) % count)

    def action_pick(self, digit: int) -> None:
        count = self._pickable()
        if self.covered or not count:
            return
        now, first = time.monotonic(), self._first_digit
        self._first_digit = None
        if first is not None and now - first[1] < SECOND_DIGIT and first[0] * 10 + digit <= count:
            self._select(first[0] * 10 + digit - 1)
            return
        if 1 <= digit <= count:
            self._select(digit - 1)
            if digit * 10 <= count:
                self._first_digit = (digit, now)
