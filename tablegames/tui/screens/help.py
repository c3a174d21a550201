"""Help: a game's rules (the same text as `tablegames rules GAME`) and the keys of its screen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Label

from ...rulebook import rules_text
from .typeahead import TypeAhead


def help_markdown(game: str, keys: Sequence[tuple[str, str]] = ()) -> str:
    """The rules of `game` as Markdown, with a table of `keys` (key, what it does) first."""
    parts: list[str] = []
    if keys:
        rows = "\n".join(f"| `{key}` | {meaning} |" for key, meaning in keys)
        parts.append(f"## Keys\n\n| Key | What it does |\n|---|---|\n{rows}\n")
    try:
        parts.append(rules_text(game))
    except FileNotFoundError:
        parts.append(f"The rules of {game} are not written yet.")
    return "\n".join(parts)


class HelpScreen(TypeAhead, Screen[None]):
    """The rules and keys, full screen; Escape, q or ? goes back."""

    DEFAULT_CSS = """
    HelpScreen #help-title { dock: top; width: 100%; text-style: bold; background: $primary;
        color: $text; padding: 0 1; }
    HelpScreen VerticalScroll { padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Back"),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown,space", "page(1)", "Page down", show=False),
    ]

    def __init__(self, game: str, title: str, keys: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__()
        self.game = game
        self.title_text = title
        self.keys = list(keys)

    def compose(self) -> ComposeResult:
        yield Label(f"{self.title_text}: rules and keys", id="help-title")
        with VerticalScroll(id="help-body"):
            from textual.widgets import Markdown  # (markdown-it costs a first screen 30 ms)

            yield Markdown(help_markdown(self.game, self.keys))
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help-body", VerticalScroll).focus()

    def action_page(self, direction: int) -> None:
        body = self.query_one("#help-body", VerticalScroll)
        if direction < 0:
            body.scroll_page_up()
        else:
            body.scroll_page_down()

    def action_close(self) -> None:
        self.dismiss(None)
