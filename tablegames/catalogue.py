"""The games tablegames lists, and which of them can be played yet (a screen and bots)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.util import find_spec

from .rules import GAMES


@dataclass(frozen=True)
class Listing:
    """A game as menus and `tablegames list` show it."""

    name: str
    title: str
    min_players: int
    max_players: int
    blurb: str
    playable: bool

    @property
    def players(self) -> str:
        return f"{self.min_players}–{self.max_players}"


#: Every game, in menu order; a game is playable once it has a table screen and bots.
_ORDER = (
    ("crates", "Crates", 2, 5, "A Crazy Eights variant: shed your hand, crank the 2s."),
    ("roach", "Cockroach Poker Royal", 2, 6, "Pass bugs, lie about them, don't collect four."),
    ("crabs", "You've Got Crabs", 4, 10, "Real-time teams with secret signals."),
    ("kraken", "Feed the Kraken", 5, 11, "Hidden roles, mutinies and a hungry sea monster."),
)


def listings() -> list[Listing]:
    """Every game: the playable ones first, then those still coming (registry data wins)."""
    entries = []
    for name, title, low, high, blurb in _ORDER:
        game = GAMES.get(name)
        if game is not None:
            title, low, high = game.title, game.min_players, game.max_players
        entries.append(Listing(name, title, low, high, blurb, is_playable(name)))
    return sorted(entries, key=lambda entry: not entry.playable)


def is_playable(name: str) -> bool:
    """True if `name` can be played now: registered rules, a table screen and bots.

    Screens live in `tablegames.tui.screens.<game>` and bots in `tablegames.bots.<game>`;
    looking for the modules imports nothing (Textual stays unloaded for the CLI).
    """
    return (
        name in GAMES
        and find_spec(f"tablegames.tui.screens.{name}") is not None
        and find_spec(f"tablegames.bots.{name}") is not None
    )
