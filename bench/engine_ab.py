"""The crates engine in the work tree against the one at a git revision, side by side.

    .venv/bin/python -m bench.engine_ab [--rev HEAD] [--rounds 5] [--games 10]

`git show REV:tablegames/rules/{core,cards,crates}.py` is copied into a throw-away package (git
only reads), both engines play the same seeded games in alternation, and the figures are medians
of per-CPU-second rates with the ratio new ÷ old of each round. Three loads: random playouts with
the event log on (as a table runs them), the same with `quiet` (as bots' rollouts run them), and
a table's work per action (apply, then every seat's view and legal actions, and a spectator's).
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablegames.rules.crates import CRATES

ROOT = Path(__file__).resolve().parent.parent
ENGINE_FILES = ("core.py", "cards.py", "crates.py")


def engine_at(rev: str, where: Path) -> Any:
    """The crates `Game` as it was at `rev`, imported from a copy under `where`."""
    package = where / "crates_at_rev"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    for name in ENGINE_FILES:
        source = subprocess.run(
            ["git", "show", f"{rev}:tablegames/rules/{name}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        (package / name).write_text(source, encoding="utf-8")
    sys.path.insert(0, str(where))
    return importlib.import_module("crates_at_rev.crates").CRATES


def playouts(game: Any, games: int, quiet: bool) -> float:
    """Crates hands per CPU second over `games` random-legal-action games."""
    rng = random.Random(0)
    hands = 0
    started = time.process_time()
    for index in range(games):
        state = game.new(4, index)
        state.quiet = quiet
        while not state.over:
            (seat,) = state.waiting_for()
            state.apply(seat, rng.choice(state.legal(seat)))
        hands += state.rounds_total
    return hands / (time.process_time() - started)


def table_work(game: Any, games: int) -> float:
    """Actions per CPU second when every action is followed by what a table sends out."""
    rng = random.Random(0)
    actions = 0
    started = time.process_time()
    for index in range(max(1, games // 4)):
        state = game.new(4, index)
        while not state.over:
            (seat,) = state.waiting_for()
            state.apply(seat, rng.choice(state.legal(seat)))
            actions += 1
            for watcher in (0, 1, 2, 3, None):
                state.view(watcher)
                state.visible_waiting(watcher)
                if watcher is not None:
                    state.legal(watcher)
    return actions / (time.process_time() - started)


LOADS: dict[str, Callable[[Any, int], float]] = {
    "playouts hands/s": lambda game, games: playouts(game, games, quiet=False),
    "quiet playouts hands/s": lambda game, games: playouts(game, games, quiet=True),
    "table updates actions/s": table_work,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="HEAD", help="the git revision to compare against")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=10, help="games per engine per round")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="crates-ab-") as where:
        old = engine_at(args.rev, Path(where))
        print(f"crates engine: work tree vs {args.rev} ({args.rounds} rounds, medians, CPU time)")
        for label, load in LOADS.items():
            pairs = []
            for _ in range(args.rounds):
                pairs.append((load(old, args.games), load(CRATES, args.games)))
            before = statistics.median(p[0] for p in pairs)
            after = statistics.median(p[1] for p in pairs)
            ratio = statistics.median(p[1] / p[0] for p in pairs)
            print(f"  {label:24} before {before:9.0f}  after {after:9.0f}  ×{ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
