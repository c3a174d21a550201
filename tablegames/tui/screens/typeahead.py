"""Keys typed ahead: a key that reaches a screen after another has opened over it, or after it
closed, goes on to the screen now on top instead of being lost (or pressing the wrong thing).

Each screen has its own queue of keys, and the app hands a key to whichever screen is on top
when the key arrives. Keys typed quickly (Enter then `2` then `3` to offer a card to the second
player with the third claim) can all reach the table before its Enter has opened the dialog; the
table must then pass the digits on rather than pick a card with them.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.screen import Screen


def pass_on(screen: Screen[Any], event: events.Key) -> bool:
    """Send `event` on to the screen on top when `screen` no longer is; True if it went on."""
    if not screen.is_attached:
        return False
    top = screen.app.screen
    if top is screen:
        return False
    event.stop()
    event.prevent_default()
    target = top.focused or top
    target._forward_event(events.Key(event.key, event.character))
    return True


async def press_now(screen: Screen[Any], event: events.Key) -> None:
    """Run the binding for `event` while `screen` is still on top.

    Textual looks bindings up once a key has bubbled up to the app, behind the keys queued
    there, and by then a dialog this key opened would take the keys meant for this screen.
    """
    if pass_on(screen, event):
        return
    if await screen.app._check_bindings(event.key):
        event.stop()
        event.prevent_default()


class TypeAhead:
    """For screens: keys go to the screen on top, in the order they were typed."""

    async def on_key(self, event: events.Key) -> None:
        await press_now(self, event)  # type: ignore[arg-type]
