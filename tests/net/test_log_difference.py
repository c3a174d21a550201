"""Updates carry only the log entries a peer lacks, and the peer rebuilds the exact view."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest

from tablegames.net.hosting import HostedTable
from tablegames.net.messages import ServerMessage
from tablegames.net.protocol import (
    LOG_SHIFTS,
    encode,
    log_difference,
    updated_log,
    updated_talk,
)
from tablegames.rules import IllegalAction, get_game

from ..games import GAME_NAMES
from .wire import plain, problem

ACTION_LIMIT = 400


def entries(*names: str) -> list[dict[str, Any]]:
    return [{"text": name, "to": None} for name in names]


@pytest.mark.parametrize(
    ("sent", "log", "drop", "added"),
    [
        pytest.param("", "ab", 0, "ab", id="first update: everything"),
        pytest.param("abc", "abcde", 0, "de", id="the log grew"),
        pytest.param("abc", "abc", 0, "", id="nothing new"),
        pytest.param("abcd", "cdef", 2, "ef", id="a window moved on"),
        pytest.param("abc", "xy", 3, "xy", id="a new round starts afresh"),
        pytest.param("abc", "ab", 3, "ab", id="a shorter log is sent whole"),
    ],
)
def test_the_difference_rebuilds_the_log(sent, log, drop, added):
    known, wanted = entries(*sent), entries(*log)
    assert log_difference(known, wanted) == (drop, entries(*added))
    assert updated_log(known, drop, entries(*added)) == wanted


def test_a_window_that_moved_too_far_is_sent_whole():
    letters = "abcdefghijklmnopqrstuvwxyz"
    known = entries(*letters[:12])
    moved = entries(*letters[LOG_SHIFTS + 1 : LOG_SHIFTS + 13])
    assert log_difference(known, moved) == (len(known), moved)


class Recorder:
    """A peer that keeps what it was sent, as the maps it would decode."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.messages: list[dict[str, Any]] = []

    def send(self, message: Any) -> None:
        self.messages.append(plain(message))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_update_rebuilds_the_seats_exact_view_with_less_sent(game):
    info = get_game(game)
    hosted = HostedTable(code="T", game=info, players=info.default_players, seed=5)
    peers = [Recorder(f"p{n}") for n in range(info.default_players)]
    for peer in peers:
        hosted.claim(peer, None)
    table = hosted.start()
    rng = random.Random(5)
    logs: list[list[Any]] = [[] for _ in peers]
    talks: list[list[Any]] = [[] for _ in peers]
    sent = whole = 0
    for _ in range(ACTION_LIMIT):
        if table.over:
            break
        movers = [seat for seat in range(table.players) if table.legal(seat)]
        waiting = [seat for seat in movers if seat in table.state.waiting_for()]
        seat = rng.choice(waiting or movers)
        table.submit(seat, rng.choice(table.legal(seat)))
        if table.vocabulary is not None and rng.random() < 0.2 and not table.over:
            speaker = rng.randrange(table.players)  # talk travels beside the log (issue 20)
            with contextlib.suppress(IllegalAction):
                table.say(speaker, {"kind": "role", "target": speaker, "group": "sailor"})
        for number, peer in enumerate(peers):
            updates = [m for m in peer.messages if m["t"] == "update"]
            for message in updates:  # (the first one came when the game began)
                assert problem(message, ServerMessage) is None
                logs[number] = updated_log(
                    logs[number], message["log_drop"], message["view"]["log"]
                )
                if "talk" in message["view"]:
                    talks[number] = updated_talk(talks[number], message["view"]["talk"])
            truth = table.view_for(number)
            rebuilt = {**updates[-1]["view"], "log": logs[number]}
            if "talk" in truth:
                rebuilt["talk"] = talks[number]
            assert rebuilt == truth
            sent += len(encode(updates[-1]))
            whole += len(encode({**updates[-1], "view": truth}))
            peer.messages.clear()
    assert table.version > 10 or table.over  # (a round of Love Letter may end sooner)
    assert sent < 0.8 * whole, (sent, whole)


def test_a_peer_that_comes_back_is_sent_the_whole_log():
    info = get_game("crates")
    hosted = HostedTable(code="T", game=info, players=2, seed=2)
    first, other = Recorder("a"), Recorder("b")
    hosted.claim(first, None)
    hosted.claim(other, None)
    table = hosted.start()
    for _ in range(6):
        seat = min(table.state.waiting_for())
        table.submit(seat, table.legal(seat)[0])
    assert first.messages[-1]["view"]["log"] != table.state.view(0)["log"]  # a difference
    hosted.detach(first, now=1.0)
    back = Recorder("a again")
    hosted.attach(hosted.seats[0], back)
    update = hosted.update_message(table.update_for(0), back)
    assert update.log_drop == 0 and update.view == table.state.view(0)
