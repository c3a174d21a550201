"""Words and keys a new player trips over (issue 40): a key dropped as the table changed says
why, - and + say the bots' pace (or why there is none), Ctrl-C leaves with status 130, Crates'
Dope! button, quit question, draw lines and dates, Roach's results and a replay of every hand."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from typer.testing import CliRunner

from tablegames.bots import get_bot
from tablegames.cli import app as cli
from tablegames.local import describe_saved, local_table, saved_label
from tablegames.replay import Replay
from tablegames.rules import get_game
from tablegames.store import Store
from tablegames.tui.app import EXIT_INTERRUPTED, ReplayApp, TableGamesApp
from tablegames.tui.screens.dialogs import PickDialog, QuitDialog
from tablegames.tui.screens.game import EARLY_KEY
from tablegames.tui.screens.menu import _finished_label
from tablegames.tui.screens.roach_dialogs import RoachResult
from tablegames.tui.screens.roach_view import final_display
from tablegames.tui.widgets.notices import NoticeLine
from tablegames.words import moment_words

from ..test_local import first_human_move
from .helpers import STILL, opened, press, screen_text, stacked
from .test_kraken_screen import kraken_table
from .test_replay_screen import viewer
from .test_roach_screen import offer, roach_table
from .test_secrets_under_timing import at_the_table


def banner(app: TableGamesApp) -> str:
    """The table's own news in the notice line above it (`NoticeLine`), if it shows any."""
    told = app.notices.showing.get("game")
    lines = [line for screen in app.screen_stack for line in screen.query(NoticeLine)]
    return told.text if told is not None and any(line.display for line in lines) else ""


@pytest.mark.real_time_keys
async def test_a_key_dropped_as_the_turn_comes_says_why_once(monkeypatch):
    client = stacked([["QH", "JH"], ["5H", "3C", "9S"]], upcard="KH", names=("Sara",))
    client.table.submit(0, {"type": "play", "card": "QH"})  # Ada's turn: Sara waits
    async with at_the_table(client, monkeypatch) as (app, keys):
        client.table.submit(1, {"type": "play", "card": "5H"})  # Sara's turn again...
        await keys.wait(0.0)
        await keys.type("enter", after=0.1)  # ...and her Enter comes a moment too soon
        assert [seat for seat, _, _ in client.table.log].count(0) == 1  # not played
        assert banner(app) == EARLY_KEY
        app.notices.showing.clear()  # (read: the line goes)
        await keys.type("enter", after=0.1)  # still too soon: said once is enough
        assert banner(app) == ""
        await keys.type("enter", after=0.6)  # a key now is taken
        assert [seat for seat, _, _ in client.table.log].count(0) == 2


async def test_minus_and_plus_say_the_bots_pace_even_over_a_question():
    client = kraken_table(captain=1)
    client.pace = 0.5
    client.table.submit(1, {"type": "appoint", "lieutenant": 3, "navigator": 2})
    async with opened(client, size=(120, 40)) as (app, pilot):
        assert isinstance(app.screen, PickDialog)  # the mutiny question is open
        await press(pilot, "minus")
        assert client.pace == 1.0 and isinstance(app.screen, PickDialog)
        assert "The bots play one move every 1 s" in banner(app)
        assert "There is no option" not in screen_text(app)
        await press(pilot, "plus")
        assert client.pace == 0.5


async def test_minus_at_a_table_without_bots_says_there_are_none():
    client = stacked([["QH", "JH"], ["2C", "3C"]], humans=2, names=("Ann", "Bob"))
    async with opened(client) as (app, pilot):
        await press(pilot, "A")  # Ann takes the keyboard
        await press(pilot, "minus")
        assert "No bots play at this table" in str(app.screen.query_one("#status").render())


async def test_ctrl_c_leaves_with_the_status_of_an_interrupted_program():
    async with opened(stacked([["QH"], ["2C"]])) as (app, pilot):
        await pilot.press("ctrl+c")
    assert app.return_code == EXIT_INTERRUPTED == 130


async def test_dope_is_offered_only_when_someone_may_be_called():
    client = stacked([["QH", "QS", "7C"], ["JH", "JD"]], upcard="KH", draw=["2S", "3S"])
    async with opened(client) as (app, pilot):
        await press(pilot, "enter")  # Sara plays; Ada is down to...
        client.table.submit(1, {"type": "play", "card": "JH", "announce": True})  # ...1, said
        await pilot.pause()
        assert client.update(0).view["hand_sizes"][1] == 1
        assert not app.screen.query_one("#dope").display  # nobody to call: no button
        assert "Dope! (x)" not in screen_text(app)


async def test_the_leave_question_names_the_command_without_markdown():
    store = Store()
    client = stacked([["QH", "JH"], ["2C", "3C"]], store=store)
    client.table.submit(0, {"type": "play", "card": "QH"})  # saved from now
    async with opened(client) as (app, pilot):
        await press(pilot, "q")
        dialog = app.screen
        assert isinstance(dialog, QuitDialog)
        assert dialog.question.endswith('It is saved: "tablegames resume" brings it back.')
        await pilot.pause()
        assert "`" not in screen_text(app)


def test_the_menu_and_the_command_line_write_dates_alike():
    store = Store()
    client = local_table("crates", 3, seed=2, store=store, names=("Sara",))
    first_human_move(client)
    (saved,) = store.open_tables("local")
    when = moment_words(saved.created)
    assert when == time.strftime("%Y-%m-%d %H:%M", time.localtime(saved.created))
    assert saved_label(saved).endswith(when) and when in describe_saved(saved)
    entry: dict[str, Any] = {"game": "crates", "id": 4, "winners": ["Sara"], "finished": 0.0}
    assert _finished_label(entry).endswith(moment_words(0.0))
    finished = local_table("crates", 2, seed=6, store=store, names=("Sara",), short=True)
    finished.table.bots[0] = get_bot("crates", "normal", 0, random.Random(6))
    finished.table.run_bots(100_000)
    (listed,) = store.history(5)
    result = CliRunner().invoke(cli, ["history"], env={"COLUMNS": "200"})
    assert moment_words(listed["finished"]) in result.output


def test_roachs_results_say_the_face_up_cards_in_words():
    shown = final_display(
        {"ladybug": 4, "bat": 3, "fly": 1, "mouse": 2},
        ["royal-ladybug", "joker", "ladybug"],
        lose_at=4,
        colour=False,
    ).plain
    assert shown == "4 ladybugs (1 royal), 3 bats, 2 mice, 1 fly, a joker"
    assert "!" not in shown and "+R" not in shown


async def test_roachs_result_table_has_no_sign_the_header_does_not_explain():
    client = roach_table(fronts=[[], ["bat", "bat", "bat"], [], []])
    client.table.submit(0, offer("bat", 1, "fly"))
    client.table.submit(1, {"type": "challenge", "believe": True})  # Ada's fourth bat
    async with opened(client) as (app, _pilot):
        assert isinstance(app.screen, RoachResult)
        text = screen_text(app)
        assert "4 bats" in text and "LOSES" in text
        assert "4!" not in text and "+R" not in text


async def test_a_replay_of_every_hand_shows_the_roach_card_in_flight():
    options = {
        "hands": [["bat", "fly"], ["frog", "mouse"], ["ladybug", "scorpion"]],
        "penalty": ["fly"],
        "first": 0,
    }
    log = [
        (0, offer("bat", 1, "fly"), 0.0),
        (1, {"type": "pass", "to": 2, "claim": "frog"}, 0.0),
        (2, {"type": "challenge", "believe": False}, 0.0),
    ]
    replay = Replay(get_game("roach"), 3, 1, options, log)
    app = ReplayApp(replay, seat=None, step=2)  # the bat on its way to the third player
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        panel = str(viewer(app).query_one("#replay-hands").render())
        assert "saw the card in flight: bat" in panel, panel
        assert len([line for line in panel.splitlines() if "in flight: bat" in line]) == 2


async def test_the_pace_keys_belong_to_a_table():
    # (elsewhere `-` is a letter: in a name, in a chat line)
    client = local_table("crates", 3, humans=1, seed=1, names=("Sara",), pace=STILL)
    async with opened(client) as (app, _pilot):
        assert app.check_action("pace", (1,))
    async with opened() as (app, _pilot):
        assert not app.check_action("pace", (1,))  # no table: the menu's keys alone
