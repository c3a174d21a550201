"""Any game's table, drawn from its view alone: the seats, what the game shows, the log, and its
legal actions as a list to choose from. Used for every game without a screen of its own."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...rules import Action, Result, State, View, shared
from ..widgets.footer import Footer
from ..widgets.log import GameLog
from ..widgets.seats import table_box
from .game import GameScreen
from .generic_presenter import CHOICES_SHOWN, OVER, GenericPresenter
from .generic_view import (
    OTHER_ROWS,
    SEATS_FRAME,
    SeatRows,
    Words,
    frame_title,
    seat_room,
    sections_text,
)
from .results import GameOver

if TYPE_CHECKING:
    from textual.screen import Screen

    from ..client import TableClient

SMALLEST = (60, 20)  # the least room any table needs: more rows when the players need them


class GenericScreen(GameScreen):
    """A table for any game: the players with what the game says of each, the view's own keys
    in the game's panels, the log, and the legal actions as a numbered list.

    Hot-seat hand-offs, dialogs, bots, help and leaving come from `GameScreen`; what a seat may
    not see before its player has the keyboard is never drawn (only the players and the log's
    public lines). The layout follows the room: players side by side in blocks when many, the
    panels and the players scrolling where they must, and no scrollbar drawn in ASCII.
    """

    CSS_PATH = "generic.tcss"

    MORE_HELP = (  # (the list's own keys)
        ("↑ ↓", "move along the actions you may take"),
        ("Enter", "take the highlighted action"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "1",
            "choose(0)",
            "Action 1",
            show=False,
            key_display="1-9",
            tooltip="take action 1 to 9",
        ),
        *[Binding(str(n), f"choose({n - 1})", f"Action {n}", show=False) for n in range(2, 10)],
    ]

    def __init__(self, client: TableClient, ascii: bool = False) -> None:
        super().__init__(client, ascii)
        game = client.game
        self.words = Words(game.state_class if game is not None else State, client.names)
        self.flow = GenericPresenter(self.words, ascii)
        self.seats_height = SMALLEST[1] // 3  # the rows the players took when last drawn

    def compose(self) -> ComposeResult:
        # (Keys go to the table and the list of actions, never to a scrolled panel.)
        with VerticalScroll(id="seats", can_focus=False):
            yield Static(id="players")
        with Horizontal(id="middle"):
            with VerticalScroll(id="panels", can_focus=False):
                yield Static(id="table")
            yield GameLog(self.ascii, id="log")
        yield OptionList(id="choices")
        yield self.status_line
        yield Footer()

    def on_mount(self) -> None:
        game = self.client.game
        self.query_one("#seats").border_title = game.title if game is not None else "Players"
        self.query_one("#panels").border_title = "Table"
        self.query_one("#choices").border_title = "Your move"

    def min_size(self) -> tuple[int, int]:
        """60×20, and more rows when the players cannot all be seen in 60 columns (side by
        side in blocks, with as few of the game's columns beside them as need be)."""
        players = self._seat_rows(self._update(self.active_seat).view)
        rows = math.ceil(len(self.names) / players.blocks_in(SMALLEST[0]))
        return SMALLEST[0], max(SMALLEST[1], OTHER_ROWS + SEATS_FRAME + rows)

    # -- drawing --------------------------------------------------------------------------------
    def _seat_rows(self, view: View) -> SeatRows:
        you = self.active_seat if self.private else None
        self.words.names = list(self.names)
        # Before the hand-off a seat's own keys may hold its secrets: only the seats show then.
        shown = self.private or self.watching
        marks, columns = self.words.seat_columns(view) if shown else ([], [])
        return SeatRows.of(self.names, shared(view)["waiting"], you, marks, columns)

    def _draw(self) -> None:
        update = self._update(self.active_seat)
        view = update.view
        self._draw_players(self._seat_rows(view))
        shown = self.private or self.watching
        sections = self.words.sections(view) if shown else []
        table = self.query_one("#table", Static)
        panels = self.query_one("#panels", VerticalScroll)
        panels.border_title = frame_title(sections)
        if sections:
            table.update(sections_text(sections, panels.scrollable_content_region.height or None))
        elif shown:
            table.update(Text("(nothing to show)"))
        else:
            table.update(Text(f"(hidden until {self.names[self.active_seat]} has the keyboard)"))
        self._offer(update.legal if self.private and not self.read_only else [], view)
        self._fit_choices()
        if self.over and self.flow.says(OVER, self.message):
            self._say(OVER)  # never "choose an action" under the results

    def _draw_players(self, players: SeatRows) -> None:
        """The players in as many blocks side by side as the width allows and the height
        needs; beyond the rows they may take, they scroll."""
        width, height = self.app.size
        room = min(seat_room(height), len(self.names))
        blocks, columns = players.layout(width, room)
        rows = math.ceil(len(self.names) / blocks)
        self.query_one("#players", Static).update(players.table(blocks, self.ascii, columns))
        self.seats_height = min(rows, room) + SEATS_FRAME - 2 * (not players.headed(columns))
        self.query_one("#seats", VerticalScroll).styles.max_height = self.seats_height

    def _offer(self, legal: list[Action], view: View) -> None:
        """Put `legal` in the list of choices (numbered), grouped by their first key when there
        are many (a group opens as a second list), or hide the list when there are none."""
        choices = self.query_one("#choices", OptionList)
        if not self.flow.offer(legal) and choices.display == bool(legal):
            return
        choices.clear_options()
        for label in self.flow.labels(view):
            choices.add_option(Option(Text(label)))
        choices.display = bool(legal)
        if self.flow.choices:
            choices.highlighted = 0

    def _fit_choices(self) -> None:
        """The list of actions takes up to a third of what the players leave (the panels and
        the log the rest), and scrolls beyond."""
        left = (self.app.size.height - 2 - self.seats_height) // 3
        choices = self.query_one("#choices", OptionList)
        choices.styles.max_height = max(1, min(len(self.flow.choices), CHOICES_SHOWN, left)) + 2

    def _prompt(self) -> None:
        """Say what the table waits for, unless a refusal is still being read."""
        if self.flow.choices:
            self.query_one("#choices", OptionList).focus()
        elif self.over:
            return
        waiting = shared(self._update(self.active_seat).view)["waiting"]
        names = self.names
        prompt = self.flow.prompt(names[self.active_seat], [names[seat] for seat in waiting])
        if self.flow.says(prompt, self.message):
            self._say(prompt)

    def _results(self) -> Screen[str]:
        return GenericResult(
            shared(self._update(self.active_seat).view)["result"], self.names, self.ascii
        )

    # -- acting ---------------------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_choose(event.option_index)

    def action_choose(self, index: int) -> None:
        if self.covered:
            return
        action = self.flow.choose(index)
        if action is not None:
            self._submit(action)
        elif not self.flow.choices:  # back, or a group's second step
            self._offer(self.flow.legal, self._update(self.active_seat).view)
            self._fit_choices()


class GenericResult(GameOver):
    """The end of any game: who won, and each player's score, from the game's `result`."""

    def __init__(self, result: Result | None, names: Sequence[str], ascii: bool = False) -> None:
        super().__init__(ascii)
        winners = [names[seat] for seat in result["winners"]] if result else []
        verb = "win" if len(winners) > 1 else "wins"
        self.headline = f"{' and '.join(winners)} {verb}!" if winners else "nobody wins."
        scores = (result["scores"] if result else None) or [""] * len(names)
        self.rows = [(name, str(score)) for name, score in zip(names, scores, strict=False)]

    def _headline(self) -> str:
        return self.headline

    def _table(self) -> RichTable:
        table = RichTable("Player", "Score", box=table_box(self.ascii), expand=True)
        for row in self.rows:
            table.add_row(*row)
        return table


SCREEN = GenericScreen
