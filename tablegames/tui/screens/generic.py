"""Any game's table, drawn from its view alone: the seats, what the game shows, the log, and its
legal actions as a list to choose from. Used for every game without a screen of its own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ...replay import compact
from ...rules import SHARED_VIEW_KEYS, Action, State, View
from ..widgets.log import GameLog
from ..widgets.seats import cut_mark, table_box
from .game import SHARED_KEYS, GameScreen
from .help import HelpScreen
from .pacing import PACE_KEYS
from .results import GameOver

if TYPE_CHECKING:
    from textual.screen import Screen

    from ..client import TableClient

CHOICES_SHOWN = 8  # lines of the list of actions before it scrolls, and before it is grouped


class Words:
    """How one game's views and actions read on the generic screen: the presentation contract
    of `rules/core.py` (`State.describe`, `per_seat`, `seat_keys`) with the table's names.

    Seats are said as names wherever the game marks a value as a seat, and in the game's own
    sentences (``{n}``); a game that says nothing gets `key value` words, names for seats.
    """

    def __init__(self, state: type[State], names: Sequence[str]) -> None:
        self.state, self.names = state, list(names)

    def seats(self, text: str) -> str:
        """`text` with each ``{n}`` written as seat n's name."""
        try:
            return text.format(*self.names)
        except (IndexError, KeyError, ValueError):  # a malformed sentence must not stop a game
            return text

    def value(self, key: str, value: Any) -> str:
        """A view value or an action field in words: a seat's name where `key` holds seats."""
        if key in self.state.seat_keys and type(value) is int and 0 <= value < len(self.names):
            return self.names[value]
        return compact(value)

    def action(self, action: Action, view: View) -> str:
        """`action` in words: the game's own (`describe`), else `type: key value, ...`."""
        said = self.state.describe(action, view)
        if said is not None:
            return self.seats(said)
        fields = [(key, item) for key, item in action.items() if key != "type"]
        details = ", ".join(f"{key} {self.value(key, item)}" for key, item in fields)
        return f"{action['type']}: {details}" if details else str(action["type"])

    def lines(self, view: View) -> list[str]:
        """The game's own view keys, one `key: value` line each, the hand first; per-seat keys
        are shown beside the players instead (`columns`)."""
        own = set(view) - SHARED_VIEW_KEYS - self.state.per_seat
        keys = sorted(own, key=lambda key: (key != "hand", key))
        return [f"{key.replace('_', ' ')}: {self.value(key, view[key])}" for key in keys]

    def columns(self, view: View) -> list[tuple[str, list[str]]]:
        """Each per-seat key of `view` as a column: its title and one entry per seat."""
        found = []
        for key in sorted(self.state.per_seat & set(view)):
            entries = view[key]
            if isinstance(entries, list) and len(entries) == len(self.names):
                found.append((key.replace("_", " "), [seat_entry(entry) for entry in entries]))
        return found


def seat_entry(entry: Any) -> str:
    """One seat's entry of a per-seat key: yes for True, nothing for False, None or empty."""
    if entry is True:
        return "yes"
    if entry is False or entry is None or entry == []:
        return ""
    return compact(entry)


Group = tuple[str, str, Any]  # (type, first field, its value): choices taken in two steps


def group_of(action: Action) -> Group | None:
    """The two-step group `action` falls in: its type and its first field (None: no field)."""
    first = next((key for key in action if key != "type"), None)
    if first is None:
        return None
    try:
        hash(action[first])
    except TypeError:  # a list or map: not a key to group by
        return None
    return (action["type"], first, action[first])


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


def seat_table(
    names: Sequence[str],
    waiting: Sequence[int],
    you: int | None,
    ascii: bool = False,
    columns: Sequence[tuple[str, list[str]]] = (),
) -> RichTable:
    """The players in seat order, the game's per-seat keys beside them; the ones the game waits
    for carry an arrow."""
    table = RichTable(box=table_box(ascii), expand=True, show_edge=False, pad_edge=False)
    table.add_column("Player", no_wrap=True, overflow=cut_mark(ascii))
    table.add_column("", no_wrap=True)
    for title, _ in columns:
        table.add_column(title, overflow="fold")
    arrow = ">" if ascii else "▶"
    for seat, name in enumerate(names):
        marks = [mark for mark, on in (("you", seat == you), ("to act", seat in waiting)) if on]
        pointer = arrow if seat in waiting else " "
        table.add_row(f"{pointer} {name}", ", ".join(marks), *(e[seat] for _, e in columns))
    return table


class GenericScreen(GameScreen):
    """A table for any game: the view's own keys as lines, its legal actions as choices.

    Hot-seat hand-offs, dialogs, bots, help and leaving come from `GameScreen`; what a seat may
    not see before its player has the keyboard is never drawn (only the seats and public lines).
    """

    KEYS = (  # the help adds ? and q
        ("↑ ↓", "move along the actions you may take"),
        ("Enter", "take the highlighted action"),
        ("1-9", "take action 1 to 9"),
    )
    DEFAULT_CSS = """
    GenericScreen #seats { height: auto; max-height: 12; border: round $primary; }
    GenericScreen #middle { height: 1fr; }
    GenericScreen #table { width: 1fr; border: round $primary; padding: 0 1; }
    GenericScreen #log { width: 1fr; border: round $primary; }
    GenericScreen #choices { height: auto; max-height: 10; border: round $accent; }
    GenericScreen #status { height: 1; padding: 0 1; }
    GenericScreen.ascii #seats, GenericScreen.ascii #table, GenericScreen.ascii #log,
    GenericScreen.ascii #choices { border: ascii $primary; }
    GenericScreen.ascii #log, GenericScreen.ascii #choices { scrollbar-size-vertical: 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(str(n), f"choose({n - 1})", f"Action {n}", show=False) for n in range(1, 10)],
    ]

    def __init__(self, client: TableClient, ascii: bool = False) -> None:
        super().__init__(client, ascii)
        game = client.game
        self.words = Words(game.state_class if game is not None else State, client.names)
        self.legal: list[Action] = []  # the seat's legal actions as last offered
        self.group: Group | None = None  # the group of choices opened (the second step)
        self.choices: list[Action | Group | None] = []  # what the list offers (None: back)
        self.asked = ""  # the status line's last prompt (a refusal stays until the next move)

    def compose(self) -> ComposeResult:
        yield Static(id="seats")
        with Horizontal(id="middle"):
            yield Static(id="table")
            yield GameLog(self.ascii, id="log")
        yield OptionList(id="choices")
        yield Static(id="status")
        yield Footer()

    def _begin(self) -> None:
        game = self.client.game
        self.query_one("#seats").border_title = game.title if game is not None else "Players"
        self.query_one("#table").border_title = "Table"
        self.query_one("#choices").border_title = "Your move"
        super()._begin()

    # -- drawing --------------------------------------------------------------------------------
    def _draw(self) -> None:
        update = self._update(self.active_seat)
        view = update.view
        you = self.active_seat if self.private else None
        self.words.names = list(self.names)
        # Before the hand-off a seat's own keys may hold its secrets: only the seats show then.
        shown = self.private or self.watching
        columns = self.words.columns(view) if shown else []
        self.query_one("#seats", Static).update(
            seat_table(self.names, view["waiting"], you, self.ascii, columns)
        )
        lines = self.words.lines(view) if shown else []
        self.query_one("#table", Static).update(Text("\n".join(lines) or "(hidden)"))
        self._show_log()
        self._offer(update.legal if self.private and not self.read_only else [], view)
        if self.over and (not self.message or self.message == self.asked):
            self._say("The game is over.")  # never "choose an action" under the results
            self.asked = self.message

    def _offer(self, legal: list[Action], view: View) -> None:
        """Put `legal` in the list of choices (numbered), grouped by their first key when there
        are many (a group opens as a second list), or hide the list when there are none."""
        choices = self.query_one("#choices", OptionList)
        if legal != self.legal:
            self.legal, self.group = list(legal), None
        elif self.choices and choices.display == bool(legal):
            return
        if self.group is not None:
            offered: list[Action | Group | None] = [
                action for action in legal if group_of(action) == self.group
            ]
            offered.append(None)
        else:
            offered = list(grouped(legal))
        self.choices = offered
        choices.clear_options()
        for n, choice in enumerate(offered, start=1):
            words = self._choice_words(choice, view)
            choices.add_option(Option(Text(f"{n}. {words}" if n < 10 else words)))
        choices.display = bool(legal)
        choices.styles.max_height = min(len(offered), CHOICES_SHOWN) + 2
        if offered:
            choices.highlighted = 0

    def _choice_words(self, choice: Action | Group | None, view: View) -> str:
        if choice is None:
            return "back to every choice"
        if isinstance(choice, tuple):  # a group: its type and first field, and how many
            kind, key, value = choice
            count = sum(1 for action in self.legal if group_of(action) == choice)
            more = "..." if self.ascii else "…"
            words = self.words.action({"type": kind, key: value}, view)
            return f"{words} {more} ({count} ways)"
        return self.words.action(choice, view)

    def _prompt(self) -> None:
        """Say what the table waits for, unless a refusal is still being read."""
        if self.choices:
            self.query_one("#choices", OptionList).focus()
            self._ask(f"{self.names[self.active_seat]}: choose an action (Enter).")
        elif not self.over:
            waiting = self._update(self.active_seat).view["waiting"]
            who = ", ".join(self.names[seat] for seat in waiting) or "the table"
            self._ask(f"Waiting for {who}.")

    def _ask(self, prompt: str) -> None:
        if not self.message or self.message == self.asked:
            self._say(prompt)
            self.asked = prompt

    def _results(self) -> Screen[str]:
        return GenericResult(self._view().get("result") or {}, self.names, self.ascii)

    # -- acting ---------------------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_choose(event.option_index)

    def action_choose(self, index: int) -> None:
        if self.covered or not 0 <= index < len(self.choices):
            return
        choice = self.choices[index]
        if choice is None or isinstance(choice, tuple):  # back, or a group's second step
            self.group = choice
            self.choices = []
            self._offer(self.legal, self._view())
            return
        self._submit(choice)

    def action_help(self) -> None:
        game = self.client.game
        name, title = (game.name, game.title) if game is not None else ("", "This game")
        self._open(HelpScreen(name, title, [*self.KEYS, *PACE_KEYS, *SHARED_KEYS], self.ascii))


class GenericResult(GameOver):
    """The end of any game: who won, and each player's score, from the game's `result`."""

    def __init__(self, result: dict[str, Any], names: Sequence[str], ascii: bool = False) -> None:
        super().__init__(ascii)
        winners = [names[seat] for seat in result.get("winners", [])]
        verb = "win" if len(winners) > 1 else "wins"
        self.headline = f"{' and '.join(winners)} {verb}!" if winners else "nobody wins."
        scores = result.get("scores") or [""] * len(names)
        self.rows = [(name, str(score)) for name, score in zip(names, scores, strict=False)]

    def _headline(self) -> str:
        return self.headline

    def _table(self) -> RichTable:
        table = RichTable("Player", "Score", box=table_box(self.ascii), expand=True)
        for row in self.rows:
            table.add_row(*row)
        return table


SCREEN = GenericScreen
