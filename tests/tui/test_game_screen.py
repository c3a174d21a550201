"""What every game's table screen gets from `GameScreen`: help, leaving, and the shared keys."""

from __future__ import annotations

import pytest

from tablegames.local import local_table, resume_local
from tablegames.store import Store
from tablegames.testing.harness import until
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.dialogs import PickDialog, QuitDialog
from tablegames.tui.screens.game import GameScreen
from tablegames.tui.widgets.log import GameLog

from .helpers import STILL, four_player_table, opened, press, round_the_table, screen_text


async def test_discarding_a_saved_game_asks_once_more_and_save_and_quit_says_where() -> None:
    store = Store()
    client = four_player_table(store=store)
    client.table.submit(0, {"type": "play", "card": "5H"})  # a move: the game is worth keeping
    (saved,) = store.open_tables("local")
    app = TableGamesApp(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "q", "d")  # d is also crates' draw key: nothing is forgotten yet
        assert isinstance(app.screen, QuitDialog)
        assert "Forget this game for good?" in screen_text(app)
        await press(pilot, "n")  # back to the first question
        assert "It is saved" in screen_text(app)
        assert store.open_tables("local") != []
        await press(pilot, "y")  # save & quit
    assert f"Game {saved.id} is saved in " in app.farewell
    assert f"`tablegames resume {saved.id}` continues it." in app.farewell

    app = TableGamesApp(resume_local(store, saved.id))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "q", "d", "y")
    assert store.open_tables("local") == [] and app.farewell == ""


async def test_space_pauses_the_bots_and_minus_plus_change_their_pace() -> None:
    client = four_player_table()  # the bots wait ages before each move: STILL
    async with opened(client) as (app, pilot):
        table = app.screen
        assert isinstance(table, GameScreen) and table.bots.running
        await press(pilot, "space")
        assert table.bots.paused and not table.bots.running
        assert "The bots are paused: space lets them play on." in screen_text(app)
        await press(pilot, "plus")  # faster: and on again
        assert client.pace == 2.0 and not table.bots.paused and table.bots.running
        await press(pilot, "minus", "minus")
        assert client.pace == 4.0
        assert "one move every 4 s" in screen_text(app)


async def test_a_turn_opens_with_what_happened_since_the_last_one_and_the_log_scrolls() -> None:
    client = four_player_table()
    async with opened(client) as (app, pilot):
        await round_the_table(client, pilot)
        log = app.screen.query_one(GameLog)
        text = screen_text(app)
        ((_, summary),) = app.screen.logs.recaps[0]
        assert summary.startswith("» Since your last turn") and summary[2:30] in text
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        await press(pilot, "pageup")
        assert log.scroll_y < log.max_scroll_y and "End for the newest" in screen_text(app)
        client.table.submit(0, client.table.legal(0)[0])  # a new line keeps the log up there
        await pilot.pause()
        assert log.scroll_y < log.max_scroll_y
        await press(pilot, "end")
        assert log.scroll_y == log.max_scroll_y and log.following
        await press(pilot, "home")
        assert log.scroll_y == 0


async def test_the_bots_wait_while_the_leave_question_is_open() -> None:
    # Bots paced at 2 s: the question is up long before the first bot's turn, however busy
    # the machine (at 0.2 s all three bots had played before a loaded test pressed q).
    client = four_player_table(pace=2.0)
    async with opened(client) as (app, pilot):
        await press(pilot, "3", "enter", "q")  # 5♥ played, then "Leave this game?"
        assert isinstance(app.screen, QuitDialog)
        moves = len(client.table.log)
        assert 0 not in client.waiting_for()  # the bots' turns are to come
        table = next(screen for screen in app.screen_stack if isinstance(screen, GameScreen))
        assert not table.bots.running  # held: no bot's turn comes while the question is up
        await pilot.pause()
        assert len(client.table.log) == moves
        await press(pilot, "n")  # keep playing: the bots play on (within 10 s on a busy machine)
        await until(lambda: len(client.table.log) > moves, pilot=pilot)


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (100, 30), (120, 40)], ids=str)
async def test_the_leave_question_shows_every_answer_with_its_key(size) -> None:
    store = Store()
    client = four_player_table(store=store)
    client.table.submit(0, {"type": "play", "card": "5H"})  # saved: four answers
    async with opened(client, size=size) as (app, pilot):
        await press(pilot, "q")
        text = screen_text(app)
        for answer in ("Save & quit (y)", "Discard (d)", "Menu (m)", "Keep playing (n)"):
            assert answer in text, text
        await press(pilot, "d")
        text = screen_text(app)
        assert "Forget it (y)" in text and "Keep it (n)" in text, text


async def test_q_inside_the_leave_question_is_no_hidden_answer() -> None:
    # Play-testers pressed q, d (forget?), n (keep it: the leave question is back) and then q
    # again, taking it for the table's key: it quit at once, without asking.
    store = Store()
    client = four_player_table(store=store)
    client.table.submit(0, {"type": "play", "card": "5H"})
    async with opened(client) as (app, pilot):
        await press(pilot, "q", "d", "n", "q")
        assert isinstance(app.screen, QuitDialog) and app.is_running
        assert "Leave this game?" in screen_text(app)
        await press(pilot, "n")
        assert isinstance(app.screen, GameScreen)
    assert store.open_tables("local") != []


async def test_a_list_left_empty_by_the_table_moving_on_is_not_opened() -> None:
    async with opened(four_player_table()) as (app, pilot):
        table = app.screen
        assert isinstance(table, GameScreen)
        answers: list[object] = []
        table._open(PickDialog("Say to the table", []), answers.append)
        await pilot.pause()
        assert app.screen is table and answers == [None]
        assert "nothing to choose" in str(table.query_one("#status").render())


async def test_a_note_the_table_opens_with_is_said_over_it():
    """What a game's bot levels do is said in the game (it was printed before it, and left on
    the terminal after quitting)."""
    app = TableGamesApp(local_table("crabs", 4, seed=1, pace=STILL))
    app.opening_note = "You've Got Crabs bots: normal and hard read signals."
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "read signals" not in screen_text(app)  # (behind the team's huddle)
        await press(pilot, "escape")  # the huddle put aside: the table, and the note over it
        assert "normal and hard read signals" in screen_text(app)
