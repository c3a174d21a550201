"""Playing a game's state as the tests do: random legal moves, the clock settled as a table
settles it (for a game that changes by itself at a deadline)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from ..rules import Action, Event, State, get_game
from ..rules.contract import LogEntry

TIME = {"type": "time"}


def settle_clock(
    state: State, now: float, log: list[LogEntry] | None = None
) -> tuple[float, list[Event]]:
    """Do what the table does before an action at `now`: apply `time` once the game's deadline
    has passed, and let the clock run on to the deadline when nobody's move is needed.

    Returns the time reached (`now`, or a later deadline the clock was run to) and the events;
    each `time` applied is added to `log` as `(seat, action, now)`, if given.
    """
    events: list[Event] = []
    while not state.over and (due := state.deadline()) is not None:
        if now < due and state.waiting_for():
            break
        now = max(now, due)
        events += state.apply(0, dict(TIME), now)
        if log is not None:
            log.append((0, dict(TIME), now))
    return now, events


def bot_turns(state: State) -> Iterator[tuple[int, list[Action]]]:
    """Each seat with a legal action and its actions, in the order a table asks its bots
    (`Table.bot_turns`): seats with only an optional move (calling out...) first, then those the
    game waits for."""
    waiting = state.waiting_for()
    for seat in sorted(range(state.players), key=lambda seat: seat in waiting):
        legal = state.legal(seat)
        if legal:
            yield seat, legal


Log = list[LogEntry]


def random_playout(
    name: str, players: int, seed: int, limit: int = 20_000
) -> tuple[State, Log, dict[str, object]]:
    """Play random legal actions (turn actions of waiting seats first) until the game ends.

    As at a table, the clock is settled first: a game that waits for nobody waits on its
    deadline, and the `time` action applied there is logged like any move.
    """
    game = get_game(name)
    options = game.quick_options()
    state = game.new(players, seed, **options)
    rng = random.Random(seed)
    log: Log = []
    for _ in range(limit):
        now, _ = settle_clock(state, float(len(log)), log)
        if state.over:
            return state, log, options
        seat = rng.choice(sorted(state.waiting_for()))
        action = rng.choice(state.legal(seat))
        state.apply(seat, action, now)
        log.append((seat, action, now))
    raise AssertionError(f"{name} seed {seed} did not end in {limit} actions")


def positions(name: str, seed: int, steps: int = 300) -> Iterator[State]:
    """A new game of `name` at each of its first `steps` positions (the clock settled first),
    moved on by a random legal action of a waiting seat after each; stops when it is over."""
    game = get_game(name)
    state = game.new(game.default_players, seed, **game.quick_options())
    rng = random.Random(seed)
    for _ in range(steps):
        settle_clock(state, 0.0)
        if state.over:
            return
        yield state
        seat = rng.choice(sorted(state.waiting_for()))
        state.apply(seat, rng.choice(state.legal(seat)))
