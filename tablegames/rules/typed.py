"""Where the table's plain game data becomes a game's own types, and back: the one adapter.

The table, the drivers, the network and the store carry every game's views, actions and events
as the contract's plain data (`contract.View`, `Action`, `Event`: dicts of plain values). A
game's bots and screen read them through the game's own types instead (`crates_types.py`...:
`CratesView`, `CratesAction`, `CratesEvent`), so that mypy checks every key they read and every
phase they compare; each game's types module makes one `GameTypes` (``TYPES``) and everything
that reads its data as those types goes through it. Nothing is checked or copied at run time
(this runs for every action a bot chooses): it is true by construction, as the table passes on
what the game's `State.view`, `emit` and `legal` made, and `tests/rules/test_types.py` checks
every view, event and legal action of random games against the types.

Shared code that reads only the keys every view or event has reads them through `shared` and
`event_base` (the `contract.SharedView` and `EventBase` keys).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Generic, TypeVar, cast

from .contract import Action, Event, EventBase, Result, SharedView

ViewT = TypeVar("ViewT")
ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT")


class GameTypes(Generic[ViewT, ActionT, EventT]):
    """One game's view, action and event types, as its bots and screen read the table's data:
    each game's types module makes one (``TYPES = GameTypes[CratesView, CratesAction,
    CratesEvent]()``)."""

    def view(self, view: Mapping[str, object]) -> ViewT:
        """A view of this game (`State.view`, as the table passes it on), as its view type."""
        return cast(ViewT, view)

    def legal(self, legal: Sequence[Mapping[str, object]]) -> list[ActionT]:
        """A list of this game's legal actions (`State.legal`), as its action types."""
        return cast(list[ActionT], legal)

    def events(self, events: Sequence[Mapping[str, object]]) -> list[EventT]:
        """Events of this game (an update's, or a log), as its event types."""
        return cast(list[EventT], events)

    def plain(self, action: ActionT) -> Action:
        """An action built as this game's type, as the table takes it (the same dict)."""
        return cast(Action, action)


def shared(view: Mapping[str, object]) -> SharedView[Event, Result]:
    """The keys every view has (`contract.SharedView`), typed, of any game's view (its log
    holds the game's events as plain data: `event_base` reads the keys they share)."""
    return cast(SharedView[Event, Result], view)


def event_base(event: Mapping[str, object]) -> EventBase:
    """The keys every event has (`contract.EventBase`), typed, of any game's event."""
    return cast(EventBase, event)
