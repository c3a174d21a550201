"""Every network screen over a slow network: each frame held 50–300 ms with jitter (a loopback
proxy, `slow_network.py`), random keys at random gaps, server bots playing meanwhile.

No screen may read what has not arrived or die, and once the keys stop and the last frames
are in, the client holds exactly the server's state and its screen shows it.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from textual.pilot import Pilot

from tablegames.net.client import RemoteClient
from tablegames.net.server import Server, ServerConfig
from tablegames.testing.harness import until
from tablegames.testing.hurried import Tally, VirtualClock, _burst, key_set
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens import typeahead
from tablegames.tui.screens.game import GameScreen
from tablegames.tui.screens.lobby import LobbyScreen
from tablegames.tui.widgets.log import GameLog

from .helpers import screen_text
from .slow_network import SlowProxy

pytestmark = pytest.mark.real_time_keys

#: Each game: players, options, the game's own keys.
GAMES: dict[str, tuple[int, dict[str, Any], list[str]]] = {
    "crates": (3, {"short": True}, key_set(*"dcxhsd")),
    "roach": (3, {}, key_set(*"tfpl")),
    "crabs": (4, {}, key_set(*"asdfjkl", "x", "t", "c")),
    "kraken": (5, {"board": "quick"}, key_set(*"ct")),
}
KEYS = 150  # keys typed at each
LOBBY_KEYS = [
    key for key in key_set(*"nwsrab", "slash", "slash") if key not in {"q", "question_mark"}
]


def logged(screen: GameScreen) -> str:
    """The lines of `screen`'s log panel, as one line of words."""
    lines = screen.query_one("#log", GameLog).lines
    return " ".join(" ".join(strip.text.split()) for strip in lines)


def network_screens(app: TableGamesApp) -> list[Any]:
    """The screens the network client drives: its lobby, waiting room and tables (the menu a
    finished game may go back to, and a local game keys may start there, are not)."""
    from tablegames.tui.screens.connect import ConnectScreen

    kinds = (GameScreen, LobbyScreen, ConnectScreen)
    return [s for s in app.screen_stack if isinstance(s, kinds) and s in _followed(app)]


def _followed(app: TableGamesApp) -> list[Any]:
    follow = app.follow
    tables = [s for s in app.screen_stack if isinstance(s, GameScreen) and s.client is app.remote]
    return [*tables, *([follow.lobby, follow.waiting] if follow else [])]


async def type_for_a_while(
    app: TableGamesApp, pilot: Pilot[Any], keys: list[str], count: int, seed: int, clock: Any
) -> Tally:
    """Random keys at random gaps until `count`, or until the app leaves the screens under
    test (a game over, left for the menu)."""
    rng, tally = random.Random(seed), Tally()
    while tally.keys < count and app.return_code is None and network_screens(app):
        await _burst(app, pilot, rng, keys, clock, tally, [])
        await asyncio.sleep(0.01)  # real time passes too: frames trickle in meanwhile
    return tally


#: The default run takes a turn-based table and the real-time one; `-m slow` every game.
IN_THE_DEFAULT_RUN = ("crates",)


@pytest.mark.parametrize(
    "game",
    [game if game in IN_THE_DEFAULT_RUN else pytest.param(game, marks=pytest.mark.slow)
     for game in GAMES],
)  # fmt: skip
async def test_a_table_over_a_slow_network_ends_showing_the_servers_state(game, monkeypatch):
    players, options, keys = GAMES[game]
    server = Server(ServerConfig(port=0, bot_pace=0.05))
    hosted = server.add_table(game, players, options, fill_with_bots="normal", min_humans=1, seed=7)
    proxy = SlowProxy(await server.start(), seed=7)
    remote = RemoteClient("127.0.0.1", await proxy.start(), "Sara")
    clock = VirtualClock()
    monkeypatch.setattr(typeahead, "time", clock)
    app = TableGamesApp(remote=remote)
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            await until(lambda: "Press r" in screen_text(app), 30, pilot=pilot)
            await pilot.press("r")
            await until(
                lambda: any(isinstance(s, GameScreen) for s in app.screen_stack), 30, pilot=pilot
            )
            tally = await type_for_a_while(app, pilot, keys, KEYS, seed=7, clock=clock)
            table = hosted.table
            assert table is not None
            await until(lambda: remote.latest is not None and
                        remote.latest.version == table.version, pilot=pilot, held=1)  # fmt: skip
            assert app.problems == [] and tally.keys > 0
            seat = remote.seat
            assert seat is not None and remote.latest is not None
            assert remote.latest.view == table.update_for(seat).view
            screens = [s for s in network_screens(app) if isinstance(s, GameScreen)]
            if screens:  # (a game that ended may have been left for the menu)
                screen = screens[-1]
                shown = [
                    event
                    for event in remote.latest.view["log"]
                    if screen.logs.shown(event, seat, screen.private)
                ]
                if shown:
                    newest = " ".join(screen.wording.line(shown[-1]).split())
                    # (the screen draws the update as it comes to it: one pause was not
                    # always enough beside other tests, 1 full run in ~15)
                    await until(lambda: newest[:30] in logged(screen), 10, pilot=pilot)
    finally:
        await remote.close()
        await proxy.close()
        await server.close()


async def test_the_lobby_and_its_chat_over_a_slow_network(monkeypatch):
    server = Server(ServerConfig(port=0, bot_pace=0.05))
    server.add_table("roach", 3)
    proxy = SlowProxy(await server.start(), seed=3)
    remote = RemoteClient("127.0.0.1", await proxy.start(), "Sara")
    clock = VirtualClock()
    monkeypatch.setattr(typeahead, "time", clock)
    app = TableGamesApp(remote=remote, lobby=True)
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            await until(lambda: isinstance(app.screen, LobbyScreen), 30, pilot=pilot)
            tally = await type_for_a_while(app, pilot, LOBBY_KEYS, KEYS, seed=3, clock=clock)
            assert tally.keys > 0 and app.problems == []
            if remote.table_code is None:  # in the lobby: its list is the server's
                expected = server.party.lobby.message().tables
                await until(
                    lambda: remote.lobby == server.party.lobby.message().tables,
                    pilot=pilot,
                    held=1.0,
                )
                assert (
                    remote.lobby == expected or remote.lobby == server.party.lobby.message().tables
                )
            else:  # at a table: its state is the server's
                hosted = server.tables[remote.table_code]
                if hosted.table is not None:
                    table = hosted.table
                    caught_up = lambda: (  # noqa: E731
                        remote.latest is not None and remote.latest.version == table.version
                    )
                    await until(caught_up, pilot=pilot, held=1)
                    assert remote.latest is not None and remote.seat is not None
                    assert remote.latest.view == table.update_for(remote.seat).view
    finally:
        await remote.close()
        await proxy.close()
        await server.close()
