"""The Feed the Kraken table: the sea chart, the crew, your secrets, the log, and every decision.

Decisions are asked from the seat's legal actions (`kraken_choices.py`): when the game waits for
you a dialog opens by itself; Escape closes it to look at the table and Enter opens it again.
A character's moment (a window the engine opens for a fitting character) is asked on the status
line instead, since it comes after every appointment: `c` uses the character, Enter keeps it or
stops the asking for the rest of the game (`c` asks again). `c` plays your character whenever
the rules let you, and `t` makes a public claim (what you
drew, passed, were handed or saw, who is what, how many guns you will raise: `kraken_talk.py`);
after a navigation, a search, the mermaid or the telescope, and before a mutiny, the status line
invites the claim the moment calls for. Claims show in the log and beside each player.

Hot-seat play and secrets. The screen hands the keyboard over ("pass to Sara") before it shows
a seat's secrets, and it shows only the secrets of the seat that took the keyboard last. When
the table waits for players everyone knows of (the captain appointing, the drawers, the
navigator, the mutineers one after another, a telescope holder...), it hands over to each of
them in turn. In the moments the real table plays with eyes closed, or in which nobody may know
who holds a fitting character, the screen never hands over to just the player concerned:

- When the cult leader acts (a conversion or the gun stash), the keyboard goes round every human
  at this terminal in seat order, whether the leader is among them or a bot. Each one sees the
  same pass-on notice; the leader also gets the ritual's question on their turn.
- When a character moment opens for a human at this terminal, it goes round every human in the
  same way; each may use or keep a character, or just pass on. A moment that waits only for
  bots goes by without a round (at a real table the bots would be thinking too; what this tells
  is only that no human here holds such a character, which the log shows soon enough).
The status line never names whom an eyes-closed moment or a character moment waits for.

A human at this terminal who learns something of their own while another has the keyboard
(the mermaid, a conversion) is handed it at once and told, before play goes on; news that
came with everyone's eyes closed goes round every human instead, so that nobody learns who
had any. A decision the game leaves no choice in (two identical cards drawn, no guns to raise)
is still handed to its player and shown, with why there is no choice: they answer it, so
nothing is decided for anyone unseen and a round never passes in silence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.widgets import Button, Footer, Static

from ...rules.kraken.types import TYPES
from ...talk import merged_log
from ..widgets.card import in_ascii
from ..widgets.log import GameLog
from ..widgets.notices import NoticeLine
from . import kraken_view as show
from .dialogs import Option, PickDialog, table_under
from .game import DIALOG_WAITS, ActionButton, GameScreen, Overlay
from .handoff import HandoffScreen
from .kraken_choices import OPTION_KEYS, Chooser, Pending, Question, start
from .kraken_dialogs import PassOnNotice, VoyageOver
from .kraken_strip import STRIP_COLUMNS, chart_rows, chart_side, crew_strip, crew_title, strip_rows
from .kraken_talk import (
    INVITED,
    TALK_KEY,
    claim_options,
    invitation,
    invitation_text,
    kind_options,
    role_options,
    talk_events,
    target_options,
    why_silent,
)
from .size import BUTTONS_FROM
from .table_log import Wording

if TYPE_CHECKING:
    from textual.screen import Screen

    from ...rules.kraken.types import Interruption, KrakenAction, KrakenView, Phase
    from ...table import Update
    from ..client import TableClient

WIDE = 110  # terminal columns from which the chart and crew are drawn roomier
SIDE_BY_SIDE = 70  # terminal columns from which the chart and the crew stand side by side
BAR_ROWS = 2  # the status lines under the table
BUTTON_COLUMNS = 17  # the Decide and Character buttons, one above the other, beside the status
VIEW_KEY = "v"  # in one column: the chart, or your secrets and the log, in turn
CHANGED: list[Pending] = []  # a question closed because the table changed under it
NOT_AGAIN: list[Pending] = []  # "keep it, and do not ask at these moments again this game"


def _rows(lines: list[Text], room: int) -> int:
    """The rows `lines` take wrapped in `room` columns."""
    return sum(max(1, -(-line.cell_len // max(1, room))) for line in lines)


class DecisionDialog(PickDialog[list[Pending]]):
    """A decision, low on the screen so the chart and crew stay in sight above it; over a
    table in one column, just under its crew strip (`KrakenScreen.question_room`)."""

    CSS_PATH = "kraken.tcss"

    def on_mount(self) -> None:  # (after PickDialog's: Textual calls each class's handler)
        self.stand_clear()

    def on_resize(self) -> None:
        self.stand_clear()

    def stand_clear(self) -> None:
        """Stand under the crew strip of a table in one column, as tall as the room below it
        (the footer stays in sight: its keys are the phone's)."""
        table = table_under(self)
        room = table.question_room() if isinstance(table, KrakenScreen) else None
        self.set_class(room is not None, "-under-crew")
        box = self.query_one(Vertical).styles
        top, most = room or (0, None)
        box.margin = (top, 0, 0 if room else 3, 0)
        box.max_height = most


class KrakenWording(Wording):
    """Feed the Kraken in words (in ASCII where asked), its log without what the panels show;
    a seat's secret line is its role, character and what it has seen."""

    def line(self, event: dict[str, object]) -> str:
        line = show.line(event, self.names)
        return in_ascii(line) if self.ascii else line

    def loggable(self, event: dict[str, object]) -> bool:
        return show.worth_logging(event)

    def secret(self, view: dict[str, object]) -> str:
        return show.secret_line(TYPES.view(view), self.names)


class KrakenScreen(GameScreen):
    """One Feed the Kraken table seen from this terminal: hot-seat for several seats."""

    GAME = "kraken"
    MORE_HELP = (  # (a decision's own keys, and the mouse)
        ("Esc", "close a decision to look at the table; Enter opens it again"),
        ("1-9, 0, a-z", "choose an option in a decision; arrows and Enter work too"),
        ("click", "click an option, or the Decide and Character buttons"),
    )
    CSS_PATH = "kraken.tcss"
    WORDING = KrakenWording
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "decide",
            "Decide",
            tooltip="make your decision now (it opens by itself when the table waits for you)",
        ),
        Binding(
            "c",
            "character",
            "Character",
            tooltip="use your character card, when the rules allow it",
        ),
        Binding(
            TALK_KEY,
            "talk",
            "Talk",
            tooltip="make a public claim: what you drew, passed or saw, who is what, your guns",
        ),
        Binding(
            VIEW_KEY,
            "view('chart')",
            "Chart",
            tooltip="under 70 columns: the sea chart, or your secrets and the log, in turn "
            "(the crew stays at the top)",
        ),
        Binding(VIEW_KEY, "view('log')", "Log"),
    ]
    OVER_QUESTIONS = GameScreen.OVER_QUESTIONS | {"talk"}  # how many guns, while asked

    def __init__(self, client: TableClient, ascii: bool = False) -> None:
        super().__init__(client, ascii)
        self.asked: tuple[object, ...] | None = None  # the decision last opened by itself
        self.round_queue: list[int] = []  # humans still to take an eyes-closed turn
        self.round_done: set[tuple[object, ...]] = set()  # eyes-closed moments already gone round
        self.round_text = ""
        self.asking: tuple[DecisionDialog, tuple[object, ...]] | None = None  # open, and its facts
        self.told: dict[int, int] = {}  # each human's log length when they last had the keyboard
        self.telling: int | None = None  # a human handed the keyboard to learn their news
        self.secret_news: set[int] = set()  # humans whose news came with everyone's eyes closed
        self._phase_seen: dict[int, Phase | Interruption] = {}  # each human's last phase seen
        self.talk_seen: dict[int, int] = {}  # talk records each seat's log holds
        self.talking_seat: int | None = None  # the seat whose claim menu is open
        self.not_asked: set[int] = set()  # seats whose character moments pass without asking
        self.showing_chart = False  # in one column: the chart (else your secrets and the log)
        for seat in self.logs.events:  # what was said so far, where it was said
            talk = self._seen(seat).get("talk", [])
            self.logs.events[seat] = merged_log(self.logs.events[seat], talk)
            self.talk_seen[seat] = len(talk)
        for seat in self.humans:  # the deal's secrets show at each player's first turn
            self.told[seat] = len(self.logs.events[seat])
            self._phase_seen[seat] = self._seen(seat)["phase"]

    # -- building -------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="strip")  # the crew, over a table in one column
        with Horizontal(id="body"):
            with Vertical(id="left"):
                with Horizontal(id="sea"):
                    yield Static(id="chart")
                    yield Static(id="side")  # the chart's words, beside it in one column
                yield Static(id="secrets")
            with Vertical(id="right"):
                yield Static(id="crew")
                yield GameLog(self.ascii, id="log")
        with Horizontal(id="bar"):
            yield self.status_line
            with Vertical(id="buttons"):
                yield ActionButton("Decide (Enter)", id="decide", compact=True)
                yield ActionButton("Character (c)", id="character", compact=True)
        yield Footer()

    def min_size(self) -> tuple[int, int]:
        # In one column: the crew two players a row above the chart, the status and the
        # footer (8 players fit 60x20 on either board; a row more for every two past eight).
        return (super().min_size()[0], max(super().min_size()[1], self._one_column_rows()))

    def _one_column_rows(self, columns: int = STRIP_COLUMNS) -> int:
        """The rows a table in one column takes with `columns` players a row in its crew."""
        chart = chart_rows(self._seen())
        return strip_rows(len(self.names), columns) + chart + BAR_ROWS + 1

    def _side_by_side(self) -> bool:
        """True if the chart and the crew fit side by side: 70 columns, and a crew line per
        player above a log of three."""
        size = self.app.size
        return size.width >= SIDE_BY_SIDE and size.height >= max(20, len(self.names) + 12)

    def _strip_columns(self) -> int:
        """Players a row in the crew strip: one, with all that is known of each, where the
        rows allow; else two."""
        return 1 if self.app.size.height >= self._one_column_rows(1) else STRIP_COLUMNS

    def question_room(self) -> tuple[int, int] | None:
        """Where a decision stands over a table in one column: (its top row, its most rows),
        under the crew strip and above the footer, so the crew stays in sight; None side by
        side (it stands low, below the crew)."""
        if not self.is_mounted or self._side_by_side():
            return None
        # (the notices above the table move the strip down while they show)
        least = strip_rows(len(self.names), self._strip_columns())
        top = max(self.query_one("#strip").region.bottom, least)
        return top, self.app.size.height - top - 1

    def on_notice_line_moved(self, _: NoticeLine.Moved) -> None:
        """The notices came or went: the decision stands under the strip where it is now."""
        if self.asking and self.asking[0].is_attached:
            self.call_after_refresh(self.asking[0].stand_clear)

    # -- following the table --------------------------------------------------------------------
    def _seen(self, seat: int | None = None) -> KrakenView:
        """A seat's view (the active one's by default), as Feed the Kraken's own type."""
        return TYPES.view(self._update(self.active_seat if seat is None else seat).view)

    def _send(self, action: KrakenAction) -> bool:
        """Submit `action` for the active seat (see `_submit`), built as the game's own type."""
        return self._submit(TYPES.plain(action))

    def _taken(self, seat: int, update: Update) -> None:
        talk = TYPES.view(update.view).get("talk", [])
        seen = self.talk_seen.get(seat, 0)
        if len(talk) > seen:  # claims join the log where they were made
            log = self.logs.events.setdefault(seat, [])
            if any(said["line"] < self._public_lines(log) for said in talk[seen:]):
                # (moves and claims came together: a replay moved on several steps at once)
                moves = [event for event in log if event.get("kind") != "claim"]
                self.logs.events[seat] = merged_log(moves, talk)
            else:
                log.extend(talk_events(talk[seen:]))
            self.talk_seen[seat] = len(talk)
        # (A character's moment hides whom it asks, not what comes after it: the cards a
        # captain draws as it ends are no secret news, and go to the captain alone.)
        if self._phase_seen.get(seat) in show.EYES_CLOSED and self._news_in(update.events):
            self.secret_news.add(seat)
        self._phase_seen[seat] = TYPES.view(update.view)["phase"]

    @staticmethod
    def _public_lines(log: list[dict[str, object]]) -> int:
        """The game's public lines in `log` (claims left out): where a claim says it was made."""
        return sum(1 for event in log if event.get("to") is None and event.get("kind") != "claim")

    @staticmethod
    def _news_in(events: list[dict[str, object]]) -> list[dict[str, object]]:
        return [event for event in events if event.get("to") is not None]

    def _news(self, seat: int) -> list[dict[str, object]]:
        """`seat`'s own lines since its player last had the keyboard."""
        return self._news_in(self.logs.events.get(seat, [])[self.told.get(seat, 0) :])

    def _screen_due(self) -> Overlay | None:
        """An eyes-closed round goes on round the humans, even when the game has ended in it."""
        if self.round_queue:
            return self._handing_off(self.keyboard.hand_off(self.active_seat))
        return self._handing_off(super()._screen_due())

    def _results(self) -> Screen[str]:
        view = self._seen()
        headline, rows = show.results_lines(view, self.names)
        yours = []
        if not self.watching:
            for seat in self.humans:
                name, role, won = rows[seat]
                yours.append(f"{name}: {role}, {'won' if won else 'lost'}.")
        return VoyageOver(headline, rows, yours, self.ascii)

    def _prompt(self) -> None:
        if self.round_queue:
            self._round_turn()
            return
        if self.telling is not None:
            if not self._my_move():
                self._tell()
                return
            self._told(None)  # a decision waits: the news shows on the table beside it
        if self._my_move() and self._decision_key() != self.asked:
            self.asked = self._decision_key()
            if self._character_moment():
                # Asked on the status line, not in a dialog over the log (it came after every
                # appointment): c uses it, Enter keeps it (or stops the asking).
                self._keep_if_not_asked()
                return
            self.action_decide()

    def _offers(self, action: str) -> bool:
        """No Decide, Character or Talk for a player whose voyage is over: the game's end, or
        their own (fed to the Kraken, overboard)."""
        if not self.is_mounted:
            return True
        update = self._update(self.active_seat)
        return not update.over and self.active_seat not in TYPES.view(update.view)["eliminated"]

    def _character_moment(self) -> bool:
        """True if the active seat is asked only whether to use its character now."""
        return self._seen()["phase"] == "window"

    def _keep_if_not_asked(self) -> bool:
        """Keep the character at once if its player said not to be asked again; True if so."""
        seat = self.active_seat
        if seat not in self.not_asked or not self._character_moment():
            return False
        if self._send({"type": "decline"}):
            name = show.character_title(str(self._seen()["private"].get("character")))
            self._say(f"{name} kept for later, as you asked (c: ask me again).")
        return True

    def _choose_seat(self) -> None:
        """Which local seat the screen acts for now (see the module docstring)."""
        if self.watching:
            return
        if self.round_queue:
            self.active_seat = self.round_queue[0]
            return
        view = self._seen(self.humans[0])
        engine_waits = self.client.waiting_for()
        if len(self.humans) > 1 and view["phase"] in show.SECRET_PHASES and not view["winner"]:
            moment = self._moment(view)
            humans_wait = any(seat in engine_waits for seat in self.humans)
            if moment not in self.round_done and (view["phase"] != "window" or humans_wait):
                self.round_done.add(moment)
                self.round_queue = list(self.humans)
                self.round_text = show.phase_text(view, self.names, [])
                self.active_seat = self.round_queue[0]
                return
            if view["phase"] != "window" or humans_wait:
                return  # the round has been: nobody is handed the keyboard for this moment
        if self._news_goes_round():
            return
        if self.telling is None and len(self.humans) > 1 and not view["winner"]:
            self.telling = next(
                (seat for seat in self.humans if seat != self.keyboard.shown and self._news(seat)),
                None,
            )
        if self.telling is not None:
            self.active_seat = self.telling  # at once: before anyone's next decision
            return
        waiting = [seat for seat in self.humans if seat in engine_waits]
        if waiting:
            self.active_seat = waiting[0]

    def _news_goes_round(self) -> bool:
        """News that came with everyone's eyes closed goes round every human (True if a round
        starts): handing it to its player alone would show who had news."""
        secret = [
            seat for seat in self.secret_news if seat != self.keyboard.shown and self._news(seat)
        ]
        self.secret_news.clear()
        if not secret or len(self.humans) < 2:
            return False
        self.round_queue = list(self.humans)
        self.round_text = "Everyone's eyes were closed."
        self.active_seat = self.round_queue[0]
        return True

    def _handing_off(self, due: Overlay | None) -> Overlay | None:
        """`due`; if it is a hand-off, what the player leaving saw is theirs: no news."""
        leaving = self.keyboard.shown
        if due is not None and isinstance(due[0], HandoffScreen) and leaving is not None:
            self.told[leaving] = len(self.logs.events.get(leaving, []))
        return due

    def _tell(self) -> None:
        """The player just handed the keyboard learns their news, then passes it on."""
        lines = [self.wording.line(event) for event in self._news(self.active_seat)]
        text = "Only you see this:\n" + "\n".join(lines or ["nothing new"])
        self._open(PassOnNotice(text, self.ascii), self._told)

    def _told(self, _: None) -> None:
        self.told[self.active_seat] = len(self.logs.events.get(self.active_seat, []))
        self.telling = None

    def _moment(self, view: KrakenView) -> tuple[object, ...]:
        """Names one eyes-closed or character moment (it stays the same while it lasts)."""
        public = sum(
            1
            for event in view["log"]
            if event["to"] is None and event["kind"] in ("window", "eyes_closed")
        )
        return (view["round"], view["phase"], view["window"], public)

    def _round_turn(self) -> None:
        """This seat's turn in an eyes-closed round: decide if there is something to decide,
        then pass the keyboard on."""
        if self._my_move() and self._keep_if_not_asked():
            return
        if self._my_move():
            if self._decision_key() != self.asked:
                self.asked = self._decision_key()
                self.action_decide()
            return
        news = [self.wording.line(event) for event in self._news(self.active_seat)]
        said = ["Only you see this:", *news] if news else []
        notice = "\n".join([self.round_text, *said, "Nothing (more) for you to do in this moment."])
        self._open(PassOnNotice(notice, self.ascii), self._passed_on)

    def _passed_on(self, _: None) -> None:
        self.told[self.active_seat] = len(self.logs.events.get(self.active_seat, []))
        if self.round_queue:
            self.round_queue.pop(0)

    def _my_move(self) -> bool:
        """True if the table waits for the active seat and its player may decide here now."""
        if not self.may_act:
            return False
        update = self._update(self.active_seat)
        return self.active_seat in update.waiting and bool(update.legal) and not update.over

    def _decision_key(self) -> tuple[object, ...]:
        view = self._seen()
        private = view["private"]
        return (
            self.active_seat,
            view["round"],
            view["phase"],
            view["window"],
            view["captain"],
            view["lieutenant"],
            view["navigator"],
            view["pick"],
            tuple(private.get("drawn") or ()),
            tuple(private.get("logbook") or ()),
            private.get("peek"),
        )

    # -- drawing --------------------------------------------------------------------------------
    def _draw(self) -> None:
        update = self._update(self.active_seat)
        view = TYPES.view(update.view)
        colour = not self.app.no_color
        waiting = show.public_waiting(view, update.waiting)
        you = self.active_seat if self.private else None
        one_column = not self._side_by_side()
        wide = not one_column and self.app.size.width >= WIDE
        if self.has_class("-one-column") != one_column:
            self.refresh_bindings()  # (the footer offers the chart or the log in one column)
        self.set_class(one_column, "-one-column")
        self.set_class(wide, "-wide")
        self.set_class(one_column and self.showing_chart, "-chart")
        self.query_one("#buttons").display = self.app.size.width >= BUTTONS_FROM
        if one_column:
            self._draw_strip(view, you, waiting, colour)
        else:
            self._draw_crew(view, you, waiting, colour, wide)
        chart = self.query_one("#chart", Static)
        body = show.map_text(view, self.ascii, colour, wide)
        if wide:
            body = Text("\n").join(
                [
                    body,
                    Text(),
                    show.chart_legend(view, self.ascii, colour),
                    Text(show.chart_key(self.ascii), "dim"),
                ]
            )
        chart.update(body)
        chart.border_title = escape(show.round_title(view, self.dash))
        chart.border_subtitle = "" if wide else show.chart_legend(view, self.ascii, colour).plain
        self.query_one("#side", Static).update(chart_side(view, self.ascii, colour))
        self._draw_secrets(view, colour)
        self._draw_status(view, update, waiting)
        self._ask_again_if_changed(update)
        self.query_one("#decide", ActionButton).offer(self._my_move())
        character = view["private"].get("character") if self.private else None
        self.query_one("#character", ActionButton).offer(
            bool(character) and not self._character_used(view)
        )

    def _draw_crew(
        self, view: KrakenView, you: int | None, waiting: list[int], colour: bool, wide: bool
    ) -> None:
        """The crew beside the chart: a line per player."""
        room = self.app.size.width - (58 if wide else 40) - 4  # the crew's border and padding
        crew = self.query_one("#crew", Static)
        names = self.names
        crew.update(show.crew_text(view, names, you, waiting, self.ascii, colour, wide, room))
        starred = show.starred(names, you, wide, room)
        crew.border_title = "Crew (* is you)" if starred else "Crew"
        crew.border_subtitle = escape(show.deck_line(view) if wide else f"deck {view['deck_size']}")

    def _draw_strip(
        self, view: KrakenView, you: int | None, waiting: list[int], colour: bool
    ) -> None:
        """The crew across the top of a table in one column."""
        strip = self.query_one("#strip", Static)
        room = self.app.size.width - 2  # its padding
        columns = self._strip_columns()
        if columns == 1:
            text = show.crew_text(view, self.names, you, waiting, self.ascii, colour, False, room)
            starred = show.starred(self.names, you, False, room)
        else:
            text = crew_strip(view, self.names, you, waiting, room, self.ascii)
            starred = True
        strip.update(text)
        strip.border_title = escape(crew_title(view, you, columns, starred))

    def _character_used(self, view: KrakenView) -> bool:
        return bool(view["characters_used"][self.active_seat])

    def _draw_secrets(self, view: KrakenView, colour: bool) -> None:
        panel = self.query_one("#secrets", Static)
        name = self.names[self.active_seat]
        if self.watching:
            panel.update(Text(self.keyboard.hidden_words("every secret")))
            panel.border_title = "Secrets"
        elif not self.private:
            panel.update(Text(f"Waiting for {name} to take the keyboard."))
            panel.border_title = escape(f"{name}'s secrets (hidden)")
        else:
            panel.update(show.secret_text(view, self.names, self.ascii, colour))
            panel.border_title = escape(self.keyboard.owned(self.active_seat, "secrets"))

    def _draw_status(self, view: KrakenView, update: Update, waiting: list[int]) -> None:
        """What the table is doing, then what this player may do (or was told): wrapped in
        the room the status has, never cut. A list of players too long for its line names the
        first few and how many more; the moment's invitation to talk shows where it fits."""
        room, most = self._status_room()
        lines = [Text(show.phase_text(view, self.names, waiting, room))]
        behind = self.message == DIALOG_WAITS
        invited = invitation_text(view, behind) if self.may_act and not self.round_queue else ""
        mine = Text()
        if behind and invited:
            mine.append(invited, "bold")  # answer the question, or put it aside to talk
            invited = ""
        elif self.message:
            mine.append(self.message)
        elif self._my_move() and self._character_moment() and not self.round_queue:
            name = show.character_title(str(view["private"].get("character")))
            mine.append(f"{name}'s moment: c uses, Enter keeps", "bold reverse")
        elif self._my_move():
            mine.append("Your move: press Enter to decide.", "bold reverse")
        elif self.private and self.round_queue:
            mine.append("A secret moment: your turn, then pass the keyboard on.")
        if invited and mine.plain and mine.cell_len + 2 + len(invited) <= room:
            mine.append("  " + invited, "bold")  # (beside what it says to this player)
            invited = ""
        lines += [line for line in (mine, Text(invited, "bold")) if line.plain]
        while len(lines) > 2 and _rows(lines, room) > most:
            lines.pop()  # (the invitation first: t is in the footer all the while)
        self.status_line.line = Text("\n").join(lines)

    def _status_room(self) -> tuple[int, int]:
        """The status's columns, and the most lines it may take: three beside the chart and
        crew, two in one column unless the terminal has a row to spare."""
        size = self.app.size
        buttons = BUTTON_COLUMNS if size.width >= BUTTONS_FROM else 0
        room = size.width - 2 - buttons  # (its padding)
        if self._side_by_side():
            return room, BAR_ROWS + 1
        spare = size.height - self._one_column_rows(self._strip_columns())
        return room, BAR_ROWS + min(1, max(0, spare))

    def _say(self, message: str) -> None:
        self.message = message
        if self.is_mounted:
            self._draw()

    # -- dialogs --------------------------------------------------------------------------------
    def _facts(self, update: Update) -> tuple[object, ...]:
        """What an open question's options were worded from: the seat's moves and everyone's
        guns and duty (a steal while the question waits changes them)."""
        view = TYPES.view(update.view)
        return (repr(update.legal), tuple(view["guns"]), tuple(view["off_duty"]), view["phase"])

    def _ask_again_if_changed(self, update: Update) -> None:
        """Close a question whose options no longer say what is true (guns stolen meanwhile):
        it opens again, worded afresh."""
        if self.asking is None:
            return
        dialog, facts = self.asking
        if dialog.is_current and facts != self._facts(update):
            self.asking = None
            self.asked = None  # so that it opens again by itself
            dialog.dismiss(CHANGED)

    def _decide(self, update: Update, moves: list[dict[str, object]], asked: bool = False) -> None:
        """Ask about `moves`, worded from `update` (questions close if it goes stale); a
        decision the table `asked` is shown even when it leaves no choice."""
        chooser = Chooser(TYPES.view(update.view), self.names, self.ascii)
        chooser.shows_no_choice = asked
        self._ask(chooser, start(moves), self._facts(update))

    def _ask(self, chooser: Chooser, pending: list[Pending], facts: tuple[object, ...]) -> None:
        """Ask the next question about `pending`, or send the one action left."""
        asked = chooser.ask(pending)
        if not isinstance(asked, Question):
            self._submit(asked)
            return
        options = [Option(key, label, value) for key, label, value in asked.options]
        if len(options) > len(OPTION_KEYS):
            options = options[: len(OPTION_KEYS)]
        keeps = any(p.action["type"] == "decline" for _, _, left in asked.options for p in left)
        if self._character_moment() and keeps and len(options) < len(OPTION_KEYS):
            key = next(k for k in OPTION_KEYS if k not in {option.key for option in options})
            label = "Keep it, and do not ask again this game"
            options.append(Option(key, label, NOT_AGAIN))
        dialog = DecisionDialog(asked.title, options, ascii=self.ascii)
        self.asking = (dialog, facts)

        def answered(value: list[Pending] | None) -> None:
            self.asking = None
            if value is NOT_AGAIN:
                self.not_asked.add(self.active_seat)
                self._keep_if_not_asked()
            elif value is CHANGED:
                self._say("The table changed: the question is asked again as things are now.")
            elif value is None:
                self._say("Decision put aside: press Enter to make it.")
            else:
                self._ask(chooser, value, facts)

        self._open(dialog, answered)

    # -- player actions -------------------------------------------------------------------------
    def action_decide(self) -> None:
        if self.covered or not self.private:
            return
        update = self._update(self.active_seat)
        if update.over:
            return
        if self.active_seat not in update.waiting:
            self._say(self._not_yet(update))
            return
        if self._character_moment() and not self.round_queue:
            self._keep_now()  # (as the status line says: c uses, Enter keeps)
            return
        moves = update.legal
        if self._seen()["phase"] != "window":  # "any time" characters wait for `c`
            moves = [a for a in moves if a["type"] != "character"] or moves
        self._decide(update, moves, asked=True)

    def _keep_now(self) -> None:
        """Keep the character at its moment (Enter, as the status line says)."""
        name = show.character_title(str(self._seen()["private"].get("character")))
        if self._send({"type": "decline"}):
            self._say(f"{name} kept for later (c at its next moment uses it).")

    def _not_yet(self, update: Update) -> str:
        view = TYPES.view(update.view)
        waiting = show.public_waiting(view, update.waiting)
        if waiting:
            who = ", ".join(self.names[s] for s in waiting)
            return f"Nothing to decide now: waiting for {who}."
        return "Nothing to decide now."

    def action_character(self) -> None:
        if self.covered or not self.private:
            return
        update = self._update(self.active_seat)
        view = TYPES.view(update.view)
        uses = [a for a in update.legal if a["type"] == "character"]
        if uses and self._character_moment():  # keeping (and not being asked) is offered too
            uses += [a for a in update.legal if a["type"] == "decline"]
        character = view["private"].get("character")
        if not uses:
            if not character:
                self._say("You hold no character card.")
            elif self._character_used(view):
                self._say("You have already used your character.")
            elif self.active_seat in self.not_asked:
                self.not_asked.discard(self.active_seat)
                self._say("You will be asked at your character's moments again.")
            else:
                waits = view["private"].get("character_waits")
                self._say(waits or "Your character cannot do anything right now.")
            return
        self._decide(update, uses)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "view":  # in one column, to anyone: the other of the chart and the log
            one_column = self.is_mounted and not self._side_by_side()
            return one_column and (parameters == ("chart",)) != self.showing_chart
        return super().check_action(action, parameters)

    def action_view(self, shown: str) -> None:
        """In one column: show the sea chart (`chart`), or your secrets and the log."""
        self.showing_chart = shown == "chart"
        self._draw()
        self.refresh_bindings()

    def action_log(self, how: str, argument: int | bool) -> None:
        if self.showing_chart:  # (scrolling a log out of sight would do nothing to see)
            self.action_view("log")
        super().action_log(how, argument)

    def action_talk(self) -> None:
        """The claim menu: the moment's own claim first, then every kind of claim. It opens
        over a decision too (say how many guns while asked for them); the decision waits."""
        question_open = self.covered > 0 and isinstance(self.app.screen, PickDialog)
        if (self.covered and not question_open) or not self.may_act:
            return
        view = self._seen()
        options = kind_options(view, self.names)
        if not options:
            self._say(why_silent(view))
            return
        self.talking_seat = self.active_seat  # whose words these are, whatever happens meanwhile
        dialog: PickDialog[str] = PickDialog(
            "Say to the table (everyone hears it)", options, ascii=self.ascii
        )
        self._open(dialog, self._talk_kind)

    def _talk_kind(self, kind: str | None) -> None:
        if kind is None:
            return
        view = self._seen()
        if kind == INVITED:
            claim = invitation(view)
            if claim is not None:
                self._claim(claim)
            return
        if kind == "role":  # whom first, then what they are: a short list each time
            whom: PickDialog[int] = PickDialog(
                "Say who is what: about whom?", target_options(view, self.names), ascii=self.ascii
            )
            self._open(whom, self._talk_role)
            return
        self._say_one_of(claim_options(view, kind, self.names))

    def _talk_role(self, target: int | None) -> None:
        if target is not None:
            self._say_one_of(role_options(self._seen(), target, self.names))

    def _say_one_of(self, options: list[Option[dict[str, object]]]) -> None:
        dialog: PickDialog[dict[str, object]] = PickDialog(
            "Say to the table", options, ascii=self.ascii
        )
        self._open(dialog, lambda claim: self._claim(claim) if claim else None)

    def _claim(self, claim: dict[str, object]) -> None:
        # Hot-seat: the keyboard may have passed on while the menu was open; a claim is made
        # only by the player who opened it, still holding the keyboard.
        if self.talking_seat != self.active_seat or not self.may_act:
            self._say("The keyboard has passed on: nothing was said.")
            return
        self.client.claim(self.active_seat, claim)  # (a refusal comes up as a `Said`)
        self._say("")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "character":
            self.action_character()
        else:
            self.action_decide()


SCREEN = KrakenScreen
