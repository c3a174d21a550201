"""Engine throughput: random playouts of every registered game, and peers run side by side.

Each engine plays whole games with uniformly random legal actions until a time budget is spent;
rounds interleave the engines so machine load hits them alike, and figures are medians over
rounds. Time is this process's CPU time (the loops are single-threaded), which keeps the other
work on a shared machine out of the figures.

Peers (the optional `bench` extra): OpenSpiel's `crazy_eights` driven from Python (random legal
actions, chance outcomes sampled by their probabilities) and in C++ (`pyspiel.evaluate_bots` with
C++ uniform random bots: the whole game loop stays inside C++, as in OpenSpiel's `random_sim`
example, which the wheel does not ship), and RLCard's UNO engine (pure Python) with random legal
actions. A crates *hand* (one round) is the unit comparable with one crazy-eights game.
"""

from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tablegames.rules import GAMES, Game, get_game

from .figures import median, median_ratio

PEER_PLAYERS = 4  # crazy_eights is played at crates' default table size
Playout = Callable[[int], tuple[int, int]]  # game index -> (actions, hands)


@dataclass
class Engine:
    """One engine to measure: how to play a game of it, and what the figures are called."""

    key: str
    label: str
    players: int
    play: Playout
    counts_actions: bool = True
    notes: dict[str, Any] = field(default_factory=dict)
    rounds: list[dict[str, float]] = field(default_factory=list)


def our_engine(
    name: str,
    seed: int = 0,
    quiet: bool = False,
    game: Game | None = None,
    watch: bool = False,
    heard: Callable[[int, Any], None] | None = None,
) -> Engine:
    """A registered game played through the rules contract with random legal actions.

    The acting seat is drawn from `waiting_for()`, the action from `legal(seat)`; real-time
    games are given `now` as the action count, as the contract tests do, and the clock's `time`
    action once a deadline has passed (or when nobody's move is needed). With `quiet`, the
    engine writes no event log after the deal (as bots' rollouts run it; peers keep no log).
    With `watch`, every action is followed by what a table sends out: each seat's view,
    waiting seats and legal actions, and a spectator's view. `heard(index, events)` is given
    each action's events, then the last views and the result (a fingerprint of the game).
    """
    game = game or get_game(name)
    players = game.default_players
    rng = random.Random(seed)
    hands_per_game = game.name == "crates"

    def play(index: int) -> tuple[int, int]:
        state = game.new(players, seed + index)
        state.quiet = quiet
        actions = 0
        while not state.over and actions < 100_000:
            waiting = state.waiting_for()
            due = state.deadline()
            if due is not None and (not waiting or actions >= due):
                # The table's part: the clock decides (crabs' double-crab window).
                events = state.apply(0, {"type": "time"}, max(float(actions), due))
            else:
                seat = next(iter(waiting)) if len(waiting) == 1 else rng.choice(sorted(waiting))
                events = state.apply(seat, rng.choice(state.legal(seat)), float(actions))
            actions += 1
            if heard is not None:
                heard(index, events)
            if watch:
                for watcher in (*range(players), None):
                    state.view(watcher)
                    state.visible_waiting(watcher)
                    if watcher is not None:
                        state.legal(watcher)
        if heard is not None:
            heard(index, [state.view(seat) for seat in (*range(players), None)])
            heard(index, state.result() if state.over else None)
        hands = state.result().get("rounds", 1) if hands_per_game else 1
        return actions, hands

    if quiet:
        return Engine(f"{name}_quiet", f"{game.title} (ours, no event log)", players, play)
    return Engine(name, f"{game.title} (ours)", players, play)


def compiled_engines() -> list[Engine]:
    """The crates engine built with mypyc from the same source, with the log on and off.

    Not what ships (the engines are pure Python): it shows what compiling alone would buy.
    """
    from .compiled import compiled_crates

    game = compiled_crates()
    engines = [
        our_engine("crates_compiled", game=game),
        our_engine("crates_compiled", quiet=True, game=game),
    ]
    for engine in engines:
        engine.label = engine.label.replace("(ours", "(ours compiled with mypyc")
        engine.notes["shipped"] = False
    return engines


def openspiel_python(players: int = PEER_PLAYERS, seed: int = 0) -> Engine:
    """OpenSpiel's crazy_eights driven from Python: legal actions, random choice, chance sampled."""
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": players})
    rng = random.Random(seed)

    def play(index: int) -> tuple[int, int]:
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
        return actions, 1

    params = {k: v for k, v in game.get_parameters().items()}
    return Engine(
        "openspiel_pyloop",
        "OpenSpiel crazy_eights, Python loop",
        players,
        play,
        notes={"parameters": params},
    )


def openspiel_cpp(players: int = PEER_PLAYERS, seed: int = 0) -> Engine:
    """OpenSpiel's crazy_eights with the whole game loop in C++ (evaluate_bots, random bots)."""
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": players})
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(players)]

    def play(index: int) -> tuple[int, int]:
        state = game.new_initial_state()
        pyspiel.evaluate_bots(state, bots, seed + index)
        return state.move_number(), 1

    return Engine(
        "openspiel_cpp",
        "OpenSpiel crazy_eights, C++ loop",
        players,
        play,
        notes={"how": "pyspiel.evaluate_bots + C++ uniform random bots, one call per game"},
    )


def rlcard_uno(seed: int = 0) -> Engine:
    """RLCard's UNO engine (pure Python), random legal actions, its default 2 players."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    players = 2
    rng = random.Random(seed)

    def play(index: int) -> tuple[int, int]:
        game = UnoGame(num_players=players)
        game.np_random = np.random.RandomState(seed + index)
        game.init_game()
        actions = 0
        while not game.is_over() and actions < 100_000:
            game.step(rng.choice(game.get_legal_actions()))
            actions += 1
        return actions, 1

    return Engine("rlcard_uno", "RLCard UNO (Python)", players, play)


PEERS: dict[str, Callable[[], Engine]] = {
    "openspiel_pyloop": openspiel_python,
    "openspiel_cpp": openspiel_cpp,
    "rlcard_uno": rlcard_uno,
}
PEER_PACKAGES = {
    "openspiel_pyloop": "open_spiel",
    "openspiel_cpp": "open_spiel",
    "rlcard_uno": "rlcard",
}


def measure_round(engine: Engine, budget: float) -> dict[str, float]:
    """Play games of `engine` for `budget` seconds of wall time; the rates of this one round.

    Rates are per CPU second of this process: on a shared machine, wall time would also count
    the moments other processes ran instead.
    """
    games = actions = hands = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while True:
        played, rounds = engine.play(len(engine.rounds) * 1_000_003 + games)
        games, actions, hands = games + 1, actions + played, hands + rounds
        if time.perf_counter() - wall >= budget:
            break
    elapsed = max(time.process_time() - cpu, 1e-9)
    return {
        "games_per_s": games / elapsed,
        "actions_per_s": actions / elapsed,
        "hands_per_s": hands / elapsed,
        "games": games,
        "mean_actions": actions / games,
    }


def run(
    rounds: int = 3, budget: float = 1.0, games: list[str] | None = None, compiled: bool = True
) -> dict[str, Any]:
    """Measure our engines and any installed peers, interleaved; the `engine` figures.
    `compiled`: build a mypyc copy of crates too (12 s of building on two cores)."""
    engines = [our_engine(name) for name in (games or sorted(GAMES))]
    peers: dict[str, Any] = {}
    if "crates" in (games or GAMES):
        engines.append(our_engine("crates", quiet=True))
        if compiled:
            try:
                engines += compiled_engines()
            except (ImportError, OSError, subprocess.CalledProcessError):  # no mypyc or compiler
                peers["crates_compiled"] = {"status": "not installed", "package": "mypy (mypyc)"}
        else:
            peers["crates_compiled"] = {"status": "not built", "package": "mypy (mypyc)"}
    for key, make in PEERS.items():
        try:
            engines.append(make())
        except ImportError:
            peers[key] = {"status": "not installed", "package": PEER_PACKAGES[key]}
    for engine in engines:  # warm-up: imports, caches, first allocations
        engine.play(10**9)
    for _ in range(rounds):
        for engine in engines:
            engine.rounds.append(measure_round(engine, budget))

    def summary(engine: Engine) -> dict[str, Any]:
        rows = engine.rounds
        figures: dict[str, Any] = {
            "label": engine.label,
            "players": engine.players,
            "games_per_s": median([r["games_per_s"] for r in rows]),
            "actions_per_s": median([r["actions_per_s"] for r in rows]),
            "mean_actions": median([r["mean_actions"] for r in rows]),
            "games_measured": sum(int(r["games"]) for r in rows),
            "rounds": len(rows),
            **engine.notes,
        }
        return figures

    result: dict[str, Any] = {
        "clock": "process CPU seconds",
        "budget_s_per_round": budget,
        "rounds": rounds,
        "games": {},
        "peers": peers,
    }
    by_key = {engine.key: engine for engine in engines}
    for engine in engines:
        target = result["peers"] if engine.key in PEERS else result["games"]
        target[engine.key] = (
            {"status": "ok", **summary(engine)} if engine.key in PEERS else summary(engine)
        )
    crates, quiet = by_key.get("crates"), by_key.get("crates_quiet")
    compiled, compiled_quiet = by_key.get("crates_compiled"), by_key.get("crates_compiled_quiet")
    for counted in (crates, quiet, compiled, compiled_quiet):
        if counted is not None:
            result["games"][counted.key]["hands_per_s"] = median(_hands(counted))
    if crates is not None:
        hands = _hands(crates)
        result["crates"] = {
            "hands_per_s": median(hands),
            "games_per_s": result["games"]["crates"]["games_per_s"],
            "actions_per_s": result["games"]["crates"]["actions_per_s"],
            "vs_openspiel_pyloop": _versus(crates, by_key.get("openspiel_pyloop")),
            "vs_openspiel_cpp": _versus(crates, by_key.get("openspiel_cpp")),
            "vs_rlcard_uno": _versus(crates, by_key.get("rlcard_uno")),
            # The same loop with the event log off: the engine's rules work alone, as the peers
            # do it (neither keeps a log of sentences); the targets are judged on the above.
            "quiet_hands_per_s": None if quiet is None else median(_hands(quiet)),
            "quiet_vs_openspiel_pyloop": _versus(quiet, by_key.get("openspiel_pyloop")),
            "quiet_vs_openspiel_cpp": _versus(quiet, by_key.get("openspiel_cpp")),
            # The same source built with mypyc (not shipped): what compiling alone would buy.
            "compiled_vs_openspiel_pyloop": _versus(compiled, by_key.get("openspiel_pyloop")),
            "compiled_vs_openspiel_cpp": _versus(compiled, by_key.get("openspiel_cpp")),
            "compiled_quiet_vs_openspiel_cpp": _versus(compiled_quiet, by_key.get("openspiel_cpp")),
            "targets": {"vs_openspiel_pyloop": "> 1", "vs_openspiel_cpp": ">= 0.25"},
        }
    return result


def _hands(engine: Engine) -> list[float]:
    return [r["hands_per_s"] for r in engine.rounds]


def _versus(crates: Engine | None, peer: Engine | None) -> float | None:
    """Our crates hands/s over the peer's games/s, the median of the per-round ratios."""
    if crates is None or peer is None:
        return None
    pairs = [
        (ours["hands_per_s"], theirs["games_per_s"])
        for ours, theirs in zip(crates.rounds, peer.rounds, strict=True)
    ]
    return median_ratio(pairs)


def report(figures: dict[str, Any]) -> list[tuple[str, list[str], list[list[Any]]]]:
    """The printed tables for the `engine` figures."""
    rows: list[list[Any]] = []
    for key, game in figures["games"].items():
        rows.append(
            [
                game.get("label", key),
                game["players"],
                game["games_per_s"],
                game["actions_per_s"],
                game.get("hands_per_s"),
                game["mean_actions"],
            ]
        )
    for key, peer in figures["peers"].items():
        if peer.get("status") != "ok":
            rows.append([key, None, f"{peer['status']} ({peer['package']})", None, None, None])
            continue
        counted = key != "openspiel_cpp"
        rows.append(
            [
                peer["label"],
                peer["players"],
                peer["games_per_s"],
                peer["actions_per_s"] if counted else None,
                None,
                peer["mean_actions"],
            ]
        )
    tables = [
        (
            f"engine: random playouts ({figures['rounds']} rounds × "
            f"{figures['budget_s_per_round']} s wall each; rates per CPU second; medians)",
            ["engine", "players", "games/s", "actions/s", "hands/s", "actions/game"],
            rows,
        )
    ]
    crates = figures.get("crates")
    if crates:
        tables.append(
            (
                "engine: crates hands/s against a peer's games/s (median of side-by-side ratios)",
                ["peer", "ratio", "target"],
                [
                    ["OpenSpiel crazy_eights, Python loop", crates["vs_openspiel_pyloop"], "> 1"],
                    ["OpenSpiel crazy_eights, C++ loop", crates["vs_openspiel_cpp"], ">= 0.25"],
                    ["RLCard UNO (2 players)", crates["vs_rlcard_uno"], "—"],
                    [
                        "OpenSpiel, Python loop: no event log",
                        crates["quiet_vs_openspiel_pyloop"],
                        "—",
                    ],
                    ["OpenSpiel, C++ loop: no event log", crates["quiet_vs_openspiel_cpp"], "—"],
                    [
                        "OpenSpiel, Python loop: ours compiled (mypyc)",
                        crates["compiled_vs_openspiel_pyloop"],
                        "—",
                    ],
                    [
                        "OpenSpiel, C++ loop: ours compiled (mypyc)",
                        crates["compiled_vs_openspiel_cpp"],
                        "—",
                    ],
                    [
                        "OpenSpiel, C++ loop: compiled, no event log",
                        crates["compiled_quiet_vs_openspiel_cpp"],
                        "—",
                    ],
                ],
            )
        )
    return tables
