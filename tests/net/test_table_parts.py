"""A hosted table's parts, each the one owner of its state, played without a server: who
watches (and whether a spectators' view is built), who asked for a rematch, the chat kept."""

from __future__ import annotations

from tablegames.net.chat_log import ChatLog
from tablegames.net.hosting import HostedTable
from tablegames.net.messages import Chat
from tablegames.rules import get_game

from .test_log_difference import Recorder


def dealt_table() -> tuple[HostedTable, Recorder, Recorder]:
    hosted = HostedTable(code="T", game=get_game("crates"), players=2, seed=3)
    ann, ben = Recorder("Ann"), Recorder("Ben")
    hosted.claim(ann, None, ready=True)
    hosted.claim(ben, None, ready=True)
    hosted.start()
    return hosted, ann, ben


def views(peer: Recorder) -> int:
    return sum(m["t"] == "update" for m in peer.messages)


def test_a_spectators_view_is_built_only_while_somebody_watches():
    hosted, ann, _ = dealt_table()
    table = hosted.table
    assert table is not None
    cat, dan = Recorder("Cat"), Recorder("Dan")
    hosted.watch(cat)
    hosted.watch(dan)
    assert views(cat) == views(dan) == 1  # each is shown the game once, as they arrive
    hosted.detach(cat)
    seat = min(table.state.waiting_for())
    table.submit(seat, table.legal(seat)[0])
    assert (views(cat), views(dan)) == (1, 2)
    hosted.detach(dan)
    watchers = [s for s, _ in table._subscribers if s is None]
    assert watchers == []  # nobody watches: no spectators' view after each action
    assert hosted.peers() == [ann, hosted.seats[1].peer]


def test_a_rematch_waits_for_every_player_still_at_the_table():
    hosted, _, ben = dealt_table()
    assert hosted.readiness.want_rematch(hosted.seats[0]) == ["Ben"]
    assert hosted.readiness.for_rematch(0) and not hosted.readiness.for_rematch(1)
    hosted.detach(ben)  # Ben leaves: nobody waits for him
    assert hosted.readiness.want_rematch(hosted.seats[0]) == []


def test_a_room_keeps_its_last_lines_for_whoever_arrives_and_a_rematch_carries_them_on():
    room, everyone, late = ChatLog(kept=2), [Recorder("Ann")], Recorder("Ben")
    for text in ["hi", "gl", "gg"]:
        room.say(Chat(name="Ann", seat=0, text=text), everyone)
    assert [m["text"] for m in everyone[0].messages] == ["hi", "gl", "gg"]
    room.tell_earlier(late)
    assert [(m["text"], m["earlier"]) for m in late.messages] == [("gl", True), ("gg", True)]
    next_room = ChatLog(kept=2)
    next_room.goes_on_from(room)
    again = Recorder("Ben")
    next_room.tell_earlier(again)
    assert [m["text"] for m in again.messages] == ["gl", "gg"]
