"""Start-up: `tablegames --help`, `play GAME` of every registered game until its first screen,
and what the light commands import.

Times are wall times of fresh processes, medians of several runs, each beside a baseline run
the same way in the same run: a bare `python -c pass` for `--help`, and for a first screen a
command in tmux that prints the awaited text at once (interpreter start, tmux and polling). A
first screen counts as painted when `tmux capture-pane` shows the player's own hand or secrets.
The light commands (`--help`, `list`, `rules`, `history`, `stats`) are run under
`python -X importtime` and must import neither Textual, asyncssh, asyncio nor any engine.

    .venv/bin/python -m bench.startup [--runs N] [--paint-runs N]
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tablegames.rules import GAMES

from .figures import median, speed_line, table

if TYPE_CHECKING:
    from .engine_ab import Side

TARGET_HELP_RATIO = 3.0  # `--help` against a bare interpreter
#: Each game's first screen: what shows when it is painted, and the target (ms; None: none set).
FIRST_SCREENS: dict[str, tuple[str, float | None]] = {
    "crates": ("Your hand", 400.0),
    "roach": ("Your hand", None),
    "crabs": ("secret signal", None),  # the huddle comes first
    "kraken": ("Your secrets", 600.0),
}
#: What shows on the generic screen (any other game): the player's own seat, named.
GENERIC_SCREEN = ("(you)", None)
#: What the light commands must not import (the engines by module name).
ENGINES = ("crates", "roach", "crabs", "kraken")
HEAVY = ("textual", "asyncssh", "asyncio", *(f"tablegames.rules.{game}" for game in ENGINES))
LIGHT_COMMANDS = (["--help"], ["list"], ["rules", "crates"], ["history"], ["stats"])
PAINT_TIMEOUT = 20.0
#: What a timed window keeps of the environment besides ours (TABLEGAMES_*, PYTHONPATH).
TERMINAL_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE")
CHILD_LIMIT = 60.0  # seconds before a timed command is killed


def timed_env(home: str) -> dict[str, str]:
    """The environment of the timed commands: this one's, with a throw-away TABLEGAMES_HOME,
    and byte-code written (under PYTHONDONTWRITEBYTECODE, which a shell may export, each run
    compiled what had changed since it was last written: a new worktree's whole package)."""
    env = {**os.environ, "TABLEGAMES_HOME": home}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def tablegames_command() -> list[str]:
    """The installed `tablegames` script beside this interpreter, else `python -m tablegames`."""
    script = Path(sys.executable).parent / "tablegames"
    return [str(script)] if script.exists() else [sys.executable, "-m", "tablegames"]


def wall_time(command: list[str], env: dict[str, str]) -> float:
    """Seconds one run of `command` takes, its output thrown away (killed after a minute).

    Not `subprocess.run(timeout=...)`: with a timeout it polls the child with sleeps growing to
    50 ms, which added up to half again to a 100 ms start. A plain `wait()` blocks in waitpid.
    """
    started = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    limit = threading.Timer(CHILD_LIMIT, child.kill)
    limit.start()
    try:
        child.wait()
    finally:
        limit.cancel()
    return time.perf_counter() - started


def help_times(runs: int, env: dict[str, str]) -> dict[str, Any]:
    """`tablegames --help` against a bare interpreter, alternating, after one warm-up each."""
    help_command = [*tablegames_command(), "--help"]
    bare_command = [sys.executable, "-c", "pass"]
    wall_time(help_command, env)
    wall_time(bare_command, env)
    helps, bares = [], []
    for _ in range(runs):
        helps.append(wall_time(help_command, env))
        bares.append(wall_time(bare_command, env))
    return {
        "help_ms": round(1000 * median(helps), 1),
        "python_bare_ms": round(1000 * median(bares), 1),
        "help_vs_bare": round(median(helps) / median(bares), 2),
        "runs": runs,
        "target_ratio": TARGET_HELP_RATIO,
        "meets_target": median(helps) / median(bares) <= TARGET_HELP_RATIO,
    }


def heavy_imports(env: dict[str, str]) -> dict[str, list[str]]:
    """For each light command, the heavy modules it imports (none, as it should be)."""
    found = {}
    for args in LIGHT_COMMANDS:
        timed = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "tablegames", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=CHILD_LIMIT,
            check=False,
        )
        names = {line.rsplit("|", 1)[-1].strip() for line in timed.stderr.splitlines()}
        found[" ".join(args)] = sorted(name for name in HEAVY if name in names)
    return found


def time_to_text(command: list[str], env: dict[str, str], text: str) -> float | None:
    """Seconds from starting `command` in a fresh tmux window until `text` is on its screen.

    None if it never shows within PAINT_TIMEOUT (or tmux would not open a session).
    """
    shown = times_to_text(command, env, text)
    return None if shown is None else shown[0]


def times_to_text(
    command: list[str], env: dict[str, str], text: str
) -> tuple[float, float | None] | None:
    """`time_to_text`, and the CPU seconds the command had used by then (None where /proc
    does not say): what a busy machine inflates far less than the wall time."""
    name = f"tgbench-{uuid.uuid4().hex[:8]}"
    # Only these: a window inherits the tmux server's environment, which is whoever started it
    # first (a test run's TABLEGAMES_GAMES loaded its plugin games into every first screen, and
    # its PYTHONPATH another tree's package).
    exports = " ".join(
        shlex.quote(f"{key}={value}")
        for key, value in env.items()
        if key in TERMINAL_ENV or key.startswith("TABLEGAMES") or key == "PYTHONPATH"
    )
    line = f"env -i {exports} TERM=xterm-256color {' '.join(command)}; sleep 30"
    for attempt in range(3):  # a tmux server that was just exiting refuses a new session
        started = time.perf_counter()
        opened = subprocess.run(
            ["tmux", "new-session", "-d", "-s", name, "-x", "100", "-y", "30", line],
            capture_output=True,
            check=False,
        )
        if opened.returncode == 0:
            break
        time.sleep(0.2 * (attempt + 1))
    else:
        return None
    try:
        while time.perf_counter() - started < PAINT_TIMEOUT:
            screen = subprocess.run(
                ["tmux", "capture-pane", "-p", "-t", name],
                capture_output=True,
                text=True,
                check=False,
            ).stdout
            if text in screen:
                return time.perf_counter() - started, _window_cpu(name)
            time.sleep(0.005)
        return None
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, check=False)


def _window_cpu(name: str) -> float | None:
    """CPU seconds used so far by the processes under tmux window `name`'s shell (Linux)."""
    shell = subprocess.run(
        ["tmux", "display-message", "-p", "-t", name, "#{pane_pid}"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    if not shell.isdigit():
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    total, found = 0, False
    pending = [shell]
    while pending:
        pid = pending.pop()
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pending += children
        if pid != shell:
            total += int(fields[11]) + int(fields[12])  # utime, stime
            found = True
    return total / ticks if found else None


def paint_times(runs: int, env: dict[str, str], game: str = "crates") -> dict[str, Any]:
    """`tablegames play GAME --seed 1 --no-save` to its first painted screen, against a
    baseline."""
    if runs <= 0:
        return {"status": "skipped"}
    if shutil.which("tmux") is None:
        return {"status": "tmux not installed"}
    painted, target = FIRST_SCREENS.get(game, GENERIC_SCREEN)
    play = [*tablegames_command(), "play", game, "--seed", "1", "--no-save"]
    echo = [sys.executable, "-c", f"'print(\"{painted}\")'"]
    time_to_text(play, env, painted)  # warm-up: byte-compiled files, page cache
    plays, echoes, cpus = [], [], []
    missed = 0
    for _ in range(runs):
        shown = times_to_text(play, env, painted)
        if shown is None:
            missed += 1
        else:
            plays.append(shown[0])
            if shown[1] is not None:
                cpus.append(shown[1])
        baseline = time_to_text(echo, env, painted)
        if baseline is not None:
            echoes.append(baseline)
    if not plays:
        return {"status": f"the screen never showed {painted!r} in {PAINT_TIMEOUT:.0f} s"}
    return {
        "status": "ok",
        "first_paint_ms": round(1000 * median(plays), 1),
        "first_paint_cpu_ms": round(1000 * median(cpus)) if cpus else None,
        "baseline_ms": round(1000 * median(echoes), 1) if echoes else None,
        "paint_vs_baseline": round(median(plays) / median(echoes), 2) if echoes else None,
        "runs": len(plays),
        "missed": missed,
        "target_ms": target,
        "meets_target": None if target is None else 1000 * median(plays) <= target,
    }


def run(runs: int = 5, paint_runs: int = 3) -> dict[str, Any]:
    """The `startup` figures; saves go to a throw-away TABLEGAMES_HOME."""
    with tempfile.TemporaryDirectory(prefix="tgbench-") as home:
        env = timed_env(home)
        return {
            "help": help_times(runs, env),
            "first_paint": {game: paint_times(paint_runs, env, game) for game in GAMES},
            "heavy_imports": heavy_imports(env),
        }


def ms_line(figure: str, seconds: list[list[float]]) -> dict[str, Any]:
    """The comparison line `figure` (ms): the median of the tree's `seconds` and the
    revision's (a time: lower is faster)."""
    tree, rev = seconds
    return speed_line(
        f"{figure} (ms)", 1000 * median(tree), 1000 * median(rev), lower_is_faster=True
    )


def against(tree: Side, old: Side, runs: int = 5, paint_runs: int = 3) -> dict[str, Any]:
    """Start-up on both sides (the same script importing that side's package), run after run in
    alternation: `--help`, and every game's first screen."""
    result: dict[str, Any] = {"rev": old.name, "lines": [], "notes": []}
    with tempfile.TemporaryDirectory(prefix="tgbench-") as home:
        envs = [side.env(timed_env(home)) for side in (tree, old)]
        command = [*tablegames_command(), "--help"]
        times: list[list[float]] = [[], []]
        for index in range(runs + 1):  # the first of each: a warm-up (byte-compiling)
            for side in (0, 1) if index % 2 == 0 else (1, 0):
                took = wall_time(command, envs[side])
                if index:
                    times[side].append(took)
        result["lines"].append(ms_line("startup tablegames --help", times))
        for game in GAMES if paint_runs > 0 else ():
            painted, _ = FIRST_SCREENS.get(game, GENERIC_SCREEN)
            play = [*tablegames_command(), "play", game, "--seed", "1", "--no-save"]
            times = [[], []]
            cpus: list[list[float]] = [[], []]
            for index in range(paint_runs + 1):
                for side in (0, 1) if index % 2 == 0 else (1, 0):
                    shown = times_to_text(play, envs[side], painted)
                    if index and shown is not None:
                        times[side].append(shown[0])
                        if shown[1] is not None:
                            cpus[side].append(shown[1])
            if not times[0] or not times[1]:
                where = old.name if not times[1] else "the tree"
                result["notes"].append(
                    f"startup {game}: cannot run on {where}: the screen never showed {painted!r}"
                )
                continue
            result["lines"].append(ms_line(f"startup play {game} → first screen", times))
            if cpus[0] and cpus[1]:
                result["lines"].append(
                    ms_line(f"startup play {game} → first screen, its CPU", cpus)
                )
    return result


def report(figures: dict[str, Any]) -> list[tuple[str, list[str], list[list[Any]]]]:
    """The printed tables for the `startup` figures."""
    help_figures = figures["help"]
    rows: list[list[Any]] = [
        [
            "tablegames --help",
            help_figures["help_ms"],
            None,
            "python -c pass",
            help_figures["python_bare_ms"],
            help_figures["help_vs_bare"],
            f"ratio <= {help_figures['target_ratio']:g}",
        ]
    ]
    for game, paint in figures["first_paint"].items():
        what = f"play {game} → first screen"
        if paint.get("status") == "ok":
            rows.append(
                [
                    what,
                    paint["first_paint_ms"],
                    paint.get("first_paint_cpu_ms"),
                    "echo in tmux",
                    paint["baseline_ms"],
                    paint["paint_vs_baseline"],
                    "—" if paint["target_ms"] is None else f"<= {paint['target_ms']:g} ms",
                ]
            )
        else:
            rows.append([what, paint.get("status"), None, None, None, None, None])
    imports = [
        [command, ", ".join(heavy) or "none"] for command, heavy in figures["heavy_imports"].items()
    ]
    return [
        (
            "startup: wall times (and the program's CPU by then), medians (ms)",
            ["what", "ms", "CPU ms", "baseline", "baseline ms", "ratio", "target"],
            rows,
        ),
        (
            "startup: what the light commands import of Textual, asyncssh, asyncio, engines",
            ["command", "heavy imports"],
            imports,
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of --help and of python")
    parser.add_argument("--paint-runs", type=int, default=7, help="runs of each first screen")
    args = parser.parse_args()
    for title, header, rows in report(run(args.runs, args.paint_runs)):
        print(table(title, header, rows))


if __name__ == "__main__":
    main()
