"""Ratings worth trusting (issue 47, item 6), tried as a party's guests would with their own
client: a table opened against random bots and walked away from earns its opener nothing; a
name taken over `join` (released by the host, or used without a key) adds nothing to the
rating of the friend who had it; a browser guest's rating is their cookie's, not their name's;
and `history` says seat by seat whom `stats` counted each seat for.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tablegames.cli import app
from tablegames.net.console import HostConsole
from tablegames.net.party import Login
from tablegames.net.proofs import ClientKey
from tablegames.net.server import Server, ServerConfig
from tablegames.store import Store
from tablegames.testing.harness import LOOPBACK, RawPeer, until

from .guest import answers, greeted, play_out, proven, refusals

WAIT = 60.0  # seconds a whole game of bots may take (a bound, never a measure)
QUICK = {"t": "create", "game": "crates", "players": 2, "options": {"short": True}}
FARMED = 3  # games the farmer opens and walks away from


@contextlib.asynccontextmanager
async def party(store: Store) -> AsyncIterator[Server]:
    """The join port of a party whose bots move at once and stand in at once for whoever
    walks away (`serve --takeover`)."""
    config = ServerConfig(host=LOOPBACK, port=0, bot_pace=0.0, takeover_after=0.0)
    server = Server(config, store=store)
    await server.start()
    try:
        yield server
    finally:
        await server.close()


def new_key() -> ClientKey:
    """A lasting key of `tablegames join`'s kind, made for one guest of the test."""
    return ClientKey(secrets.token_bytes(32))


async def a_game_against(guest: RawPeer, bots: str, store: Store) -> None:
    """`guest` opens a quick crates table against a bot of level `bots`, deals and plays every
    one of their moves to the end; returns once the game is saved as finished."""
    finished = len(store.history())
    assert refusals(await answers(guest, {**QUICK, "bots": bots})) == []
    guest.send({"t": "start"})
    await play_out(guest, 0, WAIT)
    await until(lambda: len(store.history()) > finished, WAIT, "the game to be saved")


def crates(store: Store) -> dict[str, list[dict[str, Any]]]:
    """The crates ratings by name: every row of that name."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for row in store.stats("crates"):
        rows.setdefault(row["name"], []).append(row)
    return rows


async def test_a_table_left_to_random_bots_earns_its_opener_nothing(tmp_path: Path):
    """The farm: open a table against a random bot, deal, walk away; a bot stands in and beats
    it. Today's opener topped `stats` without a move; now the seat is the stand-in's."""
    store = Store(tmp_path / "party.db")
    async with party(store) as server:
        port = server.port
        assert port is not None
        farmer_key = new_key()
        for farmed in range(1, FARMED + 1):
            farmer = await proven(port, "Farmer", farmer_key)
            assert refusals(await answers(farmer, {**QUICK, "bots": "random"})) == []
            assert refusals(await answers(farmer, {"t": "start"})) == []
            await farmer.close()  # gone, without a move
            await until(lambda n=farmed: len(store.history()) == n, WAIT, f"farmed game {farmed}")
        ben = await proven(port, "Ben", new_key(), "127.0.0.3")  # plays his own moves
        await a_game_against(ben, "random", store)
        await ben.close()
    rated = crates(store)
    assert "Farmer" not in rated, rated["Farmer"]
    assert [row["played"] for row in rated["Ben"]] == [1]
    farmed_games = [entry for entry in store.history() if entry["players"][0] == "Farmer"]
    assert len(farmed_games) == FARMED
    for entry in farmed_games:  # each farmed seat counted for the bot that played it
        assert entry["seats"][0]["rated_as"] == "normal bot", entry
    store.close()


async def test_a_name_taken_over_join_adds_nothing_to_its_old_owners_rating(tmp_path: Path):
    """Sara plays over `join` with her key; the host releases her name; a guest joins as
    Sara from another machine without a key and plays. Her rating is hers alone; the guest is
    rated for nobody, and with a key of their own is a player of their own."""
    store = Store(tmp_path / "party.db")
    async with party(store) as server:
        port = server.port
        assert port is not None
        sara = await proven(port, "Sara", new_key(), "127.0.0.2")
        await a_game_against(sara, "normal", store)
        await sara.close()
        (before,) = crates(store)["Sara"]
        said = HostConsole(server.party).run("release Sara")
        assert said.startswith("The name Sara is free"), said
        forger = await greeted(port, "Sara", "127.0.0.3")  # no key: a name, proving nothing
        await a_game_against(forger, "normal", store)
        await forger.close()
        (after,) = crates(store)["Sara"]
        assert (after["identity"], after["played"]) == (before["identity"], 1)
        assert after["rating"] == before["rating"]
        (forged, _) = store.history(2)  # one side left: the game is rated for nobody
        assert not forged["rated"]
        assert [seat["rated_as"] for seat in forged["seats"]] == [None, None]
        with_key = await proven(port, "Sara", new_key(), "127.0.0.3")
        await a_game_against(with_key, "normal", store)
        await with_key.close()
    two = crates(store)["Sara"]
    assert sorted(row["played"] for row in two) == [1, 1]
    assert len({row["identity"] for row in two}) == 2  # two people, two ratings
    store.close()


async def test_a_browser_guests_rating_is_their_cookies_not_their_names(tmp_path: Path):
    """A phone's guest (`guest-ana`, held under their cookie) plays; an SSH guest without a
    key, given the same name from another address, plays too: only the phone's game counts
    for the phone's guest, and the keyless guest is rated for nobody."""
    store = Store(tmp_path / "party.db")
    async with party(store) as server:
        port = server.port
        assert port is not None
        phone = Login("guest-ana", None, "web:" + secrets.token_urlsafe(16), "127.0.0.2")
        ana = await greeted(port, "x", ticket=server.party.doors.ticket_for(phone))
        await a_game_against(ana, "normal", store)
        await ana.close()
        ssh_guest = Login("guest-ana", None, "ana@127.0.0.4", "127.0.0.4")
        other = await greeted(port, "x", ticket=server.party.doors.ticket_for(ssh_guest))
        await a_game_against(other, "normal", store)
        await other.close()
    (phone_row,) = crates(store)["guest-ana"]
    assert phone_row["played"] == 1
    assert phone_row["identity"].startswith("web:")
    assert "ana" not in phone_row["identity"]  # (a hash of the cookie's holder, not a name)
    store.close()


async def test_history_and_stats_agree_about_a_seat_the_host_gave_to_a_bot(
    tmp_path: Path, monkeypatch
):
    """Sara and Tom sit down and the game is dealt; the host gives Tom's seat to a bot, which
    plays it out. `stats` counts that seat for the bot, and `history` says so for that seat."""
    monkeypatch.setenv("TABLEGAMES_HOME", str(tmp_path))
    store = Store()  # the store `history` and `stats` read
    async with party(store) as server:
        port = server.port
        assert port is not None
        sara = await proven(port, "Sara", new_key(), "127.0.0.2")
        assert refusals(await answers(sara, {**QUICK, "bots": "normal"})) == []
        (code,) = server.party.tables
        tom = await proven(port, "Tom", new_key(), "127.0.0.3")
        assert refusals(await answers(tom, {"t": "join", "table": code})) == []
        assert refusals(await answers(tom, {"t": "ready", "ready": True})) == []
        sara.send({"t": "ready", "ready": True})
        await until(lambda: server.party.tables[code].table is not None, WAIT, "the deal")
        said = HostConsole(server.party).run(f"bot {code} 2")
        assert said == f"Table {code}: done.", said
        await play_out(sara, 0, WAIT)
        await until(lambda: len(store.history()) == 1, WAIT, "the game to be saved")
        await sara.close()
        await tom.close()
    runner = CliRunner()
    shown = runner.invoke(app, ["history"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert "Tom as normal bot" in shown.output
    listed = runner.invoke(app, ["history", "--json"])
    assert listed.exit_code == 0, listed.output
    (game,) = json.loads(listed.output)["games"]
    rated = runner.invoke(app, ["stats", "crates", "--json"])
    rows = {row["name"]: row for row in json.loads(rated.output)["games"]["crates"]}
    assert sorted(rows) == ["Sara", "normal bot"]
    for seat in game["seats"]:  # seat by seat: whom history names, stats counted, win for win
        row = rows[seat["rated_as"]]
        assert (row["played"], row["won"]) == (1, int(seat["won"])), (seat, row)
    store.close()
