"""Keys typed quickly: none is lost, and none lands on the screen a dialog has just covered."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import App
from textual.pilot import Pilot

from tablegames.net.client import RemoteClient
from tablegames.replay import Replay
from tablegames.testing.harness import until
from tablegames.tui.app import ReplayApp, TableGamesApp
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.handoff import QUIET
from tablegames.tui.screens.lobby import LobbyScreen
from tablegames.tui.screens.menu import MenuScreen
from tablegames.tui.screens.network import ChatDialog
from tablegames.tui.screens.replay import ReplayScreen
from tablegames.tui.screens.roach import RoachScreen
from tablegames.tui.screens.roach_dialogs import RoachResult

from ..test_replay import record_game
from .helpers import settle
from .test_lobby import in_the_lobby
from .test_network import sara_and_tom
from .test_roach_screen import roach_table, view

CHARACTERS = {"enter": "\r", "escape": "\x1b", "slash": "/"}


async def burst(app: App[Any], pilot: Pilot[Any], *keys: str) -> None:
    """Type `keys` as a terminal sends them: all at once, before any is handled."""
    for key in keys:
        app.post_message(events.Key(key, CHARACTERS.get(key, key)))
    for _ in range(6):
        await pilot.pause()


async def test_a_claim_typed_with_the_offer_goes_to_the_dialogs_it_opens():
    client = roach_table()
    app = TableGamesApp(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await burst(app, pilot, "enter", "2", "3")  # offer the bat to Bruno as a cockroach
        assert isinstance(app.screen, RoachScreen)
        flight = view(client)["flight"]
        assert (flight["card"], flight["to"], flight["claim"]) == ("bat", 2, "cockroach")


async def test_a_step_typed_with_g_goes_into_the_go_to_field(tmp_path):
    recorded = record_game(tmp_path / "x.db")
    replay = Replay.load(recorded.store, recorded.table_id)
    app = ReplayApp(replay, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await burst(app, pilot, "g", "s", "1", "2", "enter")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.step == 12


async def test_an_enter_meant_for_the_last_move_does_not_answer_the_game_over_dialog():
    client = roach_table(fronts=[[], ["bat", "bat", "bat"], [], []])
    app = TableGamesApp(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await burst(app, pilot, "1", "enter", "1", "2")  # a bat to Ada, claiming fly
        client.table.submit(1, {"type": "challenge", "believe": True})  # her fourth bat
        await burst(app, pilot, "enter", "enter")  # still pressing Enter as the end shows
        assert isinstance(app.screen, RoachResult)
        await settle(pilot)
        await burst(app, pilot, "enter")  # seen now, and still no Enter chooses: a letter does
        assert isinstance(app.screen, RoachResult)
        await pilot.pause(QUIET)
        await burst(app, pilot, "m")  # "Back to menu"
        assert isinstance(app.screen, MenuScreen)


async def test_two_chat_lines_typed_at_once_in_the_lobby_are_both_said_and_the_lobby_stays():
    async with in_the_lobby(1) as (_, remote, app, pilot):
        await burst(app, pilot, "slash", "a", "enter", "slash", "b", "enter")
        await until(lambda: len(remote.chat_lines) == 2, pilot=pilot)
        assert [line for _, line in remote.chat_lines] == ["a", "b"]
        assert isinstance(app.screen, LobbyScreen)
        assert remote.table_code is None  # no Enter sat Sara down at a table
        await pilot.press("slash")  # and the lobby still takes keys
        assert isinstance(app.screen, ChatDialog)


async def test_two_chat_lines_typed_at_once_at_a_table_are_both_said():
    async with sara_and_tom() as (friend, _, app, pilot):
        await burst(app, pilot, "slash", "g", "g", "enter", "slash", "o", "k", "enter")
        await until(lambda: len(friend.chat_lines) == 2, pilot=pilot)
        assert [line for _, line in friend.chat_lines] == ["gg", "ok"]
        assert isinstance(app.screen, CratesScreen)


def said_b(remote: RemoteClient) -> bool:
    """True once a chat line with the `b` typed second has been said (whichever line)."""
    return any("b" in line for _, line in remote.chat_lines)


async def test_six_keys_pressed_at_once_in_the_lobby_say_two_lines():
    async with in_the_lobby(1) as (_, remote, app, pilot):
        await pilot.press("slash", "a", "enter", "slash", "b", "enter")  # no pause between them
        await until(lambda: said_b(remote), pilot=pilot)
        assert [line for _, line in remote.chat_lines] == ["a", "b"]
        assert isinstance(app.screen, LobbyScreen)


async def test_keys_typed_after_enter_in_a_chat_line_go_on_to_the_next_line():
    """Enter in a chat line that has the keyboard sends it at once: what is typed after it
    (the next `/ b Enter`, already on its way to the line) never lands in the line just sent
    (a loaded machine once said "Sara: a/b")."""
    async with in_the_lobby(1) as (_, remote, app, pilot):
        await pilot.press("slash", "a")
        line = app.screen.query_one("#line")
        await until(lambda: line.has_focus, pilot=pilot)
        await burst(app, pilot, "enter", "slash", "b", "enter")  # straight to the line
        await until(lambda: said_b(remote), pilot=pilot)
        assert [line for _, line in remote.chat_lines] == ["a", "b"]
        assert isinstance(app.screen, LobbyScreen)
