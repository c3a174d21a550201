"""The SQLite store: round trips, migrations, sealed records, and a server restored from it."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from tablegames.net.client import RemoteClient
from tablegames.net.join_bot import play_as_bot
from tablegames.net.server import Server, ServerConfig
from tablegames.rules import get_game
from tablegames.store import SCHEMA_VERSION, SavedSeat, Store


@pytest.fixture
def store(tmp_path):
    opened = Store(tmp_path / "games.db")
    yield opened
    opened.close()


def test_a_table_round_trips(store):
    table_id = store.create_table("ABCD", "crates", 2, {"short": True}, "local")
    seats = [SavedSeat(0, "Sara"), SavedSeat(1, "Ada (bot)", bot_level="hard")]
    store.start_table(table_id, seed=77, seats=seats)
    store.append_action(table_id, 0, 1, {"type": "draw"}, 0.5)
    store.append_action(table_id, 1, 0, {"type": "play", "card": "10H"}, 1.25, client_version=1)
    saved = store.load(table_id)
    assert (saved.code, saved.game, saved.players, saved.options) == (
        "ABCD",
        "crates",
        2,
        {"short": True},
    )
    assert saved.seed == 77 and saved.kind == "local" and saved.finished is None
    assert saved.seats == seats and saved.names == ["Sara", "Ada (bot)"]
    assert saved.log == [(1, {"type": "draw"}, 0.5), (0, {"type": "play", "card": "10H"}, 1.25)]
    assert saved.client_versions == [None, 1]
    assert [t.id for t in store.open_tables("local")] == [table_id]
    assert store.open_tables("server") == []


def test_a_record_is_sealed_until_the_game_is_over(store):
    table_id = store.create_table("ABCD", "crates", 2, {}, "server")
    store.start_table(table_id, seed=5, seats=[SavedSeat(0, "a"), SavedSeat(1, "b")])
    with pytest.raises(PermissionError, match="not over"):
        store.record(table_id)
    assert store.history() == []
    store.finish_table(table_id, {"winners": [1], "scores": [30, 10]})
    assert store.record(table_id).seed == 5
    (entry,) = store.history()
    assert entry["players"] == ["a", "b"] and entry["winners"] == ["b"]
    # Nobody moved and nothing proves who a and b were: the game is rated for nobody.
    assert store.stats() == [] and not store.history()[0]["rated"]


def test_an_older_schema_is_migrated_with_its_data(tmp_path):
    path = tmp_path / "old.db"
    old = Store.__new__(Store)
    old.path, old.db = path, sqlite3.connect(path, isolation_level=None)
    old.migrate(target=1)  # a database written by the first release
    old.db.execute(
        "INSERT INTO game_tables (id, code, game, players, options, seed, kind, created, started) "
        "VALUES (1, 'OLDT', 'crates', 2, '{}', 9, 'server', 0, 1)"
    )
    old.db.execute("INSERT INTO seats VALUES (1, 0, 'a', NULL, NULL), (1, 1, 'b', NULL, 'normal')")
    old.db.execute("INSERT INTO actions VALUES (1, 0, 0, ?, 0.0)", (json.dumps({"type": "draw"}),))
    assert old.version == 1
    old.close()
    store = Store(path)
    assert store.version == SCHEMA_VERSION == 8
    saved = store.load(1)
    assert saved.talk == []  # schema 4: table talk, none in an older database
    assert saved.rules_version == 1  # tables saved before versions were played under the first
    assert saved.log == [(0, {"type": "draw"}, 0.0)] and saved.client_versions == [None]
    assert saved.finished is None and saved.fill_with_bots is None
    assert [s.bot_level for s in saved.seats] == [None, "normal"]
    # schema 8: who made each move; one saved before is nobody's in particular
    assert store.db.execute("SELECT mover FROM actions").fetchall() == [(None,)]
    store.close()


def test_names_keep_their_last_use_and_the_unused_are_released(tmp_path):
    store = Store(tmp_path / "names.db")
    assert store.claim_name("ana", "Ana", "SHA256:ana")
    assert not store.claim_name("ana", "ANA", "SHA256:mallory")  # the first key keeps it
    assert store.claim_name("bo", "Bo", "SHA256:bo")
    store.db.execute("UPDATE names SET used = 1000 WHERE name_key = 'bo'")  # long ago
    assert [name for name, _, _ in store.owned_names()] == ["Ana", "Bo"]
    assert store.release_names_unused_since(2000) == ["Bo"]
    assert store.name_owner("bo") is None and store.name_owner("ana") == "SHA256:ana"
    assert store.release_name("ana") == "Ana" and store.release_name("ana") is None
    assert store.claim_name("ana", "ana", "SHA256:mallory")  # free again: the next key has it
    store.close()


def test_a_newer_database_is_refused(tmp_path):
    path = tmp_path / "new.db"
    sqlite3.connect(path).execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(RuntimeError, match="newer"):
        Store(path)


async def test_a_server_restored_from_its_store_replays_every_table(tmp_path):
    path = tmp_path / "server.db"
    first = Server(ServerConfig(port=0, bot_pace=0), store=Store(path))
    hosted = first.add_table(
        "crates", 2, {"short": True}, seed=12, fill_with_bots="normal", min_humans=1
    )
    port = await first.start()
    client = RemoteClient("127.0.0.1", port, "Sara", table=hosted.code)
    await client.connect()
    client.ask.ready(True)
    for _ in range(500):
        await asyncio.sleep(0.01)
        if hosted.table is not None and hosted.table.version >= 1:
            break
    assert hosted.table is not None
    # Sara makes a move if it is hers, then the server dies.
    update = client.latest
    assert update is not None
    if update.legal:
        client.submit(client.seat, update.legal[0])
        await asyncio.sleep(0.2)
    views = [hosted.table.state.view(seat) for seat in (None, 0, 1)]
    version, token = hosted.table.version, client.token
    await client.close()
    await first.close()
    first.store.close()

    second = Server(ServerConfig(port=0, bot_pace=0), store=Store(path))
    (again,) = second.restore_tables()
    assert again.code == hosted.code and again.table is not None
    assert again.table.version == version
    assert [again.table.state.view(seat) for seat in (None, 0, 1)] == views
    replayed = get_game("crates").replay(2, 12, {"short": True}, again.table.log)
    assert replayed.view(0) == views[1]
    port = await second.start()
    back = RemoteClient("127.0.0.1", port, "Sara", table=hosted.code)
    back.token = token  # (the token of her seat at that table: proven, never sent)
    final = await asyncio.wait_for(play_as_bot(back, "normal"), timeout=60)
    assert final["phase"] == "over"
    await second.close()
    record = second.store.record(again.store_id)
    assert record.seed == 12 and record.result is not None
    second.store.close()
