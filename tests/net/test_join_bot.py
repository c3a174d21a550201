"""`join --bot` plays a seat as a table here plays its own bots (`thinking.py`): thinking off the
event loop, speaking at the game's moments, and the same seeds playing the same game here and
over the network."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import threading
from typing import Any
from unittest.mock import ANY

import pytest

from tablegames.drivers import drive_bots
from tablegames.net import hosting, join_bot
from tablegames.net.client import RemoteClient
from tablegames.net.join_bot import play_as_bot
from tablegames.rules import GAMES, Action, View, get_game
from tablegames.table import Table
from tablegames.testing.harness import LOOPBACK, running_server

from . import chatter

PATIENCE = 5.0  # seconds the pondering bot waits to be let go before it answers anyway


class Ponderer:
    """A bot that thinks about its first question until the test lets it answer (or
    `PATIENCE` runs out), and answers every later one at once."""

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.go = threading.Event()
        self.let_go: list[bool] = []  # for each long thought: did the test end it?

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        if not self.let_go:
            self.thinking.set()
            self.let_go.append(self.go.wait(PATIENCE))
        return legal[0]


async def test_a_bot_thinking_over_the_network_leaves_the_event_loop_free(monkeypatch):
    # `join --bot` once ran its bot on the event loop: while a hard bot thought (up to a second
    # for the generic ones), nothing else ran, the connection's heartbeats included. Here the
    # test itself must run while the bot thinks, to let it go.
    ponderer = Ponderer()
    monkeypatch.setattr(join_bot, "get_bot", lambda *_: ponderer)
    async with running_server(bot_pace=0) as (server, port):
        hosted = server.add_table("roach", 2, seed=3, fill_with_bots="random", min_humans=1)
        client = RemoteClient(LOOPBACK, port, "Zed", table=hosted.code)
        playing = asyncio.ensure_future(play_as_bot(client, "hard"))
        async with asyncio.timeout(4 * PATIENCE):
            while not ponderer.thinking.is_set():
                await asyncio.sleep(0.01)
        ponderer.go.set()
        await asyncio.wait_for(playing, timeout=60)
    assert ponderer.let_go == [True]


def seeded(seat: int) -> Any:
    """The bot of `seat`, seeded by it: one that talks (`chatter.Chatty`)."""
    return chatter.Chatty(seat, random.Random(1000 + seat))


def played(table: Table) -> list[list[tuple[str, Any]]]:
    """What each seat did and said at `table`, in its order. (Over a network, what one says
    reaches the table a moment later than here: the others may have played meanwhile.)"""
    talk, done = list(table.talk), [[] for _ in range(table.players)]
    for number, (seat, action, _) in enumerate(table.log):
        while talk and talk[0]["after"] <= number:
            said = talk.pop(0)
            done[said["seat"]].append(("says", said["claim"]))
        done[seat].append(("plays", action))
    for said in talk:
        done[said["seat"]].append(("says", said["claim"]))
    return done


@pytest.mark.parametrize("seed", [7, 8])
async def test_the_same_seeds_play_the_same_game_here_and_over_the_network(monkeypatch, seed):
    # Three talking bots at Cockroach Poker (one seat asked at a time, so no race decides who
    # answers first over a network). Before, `join --bot` asked its bot what it says on every
    # update, the table at the game's moments: its dice rolled otherwise, and it played another
    # game from the same seeds.
    talking = dataclasses.replace(get_game("roach"), talk=chatter.__name__)
    monkeypatch.setitem(GAMES, "roach", talking)
    here = Table(get_game("roach"), 3, ["Ann", "Bo", "Zed"], seed=seed)
    here.bots = {seat: seeded(seat) for seat in range(3)}
    await asyncio.wait_for(drive_bots(here, 0.0), timeout=60)
    monkeypatch.setattr(hosting, "_bot", lambda game, level, seat: seeded(seat))
    monkeypatch.setattr(join_bot, "get_bot", lambda game, level, seat, rng: seeded(seat))
    # (Talk is rate-limited with chat: a bot at no pace at all would talk too fast.)
    limits = {"chat_per_second": 1000.0, "chat_burst": 1000}
    async with running_server(bot_pace=0, **limits) as (server, port):
        hosted = server.add_table("roach", 3, seed=seed, fill_with_bots="normal", min_humans=1)
        client = RemoteClient(LOOPBACK, port, "Zed", table=hosted.code, seat=2)
        await asyncio.wait_for(play_as_bot(client, "normal"), timeout=60)
        assert hosted.table is not None
        over_there = played(hosted.table)
    assert here.over and over_there == played(here)
    assert ("says", ANY) in over_there[2], "Zed said nothing: the test proves little"


class Listener:
    """A bot that says nothing and notes every view it was asked to speak on."""

    def __init__(self) -> None:
        self.asked: list[View] = []

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        return None

    def speak(self, view: View) -> list[dict[str, Any]]:
        self.asked.append(view)
        return []


def test_a_table_asks_its_bots_what_they_say_only_at_the_moments_their_seats_are_shown(
    monkeypatch,
):
    # Bo offers Ann a card and Ann peeks: Ann alone is told the card (a moment); the others
    # see only that she peeked. Before, every talking bot was asked at a moment anyone was shown.
    talking = dataclasses.replace(get_game("roach"), talk=chatter.__name__)
    monkeypatch.setitem(GAMES, "roach", talking)
    table = Table(get_game("roach"), 3, ["Ann", "Bo", "Cy"], seed=7)
    table.bots = {seat: Listener() for seat in range(3)}
    table.submit(1, {"type": "offer", "card": "bat", "to": 0, "claim": "bat"})
    table.submit(0, {"type": "peek"})
    asked = {seat: bot.asked for seat, bot in table.bots.items()}
    assert [len(asked[seat]) for seat in range(3)] == [1, 0, 0]
    assert "You peek: the card is bat." in [event["text"] for event in asked[0][0]["log"]]
