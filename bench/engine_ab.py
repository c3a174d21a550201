"""The work tree against a git revision, side by side, each side in processes of its own.

    .venv/bin/python -m bench.engine_ab [--rev HEAD] [--rounds 5] [--budget 1] [--game crates]
                                        [--compiled]

`sides(REV)` checks REV out in a temporary git worktree (removed afterwards) and gives two
`Side`s: folders that each pair the work tree's `bench` with one side's `tablegames` (the work
tree's, or REV's), so a process started in one imports exactly that package and is measured by
exactly the same bench code. A `Worker` is such a process answering commands (`serve`):
`bench/run.py --against REV` drives its engine and bots sections through workers, and starts
the server and start-up sections' processes with `Side.env`. A command the revision's package
cannot answer (an API it lacks) comes back as one line, never a traceback.

This module's own figures are the engines': for every game both sides know, three loads —
random playouts with the event log on (as a table runs them), the same `quiet` (as bots'
rollouts run them), and a table's work per action (apply, then every seat's view, waiting
seats and legal actions, and a spectator's) — the same seeded games on both sides (at least
`MIN_GAMES`), the two sides in alternation round after round so that machine load hits them
alike. Figures are medians of actions per CPU second (a revision whose rules differ plays
other games from the same seeds: `same_games` says so), and of each round's ratio tree ÷ REV
(above 1: the tree is faster). When OpenSpiel is installed (the `bench` extra), its
crazy_eights (Python loop) is timed in the same rounds and crates' playouts are also given as
hands/s over its games/s.

`--compiled` builds REV's crates engine with mypyc (from the `test` extra) first: what
compiling would buy, against the work tree's pure engine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .figures import speed_line, table
from .server_host import load_plugins
from .server_load import ROOT, Child, python_path

#: The loads, by the name the figures use: what `our_engine` is asked to do, and its unit.
LOADS = {
    "playouts": {"quiet": False, "watch": False},
    "quiet playouts": {"quiet": True, "watch": False},
    "table updates": {"quiet": False, "watch": True},
}
ANSWER_LIMIT = 1800.0  # seconds a worker may take over one command (a hard bot's whole game)


@dataclass(frozen=True)
class Side:
    """One side of a comparison: a folder holding `bench` (the work tree's) and `tablegames`
    (this side's), and what to call it."""

    name: str
    path: Path

    def env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """An environment whose Python imports this side's package (and the tree's bench)."""
        return {**(os.environ if base is None else base), "PYTHONPATH": python_path(self.path)}


def git(*args: str) -> str:
    """Run git in the work tree; its output, or RuntimeError with git's own sentence."""
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


def _side(where: Path, name: str, package_root: Path) -> Side:
    folder = where / re.sub(r"[^\w.-]", "_", name)
    folder.mkdir()
    (folder / "tablegames").symlink_to(package_root / "tablegames", target_is_directory=True)
    (folder / "bench").symlink_to(ROOT / "bench", target_is_directory=True)
    return Side(name, folder)


@contextmanager
def sides(rev: str) -> Iterator[tuple[Side, Side]]:
    """The work tree and `rev` (checked out in a temporary git worktree, removed afterwards)."""
    short = git("rev-parse", "--short", f"{rev}^{{commit}}")
    with tempfile.TemporaryDirectory(prefix="tgbench-ab-") as where:
        checkout = Path(where) / "checkout"
        git("worktree", "add", "--detach", str(checkout), short)
        try:
            yield _side(Path(where), "tree", ROOT), _side(Path(where), short, checkout)
        finally:
            git("worktree", "remove", "--force", str(checkout))


class Worker:
    """A process importing one side's package, answering one command at a time."""

    def __init__(self, side: Side) -> None:
        self.side = side
        self.child = Child("bench.engine_ab", "--serve", path=side.path)
        hello = self.child.read(timeout=120)
        self.games: list[str] = hello.get("games", [])
        self.problem: str | None = hello.get("error")

    def ask(self, do: str, **arguments: Any) -> dict[str, Any]:
        """The answer to one command: its figures, or {"error": one line}."""
        self.child.tell(json.dumps({"do": do, **arguments}))
        return self.child.read(timeout=ANSWER_LIMIT)

    def end(self) -> None:
        self.child.end()


@contextmanager
def workers(*of: Side) -> Iterator[list[Worker]]:
    """A worker per side, always ended."""
    started: list[Worker] = []
    try:
        for side in of:
            started.append(Worker(side))
        yield started
    finally:
        for worker in started:
            worker.end()


def not_started(ours: Worker, theirs: Worker) -> str | None:
    """Why a comparison cannot run at all (a side's worker did not start), or None."""
    if theirs.problem:
        return f"cannot run on {theirs.side.name}: {theirs.problem}"
    if ours.problem:
        return f"cannot run on the tree: {ours.problem}"
    return None


def one_line(problem: BaseException) -> str:
    """An exception as one line: its kind and its first line."""
    text = str(problem).strip().splitlines()
    return f"{type(problem).__name__}: {text[0]}" if text else type(problem).__name__


# -- the worker's side ----------------------------------------------------------------------
_COMPILED: dict[str, Any] = {}


def _engine(game: str, load: str, games: int, compiled: bool = False) -> dict[str, Any]:
    """`games` seeded random games of `game` under `load`; hands (crates) or games per CPU
    second, and actions per CPU second."""
    from .engine import our_engine

    engine = our_engine(game, game=_COMPILED["crates"] if compiled else None, **LOADS[load])
    actions = hands = 0
    started = time.process_time()
    for index in range(games):
        played, rounds = engine.play(index)
        actions, hands = actions + played, hands + rounds
    elapsed = max(time.process_time() - started, 1e-9)
    return {"rate": hands / elapsed, "actions_per_s": actions / elapsed, "seconds": elapsed}


def _compile() -> dict[str, Any]:
    """Build this side's crates engine with mypyc (what `--compiled` compares)."""
    import tablegames.rules

    from .compiled import crates_copy

    where = Path(tempfile.mkdtemp(prefix="crates-ab-compiled-"))
    rules = Path(tablegames.rules.__file__).parent
    _COMPILED["crates"] = crates_copy("crates_ab_compiled", where, rules, compiled=True)
    return {"built": str(where)}


def _bots(game: str, hero: str, field: str, index: int, seed: int) -> dict[str, Any]:
    """One bot game of a matchup (see `bot_levels.seating`); every level's decision times."""
    from . import bot_levels

    samples: dict[str, bot_levels.Samples] = {}
    levels = bot_levels.seating(game, index, hero, field)
    result = bot_levels.play_one(game, levels, seed + index, samples, deadline=float("inf"))
    return {
        "finished": result is not None,
        "samples": {level: {"cpu": s.cpu, "wall": s.wall} for level, s in samples.items()},
    }


def _fingerprint(game: str, games: int) -> dict[str, Any]:
    """A hash per seeded random game of `game` (its events, every seat's last view, its
    result): the same engine plays the same games."""
    from .engine import our_engine

    hashes = [hashlib.sha256() for _ in range(games)]

    def heard(index: int, what: Any) -> None:
        hashes[index].update(json.dumps(what, sort_keys=True, default=repr).encode())

    engine = our_engine(game, heard=heard)
    for index in range(games):
        engine.play(index)
    return {"hashes": [h.hexdigest()[:16] for h in hashes]}


def _package() -> dict[str, Any]:
    """Where this side's `tablegames` comes from."""
    import tablegames

    return {"file": tablegames.__file__}


COMMANDS: dict[str, Callable[..., dict[str, Any]]] = {
    "package": _package,
    "engine": _engine,
    "fingerprint": _fingerprint,
    "compile": _compile,
    "bots": _bots,
}


def serve() -> None:
    """A worker's loop: it names its games, then answers each JSON command line with one JSON
    line (an exception as {"error": one line})."""
    try:
        from tablegames.rules import GAMES

        load_plugins()
        hello: dict[str, Any] = {"games": list(GAMES)}
    except Exception as problem:  # a package that does not even import: say so, once
        hello = {"error": one_line(problem)}
    print(json.dumps(hello), flush=True)
    for line in sys.stdin:
        command = json.loads(line)
        try:
            answer = COMMANDS[command.pop("do")](**command)
        except Exception as problem:
            answer = {"error": one_line(problem)}
        print(json.dumps(answer), flush=True)


# -- the comparison ---------------------------------------------------------------------------
#: Games each side plays of a game per load and round, at the least: a revision's rules may
#: make the same seed another game, and one game's length would decide the ratio.
MIN_GAMES = 5


def calibrate(ours: Worker, theirs: Worker, game: str, load: str, budget: float) -> int:
    """How many games of `game` under `load` take about `budget` CPU seconds in the tree (at
    least `MIN_GAMES`), once both sides have played one (imports, caches: a warm-up)."""
    answer = ours.ask("engine", game=game, load=load, games=1)
    theirs.ask("engine", game=game, load=load, games=1)
    if "error" in answer:
        return MIN_GAMES
    return max(MIN_GAMES, round(budget / max(answer["seconds"], 1e-3)))


def compare(
    tree: Side,
    old: Side,
    rounds: int = 3,
    budget: float = 0.5,
    games: list[str] | None = None,
    compiled: bool = False,
    peers: bool = True,
    fingerprints: int = 20,
) -> dict[str, Any]:
    """Every game's loads on both sides, alternating; the `engine` lines of a comparison.

    `budget`: CPU seconds per game, load and round (as the tree takes them; `MIN_GAMES` at least).
    `fingerprints`: random games of each played on both sides and compared (`same_games`).
    """
    result: dict[str, Any] = {"rev": old.name, "lines": [], "notes": []}
    with workers(tree, old) as (ours, theirs):
        if why := not_started(ours, theirs):
            result["status"] = why
            return result
        names = [n for n in (games or ours.games) if n in ours.games]
        result["notes"] += [
            f"{n}: not a game at {old.name}" for n in names if n not in theirs.games
        ]
        names = [n for n in names if n in theirs.games]
        if compiled:
            built = theirs.ask("compile")
            if "error" in built:
                result["status"] = f"cannot build {old.name}'s crates with mypyc: {built['error']}"
                return result
            names = ["crates"]
        sizes = {
            (name, load): calibrate(ours, theirs, name, load, budget)
            for name in names
            for load in LOADS
        }
        result["same_games"] = same_games(ours, theirs, names, fingerprints)
        for name, same in result["same_games"].items():
            result["notes"].append(f"{name}: {same}")
        peer = _peer() if peers else None
        rates: dict[tuple[str, str], list[tuple[dict[str, Any], dict[str, Any]]]] = {}
        versus: dict[str, list[tuple[float, float, float]]] = {}  # (tree, REV, OpenSpiel)
        broken: dict[tuple[str, str], str] = {}
        for round_index in range(rounds):
            for load in LOADS:
                for name in names:
                    if (name, load) in broken:
                        continue
                    pair: dict[str, dict[str, Any]] = {}
                    order = [("tree", ours), ("old", theirs)]
                    for label, worker in order if round_index % 2 == 0 else order[::-1]:
                        pair[label] = worker.ask(
                            "engine",
                            game=name,
                            load=load,
                            games=sizes[name, load],
                            compiled=compiled and label == "old",
                        )
                    problem = pair["old"].get("error") or pair["tree"].get("error")
                    if problem:
                        broken[name, load] = problem
                        continue
                    rates.setdefault((name, load), []).append((pair["tree"], pair["old"]))
                    if peer is not None and name == "crates" and load != "table updates":
                        rated = (pair["tree"]["rate"], pair["old"]["rate"], peer())
                        versus.setdefault(load, []).append(rated)
    for (name, load), problem in broken.items():
        result["notes"].append(f"{name} {load}: cannot run on {old.name}: {problem}")
    for (name, load), pairs in rates.items():
        # Per action: it holds still when a rule change makes the same seed another game (crates'
        # hands/s beside OpenSpiel's games/s are in the notes).
        result["lines"].append(
            speed_line(
                f"engine {name} {load} (actions/s)",
                statistics.median(p[0]["actions_per_s"] for p in pairs),
                statistics.median(p[1]["actions_per_s"] for p in pairs),
                ratio=statistics.median(
                    p[0]["actions_per_s"] / p[1]["actions_per_s"] for p in pairs
                ),
            )
        )
    for load, triples in versus.items():
        mine, before = (statistics.median(t[i] / t[2] for t in triples) for i in (0, 1))
        result["notes"].append(
            f"crates {load}: hands/s ÷ OpenSpiel crazy_eights games/s (Python loop): "
            f"tree {mine:.3f}, {old.name} {before:.3f}"
        )
    return result


def same_games(ours: Worker, theirs: Worker, names: list[str], games: int) -> dict[str, str]:
    """Per game, whether both sides play the same `games` seeded random games (the same events,
    last views and result), in words: a change to an engine's hot path must not change a game
    (a rule change, with its `rules_version`, does)."""
    found = {}
    for name in names:
        mine, before = (w.ask("fingerprint", game=name, games=games) for w in (ours, theirs))
        if "error" in mine or "error" in before:
            found[name] = f"not compared: {mine.get('error') or before.get('error')}"
            continue
        differ = [
            i
            for i, (a, b) in enumerate(zip(mine["hashes"], before["hashes"], strict=True))
            if a != b
        ]
        found[name] = (
            f"the same {games} random games (events, last views, result) on both sides"
            if not differ
            else f"{len(differ)} of {games} random games differ (seeds {differ[:5]})"
        )
    return found


def _peer() -> Callable[[], float] | None:
    """OpenSpiel's crazy_eights games per CPU second over a short round, when installed."""
    try:
        from .engine import measure_round, openspiel_python

        engine = openspiel_python()
    except ImportError:
        return None
    return lambda: float(measure_round(engine, 0.5)["games_per_s"])


def report(
    figures: dict[str, Any], section: str = "engine"
) -> list[tuple[str, list[str], list[list[Any]]]]:
    """The printed tables of a section's comparison: its lines, then its notes."""
    rev = figures.get("rev", "REV")
    rows = [
        [line["figure"], line["tree"], line["rev"], line["ratio"], line["met"]]
        for line in figures.get("lines", [])
    ]
    tables = [
        (
            f"{section}: the tree against {rev} (speed tree ÷ {rev}: ≥ 1, as fast or faster)",
            ["figure", "tree", rev, f"tree ÷ {rev}", "≥ 1"],
            rows,
        )
    ]
    notes = [*figures.get("notes", []), *filter(None, [figures.get("status")])]
    if notes:
        tables.append((f"{section}: notes on the comparison", ["note"], [[n] for n in notes]))
    return tables


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="HEAD", help="the git revision to compare against")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--budget", type=float, default=1.0, help="CPU s per game and load")
    parser.add_argument("--game", action="append", help="only this game (default: every one)")
    parser.add_argument("--compiled", action="store_true", help="compile REV's crates with mypyc")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # a worker
    args = parser.parse_args(argv)
    if args.serve:
        serve()
        return 0
    with sides(args.rev) as (tree, old):
        figures = compare(tree, old, args.rounds, args.budget, args.game, args.compiled)
    for title, header, rows in report(figures):
        print(table(title, header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
