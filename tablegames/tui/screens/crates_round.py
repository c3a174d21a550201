"""Crates' end of a round: every hand and how it scored (`RoundSummary`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Button, Label, Static

from ..widgets.card import card_text
from ..widgets.seats import cut_mark, table_box
from .handoff import Notice

if TYPE_CHECKING:
    from ...rules.crates_types import LastRound

#: The key that closes a round's scores: no key of a move (an Enter, a Space) does.
NEXT_ROUND = "n"


def scored_hand(
    hand: Sequence[str], cancelled: Sequence[str], ascii: bool = False, colour: bool = True
) -> Text:
    """A hand at the end of a round; cards a 3 cancelled (and the 3s) struck and bracketed."""
    text = Text()
    for number, card in enumerate(hand):
        if number:
            text.append(" ")
        if card in cancelled:
            text.append("[")
            text.append_text(card_text(card, ascii, style="strike dim", colour=colour))
            text.append("]")
        else:
            text.append_text(card_text(card, ascii, colour=colour))
    return text


def round_table(
    last_round: LastRound,
    totals: Sequence[int],
    names: Sequence[str],
    ascii: bool = False,
    colour: bool = True,
) -> Table:
    """A table of every seat's hand, points for the round and running total."""
    table = Table(box=table_box(ascii), expand=True, pad_edge=False)
    table.add_column("Player", no_wrap=True, overflow=cut_mark(ascii), max_width=18)
    table.add_column("Hand left", ratio=1)
    table.add_column("Points", justify="right", no_wrap=True)
    table.add_column("Total", justify="right", no_wrap=True)
    went_out = last_round.get("went_out")
    for seat, name in enumerate(names):
        hand = last_round["hands"][seat]
        shown = (
            Text("went out", style="italic")
            if seat == went_out
            else scored_hand(hand, last_round["cancelled"][seat], ascii, colour)
        )
        if not hand and seat != went_out:
            shown = Text("(no cards)", style="italic")
        table.add_row(name, shown, str(last_round["points"][seat]), str(totals[seat]))
    return table


def round_heading(last_round: LastRound, rounds: int, names: Sequence[str]) -> str:
    """`Round 3 of 15: Sara went out.` (or that the round was blocked)."""
    heading = f"Round {last_round['round']} of {rounds}"
    if last_round.get("blocked"):
        return f"{heading}: blocked, nobody could play or draw. Everyone scores their hand."
    went_out = last_round.get("went_out")
    if went_out is not None:
        return f"{heading}: {names[went_out]} went out."
    return f"{heading} is over."


class RoundSummary(Notice):
    """How the round that just ended scored; `n` closes it, once it has been up a moment and
    the keyboard was still (`Deliberate`): Enter, Space and the keys of the last move do not,
    or a second Enter after the winning play would close it unseen."""

    CSS_PATH = "crates.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [Binding(NEXT_ROUND, "close", "Continue", show=False)]
    AUTO_FOCUS = ""  # (a focused button would take Enter)
    READ_BY_ALL = True

    def __init__(
        self,
        last_round: LastRound,
        totals: Sequence[int],
        rounds: int,
        names: Sequence[str],
        ascii: bool = False,
    ) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.last_round = last_round
        self.totals = list(totals)
        self.rounds = rounds
        self.names = list(names)
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(
                Text(round_heading(self.last_round, self.rounds, self.names)), classes="title"
            )
            with VerticalScroll():
                yield Static(
                    round_table(
                        self.last_round, self.totals, self.names, self.ascii, not self.app.no_color
                    )
                )
            yield Label(
                Text(
                    "[card] = cancelled by a 3 (both score 0); a 3 left over scores -50. "
                    "Lowest total wins."
                ),
                classes="hint",
            )
            last = self.last_round["round"] >= self.rounds
            words = "The final standings" if last else "Next round"
            yield Button(f"{words} ({NEXT_ROUND})", id="continue", variant="primary", compact=True)
