"""Every registered game, as the per-game tests play it: what its declaration says
(`Game.checks`), else the defaults.

The per-game tests (`matrix/`: the contract, playouts, leaks, the stateful server, the screens,
hot-seat hand-offs) take their games from the registry (see `plugin.py`), so a game added to
it gets every one of them at once. A game is played at its default size (four at most) with
its quick options unless its `Checks` say otherwise, and why.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ..rules import get_game
from ..rules.core import resolve

Options = Callable[[int, random.Random], dict[str, object]]


@dataclass(frozen=True)
class Case:
    """How the per-game tests play one game (`rules.Checks` says what each field means)."""

    name: str
    leak_table: tuple[int, int]
    players: int
    core_players: int
    #: The options a network test's table is made with, for `players` seats (rng: the run's).
    options: Options = field(repr=False)
    core_options: dict[str, object] = field(default_factory=dict)
    #: A line of the game's own keys as its help lists them (None: the generic screen's).
    own_key: str | None = None
    may_end_without_winners: bool = False
    hurried: tuple[int, int, dict[str, object], tuple[str, ...]] | None = None


def case(name: str) -> Case:
    """How the per-game tests play `name`: as its `Checks` say, else the defaults."""
    game = get_game(name)
    checks = game.checks
    quick = game.quick_options()
    players = checks.players or min(game.default_players, 4)
    options: Options = resolve(checks.deal) if checks.deal else lambda _players, _rng: dict(quick)
    hurried = None
    if checks.hurried is not None:
        seats, people, chosen, keys = checks.hurried
        hurried = (seats, people, dict(chosen), keys)
    return Case(
        name,
        leak_table=checks.leak_table or (players, players - 1),
        players=players,
        core_players=checks.core_players or players,
        options=options,
        core_options=dict(quick if checks.core_options is None else checks.core_options),
        own_key=checks.own_key or None,
        may_end_without_winners=checks.may_end_without_winners,
        hurried=hurried,
    )
