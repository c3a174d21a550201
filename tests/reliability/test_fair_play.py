"""Fair play on a shared box and a LAN (issue 15): codes nobody guesses, chat nobody floods,
names and seats nobody takes from whoever proved them first, and a host who sees who is away.

Every attack here talks to loopback only; its counts go to `bench/reliability.py`'s scoreboard.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import multiprocessing
import os
import stat
from pathlib import Path

import pytest

from tablegames.net.admission import JOIN_CODE_ALPHABET, code_matches, new_join_code
from tablegames.net.client import RemoteClient, SeatTokens
from tablegames.net.console import HostConsole
from tablegames.net.guard import AttemptLimiter
from tablegames.net.protocol import PROTOCOL_VERSION
from tablegames.store import SavedSeat, Store
from tablegames.table import VirtualClock
from tablegames.testing.harness import (
    LOOPBACK,
    RawPeer,
    ServerRefused,
    read_until_closed,
    running_server,
    until,
)
from tablegames.testing.metrics import record
from tablegames.testing.scanner import split_frames

from .servers import server_with


async def say_hello(port: int, name: str, **fields: object) -> RawPeer:
    peer = await RawPeer.open(port)
    peer.send({"t": "hello", "v": PROTOCOL_VERSION, "name": name, **fields})
    return peer


async def answers(peer: RawPeer) -> list[dict]:
    """What the server said to `peer` until it hung up."""
    data = await read_until_closed(peer.reader)
    await peer.close()
    return [frame for _, frame in split_frames(data)]


# -- join codes --------------------------------------------------------------------------------
def test_join_codes_are_long_enough_that_guessing_is_hopeless_and_easy_to_type():
    codes = {new_join_code() for _ in range(200)}
    assert len(codes) == 200
    code = codes.pop()
    letters = code.replace("-", "")
    assert math.log2(len(JOIN_CODE_ALPHABET)) * len(letters) >= 40
    assert not set(letters) - set(JOIN_CODE_ALPHABET) and not set("01OIL") & set(letters)
    assert code_matches(f" {letters.lower()} ", code) and not code_matches(letters[:-1], code)


async def test_a_missing_code_says_how_to_give_one():
    async with running_server(code="7KQM-XH4P-2R") as (server, port):
        server.add_table("crates", 2)
        (refusal,) = await answers(await say_hello(port, "Sara"))
        assert refusal["code"] == "need-code"
        assert refusal["text"] == "this table needs a join code: add --code CODE"


async def test_guessing_the_code_locks_the_address_out_and_the_host_is_told(caplog):
    caplog.set_level(logging.INFO, "tablegames")
    clock = VirtualClock(1000.0)
    guard = AttemptLimiter(free=3, lock_after=10, lock_for=900, clock=clock)
    async with running_server(code="7KQM-XH4P-2R") as (server, port):
        server.party.guard = guard
        hosted = server.add_table("crates", 2)
        guesses = refused_early = 0
        for n in range(40):  # a patient guesser: it waits out every back-off but the lock-out
            wait = guard.refused_for("127.0.0.1")
            if wait < 60:
                clock.advance(wait)
            answer = await answers(await say_hello(port, "guesser", code=f"{n:010d}"))
            if answer[0]["code"] == "bad-code":
                guesses += 1
            else:
                assert answer[0]["code"] == "held-back", answer
                assert "try again in 15 minutes" in answer[0]["text"]
                refused_early += 1
        # Even the right code is refused while the address is locked out.
        (locked,) = await answers(await say_hello(port, "guesser", code="7KQM-XH4P-2R"))
        assert locked["code"] == "held-back"
        assert not any(seat.claimed for seat in hosted.seats)
    server.party.refusals.flush()
    assert guesses == 10 and refused_early == 30
    told = [r.getMessage() for r in caplog.records if "wrong join code" in r.getMessage()]
    # Summed: the first in full, the rest in a line (the host still learns of every one).
    assert told == [
        "wrong join code from 127.0.0.1 (1 wrong so far)",
        "turned guesser from 127.0.0.1 away: too many wrong join codes from your address: try "
        "again in 15 minutes",  # (the first held back: the others are summed)
        "refused 9 more wrong join codes from 127.0.0.1 in 1 s",
    ]
    assert all("0000" not in line for line in told)  # the guesses are not logged
    record("fairplay", max_code_guesses_before_lockout=guesses)


# -- chat ----------------------------------------------------------------------------------------
async def test_a_chat_flood_is_cut_to_the_rate_the_sender_told_then_closed(caplog):
    caplog.set_level(logging.INFO, "tablegames")
    async with running_server(chat_per_second=1.0, chat_burst=5) as (server, port):
        hosted = server.add_table("crates", 2)
        flooder, victim = await RawPeer.open(port), await RawPeer.open(port)
        await flooder.sit(hosted.code, 0, "ben")
        await victim.sit(hosted.code, 1, "ada")
        for n in range(500):
            flooder.send({"t": "chat", "text": f"spam {n} " + "x" * 400})
        received = bytearray()
        with contextlib.suppress(ConnectionResetError):  # closed with its flood still unread
            async with asyncio.timeout(10):
                while chunk := await flooder.reader.read(65536):
                    received += chunk
        told = [frame for _, frame in split_frames(bytes(received))]
        heard = [f for f in await victim.until_pong(timeout=20) if f["t"] == "chat"]
        refusals = [f for f in told if f["t"] == "error"]
        assert len(heard) <= 6 and "too fast" in refusals[0]["text"]
        # Past its refusals' allowance the flooder is closed: the server stops answering it.
        assert len(refusals) < 100
        for _ in range(100):
            if not any(client.name == "ben" for client in server.clients):
                break
            await asyncio.sleep(0.05)
        assert not any(client.name == "ben" for client in server.clients)
        assert all(len(line["text"]) <= 300 for line in heard)
        server.party.refusals.flush()
        logged = [r for r in caplog.records if "refused" in r.getMessage()]
        assert len(logged) <= 3, [r.getMessage() for r in logged]  # summed, not a line each
        record("fairplay", chat_sent=500, max_chat_delivered=len(heard))
        record("flood", max_log_lines=len(logged), lines_sent=500)
        for peer in (flooder, victim):
            await peer.close()


async def test_spectators_may_not_chat_unless_the_host_allows_and_are_marked_when_they_do():
    for allowed in (False, True):
        async with running_server(spectator_chat=allowed) as (server, port):
            hosted = server.add_table("crates", 2)
            player, watcher = await RawPeer.open(port), await RawPeer.open(port)
            await player.sit(hosted.code, 0, "ben")
            watcher.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "bea"})
            watcher.send({"t": "join", "table": hosted.code, "spectate": True})
            await watcher.until_pong()
            watcher.send({"t": "chat", "text": "i am \x1b[31mben\x1b[0m"})
            told = await watcher.until_pong()
            heard = [f for f in await player.until_pong() if f["t"] == "chat"]
            if allowed:
                (line,) = heard
                assert line["watching"] is True and line["name"] == "bea"
                assert "\x1b" not in line["text"]
            else:
                assert heard == []
                assert "spectators may not chat" in told[-1]["text"]
            for peer in (player, watcher):
                await peer.close()


async def test_a_client_keeps_and_shows_only_so_much_chat():
    async with running_server(chat_per_second=1000.0, chat_burst=1000) as (server, port):
        server.add_table("crates", 3)
        ada = RemoteClient(LOOPBACK, port, "ada")
        await ada.connect()
        ben = await RawPeer.open(port)
        await ben.sit(next(iter(server.tables)), 1, "ben")
        for n in range(300):
            ben.send({"t": "chat", "text": f"line {n}"})
        await ben.until_pong(timeout=10)
        await until(lambda: ada.chat_lines and ada.chat_lines[-1] == ("ben", "line 299"))
        assert len(ada.chat_lines) == 50
        await ada.close()
        await ben.close()


# -- names ----------------------------------------------------------------------------------------
async def test_names_are_unique_per_table_whatever_the_case_or_width():
    async with running_server() as (server, port):
        hosted = server.add_table("crates", 3)
        ben = await RawPeer.open(port)
        await ben.sit(hosted.code, 0, "ben")
        for other in ("BEN", "ｂｅｎ", "be\u200bn"):
            with pytest.raises(ServerRefused, match=r"someone called .* is already at this table"):
                await (await RawPeer.open(port)).sit(hosted.code, None, other)
        watcher = await RawPeer.open(port)
        watcher.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "Ben"})
        watcher.send({"t": "join", "table": hosted.code, "spectate": True})
        refusals = [f for f in await watcher.until_pong() if f["t"] == "error"]
        assert refusals and "already at this table" in refusals[0]["text"]
        assert [s.name for s in hosted.seats if s.claimed] == ["ben"]


async def test_a_name_a_key_owns_cannot_be_used_by_a_plain_join(tmp_path):
    store = Store(tmp_path / "party.db")
    from tablegames.names import name_key

    store.claim_name(name_key("ben"), "ben", "SHA256:key-of-ben")
    async with server_with(store) as (_server, port):
        (refusal,) = await answers(await say_hello(port, "Ben"))
        assert refusal["code"] == "name-taken" and "belongs to a player" in refusal["text"]


# -- seats and connections ----------------------------------------------------------------------
async def test_a_second_terminal_with_the_token_takes_the_seat_and_the_first_is_told():
    async with running_server() as (server, port):
        hosted = server.add_table("crates", 2)
        first = RemoteClient(LOOPBACK, port, "ben", table=hosted.code)
        await first.connect()
        second = RemoteClient(LOOPBACK, port, "ben", table=hosted.code)
        second.token = first.token
        other = RemoteClient(LOOPBACK, port, "ada", table=hosted.code)
        await other.connect()
        news: list[str] = []
        other.listen_notices(lambda kind, text: news.append(text))
        await second.connect()
        await until(lambda: first.ended)
        assert first.ended == "your seat was taken by another terminal (it had your seat's token)"
        assert not await first.reconnect()  # it does not fight for the seat
        assert hosted.seats[0].peer is not None and second.seat == 0
        await until(lambda: "ben's seat moved to another terminal." in news)
        for client in (first, second, other):
            await client.close()


async def test_a_seat_comes_back_under_another_address_of_the_same_server(tmp_path):
    tokens = SeatTokens(tmp_path / "seats.json")
    async with running_server() as (server, port):
        hosted = server.add_table("crates", 2)
        first = RemoteClient("localhost", port, "ben", table=hosted.code, tokens=tokens)
        await first.connect()
        hosted.start()  # the game is on: a stranger could not sit down now
        await first.close()
        again = RemoteClient(LOOPBACK, port, "ben", tokens=tokens)
        await again.connect()
        assert again.seat == first.seat == 0 and again.table_code == hosted.code
        await again.close()


def _sit_many(path: str, player: str) -> None:
    tokens = SeatTokens(Path(path))
    for table in range(20):
        tokens.put("server", "127.0.0.1:4747", player, f"T{table}", f"{player}-{table}")


def test_terminals_sitting_down_at_once_keep_every_token(tmp_path):
    """Eight processes of one user save tokens at the same time: none is lost or half-read."""
    path = tmp_path / "seats.json"
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_sit_many, args=(str(path), f"p{n}")) for n in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    tokens = SeatTokens(path)
    for n in range(8):
        held = tokens.get("server", "127.0.0.1:4747", f"p{n}")
        assert held == {f"T{table}": f"p{n}-{table}" for table in range(20)}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["seats.json", "seats.json.lock"]


async def test_the_host_sees_who_is_away_and_gives_the_seat_to_a_bot_or_frees_it():
    clock = VirtualClock(1000.0)
    async with server_with(clock=clock, bot_pace=0) as (server, port):
        hosted = server.add_table("crates", 3, {"short": True})
        console = HostConsole(server.party, say=lambda text: None)
        players = [RemoteClient(LOOPBACK, port, name, table=hosted.code) for name in "abc"]
        for client in players:
            await client.connect()
            client.ask.ready(True)
        await until(lambda: hosted.table is not None)  # every seat taken and ready: it began
        await players[1].close()
        await until(lambda: hosted.seats[1].away_since is not None)
        clock.advance(190)
        lines = console.run("tables")
        assert "2. b, away 3 min" in lines
        assert console.run("bot 2 random") == f"Table {hosted.code}: done."
        assert hosted.table.bots[1] and hosted.seats[1].bot_level == "random"
        assert "2. b (bot)" in console.run("tables")
        assert console.run(f"free {hosted.code} 3") == f"Table {hosted.code}: done."
        await until(lambda: players[2].ended)
        assert players[2].ended == "the host let a bot play your seat until you come back to it"
        assert 2 in hosted.table.bots
        newcomer = RemoteClient(LOOPBACK, port, "dee", table=hosted.code)
        with pytest.raises(ServerRefused, match="the game has begun"):
            await newcomer.connect()  # nobody else takes a seat (nor its hand) mid-game
        back = RemoteClient(LOOPBACK, port, "c", table=hosted.code)
        back.keep_token(players[2].token)  # (as `join` keeps it on disk)
        await back.connect()  # its own player, with the seat's token
        assert back.seat == 2 and 2 not in hosted.table.bots
        players.append(back)
        assert console.run("bot 9").startswith("Cannot: there is no seat 9")
        assert console.run("dance").startswith("No command 'dance'")
        for client in (*players, newcomer):
            await client.close()


async def test_bots_fill_empty_seats_only_when_the_host_starts_or_enough_humans_are_ready():
    async with running_server(bot_pace=0) as (server, port):
        waits = server.add_table("crates", 4, fill_with_bots="normal")
        counts = server.add_table("crates", 4, fill_with_bots="normal", min_humans=2)
        sara = RemoteClient(LOOPBACK, port, "sara", table=waits.code)
        await sara.connect()
        sara.ask.ready(True)
        await until(lambda: waits.seats[0].ready)  # (a deal would have come with it)
        assert waits.table is None  # a friend joining a moment later still finds a seat
        assert sara.presence is not None
        seats = sara.presence.seats
        assert [s.will_be_bot for s in seats] == [None, "normal", "normal", "normal"]
        assert "when the host starts it" in sara.presence.starts
        ben = RemoteClient(LOOPBACK, port, "ben", table=waits.code)
        await ben.connect()
        assert ben.seat == 1
        console = HostConsole(server.party, say=lambda text: None)
        said = console.run(f"start {waits.code}")  # now: a bot plays for ben until he is ready
        assert said == (
            f"Table {waits.code}: the game begins; a bot plays for ben until they say they are "
            "ready (r)."
        )
        assert waits.table is not None
        assert [s.bot_level for s in waits.seats] == [None, None, "normal", "normal"]
        assert waits.seats[1].standin and 1 in waits.table.bots

        ada, dan = (RemoteClient(LOOPBACK, port, n, table=counts.code) for n in ("ada", "dan"))
        await ada.connect()
        ada.ask.ready(True)
        await until(lambda: counts.seats[0].ready)
        assert counts.table is None
        await dan.connect()
        dan.ask.ready(True)
        await until(lambda: counts.table is not None)  # two humans ready: the configured number
        for client in (sara, ben, ada, dan):
            await client.close()


def test_files_holding_game_state_or_tokens_are_readable_by_nobody_else(tmp_path):
    """The scoreboard's count: everything tablegames wrote under a permissive umask."""
    old = os.umask(0)
    try:
        home = tmp_path / "home"
        home.mkdir(mode=0o755)
        store = Store(home / "tablegames.db")
        table_id = store.create_table("ABCD", "crates", 2, {}, "server")
        store.start_table(table_id, 1, [SavedSeat(0, "a"), SavedSeat(1, "b")])
        store.append_action(table_id, 0, 0, {"type": "draw"}, 0.0)
        SeatTokens(home / "seats.json").put("server", "127.0.0.1:4747", "ben", "ABCD", "token")
    finally:
        os.umask(old)
    written = [p for p in Path(home).iterdir() if p.is_file()]
    assert len(written) == 5  # the database, its -wal and -shm, the seat tokens and their lock
    readable = [p.name for p in written if stat.S_IMODE(p.stat().st_mode) & 0o077]
    record("fairplay", files_written=len(written), files_readable_by_others=len(readable))
    assert readable == []
