"""The reported races, each replayed at its moments: a second Enter after a move, a bot moving
while a hand-off is up, an Enter on a list nobody chose from, a network peek.

Keys are typed on a virtual clock the screens read (`hurried.Keyboard`), so "Enter 0.3 s
later" is exactly that, and each test takes a moment.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from tablegames.drivers import LocalClient
from tablegames.local import local_table
from tablegames.net.client import RemoteClient
from tablegames.net.server import Server, ServerConfig
from tablegames.testing.harness import until
from tablegames.testing.hurried import Keyboard, VirtualClock
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens import typeahead
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.dialogs import PickDialog
from tablegames.tui.screens.handoff import HandoffScreen
from tablegames.tui.screens.roach import RoachScreen

from .helpers import STILL, screen_text, stacked
from .test_roach_screen import offer, roach_table

pytestmark = pytest.mark.real_time_keys


@asynccontextmanager
async def at_the_table(
    client: Any, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int] = (100, 32)
) -> AsyncIterator[tuple[TableGamesApp, Keyboard]]:
    clock = VirtualClock()
    monkeypatch.setattr(typeahead, "time", clock)
    app = (
        TableGamesApp(remote=client) if isinstance(client, RemoteClient) else TableGamesApp(client)
    )
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        yield app, Keyboard(app, pilot, clock)


def sent(client: LocalClient, seat: int) -> list[dict[str, Any]]:
    return [action for who, action, _ in client.table.log if who == seat]


async def test_a_second_enter_after_a_move_does_not_pass_the_hand_off(monkeypatch):
    client = stacked(
        [["QH", "JH"], ["2C", "3C", "9S"], ["4D", "5D"]],
        humans=3,
        names=("Ann", "Bob", "Cy"),
        draw=["7C", "8C"],
    )
    async with at_the_table(client, monkeypatch) as (app, keys):
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "Ann"
        await keys.type("A", after=1.5)  # Ann takes the keyboard
        assert "Ann's hand" in screen_text(app)
        await keys.type("enter", after=0.5)  # and plays her J♥...
        await keys.type("enter", after=0.3)  # ...and presses Enter again, 0.3 s later
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "Bob"
        assert "Bob's hand" not in screen_text(app) and "2♣" not in screen_text(app)
        await keys.type("enter", "enter", after=0.5)  # still hers: a burst 0.8 s on
        assert isinstance(app.screen, HandoffScreen)
        await keys.type("B", after=1.0)  # Bob, a moment later, with the keyboard
        assert isinstance(app.screen, CratesScreen) and "Bob's hand" in screen_text(app)
        assert sent(client, 1) == []  # nothing was played for Bob


async def test_keys_typed_for_ann_in_kraken_never_show_bob_his_secrets(monkeypatch):
    client = local_table("kraken", 7, humans=2, seed=11, names=("Ann", "Bob"), pace=STILL)
    async with at_the_table(client, monkeypatch) as (app, keys):
        await keys.type("A", after=1.5)  # Ann's hand-off
        await keys.type("0", after=0.3)
        await keys.type("enter", after=0.6)
        await keys.type("enter", after=0.3)
        await keys.type("enter", after=0.3)
        assert "Bob's secrets" not in screen_text(app).replace("Bob's secrets (hidden)", "")
        assert sent(client, 1) == []


async def test_a_hand_off_names_whoever_the_table_waits_for_when_a_bot_moves(monkeypatch):
    client = roach_table(first=2, humans=2, names=("Ann", "Bob"))  # Bruno (a bot) offers first
    async with at_the_table(client, monkeypatch) as (app, keys):
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen) and handoff.player == "Ann"
        await keys.wait(0.8)
        client.table.submit(2, offer("ladybug", 1, "fly"))  # the card goes to Bob meanwhile
        await keys.wait(0.0)
        assert app.screen is handoff and handoff.player == "Bob"
        assert "Pass to Bob" in screen_text(app) and "Pass to Ann" not in screen_text(app)
        await keys.type("B", after=0.5)  # Ann's reading was for Ann: the wait starts again
        assert app.screen is handoff
        await keys.type("B", after=1.0)
        screen = app.screen
        assert isinstance(screen, RoachScreen) and screen.active_seat == screen.keyboard.shown == 1
        assert "Bob's hand" in screen_text(app) and "Ann's hand" not in screen_text(app)


async def test_enter_on_a_list_nobody_chose_from_only_points(monkeypatch):
    client = local_table("kraken", 5, humans=1, seed=4, names=("Ann",), pace=STILL, board="quick")
    async with at_the_table(client, monkeypatch) as (app, keys):
        await keys.type("enter", "enter", "enter")  # typed as the captain's question opened
        assert isinstance(app.screen, PickDialog) and app.screen.highlighted is None
        await keys.type("down", after=0.5)
        await keys.type("enter", after=0.3)  # the first lieutenant, pointed at and chosen
        navigator = app.screen
        assert isinstance(navigator, PickDialog) and navigator.highlighted is None
        await keys.type("enter", after=0.5)  # 0.5 s later: points at the first, no more
        assert app.screen is navigator and navigator.highlighted == 0
        assert sent(client, 0) == []
        await keys.type("enter", after=0.4)
        (appointed,) = sent(client, 0)
        assert appointed["type"] == "appoint"


async def test_enters_typed_with_an_eight_choose_no_suit(monkeypatch):
    client = stacked([["8S", "4D"], ["2C", "3C", "9S"]], upcard="KH")
    async with at_the_table(client, monkeypatch) as (app, keys):
        await keys.type("1", after=0.5)
        await keys.type("enter", "enter", "enter")  # the 8 played, Enters still coming
        dialog = app.screen
        assert isinstance(dialog, PickDialog) and dialog.highlighted == 0  # pointed, no more
        assert sent(client, 0) == []
        await keys.type("enter", after=0.5)  # seen now: Enter names the suit pointed at
        assert sent(client, 0) == [{"type": "play", "card": "8S", "suit": "S"}]


async def test_a_peek_over_the_network_waits_for_the_card_then_asks_where_it_goes(monkeypatch):
    hands = [
        ["bat", "fly", "mouse"],
        ["frog", "scorpion", "mouse"],
        ["ladybug", "cockroach", "bat"],
    ]
    server = Server(ServerConfig(port=0, bot_pace=STILL))
    server.add_table("roach", 3, {"hands": hands, "penalty": ["fly"], "first": 1}, seed=1)
    port = await server.start()
    tom, bea = (RemoteClient("127.0.0.1", port, name) for name in ("Tom", "Bea"))
    remote = RemoteClient("127.0.0.1", port, "Sara")
    try:
        async with at_the_table(remote, monkeypatch) as (app, keys):
            for friend in (tom, bea):
                await friend.connect()
                friend.ask.ready(True)
            await until(lambda: "Press r" in screen_text(app), pilot=keys.pilot)
            await keys.type("r")
            await until(lambda: isinstance(app.screen, RoachScreen), pilot=keys.pilot)
            seat = remote.seat
            offering = next(c for c in (tom, bea) if c.latest and c.latest.view["turn"] == c.seat)
            offering.submit(offering.seat, offer(offering.latest.view["hand"][0], seat, "bat"))
            await until(
                lambda: (remote.latest.view["flight"] or {}).get("to") == seat, pilot=keys.pilot
            )
            # On the screen, not only in the client: the key must come after the question.
            await until(lambda: "slides you a card" in screen_text(app), pilot=keys.pilot)
            await keys.wait(0.0)
            await keys.type("p", after=1.0)
            await until(lambda: isinstance(app.screen, PickDialog), pilot=keys.pilot)  # look?
            await keys.type("1", after=0.5)  # the peek is sent; the card is not here yet
            await until(lambda: "It is a" in screen_text(app), pilot=keys.pilot)
            assert isinstance(app.screen, PickDialog)
            assert app.problems == []
    finally:
        for client in (tom, bea, remote):
            await client.close()
        await server.close()


async def test_a_hand_off_renamed_as_it_opens_names_the_new_player(monkeypatch):
    class RenamedAsItOpens(HandoffScreen):
        """The table moves on after the hand-off is laid out, before it is shown (another
        screen's update can come in between)."""

        def compose(self) -> Any:
            yield from super().compose()
            self.hand_to(1, "Bob", "b")

    client = roach_table(first=2, humans=2, names=("Ann", "Bob"))
    async with at_the_table(client, monkeypatch) as (app, keys):
        app.push_screen(RenamedAsItOpens(0, "Ann", "a"))
        await keys.wait(0.0)
        assert "Pass to Bob" in screen_text(app) and "Ann" not in screen_text(app)
