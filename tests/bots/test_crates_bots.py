"""Crates bots: legal choices only, calm out of turn, normal beats random, hard cannot peek."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tablegames.bots import get_bot
from tablegames.bots.crates import (
    BOTS,
    HardBot,
    NormalBot,
    RandomBot,
    read_misses,
    read_round,
)
from tablegames.rules import Action, get_game
from tablegames.rules.cards import DECK
from tablegames.rules.crates import CratesState

LEVELS = tuple(BOTS)
ACTION_LIMIT = 20_000


def cheap_hard(seat: int, rng: random.Random) -> HardBot:
    """A hard bot with few samples: the same code paths in a fraction of the time."""
    bot = HardBot(seat, rng)
    bot.screen_samples, bot.final_samples = 2, 4
    return bot


def make_bots(levels: list[str], seed: int, cheap: bool = True) -> list[Any]:
    makers: dict[str, Any] = {**BOTS, "hard": cheap_hard} if cheap else dict(BOTS)
    return [
        makers[level](seat, random.Random(seed * 10 + seat)) for seat, level in enumerate(levels)
    ]


def play(levels: list[str], seed: int, short: bool = True, on_choice=None) -> CratesState:
    """Play a bot-only game; optional moves are offered to every seat before the turn."""
    state = get_game("crates").new(len(levels), seed, short=short)
    bots = make_bots(levels, seed)
    for _ in range(ACTION_LIMIT):
        if state.over:
            return state
        waiting = state.waiting_for()
        for seat in sorted(range(len(levels)), key=lambda s: s in waiting):
            legal = state.legal(seat)
            if not legal:
                continue
            view = state.view(seat)
            action = bots[seat].choose(view, legal)
            if on_choice is not None:
                on_choice(levels[seat], seat, view, legal, action)
            if action is not None:
                state.apply(seat, action)
                break
        else:
            raise AssertionError(f"nobody moved while the game waits for {sorted(waiting)}")
    raise AssertionError(f"game {seed} did not end")


def win_share(hero: str, opponent: str, seeds: range, players: int = 4) -> float:
    """The hero's share of wins (ties shared) with its seat rotating over `seeds`."""
    total = 0.0
    for seed in seeds:
        seat = seed % players
        levels = [opponent] * players
        levels[seat] = hero
        winners = play(levels, seed).result()["winners"]
        total += 1 / len(winners) if seat in winners else 0.0
    return total / len(seeds)


def test_get_bot_finds_every_level():
    for level in LEVELS:
        bot = get_bot("crates", level, 2, random.Random(1))
        assert isinstance(bot, BOTS[level])


@pytest.mark.parametrize(
    ("levels", "seeds"),
    [
        (["random", "random", "random", "random"], range(60)),
        (["normal", "random", "normal", "random", "normal"], range(60)),
        (["normal", "normal"], range(40)),
        (["hard", "random", "normal"], range(3)),
    ],
)
def test_every_choice_is_legal(levels: list[str], seeds: range):
    chosen: dict[str, int] = {}

    def check(level: str, seat: int, view: dict, legal: list[Action], action: Action | None):
        assert action is None or action in legal, f"{level} chose {action}, legal: {legal}"
        if action is not None:
            chosen[level] = chosen.get(level, 0) + 1

    for seed in seeds:
        play(levels, seed, on_choice=check)
    assert set(chosen) == set(levels)


@pytest.mark.parametrize("level", LEVELS)
def test_out_of_turn_bots_only_take_optional_moves(level: str):
    state = get_game("crates").new(4, 5, short=True)
    rng = random.Random(5)
    asked = 0
    for _ in range(150):
        if state.over:
            break
        for seat in range(4):
            if seat == state.turn:
                continue
            legal = state.legal(seat)
            bot = BOTS[level](seat, random.Random(seat))
            action = bot.choose(state.view(seat), legal)
            assert action is None or (action in legal and action["type"] in ("announce", "dope"))
            assert bot.choose(state.view(seat), []) is None
            asked += 1
        seat = state.turn
        state.apply(seat, rng.choice(state.legal(seat)))
    assert asked > 100


def test_normal_announces_every_time_it_can():
    announced = 0

    def check(level: str, seat: int, view: dict, legal: list[Action], action: Action | None):
        nonlocal announced
        if level != "normal" or action is None:
            return
        if {**action, "announce": True} in legal and action["type"] == "play":
            assert action.get("announce") is True, f"normal left one card unannounced: {action}"
            announced += 1
        if {"type": "announce"} in legal:
            assert action == {"type": "announce"}

    for seed in range(40):
        play(["normal", "random", "random", "random"], seed, on_choice=check)
    assert announced > 20


def test_normal_calls_dope_on_an_exposed_player_even_out_of_turn():
    # Seat 1 plays 7H and keeps QC without announcing; seat 3 is not next but calls it.
    state = get_game("crates").new(
        4,
        1,
        dealer=0,
        hands=[["2S", "3S", "4S"], ["7H", "QC"], ["KD", "5D", "6C"], ["JS", "10S", "9D"]],
        upcard="KH",
        draw=["AS", "AD", "AC", "AH", "2D", "2C"],
    )
    state.apply(1, {"type": "play", "card": "7H"})
    legal = state.legal(3)
    assert {"type": "dope", "target": 1} in legal
    assert NormalBot(3, random.Random(0)).choose(state.view(3), legal) == {
        "type": "dope",
        "target": 1,
    }


def test_random_bot_announces_about_half_the_time():
    state = get_game("crates").new(
        2, 1, dealer=1, hands=[["5H", "6H"], ["KS", "QS", "JS"]], upcard="KH", draw=["AS"]
    )
    view, legal = state.view(0), state.legal(0)
    choices = [RandomBot(0, random.Random(seed)).choose(view, legal) for seed in range(400)]
    flagged = sum(1 for action in choices if action and action.get("announce"))
    assert all(action in legal for action in choices)
    assert 140 < flagged < 260


def test_normal_beats_random_clearly():
    assert win_share("normal", "random", range(120)) > 0.6


@pytest.mark.slow
def test_hard_beats_normal():
    assert win_share("hard", "normal", range(200)) > 0.25


def stacked_views(hidden_seed: int) -> CratesState:
    """A round where seats 1-3 each play a known card, then seat 0 chooses.

    Seat 0's hand, the upcard and the three plays are fixed; every other card (the rest of the
    opponents' hands and the draw pile) is dealt from `hidden_seed`.
    """
    mine = ["JC", "5S", "9D", "3S", "KS", "QD", "7S", "2H"]
    plays = ["QH", "QS", "JS"]
    upcard = "KH"
    fixed = set(mine) | set(plays) | {upcard}
    hidden = [card for card in DECK if card not in fixed]
    random.Random(hidden_seed).shuffle(hidden)
    hands = [mine] + [[plays[i], *hidden[i * 7 : i * 7 + 7]] for i in range(3)]
    state = get_game("crates").new(4, 3, dealer=0, hands=hands, upcard=upcard, draw=hidden[21:])
    for seat, card in zip((1, 2, 3), plays, strict=True):
        state.apply(seat, {"type": "play", "card": card})
    return state


def test_hard_decides_from_its_view_alone():
    decisions = set()
    for hidden_seed in range(5):
        state = stacked_views(hidden_seed)
        assert state.turn == 0
        view, legal = state.view(0), state.legal(0)
        assert view == stacked_views(99).view(0), "the test must hide only unseen cards"
        bot = HardBot(0, random.Random(7))
        assert len(bot.candidates(view, legal)) >= 2, "the bot must have a real choice"
        decisions.add(repr(bot.choose(view, legal)))
    assert len(decisions) == 1


def test_hard_reads_a_miss_from_the_log():
    # Seat 1 draws on the turned-up KH: it held no heart, no king and no wild then.
    state = get_game("crates").new(
        2, 1, dealer=0, hands=[["2S", "3S", "4S"], ["QC", "JC", "5D"]], upcard="KH", draw=["AS"]
    )
    state.apply(1, {"type": "draw"})
    assert read_misses(state.view(0)) == {1: [("K", "H", 1)]}
    hands, _ = HardBot(0, random.Random(3)).deal_unseen(state.view(0), read_round(state.view(0)))
    old_cards = [c for c in hands[1] if not (c.endswith("H") or c[:-1] in ("K", "8", "9"))]
    assert len(old_cards) >= 3
