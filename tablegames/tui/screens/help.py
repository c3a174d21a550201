"""Help: a game's rules (the same text as `tablegames rules GAME`) and the keys of its screen."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.keys import format_key
from textual.screen import Screen
from textual.widgets import Label, Static

from ...rulebook import rules_text
from ..widgets.card import in_ascii
from ..widgets.footer import Footer
from .typeahead import TypeAhead

#: How the help writes a key Textual names in words.
KEY_NAMES = {
    "enter": "Enter",
    "escape": "Esc",
    "space": "space",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "home": "Home",
    "end": "End",
    "minus": "-",
    "plus": "+",
}


def key_rows(bindings: Iterable[BindingType]) -> list[tuple[str, str]]:
    """The help's rows for `bindings`: each binding that says what it does (its tooltip, also
    shown over its key in the footer), by the keys it is written with (`key_display` names a
    group of keys: "asdf jkl;")."""
    rows = []
    for binding in bindings:
        if isinstance(binding, Binding) and binding.tooltip:
            keys = binding.key.split(",")
            written = " or ".join(KEY_NAMES.get(key) or format_key(key) for key in keys)
            rows.append((binding.key_display or written, binding.tooltip))
    return rows


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


def ascii_text(markdown: str) -> str:
    """`markdown` as plain ASCII text for a terminal without UTF-8 (`--ascii`): headings
    underlined, tables as lines, no emphasis marks, every other character spelled in ASCII."""
    lines: list[str] = []
    for line in markdown.splitlines():
        stripped = line.strip()
        if re.fullmatch(r"\|?[\s:|-]+\|?", stripped) and "-" in stripped:
            continue  # a table's rule
        if stripped.startswith("|"):
            cells = [cell.strip() for cell in stripped.strip("|").split("|")]
            line = "  " + "  |  ".join(cells) if len(cells) > 2 else f"  {cells[0]}: {cells[-1]}"
        heading = re.match(r"(#+)\s+(.*)", stripped)
        if heading:
            title = heading.group(2)
            rule = "=" if len(heading.group(1)) == 1 else "-"
            lines += (
                ["", title, rule * len(title)]
                if lines and lines[-1]
                else [title, rule * len(title)]
            )
            continue
        line = line.replace("**", "").replace("`", "")
        follows = lines and lines[-1].strip() and not lines[-1].startswith("  ")
        if stripped and follows and not re.match(r"([-*]|\d+\.)\s", stripped):
            lines[-1] += " " + line.strip()  # a paragraph's next line: the screen wraps it
        else:
            lines.append(line)
    return in_ascii("\n".join(lines).strip())


class HelpScreen(TypeAhead, Screen[None]):
    """The rules and keys, full screen; Escape, q or ? goes back. With `ascii`, in plain
    ASCII text without box lines or a scrollbar (PgUp PgDn scroll it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Back"),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown,space", "page(1)", "Page down", show=False),
    ]

    def __init__(
        self, game: str, title: str, keys: Sequence[tuple[str, str]] = (), ascii: bool = False
    ) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.game = game
        self.title_text = title
        self.keys = list(keys)
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        title = f"{self.title_text}: rules and keys"
        if self.ascii:
            title = ascii_text(title) + " (PgUp PgDn scroll)"
        yield Label(title, id="help-title")
        with VerticalScroll(id="help-body"):
            from textual.widgets import Markdown  # (markdown-it costs a first screen 30 ms)

            text = help_markdown(self.game, self.keys)
            yield Static(Text(ascii_text(text))) if self.ascii else Markdown(text)
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
