"""A footer whose every key stays in sight: closer together, then on more rows, as the terminal
narrows (a phone held upright taps each one; Textual's footer cuts off the last ones)."""

from __future__ import annotations

from collections.abc import Iterable
from math import ceil

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen, ScreenResultType

from ..textual_private import FooterKey
from .footer import Footer, start_compact

#: What a footer shows: each key, its words, whether it does something now, its tooltip.
FooterKeys = tuple[tuple[str, str, bool, str], ...]


def footer_keys(screen: Screen[ScreenResultType]) -> FooterKeys:
    """What a footer on `screen` shows now."""
    return tuple(
        (binding.key, binding.description, enabled, tooltip)
        for _node, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    )


def key_widths(keys: Iterable[tuple[str, str]], compact: bool) -> list[int]:
    """The cells each (key, description) takes in a footer (its margin or padding included)."""
    # Compact: a space between key and words, and a margin after; else a space around the key
    # and one after the words.
    padding = 2 if compact else 3
    return [cell_len(key) + cell_len(words) + padding for key, words in keys]


def arrangement(widths: list[int], spaced: list[int], room: int) -> tuple[bool, int]:
    """How a footer of keys `widths` wide (compact; `spaced`: not) fits in `room` columns:
    (compact, keys on a row)."""
    if sum(spaced) <= room:
        return False, len(widths)
    if sum(widths) <= room:
        return True, len(widths)
    return True, max(1, room // max(widths, default=1))


class KeysFooter(Footer):
    """Textual's footer, its keys on as many rows as the terminal's width needs."""

    def __init__(self) -> None:
        super().__init__()
        self._arranged: tuple[bool, int] | None = None  # (compact, keys on a row) now

    def compose(self) -> ComposeResult:
        widgets = list(super().compose())
        keys = [key for key in widgets if isinstance(key, FooterKey)]
        self._arrange(keys)
        start_compact(keys, self.compact)  # (as arranged for this width)
        yield from widgets

    def on_resize(self, event: events.Resize) -> None:
        keys = list(self.query_children(FooterKey))
        if self._arranged != self._arrangement(keys):  # (a tap is not lost to a redraw)
            self._arrange(keys)

    def _arrangement(self, keys: list[FooterKey]) -> tuple[bool, int]:
        shown = [(key.key_display, key.description) for key in keys]
        room = self.app.size.width
        return arrangement(key_widths(shown, True), key_widths(shown, False), room)

    def _arrange(self, keys: list[FooterKey]) -> None:
        compact, per_row = self._arranged = self._arrangement(keys)
        rows = ceil(len(keys) / per_row) if keys else 1
        self.compact = compact
        self.set_class(rows > 1, "-rows")
        self.styles.height = rows
        if rows > 1:
            self.styles.grid_size_columns = per_row
