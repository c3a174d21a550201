"""A table saved under other rules is never replayed into a different game (issue 14)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tablegames.cli import app
from tablegames.local import resume_local
from tablegames.net.server import Server, ServerConfig
from tablegames.replay import Replay
from tablegames.rules import get_game
from tablegames.store import OutdatedRules, SavedSeat, Store
from tablegames.table import Table

runner = CliRunner()


def saved_game(store: Store, kind: str, finished: bool) -> int:
    """A two-player crates game with a few moves, as this version saves it."""
    table_id = store.create_table("ABCD", "crates", 2, {"short": True}, kind)
    store.start_table(table_id, 4, [SavedSeat(0, "Sara"), SavedSeat(1, "Ada", bot_level="normal")])
    table = Table(get_game("crates"), 2, ["Sara", "Ada"], seed=4, options={"short": True})
    table.on_action(store.saver(table_id))
    for _ in range(6):
        seat = min(table.state.waiting_for())
        table.submit(seat, table.legal(seat)[0])
    if finished:
        store.finish_table(table_id, {"winners": [0], "scores": [0, 10]})
    return table_id


def played_under_older_rules(store: Store, table_id: int) -> None:
    store.db.execute("UPDATE game_tables SET rules_version = 0 WHERE id = ?", (table_id,))


def test_the_rules_version_is_saved_with_each_table(tmp_path):
    store = Store(tmp_path / "t.db")
    table_id = saved_game(store, "local", finished=False)
    assert store.load(table_id).rules_version == get_game("crates").rules_version


def test_resume_and_replay_refuse_older_rules_with_a_sentence(tmp_path):
    store = Store(tmp_path / "t.db")
    unfinished = saved_game(store, "local", finished=False)
    finished = saved_game(store, "local", finished=True)
    assert not resume_local(store, unfinished).table.over  # today's rules: fine
    assert Replay.load(store, finished).last == 6
    for table_id in (unfinished, finished):
        played_under_older_rules(store, table_id)
    with pytest.raises(OutdatedRules, match="other Crates rules"):
        resume_local(store, unfinished)
    with pytest.raises(OutdatedRules, match="history` still lists it"):
        Replay.load(store, finished)
    assert [entry["id"] for entry in store.history()] == [finished]
    assert store.stats()[0]["played"] == 1


def test_the_cli_says_so_and_still_lists_the_game(monkeypatch, tmp_path):
    monkeypatch.setenv("TABLEGAMES_HOME", str(tmp_path))
    store = Store()
    unfinished = saved_game(store, "local", finished=False)
    finished = saved_game(store, "local", finished=True)
    played_under_older_rules(store, unfinished)
    played_under_older_rules(store, finished)
    result = runner.invoke(app, ["replay", str(finished)])
    assert result.exit_code == 1 and "other Crates rules" in result.output
    assert "Traceback" not in result.output
    result = runner.invoke(app, ["resume", str(unfinished)])
    assert result.exit_code != 0 and "other Crates rules" in result.output
    assert "Sara" in runner.invoke(app, ["history"]).output
    assert "Sara" in runner.invoke(app, ["stats"]).output


def test_a_restarting_host_skips_a_table_saved_under_other_rules(tmp_path, caplog):
    store = Store(tmp_path / "server.db")
    old = saved_game(store, "server", finished=False)
    current = saved_game(store, "server", finished=False)
    played_under_older_rules(store, old)
    server = Server(ServerConfig(port=0), store=store)
    restored = server.restore_tables()
    assert [hosted.store_id for hosted in restored] == [current]
    assert "other Crates rules" in caplog.text


def test_a_roach_game_saved_before_the_loser_option_still_resumes_and_the_option_is_kept(
    tmp_path,
):
    # The loser option changed no rules_version: a saved game without it plays `four` as it did.
    store = Store(tmp_path / "t.db")
    for options in ({}, {"loser": "most"}):
        table_id = store.create_table("ROCH", "roach", 3, options, "local")
        store.start_table(
            table_id, 5, [SavedSeat(0, "Sara"), *(SavedSeat(s, f"b{s}") for s in (1, 2))]
        )
        table = Table(get_game("roach"), 3, ["Sara", "b1", "b2"], seed=5, options=options)
        table.on_action(store.saver(table_id))
        for _ in range(4):
            seat = min(table.state.waiting_for())
            table.submit(seat, table.legal(seat)[0])
        resumed = resume_local(store, table_id).table
        assert resumed.state.view(0) == table.state.view(0)
        assert resumed.state.view(0)["loser_rule"] == options.get("loser", "four")


def test_a_crabs_game_saved_before_the_huddle_is_refused_with_a_sentence(monkeypatch, tmp_path):
    # Rules version 3: signals are picked in a huddle and then fixed. A version-2 log has no
    # huddle (and may change signals mid-game), so it would replay into another game.
    assert get_game("crabs").rules_version >= 3  # 4: the double-crab second, void late calls
    monkeypatch.setenv("TABLEGAMES_HOME", str(tmp_path))
    store = Store()
    table_id = store.create_table("CRAB", "crabs", 4, {}, "local")
    store.start_table(
        table_id, 6, [SavedSeat(0, "Sara"), *(SavedSeat(s, f"b{s}") for s in (1, 2, 3))]
    )
    table = Table(get_game("crabs"), 4, ["Sara", "b1", "b2", "b3"], seed=6)
    table.on_action(store.saver(table_id))
    for seat in range(4):
        proposal = table.state.view(seat)["huddle"]["proposal"]
        table.submit(seat, {"type": "signal", "name": proposal[0]})
    assert table.state.phase == "swap"
    assert resume_local(store, table_id).table.state.view(0) == table.state.view(0)
    store.db.execute("UPDATE game_tables SET rules_version = 2 WHERE id = ?", (table_id,))
    with pytest.raises(OutdatedRules, match="other You've Got Crabs rules \\(version 2; this"):
        resume_local(store, table_id)
    result = runner.invoke(app, ["resume", str(table_id)])
    assert result.exit_code != 0 and "other You've Got Crabs rules" in result.output
    assert "Traceback" not in result.output
