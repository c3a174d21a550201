"""The two sea charts of Feed the Kraken: arrows per colour, map actions, goals, supply line."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..core import State
from .types import Space

COLOURS = ("red", "yellow", "blue")
START = "0,0"

CRIMSON_COVE = "crimson_cove"
BLUEWATER_BAY = "bluewater_bay"
KRAKEN = "kraken"
#: Goal area -> the faction that wins when the ship enters it.
GOALS = {BLUEWATER_BAY: "sailor", CRIMSON_COVE: "pirate", KRAKEN: "cult"}

CABIN_SEARCH = "cabin_search"
FLOGGING = "flogging"
OFF_WITH_THE_TONGUE = "off_with_the_tongue"
FEED_THE_KRAKEN = "feed_the_kraken"
MAP_ACTIONS = (CABIN_SEARCH, FLOGGING, OFF_WITH_THE_TONGUE, FEED_THE_KRAKEN)

_C, _B, _K = CRIMSON_COVE, BLUEWATER_BAY, KRAKEN
_SEARCH, _FLOG, _TONGUE, _FEED = MAP_ACTIONS

#: Quick journey: space -> (red, yellow, blue, map action), exactly as tabled in the spec.
QUICK_SPACES: dict[str, tuple[str, str, str, str | None]] = {
    "0,0": ("-1,1", "0,2", "1,1", None),
    "-1,1": ("-2,2", "-1,3", "0,2", None),
    "1,1": ("0,2", "1,3", "2,2", None),
    "-2,2": ("-2,4", "-2,4", "-1,3", None),
    "0,2": ("-1,3", "-1,3", "1,3", None),
    "2,2": ("1,3", "2,4", "2,4", None),
    "-1,3": ("-2,4", "-1,5", "0,4", _SEARCH),
    "1,3": ("0,4", "1,5", "2,4", _SEARCH),
    "-2,4": ("-3,5", "-2,6", "-1,5", _SEARCH),
    "0,4": ("-1,5", "0,6", "1,5", None),
    "2,4": ("1,5", "2,6", "3,5", None),
    "-3,5": (_C, "-2,6", "-2,6", None),
    "-1,5": ("-2,6", "-1,7", "0,6", None),
    "1,5": ("0,6", "1,7", "2,6", None),
    "3,5": ("2,6", "2,6", _B, None),
    "-2,6": (_C, "-1,7", "-1,7", None),
    "0,6": ("-1,7", "0,8", "1,7", None),
    "2,6": ("1,7", "1,7", _B, None),
    "-1,7": (_C, _C, "0,8", _FEED),
    "1,7": ("0,8", _B, _B, _FEED),
    "0,8": (_C, _K, _B, None),
}

#: Long journey: space -> (red, yellow, blue, map action), exactly as tabled in the spec.
LONG_SPACES: dict[str, tuple[str, str, str, str | None]] = {
    "0,0": ("-1,1", "0,2", "1,1", None),
    "-1,1": ("-1,3", "-1,3", "0,2", None),
    "1,1": ("0,2", "1,3", "1,3", None),
    "0,2": ("-1,3", "0,4", "1,3", None),
    "-1,3": ("-2,4", "-1,5", "0,4", _SEARCH),
    "1,3": ("0,4", "1,5", "2,4", _SEARCH),
    "-2,4": ("-2,6", "-2,6", "-1,5", _SEARCH),
    "0,4": ("-1,5", "-1,5", "1,5", _SEARCH),
    "2,4": ("1,5", "2,6", "2,6", None),
    "-1,5": ("-2,6", "-1,7", "0,6", None),
    "1,5": ("0,6", "1,7", "2,6", None),
    "-2,6": ("-3,7", "-2,8", "-1,7", None),
    "0,6": ("-1,7", "0,8", "1,7", _TONGUE),
    "2,6": ("1,7", "2,8", "3,7", None),
    "-3,7": (_C, "-2,8", "-2,8", None),
    "-1,7": ("-2,8", "-1,9", "0,8", _FLOG),
    "1,7": ("0,8", "1,9", "2,8", _FLOG),
    "3,7": ("2,8", "2,8", _B, None),
    "-2,8": (_C, "-1,9", "-1,9", None),
    "0,8": ("-1,9", "0,10", "1,9", None),
    "2,8": ("1,9", "1,9", _B, None),
    "-1,9": (_C, _C, "0,10", _FEED),
    "1,9": ("0,10", _B, _B, _FEED),
    "0,10": (_C, _K, _B, _FEED),
}

#: Long journey: the spaces south of the supply line.
LONG_SUPPLY_SOUTH = frozenset(
    ("0,0", "-1,1", "1,1", "0,2", "-1,3", "1,3", "-2,4", "0,4", "2,4", "-1,5", "1,5", "0,6")
)


@dataclass(frozen=True)
class Board:
    """One sea chart: its spaces and, on the long journey, the supply line."""

    name: str
    spaces: dict[str, tuple[str, str, str, str | None]]
    supply_south: frozenset[str] | None = None

    def destination(self, space: str, colour: str) -> str:
        """Where a card of `colour` moves the ship from `space` (a space or a goal area)."""
        red, yellow, blue, _ = self.spaces[space]
        return {"red": red, "yellow": yellow, "blue": blue}[colour]

    def map_action(self, space: str) -> str | None:
        """The map action printed on `space`, if any (goal areas have none)."""
        entry = self.spaces.get(space)
        return entry[3] if entry is not None else None

    def crosses_supply_line(self, start: str, end: str) -> bool:
        """True if a move from `start` to `end` crosses the supply line northwards."""
        south = self.supply_south
        return south is not None and start in south and end not in south

    def chart(self) -> dict[str, Space]:
        """The chart as plain data for views: space -> {red, yellow, blue, action}.

        Made once per board and the same map in every view of every seat (a view holds it
        after every action): what a view holds is read, never changed by its holder, and the
        tests (`State.checking`) catch a chart changed since it was made."""
        made = self._made_chart
        if State.checking and made != self._make_chart():
            raise AssertionError(f"the {self.name} chart of the views was changed by a holder")
        return made

    @cached_property
    def _made_chart(self) -> dict[str, Space]:
        return self._make_chart()

    def _make_chart(self) -> dict[str, Space]:
        return {
            space: {"red": red, "yellow": yellow, "blue": blue, "action": action}
            for space, (red, yellow, blue, action) in self.spaces.items()
        }


QUICK = Board("quick", QUICK_SPACES)
LONG = Board("long", LONG_SPACES, LONG_SUPPLY_SOUTH)
BOARDS = {QUICK.name: QUICK, LONG.name: LONG}
#: Which boards each player count may use; the first is the default.
BOARDS_FOR_PLAYERS = {5: ("quick",), 6: ("quick",), 7: ("quick", "long")} | {
    n: ("long",) for n in range(8, 12)
}


def is_goal(space: str) -> bool:
    """True if `space` is a goal area (entering it ends the game)."""
    return space in GOALS
