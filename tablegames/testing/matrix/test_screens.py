"""Its table screen: at 60×20, 80×24 and 100×40 with the fewest and the most players, in
ASCII too; its help, leaving, refusals in names, and a replay that asks nothing."""

from __future__ import annotations

import random
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.binding import Binding

from tablegames.bots import get_bot
from tablegames.drivers import LocalClient, run_realtime
from tablegames.local import local_table
from tablegames.replay import Replay
from tablegames.rules import get_game
from tablegames.store import Store
from tablegames.table import VirtualClock
from tablegames.tui import catalogue
from tablegames.tui.app import ReplayApp, TableGamesApp
from tablegames.tui.screens.dialogs import QuitDialog
from tablegames.tui.screens.game import ActionButton, GameScreen
from tablegames.tui.screens.generic import GenericScreen
from tablegames.tui.screens.help import HelpScreen, help_markdown
from tablegames.tui.screens.replay import ReplayScreen
from tablegames.tui.screens.said import Said
from tablegames.tui.screens.size import TooSmall

from ..cases import case
from ..harness import until
from ..screens import STILL, press, screen_text

SIZES = [(60, 20), (80, 24), (100, 40)]  # the least every table fits, and two more


@asynccontextmanager
async def opened(client: LocalClient, size: tuple[int, int] = (80, 24)) -> Any:
    """`client`'s table in the app, run headless and drawn once."""
    app = TableGamesApp(client)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        yield app, pilot


async def at_the_table(app: Any, pilot: Any) -> GameScreen | None:
    """The table screen once the first question the game asks over it is put aside (a team's
    signal, a decision); None if it is covered by something else."""
    for _ in range(3):
        if isinstance(app.screen, GameScreen):
            break
        await press(pilot, "escape")
    await pilot.pause()
    return app.screen if isinstance(app.screen, GameScreen) else None


@pytest.mark.parametrize("most", [False, True], ids=["fewest", "most"])
async def test_its_table_fits_every_size_with_the_fewest_and_the_most_players(
    game_name: str, most: bool
) -> None:
    """Its table at 100×40, 80×24 and 60×20, with the fewest and the most players, in ASCII:
    the status line and the footer's help and quit in sight, every player named (the generic
    screen), nothing but ASCII; or, smaller than the table needs, a notice saying how big."""
    game = get_game(game_name)
    players = game.max_players if most else game.min_players
    client = local_table(game_name, players, humans=1, seed=5, names=("Pat",), pace=STILL)
    app = TableGamesApp(client, ascii=True)
    async with app.run_test(size=SIZES[-1]) as pilot:
        await pilot.pause()
        table = await at_the_table(app, pilot)
        assert table is not None, screen_text(app)
        for size in reversed(SIZES):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            text = screen_text(app)
            assert text.isascii(), (size, sorted({c for c in text if not c.isascii()}))
            if isinstance(app.screen, TooSmall):
                needed = app.screen.needed
                assert needed[0] > size[0] or needed[1] > size[1], (size, needed)
                assert f"Make the terminal at least {needed[0]}x{needed[1]}" in text
                continue
            assert app.screen is table, (size, app.screen)
            lines = text.splitlines()
            assert "Help" in lines[-1] and "Quit" in lines[-1], (size, lines[-1])
            status = str(table.query_one("#status").render()).strip()
            assert status[:20] in text, (size, status)
            if isinstance(table, GenericScreen):
                hidden = [name for name in table.names if name not in text]
                assert not hidden, (size, f"players not in sight: {hidden}")


def test_its_table_screen_ends_its_keys_with_help_and_quit(game_name: str) -> None:
    """Its table screen (its own, or the generic one) is a `GameScreen` whose keys end with
    help and quit."""
    game = get_game(game_name)
    made = catalogue.screen_class(game_name)  # a game's own, or generic
    assert catalogue.own_screen(game) or made is GenericScreen
    screens = [made] if isinstance(made, type) else game_screens(game_name)
    assert screens, f"{game_name}'s screen names no GameScreen"
    for screen in screens:
        assert issubclass(screen, GameScreen)
        actions = [b.action for b in screen.BINDINGS if isinstance(b, Binding)]
        assert actions[-2:] == ["help", "quit"], f"{screen.__name__}: help, quit last"


def game_screens(name: str) -> list[type[GameScreen[Any, Any, Any]]]:
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
    return case(name).own_key or GenericScreen.MORE_HELP[1][1]


async def test_its_screen_opens_its_help_and_asks_before_leaving(game_name: str) -> None:
    """Its table opens its help (the rules, its own keys) and asks before leaving."""
    client = local_table(game_name, get_game(game_name).min_players, humans=1, seed=1, pace=STILL)
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
        # and fit in it at 80 columns (once the footer is drawn: a loaded machine draws late)
        await until(lambda: "q Quit" in screen_text(app).splitlines()[-1], 30, "q Quit shown")

        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen) and app.screen.game == game_name
        assert "leave the game" in help_markdown(game_name, app.screen.keys)
        text = screen_text(app)
        assert f"{get_game(game_name).title}: rules and keys" in text and "Keys" in text
        assert own_key(game_name) in text
        spaces = [meaning for key, meaning in app.screen.keys if key == "space"]
        assert len(spaces) == 1, spaces  # one key, one meaning: crabs' space is its own
        await pilot.press("escape")
        assert table.is_current

        await press(pilot, "q")
        assert isinstance(app.screen, QuitDialog)
        assert "Leave this game?" in screen_text(app)
        await pilot.press("n")
        assert table.is_current
        await press(pilot, "q", "y")
    assert app.return_code == 0


async def test_ascii_mode_writes_only_ascii(game_name: str) -> None:
    """With --ascii its table and first question are drawn in ASCII (scrollbars aside)."""
    players = get_game(game_name).default_players
    client = local_table(game_name, players, humans=1, seed=3, pace=STILL)
    app = TableGamesApp(client, ascii=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()  # the table, and the first question the game asks over it
        drawn = screen_text(app)
        scrollbar = {chr(code) for code in range(0x2580, 0x25A0)}  # Textual's block elements
        assert not {c for c in drawn if not c.isascii() and c not in scrollbar}, drawn


async def test_a_refusal_names_seats_as_the_log_does(game_name: str) -> None:
    """A refusal names seats as the log does ({0}: the player's name)."""
    players = get_game(game_name).default_players
    client = local_table(game_name, players, humans=1, seed=3, names=("Sara",), pace=STILL)
    async with opened(client, size=(100, 32)) as (app, pilot):
        table = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        table.post_message(Said("{0} is not among the tied players", refusal=True))
        await pilot.pause()
        assert "Sara is not among the tied players" in str(table.query_one("#status").render())


async def test_ascii_mode_reaches_the_help_no_box_lines_no_scrollbar(game_name: str) -> None:
    """With --ascii its help is ASCII all through: no box lines, no scrollbar."""
    players = get_game(game_name).default_players
    client = local_table(game_name, players, humans=1, seed=3, pace=STILL)
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


async def test_ascii_mode_at_the_smallest_size_cuts_titles_in_ascii(game_name: str) -> None:
    """With --ascii at 60×20 and the most players, everything drawn is ASCII: titles cut with
    ASCII, no scrollbar."""
    players = get_game(game_name).max_players  # long names, long titles
    client = local_table(game_name, players, humans=1, seed=3, pace=STILL)
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


async def test_at_the_smallest_size_the_footer_keeps_help_and_quit(game_name: str) -> None:
    """At the smallest size its table says it needs, the footer keeps help and quit."""
    client = local_table(game_name, get_game(game_name).default_players, seed=2, pace=STILL)
    app = TableGamesApp(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        await pilot.resize_terminal(*table.min_size())
        await pilot.pause()
        for _ in range(3):  # a question the game asks first (a team's signal, a decision)
            if app.screen is table:
                break
            await press(pilot, "escape")
        assert app.screen is table
        assert "? Help q Quit" in screen_text(app).splitlines()[-1]


async def test_a_replay_never_asks_the_seat_a_question(game_name: str, tmp_path: Path) -> None:
    """Replaying from a seat whose move it is shows the table; no decision dialog takes the keys,
    no button offers a move, no card is picked."""
    store = Store(tmp_path / "x.db")
    client = local_table(game_name, case(game_name).players, seed=4, store=store)
    client.table.bots[0] = get_bot(game_name, "normal", 0, random.Random(4))
    if get_game(game_name).realtime:  # crabs: bots react in table time, on a clock that jumps
        clock = client.table.clock = VirtualClock(client.table.clock())
        run_realtime(client.table, clock, 20_000)
    else:
        client.table.run_bots(20_000)
    assert client.table.over and client.saved_as is not None
    replay = Replay.load(store, client.saved_as[1])
    app = ReplayApp(replay, seat=0)
    async with app.run_test(size=(110, 34)) as pilot:
        for step in range(1, 9):
            await press(pilot, "n")
            assert isinstance(app.screen, ReplayScreen), app.screen
            assert app.screen.step == step
            under = app.screen.table
            assert not [button.id for button in under.query(ActionButton) if button.display]
            assert getattr(under, "selected", None) is None
