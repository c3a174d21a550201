"""What a table tells its players, and the host's terminal, as people come, go and finish."""

from __future__ import annotations

import logging

from tablegames.net.hosting import HostedTable
from tablegames.rules import get_game

from .test_log_difference import Recorder


def news(peer: Recorder) -> list[str]:
    return [m["text"] for m in peer.messages if m["t"] == "presence" and m.get("text")]


def two_seat_table() -> tuple[HostedTable, Recorder, Recorder]:
    hosted = HostedTable(code="T", game=get_game("crates"), players=2, seed=3)
    ann, ben = Recorder("Ann"), Recorder("Ben")
    hosted.claim(ann, None)
    hosted.claim(ben, None)
    return hosted, ann, ben


def test_leaving_before_the_deal_frees_the_seat_and_says_so(caplog):
    hosted, ann, ben = two_seat_table()
    with caplog.at_level(logging.INFO, logger="tablegames.host"):
        hosted.detach(ben, now=1.0)
    assert news(ann)[-1] == "Ben left; the seat is free again."
    assert not hosted.seats[1].claimed
    assert "table T: Ben left; the seat is free again." in caplog.messages


def test_dropping_out_during_play_holds_the_seat_and_leaving_after_the_end_does_not(caplog):
    hosted, ann, ben = two_seat_table()
    with caplog.at_level(logging.INFO, logger="tablegames.host"):
        hosted.set_ready(ann, True)
        hosted.set_ready(ben, True)
        table = hosted.start()
        hosted.detach(ben, now=1.0)
        assert news(ann)[-1] == "Ben dropped out; their seat is held."
        hosted.attach(hosted.seats[1], ben)
        for _ in range(5_000):
            if table.over:
                break
            seat = min(table.state.waiting_for())
            table.submit(seat, table.legal(seat)[0])
        assert table.over
        hosted.detach(ann, now=2.0)
    assert news(ben)[-1] == "Ann left."
    winners = ", ".join(hosted.seats[s].name for s in table.state.result()["winners"])
    over = [line for line in caplog.messages if "the game is over" in line]
    assert over == [f"table T: the game is over; won: {winners}"]  # said once, at the end
    assert "table T: The game begins." in caplog.messages
