"""What a seat has seen so far, read from its own log: teams, navigations, mutinies, secrets.

The log in a view is public lines plus this seat's private ones, oldest first, and it only grows,
so `History.read` takes the lines it has not seen yet. A line it does not recognise is skipped:
the bot then knows a little less, never something false.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ...rules import Event

FIRST_CAPTAIN = re.compile(r"^\{(\d+)\} (?:reveals the Captain card|is the first captain)")
APPOINTS = re.compile(r"^\{(\d+)\} appoints (.+)\.$")
OFFICE = re.compile(r"\{(\d+)\} (lieutenant|navigator)")
CONSULTANT = re.compile(r"^The Consultant \{(\d+)\} appoints \{(\d+)\} lieutenant\.$")
EMERGENCY = re.compile(r"^\{(\d+)\} names \{(\d+)\} emergency navigator\.$")
JUMP = re.compile(r"^\{(\d+)\} jumps overboard!")
TAKES_COMMAND = re.compile(r"^\{(\d+)\} takes command from \{(\d+)\}")
NEW_CAPTAIN = re.compile(r"\{(\d+)\} becomes captain")
REVEAL = re.compile(r"^The navigation card is [\w-]+; it joins \{(\d+)\}'s résumé\.$")
SAILS = re.compile(r"^The ship sails \w+ from (\S+) to ")
SEARCHES = re.compile(r"^\{(\d+)\} searches \{(\d+)\}'s cabin\.$")
SEAT = re.compile(r"\{(\d+)\}")
CONVERSION = "conversion"


@dataclass
class Navigation:
    """One revealed navigation card and what this seat knows about how it came about."""

    captain: int
    lieutenant: int | None
    navigator: int | None
    ship: str  # where the ship stood before it moved
    card: str
    odds: dict[str, float]  # colour odds of a draw at the time
    drawn: list[str] = field(default_factory=list)  # our own draw, if we drew
    kept: str | None = None  # the card we put in the logbook
    logbook: list[str] = field(default_factory=list)  # what we saw as navigator
    mermaid: list[str] = field(default_factory=list)  # discards we saw afterwards
    table: tuple[int, Any] | None = None  # the belief's likelihood table, worked out once


@dataclass
class Vote:
    """A mutiny's open fists: the captain it was against and each mutineer's raise."""

    captain: int
    lieutenant: int | None
    navigator: int | None
    raised: dict[int, int]
    ship: str


@dataclass
class Appointment:
    """A captain naming a lieutenant and navigator, with who could have been named."""

    captain: int
    lieutenant: int | None
    navigator: int | None


@dataclass
class Conversion:
    """A conversion ritual: the team of the navigation that revealed it, and who could no longer
    be converted then (searched or flogged before it; later searches do not count)."""

    team: tuple[int | None, ...]
    unconvertible: frozenset[int]


@dataclass
class History:
    """Everything one seat has read from its log so far."""

    seat: int
    first_faction: str | None = None
    captain: int | None = None
    lieutenant: int | None = None
    navigator: int | None = None
    navigations: list[Navigation] = field(default_factory=list)
    votes: list[Vote] = field(default_factory=list)
    appointments: list[Appointment] = field(default_factory=list)
    conversions: list[Conversion] = field(default_factory=list)
    searched: set[int] = field(default_factory=set)  # searched or flogged: never converted since
    mates: set[int] = field(default_factory=set)  # our fellow pirates, if we started a pirate
    read_upto: int = 0
    first_line: str | None = None
    # Our own cards in the navigation under way, attached to it when it is revealed.
    _drawn: list[str] = field(default_factory=list)
    _kept: str | None = None
    _logbook: list[str] = field(default_factory=list)
    _ship: str = "0,0"

    def read(self, log: list[Event], odds: dict[str, float]) -> bool:
        """Take in the log lines not read yet; True if there were any."""
        if log and self.first_line is None:
            self.first_line = log[0]["text"]
        new = log[self.read_upto :]
        for event in new:
            self._line(event, odds)
        self.read_upto = len(log)
        return bool(new)

    def fits(self, log: list[Event]) -> bool:
        """True if `log` continues the one read so far (same game, nothing dropped)."""
        if len(log) < self.read_upto:
            return False
        return self.read_upto == 0 or (bool(log) and log[0]["text"] == self.first_line)

    def _line(self, event: Event, odds: dict[str, float]) -> None:
        text: str = event["text"]
        if event.get("to") is not None:
            self._private(event)
            return
        if match := APPOINTS.match(text):
            self._appointed(int(match[1]), match[2])
        elif match := CONSULTANT.match(text):
            self.lieutenant = int(match[2])
        elif match := EMERGENCY.match(text):
            self.navigator = int(match[2])
        elif JUMP.match(text):
            self.navigator = None
            self._drawn, self._kept, self._logbook = [], None, []
        elif event.get("character") == "bosun":
            self.lieutenant, self.navigator = self.navigator, self.lieutenant
        elif "raised" in event:
            raised = {s: g for s, g in enumerate(event["raised"]) if g is not None}
            if self.captain is not None:
                self.votes.append(
                    Vote(self.captain, self.lieutenant, self.navigator, raised, self._ship)
                )
        elif "card" in event and (match := REVEAL.match(text)):
            self._revealed(int(match[1]), event["card"], odds)
        elif "ship" in event and (match := SAILS.match(text)):
            self._ship = str(event["ship"])
        elif "ritual" in event:
            if event["ritual"] == CONVERSION and self.navigations:
                last = self.navigations[-1]
                team = (last.captain, last.lieutenant, last.navigator)
                self.conversions.append(Conversion(team, frozenset(self.searched)))
        elif match := SEARCHES.match(text):
            self.searched.add(int(match[2]))
        elif "not_a" in event:
            self.searched.add(int(event["target"]))
        elif text.startswith("Off duty next round"):
            self.lieutenant = self.navigator = None
        else:
            self._captaincy(text)

    def _captaincy(self, text: str) -> None:
        if match := FIRST_CAPTAIN.match(text):
            self.captain = int(match[1])
        elif match := TAKES_COMMAND.match(text):
            self.captain = int(match[1])
            self.lieutenant = self.navigator = None
        elif match := NEW_CAPTAIN.search(text):
            self.captain = int(match[1])
            if "Chief cook" in text:
                self.lieutenant = self.navigator = None

    def _appointed(self, captain: int, named: str) -> None:
        offices = {office: int(seat) for seat, office in OFFICE.findall(named)}
        if "lieutenant" in offices:
            self.lieutenant = offices["lieutenant"]
        if "navigator" in offices:
            self.navigator = offices["navigator"]
        elif "lieutenant" in offices:
            self.navigator = None
        self.captain = captain
        self.appointments.append(Appointment(captain, self.lieutenant, self.navigator))

    def _revealed(self, captain: int, card: str, odds: dict[str, float]) -> None:
        self.navigations.append(
            Navigation(
                captain=captain,
                lieutenant=self.lieutenant,
                navigator=self.navigator,
                ship=self._ship,
                card=card,
                odds=dict(odds),
                drawn=self._drawn,
                kept=self._kept,
                logbook=self._logbook,
            )
        )
        self._drawn, self._kept, self._logbook = [], None, []

    def _private(self, event: Event) -> None:
        text: str = event["text"]
        if text.startswith("You are a ") and self.first_faction is None:
            self.first_faction = event.get("faction")
        elif text.startswith("Your fellow pirates:"):
            self.mates = {int(seat) for seat in SEAT.findall(text)}
        elif text.startswith(("You draw", "You discard them and draw")):
            self._drawn = list(event.get("cards", []))
        elif text.startswith("You put"):
            self._kept = event.get("card")
        elif text.startswith("The logbook holds"):
            self._logbook = list(event.get("cards", []))
        elif text.startswith("The mermaid shows you") and self.navigations:
            self.navigations[-1].mermaid = list(event.get("cards", []))
