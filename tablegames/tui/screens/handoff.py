"""The hot-seat hand-off: an opaque screen asking to pass the keyboard before a hand is shown."""

from __future__ import annotations

import string
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Button, Label

from ..textual_private import key_bindings
from ..widgets.footer import Footer
from ..widgets.notices import banner
from . import typeahead
from .dialogs import Dialog
from .typeahead import TypeAhead, drop

#: Seconds a hand-off is shown before a key may dismiss it: the player who just moved may
#: still be pressing keys (a second Enter), and the next player needs the screen in hand.
HANDOFF_SETTLE = 1.0
#: Said when a right key came too soon and did nothing.
TOO_SOON = "Too soon: that key counts once this has been up a moment. Press it again."
#: A key dismisses it only after the keyboard has been still this long: a deliberate press,
#: not one more of a stream of keys (a keyboard changes hands in a pause, never mid-stream).
QUIET = 0.5


#: The keys that open hand-offs: capital letters, which no game's table binds (a test checks
#: every registered game's), so no key pressed out of habit in any game opens one; I and O
#: are left out (they read as 1, l and 0 in many fonts).
HANDOFF_LETTERS = tuple(letter for letter in string.ascii_uppercase if letter not in "IO")


def handoff_keys(names: Sequence[str]) -> list[str]:
    """The key each of `names` (the players sharing this keyboard) opens their hand-off with: a
    capital letter of their name (Shift and the letter), the same in every game (no game's keys
    are taken into account: none is a capital) and distinct at the table.

    The first letter of the name when nobody else's starts with it; where first letters are
    shared ("Player 1", "Player 2"), nobody gets that one (each might press it as theirs) and
    each, in the order of their names, takes the next letter of their name that is free;
    failing that, a free letter of the alphabet. The keys depend on the names alone, never on
    the order of the seats.
    """
    letters = [
        [c.upper() for c in _letters(name) if c.upper() in HANDOFF_LETTERS] for name in names
    ]
    firsts = Counter(word[0] for word in letters if word)
    keys = [word[0] if word and firsts[word[0]] == 1 else "" for word in letters]
    used = set(firsts)
    for number in sorted(range(len(names)), key=lambda n: (names[n].casefold(), n)):
        if not keys[number]:
            free = [c for c in (*letters[number], *HANDOFF_LETTERS) if c not in used]
            keys[number] = free[0]
            used.add(free[0])
    return keys


def key_words(key: str) -> str:
    """How a hand-off key is said: `Shift+A`."""
    return f"Shift+{key}"


def _letters(name: str) -> list[str]:
    """The letters a-z of `name`, lower case and in order, accents dropped (`Zoë`: z o e)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return [letter for letter in plain if letter in string.ascii_lowercase]


@dataclass
class Aside:
    """Something the player leaving the keyboard may still do before it goes on (say
    "Crates!"): the key, what it does in words, and the doing, which returns what to say."""

    key: str
    words: str
    do: Callable[[], str]


class Deliberate(TypeAhead):
    """For screens that a key of the player who just moved must not answer (a hand-off, a
    round's scores, the end of the game): a key counts only once the screen has been up
    `HANDOFF_SETTLE` seconds and the keyboard has been still for `QUIET` before it (a keyboard
    changes hands, and a screen is read, in a pause, never mid-stream). Every key counts for
    the stillness, taken or not. The screen asks anew (and waits again) once it is mounted."""

    settle = HANDOFF_SETTLE
    last_key = -float("inf")  # when the last key came, taken or not
    #: Read by everyone at the keyboard (a round's scores, the end of the game): the table
    #: under it is drawn for nobody, and the next private view waits for its hand-off.
    READ_BY_ALL: ClassVar[bool] = False

    def on_mount(self) -> None:
        self.ask_anew()

    def deliberate(self, event: events.Key) -> bool:
        """True if `event` is a press meant for this screen: after it settled, and after a
        still moment."""
        before, self.last_key = self.last_key, event.time
        still = event.time - before >= QUIET * typeahead.SETTLE_SCALE
        return self.typed_in_time(event) and still

    async def on_key(self, event: events.Key) -> None:
        screen: Screen[object] = self  # type: ignore[assignment]
        if screen.is_current and not self.deliberate(event):
            drop(event)
            if self.answers(event):
                self.too_soon()
            return
        if screen.is_current and self.take_key(event):
            drop(event)
            return
        await super().on_key(event)

    def answers(self, event: events.Key) -> bool:
        """True if `event` is a key this screen would take, were it not too soon."""
        screen: Screen[object] = self  # type: ignore[assignment]
        return event.key in key_bindings(screen)

    def too_soon(self) -> None:
        """A right key came too soon (or mid-stream) and did nothing: say why."""
        screen: Screen[object] = self  # type: ignore[assignment]
        banner(screen.app, TOO_SOON)

    def take_key(self, event: events.Key) -> bool:
        """Do what a deliberate `event` asks before any binding; True if it was taken (a key
        that is not a binding). Screens with such keys override."""
        return False


class Notice(Deliberate, Dialog[None]):
    """A notice to read and pass by (`Deliberate`): its button, or a key bound to ``close``,
    closes it; a click while it settles presses nothing."""

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if self.typed_in_time(event):
            self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class ReadyButton(Button, can_focus=False):
    """Clicking it says the named player has the screen (as their key does)."""


class HandoffScreen(Deliberate, Screen[int | None]):
    """Covers everything until the named player presses their key; returns the seat it named
    then (None if they chose to quit).

    The hand-off is a deliberate act of the player it names: their own key (a letter of their
    name, `handoff_keys`), never Enter, Space or a key of a move, and only once it has been up
    for `HANDOFF_SETTLE` seconds and the keyboard has been still for `QUIET` before it
    (`Deliberate`). If the table moves on while it is up, `hand_to` names whoever comes next
    instead (with their key), and the wait starts again, so it never shows one player's name
    and then another's hand.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "leave", "Quit")]

    def __init__(
        self,
        seat: int,
        name: str,
        key: str,
        ascii: bool = False,
        aside: Aside | None = None,
        private: str = "secrets",
    ) -> None:
        super().__init__()
        self.seat = seat
        self.player = name
        self.key = key
        self.private = private  # what is shown once it opens, in the game's word (`Game`)
        self.ascii = ascii
        self.dash = "-" if ascii else "—"
        self.aside = aside

    def compose(self) -> ComposeResult:
        with Vertical(id="handoff"):
            yield Label(self._asking(), id="asking")
            yield Label(self._look_away(), classes="hint", id="hint")
            if self.aside is not None:
                yield Label(Text(self.aside.words), id="aside")
            with Center():
                yield ReadyButton(self._ready(), id="ready", compact=self.ascii)
        yield Footer()

    def _asking(self) -> Text:
        name = self.player
        return Text.assemble(
            f"Pass to {name} {self.dash} press ",
            (key_words(self.key), "reverse"),
            f" when only {name} can see",
        )

    def _look_away(self) -> Text:
        return Text("Everyone else: please look away.")

    def _ready(self) -> Text:
        key = key_words(self.key)
        words = f"I am {self.player}: show my {self.private} ({key})"
        if cell_len(words) + 8 > self.app.size.width:  # (a narrow terminal: the name and the key)
            words = f"I am {self.player} ({key})"
        return Text(words)

    def on_resize(self) -> None:
        self._show_name()

    def on_mount(self) -> None:
        self._show_name()  # (renamed between composing and mounting: say the name now)
        super().on_mount()

    def _show_name(self) -> None:
        self.query_one("#asking", Label).update(self._asking())
        self.query_one("#hint", Label).update(self._look_away())
        self.query_one("#ready", ReadyButton).label = self._ready()

    def ask_anew(self) -> None:
        """Asked anew: the button looks unready until the hand-off takes a key."""
        super().ask_anew()
        if self.is_mounted:
            ready = self.query_one("#ready", ReadyButton)
            ready.disabled = True
            # (Textual's timer of no time at all divides by it when it runs late: tests settle
            # at once)
            self.set_timer(max(self.settle * typeahead.SETTLE_SCALE, 0.001), self._settled)

    def _settled(self) -> None:
        """Ready once a key would be taken (asked anew, or drawn late, since: wait on)."""
        left = self.asked_at + self.settle * typeahead.SETTLE_SCALE - typeahead.moment()
        if left > 0:
            self.set_timer(left, self._settled)
        else:
            self.query_one("#ready", ReadyButton).disabled = False

    def hand_to(self, seat: int, name: str, key: str) -> None:
        """The table now waits for `seat` (`name`, whose key is `key`): ask for them instead,
        from now."""
        if seat == self.seat:
            return
        self.seat, self.player, self.key = seat, name, key
        if self.is_mounted:
            self._show_name()
        self.ask_anew()

    async def on_key(self, event: events.Key) -> None:
        aside = self.aside
        if aside is not None and event.key == aside.key and self.is_current:
            drop(event)
            self.aside = None  # once
            self.query_one("#aside", Label).update(Text(aside.do()))
            return
        await super().on_key(event)

    def answers(self, event: events.Key) -> bool:
        return event.character == self.key

    def too_soon(self) -> None:
        said = f"Too soon: {key_words(self.key)} counts once this has been up a moment. Again now."
        self.query_one("#hint", Label).update(Text(said))

    def take_key(self, event: events.Key) -> bool:
        """The named player's own key opens it; any other (but quitting) says which does."""
        if event.character == self.key:
            self.dismiss(self.seat)
            return True
        if event.key != "q":
            said = f"Only {self.player}'s own key opens it: {key_words(self.key)}."
            if (event.character or "") == self.key.lower():
                said = f"{said} (Shift too: a small {self.key.lower()} is a game's key.)"
            self.query_one("#hint", Label).update(Text(said))
        return False

    def action_leave(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if self.typed_in_time(event):  # (a click while it settles presses nothing)
            self.dismiss(self.seat)
