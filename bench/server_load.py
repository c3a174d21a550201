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
from typing import Any

from .server_host import rss_kb

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


class Child:
    """A bench process we started: JSON lines out, commands in, always ended by its own pid."""

    def __init__(self, module: str, *args: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.module = module
        self.process = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            cwd=ROOT,
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
) -> dict[str, Any]:
    """One server event loop through connect, paced and flat-out phases; its figures.

    `server_args` go to `bench.server_host` as they are (experiments: --heartbeat, --no-gc).
    """
    server = Child(
        "bench.server_host",
        "--tables",
        str(tables),
        "--players",
        str(players),
        "--loop",
        server_loop,
        *server_args,
    )
    clients: Child | None = None
    figures: dict[str, Any] = {
        "server_loop": server_loop,
        "client_loop": client_loop,
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
            "--loop",
            client_loop,
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
) -> dict[str, Any]:
    """The `server` figures: the default asyncio loop, and uvloop when it is installed.

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
    return tables
