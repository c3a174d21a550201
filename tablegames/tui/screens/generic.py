"""Any game's table, drawn from its view alone: the seats, what the game shows, the log, and its
legal actions as a list to choose from. Used for every game without a screen of its own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ...replay import compact
from ..widgets.log import GameLog
from ..widgets.seats import table_box
from .game import SHARED_KEYS, GameScreen
from .help import HelpScreen
from .results import GameOver

if TYPE_CHECKING:
    from textual.screen import Screen

    from ..client import TableClient

#: The keys every view has (`rules/core.py`): drawn as the seats and the log, not as a game's own.
SHARED_VIEW_KEYS = frozenset(("game", "seat", "players", "over", "waiting", "log", "result"))
CHOICES_SHOWN = 8  # lines of the list of actions before it scrolls


def action_words(action: dict[str, Any]) -> str:
    """An action in a few words: `play: card 7H, suit S` (every key but its type, in order)."""
    details = ", ".join(f"{key} {compact(value)}" for key, value in action.items() if key != "type")
    return f"{action['type']}: {details}" if details else str(action["type"])


def view_lines(view: dict[str, Any]) -> list[str]:
    """What the game's own view keys say, one `key: value` line each, the hand first."""
    keys = sorted(set(view) - SHARED_VIEW_KEYS, key=lambda key: (key != "hand", key))
    return [f"{key.replace('_', ' ')}: {compact(view[key])}" for key in keys]


def seat_table(
    names: Sequence[str], waiting: Sequence[int], you: int | None, ascii: bool = False
) -> Table:
    """The players in seat order; the ones the game waits for carry an arrow."""
    table = Table(box=table_box(ascii), expand=True, show_edge=False, pad_edge=False)
    table.add_column("Player", no_wrap=True, overflow="ellipsis")
    table.add_column("", no_wrap=True)
    arrow = ">" if ascii else "▶"
    for seat, name in enumerate(names):
        marks = [mark for mark, on in (("you", seat == you), ("to act", seat in waiting)) if on]
        pointer = arrow if seat in waiting else " "
        table.add_row(f"{pointer} {name}", ", ".join(marks))
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
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(str(n), f"choose({n - 1})", f"Action {n}", show=False) for n in range(1, 10)],
    ]

    def __init__(self, client: TableClient, ascii: bool = False) -> None:
        super().__init__(client, ascii)
        self.choices: list[dict[str, Any]] = []  # the actions the list offers, in its order
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
        self.query_one("#seats", Static).update(
            seat_table(self.names, view["waiting"], you, self.ascii)
        )
        # Before the hand-off a seat's own keys may hold its secrets: only the seats show then.
        shown = view_lines(view) if self.private or self.watching else []
        self.query_one("#table", Static).update(Text("\n".join(shown) or "(hidden)"))
        self._show_log()
        self._offer(update.legal if self.private and not self.read_only else [])

    def _offer(self, legal: list[dict[str, Any]]) -> None:
        """Put `legal` in the list of choices (numbered), or hide the list when there are none."""
        choices = self.query_one("#choices", OptionList)
        if legal == self.choices and choices.display == bool(legal):
            return
        self.choices = list(legal)
        choices.clear_options()
        choices.add_options(
            Option(Text(f"{n}. {action_words(action)}" if n < 10 else action_words(action)))
            for n, action in enumerate(legal, start=1)
        )
        choices.display = bool(legal)
        choices.styles.max_height = min(len(legal), CHOICES_SHOWN) + 2
        if legal:
            choices.highlighted = 0

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
        self._submit(self.choices[index])

    def action_help(self) -> None:
        game = self.client.game
        name, title = (game.name, game.title) if game is not None else ("", "This game")
        self._open(HelpScreen(name, title, [*self.KEYS, *SHARED_KEYS], self.ascii))


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

    def _table(self) -> Table:
        table = Table("Player", "Score", box=table_box(self.ascii), expand=True)
        for row in self.rows:
            table.add_row(*row)
        return table


SCREEN = GenericScreen
