"""Every use of Textual's private API, in one place, read from the Textual that pyproject pins.

Textual offers no public way to do these, and a new Textual may change any of them without
notice: `tests/tui/test_textual_private.py` checks that each name exists with the signature
used here (and that nothing else of ours takes a private name of Textual's), so moving the pin
fails there first, by name. Bumping the pin: read each use again, then `READ_FROM`.

- `CatchingApp`: the exceptions a handler raises (`App._handle_exception`).
- `running_pump`: the widget whose handler is running (`textual._context`).
- `press_binding`: a key's binding run now (`App._check_bindings`).
- `forward_key`: a key sent on to another screen (`_forward_event`).
- `key_bindings`: a node's keys (`_bindings.key_to_bindings`).
- `close_to_messages`: a pump whose loop has ended takes no more messages (`_closed`).
- `line_filters`: what every line drawn goes through (`App._filters`).
- `release_removed_watchers`: watchers Textual keeps of removed widgets (`__watchers`).
- `rendered`: the screen as drawn, for tests (`Screen._compositor`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from textual import events
from textual._context import active_message_pump
from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.message_pump import MessagePump
from textual.widgets._footer import FooterKey as FooterKey  # (no public path: a key to tap)

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.filter import LineFilter
    from textual.widget import Widget

#: The Textual (major, minor) these uses were read from; pyproject allows no other.
READ_FROM = (8, 2)

Result = TypeVar("Result")


class CatchingApp(App[Result]):
    """An app told of every exception a handler raises, in `caught`. Textual hands each to
    `App._handle_exception` and stops the message loop of the widget that raised it."""

    def _handle_exception(self, error: Exception) -> None:
        self.caught(error)

    def caught(self, error: Exception) -> None:
        """Textual's own way: the app ends, showing the traceback. Apps that do better
        override."""
        super()._handle_exception(error)


def running_pump() -> MessagePump | None:
    """The app, screen or widget whose handler is running now, if any."""
    return active_message_pump.get(None)


async def press_binding(app: App[None], key: str) -> bool:
    """Run the binding `key` has on the screen on top now, as if it had just reached the app;
    True if there was one."""
    return await app._check_bindings(key)


def forward_key(to: Widget, event: events.Key) -> None:
    """Send `event` on to `to` (a screen, or its focused widget), as Textual forwards a key."""
    to._forward_event(event)


def key_bindings(node: DOMNode) -> dict[str, list[Binding]]:
    """The keys `node` binds (its class's and its bases', and any bound since), with their
    bindings."""
    return node._bindings.key_to_bindings


def close_to_messages(pump: MessagePump) -> None:
    """Let `pump`, whose message loop has ended, take no more messages (call it from
    `on_unmount`, which runs once the loop is over). When a handler raises, Textual ends its
    pump's loop but leaves the pump open to messages that nothing will ever handle: a test's
    pilot waiting for them to be handled waits for ever."""
    pump._closed = True


def line_filters(app: App[None]) -> list[LineFilter]:
    """The app's own list of line filters (every line drawn goes through them): changed in
    place, it changes what is drawn."""
    return app._filters


def release_removed_watchers(node: DOMNode) -> int:
    """Forget the watchers on `node` whose own widget has been removed; returns how many (see
    `leaks`). The rule is Textual's own, which it applies only when the watched value next
    changes."""
    watchers: dict[str, list[tuple[MessagePump, Callable[..., Any]]]]
    watchers = getattr(node, "__watchers", {})
    released = 0
    for name, entries in watchers.items():
        alive = [(watcher, callback) for watcher, callback in entries if not watcher._closing]
        released += len(entries) - len(alive)
        watchers[name][:] = alive
    return released


def rendered(app: App[None]) -> RenderableType | None:
    """What the terminal shows now (the screen on top, over what shows through it), to print
    to a console of the app's size: for tests, which read the screen as text."""
    screen = app.screen
    return screen._compositor.render_update(full=True, screen_stack=app._background_screens)
