"""A hosting process killed with SIGKILL mid-game comes back from its database; nothing is lost."""

from __future__ import annotations

import asyncio
import signal

import pytest

from tablegames.net.client import RemoteClient
from tablegames.store import Store

from .processes import (
    LONGEST,
    STALLED,
    finish,
    free_port_outside_ephemeral_range,
    join_bot,
    joined_logs,
    start_host,
    stop,
)

pytestmark = pytest.mark.e2e


def highest_version_seen(port: int, at_least: int) -> int:
    """Watch the table as a spectator until it passes `at_least` actions, or the game ends,
    or the spectator is told nothing new for `STALLED` seconds (`LONGEST` in all); returns the
    last version seen."""

    async def watch() -> int:
        spectator = RemoteClient("127.0.0.1", port, "watcher", spectate=True)
        await spectator.connect()
        loop = asyncio.get_running_loop()
        began = heard = loop.time()
        news: tuple[object, object] = (None, None)  # the last update and seating seen
        while loop.time() < min(began + LONGEST, heard + STALLED):
            latest, presence = spectator.latest, spectator.presence
            if latest is not None and (latest.version >= at_least or latest.over):
                break
            if latest is not news[0] or presence is not news[1]:  # a move made, a seat taken
                news, heard = (latest, presence), loop.time()
            await asyncio.sleep(0.05)
        seen = spectator.latest.version if spectator.latest else 0
        await spectator.close()
        return seen

    return asyncio.run(watch())


def test_kill_9_and_restart_keeps_every_acknowledged_action(env, tmp_path):
    db = str(tmp_path / "host.db")
    port = free_port_outside_ephemeral_range()
    args = ("--players", "3", "--short", "--pace", "0", "--db", db, "--port", str(port))
    host, _ = start_host(env, *args)
    bots = [join_bot(env, port, f"p{i}", pace=0.02) for i in range(3)]
    try:
        acknowledged = highest_version_seen(port, at_least=25)
        if acknowledged == 0:
            for bot in bots:
                bot.kill()
            raise AssertionError(f"the game never got under way: {joined_logs(bots[0])}")
        host.send_signal(signal.SIGKILL)
        host.wait(timeout=10)
        host, port_again = start_host(env, *args, "--restore")
        assert port_again == port
        store = Store(db)
        (saved,) = [t for t in (store.load(i) for i in (1,))]
        assert len(saved.log) >= acknowledged  # nothing anyone was told about is lost
        store.close()
        results = [finish(bot) for bot in bots]
        assert len({tuple(r["scores"]) for r in results}) == 1
        store = Store(db)
        record = store.record(1)
        from tablegames.rules import get_game

        replayed = get_game("crates").replay(3, record.seed, record.options, record.log)
        assert replayed.over and replayed.result() == record.result  # none applied twice
        store.close()
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
        stop(host, timeout=10)
