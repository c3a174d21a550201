"""Notices in a place of their own: news beside the game, never over its table or standings."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.message import Message
from textual.widgets import Static

if TYPE_CHECKING:
    from ..client import SeatPresence

#: The kinds of notice, in the order their lines are shown: the screen's own news (why a move
#: was refused over a dialog, a call settled), this terminal's connection (lost, back), the
#: table's news (who came back, the game begins, rematch wishes), and the last line said in
#: the chat.
KINDS = ("game", "connection", "news", "chat")
SHOWN_FOR = 8.0  # seconds a notice stays


def banner(app: object, text: str, seconds: float = SHOWN_FOR) -> None:
    """Put `text` in the notice line above the table for a few seconds: a screen's own news
    that must not go by as one more line of the log (in an app that shows notices)."""
    tell = getattr(app, "tell", None)  # (the app's notices: `TableGamesApp.tell`)
    if tell is not None:
        tell(text, "game", seconds)


@dataclass
class Notice:
    text: str
    told: float  # when it came, by the notices' clock
    until: float  # ...and when it goes
    more: int = 0  # chat lines said before it while it was shown (read with `/`)


class Notices:
    """The notices showing now, one of each kind: a notice replaces the last of its kind (four
    rematch wishes in a row are one line, the latest, which names whom the rematch still waits
    for; a burst of chat is its last line and how many more the chat holds)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.showing: dict[str, Notice] = {}
        self.clock = clock  # (a test's own clock: its notices last as long as it says)

    def tell(self, kind: str, text: str, seconds: float = SHOWN_FOR) -> None:
        now = self.clock()
        last = self.showing.get(kind)
        more = last.more + 1 if kind == "chat" and last is not None and last.until > now else 0
        self.showing[kind] = Notice(text, now, now + seconds, more)

    def lines(self, most: int, room: int) -> list[str]:
        """The newest `most` notices showing now, a line each in their kinds' order (chat cut
        to `room` cells: the chat, `/`, has it whole)."""
        now = self.clock()
        self.showing = {kind: n for kind, n in self.showing.items() if n.until > now}
        newest = sorted(self.showing, key=lambda kind: self.showing[kind].told)[-max(1, most) :]
        return [
            _chat_line(self.showing[kind], room) if kind == "chat" else self.showing[kind].text
            for kind in KINDS
            if kind in newest
        ]


class NoticeLine(Static):
    """Where the app's notices show on a screen that has room of its own for them (a game docks
    it above the table, which moves down while it shows; the end of a game has it under the
    standings), so a notice never covers the game. Hidden while there is none, and on every
    screen but the one in front (`app.notice_screen()`)."""

    def __init__(self, id: str | None = "notices") -> None:
        super().__init__(id=id)
        self.most = len(KINDS)  # lines it may take (a table at its smallest has room for one)
        self.shown = ""  # the notices it shows now

    def on_mount(self) -> None:
        self.show_notices()

    def fit(self, most: int) -> None:
        """Take at most `most` lines (at least one): the newest notices show."""
        if max(1, most) != self.most:
            self.most = max(1, most)
            self.show_notices()

    def show_notices(self) -> None:
        """Show the app's notices, if this line's screen is the one they show on."""
        notices: Notices | None = getattr(self.app, "notices", None)
        front = getattr(self.app, "notice_screen", lambda: None)()
        room = self.content_size.width or self.app.size.width - 2
        lines = notices.lines(self.most, room) if notices and front is self.screen else []
        shown = "\n".join(lines)
        if shown == self.shown:
            return
        self.shown = shown
        self.update(Text(shown))
        self.display = bool(lines)
        self.post_message(self.Moved())

    class Moved(Message):
        """The notices changed: the table under them moved (a screen that places something
        under its top rows places it again)."""


def _chat_line(notice: Notice, room: int) -> str:
    """The last line said, in one line of `room` cells at most."""
    more = f" (and {notice.more} more: / shows the chat)" if notice.more else ""
    return _cut(notice.text, room - cell_len(more)) + more


def _cut(line: str, room: int) -> str:
    """`line` in at most `room` cells, cut with "..." (plain ASCII) if it is longer."""
    if cell_len(line) <= room:
        return line
    return set_cell_size(line, max(room - 3, 0)).rstrip() + "..."


class AwayLine(Static):
    """Over a network table, one line naming who is away, for how long, and who plays for them
    (`presence`, the seat's news of the table), as soon as the news comes (`seats_news`);
    hidden while nobody is. It counts the seconds itself: an away time said in seconds must
    count (it once sat at "0 s")."""

    def __init__(self, presence: SeatPresence) -> None:
        super().__init__(id="away")
        self.presence = presence

    def on_mount(self) -> None:
        self.show_away()
        self.set_interval(1, self.show_away)

    def seats_news(self, kind: str, _: str) -> None:
        """A client's news (`TableClient.listen_notices`): who sits where changed."""
        if kind == "seats":
            self.show_away()

    def show_away(self) -> None:
        """Say who is away now (the server's news of the seats, counted on to now)."""
        presence = self.presence.presence
        if not presence or not self.is_attached:  # (gone with its table: nothing to say)
            return
        from ...net.words import seat_words, seats_since  # (network words: a network table's)

        since = time.monotonic() - self.presence.presence_at
        away = [
            seat_words(seat) for seat in seats_since(presence.seats, since) if seat.away is not None
        ]
        self.update(Text("Away: " + "; ".join(away)) if away else "")
        self.display = bool(away)
