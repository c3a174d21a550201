"""Server load: T tables × S headless bot clients over loopback, at a realistic pace and flat out.

The server (`bench.server_host`) and the clients (`bench.load_clients`) run in their own
processes, so the server's CPU and memory are its own; they talk over 127.0.0.1 only. Each
variant (the server on asyncio's loop, then on uvloop when installed) goes: connect every seat,
a paced phase (each table acts `rate` times a second), a flat-out phase (each table acts as soon
as its last update arrives). Every phase is bounded in time; the processes are always ended.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tablegames.rules import GAMES

from .figures import median, speed_line
from .server_host import rss_kb

if TYPE_CHECKING:
    from .engine_ab import Side

ROOT = Path(__file__).resolve().parent.parent
#: The server before its collector schedule (`tablegames/net/collector.py`), measured beside it.
TUNED_ARGS = ("--gc-as-before",)
TARGET = {"tables": 250, "clients_per_table": 4, "rate": 1.0, "p99_ms": 20.0}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far (0.0 where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def python_path(first: Path) -> str:
    """PYTHONPATH with `first` before what it already holds (where games from elsewhere,
    ``TABLEGAMES_GAMES``, are found)."""
    return os.pathsep.join(filter(None, [str(first), os.environ.get("PYTHONPATH")]))


class Child:
    """A bench process we started: JSON lines out, commands in, always ended by its own pid.

    It imports `bench` and `tablegames` from `path`: the work tree, or a folder that pairs the
    work tree's bench with a revision's package (`engine_ab.Side`).
    """

    def __init__(self, module: str, *args: str, path: Path = ROOT) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(path), os.environ.get("PYTHONPATH")])),
        }
        self.module = module
        self.process = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            cwd=path,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.pid = self.process.pid
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def read(self, timeout: float) -> dict[str, Any]:
        """The next JSON line it prints; TimeoutError (with its stderr tail) if none in time."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"{self.module}: no answer in {timeout:.0f} s") from None
        answer: dict[str, Any] = json.loads(line)
        return answer

    def tell(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def end(self) -> str:
        """Close its stdin, give it a moment, then terminate or kill it; its stderr tail."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        error = self.process.stderr.read() if self.process.stderr is not None else ""
        return error[-2000:]


def run_variant(
    server_loop: str,
    tables: int,
    players: int,
    paced_s: float,
    rate: float,
    flat_s: float,
    client_loop: str,
    server_args: tuple[str, ...] = (),
    game: str = "crates",
    path: Path = ROOT,
) -> dict[str, Any]:
    """One server event loop through connect, paced and flat-out phases; its figures.

    `server_args` go to `bench.server_host` as they are (experiments: --heartbeat, --no-gc);
    `path` holds the package the server and its clients import (`Child`).
    """
    server = Child(
        "bench.server_host",
        "--tables",
        str(tables),
        "--players",
        str(players),
        "--game",
        game,
        "--loop",
        server_loop,
        *server_args,
        path=path,
    )
    clients: Child | None = None
    figures: dict[str, Any] = {
        "server_loop": server_loop,
        "client_loop": client_loop,
        "game": game,
        "tables": tables,
        "clients_per_table": players,
    }
    try:
        info = server.read(timeout=60)
        figures["rss_idle_mb"] = round(info["rss_idle_kb"] / 1024, 1)
        figures["rss_tables_created_mb"] = round(info["rss_tables_kb"] / 1024, 1)
        clients = Child(
            "bench.load_clients",
            "--port",
            str(info["port"]),
            "--codes",
            ",".join(info["codes"]),
            "--players",
            str(players),
            "--game",
            game,
            "--loop",
            client_loop,
            path=path,
        )
        clients.tell("connect")
        figures["connect"] = clients.read(timeout=120)
        rss_started = rss_kb(server.pid)
        figures["rss_started_mb"] = round(rss_started / 1024, 1)
        figures["rss_growth_kb_per_table"] = round((rss_started - info["rss_idle_kb"]) / tables, 1)
        for phase, command, seconds in (
            ("paced", f"paced {paced_s} {rate}", paced_s),
            ("flat", f"flat {flat_s}", flat_s),
        ):
            before = cpu_seconds(server.pid)
            started = time.perf_counter()
            clients.tell(command)
            answer = clients.read(timeout=seconds + 60)
            wall = time.perf_counter() - started
            used = cpu_seconds(server.pid) - before
            answer["server_cpu_s"] = round(used, 3)
            answer["server_cpu_share"] = round(used / wall, 3)
            # CPU per action hardly depends on what else the machine runs: the steadier figure
            # for comparing event loops than actions/s, which a busy machine caps.
            answer["server_cpu_us_per_action"] = round(1e6 * used / max(answer["actions_done"], 1))
            answer["server_rss_mb"] = round(rss_kb(server.pid) / 1024, 1)
            figures[phase] = answer
        figures["rss_end_mb"] = figures["flat"]["server_rss_mb"]
        figures["rss_growth_during_play_mb"] = round(
            figures["rss_end_mb"] - figures["rss_started_mb"], 1
        )
        figures["status"] = "ok"
    except (TimeoutError, OSError, ValueError, KeyError) as problem:
        figures["status"] = f"error: {problem}"
    finally:
        if clients is not None:
            with contextlib.suppress(OSError):
                clients.tell("quit")
            client_errors = clients.end()
            if figures.get("status") != "ok" and client_errors:
                figures["client_stderr"] = client_errors
        server_errors = server.end()
        if figures.get("status") != "ok" and server_errors:
            figures["server_stderr"] = server_errors
    return figures


def run(
    tables: int = 250,
    players: int = 4,
    paced_s: float = 10.0,
    flat_s: float = 5.0,
    rate: float = 1.0,
    tuned: bool = True,
    game_tables: int = 50,
    game_s: float = 3.0,
) -> dict[str, Any]:
    """The `server` figures: crates tables on the default asyncio loop, and on uvloop when it
    is installed; then every other registered game's tables (`game_tables` of them, each phase
    `game_s` seconds) on asyncio, for its server CPU per action (`games`).

    With `tuned`, one more asyncio run measures the server as it was before its collector
    schedule (`TUNED_ARGS`), beside it; the server as shipped is what `asyncio` and `uvloop`
    measure.
    """
    has_uvloop = find_spec("uvloop") is not None
    client_loop = "uvloop" if has_uvloop else "asyncio"
    result: dict[str, Any] = {"target": TARGET, "variants": {}}
    for loop_name in ("asyncio", "uvloop"):
        if loop_name == "uvloop" and not has_uvloop:
            result["variants"]["uvloop"] = {"status": "not installed", "package": "uvloop"}
            continue
        result["variants"][loop_name] = run_variant(
            loop_name, tables, players, paced_s, rate, flat_s, client_loop
        )
    if tuned:
        variant = run_variant(
            "asyncio", tables, players, paced_s, rate, flat_s, client_loop, TUNED_ARGS
        )
        variant["server_args"] = " ".join(TUNED_ARGS)
        result["variants"]["asyncio_gc_as_before"] = variant
    base = result["variants"]["asyncio"]
    result["games"] = {}
    for name, game in GAMES.items():
        variant = base
        if name != "crates":
            size = game.default_players
            variant = run_variant(
                "asyncio", game_tables, size, game_s, rate, game_s, client_loop, game=name
            )
        result["games"][name] = per_action(variant)
    if base.get("status") == "ok":
        paced = base["paced"]
        result["paced_p99_ms"] = paced["latency"]["p99_ms"]
        result["flat_out_actions_per_s"] = base["flat"]["actions_per_s"]
        result["frames_lost"] = sum(
            v[p]["frames_lost"]
            for v in result["variants"].values()
            if v.get("status") == "ok"
            for p in ("paced", "flat")
        )
        result["meets_target"] = (
            tables >= TARGET["tables"]
            and paced["latency"]["p99_ms"] < TARGET["p99_ms"]
            and result["frames_lost"] == 0
        )
    fast = result["variants"].get("uvloop", {})
    if fast.get("status") == "ok" and base.get("status") == "ok":
        result["uvloop_vs_asyncio_flat_out"] = round(
            fast["flat"]["actions_per_s"] / max(base["flat"]["actions_per_s"], 1e-9), 3
        )
        # Below 1: uvloop spends less server CPU on each action than asyncio's own loop.
        result["uvloop_vs_asyncio_cpu_per_action"] = round(
            fast["flat"]["server_cpu_us_per_action"]
            / max(base["flat"]["server_cpu_us_per_action"], 1e-9),
            3,
        )
    return result


def per_action(variant: dict[str, Any]) -> dict[str, Any]:
    """A variant's server CPU per action in each phase, and what it played."""
    if variant.get("status") != "ok":
        return {"status": variant.get("status")}
    return {
        "status": "ok",
        "tables": variant["tables"],
        "players": variant["clients_per_table"],
        **{
            f"{phase}_cpu_us_per_action": variant[phase]["server_cpu_us_per_action"]
            for phase in ("paced", "flat")
        },
        "flat_actions_per_s": variant["flat"]["actions_per_s"],
        "frames_lost": variant["paced"]["frames_lost"] + variant["flat"]["frames_lost"],
    }


def against(
    tree: Side,
    old: Side,
    rounds: int = 1,
    game_tables: int = 50,
    game_s: float = 3.0,
    rate: float = 1.0,
) -> dict[str, Any]:
    """Server CPU per action on both sides (the server and its clients importing that side's
    package), every game's tables on asyncio, the sides in alternation."""
    result: dict[str, Any] = {"rev": old.name, "lines": [], "notes": []}
    for name, game in GAMES.items():
        runs: dict[str, list[dict[str, Any]]] = {"tree": [], "old": []}
        for round_index in range(rounds):
            order = [("tree", tree), ("old", old)]
            for label, side in order if round_index % 2 == 0 else order[::-1]:
                variant = run_variant(
                    "asyncio",
                    game_tables,
                    game.default_players,
                    game_s,
                    rate,
                    game_s,
                    "asyncio",
                    game=name,
                    path=side.path,
                )
                runs[label].append(per_action(variant))
        failed = next((r for r in runs["old"] + runs["tree"] if r["status"] != "ok"), None)
        if failed is not None:
            where = old.name if failed in runs["old"] else "the tree"
            first = str(failed["status"]).splitlines()[0]
            result["notes"].append(f"server {name}: cannot run on {where}: {first}")
            continue
        for phase in ("paced", "flat"):
            key = f"{phase}_cpu_us_per_action"
            result["lines"].append(
                speed_line(
                    f"server {name} CPU per action, {phase} (µs)",
                    median([r[key] for r in runs["tree"]]),
                    median([r[key] for r in runs["old"]]),
                    lower_is_faster=True,
                )
            )
    return result


def report(figures: dict[str, Any]) -> list[tuple[str, list[str], list[list[Any]]]]:
    """The printed tables for the `server` figures."""
    rows: list[list[Any]] = []
    memory: list[list[Any]] = []
    for name, variant in figures["variants"].items():
        if variant.get("status") != "ok":
            rows.append(
                [name, variant.get("status"), None, None, None, None, None, None, None, None]
            )
            continue
        connect = variant["connect"]
        for phase in ("paced", "flat"):
            p = variant[phase]
            label = f"{phase} ({p['rate_per_table']:g}/table/s)" if phase == "paced" else phase
            rows.append(
                [
                    name,
                    label,
                    connect["connections"],
                    p["actions_per_s"],
                    p["latency"]["p50_ms"],
                    p["latency"]["p99_ms"],
                    p["latency"]["max_ms"],
                    p["frames_lost"],
                    p["server_cpu_share"],
                    p["server_cpu_us_per_action"],
                ]
            )
        memory.append(
            [
                name,
                connect["connections"],
                connect["connect_s"],
                variant["rss_idle_mb"],
                variant["rss_started_mb"],
                variant["rss_end_mb"],
                variant["rss_growth_kb_per_table"],
            ]
        )
    tables = [
        (
            f"server: {figures['variants']['asyncio'].get('tables')} tables × "
            f"{figures['variants']['asyncio'].get('clients_per_table')} bot clients over loopback "
            "(latency: action sent → last seat's update)",
            [
                "server loop",
                "phase",
                "conns",
                "actions/s",
                "p50 ms",
                "p99 ms",
                "max ms",
                "lost",
                "server CPU",
                "µs CPU/action",
            ],
            rows,
        ),
    ]
    if memory:
        tables.append(
            (
                "server: memory (RSS)",
                [
                    "server loop",
                    "conns",
                    "connect s",
                    "idle MB",
                    "started MB",
                    "end MB",
                    "KB/table",
                ],
                memory,
            )
        )
    games = [
        [name, g.get("tables"), g.get("players"), g.get("paced_cpu_us_per_action"),
         g.get("flat_cpu_us_per_action"), g.get("flat_actions_per_s"), g.get("frames_lost")]
        if g.get("status") == "ok"
        else [name, g.get("status"), None, None, None, None, None]
        for name, g in figures.get("games", {}).items()
    ]  # fmt: skip
    if games:
        tables.append(
            (
                "server: every game's tables on asyncio (crates: the run above)",
                ["game", "tables", "seats", "µs CPU/action paced", "flat", "flat actions/s",
                 "lost"],
                games,
            )
        )  # fmt: skip
    return tables
