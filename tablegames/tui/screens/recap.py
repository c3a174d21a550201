"""'Since your last turn': what the log cannot show of the moves between two of a player's turns.

At 80x24 a log shows five lines, and bots make six to ten moves between two turns. A turn opens
with the newest of them in full, as the log shows everything, and above them one short line in
the order things happened for the older ones that no longer fit: `» Since your last turn: Ada
plays 7♠; Bruno draws 1 card, plays 4♠.` Nothing the log shows below it is said again, and when
every move since the last turn is in sight there is no summary at all. A summary too long for
its rows says how many moves it leaves out and where they are (PgUp), never a bare "…".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Any

from ..touch import on_the_page
from ..widgets.log import RECAP_HEAD, RECAP_MARK

#: The rows a summary may take, at most: a third of the log's (so the newest moves stay in
#: sight in full), and never more than this.
RECAP_ROWS = 3
#: What opens the summary before a player's first turn (there was no last one).
FIRST_HEAD = "Before your first turn:"


def recap_rows(height: int) -> int:
    """The rows a summary may take in a log `height` rows high."""
    return max(1, min(RECAP_ROWS, height // 2))


def digest(
    events: Sequence[dict[str, object]],
    names: Sequence[str],
    line: Callable[[dict[str, object]], str],
    rows: Callable[[str], int],
    height: int,
    ascii: bool = False,
    head: str = RECAP_HEAD,
) -> tuple[int, str] | None:
    """How a turn opens after `events` (the log lines since the last one, oldest first): the
    number of older events summed up, and the summary, which goes before the rest (shown in
    full); None when all of them fit in the log's `height` rows. `line` words an event as the
    log does, `rows` says how many rows a line takes in the log; `head` opens the summary
    (`FIRST_HEAD` before a player's first turn)."""
    worded = [line(event) for event in events]
    full = [rows(text) for text in worded]
    if sum(full) <= height:
        return None
    budget = recap_rows(height)
    shown = list(accumulate(reversed(full), initial=0))[::-1]  # rows of the events from each on
    # (the summary takes a row at least: fewer events summed would not leave it room)
    fewest = next(n for n in range(1, len(events) + 1) if shown[n] < height)
    for summed in range(fewest, len(events) + 1):
        text = summary(events[:summed], worded[:summed], names, ascii, rows, budget, head)
        if rows(text) + shown[summed] <= height:
            return summed, text
    return len(events), summary(events, worded, names, ascii, rows, budget, head)


def summary(
    events: Sequence[dict[str, object]],
    worded: Sequence[str],
    names: Sequence[str],
    ascii: bool,
    rows: Callable[[str], int],
    budget: int,
    head: str = RECAP_HEAD,
) -> str:
    """One line of `events` in order, within `budget` rows: the oldest left out first, with a
    word on how many and where they are."""
    parts = clauses(events, worded, names)
    mark = "> " if ascii else RECAP_MARK
    back = "a swipe down the log" if on_the_page() else "PgUp"  # (a phone has no PgUp)
    left_out = list(accumulate((count for _, count in parts), initial=0))  # before each part

    def said_from(first: int) -> str:
        """The summary of the parts from `first` on, with how many log lines it leaves out."""
        said = head[:-1] + (f" ({left_out[first]} earlier lines: {back}):" if first else ":")
        return f"{mark}{said} {'; '.join(words for words, _ in parts[first:])}."

    # The oldest parts are left out until it fits: the fewest, found by halving (a summary
    # with a part less never takes more rows; a whole game's since a reconnect is thousands).
    low, high = 0, len(parts)
    while low < high:
        middle = (low + high) // 2
        if rows(said_from(middle)) <= budget:
            high = middle
        else:
            low = middle + 1
    if low < len(parts):
        return said_from(low)
    return f"{mark}{head[:-1]}: {len(events)} lines, {back} shows them."


def clauses(
    events: Sequence[dict[str, object]], worded: Sequence[str], names: Sequence[str]
) -> list[tuple[str, int]]:
    """`events` as short clauses in order, each with the number of events it says: one
    player's moves in a row share their name (`Bruno draws 1 card, plays 4♠`), and the same
    move twice in a row is said once (`(x2)`)."""
    said: list[tuple[int | None, list[list[Any]]]] = []  # (actor, [[deed, times], ...])
    for event, text in zip(events, worded, strict=True):
        text = text.rstrip(".!").rstrip() + ("!" if text.endswith("!") else "")
        seat = event.get("seat")
        actor = seat if type(seat) is int and 0 <= seat < len(names) else None
        if actor is not None and text.startswith(f"{names[actor]} "):
            deed = text.removeprefix(f"{names[actor]} ")
        else:  # a sentence of its own, lower case after a semicolon unless it opens with a name
            actor, deed = None, text
            if not any(text.startswith(name) for name in names):
                deed = text[:1].lower() + text[1:]
        if said and actor is not None and said[-1][0] == actor:
            deeds = said[-1][1]
            if deeds[-1][0] == deed:
                deeds[-1][1] += 1
            else:
                deeds.append([deed, 1])
        elif said and actor is None and said[-1][0] is None and said[-1][1][-1][0] == deed:
            said[-1][1][-1][1] += 1
        else:
            said.append((actor, [[deed, 1]]))
    parts = []
    for actor, deeds in said:
        words = ", ".join(deed if times == 1 else f"{deed} (x{times})" for deed, times in deeds)
        count = sum(times for _, times in deeds)
        parts.append((words if actor is None else f"{names[actor]} {words}", count))
    return parts
