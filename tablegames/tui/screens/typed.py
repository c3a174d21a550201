"""Where a game's screen reads the table's plain dicts as its game's own types (and back).

The table hands every screen the contract's plain data (`Update.view`, `.events`, `.legal`:
dicts). A game's screen reads them through its game's types instead (`rules/crates_types.py`...:
`CratesView`, `CratesEvent`, `CratesAction`), so that mypy checks every key it reads and every
phase it compares; `GameTypes` is the one place where the first become the second, as
`bots.typed.GameBot` is for bots. True by construction: the table passes on what the game's
`State.view`, `emit` and `legal` made, and `tests/rules/test_types.py` checks every view,
event and legal action of random games against those types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar, cast

from ...rules import Action

ViewT = TypeVar("ViewT")
ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT")


class GameTypes(Generic[ViewT, ActionT, EventT]):
    """One game's view, action and event types, as its screen reads the table's data: each
    game's ``*_view`` module makes one (``GameTypes[CratesView, CratesAction, CratesEvent]()``)."""

    def view(self, view: Mapping[str, Any]) -> ViewT:
        """A view the table gave the screen, as the game's view type."""
        return cast(ViewT, view)

    def events(self, events: Sequence[Mapping[str, Any]]) -> list[EventT]:
        """An update's events (or a log), as the game's event types."""
        return cast(list[EventT], events)

    def legal(self, legal: Sequence[Mapping[str, Any]]) -> list[ActionT]:
        """An update's legal actions, as the game's action types."""
        return cast(list[ActionT], legal)

    def plain(self, action: ActionT) -> Action:
        """An action the screen built as the game's type, as the table takes it (the same dict)."""
        return cast(Action, action)
