"""Reading the sea chart for bots: each side's odds from a space, and what a card is worth."""

from __future__ import annotations

from collections import Counter
from functools import cache, lru_cache

from ...rules.kraken.board import BOARDS, GOALS
from ...rules.kraken.cards import DECKS
from ...rules.kraken.types import Colour, KrakenView

SIDES = ("sailor", "pirate", "cult")
COLOURS: tuple[Colour, ...] = ("red", "yellow", "blue")
#: Faction code -> the side it wins with.
SIDE_OF = {"sailor": "sailor", "pirate": "pirate", "cult_leader": "cult", "cultist": "cult"}
#: Each side's own colour: the way its goal lies from the start.
HOME_COLOUR = {"sailor": "blue", "pirate": "red", "cult": "yellow"}


@cache
def goal_odds(board: str) -> dict[str, dict[str, float]]:
    """Space -> side -> the chance the ship ends in that side's goal if every move is a coin of
    three equal colours. Crude, but it orders the spaces the way players do: nearer is better."""
    spaces = BOARDS[board].spaces
    odds: dict[str, dict[str, float]] = {}

    def walk(space: str) -> dict[str, float]:
        if space in GOALS:
            return {side: float(GOALS[space] == side) for side in SIDES}
        if space not in odds:
            red, yellow, blue, _ = spaces[space]
            ahead = [walk(red), walk(yellow), walk(blue)]
            odds[space] = {side: sum(a[side] for a in ahead) / 3 for side in SIDES}
        return odds[space]

    for space in spaces:
        walk(space)
    return odds


def space_value(board: str, space: str, side: str) -> float:
    """How good `space` (or a goal area) is for `side`: 1 its goal, 0 another's, else its odds."""
    if space in GOALS:
        return float(GOALS[space] == side)
    return goal_odds(board)[space][side]


def destination(board: str, space: str, colour: str) -> str:
    """Where a card of `colour` sails from `space`."""
    return BOARDS[board].destination(space, colour)


def colour_value(board: str, space: str, side: str, colour: str) -> float:
    """How good sailing `colour` from `space` is for `side`."""
    return space_value(board, destination(board, space, colour), side)


def best_colour(board: str, space: str, side: str) -> str:
    """The colour `side` would most like to sail from `space` (its home colour on a tie)."""
    return max(
        COLOURS,
        key=lambda c: (colour_value(board, space, side, c), c == HOME_COLOUR[side]),
    )


def ends_game(board: str, space: str, colour: str) -> str | None:
    """The side that wins if `colour` is sailed from `space`, or None if the voyage goes on."""
    goal = destination(board, space, colour)
    return GOALS.get(goal)


@cache
def _deepest(board: str) -> int:
    return max(_level(space) for space in BOARDS[board].spaces)


def _level(space: str) -> int:
    return int(space.split(",")[1])


def voyage_ahead(board: str, space: str) -> float:
    """The share of the voyage still ahead of the ship at `space`: 1 at the start, near 0 at
    the last spaces before the goals (a goal area: 0)."""
    if space in GOALS:
        return 0.0
    return 1.0 - _level(space) / (_deepest(board) + 1)


def colour_odds(view: KrakenView) -> dict[str, float]:
    """How likely a drawn card is of each colour: the deck less every card in a résumé."""
    resumes = tuple(tuple(resume) for resume in view["resumes"])
    return dict(_colour_odds(view["board"], resumes))


@lru_cache(maxsize=256)
def _colour_odds(board: str, resumes: tuple[tuple[str, ...], ...]) -> dict[str, float]:
    """`colour_odds`, worked out once per board and résumés (every seat asks at every step)."""
    left = Counter(DECKS[board])
    for resume in resumes:
        for card in resume:
            left[card] -= 1
    by_colour = Counter[str]()
    for card, copies in left.items():
        by_colour[card.split("-", 1)[0]] += max(0, copies)
    total = sum(by_colour.values()) or 1
    return {colour: by_colour[colour] / total for colour in COLOURS}
