"""Updates carry only the log entries a peer lacks, and the peer rebuilds the exact view."""

from __future__ import annotations

from typing import Any

import pytest

from tablegames.net.hosting import HostedTable
from tablegames.net.protocol import (
    LOG_SHIFTS,
    log_difference,
    updated_log,
)
from tablegames.rules import get_game
from tablegames.testing.matrix.test_network import Recorder

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
    update = hosted.feed.message(table.update_for(0), back)
    assert update.log_drop == 0 and update.view == table.state.view(0)
