"""Bot decision latency per game and level, and head-to-head win rates between levels.

One bot of a level plays against a table of the level below (`normal` vs `random`, `hard` vs
`normal`), rotating through the seats, through the same `Table` the server uses; real-time games
run on a `VirtualClock`. Every `choose` call that decides something (an action, or the seat the
game waits for) is timed: wall time, as a player waits it, and the thread's CPU time, which a
busy machine does not inflate. Time budgets bound every matchup, also mid-game.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tablegames.bots import get_bot, level_note
from tablegames.drivers import run_realtime
from tablegames.rules import GAMES, Action, View, get_game
from tablegames.table import Table, VirtualClock, is_realtime

from .figures import latency_ms, percentile, save_json, speed_line, table
from .server_host import load_plugins

if TYPE_CHECKING:
    from .engine_ab import Side

MATCHUPS = (("normal", "random"), ("hard", "normal"))  # (the one bot, the rest of the table)
TARGET_P99_MS = {"normal": 5.0, "hard": 250.0}
CHUNK = 25  # real-time actions between deadline checks
SEED = 1000  # the short sample's first seed (long runs for a report take their own range)


@dataclass
class Samples:
    """Decision times of one level in one game: wall and CPU seconds."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


class Timed:
    """Wraps a turn-based bot and times its decisions."""

    def __init__(self, bot: Any, samples: Samples, table_ref: list[Table]) -> None:
        self.bot, self.samples, self.table_ref, self.seat = bot, samples, table_ref, -1

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        wall, cpu = time.perf_counter(), time.thread_time()
        action = self.bot.choose(view, legal)
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        if action is not None or self.seat in self.table_ref[0].state.waiting_for():
            self.samples.wall.append(wall)
            self.samples.cpu.append(cpu)
        return action  # type: ignore[no-any-return]


class TimedRealtime(Timed):
    """Wraps a real-time bot: the same timing, and its wake-up times passed through."""

    def wake_at(self) -> float | None:
        return self.bot.wake_at()  # type: ignore[no-any-return]


def seating(game_name: str, index: int, hero: str, field_level: str) -> list[str]:
    """The levels at a matchup's game `index`: the hero's seat goes round the table."""
    players = get_game(game_name).default_players
    levels = [field_level] * players
    levels[index % players] = hero
    return levels


def play_one(
    game_name: str,
    levels: list[str],
    seed: int,
    samples: dict[str, Samples],
    deadline: float,
) -> dict[str, Any] | None:
    """One bot-only game with `levels` per seat; its result, or None if cut off by `deadline`."""
    game = get_game(game_name)
    rng = random.Random(seed)
    table_ref: list[Table] = []
    bots: dict[int, Any] = {}
    for seat, level in enumerate(levels):
        inner = get_bot(game_name, level, seat, rng)
        wrapper = TimedRealtime if is_realtime(inner) else Timed
        bots[seat] = wrapper(inner, samples.setdefault(level, Samples()), table_ref)
        bots[seat].seat = seat
    clock = VirtualClock()
    names = [f"{level} {seat}" for seat, level in enumerate(levels)]
    table = Table(
        game,
        len(levels),
        names,
        seed=seed,
        options=game.quick_options(),  # crates: 8 rounds, not 15
        bots=bots,
        clock=clock,
    )
    table_ref.append(table)
    realtime = any(is_realtime(bot) for bot in bots.values())
    actions = 0
    while not table.over and actions < 200_000:
        if time.perf_counter() > deadline:
            return None
        if realtime:
            taken = run_realtime(table, clock, CHUNK)
            if taken == 0:
                break
            actions += taken
        else:
            move = table.bot_move()
            if move is None:
                break
            table.submit(*move)
            actions += 1
    return table.state.result() if table.over else None


def matchup(
    game_name: str, hero: str, field_level: str, games: int, budget: float, seed: int = SEED
) -> dict[str, Any]:
    """`games` games (at most `budget` seconds) of one `hero` bot against `field_level` bots,
    seeds from `seed`."""
    game = get_game(game_name)
    players = game.default_players
    samples: dict[str, Samples] = {}
    shares: list[float] = []
    unfinished = 0
    started = time.perf_counter()
    deadline = started + budget
    for index in range(games):
        if index and time.perf_counter() > deadline:
            break
        seat = index % players
        levels = seating(game_name, index, hero, field_level)
        result = play_one(game_name, levels, seed + index, samples, deadline)
        if result is None:
            unfinished += 1
            continue
        winners = result.get("winners") or []
        shares.append(1 / len(winners) if seat in winners else 0.0)
    played = len(shares)
    rate = sum(shares) / played if played else None
    spread = statistics.stdev(shares) / math.sqrt(played) if played > 1 else None
    return {
        "hero": hero,
        "field": field_level,
        "players": players,
        "games": played,
        "unfinished": unfinished,
        "seeds": [seed, seed + games - 1],
        "seconds": round(time.perf_counter() - started, 2),
        "win_rate": rate,
        # A few games say little (hard bots are slow): the long runs are `python -m
        # bench.bot_levels --games 1000 --seed 100000` (this module's `main`).
        "win_rate_95": None
        if rate is None or spread is None
        else [round(max(0.0, rate - 1.96 * spread), 3), round(min(1.0, rate + 1.96 * spread), 3)],
        "fair_share": 1 / players,
        "vs_fair": rate * players if rate is not None else None,
        "latency": {level: _latency(s) for level, s in samples.items()},
    }


def _latency(samples: Samples) -> dict[str, Any]:
    figures: dict[str, Any] = latency_ms(samples.wall)
    figures["cpu_p50_ms"] = round(1000 * percentile(samples.cpu, 0.50), 3)
    figures["cpu_p99_ms"] = round(1000 * percentile(samples.cpu, 0.99), 3)
    return figures


def run(
    games: int = 20,
    budget: float = 10.0,
    hard_budget: float | None = None,
    only: list[str] | None = None,
) -> dict[str, Any]:
    """Every game's matchups; the `bots` figures (latency per game and level, win rates)."""
    options = {name: GAMES[name].quick_options() for name in GAMES}
    result: dict[str, Any] = {"games": {}, "targets_p99_ms": TARGET_P99_MS, "options": options}
    for name in only or sorted(GAMES):
        # (a sentence where the levels do not differ: every level plays at random)
        entry: dict[str, Any] = {"matchups": [], "latency": {}, "note": level_note(GAMES[name])}
        for hero, field_level in MATCHUPS:
            limit = hard_budget if hero == "hard" and hard_budget else budget
            try:
                figures = matchup(name, hero, field_level, games, limit)
            except Exception as problem:  # one game's broken bot must not stop the others
                entry["matchups"].append(
                    {"hero": hero, "field": field_level, "status": f"error: {problem!r}"}
                )
                continue
            entry["matchups"].append({"status": "ok", **figures})
            for level, figures_of_level in figures["latency"].items():
                # A level's latency comes from the matchup where it is the hero when it is one.
                if level == hero or level not in entry["latency"]:
                    entry["latency"][level] = figures_of_level
        for level, figures_of_level in entry["latency"].items():
            target = TARGET_P99_MS.get(level)
            figures_of_level["target_p99_ms"] = target
            figures_of_level["meets_target"] = (
                None if target is None else figures_of_level["p99_ms"] < target
            )
            # On a busy machine the wall p99 also counts time other processes ran instead.
            figures_of_level["meets_target_cpu"] = (
                None if target is None else figures_of_level["cpu_p99_ms"] < target
            )
        result["games"][name] = entry
    return result


def against(
    tree: Side,
    old: Side,
    games: int = 2,
    seed: int = SEED,
    matchups: tuple[tuple[str, str], ...] | list[tuple[str, str]] = MATCHUPS,
) -> dict[str, Any]:
    """Bots' decision CPU on both sides: every game's matchups, the same seeds and seats, one
    game at a time in alternation (a worker per side: `engine_ab.Worker`); a line per game and
    level for the mean and the p99 of the CPU time of a decision."""
    from .engine_ab import not_started, workers

    result: dict[str, Any] = {"rev": old.name, "lines": [], "notes": []}
    with workers(tree, old) as (ours, theirs):
        if why := not_started(ours, theirs):
            result["status"] = why
            return result
        for name in ours.games:
            if name not in theirs.games:
                result["notes"].append(f"bots {name}: not a game at {old.name}")
                continue
            cpu: dict[str, dict[str, list[float]]] = {"tree": {}, "old": {}}
            problem = None
            for hero, field_level in matchups:
                for index in range(games):
                    pair = [("tree", ours), ("old", theirs)]
                    for label, worker in pair if index % 2 == 0 else pair[::-1]:
                        answer = worker.ask(
                            "bots", game=name, hero=hero, field=field_level, index=index, seed=seed
                        )
                        if "error" in answer:
                            problem = problem or (label, answer["error"])
                            continue
                        # A level's times come from the matchup where it is the hero.
                        times = answer["samples"].get(hero, {"cpu": []})["cpu"]
                        cpu[label].setdefault(hero, []).extend(times)
            if problem is not None:
                where = old.name if problem[0] == "old" else "the tree"
                result["notes"].append(f"bots {name}: cannot run on {where}: {problem[1]}")
                continue
            for level in (hero for hero, _ in matchups):
                mine, before = cpu["tree"].get(level, []), cpu["old"].get(level, [])
                if len(mine) != len(before):
                    result["notes"].append(
                        f"bots {name} {level}: {len(mine)} decisions in the tree, {len(before)} "
                        f"at {old.name} (the bots or the games differ)"
                    )
                for what, figure in (("mean", statistics.fmean), ("p99", _p99)):
                    result["lines"].append(
                        speed_line(
                            f"bots {name} {level} decision CPU, {what} (ms)",
                            1000 * figure(mine) if mine else None,
                            1000 * figure(before) if before else None,
                            lower_is_faster=True,
                        )
                    )
    return result


def _p99(values: list[float]) -> float:
    return percentile(values, 0.99)


def report(figures: dict[str, Any]) -> list[tuple[str, list[str], list[list[Any]]]]:
    """The printed tables for the `bots` figures."""
    latency_rows: list[list[Any]] = []
    win_rows: list[list[Any]] = []
    for name, entry in figures["games"].items():
        if entry.get("note"):
            win_rows.append([name, entry["note"], None, None, None, None, None])
        for level in ("random", "normal", "hard"):
            times = entry["latency"].get(level)
            if times:
                target = times.get("target_p99_ms")
                latency_rows.append(
                    [
                        name,
                        level,
                        times["count"],
                        times["p50_ms"],
                        times["p99_ms"],
                        times["max_ms"],
                        times["cpu_p99_ms"],
                        f"< {target:g}" if target else "—",
                    ]
                )
        for match in entry["matchups"]:
            if match.get("status") != "ok":
                win_rows.append(
                    [
                        name,
                        f"{match['hero']} vs {match['field']}",
                        match["status"],
                        None,
                        None,
                        None,
                        None,
                    ]
                )
                continue
            win_rows.append(
                [
                    name,
                    f"one {match['hero']} vs {match['field']}",
                    match["games"],
                    match["win_rate"],
                    "—"
                    if match["win_rate_95"] is None
                    else "{:.2f}–{:.2f}".format(*match["win_rate_95"]),
                    match["fair_share"],
                    match["vs_fair"],
                ]
            )
    return [
        (
            "bots: decision latency (ms, wall; cpu p99 = the thread's CPU time)",
            ["game", "level", "decisions", "p50", "p99", "max", "cpu p99", "target p99"],
            latency_rows,
        ),
        (
            "bots: head-to-head (one bot of a level, the other seats the level below; a short "
            "sample: python -m bench.bot_levels --games 1000 --seed 100000 plays the long run)",
            ["game", "matchup", "games", "win rate", "95% interval", "fair share", "× fair"],
            win_rows,
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    """The long run: every matchup of the games named, with decision times, printed."""
    load_plugins()
    parser = argparse.ArgumentParser(description="Bot levels head to head, with decision times.")
    parser.add_argument("--games", type=int, default=1000, help="games per matchup")
    parser.add_argument("--seed", type=int, default=100_000, help="first game's seed")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="one game")
    parser.add_argument("--matchup", choices=["normal", "hard"], action="append", help="hero")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    parser.add_argument(
        "--cpu-clock",
        action="store_true",
        help="the look-ahead's time budget counts its thread's CPU time (as the check does)",
    )
    args = parser.parse_args(argv)
    if args.cpu_clock:
        from tablegames.bots.generic import LookAhead

        LookAhead.clock = time.thread_time
    results: list[dict[str, Any]] = []
    for name in args.game or sorted(GAMES):
        for hero, field_level in MATCHUPS:
            if args.matchup and hero not in args.matchup:
                continue
            figures = matchup(name, hero, field_level, args.games, math.inf, args.seed)
            results.append({"game": name, **figures})
            low, high = figures["win_rate_95"] or (math.nan, math.nan)
            rows = [
                [level, times["count"], times["p99_ms"], times["cpu_p99_ms"]]
                for level, times in figures["latency"].items()
            ]
            print(
                f"{name}: one {hero} vs {field_level}: {figures['games']} games (seeds "
                f"{args.seed}–{args.seed + args.games - 1}), win rate {figures['win_rate']:.3f} "
                f"(95% {low:.3f}–{high:.3f}), fair {figures['fair_share']:.3f}, "
                f"{figures['vs_fair']:.2f}× fair, {figures['unfinished']} unfinished, "
                f"{figures['seconds']:.0f} s"
            )
            print(table("  decision times", ["level", "decisions", "p99 ms", "cpu p99 ms"], rows))
    save_json(args.json, {"options": vars(args), "matchups": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
