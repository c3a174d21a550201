"""Plain terminals: with `--ascii` nothing but ASCII is drawn, and `NO_COLOR` draws no colour."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from textual.filter import LineFilter, Monochrome, NoColor
from textual.scrollbar import ScrollBar, ScrollBarRender

from .textual_private import line_filters

if TYPE_CHECKING:
    from textual.app import App
    from textual.color import Color

#: Characters our screens and Textual draw, as the one ASCII character that takes their place.
CELL_SPELLING = {
    "…": "~", "—": "-", "–": "-", "−": "-", "·": ".", "•": "*", "×": "x", "♠": "S", "♥": "H",
    "♦": "D", "♣": "C", "←": "<", "→": ">", "↑": "^", "↓": "v", "▶": ">", "◀": "<", "▲": "^",
    "▼": "v", "»": ">", "«": "<", "“": '"', "”": '"', "‘": "'", "’": "'", "✗": "x", "✓": "v",
    "⏎": "E", "↻": "@", "↺": "@", "▔": "-", "▁": "_", "█": "#", "▀": "#", "▄": "#",
}  # fmt: skip


@lru_cache(maxsize=4096)
def spelled(char: str) -> str:
    """`char` in ASCII, as many columns wide as it is: box lines as `-`, `|` and `+`, a
    letter without its accent, anything else as `?`."""
    width = cell_len(char)
    if char.isascii() or width == 0:
        return char if char.isascii() else ""
    if char in CELL_SPELLING:
        return CELL_SPELLING[char] + " " * (width - 1)
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):
        line = "-" if "HORIZONTAL" in name else "|" if "VERTICAL" in name else "+"
        return line * width
    if name.startswith(("BLOCK", "UPPER", "LOWER", "LEFT", "RIGHT", "FULL")):
        return "#" * width
    plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
    return (plain[:1] or "?") + ("?" if width == 2 else "")


class AsciiOnly(LineFilter):
    """Every character drawn spelled in ASCII (`spelled`), each in the columns it took: what
    the screens draw in ASCII already goes through unchanged; anything that slipped through
    (Textual's `…` cutting a title, a name's accent) does not reach the terminal."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            segment
            if segment.text.isascii()
            else Segment("".join(map(spelled, segment.text)), segment.style, segment.control)
            for segment in segments
        ]


class AsciiScrollBar(ScrollBarRender):
    """A scrollbar in ASCII: its thumb in reverse spaces, no block glyphs."""

    VERTICAL_BARS: ClassVar[list[str]] = [" "] * 8
    HORIZONTAL_BARS: ClassVar[list[str]] = [" "] * 8


def plain_terminal(app: App[None], ascii: bool) -> None:
    """Set `app` to draw as the terminal asks: no colour at all under `NO_COLOR` (Textual
    would draw shades of grey), and in ASCII only with `ascii`. (The scrollbars' renderer is
    one for the process: one app runs in it at a time.)"""
    filters = line_filters(app)
    if app.no_color:
        filters[:] = [NoColor() if isinstance(shades, Monochrome) else shades for shades in filters]
    if ascii:
        filters.append(AsciiOnly())
    ScrollBar.renderer = AsciiScrollBar if ascii else ScrollBarRender
