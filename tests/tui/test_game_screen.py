"""What every game's table screen gets from `GameScreen`: help, leaving, and the shared keys."""

from __future__ import annotations

import pytest
from textual.binding import Binding

from tablegames import catalogue
from tablegames.catalogue import listings
from tablegames.local import local_table, resume_local
from tablegames.rules import get_game
from tablegames.store import Store
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.dialogs import PickDialog, QuitDialog
from tablegames.tui.screens.game import GameScreen
from tablegames.tui.screens.generic import GenericScreen
from tablegames.tui.screens.help import HelpScreen, help_markdown
from tablegames.tui.widgets.log import GameLog

from ..games import case
from .helpers import STILL, four_player_table, opened, press, screen_text

GAMES = listings()  # every registered game: built in, or named in TABLEGAMES_GAMES


def test_every_game_has_a_table_screen_ending_its_keys_with_help_and_quit() -> None:
    for listing in GAMES:
        made = catalogue.screen_class(listing.name)  # a game's own (`Game.screen`), or generic
        assert listing.own_screen or made is GenericScreen
        screens = [made] if isinstance(made, type) else game_screens(listing.name)
        assert screens, f"{listing.name}'s screen names no GameScreen"
        for screen in screens:
            assert issubclass(screen, GameScreen)
            actions = [b.action for b in screen.BINDINGS if isinstance(b, Binding)]
            assert actions[-2:] == ["help", "quit"], f"{screen.__name__}: help, quit last"


def game_screens(name: str) -> list[type[GameScreen]]:
    """The GameScreen subclasses that say they play `name` (a screen made by a function)."""
    found, screens = list(GameScreen.__subclasses__()), []
    while found:  # the game screens, directly under GameScreen or under HandScreen
        screen = found.pop()
        found += screen.__subclasses__()
        if screen.__dict__.get("GAME") == name:
            screens.append(screen)
    return screens


def own_key(name: str) -> str:
    """A line of `name`'s own keys in its help: the generic screen's for a game without one."""
    return case(name).own_key or GenericScreen.KEYS[1][1]


@pytest.mark.parametrize("listing", GAMES, ids=lambda listing: listing.name)
async def test_every_game_screen_opens_its_help_and_asks_before_leaving(listing) -> None:
    client = local_table(listing.name, listing.min_players, humans=1, seed=1, pace=STILL)
    app = TableGamesApp(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(3):  # a question the game asks first (a team's signal, a decision)
            if isinstance(app.screen, GameScreen):
                break
            await press(pilot, "escape")
        table = app.screen
        assert isinstance(table, GameScreen)
        shown = [key for key, active in table.active_bindings.items() if active.binding.show]
        assert shown[-2:] == ["question_mark", "q"]  # help and quit come last in the footer
        assert "q Quit" in screen_text(app).splitlines()[-1]  # and fit in it at 80 columns

        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen) and app.screen.game == listing.name
        assert "leave the game" in help_markdown(listing.name, app.screen.keys)
        text = screen_text(app)
        assert f"{listing.title}: rules and keys" in text and "Keys" in text
        assert own_key(listing.name) in text
        spaces = [meaning for key, meaning in app.screen.keys if key == "space"]
        assert len(spaces) == 1, spaces  # one key, one meaning: crabs' space is its own
        await pilot.press("escape")
        assert app.screen is table

        await press(pilot, "q")
        assert isinstance(app.screen, QuitDialog)
        assert "Leave this game?" in screen_text(app)
        await pilot.press("n")
        assert app.screen is table
        await press(pilot, "q", "y")
    assert app.return_code == 0


@pytest.mark.parametrize("listing", GAMES, ids=lambda listing: listing.name)
async def test_ascii_mode_writes_only_ascii(listing) -> None:
    players = get_game(listing.name).default_players
    client = local_table(listing.name, players, humans=1, seed=3, pace=STILL)
    app = TableGamesApp(client, ascii=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()  # the table, and the first question the game asks over it
        drawn = screen_text(app)
        scrollbar = {chr(code) for code in range(0x2580, 0x25A0)}  # Textual's block elements
        assert not {c for c in drawn if not c.isascii() and c not in scrollbar}, drawn


@pytest.mark.parametrize("listing", GAMES, ids=lambda listing: listing.name)
async def test_a_refusal_names_seats_as_the_log_does(listing) -> None:
    # Engines name seats {0}, {1}... in refusals too (kraken: "{3} is not among the tied players").
    players = get_game(listing.name).default_players
    client = local_table(listing.name, players, humans=1, seed=3, names=("Sara",), pace=STILL)
    async with opened(client, size=(100, 32)) as (app, pilot):
        table = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        table._refused("{0} is not among the tied players")
        await pilot.pause()
        assert "Sara is not among the tied players" in str(table.query_one("#status").render())


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
        assert isinstance(table, GameScreen) and table._bot_worker is not None
        await press(pilot, "space")
        assert table.paused and table._bot_worker is None
        assert "The bots are paused: space lets them play on." in screen_text(app)
        await press(pilot, "plus")  # faster: and on again
        assert client.pace == 2.0 and not table.paused and table._bot_worker is not None
        await press(pilot, "minus", "minus")
        assert client.pace == 4.0
        assert "one move every 4 s" in screen_text(app)


async def test_a_turn_opens_with_what_happened_since_the_last_one_and_the_log_scrolls() -> None:
    client = four_player_table()
    table = client.table
    async with opened(client) as (app, pilot):
        table.submit(0, {"type": "play", "card": "5H"})
        await pilot.pause()
        while 0 not in table.state.waiting_for():
            table.submit(*table.bot_move())
            await pilot.pause()
        log = app.screen.query_one(GameLog)
        text = screen_text(app)
        ((_, summary),) = app.screen.recaps[0]
        assert summary.startswith("» Since your last turn") and summary[2:30] in text
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        await press(pilot, "pageup")
        assert log.scroll_y < log.max_scroll_y and "End for the newest" in screen_text(app)
        table.submit(0, table.legal(0)[0])  # a new line does not pull the log back down
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
        await pilot.pause(3.0)  # a bot's turn, had they played on
        assert len(client.table.log) == moves
        await press(pilot, "n")  # keep playing: the bots play on (within 10 s on a busy machine)
        for _ in range(100):
            if len(client.table.log) > moves:
                break
            await pilot.pause(0.1)
        assert len(client.table.log) > moves


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


@pytest.mark.parametrize("listing", GAMES, ids=lambda listing: listing.name)
async def test_ascii_mode_reaches_the_help_no_box_lines_no_scrollbar(listing) -> None:
    players = get_game(listing.name).default_players
    client = local_table(listing.name, players, humans=1, seed=3, pace=STILL)
    app = TableGamesApp(client, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(3):  # a question the game asks first
            if isinstance(app.screen, GameScreen):
                break
            await press(pilot, "escape")
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        for _ in range(3):
            text = screen_text(app)
            assert text.isascii(), sorted({c for c in text if not c.isascii()})
            assert "rules and keys" in text
            await press(pilot, "pagedown")


@pytest.mark.parametrize("listing", GAMES, ids=lambda listing: listing.name)
async def test_ascii_mode_at_the_smallest_size_cuts_titles_in_ascii(listing) -> None:
    players = get_game(listing.name).max_players  # long names, long titles
    client = local_table(listing.name, players, humans=1, seed=3, pace=STILL)
    app = TableGamesApp(client, ascii=True)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        for _ in range(3):
            if isinstance(app.screen, GameScreen):
                break
            await press(pilot, "escape")
        await pilot.pause()
        text = screen_text(app)
        assert text.isascii(), sorted({c for c in text if not c.isascii()})


async def test_a_list_left_empty_by_the_table_moving_on_is_not_opened() -> None:
    async with opened(four_player_table()) as (app, pilot):
        table = app.screen
        assert isinstance(table, GameScreen)
        answers: list[object] = []
        table._open(PickDialog("Say to the table", []), answers.append)
        await pilot.pause()
        assert app.screen is table and answers == [None]
        assert "nothing to choose" in str(table.query_one("#status").render())
