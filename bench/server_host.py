"""A bench server in its own process: `Server` hosting many tables of a game, no bots, no store.

    python -m bench.server_host --tables 250 --players 4 [--game crates] [--loop uvloop]

Prints one JSON line once listening ({"port", "codes", "rss_idle_kb", "rss_tables_kb", "pid",
"loop"}) and serves until stdin closes or it is sent SIGTERM. Only binds 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import resource
import signal
import sys
import time
from collections.abc import Coroutine
from typing import Any


def rss_kb(pid: int | str = "self") -> int:
    """Resident set size of a process in KiB (from /proc; 0 where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def load_plugins() -> None:
    """Register the games from elsewhere (installed packages, ``TABLEGAMES_GAMES``) as the
    command line does, where the package knows them (an older revision may not)."""
    try:
        from tablegames.rules import load_games
    except ImportError:
        return
    load_games()


def raise_fd_limit() -> int:
    """Lift the soft open-files limit to the hard one (for a thousand sockets); the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def run_on(loop: str, work: Coroutine[Any, Any, None]) -> None:
    """Run `work` to its end on the event loop named `loop` ("asyncio" or "uvloop"), with the
    open-files limit lifted first."""
    raise_fd_limit()
    if loop == "uvloop":
        import uvloop

        uvloop.run(work)
    else:
        asyncio.run(work)


async def serve(args: argparse.Namespace) -> None:
    from tablegames.net.server import Server, ServerConfig

    load_plugins()

    idle = rss_kb()
    config = ServerConfig(host="127.0.0.1", port=0, scheduled_collector=not args.gc_as_before)
    if args.heartbeat is not None:  # experiments: how much the ping bursts cost the tail
        config.heartbeat, config.idle_limit = args.heartbeat, 3 * args.heartbeat
    if args.no_gc:
        gc.disable()  # experiments: how much the collector's pauses cost the tail
    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    if args.gc_report:
        started: list[float] = [0.0]

        def timing(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                started[0] = time.perf_counter()
            else:
                pauses[info["generation"]].append(time.perf_counter() - started[0])

        gc.callbacks.append(timing)
    server = Server(config)
    codes = [
        server.add_table(args.game, args.players, seed=args.seed + index, code=f"B{index:04d}").code
        for index in range(args.tables)
    ]
    port = await server.start()
    info: dict[str, Any] = {
        "port": port,
        "codes": codes,
        "rss_idle_kb": idle,
        "rss_tables_kb": rss_kb(),
        "loop": args.loop,
    }
    print(json.dumps(info), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    if args.gc_freeze_every:

        def freeze() -> None:  # experiments: move survivors out of the full collections' way
            gc.freeze()
            loop.call_later(args.gc_freeze_every, freeze)

        loop.call_later(args.gc_freeze_every, freeze)
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_reader(sys.stdin.fileno(), lambda: stop.set() if not sys.stdin.readline() else None)
    await stop.wait()
    await server.close()
    if args.gc_report:
        report = {
            f"gen{gen}": {
                "count": len(times),
                "max_ms": round(1000 * max(times, default=0), 2),
                "total_ms": round(1000 * sum(times), 1),
            }
            for gen, times in pauses.items()
        }
        print(json.dumps({"gc": report}), file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="crates", help="the game every table plays")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--loop", choices=("asyncio", "uvloop"), default="asyncio")
    parser.add_argument(
        "--heartbeat", type=float, help="seconds between pings (default: as shipped)"
    )
    parser.add_argument("--no-gc", action="store_true", help="switch the cyclic collector off")
    parser.add_argument("--gc-report", action="store_true", help="time collections (to stderr)")
    parser.add_argument("--gc-freeze-every", type=float, help="gc.freeze() every so many seconds")
    parser.add_argument(
        "--gc-as-before", action="store_true", help="no collector schedule (the old baseline)"
    )
    args = parser.parse_args(argv)
    run_on(args.loop, serve(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
