"""The crabs screen's game flow, from the table's views and a clock: which cards are picked
for a swap, the gestures still shown beside their players, what the status line says and
when it goes stale, when the huddle and a double crab are asked, the huddle's seconds left.
No widgets: tested without a terminal, on a clock of the test's own."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from ...rules.crabs_types import CrabsEvent, CrabsView
from ...words import plural
from ..widgets.crabs_table import crab_name
from . import crabs_view as show

GESTURE_SHOWN = 4.0  # seconds a player's gesture stays beside their name
MESSAGE_SHOWN = 6.0  # seconds a message stays on the status line (if the turn goes on)
FLASH_SHOWN = 1.0  # seconds our own last gesture stays lit on the bar


@dataclass(frozen=True)
class Swap:
    """What picking a card did: `swap` the two picked (`hand`, `ocean`), or `say` `words`."""

    kind: Literal["swap", "say"]
    words: str = ""
    hand: str = ""
    ocean: str = ""


class CrabsPresenter:
    """One terminal's crabs flow; the screen draws what this class says and keeps the status
    line (`GameScreen.message`). `clock` gives seconds, `time.monotonic` by default."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.picked_hand: int | None = None
        self.picked_ocean: int | None = None
        self.marked_player: int | None = None  # clicked once: a second click accuses
        self.gestures_seen: dict[int, tuple[str, float]] = {}  # seat -> (gesture, seen at)
        self.flash: tuple[str, float] | None = None  # our own last gesture, for the bar
        self.message_at = (0.0, (0, ""))  # when it was said, and the turn it was about
        self.double_asked = False
        self.huddle_asked: list[str] | None = None  # the team's pick when it last opened itself
        self.huddle_clock: tuple[float, float] | None = None  # (seen at, table time then)

    def taken(self, view: CrabsView, events: list[CrabsEvent], you: int | None) -> None:
        """Note what `events` did to this terminal's picks and the gestures it shows."""
        now = self.clock()
        for event in events:
            if event["kind"] == "gesture":
                self.gestures_seen[event["seat"]] = (event["gesture"], now)
            if event["kind"] in ("swap", "refill", "accuse", "void_call"):
                self.picked_ocean = None  # the ocean moved under the pick
            if event["kind"] == "accuse" and event["target"] == you and event["correct"]:
                self.picked_hand = None

    def said(self, view: CrabsView) -> None:
        """The status line was just told something, about the turn `view` is at."""
        self.message_at = (self.clock(), (view["marker"], view["phase"]))

    def stale(self, view: CrabsView) -> bool:
        """A message goes when the turn it spoke of ends, or after a few seconds."""
        said, turn = self.message_at
        return turn != (view["marker"], view["phase"]) or self.clock() - said > MESSAGE_SHOWN

    def faded(self) -> bool:
        """Forget the gestures shown long enough; True if any went (the table is redrawn)."""
        now = self.clock()
        stale = [s for s, (_, seen) in self.gestures_seen.items() if now - seen > GESTURE_SHOWN]
        for seat in stale:
            del self.gestures_seen[seat]
        faded = self.flash is not None and now - self.flash[1] > FLASH_SHOWN
        if faded:
            self.flash = None
        return bool(stale) or faded

    def gestured(self, name: str) -> None:
        """We made the gesture `name`: it lights on the bar a moment."""
        self.flash = (name, self.clock())

    def gestures(self) -> dict[int, str]:
        """The gesture each seat made lately, shown beside its name."""
        return {seat: gesture for seat, (gesture, _) in self.gestures_seen.items()}

    def status(self, view: CrabsView, you: int | None, message: str, names: Sequence[str]) -> str:
        """What the status line says: `message` while it holds, else what to do now."""
        if message:
            return message
        if you is not None and view["huddle"] is not None:
            return show.huddle_hint(view, you, names, self.huddle_left(view))
        if you is None:
            return ""
        owed = show.owed_double(view)
        if owed:
            return f"Double crab! Press c to take {plural(owed, 'token')}."
        return show.swap_phase_hint(view, you)

    def huddle_left(self, view: CrabsView) -> float:
        """About how many seconds the huddle has left (0 once it is over). Nothing tells a
        screen the table's time: it counts from when it first saw the huddle, at the time of
        the latest event then."""
        huddle = view["huddle"]
        if huddle is None:
            return 0.0
        if self.huddle_clock is None:
            latest = max((event["time"] for event in view["log"]), default=0.0)
            self.huddle_clock = (self.clock(), latest)
        seen_at, table_time = self.huddle_clock
        return huddle["ends"] - table_time - (self.clock() - seen_at)

    def asks(self, view: CrabsView, you: int | None, waiting: bool) -> str | None:
        """What opens by itself now: "huddle" when the team's pick waits for this player (once
        per pick of the team's), "double" once as soon as the team may collect a double crab."""
        huddle = view["huddle"]
        if huddle is not None and you is not None:
            proposal = huddle.get("proposal", [])
            if waiting and proposal != self.huddle_asked:
                self.huddle_asked = list(proposal)
                return "huddle"
            return None
        if show.owed_double(view) and not self.double_asked and you is not None:
            self.double_asked = True
            return "double"
        if not show.owed_double(view):
            self.double_asked = False
        return None

    def pick(self, view: CrabsView, row: Literal["hand", "ocean"], index: int) -> Swap:
        """Pick (or unpick) a card of the hand or the ocean: a swap once one of each is
        picked, else what to pick next (`say` with no words: nothing is picked)."""
        if row == "hand":
            self.picked_hand = None if self.picked_hand == index else index
        else:
            self.picked_ocean = None if self.picked_ocean == index else index
        hand, ocean = view["hand"], view["ocean"]
        if self.picked_hand is not None and self.picked_ocean is not None:
            mine, theirs = hand[self.picked_hand], ocean[self.picked_ocean]
            self.picked_hand = self.picked_ocean = None
            return Swap("swap", hand=mine, ocean=theirs)
        if self.picked_hand is not None:
            picked = crab_name(hand[self.picked_hand])
            return Swap("say", f"{picked} picked: now an ocean card (j k l ;).")
        if self.picked_ocean is not None:
            picked = crab_name(ocean[self.picked_ocean])
            return Swap("say", f"{picked} picked: now a card of your hand (a s d f).")
        return Swap("say")
