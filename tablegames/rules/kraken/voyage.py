"""The shared state of a voyage and the round's flow: attributes, agenda runner and helpers.

The round is an agenda of named steps (`ROUND_STEPS`). `_advance` runs steps in order until one
needs a player (it sets `phase` to something other than AUTO), an interrupt (a one-seat prompt
such as a telescope peek) is pending, or the game is over. A handler that settles what a phase
waited for sets `phase` back to AUTO and calls `_advance`. Each concept (appointment and mutiny,
navigation, rituals, characters) is a mixin over this class; `game.KrakenState` combines them.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Final

from ..contract import Action
from ..core import State
from .board import Board
from .roles import CULT, CULT_LEADER, CULTIST
from .types import Interruption, MutinyAction, Peek, Phase, TargetAction

AUTO: Final = "auto"
OVER: Final = "over"
#: The steps of one round, in order. Window steps open a character window (see characters.py).
ROUND_STEPS = (
    "before_appoint",
    "appoint",
    "after_appoint",
    "mutiny",
    "after_reveal",
    "resolve_mutiny",
    "before_draw",
    "navigate",
    "move",
    "map_action",
    "card_action",
    "ritual",
    "off_duty",
    "yellow_round",
)
#: Phases during which "any time" characters cannot be used: fists are closed for a mutiny, or
#: a navigation is under way (nobody may interfere between the draw and the reveal).
CLOSED_PHASES = frozenset(("mutiny", "navigation", "steer", "emergency"))


@dataclass
class Interrupt:
    """A one-seat prompt that holds up everything else until it is answered."""

    kind: Interruption  # a peek (telescope, Look-out), the Instigator's, the Spiritualist's
    seat: int
    card: str | None = None
    source: str = ""
    instigator: int | None = None
    givers: list[int] = field(default_factory=list)


@dataclass
class UpcomingMutiny:
    """Character effects waiting for the next mutiny (Minstrel, Agitator, Equalizer)."""

    sit_out: set[int] = field(default_factory=set)
    must_raise: set[int] = field(default_factory=set)
    equalizer: bool = False


@dataclass
class Mutiny:
    """A mutiny in progress: secret choices, then the reveal and its modifiers."""

    mutineers: list[int]
    threshold: int
    max_raise: int | None
    must_raise: set[int]
    choices: dict[int, int] = field(default_factory=dict)
    raised: dict[int, int] | None = None  # set at the reveal; the guns lie on the table
    doubled: set[int] = field(default_factory=set)
    cancelled: set[int] = field(default_factory=set)
    strategists: set[int] = field(default_factory=set)
    halved: bool = False
    tied: list[int] = field(default_factory=list)


class Voyage(State):
    """Attributes and helpers every part of the rules shares."""

    board: Board
    factions: list[str]
    known: list[dict[int, str]]
    guns: list[int]
    eliminated: set[int]
    tongueless: set[int]
    unconvertible: set[int]
    not_a: list[list[str]]
    off_duty: set[int]
    resumes: list[list[str]]
    ship: str
    draw_pile: list[str]  # top card last
    discard_pile: list[str]  # top card last
    rituals: list[str]  # top card last
    rituals_used: list[str]
    captain: int
    lieutenant: int | None
    navigator: int | None
    crew: dict[str, int | None]  # the offices of the last successful navigation
    characters_on: bool
    characters: list[str | None]
    character_used: list[bool]
    character_revealed: list[bool]
    captain_card: int | None
    spare_characters: list[str]
    gunsmiths: set[int]
    consultant: int | None
    upcoming: UpcomingMutiny
    mutiny: Mutiny | None
    hands: dict[int, list[str]]
    kept: dict[int, str]
    logbook: list[str]
    smuggler_for: int | None
    redraw_for: int | None
    revealed_card: str | None
    pick_reason: str | None
    pick_seat: int | None
    window: str | None
    window_pending: set[int]
    interrupt: Interrupt | None
    peeks: list[list[Peek]]
    agenda: list[str]
    phase: Phase
    round: int
    winner: str | None
    end_reason: str | None

    @property
    def over(self) -> bool:
        return self.winner is not None

    # -- flow ---------------------------------------------------------------------------------
    def _advance(self) -> None:
        """Run the agenda until a player must act, an interrupt is pending or the game ends."""
        while self.winner is None and self.interrupt is None and self.phase == AUTO:
            if not self.agenda:
                self.agenda = list(ROUND_STEPS)
                self.round += 1
            step = self.agenda.pop(0)
            getattr(self, f"_step_{step}")()

    def _restart_round(self) -> None:
        """Go back to step 1 (appoint the team) with whoever is captain now."""
        self.lieutenant = self.navigator = None
        self.consultant = None
        self.window, self.window_pending = None, set()
        self.agenda = list(ROUND_STEPS)
        self.phase = AUTO

    def _end(self, winner: str, reason: str, text: str) -> None:
        self.winner, self.end_reason, self.phase = winner, reason, OVER
        self.interrupt = None
        self.emit("over", text, reason=reason, winner=winner)

    def _answer_instigator(self, seat: int, action: MutinyAction) -> None:
        """The instigated player's answer (abilities.py)."""
        raise NotImplementedError

    def _why_not_add_guns(self, seat: int, action: Action) -> str | None:
        """Why the instigated player may not raise as `action` says (abilities.py)."""
        raise NotImplementedError

    def _answer_give(self, seat: int, action: TargetAction) -> None:
        """The Spiritualist names who receives a gun (abilities.py)."""
        raise NotImplementedError

    def _why_not_give(self, seat: int, action: Action) -> str | None:
        """Why the Spiritualist may not hand the gun as `action` says (abilities.py)."""
        raise NotImplementedError

    def _refuse_instigator(self, seat: int) -> None:
        """The instigated player declines to add their guns (abilities.py)."""
        raise NotImplementedError

    # -- people -------------------------------------------------------------------------------
    def living(self) -> list[int]:
        """Seats still on board, in seat order."""
        return [seat for seat in range(self.players) if seat not in self.eliminated]

    def cult_leader(self) -> int:
        return self.factions.index(CULT_LEADER)

    def clockwise_from(self, seat: int) -> list[int]:
        """The other seats, clockwise from `seat` (seat + 1 first)."""
        return [(seat + step) % self.players for step in range(1, self.players)]

    def next_captain_by_resume(self) -> int | None:
        """Who takes over from a drunk captain: clockwise, the first with the fewest résumé cards.

        Tongueless and eliminated players are skipped; None if nobody can take over.
        """
        able = [
            seat
            for seat in self.clockwise_from(self.captain)
            if seat not in self.eliminated and seat not in self.tongueless
        ]
        if not able:
            return None
        fewest = min(len(self.resumes[seat]) for seat in able)
        return next(seat for seat in able if len(self.resumes[seat]) == fewest)

    def _learn(self, seat: int, other: int, code: str) -> None:
        """`seat` learns `other`'s faction, or only their group (a search shows `cult`)."""
        if seat == other:
            return
        # A group never blurs a rank already known: a convert who searches their leader, or the
        # leader whose cult cabin search finds a convert, still knows who is who.
        if code == CULT and self.known[seat].get(other) in (CULT_LEADER, CULTIST):
            return
        self.known[seat][other] = code

    # -- cards --------------------------------------------------------------------------------
    def _reshuffle(self) -> None:
        """Shuffle the discard pile together with the draw pile into a new draw pile."""
        pile = self.draw_pile + self.discard_pile
        self.rng.shuffle(pile)
        self.draw_pile, self.discard_pile = pile, []
        self.emit("reshuffle", "The discard pile is shuffled together with the draw pile.")

    def _draw_card(self) -> str | None:
        """The top navigation card, reshuffling the discards in if the pile is empty."""
        if not self.draw_pile and self.discard_pile:
            self._reshuffle()
        return self.draw_pile.pop() if self.draw_pile else None

    def _start_peek(self, seat: int, source: str) -> None:
        """`seat` secretly sees the top navigation card and must leave or discard it."""
        if not self.draw_pile and self.discard_pile:
            self._reshuffle()
        if not self.draw_pile:
            self.emit("empty_pile", "The draw pile is empty: there is nothing to see.")
            return
        card = self.draw_pile[-1]
        self.interrupt = Interrupt("peek", seat, card=card, source=source)
        self.peeks[seat].append({"source": source, "cards": [card]})
        self.emit("peek", f"You see {card} on top of the draw pile.", (seat,), seat=seat, card=card)

    # -- arguments ----------------------------------------------------------------------------
    def _not_a_seat(self, value: object, what: str) -> str | None:
        """What is wrong with `value` as the seat of `what` ("the player you pick"), or None."""
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < self.players:
            return f"name {what} by seat number (0 to {self.players - 1})"
        return None

    def _not_a_target(
        self, action: Action, what: str, targets: Collection[int], otherwise: str
    ) -> str | None:
        """What is wrong with the action's `target` as `what`: not a seat (`_not_a_seat`), or
        not one of `targets` (`otherwise` says why); None if it is one."""
        target = action.get("target")
        wrong = self._not_a_seat(target, what)
        if wrong is None and target not in targets:
            return otherwise
        return wrong
