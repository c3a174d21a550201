"""How long the event loop of `join --bot` stalls while its bot thinks: a tick due every 10 ms
is timed over whole games (the loop's lag: how late each tick ran), the bot a `hard` generic
one (a decision may take up to a second) against a server's bots over loopback. The server
runs on its own loop in a thread, as it would in its own process. Figures only.

    nice -n 10 .venv/bin/python -m bench.join_bot_lag --games 3
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import threading
import time
from typing import Any

from tablegames.net.client import RemoteClient
from tablegames.net.join_bot import play_as_bot
from tablegames.net.server import Server, ServerConfig
from tablegames.rules.core import load

from .figures import save_json

PLUGIN = "tests.plugins.loveletter:LOVELETTER"
TICK = 0.01  # seconds between the ticks the lag is measured on


class ServerThread:
    """A server on a loop of its own, in a thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = Server(ServerConfig(port=0, bot_pace=0.0))
        self.port = self.run(self.server.start())

    def run(self, work: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout=60)

    def close(self) -> None:
        self.run(self.server.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


async def lag_over(work: Any) -> list[float]:
    """Run `work` while ticking every `TICK`; returns how late each tick was, in seconds."""
    lags: list[float] = []
    done = asyncio.ensure_future(work)
    while not done.done():
        due = time.perf_counter() + TICK
        await asyncio.wait({done}, timeout=TICK)
        lags.append(max(time.perf_counter() - due, 0.0))
    done.result()
    return lags


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plugin", default=PLUGIN, help="the game, as package.module:NAME")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args(argv)
    game = load(args.plugin).name
    host = ServerThread()
    lags: list[float] = []
    started = time.perf_counter()
    try:
        for number in range(args.games):
            hosted = host.server.add_table(
                game, args.players, seed=number, fill_with_bots="normal", min_humans=1
            )
            client = RemoteClient("127.0.0.1", host.port, f"Bot{number}", table=hosted.code)
            lags += asyncio.run(lag_over(play_as_bot(client, args.level)))
    finally:
        host.close()
    seconds = time.perf_counter() - started
    ms = sorted(lag * 1000 for lag in lags)
    figures = {
        "game": game,
        "level": args.level,
        "games": args.games,
        "seconds": round(seconds, 1),
        "ticks": len(ms),  # at most one per TICK: fewer when the loop was held up
        "p50_ms": round(statistics.median(ms), 1),
        "p99_ms": round(ms[int(0.99 * (len(ms) - 1))], 1),
        "max_ms": round(ms[-1], 1),
        "ticks_over_100_ms": sum(1 for lag in ms if lag > 100),
    }
    print(
        f"{game}, a {args.level} bot over loopback, {args.games} games: the loop's lag p50 "
        f"{figures['p50_ms']} ms, p99 {figures['p99_ms']} ms, max {figures['max_ms']} ms; "
        f"{figures['ticks_over_100_ms']} of {len(ms)} ticks over 100 ms, in {seconds:.1f} s"
    )
    save_json(args.json, figures)
    return figures


if __name__ == "__main__":
    main()
