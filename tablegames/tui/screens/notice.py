"""A full-screen notice for when there is nothing to play: a game without a screen yet."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Label

from ..widgets.footer import Footer


class NoticeScreen(Screen[None]):
    """One sentence in the middle of the screen; q quits."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q,escape,enter", "app.quit", "Quit")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Label(Text(self.text))
        yield Footer()
