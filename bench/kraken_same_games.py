"""Feed the Kraken bots: a fingerprint of every move in fixed-seed bot-only games.

For speed work on the bots that must not change what they decide: run it before the change
with `--json before.json`, after it with `--compare before.json`; it lists every game whose
moves differ. Each game's hash covers every answer of every bot asked to move (None included,
so an "any time" card kept or played shows), in order, and the winner. Tables:

- `normal`: every seat normal, played straight through the engine (as `kraken_bots.py` does);
- `hard`: the same with one hard seat (seat = seed mod players);
- `talk`: every seat normal at a `Table`, talking and listening, the claims hashed too;
- `long`: every seat normal on the long board (7 players, the one size with a choice).

    nice -n 10 .venv/bin/python bench/kraken_same_games.py --json before.json
    nice -n 10 .venv/bin/python bench/kraken_same_games.py --compare before.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablegames.bots.kraken import BOTS
from tablegames.rules import get_game
from tablegames.table import Table, VirtualClock
from tablegames.testing.playing import bot_turns

ACTION_LIMIT = 5_000
kraken = get_game("kraken")


def digest(items: list[Any]) -> str:
    return hashlib.sha256(json.dumps(items, sort_keys=True).encode()).hexdigest()[:16]


def engine_game(players: int, seed: int, hard_seat: int | None, **options: Any) -> str:
    """One game through the engine, asking seats the way `Table.bot_move` does; its hash."""
    state = kraken.new(players, seed, **options)
    levels = ["normal"] * players
    if hard_seat is not None:
        levels[hard_seat] = "hard"
    bots: list[Any] = [
        BOTS[lv](seat, random.Random(seed * 100 + seat)) for seat, lv in enumerate(levels)
    ]
    answers: list[Any] = []
    for _ in range(ACTION_LIMIT):
        if state.over:
            return digest([answers, state.result()["winner"]])
        for seat, legal in bot_turns(state):
            action = bots[seat].choose(state.view(seat), legal)
            answers.append([seat, action])
            if action is not None:
                state.apply(seat, action)
                break
        else:
            raise AssertionError(f"nobody moved in game {seed}")
    raise AssertionError(f"game {seed} did not end")


def talk_game(players: int, seed: int) -> str:
    """One game at a `Table` of talking normal bots; the hash of its moves, claims and winner."""
    bots: dict[int, Any] = {
        seat: BOTS["normal"](seat, random.Random(seed * 100 + seat)) for seat in range(players)
    }
    names = [f"P{seat}" for seat in range(players)]
    table = Table(kraken, players, names, seed=seed, bots=bots, clock=VirtualClock())
    table.run_bots(ACTION_LIMIT)
    moves = [[seat, action] for seat, action, _ in table.log]
    claims = [[said["seat"], said["claim"]] for said in table.talk]
    winner = table.state.result()["winner"] if table.over else None
    return digest([moves, claims, winner])


def run(kind: str, players: int, seeds: range) -> list[str]:
    if kind == "normal":
        return [engine_game(players, seed, None) for seed in seeds]
    if kind == "hard":
        return [engine_game(players, seed, seed % players) for seed in seeds]
    if kind == "long":
        return [engine_game(players, seed, None, board="long") for seed in seeds]
    return [talk_game(players, seed) for seed in seeds]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[5, 7, 9, 11])
    parser.add_argument("--games", type=int, default=200, help="all-normal games per size")
    parser.add_argument("--hard-games", type=int, default=40, help="games with a hard seat")
    parser.add_argument("--talk-games", type=int, default=40, help="talking games per size")
    parser.add_argument("--long-games", type=int, default=40, help="long-board games (7 players)")
    parser.add_argument("--seed", type=int, default=1, help="first game's seed")
    parser.add_argument("--json", metavar="FILE", help="write every game's hash here")
    parser.add_argument("--compare", metavar="FILE", help="compare with an earlier --json")
    args = parser.parse_args(argv)
    counts = {
        "normal": args.games,
        "hard": args.hard_games,
        "talk": args.talk_games,
        "long": args.long_games,
    }
    hashes: dict[str, list[str]] = {}
    for kind, games in counts.items():
        for players in [7] if kind == "long" else args.players:
            started = time.perf_counter()
            found = run(kind, players, range(args.seed, args.seed + games))
            hashes[f"{kind}/{players}"] = found
            seconds = time.perf_counter() - started
            print(f"{kind} {players} players: {games} games, {digest(found)} ({seconds:.0f} s)")
    if args.json:
        Path(args.json).write_text(json.dumps(hashes, indent=1) + "\n")
    if args.compare:
        earlier: dict[str, list[str]] = json.loads(Path(args.compare).read_text())
        differ = 0
        for key, found in hashes.items():
            before = earlier.get(key)
            if before is None:
                print(f"{key}: not in {args.compare}")
                continue
            changed = [
                args.seed + i for i, (a, b) in enumerate(zip(before, found, strict=False)) if a != b
            ]
            differ += len(changed)
            if changed:
                print(f"{key}: {len(changed)} games differ, seeds {changed[:10]}")
        total = sum(len(found) for found in hashes.values())
        print("same games" if not differ else f"{differ} of {total} games differ")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
