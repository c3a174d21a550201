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

Crabs' `open-signal` script is a team of two newcomers (it plays both seats of the scripted
seat's team): it also reports how many of its signalled fours the other team stole, before and
after its signal had shown twice in the log. `--opponents hard` seats `hard` bots around the
script instead of `normal` ones.

    .venv/bin/python -m bench.scripted --games 1000 --seed 100000
    .venv/bin/python -m bench.scripted --games 200 --seed 100000 --game roach --json out.json
    .venv/bin/python -m bench.scripted --games 300 --game crabs --script open-signal
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.figures import save_json
from tablegames.bots import LEVELS, Bot, get_bot
from tablegames.bots.crabs import CrabsBot
from tablegames.drivers import run_realtime
from tablegames.rules import Action, View, get_game
from tablegames.rules.cards import RANK_ORDER, rank
from tablegames.rules.crabs import is_crab, team_seats
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


#: Table seconds from a partner's signal to the open signaller's call (the newcomer's 1.4 s).
OPEN_CALL_AFTER = 1.4


class OpenSignaller(CrabsBot):
    """Crabs, a team of two newcomers: makes its team's signal as soon as it holds four, never a
    decoy, and calls its partner 1.4 table seconds after the partner's signal; it calls nobody
    else. Swaps as the normal bot does. Seated in both seats of a team (`TEAM_SCRIPTS`)."""

    def _call(self, view: View, legal: list[Action], now: float) -> tuple[str, Action] | None:
        partners = set(view["teams"][view["team"]]) - {self.seat}
        for seat in sorted(partners):
            notes = self.reader.notes_for(seat)
            call = {"type": "accuse", "target": seat}
            if notes.signalled_at is not None and not notes.called and call in legal:
                return f"call:{seat}", call
        return None

    def _reaction(self, kind: str) -> float:
        return OPEN_CALL_AFTER if kind.startswith("call:") else super()._reaction(kind)

    def _decoy(self, view: View, now: float) -> tuple[str, Action | None]:
        return "decoy", None


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
        "open-signal": OpenSignaller,
    },
}
#: Scripts that play every seat of the scripted seat's team, not the seat alone.
TEAM_SCRIPTS = {("crabs", "open-signal")}


@dataclass
class Row:
    """One script's games: its win shares, unfinished games, time taken and, for crabs' open
    signallers, what became of their signalled fours (`signalled_fours`)."""

    game: str
    script: str
    players: int
    opponents: str = "normal"
    shares: list[float] = field(default_factory=list)
    unfinished: int = 0
    seconds: float = 0.0
    fours: Counter[str] = field(default_factory=Counter)

    def figures(self) -> dict[str, Any]:
        games = len(self.shares)
        rate = statistics.fmean(self.shares) if games else 0.0
        error = statistics.stdev(self.shares) / math.sqrt(games) if games > 1 else 0.0
        figures: dict[str, Any] = {
            "game": self.game,
            "script": self.script,
            "opponents": self.opponents,
            "players": self.players,
            "games": games,
            "unfinished": self.unfinished,
            "win_rate": rate,
            "win_rate_95": [max(0.0, rate - 1.96 * error), min(1.0, rate + 1.96 * error)],
            "fair_share": 1 / self.players,
            "vs_fair": rate * self.players,
            "seconds": round(self.seconds, 1),
        }
        if self.fours:
            figures["fours"] = dict(self.fours)
            for when in ("before", "after"):
                stolen, kept = self.fours[f"stolen {when}"], self.fours[f"kept {when}"]
                figures[f"stolen_{when}"] = stolen / (stolen + kept) if stolen + kept else None
        return figures


def signalled_fours(table: Table, team: int) -> Counter[str]:
    """What became of `team`'s signalled fours in one finished crabs game, replayed from its
    log: each four its holder made the team's signal for was `kept` (the partner called it) or
    `stolen` (an opponent did), `before` or `after` the signal had shown twice (two correct
    calls on a player who had made it for the four called): from then on the log teaches it."""
    state: Any = table.game.new(table.players, table.seed, **table.options)
    members = state.teams[team]
    signalled: dict[int, bool] = {}  # member -> the signal had shown twice when they made it
    shown = 0
    fours: Counter[str] = Counter()
    for seat, action, now in table.log:
        if (
            action.get("type") == "gesture"
            and seat in members
            and action["name"] in state.signals[team]
            and is_crab(state.hands[seat])
        ):
            signalled.setdefault(seat, shown >= 2)
        for event in state.apply(seat, action, now):
            if event["kind"] != "accuse" or not event.get("correct"):
                continue
            after = signalled.pop(event["target"], None)
            if after is None:
                continue  # a four called before its signal: it teaches nothing
            shown += 1
            kept = event["accuser"] in members
            fours[f"{'kept' if kept else 'stolen'} {'after' if after else 'before'}"] += 1
    return fours


def play_one(game_name: str, bots: dict[int, Any], seed: int) -> Table:
    """One bot-only game through a `Table` (real-time ones on a virtual clock); its table."""
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
    return table


def team_of(game_name: str, script: str, players: int, hero: int) -> list[int]:
    """The seats the script plays: `hero`'s team for a team script, else `hero` alone."""
    if (game_name, script) in TEAM_SCRIPTS:
        return next(team for team in team_seats(players) if hero in team)
    return [hero]


def run_script(
    game_name: str, script: str, games: int, seed: int, opponents: str = "normal"
) -> Row:
    """`games` games of one `script` seat (rotating; a team script plays the seat's team)
    against `opponents` bots, seeds from `seed`."""
    players = get_game(game_name).default_players
    maker = SCRIPTS[game_name][script]
    row = Row(game_name, script, players, opponents)
    started = time.perf_counter()
    for index in range(games):
        game_seed = seed + index
        hero = index % players
        ours = team_of(game_name, script, players, hero)
        rng = random.Random(game_seed * 7919)
        bots: dict[int, Any] = {}
        for seat in range(players):
            seat_rng = random.Random(rng.getrandbits(64))
            bots[seat] = (
                maker(seat, seat_rng)
                if seat in ours
                else get_bot(game_name, opponents, seat, seat_rng)
            )
        table = play_one(game_name, bots, game_seed)
        if not table.over:
            row.unfinished += 1
            continue
        winners = table.state.result().get("winners") or []
        row.shares.append(1 / len(winners) if hero in winners else 0.0)
        if len(ours) > 1:
            row.fours += signalled_fours(table, team_seats(players).index(ours))
    row.seconds = time.perf_counter() - started
    return row


def report_line(figures: dict[str, Any]) -> str:
    """One printed row (and a second for crabs' open signallers' fours)."""
    low, high = figures["win_rate_95"]
    verdict = "above fair" if low > figures["fair_share"] else "not above fair"
    extra = f", {figures['unfinished']} unfinished" if figures["unfinished"] else ""
    line = (
        f"{figures['game']:7} {figures['script']:17} {figures['games']:6} "
        f"{figures['win_rate']:7.3f}  {low:.3f}–{high:.3f}  {figures['fair_share']:.3f}  "
        f"{figures['vs_fair']:5.2f}×  {verdict} ({figures['seconds']:.0f} s{extra})"
    )
    fours = figures.get("fours", {})
    for when, words in (("before", "before"), ("after", "once")):
        stolen, called = fours.get(f"stolen {when}", 0), figures.get(f"stolen_{when}")
        if called is not None:
            line += (
                f"\n        {figures['opponents']} opponents stole {called:.0%} of its signalled"
                f" fours {words} its signal had shown twice ({stolen} of "
                f"{stolen + fours.get(f'kept {when}', 0)})"
            )
    return line


def run(
    games: int,
    seed: int,
    only: list[str] | None = None,
    scripts: list[str] | None = None,
    opponents: str = "normal",
) -> list[dict[str, Any]]:
    """Every script of every game (or those named) against `opponents` bots; their figures,
    printed as they come."""
    print(f"Scripted seats against {opponents} bots")
    print("game    script             games  win     95% interval  fair   × fair")
    rows = []
    for game_name in only or list(SCRIPTS):
        for script in SCRIPTS[game_name]:
            if scripts and script not in scripts:
                continue
            figures = run_script(game_name, script, games, seed, opponents).figures()
            rows.append(figures)
            print(report_line(figures), flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per script")
    parser.add_argument("--seed", type=int, default=100_000, help="first game's seed")
    parser.add_argument("--game", choices=sorted(SCRIPTS), action="append", help="one game")
    parser.add_argument("--script", action="append", help="only this script (and repeat)")
    parser.add_argument(
        "--opponents", choices=LEVELS, default="normal", help="the other seats' bot level"
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    args = parser.parse_args(argv)
    rows = run(args.games, args.seed, args.game, args.script, args.opponents)
    save_json(args.json, {"options": vars(args), "rows": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
