"""The Feed the Kraken table in one column (a terminal under 70 columns, or too low for the
chart beside the crew): the crew in a strip across the top, two players a row, and the chart's
words beside the chart.

The strip stays in sight above every question (`KrakenScreen.question_room`), so whose turn it
is, who holds which office and how many guns everyone has can be read while deciding; its
title says which faction you are. Pure functions from a view to Rich text, as in `kraken_view`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text

from ...rules.kraken.types import KrakenView
from ...words import with_article
from ..widgets.seats import fit_name
from .kraken_view import (
    FACTION_WORDS,
    SHORTEST_NAME,
    chart_key,
    chart_legend,
    last_words,
    notes_on,
    office_of,
)
from .size import BUTTONS_FROM

STRIP_COLUMNS = 2  # players side by side in a row of the strip
LONGEST_NAME = 12  # a strip's names are cut beyond this (notes take the rest of a row)
SIDE_BY_SIDE = 70  # terminal columns from which the chart and the crew stand side by side
BAR_ROWS = 2  # the status lines under the table
BUTTON_COLUMNS = 17  # the Decide and Character buttons, one above the other, beside the status


@dataclass(frozen=True)
class Room:
    """How a table of `players` with a chart of `chart_rows` rows stands in a terminal of
    `width` by `height`: side by side, or in one column with the crew in a strip on top."""

    width: int
    height: int
    players: int
    chart_rows: int

    def side_by_side(self) -> bool:
        """True if the chart and the crew fit side by side: 70 columns, and a crew line per
        player above a log of three."""
        return self.width >= SIDE_BY_SIDE and self.height >= max(20, self.players + 12)

    def one_column_rows(self, columns: int = STRIP_COLUMNS) -> int:
        """The rows a table in one column takes with `columns` players a row in its crew."""
        return strip_rows(self.players, columns) + self.chart_rows + BAR_ROWS + 1

    def strip_columns(self) -> int:
        """Players a row in the crew strip: one, with all that is known of each, where the
        rows allow; else two."""
        return 1 if self.height >= self.one_column_rows(1) else STRIP_COLUMNS

    def status(self) -> tuple[int, int]:
        """The status's columns, and the most lines it may take: three beside the chart and
        crew, two in one column unless the terminal has a row to spare."""
        buttons = BUTTON_COLUMNS if self.width >= BUTTONS_FROM else 0
        columns = self.width - 2 - buttons  # (its padding)
        if self.side_by_side():
            return columns, BAR_ROWS + 1
        spare = self.height - self.one_column_rows(self.strip_columns())
        return columns, BAR_ROWS + min(1, max(0, spare))


def strip_rows(players: int, columns: int) -> int:
    """The rows a crew strip takes: its title, then a row per `columns` players (one column
    adds a line of headings: `crew_text`'s)."""
    if columns == 1:
        return 2 + players
    return 1 + -(-players // columns)


def chart_rows(view: KrakenView) -> int:
    """The lines of the chart (`map_text`): the Kraken above the spaces' rows."""
    return 2 + max(int(space.split(",")[1]) for space in view["map"])


def crew_title(view: KrakenView, you: int | None, columns: int, starred: bool = True) -> str:
    """`Crew: job or duty, guns · * you, a pirate`, or `Crew (* is you, a pirate)` over one
    column (its headings name the columns; `starred`: your row is marked `*`, not "(you)");
    your faction only while your secrets show."""
    faction = view["faction"] if you is not None else None
    role = with_article(FACTION_WORDS[faction]) if faction else ""
    if columns > 1:
        return "Crew: job or duty, guns" + (f" · * you, {role}" if role else "")
    if not role:
        return "Crew"
    return f"Crew (* is you, {role})" if starred else f"Crew (you are {role})"


def crew_strip(
    view: KrakenView,
    names: Sequence[str],
    you: int | None,
    waiting: Sequence[int],
    width: int,
    ascii: bool = False,
) -> Text:
    """The crew two players a row (seats down the first column, then the second): who is
    waited for, name, job (`off` for an off-duty player without one) and guns, then what you
    know of them, their marks and their latest claim in a few words, as far as the row has
    room (`~` where it is cut)."""
    names = [name.removesuffix(" (bot)") for name in names]
    you_name = {seat: f"{name}*" for seat, name in enumerate(names) if seat == you}
    shown = [you_name.get(seat, name) for seat, name in enumerate(names)]
    mutiny = view["mutiny"]
    raised = (mutiny["raised"] if mutiny else None) or [None] * len(names)
    guns = [
        f"{held}+{raised[seat]}" if raised[seat] is not None else str(held)
        for seat, held in enumerate(view["guns"])
    ]
    gap = " | " if ascii else " │ "
    cell = (width - len(gap) * (STRIP_COLUMNS - 1)) // STRIP_COLUMNS
    gun_width = max((len(held) for held in guns), default=0)
    fixed = 2 + 4 + 1 + gun_width  # arrow, job (or duty), guns and the spaces before them
    name_width = max(SHORTEST_NAME, min(LONGEST_NAME, max(map(len, shown)), cell - fixed - 4))
    spoken = last_words(view, names, short=True)
    known = view["known"] if you is not None else {}
    arrow = ">" if ascii else "▶"
    rows = -(-len(names) // STRIP_COLUMNS)
    lines = []
    for row in range(rows):
        line = Text()
        for seat in range(row, len(names), rows):
            if line:
                line.append(gap, "dim")
            gone = seat in view["eliminated"]
            part = Text(arrow if seat in waiting else " ", "bold")
            part.append(" ")
            name = fit_name(shown[seat], name_width, "~")
            part.append(name, "strike dim" if gone else "bold")
            office = office_of(view, seat)
            part.append(" ")
            if office:
                part.append(f"{office:<3}", "bold reverse")
            else:  # (an office holder's duty waits for the next appointment: not now)
                part.append(f"{'off' if seat in view['off_duty'] else '':<3}", "italic")
            part.append(f" {guns[seat]:>{gun_width}}")
            notes = notes_on(view, seat, known, False)
            if seat in spoken:  # (what you know first, then what they said)
                notes.insert(1 if notes and notes[0].startswith("= ") else 0, spoken[seat])
            room = cell - part.cell_len - 1
            if notes and room > 1:
                said = ", ".join(notes)
                part.append(" " + fit_name(said, min(room, cell_len(said)), "~"), "italic")
            part.pad_right(cell - part.cell_len)
            line.append_text(part)
        line.rstrip()
        lines.append(line)
    return Text("\n").join(lines)


def chart_side(view: KrakenView, ascii: bool = False, colour: bool = True) -> Text:
    """The chart's words, to stand beside it: the round, where each colour sails next, the
    deck and the rituals, and what the letters mean."""
    board = "quick" if view["board"] == "quick" else "long"
    side = Text(f"Round {view['round']}, {board}\n", "bold")
    side.append_text(chart_legend(view, ascii, colour, between="\n"))
    side.append(f"\nDeck {view['deck_size']}, discards {view['discard_size']}")
    side.append(f"\nRituals left {view['rituals_left']}")
    letters = chart_key(ascii).split("  ")
    pairs = ["  ".join(letters[at : at + 2]) for at in range(0, len(letters), 2)]
    side.append("\n" + "\n".join(pairs), "dim")
    return side
