"""A short party night, measured: how long a table waits on someone who is not there, and how
soon someone who drops is back at their seat.

    .venv/bin/python bench/party_night.py [--takeover 2] [--seconds 40]
    .venv/bin/python bench/party_night.py --ssh      # also a dropped `ssh`, back at its seat
    .venv/bin/python bench/party_night.py --phones   # the whole night with phones, instead

In-process, on loopback: a party server (`--takeover` seconds, bots paced `--pace`) and party
logins (the tickets SSH and browser sessions use) played by client-side bots that answer after
a person's pause. Two tables at once: ana and bob at crates, cat at roach; mid-game ana goes
back to the lobby and opens a roach table of her own, bob drops and logs in again 3 s later,
dan arrives late and watches cat's table, and the host gives cat's seat to a bot once she has
gone to the lobby. Printed, nothing passes or fails:

- per table, actions a minute and the longest wait on an absent player: from the moment the
  game waits on a seat whose person is away (gone, or in the lobby) until that table's next
  action (a bot standing in after `--takeover`, or the person back);
- reconnect-to-seat: from a new login to its `seated` answer (TCP), and with `--ssh`, from
  starting `ssh` again after the last was killed to its hand on the screen.

`--phones` runs the night with phones instead (`tests/web/test_party_night_with_phones.py`,
about 15 minutes: a real `serve --web`, three OpenSSH clients, two headless-Chromium phones
playing by taps, the four games) and prints what it measured: per table, actions a minute and
the longest wait on an absent player; reconnect-to-seat for a killed `ssh` and for a phone's
closed tab (to the hand on screen); tap-to-screen, from a phone's tap to its screen's next
change (median, p90, max; a change the tap did not cause, a bot's move, counts too).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` and `tablegames` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablegames.bots import get_bot
from tablegames.net.client import RemoteClient
from tablegames.net.client_protocol import ConnectionLost
from tablegames.net.console import HostConsole
from tablegames.net.hosting import HostedTable
from tablegames.net.messages import Lobby, Seated
from tablegames.net.party import Login
from tablegames.net.seat_life import Life
from tablegames.net.server import Server, ServerConfig

LOOPBACK = "127.0.0.1"
PAUSE = 0.4  # a person's pause before answering


class Watch:
    """Action times of the party's tables, and the longest wait on an absent player at each."""

    def __init__(self) -> None:
        self.actions: dict[str, list[float]] = {}
        self.waiting_since: dict[str, float] = {}
        self.longest: dict[str, float] = {}

    def follow(self, hosted: HostedTable) -> None:
        assert hosted.table is not None
        times = self.actions.setdefault(hosted.code, [])
        hosted.table.on_action(lambda accepted: self._acted(hosted.code, times))

    def _acted(self, code: str, times: list[float]) -> None:
        now = time.monotonic()
        times.append(now)
        since = self.waiting_since.pop(code, None)
        if since is not None:
            self.longest[code] = max(self.longest.get(code, 0.0), now - since)

    def finish(self) -> None:
        """A wait still open at the end counts until now (a table that never moved again)."""
        now = time.monotonic()
        for code, since in self.waiting_since.items():
            self.longest[code] = max(self.longest.get(code, 0.0), now - since)

    def sample(self, tables: Mapping[str, HostedTable]) -> None:
        """Note each table that now waits on an absent person (from when it started to)."""
        now = time.monotonic()
        for code, hosted in tables.items():
            table = hosted.table
            if table is None or table.over or code not in self.actions:
                continue
            awaited = table.state.waiting_for()
            absent = any(hosted.seats[seat].life is Life.AWAY for seat in awaited)
            if absent and code not in self.waiting_since:
                last = self.actions[code][-1] if self.actions[code] else now
                self.waiting_since[code] = max(last, now - 0.05)
            elif not absent and code in self.waiting_since:
                since = self.waiting_since.pop(code)
                self.longest[code] = max(self.longest.get(code, 0.0), now - since)


async def play(client: RemoteClient, stop: asyncio.Event) -> None:
    """Play `client`'s seat with a normal bot after a person's pause, until `stop` or the end."""
    acted_on = -1
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(0.2):
                if isinstance(await client.next_event(), ConnectionLost):
                    return
        update, game = client.latest, client.game
        if update is None or game is None or client.seat is None or update.over:
            continue
        if update.version == acted_on or not update.legal or client.seat not in update.waiting:
            continue
        bot = get_bot(game.name, "normal", client.seat, random.Random(secrets.randbits(32)))
        action = bot.choose(update.view, update.legal)
        await asyncio.sleep(PAUSE)
        if action is not None and client.latest is update:
            acted_on = update.version
            client.submit(client.seat, action)


async def night(args: argparse.Namespace) -> dict[str, Any]:
    config = ServerConfig(host=LOOPBACK, port=0, bot_pace=args.pace, takeover_after=args.takeover)
    server = Server(config)
    port = await server.start()
    watch, stop = Watch(), asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    playing: dict[str, asyncio.Task[None]] = {}  # each person's player, while at a table
    reconnects: list[float] = []

    def plays(client: RemoteClient) -> None:
        playing[client.name] = asyncio.create_task(play(client, stop))
        tasks.append(playing[client.name])

    async def stops_playing(client: RemoteClient) -> None:
        task = playing.pop(client.name)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    def login(name: str) -> RemoteClient:
        holder = f"{name}@{LOOPBACK}"
        ticket = server.party.doors.ticket_for(Login(name, None, holder, LOOPBACK))
        return RemoteClient(LOOPBACK, port, name, ticket=ticket)

    async def open_table(client: RemoteClient, game: str, players: int) -> HostedTable:
        await client.greet()
        options = {"short": True} if game == "crates" else {}
        client.ask.new_table(game, players, bots="normal", options=options)
        await client._expect(Seated)
        assert client.table_code is not None
        return server.tables[client.table_code]

    def start(client: RemoteClient) -> None:
        client.ask.start_now()
        plays(client)

    async def dealt(hosted: HostedTable) -> None:
        while hosted.table is None:
            await asyncio.sleep(0.01)
        watch.follow(hosted)

    async def sampler() -> None:
        while not stop.is_set():
            watch.sample(server.tables)
            await asyncio.sleep(0.02)

    tasks.append(asyncio.create_task(sampler()))
    began = time.monotonic()
    ana, bob, cat, dan = login("ana"), login("bob"), login("cat"), login("dan")
    crates = await open_table(ana, "crates", 3)
    await bob.greet()
    bob.ask.join(crates.code)
    await bob._expect(Seated)
    bob.ask.ready(True)
    start(ana)
    plays(bob)
    roach = await open_table(cat, "roach", 3)
    start(cat)
    await asyncio.gather(dealt(crates), dealt(roach))
    await asyncio.sleep(args.seconds / 4)
    await stops_playing(ana)
    ana.ask.leave()  # back to the lobby mid-game: her seat is away, a bot after the takeover
    await ana._expect(Lobby)
    await asyncio.sleep(args.seconds / 8)
    ana.ask.new_table("roach", 2, bots="normal")
    await ana._expect(Seated)
    assert ana.table_code is not None
    own = server.tables[ana.table_code]
    start(ana)
    await dealt(own)
    await stops_playing(bob)
    await bob.close()  # bob's connection drops
    await asyncio.sleep(3)
    bob = login("bob")
    asked = time.monotonic()
    await bob.greet()  # back where he was: his crates seat
    reconnects.append(time.monotonic() - asked)
    plays(bob)
    await dan.greet()
    dan.ask.join(roach.code, spectate=True)  # a late watcher
    await stops_playing(cat)
    cat.ask.leave()
    await cat._expect(Lobby)
    HostConsole(server.party).run(f"bot {roach.code} 1")  # the host: a bot plays cat's seat
    await asyncio.sleep(max(args.seconds - (time.monotonic() - began), 1.0))
    stop.set()
    watch.finish()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    minutes = (time.monotonic() - began) / 60
    tables = {
        code: {
            "actions_per_minute": round(len(times) / minutes),
            "longest_wait_on_absent_s": round(watch.longest.get(code, 0.0), 2),
        }
        for code, times in watch.actions.items()
    }
    for client in (ana, bob, cat, dan):
        await client.close()
    await server.close()
    return {
        "takeover_s": args.takeover,
        "bot_pace_s": args.pace,
        "tables": tables,
        "longest_wait_on_absent_s": max(t["longest_wait_on_absent_s"] for t in tables.values()),
        "reconnect_to_seat_tcp_ms": [round(1000 * s) for s in reconnects],
    }


def over_ssh(args: argparse.Namespace) -> dict[str, Any]:
    """`tablegames serve`, a key's `ssh` at a table, the client killed, `ssh` again: how long
    from starting it to the seat on screen (median of `--drops`)."""
    from bench.figures import median
    from bench.ssh_sessions import Client, wait_until_ready

    home = Path(tempfile.mkdtemp(prefix="party-night-"))
    key = home / "ana"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    out = (home / "serve.out").open("w")
    command = [sys.executable, "-m", "tablegames", "serve", "--ssh", "0", "--port", "0"]
    command += ["--takeover", str(args.takeover), "--pace", str(args.pace)]
    env = {**os.environ, "TABLEGAMES_HOME": str(home)}
    serve = subprocess.Popen(
        command, stdout=out, stderr=subprocess.STDOUT, env=env, stdin=subprocess.DEVNULL
    )
    times: list[float] = []
    clients: list[Any] = []
    try:
        deadline = time.monotonic() + 30
        said = ""
        while "ssh -p" not in said and time.monotonic() < deadline:
            time.sleep(0.1)
            said = (home / "serve.out").read_text()
        port = int(said.split("ssh -p ")[1].split()[0])
        known = home / "known_hosts"
        ana = Client(port, "ana", key, known)
        clients.append(ana)
        wait_until_ready([ana], b"No tables yet", 30)
        for keys, marker in ((b"n", b"A new table"), (b"\r", b"start now"), (b"s", b"Your hand")):
            ana.output, ana.ready_after = bytearray(), None
            os.write(ana.master, keys)
            wait_until_ready([ana], marker, 30)
        for _ in range(args.drops):
            ana.process.kill()
            ana.process.wait(5)
            time.sleep(1.0)
            ana = Client(port, "ana", key, known)
            clients.append(ana)
            wait_until_ready([ana], b"Your hand", 30)
            times.append(ana.ready_after or 0.0)
    finally:
        for client in clients:
            with contextlib.suppress(OSError):
                client.close()
        serve.terminate()
        serve.wait(15)
    return {"reconnect_to_seat_ssh_ms": round(1000 * median(times)), "ssh_drops": len(times)}


def with_phones() -> dict[str, Any]:
    """The night with phones, run as its test; its figures, from the record it leaves."""
    from bench.figures import spread_ms
    from tablegames.testing.metrics import ENV

    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="phone-night-") as folder:
        metrics = Path(folder) / "metrics.jsonl"
        test = "tests/web/test_party_night_with_phones.py"
        ran = subprocess.run(
            [sys.executable, "-m", "pytest", test, "-m", "slow", "-n", "0", "-q"],
            cwd=root,
            env={**os.environ, ENV: str(metrics)},
            timeout=45 * 60,
        )
        lines = metrics.read_text().splitlines() if metrics.exists() else []
    night = next((json.loads(line) for line in lines if '"night_phones"' in line), None)
    if night is None:
        raise SystemExit(f"the night with phones measured nothing (pytest: {ran.returncode})")
    tables = night["tables"]
    return {
        "tables": {
            code: {
                "game": table["game"],
                "actions_per_minute": table["actions_per_minute"],
                "longest_wait_on_absent_s": table["longest_absent_wait_s"],
            }
            for code, table in tables.items()
        },
        "longest_wait_on_absent_s": max(t["longest_absent_wait_s"] for t in tables.values()),
        "reconnect_to_seat_ssh_s": night["ssh_back_s"],
        "reconnect_to_seat_phone_s": night["phone_back_s"],
        "tap_to_screen_ms": spread_ms([ms / 1000 for ms in night["tap_to_screen_ms"]]),
        "taps": len(night["tap_to_screen_ms"]),
        "frames_scanned_for_leaks": night["frames_scanned"],
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--takeover", type=float, default=2.0)
    parser.add_argument("--pace", type=float, default=0.3)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--ssh", action="store_true")
    parser.add_argument("--drops", type=int, default=3)
    parser.add_argument("--phones", action="store_true")
    args = parser.parse_args(argv)
    if args.phones:
        figures = with_phones()
        print(json.dumps(figures, indent=2))
        return figures
    figures = asyncio.run(night(args))
    if args.ssh:
        figures.update(over_ssh(args))
    print(json.dumps(figures, indent=2))
    return figures


if __name__ == "__main__":
    main()
