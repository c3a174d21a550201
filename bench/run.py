"""Every benchmark in one command: engines, bots, server and start-up; a table and JSON figures.

    .venv/bin/python bench/run.py [--quick] [--json FILE] [--only engine|bots|server|startup]
                                  [--against REV]

`--quick` takes a few minutes on two cores; the default runs longer for steadier medians.
Figures are medians of several runs, and every comparison is a ratio measured side by side in
the same run: no figure passes or fails a test. Peers (OpenSpiel, RLCard) and uvloop come from
the optional `bench` extra (`pip install -e '.[bench]'`); a missing one is reported as not
installed. The last table gives each of the targets (issue 49) with its figure and whether it is
met.

Every registered game (built-in, and from elsewhere: installed packages, ``TABLEGAMES_GAMES``)
is measured in every section; a game missing from one is named, and the run exits with 1.

`--against REV` also runs each section on a temporary git worktree of REV, side by side with
the work tree in the same run (`engine_ab.sides`), and prints the speed tree ÷ REV of the
engines, the bots' decision CPU, the server's CPU per action and start-up, each line ≥ 1 when
the tree is as fast or faster. A section REV cannot run says so in one line.
"""

from __future__ import annotations

import argparse
import contextlib
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

from bench import bot_levels, engine, engine_ab, server_load, startup
from bench.figures import fmt, table
from bench.server_host import load_plugins
from tablegames.rules import GAMES

SECTIONS = ("engine", "bots", "server", "startup")

#: How long each section runs, per mode. `tiny` is for the smoke test: it only shows the code runs.
SETTINGS: dict[str, dict[str, dict[str, Any]]] = {
    "full": {
        "engine": {"rounds": 5, "budget": 3.0},
        "bots": {"games": 60, "budget": 30.0, "hard_budget": 60.0},
        "server": {"tables": 250, "paced_s": 30.0, "flat_s": 15.0, "game_s": 8.0},
        "startup": {"runs": 15, "paint_runs": 7},
    },
    "quick": {
        "engine": {"rounds": 3, "budget": 1.0},
        "bots": {"games": 12, "budget": 5.0, "hard_budget": 10.0},
        "server": {"tables": 250, "paced_s": 8.0, "flat_s": 5.0, "game_s": 3.0},
        "startup": {"runs": 5, "paint_runs": 3},
    },
    "tiny": {
        # (the mypyc copy's build alone is 12 s: tests/test_bench_smoke.py builds it under -m slow)
        "engine": {"rounds": 1, "budget": 0.05, "compiled": False},
        "bots": {"games": 1, "budget": 0.5, "hard_budget": 0.5},
        "server": {"tables": 2, "paced_s": 0.5, "flat_s": 0.3, "tuned": False, "game_tables": 2,
                   "game_s": 0.3},
        "startup": {"runs": 1, "paint_runs": 0},
    },
}  # fmt: skip
#: The same, for the comparison with a revision (`--against`): each side gets this much.
AGAINST_SETTINGS: dict[str, dict[str, dict[str, Any]]] = {
    "full": {
        "engine": {"rounds": 5, "budget": 1.0},
        "bots": {"games": 4},
        "server": {"rounds": 2, "game_s": 5.0},
        "startup": {"runs": 10, "paint_runs": 5},
    },
    "quick": {
        # (three rounds had kraken's quiet playouts at 0.816 in one run, five at 1.15 the next)
        "engine": {"rounds": 5, "budget": 0.5},
        "bots": {"games": 2},
        "server": {"rounds": 3, "game_s": 3.0},  # (one round swung ±10% between runs)
        # (a first screen's CPU spread 670-900 ms over 6 runs of one tree on a quiet machine:
        # three a side decided a ratio by chance)
        "startup": {"runs": 10, "paint_runs": 7},
    },
    "tiny": {
        "engine": {"rounds": 1, "budget": 0.05},
        "bots": {"games": 1, "matchups": [("normal", "random")]},
        "server": {"rounds": 1, "game_tables": 2, "game_s": 0.3},
        "startup": {"runs": 1, "paint_runs": 0},
    },
}
RUNNERS = {"engine": engine, "bots": bot_levels, "server": server_load, "startup": startup}
#: What compares a section with a revision: (tree, rev, **settings) -> its lines and notes.
AGAINST = {
    "engine": engine_ab.compare,
    "bots": bot_levels.against,
    "server": server_load.against,
    "startup": startup.against,
}


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


#: The issue's targets for crates hands/s over OpenSpiel crazy_eights games/s (Python loop).
ENGINE_TARGETS = {"vs_openspiel_pyloop": 0.8, "quiet_vs_openspiel_pyloop": 1.1}


def targets(figures: dict[str, Any]) -> list[list[Any]]:
    """One row per target in the issue: figure, value, target and whether it is met."""
    rows: list[list[Any]] = []
    crates = figures.get("engine", {}).get("crates")
    if crates:
        for key, target in ENGINE_TARGETS.items():
            value = crates.get(key)
            log = "no event log" if key.startswith("quiet") else "event log on"
            rows.append(
                [
                    f"engine crates hands/s ÷ OpenSpiel games/s (Python loop), {log}",
                    value,
                    f">= {target:g}",
                    None if value is None else value >= target,
                ]
            )
    for name, entry in figures.get("bots", {}).get("games", {}).items():
        for level in ("normal", "hard"):
            times = entry["latency"].get(level)
            if times and times.get("target_p99_ms"):
                rows.append(
                    [
                        f"bots {name} {level} decision CPU p99 ms (wall p99)",
                        f"{fmt(times['cpu_p99_ms'])} ({fmt(times['p99_ms'])})",
                        f"< {times['target_p99_ms']:g}",
                        times["meets_target_cpu"],
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
        rows.append(["server frames lost", server["frames_lost"], "0", server["frames_lost"] == 0])
    start = figures.get("startup")
    if start and "help" in start:
        helped = start["help"]
        rows.append(
            ["startup --help ÷ python", helped["help_vs_bare"], "<= 3", helped["meets_target"]]
        )
        for game, paint in start["first_paint"].items():
            if paint.get("status") == "ok" and paint["target_ms"] is not None:
                target, met = f"<= {paint['target_ms']:g}", paint["meets_target"]
                rows.append(
                    [f"startup {game} first screen ms", paint["first_paint_ms"], target, met]
                )
    for section, compared in figures.get("against", {}).items():
        for line in compared.get("lines", []):
            rows.append(
                [f"{line['figure']}: tree ÷ {compared['rev']}", line["ratio"], ">= 1", line["met"]]
            )
        if compared.get("status"):
            rows.append(
                [f"{section} against {compared.get('rev')}", compared["status"], ">= 1", None]
            )
    missing = figures.get("missing")
    if missing is not None:
        rows.append(
            [
                "every registered game in every section",
                "; ".join(missing) or "all",
                "all",
                not missing,
            ]
        )
    return rows


def missing(figures: dict[str, Any], games: list[str]) -> list[str]:
    """Each section run that lacks figures of a registered game: "section: game (why)"."""
    found: list[str] = []

    def check(section: str, name: str, ok: bool, why: Any = "no figures") -> None:
        if not ok:
            found.append(f"{section}: {name} ({why})")

    for name in games:
        if "engine" in figures:
            entry = figures["engine"].get("games", {}).get(name)
            check("engine", name, bool(entry and entry.get("actions_per_s")))
        if "bots" in figures:
            entry = figures["bots"].get("games", {}).get(name, {})
            broken = [m for m in entry.get("matchups", []) if m.get("status") != "ok"]
            why = broken[0]["status"] if broken else "no decisions timed"
            check("bots", name, bool(entry.get("latency")) and not broken, why)
        if "server" in figures:
            entry = figures["server"].get("games", {}).get(name, {})
            check("server", name, entry.get("status") == "ok", entry.get("status", "no figures"))
        if "startup" in figures:
            entry = figures["startup"].get("first_paint", {}).get(name, {})
            status = entry.get("status", "no figures")
            check("startup", name, status in ("ok", "skipped"), status)
    return found


def run_section(section: str, settings: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    """One section's figures and printed tables; a broken section says why in one table."""
    try:
        figures = RUNNERS[section].run(**settings)
        return figures, RUNNERS[section].report(figures)
    except Exception as problem:  # one broken section must not lose the others' figures
        return {"status": f"error: {problem!r}"}, [
            (f"{section}: failed", ["error"], [[repr(problem)]])
        ]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the benchmarks, print their tables; returns the figures (also written with --json),
    with `missing` naming any game a section lacks (the script then exits with 1)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a shorter run (a few minutes)")
    parser.add_argument("--tiny", action="store_true", help=argparse.SUPPRESS)  # smoke test
    parser.add_argument("--json", metavar="FILE", help="write the figures here as JSON")
    parser.add_argument("--only", choices=SECTIONS, action="append", help="run just this section")
    parser.add_argument("--against", metavar="REV", help="also run each section on git REV")
    args = parser.parse_args(argv)
    load_plugins()
    mode = "tiny" if args.tiny else "quick" if args.quick else "full"
    figures: dict[str, Any] = {"meta": meta(mode)}
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        pair = stack.enter_context(engine_ab.sides(args.against)) if args.against else None
        for section in args.only or SECTIONS:
            section_started = time.perf_counter()
            figures[section], tables = run_section(section, SETTINGS[mode][section])
            if pair is not None:
                try:
                    compared = AGAINST[section](*pair, **AGAINST_SETTINGS[mode][section])
                except Exception as problem:  # (say it in one line, keep the other sections)
                    compared = {"rev": pair[1].name, "status": engine_ab.one_line(problem)}
                figures.setdefault("against", {})[section] = compared
                tables += engine_ab.report(compared, section)
            figures[section]["section_seconds"] = round(time.perf_counter() - section_started, 1)
            for title, header, rows in tables:
                print(table(title, header, rows), end="\n\n", flush=True)
    figures["missing"] = missing(figures, list(GAMES))
    figures["meta"]["seconds"] = round(time.perf_counter() - started, 1)
    figures["meta"]["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(
        table(
            f"targets ({mode} run, {figures['meta']['started']}, {figures['meta']['seconds']:.0f} "
            f"s; load average {figures['meta']['load_average_before'][0]:g} → "
            f"{figures['meta']['load_average_after'][0]:g} on {os.cpu_count()} cores)",
            ["figure", "value", "target", "met"],
            targets(figures),
        ),
        flush=True,
    )
    if figures["missing"]:
        print(f"games missing from a section: {'; '.join(figures['missing'])}", file=sys.stderr)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return figures


if __name__ == "__main__":
    sys.exit(1 if main()["missing"] else 0)
