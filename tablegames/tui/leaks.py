"""Letting go of what Textual keeps after it is gone: the footer's keys of every redraw.

Textual's `Footer` makes new `FooterKey` widgets each time a screen's keys change (for a table,
after every move) and binds each to the footer's `compact` with `data_bind`. The binding is a
watcher stored on the footer, and Textual drops a watcher of a removed widget only when the
watched value changes again (textual issue #6666, open in 8.2). `compact` changes only on a
resize, so every old key stayed reachable: a session watching a crates game grew by about
300 KiB a second, its CPU with it. `release_removed_watchers` drops them, by the rule Textual
itself applies when the value does change.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.dom import DOMNode
from textual.widgets import Footer

#: Seconds between sweeps: a few hundred dead keys at most in between.
SWEEP_EVERY = 5.0


def release_removed_watchers(node: DOMNode) -> int:
    """Forget the watchers on `node` whose own widget has been removed; returns how many."""
    watchers: dict[str, list[tuple[Any, Any]]] = getattr(node, "__watchers", {})
    released = 0
    for name, entries in watchers.items():
        alive = [(watcher, callback) for watcher, callback in entries if not watcher._closing]
        released += len(entries) - len(alive)
        watchers[name][:] = alive
    return released


def release_footer_keys(screens: Iterable[DOMNode]) -> int:
    """Sweep the footers of `screens` (an app's screen stack); returns the watchers dropped."""
    return sum(
        release_removed_watchers(footer) for screen in screens for footer in screen.query(Footer)
    )
