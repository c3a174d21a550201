"""The generic screen's game flow, from the seat's legal actions alone: the list of choices
(grouped in two steps when there are many), what a choice does, and what the status line says
and when it gives way. No widgets: tested without a terminal (`GenericScreen` draws and wires).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...rules import Action, View
from .generic_view import Words

CHOICES_SHOWN = 8  # lines of the list of actions before it scrolls, and before it is grouped
OVER = "The game is over."

Group = tuple[str, str, object]  # (type, first field, its value): choices taken in two steps
Choice = Action | Group | None  # an action, a group of them, or back to every choice (None)


def group_of(action: Action) -> Group | None:
    """The two-step group `action` falls in: its type and its first field (None: no field)."""
    first = next((key for key in action if key != "type"), None)
    if first is None:
        return None
    try:
        hash(action[first])
    except TypeError:  # a list or map: not a key to group by
        return None
    return (str(action["type"]), first, action[first])


def grouped(legal: Sequence[Action]) -> list[Action | Group]:
    """`legal` as one list of choices: actions that share a type and first field become one
    choice (a group, taken in a second step) when there are more than fit on the list."""
    if len(legal) <= CHOICES_SHOWN:
        return list(legal)
    groups: dict[Group | int, list[Action]] = {}
    for index, action in enumerate(legal):
        groups.setdefault(group_of(action) or index, []).append(action)
    return [
        key if len(members) > 1 and isinstance(key, tuple) else members[0]
        for key, members in groups.items()
    ]


class GenericPresenter:
    """One terminal's flow for a game without a screen of its own: the screen shows `choices`
    (`labels`) and says what `prompt` and `says` allow on the status line."""

    def __init__(self, words: Words, ascii: bool = False) -> None:
        self.words = words
        self.ascii = ascii
        self.legal: list[Action] = []  # the seat's legal actions as last offered
        self.group: Group | None = None  # the group of choices opened (the second step)
        self.choices: list[Choice] = []  # what the list offers (None: back)
        self.asked = ""  # the status line's last prompt (a refusal stays until the next move)

    def offer(self, legal: list[Action]) -> bool:
        """Offer `legal` (a group opened closes when they change): True if the choices were
        made afresh, False if those on the list still hold."""
        if legal != self.legal:
            self.legal, self.group = list(legal), None
        elif self.choices:
            return False
        if self.group is not None:
            self.choices = [action for action in legal if group_of(action) == self.group]
            self.choices.append(None)
        else:
            self.choices = list(grouped(legal))
        return True

    def choose(self, index: int) -> Action | None:
        """The action the choice at `index` takes, or None: there is none there, or it opened
        a group's second step or went back to every choice (then the choices are to be made
        afresh: `offer`)."""
        if not 0 <= index < len(self.choices):
            return None
        choice = self.choices[index]
        if choice is None or isinstance(choice, tuple):
            self.group, self.choices = choice, []
            return None
        return choice

    def labels(self, view: View) -> list[str]:
        """The choices in words, the first nine numbered (their keys)."""
        return [
            f"{n}. {self._words(choice, view)}" if n < 10 else self._words(choice, view)
            for n, choice in enumerate(self.choices, start=1)
        ]

    def _words(self, choice: Choice, view: View) -> str:
        if choice is None:
            return "back to every choice"
        if isinstance(choice, tuple):  # a group: its type and first field, and how many
            kind, key, value = choice
            count = sum(1 for action in self.legal if group_of(action) == choice)
            more = "..." if self.ascii else "…"
            return f"{self.words.action({'type': kind, key: value}, view)} {more} ({count} ways)"
        return self.words.action(choice, view)

    def prompt(self, name: str, waiting: Sequence[str]) -> str:
        """What the status line asks of `name`, the seat's player: to choose, or to wait for
        the players `waiting`."""
        if self.choices:
            return f"{name}: choose an action (Enter)."
        return f"Waiting for {', '.join(waiting) or 'the table'}."

    def says(self, prompt: str, message: str) -> bool:
        """True if the status line now says `prompt` instead of `message`: it replaces an
        earlier prompt, never something the player is still to read (a refusal)."""
        if message and message != self.asked:
            return False
        self.asked = prompt
        return True
