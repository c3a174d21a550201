"""Every size: too small says so, a resize keeps the log, the status and every card in sight."""

from __future__ import annotations

from textual.app import App

from tablegames.local import local_table
from tablegames.testing.harness import until
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.dialogs import PickDialog
from tablegames.tui.screens.handoff import HandoffScreen
from tablegames.tui.screens.kraken import KrakenScreen
from tablegames.tui.screens.roach import RoachScreen
from tablegames.tui.screens.size import TooSmall
from tablegames.tui.widgets.log import GameLog

from .helpers import STILL, four_player_table, press, screen_text, stacked
from .test_crabs_screen import at_the_table, crabs_table
from .test_kraken_screen import kraken_table


async def test_below_the_smallest_size_the_table_says_so_and_takes_no_keys() -> None:
    client = four_player_table()
    app = TableGamesApp(client)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmall)
        assert "Make the terminal at least 60×20" in screen_text(app)
        await press(pilot, "right", "enter", "d")  # nothing is played from a garbled table
        assert client.table.version == 0
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert isinstance(app.screen, CratesScreen)
        await press(pilot, "enter")
        assert client.table.version == 1


async def test_after_a_resize_the_log_wraps_again_and_shows_its_newest_line() -> None:
    client = local_table("crates", 4, seed=5, pace=STILL)
    app = TableGamesApp(client)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        for size in ((60, 20), (160, 50), (80, 24), (60, 20)):
            await pilot.resize_terminal(*size)
            for _ in range(3):
                await pilot.pause()
            log = app.screen.query_one(GameLog)
            width = log.scrollable_content_region.width
            assert all(len(strip.text.rstrip()) <= width for strip in log.lines), size
            assert log.scroll_y == log.max_scroll_y
            assert "Chidi (bot) draws 1 card." in screen_text(app), size


async def test_at_60_by_20_the_status_line_stays() -> None:
    app = TableGamesApp(local_table("roach", 4, seed=2, pace=STILL))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert isinstance(app.screen, RoachScreen)
        assert "Your turn: pick a card" in screen_text(app)


async def test_crabs_shows_every_card_and_its_y_n_at_60_by_20() -> None:
    client = crabs_table(first_side=1)
    app = TableGamesApp(client)
    async with app.run_test(size=(60, 20)) as pilot:
        await at_the_table(pilot, app)
        text = screen_text(app)
        for key in ("a", "s", "d", "f", "j", "k", "l", ";"):
            assert f"│   {key} " in text, key
        client.table.submit(1, {"type": "done"})
        client.table.submit(3, {"type": "done"})
        await pilot.pause()
        assert "swap? y / n" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "swap? y / n" in screen_text(app)


async def test_the_kraken_crew_keeps_job_duty_and_guns_when_the_terminal_narrows() -> None:
    app = TableGamesApp(kraken_table(names=("Sara Longname-Smith",)))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await press(pilot, "escape")
        for size in ((80, 24), (70, 22)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert isinstance(app.screen, KrakenScreen)
            text = screen_text(app)
            assert "Job Off Guns" in text, size  # (narrow: compact, claims in a few words)
            assert "Cpt" in text and "3" in text.split("Job Off Guns")[1].splitlines()[1]


async def test_a_dialog_at_80_by_24_leaves_the_hand_in_sight() -> None:
    client = stacked([["9C", "QH", "4D", "7S"], ["2D", "4C", "JD"]], upcard="KC", names=("Sara",))
    app = TableGamesApp(client)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await press(pilot, "3", "enter")  # the 9 (7♠ Q♥ 9♣ 4♦): which suit?
        assert isinstance(app.screen, PickDialog)
        text = screen_text(app)
        for card in ("9♣", "Q♥", "4♦", "7♠"):
            assert card in text.split("Your hand")[1], card
        await press(pilot, "escape")
        app.notify("gg", title="Tom")
        await until(
            lambda: any(toast.region.height for toast in app.screen.query("Toast")), pilot=pilot
        )
        (toast,) = app.screen.query("Toast")
        assert toast.region.y < 8  # pop-ups come in at the top, over the players


async def test_a_hand_off_to_a_wide_name_at_60_columns_still_shows_its_key() -> None:
    name = "ＢｒｕｎｏＢａｒｔｈｏｌｏｍｅｗ"  # (full-width: two columns a letter)
    app: App[None] = App()
    async with app.run_test(size=(60, 20)) as pilot:
        await app.push_screen(HandoffScreen(1, name, "B", private="cards"))
        await pilot.pause()
        assert f"I am {name} (Shift+B)" in screen_text(app)
        await pilot.resize_terminal(120, 30)
        await pilot.pause()
        assert f"I am {name}: show my cards (Shift+B)" in screen_text(app)
