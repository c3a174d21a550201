"""Reading and driving the screens in tests: what the terminal shows, keys pressed and handled."""

from __future__ import annotations

import io

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot

from ..tui.textual_private import rendered

STILL = 10_000.0  # bots wait this long before moving: they never move during a test


async def press(pilot: Pilot[None], *keys: str) -> None:
    """Press `keys` and let the app handle them."""
    await pilot.press(*keys)
    await pilot.pause()


def screen_text(app: App[None]) -> str:
    """Everything the terminal shows right now, as plain text (what an onlooker could read)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
    )
    console.print(rendered(app))
    return console.export_text()
