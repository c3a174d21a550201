"""Stacked Crates tables and a way to read what the terminal shows, for the TUI tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from textual.app import App
from textual.pilot import Pilot

from tablegames.drivers import LocalClient
from tablegames.local import local_table
from tablegames.testing.screens import STILL, press, screen_text
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.results import SETTLE_SECONDS

__all__ = ["STILL", "four_player_table", "opened", "press", "screen_text", "settle", "stacked"]


def stacked(
    hands: list[list[str]],
    upcard: str = "KH",
    draw: list[str] | None = None,
    dealer: int | None = None,
    humans: int = 1,
    names: tuple[str, ...] = (),
    pace: float = STILL,
    **options: Any,
) -> LocalClient:
    """A Crates table dealt exactly `hands`; by default seat 0 plays first and bots stay still."""
    players = len(hands)
    return local_table(
        "crates",
        players,
        humans=humans,
        seed=1,
        names=names,
        pace=pace,
        dealer=players - 1 if dealer is None else dealer,
        hands=hands,
        upcard=upcard,
        draw=draw or [],
        **options,
    )


@asynccontextmanager
async def opened(
    client: LocalClient | None = None,
    size: tuple[int, int] = (80, 24),
    notifications: bool = False,
    ascii: bool = False,
) -> AsyncIterator[tuple[TableGamesApp, Pilot[None]]]:
    """`client`'s table (or the menu, without one) in the app, run headless and drawn once
    (with `notifications`, pop-ups are drawn too; with `ascii`, in ASCII only)."""
    app = TableGamesApp(client, ascii=ascii)
    app.notices.clock = lambda: 0.0  # notices stay until replaced, however slow the machine
    async with app.run_test(size=size, notifications=notifications) as pilot:
        await pilot.pause()
        yield app, pilot


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until a game-over dialog that just opened takes keys (it drops them at first)."""
    await pilot.pause(SETTLE_SECONDS)


FOUR_PLAYERS = [
    ["5H", "QS", "7C", "8D", "JH", "3S", "10C", "9H"],
    ["2D", "4C", "6S", "KD", "AS", "5S", "7D", "QC"],
    ["3H", "4H", "6C", "9S", "10D", "JS", "AC", "2S"],
    ["7S", "8S", "QD", "KS", "AD", "3C", "5C", "JC"],
]


def four_player_table(**options: Any) -> LocalClient:
    """Four seats with eight cards each; the human (seat 0, Sara) is to play on a turned-up K♥."""
    return stacked(
        FOUR_PLAYERS,
        upcard="KH",
        draw=["4S", "6D", "2C", "9D", "10H", "QH"],
        names=("Sara",),
        **options,
    )


async def round_the_table(client: LocalClient, pilot: Pilot[Any]) -> None:
    """At `four_player_table`: Sara plays 5♥, and the bots play until it is her turn again."""
    table = client.table
    table.submit(0, {"type": "play", "card": "5H"})
    await pilot.pause()
    while 0 not in table.state.waiting_for():
        table.submit(*table.bot_move())
        await pilot.pause()


async def take_seat(app: App[Any], pilot: Pilot[Any]) -> None:
    """The player the hand-off names presses their own key (Enter never opens it)."""
    from tablegames.tui.screens.handoff import HandoffScreen

    handoff = app.screen
    assert isinstance(handoff, HandoffScreen), f"no hand-off is up: {handoff!r}"
    await press(pilot, handoff.key)


async def press_on(app: App[Any], pilot: Pilot[Any]) -> None:
    """Go on: Enter, or on a hand-off the key of the player it names."""
    from tablegames.tui.screens.handoff import HandoffScreen

    screen = app.screen
    await press(pilot, screen.key if isinstance(screen, HandoffScreen) else "enter")
