"""Every benchmark in one command: engines, bots, server and start-up; a table and JSON figures.

    .venv/bin/python bench/run.py [--quick] [--json FILE] [--only engine|bots|server|startup]

`--quick` takes under three minutes on two cores; the default runs longer for steadier medians.
Figures are medians of several runs, and every comparison is a ratio measured side by side in
the same run: nothing here passes or fails. Peers (OpenSpiel, RLCard) and uvloop come from the
optional `bench` extra (`pip install -e '.[bench]'`); a missing one is reported as not installed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` and `tablegames` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import bot_levels, engine, server_load, startup
from bench.figures import fmt, table

SECTIONS = ("engine", "bots", "server", "startup")

#: How long each section runs, per mode. `tiny` is for the smoke test: it only shows the code runs.
SETTINGS: dict[str, dict[str, dict[str, Any]]] = {
    "full": {
        "engine": {"rounds": 5, "budget": 3.0},
        "bots": {"games": 60, "budget": 30.0, "hard_budget": 60.0},
        "server": {"tables": 250, "paced_s": 30.0, "flat_s": 15.0},
        "startup": {"runs": 15, "paint_runs": 7},
    },
    "quick": {
        "engine": {"rounds": 3, "budget": 1.0},
        "bots": {"games": 12, "budget": 5.0, "hard_budget": 10.0},
        "server": {"tables": 250, "paced_s": 8.0, "flat_s": 5.0},
        "startup": {"runs": 5, "paint_runs": 3},
    },
    "tiny": {
        # (the mypyc copy's build alone is 12 s: tests/test_bench_smoke.py builds it under -m slow)
        "engine": {"rounds": 1, "budget": 0.05, "games": ["crates"], "compiled": False},
        "bots": {"games": 1, "budget": 1.0, "hard_budget": 1.0, "only": ["crates"]},
        "server": {"tables": 2, "paced_s": 0.5, "flat_s": 0.3, "tuned": False},
        "startup": {"runs": 1, "paint_runs": 0},
    },
}
RUNNERS = {"engine": engine, "bots": bot_levels, "server": server_load, "startup": startup}


def versions() -> dict[str, str]:
    """Installed versions of the packages the figures depend on ("not installed" if absent)."""
    found = {}
    for package in ("open_spiel", "rlcard", "uvloop", "msgpack", "textual"):
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = "not installed"
    return found


def meta(mode: str) -> dict[str, Any]:
    return {
        "mode": mode,
        "started": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
        "packages": versions(),
    }


def targets(figures: dict[str, Any]) -> list[list[Any]]:
    """One row per target in the issue: figure, value, target and whether it is met."""
    rows: list[list[Any]] = []
    crates = figures.get("engine", {}).get("crates")
    if crates:
        # Faster than OpenSpiel from Python; at least a quarter of its C++ speed.
        for key, target, strict in (
            ("vs_openspiel_pyloop", 1.0, True),
            ("vs_openspiel_cpp", 0.25, False),
        ):
            value = crates.get(key)
            met = None if value is None else (value > target if strict else value >= target)
            rows.append(
                [f"engine crates.{key}", value, f"{'>' if strict else '>='} {target:g}", met]
            )
    for name, entry in figures.get("bots", {}).get("games", {}).items():
        for level in ("normal", "hard"):
            times = entry["latency"].get(level)
            if times and times.get("target_p99_ms"):
                rows.append(
                    [
                        f"bots {name} {level} p99 ms (cpu p99)",
                        f"{fmt(times['p99_ms'])} ({fmt(times['cpu_p99_ms'])})",
                        f"< {times['target_p99_ms']:g}",
                        "yes"
                        if times["meets_target"]
                        else "cpu only"
                        if times.get("meets_target_cpu")
                        else "no",
                    ]
                )
    server = figures.get("server")
    if server and "paced_p99_ms" in server:
        size = server["variants"]["asyncio"]
        rows.append(
            [
                f"server paced p99 ms ({size['tables']} × {size['clients_per_table']}, 1/s)",
                server["paced_p99_ms"],
                "< 20 at 250 × 4",
                server["meets_target"],
            ]
        )
        before = server["variants"].get("asyncio_gc_as_before", {})
        if before.get("status") == "ok":
            rows.append(
                [
                    "server paced p99 ms, without the collector schedule (before)",
                    before["paced"]["latency"]["p99_ms"],
                    "(baseline)",
                    None,
                ]
            )
        rows.append(["server flat-out actions/s", server["flat_out_actions_per_s"], "max", None])
        if "uvloop_vs_asyncio_cpu_per_action" in server:
            rows.append(
                [
                    "server CPU/action, uvloop ÷ asyncio",
                    server["uvloop_vs_asyncio_cpu_per_action"],
                    "< 1 helps",
                    server["uvloop_vs_asyncio_cpu_per_action"] < 1,
                ]
            )
        rows.append(["server frames lost", server["frames_lost"], "0", server["frames_lost"] == 0])
    start = figures.get("startup")
    if start and "help" in start:
        helped = start["help"]
        rows.append(
            ["startup --help ÷ python", helped["help_vs_bare"], "<= 3", helped["meets_target"]]
        )
        for game, paint in start["first_paint"].items():
            if paint.get("status") == "ok":
                target, met = f"<= {paint['target_ms']:g}", paint["meets_target"]
                rows.append(
                    [f"startup {game} first screen ms", paint["first_paint_ms"], target, met]
                )
    return rows


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the benchmarks, print their tables; returns the figures (also written with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a shorter run (under 3 minutes)")
    parser.add_argument("--tiny", action="store_true", help=argparse.SUPPRESS)  # smoke test
    parser.add_argument("--json", metavar="FILE", help="write the figures here as JSON")
    parser.add_argument("--only", choices=SECTIONS, action="append", help="run just this section")
    args = parser.parse_args(argv)
    mode = "tiny" if args.tiny else "quick" if args.quick else "full"
    figures: dict[str, Any] = {"meta": meta(mode)}
    started = time.perf_counter()
    for section in args.only or SECTIONS:
        section_started = time.perf_counter()
        try:
            figures[section] = RUNNERS[section].run(**SETTINGS[mode][section])
            tables = RUNNERS[section].report(figures[section])
        except Exception as problem:  # one broken section must not lose the others' figures
            figures[section] = {"status": f"error: {problem!r}"}
            tables = [(f"{section}: failed", ["error"], [[repr(problem)]])]
        figures[section]["section_seconds"] = round(time.perf_counter() - section_started, 1)
        for title, header, rows in tables:
            print(table(title, header, rows), end="\n\n", flush=True)
    figures["meta"]["seconds"] = round(time.perf_counter() - started, 1)
    figures["meta"]["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(
        table(
            f"targets ({mode} run, {figures['meta']['seconds']:.0f} s; load average "
            f"{figures['meta']['load_average_before'][0]:g} → "
            f"{figures['meta']['load_average_after'][0]:g} on {os.cpu_count()} cores)",
            ["figure", "value", "target", "met"],
            targets(figures),
        ),
        flush=True,
    )
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return figures


if __name__ == "__main__":
    main()
    sys.exit(0)
