"""Crates bot strength and speed: one `normal` vs three `random`, one `hard` vs three `normal`.

Plays bot-only games straight through the engine, the one stronger bot rotating through every
seat, and prints its win rate (a shared win counts 1/len(winners); a fair share is 1/players),
decision latency per level and games per second. Figures only: nothing here passes or fails.

Win rates of close bots need many games; `--paired-rounds N` adds a sharper measure of hard
against normal: N round starts from normal games, each played out twice from the same state
(same deal, same shuffles) with the seat under test played by hard, then by normal, each round
judged by the seat's chance of winning the game as the totals then stand (what hard plays for).

    .venv/bin/python bench/crates_bots.py --games 1000 --players 4 --json figures.json
"""

from __future__ import annotations

import argparse
import copy
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import add_up, decision_line, latency_ms, save_json
from bench.matchups import BotTally, hero_seat, in_parallel, win_rate_words
from tablegames.bots.crates import BOTS, game_outcome
from tablegames.rules import Action, State, get_game
from tablegames.rules.crates import CratesState
from tablegames.testing.playing import bot_turns

MATCHUPS = {"normal": "random", "hard": "normal"}  # the one bot -> the level of the other seats
ACTION_LIMIT = 50_000  # a bot-only game takes a few hundred actions; this only stops a hang


@dataclass
class Tally(BotTally):
    """What a batch measured: the one bot's win shares and scores, and decision times."""

    shares: list[float] = field(default_factory=list)
    hero_scores: list[int] = field(default_factory=list)
    field_scores: list[float] = field(default_factory=list)
    unfinished: list[int] = field(default_factory=list)  # seeds of games that never ended
    round_gains: list[float] = field(default_factory=list)  # paired rounds: normal minus hard

    def merge(self, other: Tally) -> None:
        seconds = max(self.seconds, other.seconds)  # the processes ran side by side
        add_up(self, other)
        self.seconds = seconds


def next_move(state: State, bots: list[Any], levels: list[str], tally: Tally) -> tuple[int, Action]:
    """Ask the seats with an optional move (announce, Dope!) first, then the seat to act, as
    `Table.bot_move` does: everyone gets the chance a quick human would."""
    waiting = state.waiting_for()
    for seat, legal in bot_turns(state):
        started = time.process_time()  # CPU time: the machine may be busy with other work
        action = bots[seat].choose(state.view(seat), legal)
        if seat in waiting:  # a turn decision: the one a player waits for
            tally.latencies.setdefault(levels[seat], []).append(time.process_time() - started)
        if action is not None:
            if action not in legal:
                raise AssertionError(f"{levels[seat]} bot chose an illegal action {action}")
            return seat, action
    raise AssertionError(f"no bot moved while the game waits for {sorted(waiting)}")


def make_bots(levels: list[str], seed: int) -> list[Any]:
    return [
        BOTS[level](seat, random.Random(seed * 100 + seat)) for seat, level in enumerate(levels)
    ]


def play_game(levels: list[str], seed: int, short: bool, tally: Tally) -> dict[str, Any] | None:
    """Play one bot-only game; returns the engine's result, or None if it never ends."""
    state = get_game("crates").new(len(levels), seed, short=short)
    return play_out(state, make_bots(levels, seed), levels, tally)


def play_out(
    state: State, bots: list[Any], levels: list[str], tally: Tally
) -> dict[str, Any] | None:
    """Play `state` to the end with `bots`; the engine's result, or None if it never ends."""
    for _ in range(ACTION_LIMIT):
        if state.over:
            return state.result()
        state.apply(*next_move(state, bots, levels, tally))
    return None  # the rules have no end for a round nobody can shed in: counted, not scored


def play_batch(hero: str, players: int, short: bool, seeds: list[int]) -> Tally:
    """One `hero` bot against `players - 1` of its opponent level, rotating the hero's seat."""
    tally = Tally()
    started = time.perf_counter()
    for seed in seeds:
        seat, levels = hero_seat(hero, MATCHUPS[hero], players, seed)
        result = play_game(levels, seed, short, tally)
        if result is None:
            tally.unfinished.append(seed)
            continue
        winners, scores = result["winners"], result["scores"]
        tally.shares.append(1 / len(winners) if seat in winners else 0.0)
        tally.hero_scores.append(scores[seat])
        tally.field_scores.append((sum(scores) - scores[seat]) / (players - 1))
    tally.seconds = time.perf_counter() - started
    return tally


def round_starts(count: int, players: int, short: bool, seed: int) -> list[CratesState]:
    """The first `count` round starts met in games of normal bots from `seed` on."""
    starts: list[CratesState] = []
    tally = Tally()
    while len(starts) < count:
        seed += 1
        state = get_game("crates").new(players, seed, short=short)
        assert isinstance(state, CratesState)
        bots = make_bots(["normal"] * players, seed)
        seen_round = -1
        while not state.over and len(starts) < count:
            if state.round_index != seen_round:
                seen_round = state.round_index
                starts.append(copy.deepcopy(state))
            state.apply(*next_move(state, bots, ["normal"] * players, tally))
    return starts


def round_score(start: CratesState, levels: list[str], seat: int, seed: int) -> float:
    """Play one round from a copy of `start`; how it went for `seat` by the hard bot's measure
    (minus its chance of winning the game as the totals stand after the round)."""
    state = copy.deepcopy(start)
    bots = make_bots(levels, seed)
    tally = Tally()
    while state.round_index == start.round_index and not state.over:
        state.apply(*next_move(state, bots, levels, tally))
    assert state.last_round is not None
    points: list[int] = state.last_round["points"]
    return game_outcome(start.view(seat), points, seat)


def paired_rounds(players: int, short: bool, seed: int, indexes: list[int]) -> Tally:
    """For each round start, the seat under test's score as normal minus its score as hard."""
    tally = Tally()
    started = time.perf_counter()
    starts = round_starts(max(indexes) + 1, players, short, seed)
    for index in indexes:
        seat = index % players
        levels = ["normal"] * players
        as_normal = round_score(starts[index], levels, seat, index)
        levels[seat] = "hard"
        tally.round_gains.append(as_normal - round_score(starts[index], levels, seat, index))
    tally.seconds = time.perf_counter() - started
    return tally


def mean_and_error(values: list[float]) -> tuple[float, float]:
    """The mean and its standard error."""
    spread = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return statistics.fmean(values), spread


def summary(hero: str, tally: Tally, players: int) -> dict[str, Any]:
    """The figures for one matchup, ready to print or dump as JSON."""
    games = len(tally.shares)
    rate, error = mean_and_error(tally.shares)
    latency = {level: latency_ms(times) for level, times in sorted(tally.latencies.items())}
    return {
        "hero": hero,
        "opponents": MATCHUPS[hero],
        "games": games,
        "unfinished": tally.unfinished,
        "win_rate": rate,
        "win_rate_95": [rate - 1.96 * error, rate + 1.96 * error],
        "fair_share": 1 / players,
        "hero_mean_total": statistics.fmean(tally.hero_scores),
        "field_mean_total": statistics.fmean(tally.field_scores),
        "games_per_second": games / tally.seconds if tally.seconds else 0.0,
        "latency": latency,
    }


def report(figures: dict[str, Any]) -> str:
    """A few readable lines for one matchup."""
    fair = figures["fair_share"]
    lines = [
        f"one {figures['hero']} vs {figures['opponents']}s: {win_rate_words(figures)} = "
        f"{figures['win_rate'] / fair:.2f}× fair share {fair:.0%} over {figures['games']} games",
        f"  mean final total: {figures['hero']} {figures['hero_mean_total']:.0f}, "
        f"each {figures['opponents']} {figures['field_mean_total']:.0f}; "
        f"{figures['games_per_second']:.2f} games/s",
    ]
    if figures["unfinished"]:
        lines.append(f"  {len(figures['unfinished'])} games never ended: {figures['unfinished']}")
    for level, times in figures["latency"].items():
        lines.append(decision_line(level, times, "decision (CPU)"))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per matchup")
    parser.add_argument("--hard-games", type=int, help="games for hard vs normal (else --games)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--short", action="store_true", help="8-round games instead of 15")
    parser.add_argument("--seed", type=int, default=1, help="first game's seed")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play games in")
    parser.add_argument("--only", choices=sorted(MATCHUPS), action="append", help="one matchup")
    parser.add_argument("--paired-rounds", type=int, default=0, metavar="N", help="see above")
    args = parser.parse_args(argv)
    length = "8-round (short)" if args.short else "15-round"
    print(f"Crates bots: {args.players} players, {length} games, seeds from {args.seed}")
    results: dict[str, Any] = {"options": vars(args), "matchups": []}
    for hero in args.only or list(MATCHUPS):
        games = args.hard_games if hero == "hard" and args.hard_games else args.games
        if not games:  # e.g. --games 0 --paired-rounds N
            continue
        seeds = list(range(args.seed, args.seed + games))
        tally = in_parallel(Tally(), args.jobs, play_batch, seeds, hero, args.players, args.short)
        figures = summary(hero, tally, args.players)
        results["matchups"].append(figures)
        print(report(figures), flush=True)
    if args.paired_rounds:
        indexes = list(range(args.paired_rounds))
        tally = in_parallel(
            Tally(), args.jobs, paired_rounds, indexes, args.players, args.short, args.seed
        )
        gain, error = mean_and_error([100 * g for g in tally.round_gains])
        changed = sum(1 for g in tally.round_gains if g)
        results["paired_rounds"] = {"rounds": len(indexes), "gain": gain, "error": error}
        print(
            f"paired rounds: hard's chance of winning the game minus normal's after the same "
            f"{len(indexes)} round starts: {gain:+.2f} ± {error:.2f} (1 s.e.) points of "
            f"percentage per round ({changed} rounds went differently; {tally.seconds:.0f} s)"
        )
    save_json(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
