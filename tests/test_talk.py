"""Table talk: the table's record of claims, shown to every viewer, saved, resumed and replayed."""

from __future__ import annotations

import pytest

from tablegames.local import local_table, resume_local
from tablegames.replay import Replay
from tablegames.rules import IllegalAction, get_game
from tablegames.store import Store
from tablegames.table import Table
from tablegames.talk import merged_log

I_AM_A_SAILOR = {"kind": "role", "target": 0, "group": "sailor"}


def kraken_table(**kwargs):
    return Table(get_game("kraken"), 7, [f"P{n}" for n in range(7)], seed=4, **kwargs)


def test_a_claim_is_recorded_after_the_moves_made_and_every_viewer_hears_it():
    table = kraken_table()
    heard = []
    table.subscribe(None, lambda update: heard.append(update.view["talk"]))
    saved = []
    table.on_claim(saved.append)
    said = table.say(0, I_AM_A_SAILOR)
    assert said["text"] == '{0} claims: "I am a sailor"'
    assert said["after"] == 0 and said["n"] == 0 and said["seat"] == 0
    assert saved == [said]
    assert heard[-1] == [said]
    for seat in (None, 3, 6):  # talk is public
        assert table.view_for(seat)["talk"] == [said]
    assert "talk" not in table.state.view(3)  # the engine never hears it
    assert table.version == 0  # talk is not a move: the game's version stays


def test_a_refused_claim_changes_nothing():
    table = kraken_table()
    with pytest.raises(IllegalAction, match="kind must be one of"):
        table.say(0, {"kind": "shout"})
    with pytest.raises(IllegalAction, match="no seat"):
        table.say(9, I_AM_A_SAILOR)
    assert table.talk == []


def test_games_without_claims_refuse_them_and_show_no_talk():
    table = Table(get_game("crates"), 2, ["a", "b"], seed=1)
    with pytest.raises(IllegalAction, match="has no claims"):
        table.say(0, I_AM_A_SAILOR)
    assert "talk" not in table.view_for(0)


def test_claims_sit_in_the_log_where_they_were_said():
    log = [
        {"kind": "a", "to": None, "text": "A"},
        {"kind": "secret", "to": [0], "text": "S"},
        {"kind": "b", "to": None, "text": "B"},
    ]
    talk = [{"n": 0, "line": 1, "seat": 2, "claim": {}, "text": "said"}]
    assert [e["text"] for e in merged_log(log, talk)] == ["A", "S", "said", "B"]
    assert [e["text"] for e in merged_log(log[:1], talk)] == ["A", "said"]


def test_talk_is_saved_resumed_and_replayed(tmp_path):
    store = Store(tmp_path / "t.db")
    client = local_table("kraken", 7, seed=11, store=store, names=("Sara",), characters=False)
    table = client.table
    table.run_bots(200)  # the bots play (and talk) up to Sara's first decision
    refused: list[str] = []
    client.listen_notices(lambda kind, text: refused.append(text))
    client.claim(0, I_AM_A_SAILOR)  # not saved yet: no move of hers
    client.claim(3, I_AM_A_SAILOR)
    assert refused == ["that seat is not yours"]
    seat, action = 0, table.legal(0)[0]
    client.submit(seat, action)  # her first move saves the game, talk included
    table.run_bots(30)
    assert client.saved_as is not None
    table_id = client.saved_as[1]
    talk_then = [dict(said) for said in table.talk]
    assert any(said["seat"] == 0 for said in talk_then)
    saved = store.load(table_id)
    assert [(s["n"], s["seat"], s["claim"]) for s in saved.talk] == [
        (s["n"], s["seat"], s["claim"]) for s in talk_then
    ]
    resumed = resume_local(store, table_id)
    assert resumed.table.talk == talk_then  # the same records, sentences made again
    assert resumed.table.view_for(0)["talk"] == talk_then
    resumed.claim(0, {"kind": "role", "target": 2, "group": "pirate"})
    assert len(store.load(table_id).talk) == len(talk_then) + 1
    # a finished game replays each claim at its moment
    resumed.table.bots = {}
    saved = store.load(table_id)
    replay = Replay(get_game("kraken"), 7, saved.seed, saved.options, saved.log, talk=saved.talk)
    last = replay.last
    assert replay.view(last, None)["talk"][-1]["text"] == '{0} claims: "{2} is a pirate"'
    first_said = saved.talk[0]["after"]
    assert replay.view(first_said, 4)["talk"][0]["seat"] == saved.talk[0]["seat"]
    if first_said > 0:
        assert replay.view(first_said - 1, 4)["talk"] == []
    store.close()
