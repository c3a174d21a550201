"""Small screens and plain terminals (issue 40): Roach's card in flight and Crabs' log and names
at 60x20, nothing but ASCII on any screen with `--ascii`, no colour at all under NO_COLOR."""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from rich.console import Console

from tablegames.local import local_table
from tablegames.testing.hurried import frame_text
from tablegames.tui.app import TableGamesApp
from tablegames.tui.plain import spelled
from tablegames.tui.screens.crabs import CrabsScreen
from tablegames.tui.textual_private import rendered

from .helpers import STILL, opened, press, screen_text
from .test_roach_screen import offer, roach_table


async def test_roach_at_60_by_20_shows_the_card_in_flight_whom_it_was_shown_and_who_takes_it():
    client = roach_table(first=1)
    client.table.submit(1, offer("frog", 2, "bat"))
    client.table.submit(2, {"type": "pass", "to": 0, "claim": "fly"})  # Bruno peeked
    async with opened(client, size=(60, 20)) as (app, _pilot):
        text = screen_text(app)
        assert 'In flight: Bruno → you: "fly"' in text, text
        assert "seen by Ada, Bruno" in text
        assert "judge right: Bruno takes it" in text and "judge wrong: you take it" in text


def played_on(game: str, players: int, moves: int, **options: Any) -> Any:
    """A table of `game` with one human (seat 0) and `moves` moves made by everyone."""
    client = local_table(game, players, seed=3, pace=STILL, **options)
    table, rng = client.table, random.Random(1)
    for _ in range(moves):
        waiting = sorted(table.state.waiting_for())
        if table.over or not waiting:
            break
        seat = waiting[0]
        move = (seat, rng.choice(table.legal(seat))) if seat == 0 else table.bot_move()
        if move is None:
            break
        table.submit(*move)
    return client


@pytest.mark.parametrize("players", [4, 8, 10])
async def test_crabs_at_60_by_20_shows_whole_names_and_a_log_of_two_lines(players):
    client = played_on("crabs", players, 0)
    async with opened(client, size=(60, 20)) as (app, pilot):
        await press(pilot, "escape")  # the huddle can wait
        table = app.screen
        assert isinstance(table, CrabsScreen)
        rows = "\n".join(screen_text(app).split("Your hand")[0].splitlines()[1:])  # (no titles)
        assert "Player 1 (you)" in rows and "Chidi (bot)" in rows and "…" not in rows
        assert table.query_one("#log").scrollable_content_region.height >= 2


def test_every_character_is_spelled_in_ascii_in_the_columns_it_took():
    assert [spelled(char) for char in "…—▶╭│─█é"] == ["~", "-", ">", "+", "|", "-", "#", "e"]
    assert spelled("中") == "??" and spelled("a") == "a"


@pytest.mark.parametrize(
    ("game", "players", "humans", "moves", "size"),
    [
        ("crates", 5, 2, 60, (60, 20)),
        ("roach", 4, 2, 400, (60, 20)),
        ("roach", 4, 1, 400, (80, 24)),
        ("kraken", 5, 2, 120, (120, 40)),
        ("crabs", 4, 1, 0, (60, 20)),
    ],
)
async def test_ascii_draws_nothing_but_ascii(game, players, humans, moves, size):
    names = ("Sara Longname-Smith-Jones", "Zoë Wojciechowski-Kowalski")
    client = played_on(game, players, moves, humans=humans, names=names)
    app = TableGamesApp(client, ascii=True)
    async with app.run_test(size=size) as pilot:
        for key in ("", "s", "z", "t", "question_mark", "escape", "q", "n"):
            if key:
                await press(pilot, key)
            if app.return_code is not None:  # (q on the game's end leaves)
                break
            text = await frame_text(app, pilot)
            assert text.isascii(), [line for line in text.splitlines() if not line.isascii()]


def coloured(app: TableGamesApp) -> list[str]:
    """The colour codes the terminal would be sent for the screen now (SGR 30-49 but the
    defaults 39 and 49, and 256-colour or true-colour ones)."""
    console = Console(
        width=app.size.width,
        height=app.size.height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
    )
    console.print(rendered(app))
    codes = re.findall(r"\x1b\[([0-9;]*)m", console.export_text(styles=True))
    colours = {*range(30, 38), *range(40, 48), *range(90, 98), *range(100, 108), 38, 48}
    return [
        code for code in codes if any(p.isdigit() and int(p) in colours for p in code.split(";"))
    ]


async def test_no_color_draws_no_colour_not_even_grey(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    client = played_on("crates", 4, 20, names=("Sara",))
    async with opened(client) as (app, pilot):
        assert app.no_color
        assert coloured(app) == []
        await press(pilot, "q")  # a dialog over the table, too
        assert coloured(app) == []
    monkeypatch.delenv("NO_COLOR")
    async with opened(played_on("crates", 4, 20, names=("Sara",))) as (app, _pilot):
        assert coloured(app)  # (the check sees colour where there is some)
