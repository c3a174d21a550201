"""Feed the Kraken's words and chart as a new player reads them (issue 40): the goals beside
the rows that sail into them, an any-time character that says why it waits, news after a
character's moment not headed as eyes closed, a replay of every seat that does not call its
secrets hidden, and the claim menu numbered in order."""

from __future__ import annotations

from tablegames.replay import Replay
from tablegames.rules import get_game
from tablegames.rules.kraken.board import LONG, QUICK
from tablegames.tui.app import ReplayApp
from tablegames.tui.screens.dialogs import PickDialog
from tablegames.tui.screens.kraken import DecisionDialog, KrakenScreen
from tablegames.tui.screens.kraken_dialogs import PassOnNotice
from tablegames.tui.screens.kraken_view import map_text

from .helpers import opened, press, press_on
from .test_kraken_screen import (
    asked_to_mutiny,
    decision,
    kraken_state,
    kraken_table,
    no_mutiny,
    status,
)
from .test_replay_screen import viewer


def chart_rows(board, ship: str) -> list[str]:
    return map_text({"map": board.chart(), "ship": ship}, colour=False).plain.splitlines()


def test_the_chart_marks_a_goal_beside_the_row_the_ship_sails_into_it_from():
    rows = chart_rows(LONG, "0,10")  # red sails to Crimson Cove, blue to Bluewater Bay
    (ship_row,) = [row for row in rows if "[" in row]
    assert ship_row.lstrip().startswith("r◀") and ship_row.rstrip().endswith("b▶"), rows
    rows = chart_rows(LONG, "-3,7")  # the far west: red sails into the Cove
    (ship_row,) = [row for row in rows if "[" in row]
    assert ship_row.lstrip().startswith("r◀"), rows


def test_the_goals_are_named_on_rows_that_sail_into_them():
    for board, ship in ((LONG, "0,0"), (QUICK, "0,0"), (LONG, "-1,9"), (QUICK, "2,6")):
        chart = board.chart()
        reach = {
            goal: {int(space.split(",")[1]) for space, way in chart.items() if goal in way.values()}
            for goal in ("crimson_cove", "bluewater_bay")
        }
        rows = chart_rows(board, ship)
        top = max(int(space.split(",")[1]) for space in chart)
        for goal, word in (("crimson_cove", "Cove"), ("bluewater_bay", "Bay")):
            (where,) = [n for n, row in enumerate(rows) if word in row.split()]
            assert top - (where - 1) in reach[goal], (board.name, ship, rows)


async def test_an_any_time_character_says_why_it_waits_while_a_decision_is_open():
    client = asked_to_mutiny(
        "kleptomaniac", "captain", "bosun", "mentor", "smuggler", "archivist", "equalizer"
    )
    async with opened(client, size=(120, 40)) as (app, pilot):
        assert "Mutiny against captain" in decision(app).title_text  # a decision is open
        await press(pilot, "escape")
        await press(pilot, "c")
        assert "cannot do anything right now" not in status(app)
        assert "The Kleptomaniac cannot be used now: characters wait while a mutiny" in status(app)


async def test_the_cards_a_captain_draws_after_a_characters_moment_are_not_eyes_closed_news():
    client = kraken_table(
        humans=2,
        captain=0,
        deck=["blue-drunk", "red-mermaid", "yellow-uprising", "red-drunk"],
        dealt_characters=[
            "captain", "gunslinger", "mentor", "smuggler", "look_out", "kleptomaniac", "gunsmith",
        ],
    )  # fmt: skip
    client.table.submit(0, {"type": "appoint", "lieutenant": 1, "navigator": 2})
    no_mutiny(client)
    assert kraken_state(client).phase == "window"  # the Smuggler's moment, before the draw
    notices: list[str] = []
    kept = 0
    async with opened(client, size=(120, 40)) as (app, pilot):
        for _ in range(16):
            screen = app.screen
            if isinstance(screen, PassOnNotice):
                notices.append(screen.text)
            if isinstance(screen, DecisionDialog) and "Keep one for the logbook" in str(
                screen.title_text
            ):
                kept += 1
                await press(pilot, screen.options[0].key)
            elif isinstance(screen, KrakenScreen) and client.table.bot_move():
                client.table.submit(*client.table.bot_move())
                await pilot.pause()
            elif kraken_state(client).phase in ("steer", "appoint"):
                break
            else:
                await press_on(app, pilot)
    assert kept == 2  # the captain and the lieutenant chose their cards
    assert not any("eyes were closed" in text for text in notices), notices


async def test_a_replay_of_every_seat_does_not_call_the_secrets_hidden():
    options = {"characters": False, "captain": 0, "board": "quick"}
    state = get_game("kraken").new(5, 3, **options)
    log = [(0, {"type": "appoint", "lieutenant": 1, "navigator": 2}, 0.0)]
    state.apply(*log[0])
    log.append((min(state.waiting_for()), {"type": "mutiny", "guns": 0}, 0.0))
    replay = Replay(get_game("kraken"), 5, 3, options, log)  # (not the game's end)
    app = ReplayApp(replay, seat=None, step=1)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        secrets = str(viewer(app).table.query_one("#secrets").render())
        assert "stays hidden" not in secrets
        assert "A replay of every seat: every secret is listed below." in secrets
        assert viewer(app).query_one("#replay-hands").display


async def test_the_claim_menu_is_numbered_in_order_before_a_mutiny():
    client = kraken_table(captain=1)
    client.table.submit(1, {"type": "appoint", "lieutenant": 3, "navigator": 2})
    async with opened(client, size=(120, 40)) as (app, pilot):
        await press(pilot, "escape")
        await press(pilot, "t")
        menu = app.screen
        assert isinstance(menu, PickDialog)
        keys = [option.key for option in menu.options]
        assert keys == sorted(keys, key=int) and "8" in keys, keys  # guns (8) last, not first
