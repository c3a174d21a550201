"""A bot written against one game's own types: `GameBot` reads the table's data as them.

The table, the drivers and the network hand every bot the contract's plain data (`contract.Bot`:
``choose(view, legal)``, dicts). A game's bots read its views and actions through the game's
types instead (`rules/crates_types.py`...: `CratesView`, `CratesAction`), so that mypy checks
every key they read and every phase they compare: `GameBot.choose` hands `decide` the same
objects, read through the one adapter (`rules/typed.py`). At run time a bot's `choose` is its
`decide` itself (`GameBot.__init_subclass__`): the adapter's reading is mypy's alone, and a
decision is one call, not five (a `normal` bot's takes about 12 microseconds: the adapter's
calls were a tenth of it; issue 49).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Generic, TypeVar

from ..rules import Action, GameTypes, View

ViewT = TypeVar("ViewT")
ActionT = TypeVar("ActionT")


class GameBot(Generic[ViewT, ActionT]):
    """A `contract.Bot` for one game: subclasses implement `decide` on the game's own types.

    The view and legal actions a bot is given are what `State.view` and `State.legal` of its
    game made (the table, the drivers and the network pass them on unchanged), so reading them
    as the game's types is true by construction; `tests/rules/test_types.py` checks every
    view, action and event of random games against those types.
    """

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        # What `choose` below does, without its calls: it hands `decide` the very objects it
        # was given and returns what `decide` returns. A bot (or its base) that defines
        # `choose` itself is called as it says.
        inherited = cls.choose
        if "choose" not in vars(cls) and (
            inherited is GameBot.choose
            or any(inherited is vars(base).get("decide") for base in cls.__mro__[1:])
        ):
            cls.choose = cls.decide  # type: ignore[assignment,method-assign]

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        """`contract.Bot.choose`: `decide` on the game's types (at run time, `decide` itself)."""
        types: GameTypes[ViewT, ActionT, object] = GameTypes()
        decided = self.decide(types.view(view), types.legal(legal))
        return None if decided is None else types.plain(decided)

    def decide(self, view: ViewT, legal: list[ActionT]) -> ActionT | None:
        """The action to take (one of `legal`, or one equal to it), or None: nothing now."""
        raise NotImplementedError


def seat_of(view: Mapping[str, object]) -> int:
    """The seat whose view this is: a bot always plays from one (a spectator's has None)."""
    seat = view["seat"]
    if not isinstance(seat, int):
        raise ValueError("a bot plays from a seat's view, not a spectator's")
    return seat
