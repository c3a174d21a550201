"""A bot written on its game's types (`bots.typed.GameBot`) is called as it decides: the typed
reading is mypy's, and adds nothing to a decision at run time (issue 49)."""

from __future__ import annotations

import random

import pytest

from tablegames.bots import LEVELS, get_bot
from tablegames.bots.typed import GameBot
from tablegames.rules import GAMES, View


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_typed_bots_choose_is_its_decide(game: str):
    typed = [
        bot
        for level in LEVELS
        if isinstance(bot := get_bot(game, level, 0, random.Random(1)), GameBot)
    ]
    for bot in typed:
        assert type(bot).choose is type(bot).decide, type(bot).__name__


def test_choose_hands_decide_the_very_view_and_actions_and_returns_its_answer():
    seen: list[tuple[object, object]] = []

    class Echo(GameBot[View, dict[str, object]]):
        def decide(self, view: View, legal: list[dict[str, object]]) -> dict[str, object]:
            seen.append((view, legal))
            return legal[-1]

    view: View = {"seat": 0}
    legal: list[dict[str, object]] = [{"type": "draw"}, {"type": "pass"}]
    assert Echo(0, random.Random(1)).choose(view, legal) is legal[-1]
    assert seen[0][0] is view and seen[0][1] is legal


def test_a_bot_that_chooses_itself_is_called_as_it_says_and_so_are_its_subclasses():
    class Own(GameBot[View, dict[str, object]]):
        def choose(self, view: View, legal: list[dict[str, object]]) -> dict[str, object]:
            return legal[0]

        def decide(self, view: View, legal: list[dict[str, object]]) -> dict[str, object]:
            return legal[-1]

    class Heir(Own):
        def decide(self, view: View, legal: list[dict[str, object]]) -> dict[str, object]:
            return legal[1]

    legal: list[dict[str, object]] = [{"type": "draw"}, {"type": "pass"}, {"type": "play"}]
    for bot in (Own(0, random.Random(1)), Heir(0, random.Random(1))):
        assert bot.choose({"seat": 0}, legal) is legal[0]
