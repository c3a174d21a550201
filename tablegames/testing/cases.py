"""Every registered game, as the per-game tests play it: the one place a game's exceptions live.

The per-game tests (`matrix/`: the contract, playouts, leaks, the stateful server, the screens,
hot-seat hand-offs) take their games from the registry (see `plugin.py`), so a game added to
it, built in or from elsewhere, gets every one of them at once. A game not named in
`OVERRIDES` is played at its default size (four at most) with its quick options; the built-in
games' overrides below say why they differ.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypedDict

from ..rules import get_game
from .harness import crabs_options

Options = Callable[[int, random.Random], dict[str, object]]


@dataclass(frozen=True)
class Case:
    """How the per-game tests play one game."""

    name: str
    #: (players, seats played by recording clients) in the leak test over real sockets.
    leak_table: tuple[int, int]
    #: Players at a small table (the illegal-input campaign, replays of a whole game), and at
    #: the stateful server test's.
    players: int
    core_players: int
    #: The options a network test's table is made with, for `players` seats (rng: the run's).
    options: Options = field(repr=False)
    #: The options of the stateful server test (its seeds come from hypothesis).
    core_options: dict[str, object] = field(default_factory=dict)
    #: A line of the game's own keys as its help lists them (None: the generic screen's).
    own_key: str | None = None
    #: Whether its rules let a game end with nobody winning (kraken: a faction with nobody).
    may_end_without_winners: bool = False
    #: The hurried players' table (see `hurried.py`): (players, humans, options, the game's own
    #: keys); None: every seat hot-seat at `players`, the quick options, the generic keys.
    hurried: tuple[int, int, dict[str, object], tuple[str, ...]] | None = None


class Overrides(TypedDict, total=False):
    """What a game's `Case` says otherwise than the defaults (`Case`'s fields)."""

    leak_table: tuple[int, int]
    players: int
    core_players: int
    options: Options
    core_options: dict[str, object]
    own_key: str | None
    may_end_without_winners: bool
    hurried: tuple[int, int, dict[str, object], tuple[str, ...]] | None


def _quick(name: str) -> Options:
    return lambda players, rng: get_game(name).quick_options()


def _crabs_deal(players: int, rng: random.Random) -> dict[str, object]:
    # Crabs ends when a team calls its partner's four of a kind; random players rarely get one,
    # so the deal gives partners 0 and 1 theirs at once (the rest stays secret).
    return crabs_options(players, rng)


def _short_crates(players: int, rng: random.Random) -> dict[str, object]:
    return {"short": True}


#: What differs from the defaults, per game, and why.
OVERRIDES: dict[str, Overrides] = {
    # Crates: 8 rounds are plenty; two players keep the stateful test's games short.
    "crates": {
        "leak_table": (3, 2),
        "players": 3,
        "core_players": 2,
        "options": _short_crates,
        "core_options": {"short": True},
        "own_key": "draw, when nothing in your hand fits",
        "hurried": (3, 3, {"short": True}, tuple("dcxhsd")),
    },
    "roach": {
        "leak_table": (4, 3),
        "players": 3,
        "core_players": 3,
        "own_key": "pass the card on, looking at it first or not",
        "hurried": (3, 3, {}, tuple("tfpl")),
    },
    # Crabs: every seat a client (a team's signal is shown only to its partners' terminals).
    "crabs": {
        "leak_table": (4, 4),
        "players": 4,
        "core_players": 4,
        "options": _crabs_deal,
        "own_key": "lay your hand down",
        # (real time: one player at the keyboard, bots in the other seats)
        "hurried": (4, 1, {}, (*"asdfjkl", "semicolon", "x", "t", "c")),
    },
    # Kraken: six players deal the cult in; five is the smallest table.
    "kraken": {
        "leak_table": (6, 4),
        "players": 5,
        "core_players": 5,
        "own_key": "use your character card",
        "may_end_without_winners": True,  # a faction nobody is left in wins nobody
        "hurried": (5, 5, {"board": "quick"}, tuple("ct")),
    },
}


def case(name: str) -> Case:
    """How the per-game tests play `name`: its overrides, else its defaults."""
    game = get_game(name)
    players = min(game.default_players, 4)
    played = Case(
        name, (players, players - 1), players, players, _quick(name), game.quick_options()
    )
    return dataclasses.replace(played, **OVERRIDES.get(name, {}))
