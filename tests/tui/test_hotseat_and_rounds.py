"""Hot-seat hand-offs that never show the wrong hand, round summaries and the final standings."""

from __future__ import annotations

from tablegames.local import local_table
from tablegames.testing.screen_scan import ScreenScan
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.crates_round import RoundSummary
from tablegames.tui.screens.crates_view import sorted_hand
from tablegames.tui.screens.game import GameScreen
from tablegames.tui.screens.handoff import HandoffScreen
from tablegames.tui.screens.results import (
    FinalStandings,
    GameOver,
    rating_line,
    standings,
)
from tablegames.tui.widgets.hand import Hand

from .helpers import STILL, opened, press, screen_text, settle, stacked, take_seat

SARA = ["QH", "7S", "4C"]
TOM = ["JH", "10D", "2C"]


def hot_seat():
    return stacked([SARA, TOM, ["5S", "6S"]], humans=2, names=("Sara", "Tom"), draw=["AS"])


def faces(cards: list[str]) -> list[str]:
    return [card[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[-1]] for card in cards]


async def test_the_first_player_is_handed_the_screen_before_any_hand_is_shown():
    app = TableGamesApp(hot_seat())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        text = screen_text(app)
        assert "Pass to Sara — press Shift+S when only Sara can see" in text
        for card in faces(SARA + TOM):
            assert card not in text
        await press(pilot, "enter")  # Enter never opens a hand-off: Sara's own key does
        assert isinstance(app.screen, HandoffScreen)
        assert "Only Sara's own key opens it: Shift+S." in screen_text(app)
        await press(pilot, "S")
        assert isinstance(app.screen, CratesScreen)
        assert app.screen.query_one("#hand", Hand).cards == sorted_hand(SARA)


async def test_passing_to_the_next_human_hides_the_previous_hand():
    client = hot_seat()
    async with opened(client) as (app, pilot):
        await take_seat(app, pilot)  # Sara takes the seat
        await pilot.press("enter")  # and plays Q♥; Tom is next
        await pilot.pause()
        assert client.update(0).view["top"] == "QH"
        assert isinstance(app.screen, HandoffScreen)
        text = screen_text(app)
        assert "Pass to Tom" in text
        for card in faces(["7S", "4C", *TOM]):
            assert card not in text
        # the table underneath was cleared before the hand-off covered it
        table = app.screen_stack[-2]
        assert isinstance(table, CratesScreen)
        assert table.query_one("#hand", Hand).cards == []
        await take_seat(app, pilot)
        text = screen_text(app)
        assert app.screen.query_one("#hand", Hand).cards == sorted_hand(TOM)
        assert "Tom's hand — your turn" in text
        for card in faces(["7S", "4C"]):
            assert card not in text


async def test_a_private_draw_stays_in_its_own_players_log():
    client = stacked(
        [["QS", "7S"], ["JH", "10D"], ["5S", "6S"]], humans=2, names=("Sara", "Tom"), draw=["AS"]
    )
    async with opened(client) as (app, pilot):
        await take_seat(app, pilot)
        await press(pilot, "d")  # Sara has nothing that fits and draws A♠
        await take_seat(app, pilot)  # Tom takes the seat
        text = screen_text(app)
        assert "Sara draws 1 card." in text
        assert "A♠" not in text


async def test_one_human_never_sees_a_hand_off():
    client = stacked([SARA, TOM], names=("Sara",))
    async with opened(client) as (app, pilot):
        assert isinstance(app.screen, CratesScreen)
        await press(pilot, "enter")
        assert isinstance(app.screen, CratesScreen)


async def test_the_round_summary_shows_every_hand_and_how_it_scored():
    client = stacked([["KS"], ["3S", "8D", "QC", "2H"]], names=("Sara",), short=True)
    async with opened(client) as (app, pilot):
        await pilot.press("enter")  # Sara plays her last card and goes out
        await pilot.pause()
        assert isinstance(app.screen, RoundSummary)
        text = screen_text(app)
        assert "Round 1 of 8: Sara went out." in text
        assert "[3♠] [8♦] Q♣ 2♥" in text  # the 3 cancels the 8, the highest card
        assert "30" in text
        assert "Next round (n)" in text
        await press(pilot, "enter")  # the keys of a move do not close it
        assert isinstance(app.screen, RoundSummary)
        await press(pilot, "n")
        assert isinstance(app.screen, CratesScreen)
        assert client.update(0).view["round"] == 2


async def test_the_last_round_ends_with_the_standings_and_a_way_back_to_the_menu():
    client = stacked([["KS"], ["3S", "8D", "QC", "2H"]], names=("Sara",), short=True)
    async with opened(client) as (app, pilot):
        await press(pilot, "enter")
        await pilot.press("n")  # close the summary of round 1
        while not client.table.over:  # the bot plays out the other seven rounds for both
            move = client.table.bot_move() or (0, client.table.legal(0)[0])
            client.table.submit(*move)
        await pilot.pause()
        for _ in range(8):  # the other rounds' summaries, read
            if isinstance(app.screen, RoundSummary):
                await press(pilot, "n")
        assert isinstance(app.screen, FinalStandings)
        assert "Game over" in screen_text(app)
        await settle(pilot)
        await press(pilot, "m")
        assert "Cockroach Poker Royal" in screen_text(app)


def test_standings_rank_lowest_first_and_ties_share_a_place():
    assert standings([40, 5, 5, 90]) == [(1, 1), (1, 2), (3, 0), (4, 3)]


async def test_a_player_down_to_one_card_may_still_say_crates_on_the_hand_off() -> None:
    client = stacked(
        [["QH", "7S"], TOM, ["5S", "6S"]], humans=2, names=("Sara", "Tom"), draw=["AS"]
    )
    async with opened(client) as (app, pilot):
        await take_seat(app, pilot)  # Sara takes the seat
        await press(pilot, "2", "enter")  # and plays Q♥ without saying Crates!
        assert client.update(0).view["exposed"] == [0]
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen)
        assert "Sara: press c to say Crates! before passing on." in screen_text(app)
        await press(pilot, "c")
        assert client.update(0).view["announced"] == [0] and app.screen is handoff
        assert "Sara said Crates!" in screen_text(app)
        await take_seat(app, pilot)  # Tom
        sara = next(line for line in screen_text(app).splitlines() if "Sara " in line)
        assert "Crates!" in sara


async def test_a_missing_crates_is_not_pointed_out_to_the_next_player() -> None:
    client = stacked(
        [["QH", "7S"], TOM, ["5S", "6S"]], humans=2, names=("Sara", "Tom"), draw=["AS"]
    )
    async with opened(client) as (app, pilot):
        await take_seat(app, pilot)
        await press(pilot, "2", "enter")  # Sara plays Q♥
        await take_seat(app, pilot)  # Tom takes over
        assert isinstance(app.screen, CratesScreen) and client.update(0).view["exposed"] == [0]
        sara = next(line for line in screen_text(app).splitlines() if "Sara " in line)
        assert "Crates" not in sara  # Tom must notice by himself


async def test_a_rounds_scores_come_over_nobodys_hand_and_the_next_hand_after_its_hand_off():
    client = stacked(
        [["KS"], TOM, ["5S", "6S"]], humans=2, names=("Sara", "Tom"), draw=["AS"], short=True
    )
    scan = ScreenScan(client)
    async with opened(client) as (app, pilot):
        await take_seat(app, pilot)
        scan.holder = 0
        await press(pilot, "enter")  # Sara plays K♠ and goes out: round 2 is dealt
        assert isinstance(app.screen, RoundSummary)
        table = app.screen_stack[-2]
        assert isinstance(table, CratesScreen) and not table.private
        assert table.query_one("#hand", Hand).cards == []
        scan.check(app, "the round's scores")
        assert scan.findings == []
        for seat, name in enumerate(("Sara", "Tom")):
            assert f"{name} (you)" not in screen_text(app)
            for card in faces(client.update(seat).view["hand"]):
                assert card not in screen_text(app).split("Round 1")[0]  # (the table's part)
        await press(pilot, "n")
        assert isinstance(app.screen, HandoffScreen)  # even for Sara, if she plays first
        await take_seat(app, pilot)
        seat = app.screen.active_seat
        assert app.screen.query_one("#hand", Hand).cards == sorted_hand(
            client.update(seat).view["hand"]
        )


async def test_a_games_end_comes_over_nobodys_private_view():
    client = local_table(
        "sealedbids", 3, humans=2, seed=2, names=("Ann", "Bob"), pace=STILL, target=10
    )
    scan = ScreenScan(client)
    async with opened(client, size=(80, 24)) as (app, pilot):
        for _ in range(200):
            if client.table.over:
                break
            if isinstance(app.screen, HandoffScreen):
                scan.holder = app.screen.seat
                await take_seat(app, pilot)
                continue
            table = app.screen
            assert isinstance(table, GameScreen)
            seat = table.active_seat
            client.submit(seat, client.update(seat).legal[0])
            while (move := client.table.bot_move()) is not None:
                client.table.submit(*move)
            await pilot.pause()
        assert isinstance(app.screen, GameOver)
        scan.check(app, "the end")
        assert scan.findings == []
        assert "(you)" not in screen_text(app)


async def test_the_ratings_under_the_standings_wrap_and_are_never_cut():
    """Issue 48: the ratings line was cut at 80 columns."""
    names = ["Sara", "Tom", "Ada (bot)", "Bruno (bot)", "Chidi (bot)"]
    standings_box = FinalStandings([30, 12, 55, 80, 7], names)
    standings_box.ratings = rating_line(
        {seat: (20.0 + seat, 1.5 - seat) for seat in range(5)}, names
    )
    async with opened() as (app, pilot):
        await app.push_screen(standings_box)
        await pilot.pause()
        shown = standings_box.query_one("#ratings").region  # (what the terminal shows there)
        rows = screen_text(app).splitlines()[shown.y : shown.bottom]
        text = " ".join(" ".join(row[shown.x : shown.right] for row in rows).split())
        for seat, name in enumerate(names):
            assert f"{name} {20.0 + seat:.1f} ({1.5 - seat:+.1f})" in text, text
