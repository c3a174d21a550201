"""The crabs huddle: teams pick their signal in private before play (one gesture or two), bots at
once, humans within the time limit or the dealt gesture; after it the signal is fixed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tablegames.bots import get_bot
from tablegames.drivers import realtime_move, run_realtime
from tablegames.rules import get_game
from tablegames.rules.crabs_huddle import HUDDLE_SECONDS, signal_words
from tablegames.table import Table, VirtualClock

from .scripts import assert_illegal

crabs = get_game("crabs")
TIME = {"type": "time"}


def pick(name: str, also: str | None = None) -> dict[str, Any]:
    return {"type": "signal", "name": name, **({"also": also} if also else {})}


def refused(state: Any, seat: int, action: Any, now: float = 0.0) -> str:
    return assert_illegal(state, seat, action, now, words=1)


def texts(state: Any, seat: int | None) -> list[str]:
    return [event["text"] for event in state.view(seat)["log"]]


def test_a_dealt_game_opens_in_the_huddle_where_only_signals_are_picked():
    state = crabs.new(4, seed=2)
    dealt = [state.view(0)["huddle"]["dealt"], state.view(2)["huddle"]["dealt"]]
    assert state.phase == "huddle" and dealt[0] != dealt[1]
    assert state.deadline() == HUDDLE_SECONDS == 60.0
    assert state.waiting_for() == {0, 1, 2, 3}
    assert state.visible_waiting(0) == [0, 1] and state.visible_waiting(None) == []
    assert {a["type"] for s in range(4) for a in state.legal(s)} == {"signal"}
    assert len(state.legal(0)) == 10 + 45  # one gesture, or two different ones
    playing = "the teams are still picking their signals: play begins after the huddle"
    assert refused(state, 0, {"type": "gesture", "name": "wink"}) == playing
    assert refused(state, 0, {"type": "accuse", "target": 1}) == playing
    assert refused(state, 0, {"type": "done"}) == playing
    assert texts(state, None) == ["The teams huddle to pick their secret signals (60 seconds)."]
    words = signal_words([dealt[0]])
    assert texts(state, 1)[1] == (
        f"Your team's dealt signal is to {words}: pick one gesture or two, or keep it."
    )
    assert [e["to"] for e in state.view(0)["log"] if e["kind"] == "dealt_signal"] == [[0, 1]]
    spectator = state.view(None)["huddle"]
    assert spectator == {"ends": 60.0, "most": 2, "settled": []}  # no team's signal, no pick
    assert state.view(0)["huddle"]["picks"] == {"0": None, "1": None}


def test_a_team_settles_when_every_member_picked_its_proposal_and_play_then_begins():
    state = crabs.new(4, seed=2, first_side=1)
    state.apply(0, pick("nod"), now=1.0)
    assert state.view(1)["huddle"]["proposal"] == ["nod"]
    assert state.waiting_for() == {1, 2, 3}
    state.apply(1, pick("yawn", "wink"), now=2.0)  # the partner wants something else
    assert state.view(0)["huddle"]["proposal"] == ["wink", "yawn"]
    assert state.waiting_for() == {0, 2, 3}  # seat 0 must answer
    assert (
        refused(state, 1, pick("wink", "yawn"), now=2.5) == "you have already picked wink or yawn"
    )
    state.apply(0, pick("wink", "yawn"), now=3.0)
    assert state.view(0)["signals"] == ["wink", "yawn"] and state.view(None)["huddle"][
        "settled"
    ] == [0]
    assert "Your team settles on its signal: wink or yawn." in texts(state, 1)
    assert "{0} and {1} are back at the table." in texts(state, None)
    assert refused(state, 0, pick("nod"), now=3.5) == ("your team has settled on its signal: nod")
    dealt = state.view(2)["huddle"]["dealt"]
    state.apply(2, pick(dealt), now=4.0)
    events = state.apply(3, pick(dealt), now=4.5)
    assert state.phase == "swap" and state.view(0)["huddle"] is None
    assert [e["text"] for e in events][-1] == "Side 1 swaps first."
    assert state.waiting_for() == {1, 3} and state.deadline() is None
    for seat in range(4):
        assert not any(a["type"] == "signal" for a in state.legal(seat))
    assert refused(state, 1, pick("nod"), now=5.0) == (
        "your team's signal was picked in the huddle before play: it cannot change now"
    )


def test_picks_stay_within_the_team():
    state = crabs.new(6, seed=4)
    before = {seat: state.view(seat) for seat in (None, 2, 3, 4, 5)}
    events = state.apply(0, pick("nod", "stretch"), now=1.0)
    assert [e["to"] for e in events] == [[0, 1]]
    for seat, view in before.items():
        assert state.view(seat) == view


def test_time_up_a_team_that_has_not_settled_keeps_its_dealt_gesture():
    state = crabs.new(4, seed=2)
    dealt = state.view(0)["huddle"]["dealt"]
    state.apply(1, pick("nod", "yawn"), now=10.0)  # the partner proposes; seat 0 never answers
    others = state.view(2)["huddle"]["dealt"]
    state.apply(2, pick(others), now=11.0)
    state.apply(3, pick(others), now=12.0)
    assert refused(state, 0, TIME, now=59.9) == "nothing is waiting on the clock"
    assert refused(state, 0, pick("nod", "yawn"), now=60.0) == (
        "time is up: the huddle has closed and the table settles it first"
    )
    state.apply(0, TIME, now=60.0)
    assert state.phase == "swap"
    assert state.view(0)["signals"] == [dealt] and state.view(1)["signals"] == [dealt]
    words = signal_words([dealt])
    assert f"Your team ran out of time and keeps its signal: {words}." in texts(state, 1)
    assert state.view(2)["signals"] == [others]


def test_two_signals_are_two_different_gestures():
    state = crabs.new(4, seed=2)
    assert refused(state, 0, pick("nod", "nod")) == "a second signal must be another gesture"
    assert refused(state, 0, pick("whistle")).startswith("a signal is one of the gestures")
    assert refused(state, 0, pick("nod", "whistle")).startswith("a second signal is one of")
    state.apply(0, pick("nod", "wink"), now=1.0)  # named in any order, kept in gesture order
    assert state.view(1)["huddle"]["proposal"] == ["wink", "nod"]


def test_a_signal_naming_no_gesture_at_all_is_refused_in_a_sentence():
    # Found by the network matrix's random actions: a list where a gesture goes raised
    # TypeError (unhashable) while the action was put in its listed form, and the server
    # dropped the sender instead of saying no.
    state = crabs.new(4, seed=2)
    for name, also in (([], None), ({"a": 1}, None), ("nod", ["wink"])):
        action = {"type": "signal", "name": name, **({"also": also} if also else {})}
        assert "gesture" in refused(state, 0, action)


def test_teams_may_pick_the_same_gesture_without_learning_it():
    state = crabs.new(4, seed=2)
    for seat in range(4):
        state.apply(seat, pick("nod"), now=1.0 + seat)
    assert state.phase == "swap" and state.signals == [("nod",), ("nod",)]


def test_a_stacked_game_has_no_huddle():
    hands = [["king"] * 4, ["jab"] * 4, ["taxi"] * 4, ["ab"] * 4]
    state = crabs.new(4, 1, hands=hands, ocean=["bunny"] * 4, first_side=0)
    assert state.phase == "swap" and state.deadline() is None
    assert texts(state, None) == ["Side 0 swaps first."]


def test_bots_pick_at_once_and_the_huddle_replays_exactly():
    for level in ("random", "normal", "hard"):
        clock = VirtualClock()
        bots = {seat: get_bot("crabs", level, seat, random.Random(seat)) for seat in range(5)}
        table = Table(crabs, 5, list("abcde"), seed=7, bots=bots, clock=clock)
        assert table.state.phase == "huddle"
        for _ in range(20):  # asked at table time 0, every bot answers at once
            move = realtime_move(table)
            if move is None:
                break
            table.submit(*move)
        assert table.state.phase == "swap" and table.now() == 0.0, level
        assert [action["type"] for _, action, _ in table.log] == ["signal"] * 5
        replayed = crabs.replay(5, 7, {}, table.log)
        assert replayed.view(4) == table.state.view(4)


def test_a_human_who_lets_the_time_run_out_keeps_the_dealt_gesture():
    clock = VirtualClock()
    bots = {seat: get_bot("crabs", "hard", seat, random.Random(seat)) for seat in (1, 2, 3)}
    table = Table(crabs, 4, ["Sara", "b", "c", "d"], seed=3, bots=bots, clock=clock)
    dealt = table.state.view(0)["huddle"]["dealt"]
    run_realtime(table, clock, 10, max_seconds=30.0)  # Sara thinks; the bots have picked
    assert table.state.phase == "huddle" and table.state.waiting_for() == {0}
    assert len(table.state.view(0)["huddle"]["proposal"]) == 2  # her hard partner proposed two
    run_realtime(table, clock, 10, max_seconds=HUDDLE_SECONDS)
    assert table.log[-1][1] == TIME and table.log[-1][2] == HUDDLE_SECONDS
    assert table.state.phase == "swap"
    assert table.state.view(0)["signals"] == [dealt] == table.state.view(1)["signals"]


@pytest.mark.parametrize("players", [4, 5, 10])
def test_every_team_gets_a_signal_and_the_huddle_view_keeps_the_same_keys(players):
    state = crabs.new(players, seed=players)
    assert set(state.view(None)) == set(state.view(0))
    for team, members in enumerate(state.teams):
        for seat in members:
            state.apply(seat, pick(state.dealt[team]), now=1.0)
    assert state.phase == "swap"
    assert [len(signals) for signals in state.signals] == [1] * len(state.teams)
