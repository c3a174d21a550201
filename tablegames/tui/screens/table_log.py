"""The log panel's keeping: each local seat's log lines, in the game's words, with the summaries
that open its turns (`recap.py`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from ...rules import Event, View, event_base, shared
from ..widgets.log import RECAP_HEAD, GameLog, event_line
from .recap import FIRST_HEAD, digest

if TYPE_CHECKING:
    from ...table import Update


class Wording:
    """How a game puts its table in words: the log's sentences (seats named), what the log
    leaves out, news that comes again and again (one line for a run of it), and what a seat
    knows that others do not. The log, the refusals and a replay's bar all say things in these
    words. Games with words of their own subclass it (`GameScreen.WORDING`)."""

    def __init__(self, names: Callable[[], Sequence[str]], ascii: bool = False) -> None:
        self._names = names
        self.ascii = ascii

    @property
    def names(self) -> list[str]:
        """The players' names, as the table says them now."""
        return list(self._names())

    def line(self, event: Event) -> str:
        """An engine's sentence as this game writes it: names for seats, codes in words."""
        return event_line(event, self.names, self.ascii)

    def loggable(self, event: Event) -> bool:
        """True if `event` goes in the log. Games leave out what their panels already show."""
        return True

    def in_runs(self, event: Event) -> bool:
        """True if `event` is news that may come again and again (crabs: nobody swaps, the
        ocean is refilled): a run of it is one line with a count (`run_line`), the lines
        between two of them that `within_runs` allows going into it. None by default."""
        return False

    def within_runs(self, event: Event) -> bool:
        """True if `event`, between two of a run, goes into the run's line (the moves that
        led to it again); anything else ends the run, so nothing that matters is hidden."""
        return False

    def run_line(self, event: Event, times: int) -> str:
        """The one line for a run of `times` (the latest `event`). Games with runs say it."""
        return self.line(event)

    def secret(self, view: View) -> str:
        """What the seat whose `view` it is knows and others do not, in a line of words (a
        replay of every hand lists each seat's). Games say it; "" leaves it to the replay."""
        return ""


class SeatLogs:
    """Each local seat's log (`events`), where its last turn ended, and the summaries that
    opened its turns (`recaps`: where in its log, and the words), shown in a `GameLog`."""

    def __init__(self, wording: Wording) -> None:
        self.wording = wording
        self.events: dict[int, list[Event]] = {}
        self.recaps: dict[int, list[tuple[int, str]]] = {}  # (where, summary) in its log
        self._turn_ended: dict[int, int] = {}  # each seat's log length when its turn ended
        self._waited: dict[int, bool] = {}  # whether the table waited for each seat
        self._had_turn: set[int] = set()  # seats whose turn has come and gone

    def start(self, seat: int, update: Update) -> None:
        """Begin `seat`'s log with everything `update` shows of the game so far."""
        self.events[seat] = list(shared(update.view)["log"])
        self._turn_ended[seat] = len(self.events[seat])
        self._waited[seat] = _waits_for(seat, update)

    def take(self, seat: int, update: Update) -> None:
        """Keep the new lines `update` tells `seat`."""
        self.events.setdefault(seat, []).extend(update.events)

    def shown(self, event: Event, seat: int, private: bool) -> bool:
        """True if `event` is a line of `seat`'s log as its player reads it (`private`: with
        their own lines). A public line that the seat was also told in words of its own
        (`told`: "Sara draws 4♣" for "Sara draws 1 card") shows only in those words."""
        if not private and event.get("to") is not None:
            return False  # another player's private lines must not show before the hand-off
        told = event_base(event).get("told", ())
        return self.wording.loggable(event) and not (private and seat in told)

    def show(self, log: GameLog, seat: int, private: bool) -> None:
        """Put `seat`'s lines in `log` as the keyboard's player may read them (`private`: with
        the seat's own, and the summaries that opened its turns)."""
        words = self.wording
        recaps = dict(self.recaps.get(seat, [])) if private else {}
        events = self.events.get(seat, [])
        lines: list[str] = []
        run_at, times = None, 0  # the line saying a run of the same news, and its length
        for number, event in enumerate(events):
            if number in recaps:
                lines.append(recaps[number])
                run_at = None
            if not self.shown(event, seat, private):
                continue
            if words.in_runs(event) and run_at is not None:  # the same again: one line says all
                times += 1
                del lines[run_at + 1 :]
                lines[run_at] = words.run_line(event, times)
                continue
            if words.in_runs(event):
                run_at, times = len(lines), 1
            elif run_at is not None and not words.within_runs(event):
                run_at = None
            lines.append(words.line(event))
        if len(events) in recaps:
            lines.append(recaps[len(events)])
        log.show(lines, source=(seat, private))

    def note_turns(self, updates: dict[int, Update], log: GameLog) -> None:
        """Open the turn of each of these seats (their latest `updates`) that the table now
        waits for with what happened since its last one that `log` cannot show."""
        for seat, update in updates.items():
            waited, was = _waits_for(seat, update), self._waited.get(seat, False)
            events = self.events.get(seat, [])
            if waited and not was:
                start = self._turn_ended.get(seat, 0)
                since = [n for n in range(start, len(events)) if self.shown(events[n], seat, True)]
                opened = self._recap([events[n] for n in since], log, seat in self._had_turn)
                if opened is not None:
                    summed, text = opened
                    where = since[summed] if summed < len(since) else len(events)
                    self.recaps.setdefault(seat, []).append((where, text))
            elif was and not waited:
                self._turn_ended[seat] = len(events)
                self._had_turn.add(seat)
            self._waited[seat] = waited

    def _recap(self, events: list[Event], log: GameLog, again: bool) -> tuple[int, str] | None:
        """How a turn opens after `events`: how many of the oldest are summed up, and the
        summary ("since your last turn" when `again`, else before the first); None when `log`
        shows them all."""
        region = log.scrollable_content_region
        height = region.height or 5  # (not laid out yet: the log's height at 80x24)
        width = max(10, (region.width or log.app.size.width - 4) - 1)  # (a scrollbar may come)
        console = log.app.console

        def rows(line: str) -> int:
            return len(Text(line).wrap(console, width))

        words = self.wording
        head = RECAP_HEAD if again else FIRST_HEAD
        return digest(events, words.names, words.line, rows, height, words.ascii, head)


def _waits_for(seat: int, update: Update) -> bool:
    return seat in update.waiting and not update.over
