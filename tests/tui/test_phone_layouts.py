"""Screens at a phone's terminal sizes (issue 48, item 11): the party's page gives the program
61×43 held upright and 107×26 sideways. Every key of the lobby's footer shows and takes a tap,
a tight crates hand shows every card's rank, the round's note and the ratings line show whole,
and a name with an emoji keeps its row's columns (cells, not characters, are counted)."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len
from textual.pilot import Pilot

from tablegames.local import local_table
from tablegames.net.server import Server, ServerConfig
from tablegames.testing.harness import until
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.kraken_dialogs import VoyageOver
from tablegames.tui.screens.results import FinalStandings, rating_line
from tablegames.tui.screens.standings import StandingsScreen

from .helpers import STILL, opened, screen_text, stacked
from .served import sara_at

UPRIGHT = (61, 43)  # the terminal of a phone held upright (390×844 CSS pixels)
SIDEWAYS = (107, 26)
LOBBY_KEYS = (
    "n New table",
    "⏎ Sit down",
    "w Watch",
    "x Close table",
    "/ Chat",
    "s Standings",
    "? Help",
    "q Quit",
)


def dialog_words(screen: str) -> str:
    """The words inside the dialog on `screen` (between its sides, █), line after line."""
    inside = [line[line.find("█") + 1 : line.rfind("█")] for line in screen.splitlines()]
    return " ".join(" ".join(inside).split())


async def tap(pilot: Pilot[None], app: TableGamesApp, text: str) -> None:
    """Click (a phone's tap) the middle of the lowest place `text` shows."""
    lines = screen_text(app).splitlines()
    row = max(number for number, line in enumerate(lines) if text in line)
    column = cell_len(lines[row][: lines[row].index(text)]) + cell_len(text) // 2
    await pilot.click(offset=(column, row))


@pytest.mark.parametrize("size", [UPRIGHT, (60, 20), (80, 24)])
async def test_every_key_of_the_lobby_footer_shows_and_takes_a_tap(size):
    server = Server(ServerConfig(port=0, bot_pace=0.0))
    server.add_table("roach", 3)
    await server.start()
    async with sara_at(server, lobby=True, size=size) as (_, app, pilot):
        await until(lambda: "Cockroach Poker Royal (3)" in screen_text(app), pilot=pilot)
        await until(lambda: all(key in screen_text(app) for key in LOBBY_KEYS), pilot=pilot)
        await tap(pilot, app, "? Help")
        await until(lambda: "Up/Down pick a table" in screen_text(app), pilot=pilot)
        await tap(pilot, app, "s Standings")
        await until(lambda: isinstance(app.screen, StandingsScreen), pilot=pilot)


async def test_sideways_and_wide_the_lobby_footer_stays_on_one_row():
    server = Server(ServerConfig(port=0, bot_pace=0.0))
    await server.start()
    async with sara_at(server, lobby=True, size=SIDEWAYS) as (_, app, pilot):
        await until(lambda: "q Quit" in screen_text(app), pilot=pilot)
        footer = screen_text(app).splitlines()[-1]
        assert all(key in footer for key in LOBBY_KEYS), footer


NINE = ["4S", "7S", "JS", "AH", "7H", "9H", "JH", "JD", "10C"]
RANK = re.compile(r"[│┃](10|[2-9JQKA])\b")  # a card's rank, at its box's left side


@pytest.mark.parametrize("picked", ["1", "4", "9"])
async def test_a_nine_card_hand_upright_shows_every_rank_beside_the_picked_card(picked):
    client = stacked([NINE, ["2D", "4C", "6S"]], upcard="KH", names=("Sara",))
    async with opened(client, size=UPRIGHT) as (app, pilot):
        await pilot.press(picked)
        await pilot.pause()
        lines = screen_text(app).splitlines()
        top = max(row for row, line in enumerate(lines) if "Your hand" in line)
        shown = [rank for line in lines[top:] for rank in RANK.findall(line)]
    assert sorted(shown) == sorted(card[:-1] for card in NINE), "\n".join(lines[top:])


@pytest.mark.parametrize("size", [UPRIGHT, (80, 24)])
async def test_the_round_summarys_note_shows_whole(size):
    client = stacked(
        [["KS"], ["3S", "8D", "QC", "2H"], ["3C", "3D", "AH"]], names=("Sara",), short=True
    )
    async with opened(client, size=size) as (app, pilot):
        await pilot.press("enter")  # Sara goes out
        await until(lambda: "Round 1 of 8" in screen_text(app), pilot=pilot)
        screen = screen_text(app)
    assert "a 3 left over scores -50. Lowest total wins." in dialog_words(screen), screen


NAMES = ["guest-ana", "Bot 2", "Bot 3", "Bot 4", "Bot 5"]
CHANGES = {seat: (20.0 + seat, seat - 1.5) for seat in range(5)}


@pytest.mark.parametrize("size", [UPRIGHT, SIDEWAYS, (100, 30)])
@pytest.mark.parametrize("game", ["crates", "kraken"])
async def test_the_ratings_line_names_every_player(size, game):
    if game == "crates":
        over = FinalStandings([120, 30, 50, 70, 10], NAMES)
    else:
        rows = [(name, "Sailor", seat % 2 == 0) for seat, name in enumerate(NAMES)]
        over = VoyageOver("the sailors win", rows, ["guest-ana: Sailor, won."])
    over.ratings = rating_line(CHANGES, NAMES)
    async with opened(size=size) as (app, pilot):
        app.push_screen(over)
        await until(lambda: "Ratings:" in screen_text(app), pilot=pilot)
        screen = screen_text(app)
    assert over.ratings in dialog_words(screen), screen  # Bot 4 and Bot 5 too


EMOJI = "ana🎲"


def aligned(lines: list[str], heading: str, name: str) -> tuple[int, int]:
    """Where (in cells) `heading` ends on the panel's heading line, and where the first number
    after `name` ends on its row: the same column, in a panel that counts cells."""
    head = next(line for line in lines if heading in line)
    row = next(line for line in lines if name in line)
    after = row.index(name) + len(name)
    number = re.compile(r"\d+").search(row, after)
    assert number is not None, row
    return cell_len(head[: head.index(heading) + len(heading)]), cell_len(row[: number.end()])


@pytest.mark.parametrize("held", ["upright", "sideways"])
@pytest.mark.parametrize(
    ("game", "players", "heading"),
    [("crates", 3, "Cards"), ("roach", 3, "Hand"), ("kraken", 5, "Guns")],
)
async def test_a_name_with_an_emoji_keeps_its_rows_columns(held, game, players, heading):
    # (Upright, the page gives a table the columns it asks for: kraken's 70.)
    size = SIDEWAYS if held == "sideways" else (70, 43) if game == "kraken" else UPRIGHT
    client = local_table(game, players, seed=3, names=(EMOJI,), pace=STILL)
    async with opened(client, size=size) as (app, pilot):
        await until(lambda: heading in screen_text(app) and EMOJI in screen_text(app), pilot=pilot)
        lines = screen_text(app).splitlines()
    for name in (EMOJI, "Ada"):  # (a bot's row beside it)
        head_end, number_end = aligned(lines, heading, name)
        assert head_end == number_end, (name, "\n".join(lines))


async def test_upright_your_own_row_keeps_you_when_your_name_is_cut():
    long = "guest-annabelle"  # (a crates panel upright, the dealer's mark beside: names are cut)
    client = local_table("crates", 3, seed=3, names=(long,), pace=STILL)
    async with opened(client, size=UPRIGHT) as (app, pilot):
        await until(lambda: "Cards" in screen_text(app), pilot=pilot)
        shown = screen_text(app)
    row = next(line for line in shown.splitlines() if "guest-" in line)  # (its seat first)
    assert "(you)" in row and long not in row and "…" in row, shown
