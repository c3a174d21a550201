"""The footer of keys every screen shows: Textual's, drawn only when its keys change, each key
styled once.

Textual's `Footer` mounts every key again whenever a screen's keys may have changed (a focus
moved, a move made), whether they did or not: a table's first screen drew its footer twice.
And each new key starts compact and is then told the footer's width, so in a terminal wide
enough for the spaced-out keys every key was styled three times as it appeared: the footer was
half of the CSS work of a first screen, and of a move's redraw.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer as TextualFooter

from ..textual_private import FooterKey

#: What a footer's keys show: each binding, whether it does something now, its tooltip.
Shown = tuple[tuple[Binding, bool, str], ...]


class Footer(TextualFooter):
    """Textual's footer, that redraws its keys only when they change (on the screen in front)."""

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(compact=compact)
        self._drawn: Shown | None = None  # the keys on screen (None: none drawn yet)

    def compose(self) -> ComposeResult:
        widgets = list(super().compose())
        if self._bindings_ready:
            self._drawn = self._shown()
        start_compact([key for key in widgets if isinstance(key, FooterKey)], self.compact)
        yield from widgets

    async def recompose(self) -> None:
        """Draw the keys again, if they changed since they were drawn."""
        if not self.is_attached:  # (gone with its screen before the redraw it asked for)
            return
        # (a table under other controls, a replay's, is drawn again as Textual's footer drew
        # it: that redraw was what brought its log's scrollbar up to date)
        in_front = self.screen is self.app.screen
        if in_front and self._drawn is not None and self._drawn == self._shown():
            return
        await super().recompose()

    def _shown(self) -> Shown:
        """What the screen's keys are now (as Textual's footer reads them)."""
        return tuple(
            (binding, enabled, tooltip)
            for _node, binding, enabled, tooltip in self.screen.active_bindings.values()
            if binding.show
        )


def start_compact(keys: Iterable[FooterKey], compact: bool) -> None:
    """Start new, not yet mounted `keys` as compact as their footer is: a key starts compact
    and is then told its footer's value, and each change of its look restyles it at once."""
    for key in keys:
        key.set_reactive(FooterKey.compact, compact)
        key.set_class(compact, "-compact", update=False)
