"""The status line under a table: what the player is told now."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static


class StatusLine(Static):
    """Set `line` and it redraws itself; setting the line it already shows draws nothing."""

    line: reactive[str | Text] = reactive[str | Text]("")

    def watch_line(self, line: str | Text) -> None:
        self.update(line if isinstance(line, Text) else Text(line))
