"""A phone plays by taps alone (issue 38): every question has a Back to tap, the table's footer
keys are tapped through a question where they work, `q` in a question asks to leave, notices
go to a line of their own instead of covering the table, the hand or the standings, and a
session on the party's web page tells the page how many columns the table needs."""

from __future__ import annotations

from typing import Any

import pytest
from textual.drivers.headless_driver import HeadlessDriver
from textual.events import MouseScrollDown, MouseScrollUp
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets._footer import FooterKey

from tablegames.net.web_protocol import PAGE_ENV, ROOM_OSC
from tablegames.testing.harness import until
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.dialogs import PickDialog, QuitDialog
from tablegames.tui.screens.game import GameScreen
from tablegames.tui.screens.help import HelpScreen
from tablegames.tui.screens.kraken import DecisionDialog
from tablegames.tui.screens.lobby import NewTableDialog
from tablegames.tui.screens.network import ChatDialog
from tablegames.tui.screens.results import FinalStandings
from tablegames.tui.widgets.log import GameLog

from .helpers import opened, press, screen_text, stacked
from .test_crabs_screen import crabs_table
from .test_kraken_screen import kraken_table
from .test_roach_screen import roach_table


def table_of(app: TableGamesApp) -> GameScreen:
    return next(screen for screen in app.screen_stack if isinstance(screen, GameScreen))


async def tap(pilot: Any, widget: Widget) -> None:
    """A tap in the middle of `widget`, wherever it is on the terminal (as a phone's tap is a
    click at a cell: whatever is drawn there takes it)."""
    region = widget.region
    await pilot.click(offset=(region.x + region.width // 2, region.y + region.height // 2))
    await pilot.pause()


def back_of(screen: Screen[Any]) -> Widget:
    backs = screen.query("#back")
    assert backs, f"{type(screen).__name__} has no Back to tap"
    return backs.first()


async def crates_question(app: TableGamesApp, pilot: Any) -> None:
    await press(pilot, "2", "enter")  # the 8: which suit?


async def crabs_question(app: TableGamesApp, pilot: Any) -> None:
    await press(pilot, "x")  # call crabs: on whom?


async def roach_question(app: TableGamesApp, pilot: Any) -> None:
    await press(pilot, "enter")  # offer the bat: to whom?


async def kraken_question(app: TableGamesApp, pilot: Any) -> None:
    pass  # the captain's first decision opens by itself


QUESTIONS = {
    "crates": (lambda: stacked([["8C", "QS"], ["2D", "9C", "JD"]], upcard="KH"), crates_question),
    "crabs": (crabs_table, crabs_question),
    "roach": (roach_table, roach_question),
    "kraken": (kraken_table, kraken_question),
}


@pytest.mark.parametrize("game", sorted(QUESTIONS))
async def test_a_question_has_a_back_to_tap_and_it_takes_nothing(game: str) -> None:
    make, ask = QUESTIONS[game]
    client = make()
    async with opened(client, size=(80, 24)) as (app, pilot):
        await ask(app, pilot)
        question = app.screen
        assert isinstance(question, PickDialog), type(question).__name__
        before = client.update(0).version
        assert "Back" in screen_text(app)
        await tap(pilot, back_of(question))
        assert isinstance(app.screen, GameScreen)
        assert client.update(0).version == before  # nothing was played, said or called


@pytest.mark.parametrize("game", sorted(QUESTIONS))
async def test_the_back_fits_at_the_smallest_size(game: str) -> None:
    make, ask = QUESTIONS[game]
    client = make()
    async with opened(client, size=(80, 24)) as (app, pilot):
        await pilot.resize_terminal(*table_of(app).min_size())
        await pilot.pause()
        await ask(app, pilot)
        question = app.screen
        assert isinstance(question, PickDialog)
        back = back_of(question)
        assert back.region.width > 0 and back.region.height > 0
        assert Region(0, 0, *app.size).contains_region(back.region)


async def test_the_lobby_and_chat_dialogs_have_the_same_back() -> None:
    client = stacked([["8C", "QS"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client, size=(60, 20)) as (app, pilot):
        for dialog in (ChatDialog(), NewTableDialog()):
            answers: list[Any] = []
            app.push_screen(dialog, answers.append)
            await pilot.pause()
            await tap(pilot, back_of(dialog))
            assert answers == [None] and app.screen is not dialog, type(dialog).__name__


def footer_key(screen: Screen[Any], key: str) -> FooterKey:
    return next(found for found in screen.query(FooterKey) if found.key == key)


async def test_talk_in_the_footer_is_tapped_through_an_open_decision() -> None:
    client = kraken_table()
    async with opened(client, size=(80, 24)) as (app, pilot):
        decision = app.screen
        assert isinstance(decision, DecisionDialog)
        table = table_of(app)
        await tap(pilot, footer_key(table, "t"))
        talk = app.screen
        assert isinstance(talk, PickDialog) and "Say to the table" in talk.title_text
        await press(pilot, talk.options[0].key)  # the moment's own claim, or the first kind
        while isinstance(app.screen, PickDialog) and app.screen is not decision:
            await press(pilot, app.screen.options[0].key)  # whom, then what
        assert app.screen is decision  # the decision waits where it was
        assert client.update(0).view["talk"], "nothing was said"


async def test_help_and_quit_in_the_footer_are_tapped_through_a_question() -> None:
    client = stacked([["8C", "QS"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client, size=(80, 24)) as (app, pilot):
        await crates_question(app, pilot)
        question = app.screen
        table = table_of(app)
        await tap(pilot, footer_key(table, "question_mark"))
        assert isinstance(app.screen, HelpScreen)
        await press(pilot, "escape")
        assert app.screen is question
        await tap(pilot, footer_key(table, "q"))
        assert isinstance(app.screen, QuitDialog)
        await press(pilot, "n")
        assert app.screen is question


async def test_a_game_key_tapped_through_a_question_says_to_answer_it_first() -> None:
    client = stacked([["8C", "QS"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client, size=(80, 24)) as (app, pilot):
        await crates_question(app, pilot)
        question = app.screen
        assert isinstance(question, PickDialog)
        await tap(pilot, footer_key(table_of(app), "d"))
        assert app.screen is question
        assert client.update(0).view["hand"] == ["8C", "QS"]  # no draw behind the question
        assert "Back" in str(question.query_one("#hint").render())


@pytest.mark.parametrize("width", [60, 61, 70])
async def test_a_long_sentence_in_a_question_keeps_its_back_on_a_narrow_screen(width) -> None:
    """A phone held upright shows about 60 columns: a question whose hint grew (a game key
    tapped through it) stays within the screen, its Back in sight, its sentence wrapped."""
    client = stacked([["8C", "QS"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client, size=(width, 40)) as (app, pilot):
        await crates_question(app, pilot)
        question = app.screen
        assert isinstance(question, PickDialog)
        await tap(pilot, footer_key(table_of(app), "d"))
        await pilot.pause()
        screen = Region(0, 0, *app.size)
        box = question.query_one("Vertical")
        assert screen.contains_region(box.region), (box.region, app.size)
        assert screen.contains_region(back_of(question).region)
        assert "then Draw" in screen_text(app).replace("\n", " ")


async def test_q_in_a_question_asks_to_leave_and_n_comes_back_to_it() -> None:
    client = stacked([["8C", "QS"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client, size=(80, 24)) as (app, pilot):
        await crates_question(app, pilot)
        question = app.screen
        await press(pilot, "q")
        assert isinstance(app.screen, QuitDialog)
        await press(pilot, "n")
        assert app.screen is question


# -- notices ---------------------------------------------------------------------------------
async def told(app: TableGamesApp, pilot: Any, *news: str) -> None:
    for text in news:
        app.tell(text)
    await until(lambda: news[-1][:20] in " ".join(screen_text(app).split()), pilot=pilot)


def notice_region(app: TableGamesApp) -> Region:
    lines = [line for line in app.screen.query("NoticeLine") if line.display]
    assert lines, "no notice line is shown"
    return lines[0].region


@pytest.mark.parametrize(
    ("make", "kept"),
    [
        (lambda: stacked([["8C", "QS"], ["2D", "9C", "JD"]], upcard="KH"), ("#pile", "#hand")),
        (crabs_table, ("#ocean", "#hand")),
        (kraken_table, ("#crew",)),
        (roach_table, ("#hand",)),
    ],
    ids=["crates", "crabs", "kraken", "roach"],
)
async def test_table_news_goes_to_a_line_of_its_own_and_covers_nothing(make, kept) -> None:
    async with opened(make(), size=(80, 24), notifications=True) as (app, pilot):
        while not isinstance(app.screen, GameScreen):
            await press(pilot, "escape")
        await told(app, pilot, "The game begins.", "Tom is back.")
        assert not app.screen.query("Toast")
        line = notice_region(app)
        for selector in kept:
            region = app.screen.query_one(selector).region
            assert region.height > 0 and not line.overlaps(region), selector
        assert "Tom is back." in screen_text(app)


async def test_four_rematch_wishes_are_one_line_under_the_standings() -> None:
    client = stacked([["8C", "QS"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client, size=(80, 24), notifications=True) as (app, pilot):
        standings = FinalStandings([10, 3, 25, 7], ["ana", "bob", "cat", "dan"])
        app.push_screen(standings)
        await pilot.pause()
        await told(
            app,
            pilot,
            "ana wants a rematch (waiting for bob, cat, dan).",
            "bob wants a rematch (waiting for cat, dan).",
            "cat wants a rematch (waiting for dan).",
        )
        assert not app.screen.query("Toast")
        text = screen_text(app)
        assert text.count("wants a rematch") == 1 and "waiting for dan" in text
        table = standings.query_one("Static").region
        assert not notice_region(app).overlaps(table)
        for name in ("ana", "bob", "cat", "dan"):
            assert name in text


async def test_chat_lines_in_a_game_go_to_the_notice_line_too() -> None:
    client = stacked([["8C", "QS"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client, size=(80, 24), notifications=True) as (app, pilot):
        for n in range(5):
            app.pop_chat("ben", f"spam {n}")
        await until(lambda: "ben: spam 4" in screen_text(app), pilot=pilot)
        assert not app.screen.query("Toast")
        text = screen_text(app)
        assert "ben: spam 4" in text and "spam 3" not in text
        assert "4 more" in text and "/ shows the chat" in text
        assert isinstance(app.screen, CratesScreen)


# -- the room a table needs, told to the party's web page ------------------------------------
def written_to_the_terminal(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the app writes to its (headless) terminal from now on."""
    written: list[str] = []
    monkeypatch.setattr(HeadlessDriver, "write", lambda driver, data: written.append(data))
    return written


async def test_a_session_on_the_page_tells_it_the_columns_the_table_needs(monkeypatch) -> None:
    monkeypatch.setenv(PAGE_ENV, "1")
    written = written_to_the_terminal(monkeypatch)
    app = TableGamesApp(kraken_table())
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(HelpScreen("kraken", "Feed the Kraken"))  # screens come and go...
        await pilot.pause()
        app.pop_screen()
        await pilot.pause()
    told = [text for text in written if text.startswith(f"\x1b]{ROOM_OSC};")]
    assert told == [f"\x1b]{ROOM_OSC};60;20\x07"]  # ...the table's room is said once


async def test_no_other_terminal_is_told_the_room(monkeypatch) -> None:
    monkeypatch.delenv(PAGE_ENV, raising=False)
    written = written_to_the_terminal(monkeypatch)
    async with opened(kraken_table()) as (_app, pilot):
        await pilot.pause()
    assert not any(f"\x1b]{ROOM_OSC}" in text for text in written)


# -- a swipe (a mouse wheel) on the log --------------------------------------------------------
async def test_a_wheel_back_on_the_log_stays_there_as_new_lines_come() -> None:
    client = stacked([["8C", "QS"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client, size=(80, 24)) as (app, pilot):
        log = app.screen.query_one("#log", GameLog)
        log.show([f"line {n}" for n in range(40)], source=(0, True))
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y  # the newest in sight
        for _ in range(3):  # a swipe down the log on a phone: three notches of the wheel back
            log.post_message(MouseScrollUp(log, 5, 2, 0, 0, 0, False, False, False))
            await pilot.pause()
        back = log.scroll_y
        assert back < log.max_scroll_y and not log.following
        assert "scrolled back" in str(log.border_title)
        log.show([f"line {n}" for n in range(42)], source=(0, True))  # a bot moves meanwhile
        await pilot.pause()
        assert log.scroll_y == back  # the player reads on where they were
        for _ in range(20):  # notches on, to the end: it follows the newest again
            log.post_message(MouseScrollDown(log, 5, 2, 0, 0, 0, False, False, False))
            await pilot.pause()
        assert log.following and log.scroll_y == log.max_scroll_y
