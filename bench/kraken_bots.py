"""Feed the Kraken bots: faction balance, head-to-head strength, gun economy and decision time.

Plays bot-only games straight through the engine and prints:
- balance: every seat at one level, the share of games each faction wins per table size (a
  faction is one side: sailors, pirates, or the cult with its converts), with the guns players
  hold at the start of each round and the successful mutinies per game;
- versus: one seat at a level (`hard`, `normal`, or a one-line scripted player from `scripted.py`)
  against a table of another (`normal`, `random`). Game i gives the hero seat to a player of
  faction sailors, pirates, cult in turn (rotating through that faction's seats), and the same
  seed is played with every seat at the field's level: the hero's win rate, the same seat's
  rate in the field-only games (its fair share), and the seed-by-seed difference with its 95%
  interval, per faction and over all; also each seat's share of the win (1/winners when its
  faction wins) against the fair 1/players;
- decision time per level: wall and CPU (the thread's time, which other processes on a busy
  machine do not inflate), p50 and p99, in the same run as the win rates.
Figures only: nothing here passes or fails. Tune on seeds 1-999, report from 100000.

    nice -n 10 .venv/bin/python bench/kraken_bots.py --seed 100000 --games 1000 --json k.json
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import percentile, save_json
from bench.scripted import SCRIPTS
from tablegames.bots.kraken import BOTS
from tablegames.bots.kraken.chart import SIDE_OF
from tablegames.rules import Action, State, get_game
from tablegames.testing.playing import bot_turns

SIDES = ("sailor", "pirate", "cult")
SIDE_WORDS = {"sailor": "sailors", "pirate": "pirates", "cult": "cult"}
#: (hero level, field level): one hero seat against a table of the field's level.
MATCHUPS = {
    "normal": ("normal", "random"),
    "hard": ("hard", "normal"),
    "all-guns": ("all-guns", "normal"),
    "never-mutiny": ("never-mutiny", "normal"),
}
ACTION_LIMIT = 5_000  # a bot-only game takes a few hundred actions; this only stops a hang
SCRIPTED = {name: make for name, make in SCRIPTS["kraken"].items() if name != "normal"}
ROUNDS_SHOWN = 6  # guns held are shown at the start of rounds 1..this


@dataclass
class Record:
    """One game: who won, the starting factions, decision times and the gun economy."""

    seed: int
    winner: str
    factions: list[str]
    actions: int = 0
    wall: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    guns_at: dict[int, float] = field(default_factory=dict)  # round -> mean guns of the living
    empty_at: dict[int, float] = field(default_factory=dict)  # round -> share with 0 guns
    mutinies: list[int] = field(default_factory=list)  # the round of each successful mutiny
    raised: int = 0  # guns raised in all mutinies


def make_bot(level: str, seat: int, rng: random.Random) -> Any:
    if level in SCRIPTED:
        return SCRIPTED[level](seat, rng)
    return BOTS[level](seat, rng)


def next_move(
    state: State, bots: list[Any], levels: list[str], record: Record
) -> tuple[int, Action]:
    """Ask the seats with only an optional move ("any time" characters) first, then the rest,
    the way `Table.bot_move` does; time the decisions the table waits for."""
    waiting = state.waiting_for()
    for seat, legal in bot_turns(state):
        view = state.view(seat)
        wall, cpu = time.perf_counter(), time.thread_time()
        action = bots[seat].choose(view, legal)
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        if seat in waiting or action is not None:
            record.wall.setdefault(levels[seat], []).append(wall)
            record.cpu.setdefault(levels[seat], []).append(cpu)
        if action is not None:
            if action not in legal:
                raise AssertionError(f"{levels[seat]} bot chose an illegal action {action}")
            return seat, action
    raise AssertionError(f"no bot moved while the game waits for {sorted(waiting)}")


def play_game(players: int, seed: int, levels: list[str] | None, level: str) -> Record:
    """One bot-only game: seat i at `levels[i]`, or every seat at `level` when `levels` is None."""
    state = get_game("kraken").new(players, seed)
    factions = [state.view(seat)["faction"] for seat in range(players)]
    levels = levels or [level] * players
    bots = [make_bot(lv, seat, random.Random(seed * 100 + seat)) for seat, lv in enumerate(levels)]
    record = Record(seed, "nobody", factions)
    seen_round = 0
    for count in range(ACTION_LIMIT):
        if state.over:
            record.winner = state.result()["winner"]
            record.actions = count
            return record
        public = state.view(None)
        if public["round"] != seen_round:
            seen_round = public["round"]
            living = [s for s in range(players) if s not in public["eliminated"]]
            guns = [public["guns"][s] for s in living]
            record.guns_at[seen_round] = sum(guns) / len(guns)
            record.empty_at[seen_round] = sum(1 for g in guns if g == 0) / len(guns)
        for event in state.apply(*next_move(state, bots, levels, record)):
            if event["kind"] == "mutiny_succeeds":
                record.mutinies.append(seen_round)
            elif event["kind"] == "fists":
                record.raised += sum(g or 0 for g in event["raised"])
    raise AssertionError(f"game with seed {seed} did not end in {ACTION_LIMIT} actions")


def hero_seat(factions: list[str], index: int) -> int:
    """The hero's seat in game `index`: a player of sailors, pirates, cult in turn (the next
    side that has a player), rotating through that side's seats."""
    for turn in range(3):
        side = SIDES[(index + turn) % 3]
        seats = [s for s, f in enumerate(factions) if SIDE_OF[f] == side]
        if seats:
            return seats[(index // 3) % len(seats)]
    raise AssertionError("a table without players")


# -- statistics -----------------------------------------------------------------------------------


def rate(wins: float, games: int) -> tuple[float, float]:
    """A win rate and the half-width of its 95% interval (normal approximation)."""
    share = wins / games if games else 0.0
    return share, 1.96 * math.sqrt(share * (1 - share) / games) if games else 0.0


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean of `values` and the half-width of its 95% interval (normal approximation)."""
    count = len(values)
    mean = sum(values) / count if count else 0.0
    if count < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (count - 1)
    return mean, 1.96 * math.sqrt(variance / count)


def timing(records: list[Record], level: str) -> dict[str, float]:
    wall = [t for r in records for t in r.wall.get(level, [])]
    cpu = [t for r in records for t in r.cpu.get(level, [])]
    return {
        "decisions": len(wall),
        "wall_p50_ms": 1000 * percentile(wall, 0.5),
        "wall_p99_ms": 1000 * percentile(wall, 0.99),
        "cpu_p50_ms": 1000 * percentile(cpu, 0.5),
        "cpu_p99_ms": 1000 * percentile(cpu, 0.99),
        "max_ms": 1000 * max(wall, default=0.0),
    }


def timing_line(level: str, t: dict[str, float]) -> str:
    return (
        f"  {level} decision: p50 {t['wall_p50_ms']:.2f} ms, p99 {t['wall_p99_ms']:.1f} ms wall, "
        f"{t['cpu_p99_ms']:.1f} ms CPU, max {t['max_ms']:.0f} ms ({t['decisions']:.0f} decisions)"
    )


def economy(records: list[Record]) -> dict[str, Any]:
    """Guns held at the start of each round, the share with none, and mutinies per game."""
    rounds = range(1, ROUNDS_SHOWN + 1)
    held = {n: [r.guns_at[n] for r in records if n in r.guns_at] for n in rounds}
    empty = {n: [r.empty_at[n] for r in records if n in r.empty_at] for n in rounds}
    early = sum(1 for r in records for n in r.mutinies if n <= 3)
    return {
        "guns_at_round": {n: sum(v) / len(v) for n, v in held.items() if v},
        "empty_at_round": {n: sum(v) / len(v) for n, v in empty.items() if v},
        "mutinies_per_game": sum(len(r.mutinies) for r in records) / max(1, len(records)),
        "mutinies_rounds_1_3_per_game": early / max(1, len(records)),
        "guns_raised_per_game": sum(r.raised for r in records) / max(1, len(records)),
    }


def economy_line(figures: dict[str, Any]) -> str:
    held = " ".join(f"{v:.2f}" for v in figures["guns_at_round"].values())
    empty = " ".join(f"{v:.0%}" for v in figures["empty_at_round"].values())
    return (
        f"  guns held at rounds 1-{len(figures['guns_at_round'])}: {held}; with none: {empty}; "
        f"successful mutinies/game {figures['mutinies_per_game']:.2f} "
        f"({figures['mutinies_rounds_1_3_per_game']:.2f} in rounds 1-3), "
        f"guns raised/game {figures['guns_raised_per_game']:.1f}"
    )


# -- running --------------------------------------------------------------------------------------


def play_many(
    players: int, seeds: list[int], heroes: dict[int, tuple[int, str]], field: str
) -> list[Record]:
    """Games for `seeds`: the field's level everywhere, but `heroes[seed]` = (seat, level)."""
    records = []
    for seed in seeds:
        levels = None
        if seed in heroes:
            seat, hero = heroes[seed]
            levels = [field] * players
            levels[seat] = hero
        records.append(play_game(players, seed, levels, field))
    return records


def balance(args: argparse.Namespace, figures: dict[str, Any]) -> None:
    for level in args.levels:
        for players in args.players:
            games = args.balance_games or args.games
            started = time.perf_counter()
            records = play_many(players, seeds(args, games), {}, level)
            seconds = time.perf_counter() - started
            wins = Counter(r.winner for r in records)
            shares = {side: rate(wins[side], len(records)) for side in SIDES}
            text = ", ".join(
                f"{SIDE_WORDS[side]} {share:.0%} ± {half:.0%}"
                for side, (share, half) in shares.items()
            )
            print(
                f"{players} players, all {level}, {len(records)} games: {text}; "
                f"{len(records) / seconds:.1f} games/s",
                flush=True,
            )
            gun_figures = economy(records)
            print(economy_line(gun_figures))
            times = timing(records, level)
            print(timing_line(level, times), flush=True)
            figures["balance"].append(
                {
                    "players": players,
                    "level": level,
                    "games": len(records),
                    "win_rates": {side: shares[side][0] for side in SIDES},
                    "win_rates_95": {side: shares[side][1] for side in SIDES},
                    "economy": gun_figures,
                    "timing": {level: times},
                }
            )


def seeds(args: argparse.Namespace, games: int) -> list[int]:
    return [args.seed + index for index in range(games)]


def credit(record: Record, side: str) -> float:
    """A seat of `side`'s share of the win: 1/winners if its faction won (starting roles)."""
    if record.winner != side:
        return 0.0
    return 1 / max(1, sum(1 for f in record.factions if SIDE_OF[f] == side))


def versus(args: argparse.Namespace, figures: dict[str, Any]) -> None:
    players = args.matchup_players
    baselines: dict[str, list[Record]] = {}
    for name in args.matchups:
        hero, field_level = MATCHUPS[name]
        games = args.hard_games if hero == "hard" and args.hard_games else args.games
        game_seeds = seeds(args, games)
        if field_level not in baselines or len(baselines[field_level]) < games:
            baselines[field_level] = play_many(players, game_seeds, {}, field_level)
        base = {r.seed: r for r in baselines[field_level]}
        rows: dict[str, list[tuple[float, ...]]] = {side: [] for side in SIDES}
        records: list[Record] = []
        # Game i gives the hero a sailor, pirate, cult seat in turn; with --every-side each
        # seed is played three times, the hero in each faction once.
        for turn in range(3 if args.every_side else 1):
            heroes = {
                seed: (hero_seat(base[seed].factions, index + turn), hero)
                for index, seed in enumerate(game_seeds)
            }
            played = play_many(players, game_seeds, heroes, field_level)
            for record in played:
                side = SIDE_OF[record.factions[heroes[record.seed][0]]]
                won, was = float(record.winner == side), base[record.seed]
                rows[side].append(
                    (won, float(was.winner == side), credit(record, side), credit(was, side))
                )
            records += played
        print(
            f"{players} players: one {hero} seat against {field_level} seats ({len(records)} games)"
        )
        entry: dict[str, Any] = {
            "hero": hero,
            "field": field_level,
            "players": players,
            "sides": {},
        }
        everything = [row for side in SIDES for row in rows[side]]
        for label, chosen in [(SIDE_WORDS[s], rows[s]) for s in SIDES] + [("all", everything)]:
            won, half = rate(sum(r[0] for r in chosen), len(chosen))
            fair = sum(r[1] for r in chosen) / max(1, len(chosen))
            gain, gain_half = mean_interval([r[0] - r[1] for r in chosen])
            print(
                f"  {label} seat: {len(chosen)} games, wins {won:.1%} ± {half:.1%}, "
                f"fair share (same seat, all {field_level}) {fair:.1%}, paired {gain:+.1%} "
                f"± {gain_half:.1%}"
            )
            entry["sides"][label] = {
                "games": len(chosen),
                "win_rate": won,
                "win_rate_95": half,
                "fair_share": fair,
                "paired_gain": gain,
                "paired_gain_95": gain_half,
            }
        share, share_half = mean_interval([r[2] for r in everything])
        fair_share = sum(r[3] for r in everything) / max(1, len(everything))
        print(
            f"  share of the win (1/winners) {share:.3f} ± {share_half:.3f}, "
            f"same seat all {field_level} {fair_share:.3f}"
        )
        entry["share_of_win"] = {"hero": share, "hero_95": share_half, "fair": fair_share}
        entry["timing"] = {lv: timing(records, lv) for lv in (hero, field_level)}
        for level in (hero, field_level):
            print(timing_line(level, entry["timing"][level]), flush=True)
        figures["versus"].append(entry)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per matchup")
    parser.add_argument("--balance-games", type=int, help="games per table size (default --games)")
    parser.add_argument(
        "--players", type=int, nargs="+", default=list(range(5, 12)), help="balance table sizes"
    )
    parser.add_argument(
        "--levels", nargs="+", default=["normal", "hard"], choices=sorted(BOTS), help="balance"
    )
    parser.add_argument("--matchup-players", type=int, default=7)
    parser.add_argument("--matchups", nargs="+", default=list(MATCHUPS), choices=list(MATCHUPS))
    parser.add_argument("--hard-games", type=int, help="games for hard vs normal")
    parser.add_argument(
        "--every-side", action="store_true", help="play each seed with the hero in each faction"
    )
    parser.add_argument("--skip", choices=("balance", "versus"), action="append", default=[])
    parser.add_argument("--seed", type=int, default=1, help="first game's seed")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {"options": vars(args), "balance": [], "versus": []}
    print(f"Feed the Kraken bots, seeds from {args.seed}")
    started = time.perf_counter()
    if "balance" not in args.skip:
        balance(args, figures)
    if "versus" not in args.skip:
        versus(args, figures)
    print(f"({time.perf_counter() - started:.0f} s)")
    save_json(args.json, figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
