"""The status line redraws itself when its line changes, and only then."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from tablegames.tui.widgets.status import StatusLine


class OneLine(App[None]):
    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")


async def test_the_status_line_shows_what_it_is_told_and_redraws_only_on_a_change():
    app = OneLine()
    async with app.run_test(size=(40, 3)) as pilot:
        status = app.query_one(StatusLine)
        drawn: list[str] = []
        update = status.update
        status.update = lambda line: (drawn.append(str(line)), update(line))[1]  # type: ignore[method-assign]
        status.line = "Your turn: Enter plays."
        await pilot.pause()
        assert str(status.render()) == "Your turn: Enter plays."
        status.line = "Your turn: Enter plays."  # (the same line, told again by the next draw)
        status.line = Text("It is Ada's turn.", "bold")
        await pilot.pause()
        assert str(status.render()) == "It is Ada's turn."
        assert drawn == ["Your turn: Enter plays.", "It is Ada's turn."]
