"""Scripted opponents: one-line strategies, each played by one seat against `normal` bots.

A bot worth sitting down with is not beaten by a fixed rule a new player might hit on ("always
tell the truth"). Each script below is one such rule, read from the seat's view and legal
actions only; every decision the rule does not cover is left to the game's `normal` bot (which
then chooses among the legal actions the rule allows). The scripted seat rotates through the
table, and every script of a game plays the same seeds (paired), so rows of a game differ only
by the script. A `normal` row (the same seat played by a normal bot) is the control: it should
sit at the fair share.

A win counts 1/len(winners) to the seats that share it, so the fair share is 1/players in every
game (in roach everyone but the loser wins: a seat that never loses scores 1/(players-1)).

    .venv/bin/python -m bench.scripted --games 1000 --seed 100000
    .venv/bin/python -m bench.scripted --games 200 --seed 100000 --game roach --json out.json
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.figures import save_json
from tablegames.bots import Bot, get_bot
from tablegames.bots.crabs import CrabsBot
from tablegames.drivers import run_realtime
from tablegames.rules import Action, View, get_game
from tablegames.rules.cards import RANK_ORDER, rank
from tablegames.rules.crates import CARD_POINTS
from tablegames.rules.roach import claim_is_true
from tablegames.table import Table, VirtualClock, is_realtime

ACTION_LIMIT = 200_000
REALTIME_CHUNK = 200
#: Table seconds a real-time game may last before it is counted unfinished.
TIME_LIMIT = 4 * 3600.0

#: A script narrows the legal actions to the ones its rule allows (the normal bot picks among
#: them), or returns the action itself; None leaves the decision to the normal bot.
Rule = Callable[[View, list[Action], random.Random], "list[Action] | Action | None"]


class Scripted:
    """A turn-based seat playing one rule (`rule`) and the normal bot for everything else."""

    def __init__(self, game: str, rule: Rule, seat: int, rng: random.Random) -> None:
        self.rule, self.rng, self.seat = rule, rng, seat
        self.normal = get_bot(game, "normal", seat, rng)

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        if not legal:
            return None
        ruled = self.rule(view, legal, self.rng)
        if isinstance(ruled, dict):
            return ruled
        allowed = ruled or legal
        action = self.normal.choose(view, allowed)
        if action is not None and action not in allowed:
            # A normal crates bot adds the announce flag to a play leaving one card itself.
            action = {key: value for key, value in action.items() if key != "announce"}
            if action not in allowed:
                raise AssertionError(f"the normal bot left the script's actions: {action}")
        return action


# -- roach -----------------------------------------------------------------------------------------


def roach_truth(view: View, legal: list[Action], rng: random.Random) -> list[Action] | None:
    """Always tell the truth: every offer's claim is true of the card."""
    return [a for a in legal if a["type"] == "offer" and claim_is_true(a["card"], a["claim"])]


def roach_bluff(view: View, legal: list[Action], rng: random.Random) -> list[Action] | None:
    """Always bluff: every offer's claim is false of the card."""
    return [a for a in legal if a["type"] == "offer" and not claim_is_true(a["card"], a["claim"])]


def roach_false(view: View, legal: list[Action], rng: random.Random) -> Action | None:
    """Always say "false" when a card is slid to it (never passes it on)."""
    doubt = {"type": "challenge", "believe": False}
    return doubt if doubt in legal else None


# -- crates ----------------------------------------------------------------------------------------


def crates_highest(view: View, legal: list[Action], rng: random.Random) -> list[Action] | None:
    """Always play the highest card it may (by points, then rank)."""
    plays = [a for a in legal if a["type"] == "play"]
    if not plays:
        return None
    top = max(plays, key=lambda a: (CARD_POINTS[rank(a["card"])], RANK_ORDER[rank(a["card"])]))
    return [a for a in plays if a["card"] == top["card"]] + [
        a for a in legal if a["type"] in ("announce", "dope")
    ]


def crates_silent(view: View, legal: list[Action], rng: random.Random) -> list[Action] | None:
    """Never announce Crates!."""
    return [a for a in legal if a["type"] != "announce" and not a.get("announce")]


# -- kraken ----------------------------------------------------------------------------------------


def kraken_all_guns(view: View, legal: list[Action], rng: random.Random) -> Action | None:
    """Raise every gun it has in every mutiny (and join every instigated one)."""
    raises = [a for a in legal if a["type"] == "mutiny"]
    return max(raises, key=lambda a: int(a["guns"])) if raises else None


def kraken_no_mutiny(view: View, legal: list[Action], rng: random.Random) -> Action | None:
    """Never mutiny: raise as few guns as the rules allow, decline every instigation."""
    raises = [a for a in legal if a["type"] == "mutiny"]
    if not raises:
        return None
    if {"type": "decline"} in legal:
        return {"type": "decline"}
    return min(raises, key=lambda a: int(a["guns"]))


# -- crabs -----------------------------------------------------------------------------------------

#: The random accuser's mean table seconds between accusations.
RANDOM_ACCUSE_EVERY = 20.0


class RandomAccuser(CrabsBot):
    """Crabs: accuses a random player at random moments (about every 20 table seconds) and
    never on evidence; swaps, signals and answers as the normal bot does."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self.next_accusation: float | None = None

    def _call(self, view: View, legal: list[Action], now: float) -> tuple[str, Action] | None:
        if self.next_accusation is None:
            self.next_accusation = now + self.rng.expovariate(1 / RANDOM_ACCUSE_EVERY)
        targets = [a for a in legal if a["type"] == "accuse"]
        if now < self.next_accusation or not targets:
            self.rechecks.append(self.next_accusation)
            return None
        target = self.rng.choice(targets)
        return f"accuse:{target['target']}", target

    def _acted(self, kind: str, action: Action, now: float) -> None:
        super()._acted(kind, action, now)
        if action["type"] == "accuse":
            self.next_accusation = None


# -- the table of scripts --------------------------------------------------------------------------

Maker = Callable[[int, random.Random], Bot]


def _rule(game: str, rule: Rule) -> Maker:
    return lambda seat, rng: Scripted(game, rule, seat, rng)


def _normal(game: str) -> Maker:
    return lambda seat, rng: get_bot(game, "normal", seat, rng)


#: Per game: script name -> how to seat it (the `normal` row is the control).
SCRIPTS: dict[str, dict[str, Maker]] = {
    "roach": {
        "normal": _normal("roach"),
        "always-truth": _rule("roach", roach_truth),
        "always-bluff": _rule("roach", roach_bluff),
        "always-false": _rule("roach", roach_false),
    },
    "crates": {
        "normal": _normal("crates"),
        "highest-card": _rule("crates", crates_highest),
        "never-announce": _rule("crates", crates_silent),
    },
    "kraken": {
        "normal": _normal("kraken"),
        "all-guns": _rule("kraken", kraken_all_guns),
        "never-mutiny": _rule("kraken", kraken_no_mutiny),
    },
    "crabs": {
        "normal": _normal("crabs"),
        "accuse-at-random": RandomAccuser,
    },
}


@dataclass
class Row:
    """One script's games: its win shares, unfinished games and time taken."""

    game: str
    script: str
    players: int
    shares: list[float]
    unfinished: int
    seconds: float

    def figures(self) -> dict[str, Any]:
        games = len(self.shares)
        rate = statistics.fmean(self.shares) if games else 0.0
        error = statistics.stdev(self.shares) / math.sqrt(games) if games > 1 else 0.0
        return {
            "game": self.game,
            "script": self.script,
            "players": self.players,
            "games": games,
            "unfinished": self.unfinished,
            "win_rate": rate,
            "win_rate_95": [max(0.0, rate - 1.96 * error), min(1.0, rate + 1.96 * error)],
            "fair_share": 1 / self.players,
            "vs_fair": rate * self.players,
            "seconds": round(self.seconds, 1),
        }


def play_one(game_name: str, bots: dict[int, Any], seed: int) -> dict[str, Any] | None:
    """One bot-only game through a `Table` (real-time ones on a virtual clock); its result."""
    game = get_game(game_name)
    clock = VirtualClock()
    names = [f"seat {seat}" for seat in range(len(bots))]
    table = Table(
        game, len(bots), names, seed=seed, options=game.quick_options(), bots=bots, clock=clock
    )
    if any(is_realtime(bot) for bot in bots.values()):
        run_realtime(table, clock, ACTION_LIMIT, max_seconds=TIME_LIMIT)
    else:
        for _ in range(ACTION_LIMIT):
            if table.over:
                break
            move = table.bot_move()
            if move is None:
                break
            table.submit(*move)
    return table.state.result() if table.over else None


def run_script(game_name: str, script: str, games: int, seed: int) -> Row:
    """`games` games of one `script` seat (rotating) against normal bots, seeds from `seed`."""
    players = get_game(game_name).default_players
    maker = SCRIPTS[game_name][script]
    shares: list[float] = []
    unfinished = 0
    started = time.perf_counter()
    for index in range(games):
        game_seed = seed + index
        hero = index % players
        rng = random.Random(game_seed * 7919)
        bots: dict[int, Any] = {}
        for seat in range(players):
            seat_rng = random.Random(rng.getrandbits(64))
            normal = seat != hero
            bots[seat] = (
                get_bot(game_name, "normal", seat, seat_rng) if normal else maker(seat, seat_rng)
            )
        result = play_one(game_name, bots, game_seed)
        if result is None:
            unfinished += 1
            continue
        winners = result.get("winners") or []
        shares.append(1 / len(winners) if hero in winners else 0.0)
    return Row(game_name, script, players, shares, unfinished, time.perf_counter() - started)


def report_line(figures: dict[str, Any]) -> str:
    """One printed row."""
    low, high = figures["win_rate_95"]
    verdict = "above fair" if low > figures["fair_share"] else "not above fair"
    extra = f", {figures['unfinished']} unfinished" if figures["unfinished"] else ""
    return (
        f"{figures['game']:7} {figures['script']:17} {figures['games']:6} "
        f"{figures['win_rate']:7.3f}  {low:.3f}–{high:.3f}  {figures['fair_share']:.3f}  "
        f"{figures['vs_fair']:5.2f}×  {verdict} ({figures['seconds']:.0f} s{extra})"
    )


def run(
    games: int, seed: int, only: list[str] | None = None, scripts: list[str] | None = None
) -> list[dict[str, Any]]:
    """Every script of every game (or those named); their figures, printed as they come."""
    print("game    script             games  win     95% interval  fair   × fair")
    rows = []
    for game_name in only or list(SCRIPTS):
        for script in SCRIPTS[game_name]:
            if scripts and script not in scripts:
                continue
            figures = run_script(game_name, script, games, seed).figures()
            rows.append(figures)
            print(report_line(figures), flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per script")
    parser.add_argument("--seed", type=int, default=100_000, help="first game's seed")
    parser.add_argument("--game", choices=sorted(SCRIPTS), action="append", help="one game")
    parser.add_argument("--script", action="append", help="only this script (and repeat)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    args = parser.parse_args(argv)
    rows = run(args.games, args.seed, args.game, args.script)
    save_json(args.json, {"options": vars(args), "rows": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
