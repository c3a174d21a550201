"""Playing You've Got Crabs with keys and the mouse: the huddle, swaps, gestures, calls, answers.

The bots are frozen (a tiny speed makes their reactions last for ages); a test makes their
moves itself through the table when it needs them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from textual.pilot import Pilot

from tablegames.drivers import LocalClient
from tablegames.local import local_table
from tablegames.table import VirtualClock
from tablegames.testing.harness import until
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.crabs import CrabsScreen
from tablegames.tui.screens.crabs_dialogs import CrabsOver, HuddleScreen, OneHumanOnly
from tablegames.tui.screens.crabs_presenter import GESTURE_SHOWN
from tablegames.tui.screens.dialogs import PickDialog
from tablegames.tui.screens.menu import MenuScreen
from tablegames.tui.widgets.crabs_table import CardRow, SidePanel

from .helpers import opened, press, screen_text, settle

FROZEN = 1e-9  # bots' speed: their reaction times outlast any test
HANDS = [
    ["kebab", "jab", "kebab", "cappuccino"],
    ["cappuccino", "cappuccino", "cabernet", "magic"],
    ["crabbi", "crabbi", "diet", "magic"],
    ["cabernet", "cabernet", "crabbi", "magic"],
]
OCEAN = ["kebab", "king", "crabbi", "jab"]
DRAW = ["taxi", "taxi", "ab", "ab", "bunny", "bunny", "taxi", "ab"]


def crabs_table(
    hands: list[list[str]] = HANDS, first_side: int = 0, humans: int = 1, **options: Any
) -> LocalClient:
    """Sara (seat 0) with three frozen bots; team A is seats 0 and 1, side 0 is seats 0 and 2.
    Its clock moves only when a test moves it (`client.table.clock`): a loaded machine never
    makes a second pass between two keys."""
    return local_table(
        "crabs",
        len(hands),
        humans=humans,
        seed=3,
        names=("Sara",),
        speed=FROZEN,
        hands=hands,
        ocean=list(OCEAN),
        draw=list(DRAW),
        first_side=first_side,
        clock=VirtualClock(),
        **options,
    )


def view(client: LocalClient, seat: int = 0) -> dict[str, Any]:
    return client.update(seat).view


def status(app: TableGamesApp) -> str:
    return str(app.screen.query_one("#status").render())


async def at_the_table(pilot: Any, app: TableGamesApp) -> None:
    """A stacked game starts in play: straight to the table, no huddle."""
    await pilot.pause()
    assert isinstance(app.screen, CrabsScreen)


@asynccontextmanager
async def playing(
    client: LocalClient, ascii: bool = False
) -> AsyncIterator[tuple[TableGamesApp, Pilot[None]]]:
    """`client`'s stacked game in the app (in ASCII only with `ascii`), at the table."""
    async with opened(client, ascii=ascii) as (app, pilot):
        await at_the_table(pilot, app)
        yield app, pilot


def huddling(**options: Any) -> LocalClient:
    """Sara (seat 0) with three frozen bots in a dealt game: it opens with the huddle (the bots,
    frozen or not, pick at once)."""
    return local_table("crabs", 4, seed=3, names=("Sara",), speed=FROZEN, first_side=0, **options)


async def test_sara_picks_her_teams_signal_in_the_huddle_and_play_begins():
    client = huddling()
    async with opened(client) as (app, pilot):
        await until(lambda: isinstance(app.screen, HuddleScreen), pilot=pilot)
        huddle = view(client)["huddle"]
        dealt = huddle["dealt"]
        text = screen_text(app)
        assert "Your team's huddle" in text and "one gesture, or two" in text
        await until(lambda: view(client, 1)["huddle"]["picks"]["1"] == [dealt], pilot=pilot)
        assert client.table.now() < 60 and view(client)["phase"] == "huddle"  # Sara decides
        await press(pilot, "3", "9")  # touch your nose, and nod
        assert "Enter: pick touch your nose or nod" in screen_text(app)
        await press(pilot, "enter")
        await until(lambda: view(client)["phase"] == "swap", pilot=pilot)  # Ada agreed at once
        assert isinstance(app.screen, CrabsScreen)
        assert view(client)["signals"] == ["touch_nose", "nod"] == view(client, 1)["signals"]
        assert (0, {"type": "signal", "name": "touch_nose", "also": "nod"}) in [
            (seat, action) for seat, action, _ in client.table.log
        ]
        assert view(client, 2)["signals"] == [view(client, 2)["signal"]]  # the bots kept theirs
        text = screen_text(app)
        assert "nose*" in text and "nod*" in text  # both marked in the gesture bar
        banner = app.screen.query_one("#notices")
        assert "Your team's signal: touch your nose (3) or nod (9)." in str(banner.render())
        assert app.screen.bots.running  # play has started


async def test_esc_leaves_the_huddle_for_later_and_t_opens_it_again():
    client = huddling()
    async with opened(client) as (app, pilot):
        await until(lambda: isinstance(app.screen, HuddleScreen), pilot=pilot)
        await press(pilot, "escape")
        assert isinstance(app.screen, CrabsScreen) and view(client)["phase"] == "huddle"
        assert "Pick your team's secret signal with t (about" in status(app)
        await press(pilot, "t")
        assert isinstance(app.screen, HuddleScreen)
        await press(pilot, "enter")  # agree with the team's pick: the dealt gesture
        await until(lambda: view(client)["phase"] == "swap", pilot=pilot)
        assert view(client)["signals"] == [view(client)["signal"]]


async def test_a_partners_pick_shows_in_the_open_huddle():
    client = huddling()
    async with opened(client) as (app, pilot):
        await until(lambda: isinstance(app.screen, HuddleScreen), pilot=pilot)
        client.table.submit(1, {"type": "signal", "name": "yawn"})  # as a human Ada would
        await pilot.pause()
        assert isinstance(app.screen, HuddleScreen)
        assert "Your team's pick (*): yawn. Ada (bot): yawn." in screen_text(app)
        await press(pilot, "enter")  # agree
        await until(lambda: view(client)["phase"] == "swap", pilot=pilot)
        assert view(client)["signals"] == ["yawn"]


async def test_when_the_huddle_runs_out_the_dialog_closes_and_the_dealt_gesture_stays():
    client = huddling()
    async with opened(client) as (app, pilot):
        await until(lambda: isinstance(app.screen, HuddleScreen), pilot=pilot)
        dealt = view(client)["huddle"]["dealt"]
        await press(pilot, "5")  # Sara is still choosing when time runs out
        clock = client.table.clock
        client.table.clock = lambda: clock() + 61.0  # (a minute goes by)
        assert client.table.settle_clock()
        await until(lambda: isinstance(app.screen, CrabsScreen), pilot=pilot)
        assert view(client)["phase"] == "swap" and view(client)["signals"] == [dealt]
        banner = str(app.screen.query_one("#notices").render())
        assert banner.startswith("Time is up: your team keeps its dealt signal")


async def test_t_says_the_fixed_signal_during_play():
    client = crabs_table()
    async with playing(client) as (app, pilot):
        await press(pilot, "t")
        assert isinstance(app.screen, CrabsScreen)
        assert status(app) == (
            "Your team's signal: scratch your head (4), fixed for the game. Any other gesture is "
            "a decoy."
        )


async def test_keys_swap_a_hand_card_for_an_ocean_card_in_either_order():
    client = crabs_table()
    async with playing(client) as (app, pilot):
        await pilot.press("s")  # the Jab Crab
        await pilot.pause()
        assert "Jab Crab picked" in status(app)
        await pilot.press("j")  # the ocean's Shish Crabob
        await pilot.pause()
        assert view(client)["hand"] == ["kebab", "kebab", "kebab", "cappuccino"]
        assert "Sara swaps a Jab Crab for the Shish Crabob." in screen_text(app)
        await pilot.press("semicolon", "f")  # ocean first: the Jab Crab back, for the Crabuccino
        await pilot.pause()
        assert view(client)["hand"] == ["kebab", "kebab", "kebab", "jab"]


async def test_a_refused_swap_says_why():
    client = crabs_table(first_side=1)
    async with playing(client) as (app, pilot):
        await press(pilot, "a", "k")
        assert "it is side 1's turn to swap, not yours" in status(app)
        assert view(client)["hand"] == HANDS[0]


async def test_clicks_swap_too():
    client = crabs_table()
    async with playing(client) as (app, pilot):
        await pilot.click(CardRow, offset=(4, 1))  # hand card 2, the Jab Crab
        await pilot.pause()
        assert app.screen.query_one("#hand", CardRow).picked == 1
        await pilot.click("#ocean", offset=(4, 0))  # ocean card 1, the Shish Crabob
        await pilot.pause()
        assert view(client)["hand"] == ["kebab", "kebab", "kebab", "cappuccino"]


async def test_space_lays_the_hand_down():
    client = crabs_table()
    async with playing(client) as (app, pilot):
        await press(pilot, "space")
        assert view(client)["done"] == [0]
        assert "done" in screen_text(app)
        assert "Hand laid down" in status(app) or "laid your hand down" in status(app)


async def test_digits_make_gestures_everyone_sees_for_a_moment():
    client = crabs_table()
    async with playing(client) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, CrabsScreen)
        clock = screen.flow.clock = VirtualClock(100.0)  # (a loaded machine's seconds pass not)
        await press(pilot, "5")
        assert view(client, 2)["gestures"][-1]["name"] == "yawn"
        text = screen_text(app)
        assert "»yawn" in text
        client.table.submit(3, {"type": "gesture", "name": "nod"})
        await pilot.pause()
        assert "»nod" in screen_text(app)
        # Not in the log too: the bots' decoys, several a second, flooded it (issue 48).
        assert "yawns" not in screen_text(app) and "nods" not in screen_text(app)
        clock.advance(GESTURE_SHOWN + 0.1)
        screen._tick()
        await pilot.pause()
        assert "»" not in screen_text(app)


async def test_x_accuses_a_chosen_player():
    client = crabs_table()
    async with playing(client) as (app, pilot):
        await press(pilot, "x")
        assert isinstance(app.screen, PickDialog)
        assert "Ada (bot) (team A, your partner)" in screen_text(app)
        await pilot.press("3")  # seat 2, Bruno
        await pilot.pause()
        assert isinstance(app.screen, CrabsScreen)
        assert "Sara calls “You've got crabs!” on Bruno (bot): wrong!" in screen_text(app)
        assert view(client)["team_tokens"] == [3, 5]


async def test_clicking_a_player_twice_accuses_them():
    client = crabs_table(hands=[HANDS[0], ["king"] * 4, HANDS[2], HANDS[3]])
    async with playing(client) as (app, pilot):
        await pilot.click("#side1", offset=(3, 0))  # Ada, the partner
        await pilot.pause()
        assert "Click Ada (bot) again" in status(app)
        assert app.screen.query_one("#side1", SidePanel).marked == 1
        await pilot.click("#side1", offset=(3, 0))
        await pilot.pause()
        assert view(client)["team_tokens"] == [5, 4]  # right: four King Crabs
        assert any("right! {1} shows four King Crabs" in e["text"] for e in view(client)["log"])


async def test_y_answers_that_you_want_to_swap_when_asked():
    client = crabs_table(first_side=1)
    async with playing(client) as (app, pilot):
        client.table.submit(1, {"type": "done"})
        client.table.submit(3, {"type": "done"})
        await pilot.pause()
        assert "swap? y / n" in status(app)
        assert app.screen.query_one("#yes").display
        await press(pilot, "y")
        assert view(client)["marker"] == 0 and view(client)["phase"] == "swap"
        assert not app.screen.query_one("#yes").display


async def test_a_double_crab_asks_where_the_tokens_come_from():
    hands = [["king"] * 4, ["diet"] * 4, HANDS[2], HANDS[3]]
    client = crabs_table(hands=hands, tokens=[2, 2, 1, 3])
    async with playing(client) as (app, pilot):
        client.table.submit(1, {"type": "accuse", "target": 0})  # Ada calls Sara: right
        await pilot.press("x", "2")  # and Sara calls Ada within the second
        await pilot.pause()
        assert isinstance(app.screen, PickDialog)
        assert "Double crab! Take 3 tokens from:" in screen_text(app)
        await press(pilot, "1")
        assert view(client)["double_take"] == []
        assert view(client)["team_tokens"][0] == 4 + 3


async def test_the_end_names_the_winning_team():
    client = crabs_table(hands=[HANDS[0], ["king"] * 4, HANDS[2], HANDS[3]], pot=1)
    async with playing(client) as (app, pilot):
        await press(pilot, "x", "2")  # the pot's last token: the game waits out Ada's second
        assert isinstance(app.screen, CrabsScreen)
        assert status(app) == "The pot is empty: the game ends when the double-crab second is over."
        assert "Side 0 (yours)" in app.screen.query_one("#side0-box").border_title
        assert isinstance(client.table.clock, VirtualClock)
        client.table.clock.advance(1.5)  # nobody calls: the table closes the window by itself
        await until(lambda: "Game over" in screen_text(app), pilot=pilot)
        assert isinstance(app.screen, CrabsOver)
        text = screen_text(app)
        assert "Game over: Team A (Sara, Ada (bot)) wins" in text and "with 5 tokens." in text
        await settle(pilot)
        await press(pilot, "m")
        assert isinstance(app.screen, MenuScreen)


async def test_several_humans_are_sent_to_play_over_the_network():
    client = crabs_table(humans=2)
    async with opened(client) as (app, pilot):
        assert isinstance(app.screen, OneHumanOnly)
        assert "tablegames host crabs" in screen_text(app)
        await press(pilot, "enter")
        assert isinstance(app.screen, MenuScreen)


async def test_no_colour_and_ascii_keep_every_mark_in_text(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    client = crabs_table()
    async with playing(client, ascii=True) as (app, pilot):
        assert app.no_color
        await press(pilot, "a", "4")
        text = screen_text(app)
        assert "Side 0 (yours) > swapping" in text and "> a Shish Crabob" in text
        assert "scratch*" in text  # the team's signal, marked by a star
        assert "*scratch" in text  # (Sara's gesture, beside her name)
        await press(pilot, "x", "3")
        text = screen_text(app)
        assert 'Sara calls "You\'ve got crabs!" on Bruno (bot)' in text
        assert not any(ord(char) > 127 for char in text)


async def test_nobody_swapping_again_and_again_is_one_line_with_a_count():
    client = crabs_table()
    table = client.table
    async with playing(client) as (app, pilot):
        for _ in range(3):  # side 0 lays down, side 1 says no: the ocean is refilled
            for seat in (0, 2):
                table.submit(seat, {"type": "done"})
            for seat in (1, 3):
                table.submit(seat, {"type": "want_swap", "yes": False})
            await pilot.pause()
        refills = [e for e in table.update_for(0).view["log"] if e["kind"] == "refill"]
        assert len(refills) == 3
        lines = app.screen.query_one("#log")._given
        assert sum("Nobody wants to swap" in line for line in lines) == 1, lines
        assert any("Nobody wants to swap (3 times in a row)" in line for line in lines)
        table.submit(0, {"type": "accuse", "target": 1})  # news of another kind
        await pilot.pause()
        assert "Sara calls" in app.screen.query_one("#log")._given[-1]


async def test_at_60_by_20_cut_names_say_they_are_cut():
    client = local_table("crabs", 10, seed=3, names=("Alexandra",), speed=FROZEN, first_side=0)
    app = TableGamesApp(client)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        for _ in range(2):
            await press(pilot, "escape")
        text = screen_text(app)
        # (the name gives way, never "(you)"; "Bruno (bot)" has room enough to be whole)
        assert "Alexand… (you)" in text and "Bruno (bot)" in text and "~" not in text
        sides = [row for row in text.splitlines() if "│" in row or "┃" in row][:5]
        names = [name.removesuffix(" (bot)") for name in client.names[1:]]
        for row in sides:  # a name is whole, or cut with the mark, never mid-word unsaid
            shown = [word for word in row.split() if word[0].isupper() and len(word) > 1]
            assert all(word in names or word.endswith("…") for word in shown), row


async def test_at_60_by_20_in_ascii_cut_words_say_so_in_ascii():
    client = local_table("crabs", 10, seed=3, names=("Alexandra",), speed=FROZEN, first_side=0)
    app = TableGamesApp(client, ascii=True)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        for _ in range(2):
            await press(pilot, "escape")
        await pilot.pause()
        text = screen_text(app)
        assert text.isascii(), sorted({c for c in text if not c.isascii()})
        assert "Alexand~ (you)" in text
        # every player has a row on a side panel, by key (its lower edge goes when tight,
        # ASCII or not)
        for seat, name in enumerate(client.names[1:], start=1):
            assert f"{(seat + 1) % 10} {name}" in text, name


async def test_at_60_by_20_a_notice_takes_the_logs_second_line_not_the_footer():
    """At its smallest a crabs table has no row to spare: a notice above it (the opening
    note on the bots, say) once pushed the status line off and cut the footer's last key,
    with a scrollbar beside everything. The log gives it its second line."""
    client = local_table("crabs", 10, seed=3, names=("Alexandra",), speed=FROZEN, first_side=0)
    app = TableGamesApp(client)
    app.notices.clock = lambda: 0.0  # (shown until replaced, however slow the machine)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        for _ in range(2):
            await press(pilot, "escape")
        app.tell("A notice above the table.", "game")
        await until(lambda: "A notice above the table." in screen_text(app), pilot=pilot)
        rows = screen_text(app).splitlines()
        assert rows[0].strip() == "A notice above the table."
        assert rows[-1].rstrip().endswith("q Quit"), rows[-1]
        assert rows[-2].strip().startswith("Pick your team's secret signal with t (about")
        assert rows[-2].strip().endswith(" s left)."), rows[-2]  # (whole)
        assert "─ Log ─" in rows[-5] and rows[-3].startswith("╰"), rows[-5:]
        for seat, name in enumerate(client.names[1:], start=1):
            assert f"{(seat + 1) % 10} {name}" in "\n".join(rows), name
