"""Who plays at this keyboard: the seats played here, whose player has it, and passing it on."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textual.screen import Screen

from .handoff import Aside, HandoffScreen, handoff_keys

#: A screen to put over the table, and what to do with its answer when it closes.
Overlay = tuple[Screen[Any], Callable[[Any], object]]


class Keyboard:
    """The seats played at one keyboard (`humans`: several in hot-seat, none for a watcher),
    the one whose player last took it (`shown`), and the hand-off passing it to another.

    The table screen says which seat it acts for; the keyboard says whether that seat's player
    has it (`shows`): only then do the seat's secrets show. A hand-off's key is a capital
    letter of the player's name (`handoff_keys`); `passed(seat)` is told when it closes (None:
    the player chose to quit). A game may let the player leaving the keyboard do something on
    the hand-off (`aside`: crates' "Crates!").
    """

    def __init__(
        self,
        humans: Sequence[int],
        names: Callable[[], list[str]],
        passed: Callable[[int | None], None],
        read_only: bool,
        ascii: bool,
        private: str = "secrets",
    ) -> None:
        self.humans = list(humans)
        self.watching = not self.humans  # a spectator: no hand, no actions
        self.shown: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.handing: HandoffScreen | None = None  # the hand-off up now
        #: What the player of a seat leaving the keyboard may still do (None: nothing).
        self.aside: Callable[[int], Aside | None] = lambda seat: None
        self._names = names
        self._passed = passed
        self._read_only = read_only
        self._ascii = ascii
        self._private = private  # what a player keeps to themselves, in the game's word

    def shows(self, seat: int) -> bool:
        """True when the player at the keyboard may see `seat`'s secrets."""
        return not self.watching and self.shown == seat

    def owned(self, seat: int, thing: str) -> str:
        """`Your hand`; `Sara's hand` when several play at this keyboard, or in a replay (where
        nobody is "you": it is her hand, and her turn)."""
        if len(self.humans) == 1 and not self._read_only:
            return f"Your {thing}"
        return f"{self._names()[seat]}'s {thing}"

    def addressed(self, seat: int) -> int | None:
        """`seat`, if its player is told "your turn" (a replay tells nobody: it names whose
        turn it is)."""
        return None if self._read_only or not self.shows(seat) else seat

    def hidden_words(self, secrets: str) -> str:
        """What a watcher's panel says in place of `secrets` ("every hand"): hidden from them,
        or in a replay of every seat, listed in the replay's own panel below."""
        if self._read_only:
            return f"A replay of every seat: {secrets} is listed below."
        return f"You are watching: {secrets} stays hidden."

    def key(self, seat: int) -> str:
        """The key `seat`'s player opens their hand-off with: a capital letter of their name,
        the same in every game, that no other player here uses (`handoff_keys`)."""
        names = self._names()
        keys = handoff_keys([names[human] for human in self.humans])
        return dict(zip(self.humans, keys, strict=True))[seat]

    def put_down(self) -> None:
        """Everyone at the keyboard reads what comes now (a round's scores, the end of the
        game): nobody's secrets show under it, and the next ones only after their hand-off."""
        if len(self.humans) > 1:
            self.shown = None

    def follow(self, seat: int) -> None:
        """The table now waits for `seat`: a hand-off up names its player from now on."""
        if self.handing is not None and self.handing.seat != seat:
            self.handing.hand_to(seat, self._names()[seat], self.key(seat))

    def hand_off(self, seat: int) -> Overlay | None:
        """The hand-off to put over the table before `seat`'s secrets show, when another
        player has the keyboard; None when it is theirs already (the only player here takes
        it at once) or nobody plays here."""
        if self.shows(seat) or self.watching:
            return None
        if len(self.humans) == 1:
            self.shown = seat
            return None
        leaving = self.aside(self.shown) if self.shown is not None else None
        self.handing = HandoffScreen(
            seat, self._names()[seat], self.key(seat), self._ascii, leaving, self._private
        )
        return self.handing, self._taken_by

    def _taken_by(self, seat: int | None) -> None:
        """The hand-off closed: `seat`'s player has the keyboard (None: they chose to quit)."""
        self.handing = None
        if seat is not None:
            self.shown = seat
        self._passed(seat)
