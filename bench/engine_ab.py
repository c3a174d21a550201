"""The crates engine in the work tree against the one at a git revision, side by side.

    .venv/bin/python -m bench.engine_ab [--rev HEAD] [--compiled] [--rounds 5] [--games 10]

`git show REV:tablegames/rules/{core,cards,crates}.py` is copied into a throw-away package (git
only reads), both engines play the same seeded games in alternation, and the figures are medians
of per-CPU-second rates with the ratio new ÷ old of each round. Three loads: random playouts with
the event log on (as a table runs them), the same with `quiet` (as bots' rollouts run them), and
a table's work per action (apply, then every seat's view and legal actions, and a spectator's).

`--compiled` builds the copy with mypyc (from the `test` extra) first: what compiling the engine
would buy, the same source against itself. When OpenSpiel is installed (the `bench` extra) its
crazy_eights is timed in the same rounds, and each engine's playouts are also given as hands/s
over OpenSpiel's games/s, as `bench/run.py` reports them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablegames.rules.games import CRATES

from .compiled import crates_copy
from .engine import Engine, measure_round, openspiel_cpp, openspiel_python


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
    parser.add_argument("--compiled", action="store_true", help="compile REV's copy with mypyc")
    args = parser.parse_args(argv)
    peers = installed_peers()
    with tempfile.TemporaryDirectory(prefix="crates-ab-") as where:
        old = crates_copy("crates_at_rev", Path(where), args.rev, compiled=args.compiled)
        built = f"{args.rev} compiled with mypyc" if args.compiled else args.rev
        print(f"crates engine: {built} (rev) vs the work tree (tree), {args.rounds} rounds")
        for label, load in LOADS.items():
            pairs, versus = [], []
            for _ in range(args.rounds):
                pairs.append((load(old, args.games), load(CRATES, args.games)))
                if label.endswith("playouts hands/s"):
                    versus.append({peer.key: peer_rate(peer) for peer in peers})
            before = statistics.median(p[0] for p in pairs)
            after = statistics.median(p[1] for p in pairs)
            ratio = statistics.median(p[1] / p[0] for p in pairs)
            print(f"  {label:24} rev {before:9.0f}  tree {after:9.0f}  tree÷rev ×{ratio:.2f}")
            for peer in peers if versus else []:
                rates = [(p, v[peer.key]) for p, v in zip(pairs, versus, strict=True)]
                old_ratio, new_ratio = (
                    statistics.median(p[side] / theirs for p, theirs in rates) for side in (0, 1)
                )
                print(f"    ÷ {peer.label:34} rev {old_ratio:9.3f}  tree {new_ratio:9.3f}")
    return 0


def installed_peers() -> list[Engine]:
    """OpenSpiel's crazy_eights in both loops, when the `bench` extra is installed."""
    try:
        return [openspiel_python(), openspiel_cpp()]
    except ImportError:
        return []


def peer_rate(peer: Engine) -> float:
    """The peer's games per CPU second over one short round."""
    return measure_round(peer, 0.5)["games_per_s"]


if __name__ == "__main__":
    sys.exit(main())
