"""The generic screen fits any game from 2 to its most players at 60×20 and up: the game's
panels (`State.panels`, `labels`), the players side by side when many, every player in sight
at the least size (which follows the player count), ASCII everywhere with --ascii; and how it
looks, in snapshots, for Sealed Bids (2–10 players) at 60×20, 80×24 and 100×40."""

from __future__ import annotations

import random
from typing import ClassVar

import pytest

from tablegames.bots import get_bot
from tablegames.local import local_table
from tablegames.rules import GAMES, Game, State, get_game
from tablegames.testing.screens import STILL, screen_text
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.generic import GenericScreen
from tablegames.tui.screens.generic_view import SeatRows, Words
from tablegames.tui.screens.size import TooSmall

SIZES = [(60, 20), (80, 24), (100, 40)]


def sealed_bids(players: int, moves: int = 0, humans: int = 1) -> object:
    """A Sealed Bids table with `moves` bids made at random already (Ann is seat 0)."""
    client = local_table("sealedbids", players, humans=humans, seed=3, names=("Ann",), pace=STILL)
    table = client.table
    rng = random.Random(3)
    bots = {seat: get_bot("sealedbids", "random", seat, rng) for seat in range(players)}
    for _ in range(moves):
        seat = min(table.state.waiting_for())
        table.submit(seat, bots[seat].choose(table.state.view(seat), table.legal(seat)))
    return client


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("players", [2, 10])
def test_sealed_bids_on_the_generic_screen(snap_compare, size, players):
    app = TableGamesApp(sealed_bids(players, moves=players * 2 + 1))
    assert snap_compare(app, terminal_size=size)


def test_the_game_orders_groups_and_titles_its_keys_and_empty_ones_are_left_out():
    state = get_game("sealedbids").new(3, seed=1, prizes=[5, 1, 2, 3, 4, 6])
    words = Words(type(state), ["Ann", "Bo", "Cy"])
    sections = words.sections(state.view(0))
    assert [section.title for section in sections] == ["Prize", "Your bid", "Game"]
    assert sections[0].lines == [("Up for bids", "5"), ("Still to come", "1 2 3 4 6")]
    assert sections[1].lines == [("Your cards", "1 2 3 4 5 6")]  # nothing sealed: no line
    state.apply(0, {"type": "bid", "card": 4})
    assert words.sections(state.view(0))[1].lines[0] == ("Sealed", "4")
    marks, columns = words.seat_columns(state.view(0))
    assert [title for title, _ in columns] == ["Points", "Cards"]  # as the game's panel orders
    assert marks == [[], [], []]  # (no yes-or-no key) and "Last bid", empty for all, left out


def test_without_panels_the_hand_comes_first_then_the_rest_by_name():
    class Plain(State):
        pass

    words = Words(Plain, ["Ann", "Bo"])
    view = {"seat": 0, "log": [], "zeal": 2, "hand": ["7H"], "alpha": None, "table": ["KS"]}
    (section,) = words.sections(view)
    assert section.lines == [("Hand", "7H"), ("Table", "KS"), ("Zeal", "2")]


def test_many_players_sit_side_by_side_and_the_last_columns_give_way_first():
    names = ["Ann", *(f"Bot {n}" for n in range(2, 11))]
    columns = [("Points", ["0"] * 10), ("Last bid", ["-"] * 10), ("Cards", ["1 2 3 4 5 6"] * 10)]
    seats = SeatRows.of(names, [0], 0, columns=columns)
    assert seats.layout(100, 10) == (1, 3)  # room for all ten in a column, every column
    blocks, shown = seats.layout(60, 5)
    assert blocks == 2 and shown < 3  # two blocks of five at 60 columns, fewer columns
    assert seats.width(blocks, shown) <= 60 - 5


async def test_the_least_size_follows_the_player_count(monkeypatch):
    # A game for up to 24 players: at 60 columns they cannot all be seen in 20 rows.
    class Crowd(State):
        handlers: ClassVar[dict[str, str]] = {"pass": "_pass"}
        over = False

        def __init__(self, players: int, seed: int) -> None:
            super().__init__(players, random.Random(seed))

        def _waiting_for(self) -> frozenset[int]:
            return frozenset({0})

        def _legal(self, seat: int) -> list[dict[str, str]]:
            return [{"type": "pass"}] if seat == 0 else []

        def _view(self, seat: int | None) -> dict[str, int]:
            return {"round": 1}

        def _pass(self, seat: int, action: dict[str, str], now: float) -> None:
            pass

    crowd = Game("crowd", "Crowd", 2, 24, 2, "Everyone, nothing.", Crowd)
    monkeypatch.setitem(GAMES, "crowd", crowd)
    needs = {}
    for players in (4, 10, 24):
        client = local_table("crowd", players, humans=1, seed=1, pace=STILL)
        app = TableGamesApp(client, ascii=True)
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            table = next(s for s in app.screen_stack if isinstance(s, GenericScreen))
            needs[players] = table.min_size()
            if players == 24:
                assert isinstance(app.screen, TooSmall)
                await pilot.resize_terminal(*needs[24])
                await pilot.pause()
                text = screen_text(app)
                assert all(name in text for name in table.names) and text.isascii()
    assert needs[4] == needs[10] == (60, 20) and needs[24][1] > 20, needs


def test_a_long_label_wraps_instead_of_being_cut():
    from rich.console import Console

    from tablegames.tui.screens.generic_view import Section, sections_text

    sections = [Section("Yours", [("Your stack (bottom first)", "flower skull")])]
    console = Console(width=60, record=True, color_system=None)
    console.print(sections_text(sections))
    drawn = [line.rstrip() for line in console.export_text().splitlines()]
    assert [line.split("  ")[0] for line in drawn] == ["Your stack (bottom", "first)"], drawn
    assert drawn[0].endswith(" flower skull")
