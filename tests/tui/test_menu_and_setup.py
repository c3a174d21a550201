"""The opening menu, the rules from the menu, and setting up a game of Crates."""

from __future__ import annotations

import random

import pytest

from tablegames.bots import get_bot
from tablegames.local import local_table
from tablegames.store import Store
from tablegames.testing.harness import until
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.help import HelpScreen
from tablegames.tui.screens.kraken import KrakenScreen
from tablegames.tui.screens.menu import MenuScreen
from tablegames.tui.screens.replay import ReplayScreen
from tablegames.tui.screens.roach import RoachScreen
from tablegames.tui.screens.setup import SetupScreen, Stepper
from tablegames.words import plural

from ..test_local import first_human_move
from .helpers import opened, press, screen_text


async def test_the_menu_lists_every_registered_game():
    async with opened() as (app, _pilot):
        assert isinstance(app.screen, MenuScreen)
        text = screen_text(app)
        assert "q Quit" in text.splitlines()[-1]  # every key fits the footer at 80 columns
        for title, players in [
            ("Crates", "2–5"),
            ("Cockroach Poker Royal", "2–6"),
            ("You've Got Crabs", "4–10"),
            ("Feed the Kraken", "5–11"),
        ]:
            line = next(line for line in text.splitlines() if title in line)
            assert players in line and "Enter to play" in line


async def test_rules_open_from_the_menu():
    async with opened() as (app, pilot):
        await press(pilot, "r")
        assert isinstance(app.screen, HelpScreen)
        await press(pilot, "escape")
        assert isinstance(app.screen, MenuScreen)


async def test_setup_defaults_and_start():
    async with opened() as (app, pilot):
        await press(pilot, "enter")
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        values = {s.id: s.value for s in setup.query(Stepper)}
        assert values == {"players": 4, "humans": 1, "bots": "normal", "short": False}
        await pilot.press("left")  # 3 players
        await pilot.press("down", "right", "right", "right")  # humans stop at 3
        assert setup.query_one("#humans", Stepper).value == 3
        await pilot.press("down", "down", "right")  # short game
        await pilot.press("down")
        await pilot.press(*"Sara", "comma", "space", *"Tom")
        await press(pilot, "enter")
        table = next(s for s in app.screen_stack if isinstance(s, CratesScreen))
        client = table.client
        assert client.names[:3] == ["Sara", "Tom", "Player 3"]
        assert client.seats == [0, 1, 2]
        assert client.update(0).view["rounds"] == 8


async def test_a_stepper_draws_the_value_a_key_steps_to():
    async with opened() as (app, pilot):
        await press(pilot, "enter")

        def players_row() -> str:
            return next(line for line in screen_text(app).splitlines() if "Players" in line)

        assert "◀" in players_row() and " 4 " in players_row()
        await pilot.press("left")
        await until(lambda: " 3 " in players_row(), 10, "3 players drawn", pilot)
        await pilot.press("right", "right")
        await until(lambda: " 5 " in players_row(), 10, "5 players drawn", pilot)


async def test_escape_leaves_setup():
    async with opened() as (app, pilot):
        await press(pilot, "enter")
        await press(pilot, "escape")
        assert isinstance(app.screen, MenuScreen)


async def test_setup_offers_each_games_own_options():
    async with opened() as (app, pilot):
        await press(pilot, "down", "down", "enter")  # You've Got Crabs: played in real time
        values = {stepper.id: stepper.value for stepper in app.screen.query(Stepper)}
        assert values == {"players": 4, "humans": 1, "bots": "normal", "speed": 1.0}
        await press(pilot, "escape", "down", "enter")  # Feed the Kraken
        values = {stepper.id: stepper.value for stepper in app.screen.query(Stepper)}
        assert values == {
            "players": 7,
            "humans": 1,
            "bots": "normal",
            "board": None,
            "characters": True,
        }
        assert "auto" in screen_text(app) and "deal character cards" in screen_text(app)
        await press(pilot, "right", "right", "enter")  # 9 players: the board is theirs to take
        # (a first captain's appointment may already be asked over the table)
        (table,) = [screen for screen in app.screen_stack if isinstance(screen, KrakenScreen)]
        assert table.client.update(0).view["board"] == "long"


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_crabs_setup_says_which_bot_levels_read_signals(size):
    async with opened(size=size) as (app, pilot):
        await press(pilot, "down", "down", "enter")  # You've Got Crabs
        assert isinstance(app.screen, SetupScreen)
        text = screen_text(app)  # the hint may wrap: "normal and hard read" / "signals"
        assert "normal and hard read" in text and "signals" in text


async def test_roachs_setup_offers_who_loses_and_the_table_plays_by_it():
    async with opened() as (app, pilot):
        await press(pilot, "down", "enter")  # Cockroach Poker Royal
        values = {stepper.id: stepper.value for stepper in app.screen.query(Stepper)}
        assert values == {"players": 4, "humans": 1, "bots": "normal", "loser": "four"}
        assert "Loser" in screen_text(app) and "who loses" in screen_text(app)
        await press(pilot, "down", "down", "down", "right")
        assert app.screen.query_one("#loser", Stepper).value == "most"
        await press(pilot, "enter")
        (table,) = [screen for screen in app.screen_stack if isinstance(screen, RoachScreen)]
        assert table.client.table.options["loser"] == "most"
        assert "one more ends the game" in screen_text(app)


async def test_c_continues_a_game_saved_on_this_machine_where_it_stopped():
    client = local_table("roach", 3, seed=2, store=Store(), names=("Sara",))
    first_human_move(client)
    client.table.run_bots(20)  # until Sara's move again: the bots wait for her once resumed
    moves = client.table.version
    newer = local_table("crates", 2, seed=2, store=Store(), names=("Sara",))  # a second game
    first_human_move(newer)
    async with opened() as (app, pilot):
        await press(pilot, "c")
        text = screen_text(app)
        assert "Continue which game?" in text
        crates = f"Crates #2: Sara with a bot, {newer.table.version} move"
        roach = f"Cockroach Poker Royal #1: Sara with 2 bots, {plural(moves, 'move')},"
        assert crates in text and roach in text and text.index(crates) < text.index(roach)
        await press(pilot, "2")  # the older one: roach
        assert isinstance(app.screen, RoachScreen)
        assert app.screen.client.table.version == moves
        assert app.screen.client.table.state.view(0) == client.table.state.view(0)


async def test_w_replays_a_finished_game_and_q_comes_back_to_the_menu():
    client = local_table("crates", 3, seed=6, store=Store(), names=("Sara",), short=True)
    client.table.bots[0] = get_bot("crates", "normal", 0, random.Random(6))
    client.table.run_bots(100_000)
    assert client.table.over and client.saved_as is not None
    async with opened() as (app, pilot):
        await press(pilot, "w")
        winners = [client.table.names[s] for s in client.table.state.result()["winners"]]
        # The id `tablegames history` and `replay` know it by (the keys count from 1).
        table_id = client.saved_as[1]
        assert f"[1] Crates #{table_id}: {' and '.join(winners)} won" in screen_text(app)
        await press(pilot, "1")
        assert isinstance(app.screen, ReplayScreen) and app.screen.seat == 0  # Sara's chair
        await press(pilot, "n", "n")
        assert app.screen.step == 2
        await press(pilot, "q")
        assert isinstance(app.screen, MenuScreen) and len(app.screen_stack) == 2
        await press(pilot, "w", "1")  # and again: a fresh replay from the deal
        assert isinstance(app.screen, ReplayScreen) and app.screen.step == 0


@pytest.mark.parametrize(
    ("key", "said"),
    [("c", "No unfinished games on this machine."), ("w", "No finished games to watch yet.")],
)
async def test_nothing_to_continue_or_watch_is_said_on_the_menu(key, said):
    async with opened() as (app, pilot):
        await press(pilot, key)
        assert isinstance(app.screen, MenuScreen)
        assert said in screen_text(app)


async def test_escape_on_the_menu_says_how_to_quit_instead_of_quitting():
    async with opened() as (app, pilot):
        await press(pilot, "escape")
        assert app.is_running and isinstance(app.screen, MenuScreen)
        assert "q quits tablegames" in screen_text(app)
        await press(pilot, "q")
    assert app.return_code == 0
