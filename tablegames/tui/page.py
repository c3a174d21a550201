"""What a party session on the web page tells the page: the room the screen in front needs.

A phone held upright shows fewer than 80 columns, in bigger letters: as few as the screen in
front needs (60 for most; a table may need more, `GameScreen.min_size`). The program says so
in a private OSC (`net.web_protocol.ROOM_OSC`) whenever that changes; only a session that
runs on the page is told to (`PAGE_ENV`), so no other terminal ever sees one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..net.web_protocol import ROOM_OSC
from .screens.game import GameScreen
from .touch import on_the_page

__all__ = ["SMALLEST", "RoomForThePage", "on_the_page"]

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen, ScreenResultType

#: The least every screen fits in (`screens/size.py`): columns, rows.
SMALLEST = (60, 20)


class RoomForThePage:
    """Tells the page the room the screen in front needs, each time it changes."""

    def __init__(self, app: App[None]) -> None:
        self.app = app
        self.told: tuple[int, int] | None = None
        app.screen_change_signal.subscribe(app, self.screen_changed)

    def screen_changed(self, screen: Screen[ScreenResultType]) -> None:
        tables = [shown for shown in self.app.screen_stack if isinstance(shown, GameScreen)]
        needed = tables[-1].min_size() if tables else SMALLEST
        room = (max(needed[0], SMALLEST[0]), max(needed[1], SMALLEST[1]))
        driver = self.app._driver  # (Textual names no public way to write to the terminal)
        if room != self.told and driver is not None:
            self.told = room
            driver.write(f"\x1b]{ROOM_OSC};{room[0]};{room[1]}\x07")
