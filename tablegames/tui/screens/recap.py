"""'Since your last turn': what happened between two of a player's turns, in a few lines.

At 80x24 a log shows 5-8 lines, and bots make 6-10 moves between two turns: a player's turn
opens with one line per player who acted (all they did and what it led to, the latest few),
and one for each new round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..widgets.log import RECAP_HEAD, RECAP_MARK

RECAP_FROM = 4  # events since a player's last turn from which their turn opens with a summary
RECAP_DEEDS = 3  # the latest deeds of each player a summary keeps


def recap(
    events: Sequence[dict[str, Any]],
    names: Sequence[str],
    you: int,
    line: Callable[[dict[str, Any]], str],
    ascii: bool = False,
) -> list[str]:
    """The summary of `events` for `you`, each event worded by `line` (the game's words)."""
    said: dict[int | str, list[str]] = {}  # a seat's deeds, or a line of its own
    actor: int | str = ""
    for event in events:
        seat, worded = event.get("seat"), line(event)
        if seat == you:  # said whole: "you draw 4♠"
            actor = "you"
            said.setdefault(actor, []).append(worded)
        elif type(seat) is int and 0 <= seat < len(names):  # "Sara draws 1 card": "draws 1 card"
            actor = seat
            said.setdefault(actor, []).append(worded.removeprefix(f"{names[seat]} "))
        elif actor != "" and "round" not in event:  # what the last move led to
            said[actor].append(worded[:1].lower() + worded[1:])
        else:  # a new round, or what happened before anyone in `events` moved
            actor = worded
            said[actor] = []
    mark = "> " if ascii else RECAP_MARK
    lines = [RECAP_HEAD]
    for who, deeds in said.items():
        parts = latest(deeds, "..." if ascii else "…")
        if isinstance(who, int):
            lines.append(f"{mark}{names[who]}: {'; '.join(parts)}.")
        elif who == "you":
            lines.append(mark + "; ".join(parts) + ".")
        else:
            lines.append(mark + "; ".join([who.rstrip("."), *parts]) + ".")
    return lines


def latest(deeds: Sequence[str], more: str, keep: int = RECAP_DEEDS) -> list[str]:
    """A player's deeds for a summary: the same one twice in a row said once (`draws 1 card
    (x2)`), and only the latest `keep`, after `more` when some are left out."""
    said: list[tuple[str, int]] = []
    for deed in deeds:
        deed = deed.rstrip(".")
        if said and said[-1][0] == deed:
            said[-1] = (deed, said[-1][1] + 1)
        else:
            said.append((deed, 1))
    parts = [deed if times == 1 else f"{deed} (x{times})" for deed, times in said]
    return [more, *parts[-keep:]] if len(parts) > keep else parts
