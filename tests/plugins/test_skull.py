"""Skull, a bluffing game written as its own package (`tests/plugins/skull/`): its levels mix
its own `normal` with the generic `random` and `hard`, through the documented factory and
nothing private; its rules play as the table game does."""

from __future__ import annotations

import ast
import importlib
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablegames.bots import AnyLegalAction, get_bot, look_ahead
from tablegames.bots.generic import ByHeuristic, LookAhead
from tablegames.rules import GAMES, load
from tablegames.testing.strength import matchup, thinking_its_every_playout
from tests.plugins.skull import SKULL_GAME
from tests.plugins.skull.bots import CarefulPlayer, SkullFirst
from tests.plugins.skull.rules import FLOWER, SKULL

PACKAGE = Path(__file__).resolve().parent / "skull"


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    """Skull is in the registry for these tests only: registered when this module is imported
    (at collection), it joined every per-game test and the bench's sides did not know it."""
    load("tests.plugins.skull:SKULL_GAME")  # (as a program loads a game from elsewhere)
    yield
    GAMES.pop(SKULL_GAME.name)


def test_its_own_normal_and_the_generic_random_and_hard_make_its_levels():
    rng = random.Random(1)
    assert isinstance(get_bot("skull", "normal", 0, rng), CarefulPlayer)
    assert type(get_bot("skull", "random", 0, rng)) is AnyLegalAction  # left out: generic
    hard = get_bot("skull", "hard", 0, rng)  # (it imagines the players like its `normal`)
    assert isinstance(hard, LookAhead) and hard.people is CarefulPlayer
    assert isinstance(hard.keeps, CarefulPlayer) and hard.beliefs is not None
    # the factory imagines players by the heuristic, when asked to
    by_heuristic = look_ahead(SKULL_GAME, people="heuristic")(0, rng)
    assert isinstance(by_heuristic, LookAhead) and isinstance(
        by_heuristic.people(0, rng), ByHeuristic
    )


def test_it_imports_nothing_private_of_tablegames():
    for module in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tablegames"):
                public = importlib.import_module(node.module or "").__all__
                assert node.module in ("tablegames.bots", "tablegames.rules"), node.module
                assert all(alias.name in public for alias in node.names), (module, node.module)


def test_a_failed_challenge_costs_a_disc_and_two_won_win_the_game():
    state = SKULL_GAME.new(3, seed=5)
    for seat, disc in ((0, FLOWER), (1, SKULL), (2, FLOWER)):
        state.apply(seat, {"type": "place", "disc": disc})
    state.apply(0, {"type": "bid", "count": 2})
    state.apply(1, {"type": "pass"})
    state.apply(2, {"type": "pass"})  # seat 0 turns up its own flower, then one more
    assert state.view(0)["phase"] == "flip" and state.view(0)["shown"][0] == [FLOWER]
    assert state.evaluate(0) is None  # (mid-round: a look-ahead plays on)
    state.apply(0, {"type": "flip", "seat": 1})  # the skull
    assert state.view(0)["discs"] == [3, 4, 4] and state.view(0)["round"] == 2
    assert state.evaluate(0) == 3 / 11 and state.evaluate(1) == 4 / 11  # a disc down
    assert len(state.view(0)["hand"]) == 3  # the failed challenger alone knows what it lost
    for _ in range(2):  # seat 0 opens each round, bids what its flowers cover, and wins it
        first = state.view(0)["current"]
        for step in range(3):
            state.apply((first + step) % 3, {"type": "place", "disc": FLOWER})
        state.apply(first, {"type": "bid", "count": 1})
        for other in (1, 2):
            state.apply((first + other) % 3, {"type": "pass"})
    assert state.over and state.result()["winners"] == [0]


#: The trivial policy's games against three `hard` bots, and their first seed.
POLICY_GAMES, POLICY_SEED = 16, 300_000  # (bench/bot_strength.py's games)


@pytest.mark.slow
def test_a_trivial_fixed_policy_does_not_beat_three_hard_bots():
    # (a look-ahead that imagined people at random lost 0.83 of its games to it)
    played = matchup(
        "skull", "skull-first", "hard", POLICY_GAMES, seed=POLICY_SEED, hero_bot=SkullFirst
    )
    assert played.games == POLICY_GAMES and played.share < played.fair, played.words()


def test_hard_believes_the_discs_put_down_as_people_put_them():
    # Skull's `normal` puts its skull down first four times in five; `from_view` alone deals
    # the disc down at random (a skull one time in four, as one disc of four).
    hard = get_bot("skull", "hard", 0, random.Random(2))
    assert isinstance(hard, LookAhead) and hard.beliefs is not None
    state = SKULL_GAME.new(3, seed=4)
    with thinking_its_every_playout():
        for seat in (0, 1, 2):
            bot = hard if seat == 0 else CarefulPlayer(seat, random.Random(seat))
            view = state.view(seat)
            state.apply(seat, bot.choose(view, state.legal(seat)))
        hard.choose(state.view(0), state.legal(0))  # (it carries its states to now)
    worlds = hard.beliefs.worlds
    skulls = sum(SKULL in world.mats[1] for world in worlds) / len(worlds)
    dealt = [SKULL_GAME.state_class.from_view(state.view(0), random.Random(n)) for n in range(200)]
    at_random = sum(SKULL in world.mats[1] for world in dealt) / len(dealt)
    assert hard.beliefs.survived and skulls > 0.6 > 0.4 > at_random, (skulls, at_random)
