"""Letting go of what Textual keeps after it is gone: the footer's keys of every redraw.

Textual's `Footer` makes new `FooterKey` widgets each time a screen's keys change (for a table,
after every move) and binds each to the footer's `compact` with `data_bind`. The binding is a
watcher stored on the footer, and Textual drops a watcher of a removed widget only when the
watched value changes again (textual issue #6666, open in 8.2). `compact` changes only on a
resize, so every old key stayed reachable: a session watching a crates game grew by about
300 KiB a second, its CPU with it. `release_removed_watchers` (in `textual_private`: it reads
Textual's own) drops them, by the rule Textual itself applies when the value does change.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.dom import DOMNode
from textual.widgets import Footer

from .textual_private import release_removed_watchers

#: Seconds between sweeps: a few hundred dead keys at most in between.
SWEEP_EVERY = 5.0


def release_footer_keys(screens: Iterable[DOMNode]) -> int:
    """Sweep the footers of `screens` (an app's screen stack); returns the watchers dropped."""
    return sum(
        release_removed_watchers(footer) for screen in screens for footer in screen.query(Footer)
    )
