"""What a seat has seen so far, read from its own log: teams, navigations, mutinies, secrets.

The log in a view is public events plus this seat's private ones, oldest first, and it only
grows, so `History.read` takes the events it has not seen yet, by their kind and fields. A kind
it does not know is skipped: the bot then knows a little less, never something false.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...rules.kraken.types import KrakenEvent

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
    #: The belief's likelihood table (side codes -> chance) and what it was worked out for.
    table: tuple[int, dict[tuple[int, ...], float] | None] | None = None


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
    first_event: KrakenEvent | None = None
    # Our own cards in the navigation under way, attached to it when it is revealed.
    _drawn: list[str] = field(default_factory=list)
    _kept: str | None = None
    _logbook: list[str] = field(default_factory=list)
    _ship: str = "0,0"

    def read(self, log: list[KrakenEvent], odds: dict[str, float]) -> bool:
        """Take in the log events not read yet; True if there were any."""
        if log and self.first_event is None:
            self.first_event = log[0]
        new = log[self.read_upto :]
        for event in new:
            self._take(event, odds)
        self.read_upto = len(log)
        return bool(new)

    def fits(self, log: list[KrakenEvent]) -> bool:
        """True if `log` continues the one read so far (same game, nothing dropped)."""
        if len(log) < self.read_upto:
            return False
        return self.read_upto == 0 or (bool(log) and log[0] == self.first_event)

    def _take(self, event: KrakenEvent, odds: dict[str, float]) -> None:
        if event["to"] is not None:
            self._private(event)
        elif event["kind"] == "appoint":
            self._appointed(
                event["captain"],
                event["lieutenant"],
                event["navigator"],
                by_consultant=event["consultant"] is not None,
            )
        elif event["kind"] == "consultant":
            self.lieutenant = event["lieutenant"]
        elif event["kind"] == "emergency_navigator":
            self.navigator = event["navigator"]
        elif event["kind"] == "jump":
            self.navigator = None
            self._drawn, self._kept, self._logbook = [], None, []
        elif event["kind"] == "character":
            if event["character"] == "bosun":
                self.lieutenant, self.navigator = self.navigator, self.lieutenant
            elif event["character"] == "chief_cook":
                self.captain = event["captain"]
                self.lieutenant = self.navigator = None
        elif event["kind"] == "fists":
            raised = {s: g for s, g in enumerate(event["raised"]) if g is not None}
            if self.captain is not None:
                self.votes.append(
                    Vote(self.captain, self.lieutenant, self.navigator, raised, self._ship)
                )
        elif event["kind"] == "reveal":
            self._revealed(event["captain"], event["card"], odds)
        elif event["kind"] == "sail":
            self._ship = event["ship"]
        elif event["kind"] == "ritual":
            if event["ritual"] == CONVERSION and self.navigations:
                last = self.navigations[-1]
                team = (last.captain, last.lieutenant, last.navigator)
                self.conversions.append(Conversion(team, frozenset(self.searched)))
        elif event["kind"] == "search" or event["kind"] == "flogged":
            self.searched.add(event["target"])
        elif event["kind"] == "off_duty":
            self.lieutenant = self.navigator = None
        elif event["kind"] == "first_captain" or event["kind"] == "drunk":
            self.captain = event["captain"]
        elif event["kind"] == "command":
            self.captain = event["captain"]
            self.lieutenant = self.navigator = None

    def _appointed(
        self,
        captain: int,
        lieutenant: int | None,
        navigator: int | None,
        by_consultant: bool = False,
    ) -> None:
        if lieutenant is not None:
            self.lieutenant = lieutenant
        if navigator is not None:
            self.navigator = navigator
        elif lieutenant is not None:
            self.navigator = None
        self.captain = captain
        # A lieutenant the Consultant named says nothing about the captain's friends.
        chosen = None if by_consultant else self.lieutenant
        self.appointments.append(Appointment(captain, chosen, self.navigator))

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

    def _private(self, event: KrakenEvent) -> None:
        if event["kind"] == "faction" and self.first_faction is None:
            self.first_faction = event["faction"]
        elif event["kind"] == "pirates":
            self.mates = set(event["mates"])
        elif event["kind"] == "drawn" or event["kind"] == "redrawn":
            self._drawn = list(event["cards"])
        elif event["kind"] == "kept":
            self._kept = event["card"]
        elif event["kind"] == "logbook":
            self._logbook = list(event["cards"])
        elif event["kind"] == "mermaid_cards" and self.navigations:
            self.navigations[-1].mermaid = list(event["cards"])
