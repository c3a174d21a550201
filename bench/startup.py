"""Start-up times: `tablegames --help`, and `tablegames play crates` until its first screen.

Both are wall times of fresh processes, medians of several runs, each beside a baseline run the
same way in the same run: a bare `python -c pass` for `--help`, and for the first screen a
command in tmux that prints the awaited text at once (interpreter start, tmux and polling).
The first screen counts as painted when `tmux capture-pane` shows "Your hand".
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from .figures import median

TARGET_HELP_MS = 150.0
TARGET_PAINT_MS = 800.0
PAINTED = "Your hand"
PAINT_TIMEOUT = 20.0
CHILD_LIMIT = 60.0  # seconds before a timed command is killed


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
        "target_ms": TARGET_HELP_MS,
        "meets_target": 1000 * median(helps) < TARGET_HELP_MS,
    }


def time_to_text(command: list[str], env: dict[str, str], text: str) -> float | None:
    """Seconds from starting `command` in a fresh tmux window until `text` is on its screen.

    None if it never shows within PAINT_TIMEOUT (or tmux would not open a session).
    """
    name = f"tgbench-{uuid.uuid4().hex[:8]}"
    exports = " ".join(
        f"{key}={value}" for key, value in env.items() if key.startswith("TABLEGAMES")
    )
    line = f"env {exports} TERM=xterm-256color {' '.join(command)}; sleep 30"
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
                return time.perf_counter() - started
            time.sleep(0.005)
        return None
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, check=False)


def paint_times(runs: int, env: dict[str, str]) -> dict[str, Any]:
    """`tablegames play crates --seed 1` to its first painted screen, against a baseline."""
    if runs <= 0:
        return {"status": "skipped"}
    if shutil.which("tmux") is None:
        return {"status": "tmux not installed"}
    play = [*tablegames_command(), "play", "crates", "--seed", "1"]
    echo = [sys.executable, "-c", f"'print(\"{PAINTED}\")'"]
    time_to_text(play, env, PAINTED)  # warm-up: byte-compiled files, page cache
    plays, echoes = [], []
    missed = 0
    for _ in range(runs):
        took = time_to_text(play, env, PAINTED)
        if took is None:
            missed += 1
        else:
            plays.append(took)
        baseline = time_to_text(echo, env, PAINTED)
        if baseline is not None:
            echoes.append(baseline)
    if not plays:
        return {"status": f"the screen never showed {PAINTED!r} in {PAINT_TIMEOUT:.0f} s"}
    return {
        "status": "ok",
        "first_paint_ms": round(1000 * median(plays), 1),
        "baseline_ms": round(1000 * median(echoes), 1) if echoes else None,
        "paint_vs_baseline": round(median(plays) / median(echoes), 2) if echoes else None,
        "runs": len(plays),
        "missed": missed,
        "target_ms": TARGET_PAINT_MS,
        "meets_target": 1000 * median(plays) < TARGET_PAINT_MS,
    }


def run(runs: int = 5, paint_runs: int = 3) -> dict[str, Any]:
    """The `startup` figures; saves go to a throw-away TABLEGAMES_HOME."""
    with tempfile.TemporaryDirectory(prefix="tgbench-") as home:
        env = {**os.environ, "TABLEGAMES_HOME": home}
        return {"help": help_times(runs, env), "first_paint": paint_times(paint_runs, env)}


def report(figures: dict[str, Any]) -> list[tuple[str, list[str], list[list[Any]]]]:
    """The printed table for the `startup` figures."""
    help_figures, paint = figures["help"], figures["first_paint"]
    rows: list[list[Any]] = [
        [
            "tablegames --help",
            help_figures["help_ms"],
            "python -c pass",
            help_figures["python_bare_ms"],
            help_figures["help_vs_bare"],
            f"< {help_figures['target_ms']:g}",
        ]
    ]
    if paint.get("status") == "ok":
        rows.append(
            [
                "play crates → first screen",
                paint["first_paint_ms"],
                "echo in tmux",
                paint["baseline_ms"],
                paint["paint_vs_baseline"],
                f"< {paint['target_ms']:g}",
            ]
        )
    else:
        rows.append(["play crates → first screen", paint.get("status"), None, None, None, None])
    return [
        (
            "startup: wall times, medians (ms)",
            ["what", "ms", "baseline", "baseline ms", "ratio", "target ms"],
            rows,
        )
    ]
