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
from textual.widgets import Button, Static

from ...rules.kraken.types import TYPES, KrakenAction, KrakenEvent, KrakenView
from ..widgets.card import in_ascii
from ..widgets.footer import Footer
from ..widgets.log import GameLog
from ..widgets.notices import NoticeLine
from . import kraken_view as show
from .dialogs import Option, PickDialog, table_under
from .game import DIALOG_WAITS, ActionButton, GameScreen, Overlay
from .handoff import HandoffScreen
from .kraken_choices import Chooser, Pending, Question, start
from .kraken_dialogs import PassOnNotice, VoyageOver
from .kraken_presenter import CHANGED, KEEP, NOT_AGAIN, KrakenPresenter, character_used
from .kraken_strip import Room, chart_rows, chart_side, crew_strip, crew_title, strip_rows
from .kraken_talk import (
    INVITED,
    TALK_KEY,
    claim_options,
    invitation,
    kind_options,
    role_options,
    target_options,
    why_silent,
)
from .size import BUTTONS_FROM
from .table_log import Wording

if TYPE_CHECKING:
    from textual.screen import Screen

    from ...rules import Action
    from ...table import Update
    from ..client import TableClient

WIDE = 110  # terminal columns from which the chart and crew are drawn roomier
VIEW_KEY = "v"  # in one column: the chart, or your secrets and the log, in turn


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


class KrakenScreen(GameScreen[KrakenView, KrakenAction, KrakenEvent]):
    """One Feed the Kraken table seen from this terminal: hot-seat for several seats. It draws
    and wires; whom it acts for, what opens and what the status says: `KrakenPresenter`."""

    GAME = "kraken"
    TYPES = TYPES
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
        self.flow = KrakenPresenter(
            self.humans, lambda: self.names, self._update, self.logs.events, self.wording.line
        )
        self.asking: tuple[DecisionDialog, tuple[object, ...]] | None = None  # open, and its facts
        self.showing_chart = False  # in one column: the chart (else your secrets and the log)

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

    @property
    def room(self) -> Room:
        """How the table stands in the terminal now (side by side, or in one column)."""
        size = self.app.size
        return Room(size.width, size.height, len(self.names), chart_rows(self._seen()))

    def min_size(self) -> tuple[int, int]:
        # In one column: the crew two players a row above the chart, the status and the
        # footer (8 players fit 60x20 on either board; a row more for every two past eight).
        return (super().min_size()[0], max(super().min_size()[1], self.room.one_column_rows()))

    def question_room(self) -> tuple[int, int] | None:
        """Where a decision stands over a table in one column: (its top row, its most rows),
        under the crew strip and above the footer, so the crew stays in sight; None side by
        side (it stands low, below the crew)."""
        room = self.room
        if not self.is_mounted or room.side_by_side():
            return None
        # (the notices above the table move the strip down while they show)
        least = strip_rows(len(self.names), room.strip_columns())
        top = max(self.query_one("#strip").region.bottom, least)
        return top, self.app.size.height - top - 1

    def on_notice_line_moved(self, _: NoticeLine.Moved) -> None:
        """The notices came or went: the decision stands under the strip where it is now."""
        if self.asking and self.asking[0].is_attached:
            self.call_after_refresh(self.asking[0].stand_clear)

    # -- following the table (the flow is the presenter's) --------------------------------------
    def _taken(self, seat: int, update: Update) -> None:
        self.flow.taken(seat, update)

    def _choose_seat(self) -> None:
        if not self.watching:
            waits = self.client.waiting_for()
            self.active_seat = self.flow.choose_seat(self.active_seat, self.keyboard.shown, waits)

    def _screen_due(self) -> Overlay | None:
        """An eyes-closed round goes on round the humans, even when the game has ended in it;
        a hand-off leaves the news the player leaving saw with them."""
        if self.flow.round_queue:
            due = self.keyboard.hand_off(self.active_seat)
        else:
            due = super()._screen_due()
        if due is not None and isinstance(due[0], HandoffScreen):
            self.flow.handed_off(self.keyboard.shown)
        return due

    def _results(self) -> Screen[str]:
        view = self._seen()
        headline, rows = show.results_lines(view, self.names)
        yours = [] if self.watching else self.flow.yours(view)
        return VoyageOver(headline, rows, yours, self.ascii)

    def _prompt(self) -> None:
        prompt = self.flow.prompt(self.active_seat, self._my_move())
        if prompt is None:
            return
        if prompt.kind == "keep":
            self._keep(unasked=True)
        elif prompt.kind == "decide":
            self.action_decide()
        else:
            seat = self.active_seat
            self._open(PassOnNotice(prompt.text, self.ascii), lambda _: self.flow.noticed(seat))

    def _offers(self, action: str) -> bool:
        """No Decide, Character or Talk for a player whose voyage is over: the game's end, or
        their own (fed to the Kraken, overboard)."""
        if not self.is_mounted:
            return True
        update = self._update(self.active_seat)
        return not update.over and self.active_seat not in TYPES.view(update.view)["eliminated"]

    def _my_move(self) -> bool:
        """True if the table waits for the active seat and its player may decide here now."""
        if not self.may_act:
            return False
        update = self._update(self.active_seat)
        return self.active_seat in update.waiting and bool(update.legal) and not update.over

    # -- drawing --------------------------------------------------------------------------------
    def _draw(self) -> None:
        update = self._update(self.active_seat)
        view = TYPES.view(update.view)
        colour = not self.app.no_color
        waiting = show.public_waiting(view, update.waiting)
        room = self.room
        one_column = not room.side_by_side()
        wide = not one_column and self.app.size.width >= WIDE
        if self.has_class("-one-column") != one_column:
            self.refresh_bindings()  # (the footer offers the chart or the log in one column)
        self.set_class(one_column, "-one-column")
        self.set_class(wide, "-wide")
        self.set_class(one_column and self.showing_chart, "-chart")
        self.query_one("#buttons").display = self.app.size.width >= BUTTONS_FROM
        self._draw_crew(view, waiting, colour, wide, room)
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
        self.status_line.line = self.flow.status(
            view,
            waiting,
            self.message,
            behind=self.message == DIALOG_WAITS,
            room=room.status(),
            private=self.private,
            may_act=self.may_act,
            my_move=self._my_move(),
        )
        if self.asking and self.asking[0].is_current and self.asking[1] != self.flow.facts(update):
            # The question's options no longer say what is true (guns stolen meanwhile): it
            # opens again, worded afresh.
            dialog, self.asking, self.flow.asked = self.asking[0], None, None
            dialog.dismiss(CHANGED)
        self.query_one("#decide", ActionButton).offer(self._my_move())
        character = view["private"].get("character") if self.private else None
        used = character_used(view, self.active_seat)
        self.query_one("#character", ActionButton).offer(bool(character) and not used)

    def _draw_crew(
        self, view: KrakenView, waiting: list[int], colour: bool, wide: bool, room: Room
    ) -> None:
        """The crew beside the chart, a line per player; or across the top of a table in one
        column, in a strip."""
        you = self.active_seat if self.private else None
        names = self.names
        if room.side_by_side():
            columns = self.app.size.width - (58 if wide else 40) - 4  # its border and padding
            crew = self.query_one("#crew", Static)
            text = show.crew_text(view, names, you, waiting, self.ascii, colour, wide, columns)
            crew.update(text)
            starred = show.starred(names, you, wide, columns)
            crew.border_title = "Crew (* is you)" if starred else "Crew"
            deck = show.deck_line(view) if wide else f"deck {view['deck_size']}"
            crew.border_subtitle = escape(deck)
            return
        strip = self.query_one("#strip", Static)
        columns = self.app.size.width - 2  # its padding
        if room.strip_columns() == 1:
            text = show.crew_text(view, names, you, waiting, self.ascii, colour, False, columns)
            starred = show.starred(names, you, False, columns)
        else:
            text = crew_strip(view, names, you, waiting, columns, self.ascii)
            starred = True
        strip.update(text)
        strip.border_title = escape(crew_title(view, you, room.strip_columns(), starred))

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

    def _say(self, message: str) -> None:
        self.message = message
        if self.is_mounted:
            self._draw()

    # -- decisions ------------------------------------------------------------------------------
    def _decide(self, update: Update, moves: list[Action], asked: bool = False) -> None:
        """Ask about `moves`, worded from `update` (the question closes if it goes stale), one
        question after another until one action is left, and send it; a decision the table
        `asked` is shown even when it leaves no choice."""
        chooser = Chooser(TYPES.view(update.view), self.names, self.ascii)
        chooser.shows_no_choice = asked
        facts, seat = self.flow.facts(update), self.active_seat

        def ask(pending: list[Pending]) -> None:
            asked = chooser.ask(pending)
            if not isinstance(asked, Question):
                self._submit(asked)
                return
            dialog = DecisionDialog(asked.title, self.flow.options(asked, seat), ascii=self.ascii)
            self.asking = (dialog, facts)
            self._open(dialog, answered)

        def answered(value: list[Pending] | None) -> None:
            self.asking = None
            if value is NOT_AGAIN:
                self.flow.not_asked.add(seat)
                if self.flow.keeps_unasked(seat):
                    self._keep(unasked=True)
            elif value is CHANGED:
                self._say("The table changed: the question is asked again as things are now.")
            elif value is None:
                self._say("Decision put aside: press Enter to make it.")
            else:
                ask(value)

        ask(start(moves))

    def _keep(self, unasked: bool) -> None:
        """Keep the character at its moment (`unasked`: as its player asked, without asking)."""
        said = self.flow.kept(self.active_seat, unasked)
        if self._send({"type": "decline"}):
            self._say(said)

    def action_decide(self) -> None:
        update = self._update(self.active_seat)
        if self.covered or not self.private or update.over:
            return
        moves = self.flow.decision(self.active_seat)
        if moves is KEEP:
            self._keep(unasked=False)  # (as the status line says: c uses, Enter keeps)
        elif isinstance(moves, str):
            self._say(moves)
        elif isinstance(moves, list):
            self._decide(update, moves, asked=True)

    def action_character(self) -> None:
        if self.covered or not self.private:
            return
        uses = self.flow.character(self.active_seat)
        if isinstance(uses, str):
            self._say(uses)
        else:
            self._decide(self._update(self.active_seat), uses)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "character":
            self.action_character()
        else:
            self.action_decide()

    # -- the view in one column, the log --------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "view":  # in one column, to anyone: the other of the chart and the log
            one_column = self.is_mounted and not self.room.side_by_side()
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

    # -- talk -----------------------------------------------------------------------------------
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
        self.flow.talking_seat = self.active_seat  # whose words, whatever happens meanwhile
        dialog: PickDialog[str] = PickDialog(
            "Say to the table (everyone hears it)", options, ascii=self.ascii
        )
        self._open(dialog, self._talk_kind)

    def _talk_kind(self, kind: str | None) -> None:
        view = self._seen()
        if kind == INVITED:
            claim = invitation(view)
            if claim is not None:
                self._claim(claim)
        elif kind == "role":  # whom first, then what they are: a short list each time
            whom: PickDialog[int] = PickDialog(
                "Say who is what: about whom?", target_options(view, self.names), ascii=self.ascii
            )
            self._open(whom, self._say_who_is_what)
        elif kind is not None:
            self._say_one_of(claim_options(view, kind, self.names))

    def _say_who_is_what(self, target: int | None) -> None:
        if target is not None:
            self._say_one_of(role_options(self._seen(), target, self.names))

    def _say_one_of(self, options: list[Option[dict[str, object]]]) -> None:
        dialog: PickDialog[dict[str, object]] = PickDialog(
            "Say to the table", options, ascii=self.ascii
        )
        self._open(dialog, lambda claim: self._claim(claim) if claim else None)

    def _claim(self, claim: dict[str, object]) -> None:
        """Make `claim`, if the player who opened the menu still has the keyboard."""
        if not self.flow.claims(self.active_seat, self.may_act):
            self._say("The keyboard has passed on: nothing was said.")
            return
        self.client.claim(self.active_seat, claim)  # (a refusal comes up as a `Said`)
        self._say("")


SCREEN = KrakenScreen
