"""One key does one thing: every game screen, in each of its states, network chat included."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import SimpleNamespace
from typing import Any

from textual.actions import parse
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

from tablegames.drivers import LocalClient
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.game import GameScreen
from tablegames.tui.textual_private import key_bindings

from .helpers import four_player_table, press
from .test_crabs_screen import at_the_table, crabs_table
from .test_kraken_screen import kraken_table
from .test_roach_screen import offer, roach_table

#: Textual's own keys (copying a selection, moving the focus): not the game's.
TEXTUAL = {binding.action for binding in [*Screen.BINDINGS, *App.BINDINGS]}  # type: ignore[union-attr]


def keys_in_use(app: App[Any]) -> dict[str, set[str]]:
    """Every key that does something on the screen on top now, with the actions it would run
    (the screen's own and the app's, such as chat: a key may only ever run one of them)."""
    screen = app.screen
    found: dict[str, set[str]] = {}
    for node in (screen, app):
        for key, bindings in key_bindings(node).items():
            for binding in bindings:
                if binding.action in TEXTUAL or key in ("ctrl+c", "ctrl+q"):
                    continue
                _, name, parameters = parse(binding.action)
                if node.check_action(name, parameters):
                    found.setdefault(key, set()).add(binding.action)
    return found


def clashes(app: App[Any]) -> dict[str, set[str]]:
    return {key: actions for key, actions in keys_in_use(app).items() if len(actions) > 1}


@asynccontextmanager
async def networked(client: LocalClient) -> AsyncIterator[tuple[TableGamesApp, Pilot[None]]]:
    """`client`'s table in an app that offers the chat, as a network game's does."""
    app = TableGamesApp(client)
    async with app.run_test(size=(80, 24)) as pilot:
        app.remote = SimpleNamespace(game=client.game, chat_lines=[])  # type: ignore[assignment]
        await pilot.pause()
        yield app, pilot


async def check(app: TableGamesApp, state: str, seen: list[str]) -> None:
    assert isinstance(app.screen, GameScreen), (state, type(app.screen).__name__)
    assert "chat" in {a for actions in keys_in_use(app).values() for a in actions} or (
        app.remote is not None and not app.remote.game.chat
    )
    assert not clashes(app), f"{state}: {clashes(app)}"
    seen.append(state)


async def test_no_key_is_bound_twice_in_any_state_of_any_game_screen():
    seen: list[str] = []
    async with networked(four_player_table()) as (app, pilot):
        await check(app, "crates: your turn", seen)
        app.screen.client.table.submit(0, {"type": "play", "card": "5H"})  # type: ignore[attr-defined]
        await pilot.pause()
        await check(app, "crates: a bot's turn", seen)

    client = roach_table(first=1)
    async with networked(client) as (app, pilot):
        await check(app, "roach: waiting", seen)
        client.table.submit(1, offer("royal-bat", 0, "bat"))
        await pilot.pause()
        await check(app, "roach: a card slid to you", seen)
        await press(pilot, "f")
        await check(app, "roach: your offer", seen)
    client = roach_table(first=1)
    async with networked(client) as (app, pilot):
        client.table.submit(1, offer("joker", 0, "royal"))
        await pilot.pause()
        await press(pilot, "t")
        await check(app, "roach: laying out", seen)

    async with networked(crabs_table()) as (app, pilot):
        await at_the_table(pilot, app)
        await check(app, "crabs: swapping", seen)

    client = kraken_table()
    async with networked(client) as (app, pilot):
        await press(pilot, "escape")  # the decision put aside: the table's keys
        await check(app, "kraken: a decision waits", seen)
        client.table.submit(0, {"type": "appoint", "lieutenant": 2, "navigator": 1})
        await pilot.pause()
        await press(pilot, "escape")
        await check(app, "kraken: mutiny", seen)
    assert len(seen) == 9
