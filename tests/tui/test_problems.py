"""A mistake in a screen costs that screen, never the game: it is drawn afresh, with a
sentence for the player, and the details go to the owner-only problems log."""

from __future__ import annotations

import os
import stat

import pytest

from tablegames.paths import data_dir
from tablegames.testing.harness import until
from tablegames.tui.app import AFRESH, GUEST_FAREWELL, STOPPED, TableGamesApp
from tablegames.tui.screens.crates import CratesScreen

from .helpers import four_player_table, press
from .test_lobby import in_the_lobby


class Broken(Exception):
    """What the broken key raises."""


@pytest.fixture
def broken_help(monkeypatch: pytest.MonkeyPatch) -> None:
    def help_that_breaks(self: CratesScreen) -> None:
        raise Broken("a mistake in the help key")

    monkeypatch.setattr(CratesScreen, "action_help", help_that_breaks)


async def test_a_screen_that_breaks_is_drawn_afresh_and_the_game_goes_on(broken_help):
    client = four_player_table()
    app = TableGamesApp(client)
    app.expect_problems = True
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = app.screen
        await press(pilot, "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, CratesScreen) and app.screen is not before
        assert [str(n.message) for n in app._notifications] == [AFRESH]
        assert [type(problem) for problem in app.problems] == [Broken]
        await press(pilot, "3", "enter")  # the new screen plays: Sara's 5♥ on the K♥
        assert client.table.log[-1][1] == {"type": "play", "card": "5H"}
    log = data_dir() / "problems.log"
    assert "a mistake in the help key" in log.read_text()
    assert stat.S_IMODE(os.stat(log).st_mode) == 0o600


async def test_problems_that_keep_coming_end_the_app_with_a_sentence(broken_help):
    app = TableGamesApp(four_player_table())
    app.expect_problems = True
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(3):
            await press(pilot, "question_mark")
            await pilot.pause()
    assert app.return_code == 1 and len(app.problems) == 3
    assert app.farewell.startswith(STOPPED)


async def test_a_party_guest_whose_app_breaks_gets_a_sentence_not_a_traceback():
    async with in_the_lobby(1) as (_, _remote, app, _pilot):
        app.expect_problems = True
        app.call_later(app_breaks)  # a mistake of the app itself, not of a screen
        await until(lambda: app.return_code is not None)  # (a pilot would wait in vain: it ends)
    assert app.return_code == 1 and app.farewell == GUEST_FAREWELL
    assert app._exit_renderables == []  # (where Textual would put the traceback)


def app_breaks() -> None:
    raise Broken("a mistake in the app")


async def test_a_local_app_that_breaks_leaves_a_sentence_not_a_traceback():
    # (Textual's traceback lists local values: a hand among them, left on the terminal)
    app = TableGamesApp(four_player_table())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.expect_problems = True
        app.call_later(app_breaks)  # a mistake of the app itself, not of a screen
        await until(lambda: app.return_code is not None)  # (a pilot would wait in vain: it ends)
    assert app.return_code == 1 and app.farewell.startswith(STOPPED)
    assert app._exit_renderables == []
