"""The Crates table: your hand, the pile, every seat, the log, and keys to play, draw and call."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.markup import escape
from textual.widgets import Button, Static

from ...rules.crates_types import TYPES, CratesAction, CratesEvent, CratesView
from ...words import plural
from ..widgets.card import card_label, suit_name
from ..widgets.hand import Hand
from ..widgets.log import GameLog
from ..widgets.seats import SeatPanel
from . import crates_view as show
from .crates_presenter import CratesPresenter
from .crates_round import RoundSummary
from .dialogs import Option, PickDialog
from .game import ActionButton, Overlay
from .handoff import Aside
from .picking import PICK_BINDINGS, HandScreen
from .results import FinalStandings
from .size import BUTTONS_FROM
from .table_log import Wording

if TYPE_CHECKING:
    from textual.screen import Screen

    from ...table import Update
    from ..client import TableClient

TALL = 34  # terminal rows from which cards are drawn big
LOW = 24  # terminal rows below which cards are drawn flat, as words (the log needs the rows)
NARROW = 72  # terminal columns below which the players' title leaves out the game's name


class CratesWording(Wording):
    """Crates in words: a seat's secret is its hand."""

    def secret(self, view: dict[str, object]) -> str:
        cards = show.sorted_hand(TYPES.view(view)["hand"])
        return " ".join(card_label(card, self.ascii) for card in cards) or "(no cards)"


class CratesScreen(HandScreen[CratesView, CratesAction, CratesEvent]):
    """One Crates table seen from this terminal: hot-seat for several seats, watching for none."""

    GAME = "crates"
    TYPES = TYPES
    MORE_HELP = (("click", "pick a card; click the picked card again to play it"),)
    CSS_PATH = "crates.tcss"
    WORDING = CratesWording
    BINDINGS: ClassVar[list[BindingType]] = [
        *PICK_BINDINGS,
        Binding("enter", "play", "Play", tooltip="play the picked card"),
        Binding("d", "draw", "Draw", tooltip="draw, when nothing in your hand fits"),
        Binding(
            "c",
            "announce",
            "Crates!",
            tooltip="announce Crates!: now with one card, or with your next play when holding two",
        ),
        Binding(
            "x",
            "dope",
            "Dope!",
            tooltip="call Dope! on a player holding one card who has not announced",
        ),
    ]

    flow: CratesPresenter  # (the game's flow: `crates_presenter`)

    def __init__(self, client: TableClient, ascii: bool = False) -> None:
        super().__init__(client, ascii)
        self.flow = CratesPresenter(self._seen())
        self.keyboard.aside = self._announce_aside

    # -- building and updating ------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="upper"):
            yield SeatPanel(self.ascii, id="seats")
            yield Static(id="pile")
        yield GameLog(self.ascii, id="log")
        yield from self._hand_box(
            Hand(self.ascii, id="hand"),
            ("Draw (d)", "draw"),
            ("Crates! (c)", "announce"),
            ("Dope! (x)", "dope"),
        )

    def on_mount(self) -> None:
        self.query_one("#seats").border_title = "Players"
        self.query_one("#pile").border_title = "Table"

    def _taken(self, seat: int, update: Update) -> None:
        if self.flow.taken(TYPES.view(update.view)):
            self.bots.stop()  # the table waits while people read the scores

    def _screen_due(self) -> Overlay | None:
        """A round's scores come before anything else, even the final standings."""
        if self.flow.summaries:
            last_round, totals, rounds = self.flow.summaries.pop(0)
            summary = RoundSummary(last_round, totals, rounds, self.names, self.ascii)
            return summary, self._after_summary
        return super()._screen_due()

    def _results(self) -> Screen[str]:
        return FinalStandings(self._seen()["scores"], self.names, self.ascii)

    def _prompt(self) -> None:
        if self.flow.asks_suit(self._seen(), self.keyboard.shown):
            self._ask_upcard_suit()

    def _draw(self) -> None:
        view = self._seen()
        you = self.active_seat
        seats = self.query_one("#seats", SeatPanel)
        seats.show(show.seat_rows(view, self.names, you if self.private else None), show.NOTE_MARKS)
        tall = self.app.size.height >= TALL  # room for big cards
        self.set_class(tall, "-tall")  # (crates.tcss sizes the panels and the hand by these)
        self.set_class(self.app.size.height < LOW, "-low")
        title = (
            f"round {view['round']} of {view['rounds']}, {plural(view['hand_size'], 'card')} each"
        )
        narrow = self.app.size.width < NARROW
        seats.border_title = title.capitalize() if narrow else f"Crates {self.dash} {title}"
        self.query_one("#pile", Static).update(
            show.pile_text(view, self.names, self.ascii, not self.app.no_color, tall)
        )
        self._draw_hand(view)
        self._show_buttons(view)
        self.status_line.line = self.message if self.private else ""

    def _show_buttons(self, view: CratesView) -> None:
        """The buttons that do something now (for the mouse; narrow terminals leave them out)."""
        offers = self.flow.offers(view, self.active_seat)
        roomy = self.app.size.width >= BUTTONS_FROM and self.app.size.height >= LOW
        self.query_one("#buttons").display = roomy  # (the keys do it all)
        self.query_one("#draw", ActionButton).offer(offers.draw)  # (else refused)
        self.query_one("#announce", ActionButton).offer(offers.announce)
        self.query_one("#dope", ActionButton).offer(offers.dope)

    def _draw_hand(self, view: CratesView) -> None:
        hand = self.query_one("#hand", Hand)
        box = self.query_one("#hand-box")
        if self._hide_hand(hand, box, show.turn_phrase(view, self.names, None)):
            return
        shown = self.flow.hand(view, self.active_seat, self.read_only, self.ascii)
        if shown.status is not None:
            self.message = shown.status
        hand.show(shown.cards, shown.selected, frozenset(view["unplayable"]), "No cards in hand.")
        phrase = show.turn_phrase(view, self.names, self.keyboard.addressed(self.active_seat))
        box.border_title = escape(
            f"{self.keyboard.owned(self.active_seat, 'hand')} {self.dash} {phrase}"
        )
        box.border_subtitle = shown.subtitle
        self.status_line.line = self.message

    def _say(self, message: str) -> None:
        super()._say(message)
        self.flow.message_turn = None

    # -- dialogs --------------------------------------------------------------------------------
    def _after_summary(self, _: None) -> None:
        if not self.over and not self.flow.summaries:
            self.bots.start()

    def _announce_aside(self, leaving: int) -> Aside | None:
        """A player who has just played down to one card may still say "Crates!" before the
        keyboard goes on (at a real table they would say it as the next player reaches over)."""
        if leaving not in self._seen(leaving)["exposed"]:
            return None
        name = self.names[leaving]

        def announce() -> str:
            self.client.submit(leaving, {"type": "announce"})  # (why not comes as a `Said`)
            said = leaving in self._seen(leaving)["announced"]
            return f"{name} said Crates!" if said else f"{name} may not say Crates! now."

        return Aside("c", f"{name}: press c to say Crates! before passing on.", announce)

    def _keyboard_passed(self) -> None:
        self.flow.turn_drawn = None  # the new player is told what to do on their turn

    def _ask_upcard_suit(self) -> None:
        top = self._seen()["top"]
        if top is None:  # (asked only while a turned-up card waits for its suit)
            return
        title = f"The turned-up {card_label(top, self.ascii)} is yours to name: pick a suit"
        self._open(self._suit_dialog(top, title), self._name_suit)

    def _suit_dialog(self, card: str, title: str) -> PickDialog[str]:
        options = [
            Option(suit.lower(), suit_name(suit, self.ascii), suit)
            for suit in show.suits_to_name(card)
        ]
        return PickDialog(title, options, ascii=self.ascii)

    def _name_suit(self, suit: str | None) -> None:
        if suit is None:
            self._say("Press Enter to name a suit for the turned-up card.")
            return
        self._send({"type": "suit", "suit": suit})

    # -- player actions -------------------------------------------------------------------------
    def _hand(self) -> list[str]:
        return show.sorted_hand(self._seen()["hand"]) if self.private else []

    def _pickable(self) -> int:
        return len(self._hand())

    def _select(self, index: int) -> None:
        view = self._seen()
        hint = self.flow.pick(view, index, self.names, self.active_seat, self.ascii)
        if hint is not None:
            self.message = hint
            self._draw_hand(view)

    def on_hand_clicked(self, event: Hand.Clicked) -> None:
        if event.index == self.selected:
            self.action_play()
        else:
            self._select(event.index)

    def action_play(self) -> None:
        if not self.private or self.covered:
            return
        view = self._seen()
        play = self.flow.play(view, self.active_seat, self.names, self.ascii)
        if play.kind == "suit":
            self._ask_upcard_suit()
        elif play.kind == "say":
            self._say(play.words)
            if play.card:  # (what the card says holds until the turn ends)
                self.flow.message_turn = view["turn"]
        elif play.kind == "name":
            title = show.suit_options_title(play.card, self.ascii)
            self._open(
                self._suit_dialog(play.card, title), lambda suit: self._play(play.card, suit)
            )
        else:
            self._play(play.card, None)

    def _play(self, card: str, suit: str | None) -> None:
        if suit is None and show.names_a_suit(card):
            self._say(self.flow.suit_kept(card, self.ascii))
            return
        if self._send(self.flow.play_action(self._seen(), card, suit)):
            self.flow.armed = False

    def action_draw(self) -> None:
        if not self.private or self.covered:
            return
        view = self._seen()
        if view["turn"] != self.active_seat:
            self._say(show.whose_turn(view, self.names))
            self.flow.message_turn = view["turn"]
        elif self._send({"type": "draw"}):
            self.flow.armed = False

    def action_announce(self) -> None:
        if not self.private or self.covered:
            return
        view = self._seen()
        armed = self.flow.arm(view, self.active_seat)
        if armed is not None:
            self._say(armed)
            self._draw_hand(view)
            return
        if self._send({"type": "announce"}):
            self._say("You announced Crates!")

    def action_dope(self) -> None:
        if not self.private or self.covered:
            return
        targets = self.flow.dope_targets(self._seen(), self.active_seat)
        if not targets:
            self._say("Nobody holds one card without having said Crates!")
        elif len(targets) == 1:
            self._call_dope(targets[0])
        else:
            options = [
                Option(str(number + 1), self.names[seat], seat)
                for number, seat in enumerate(targets)
            ]
            chooser = PickDialog("Call Dope! on whom?", options, ascii=self.ascii)
            self._open(chooser, self._call_dope)

    def _call_dope(self, target: int | None) -> None:
        if target is not None and self._send({"type": "dope", "target": target}):
            self._say(f"Dope! {self.names[target]} draws two and loses a turn.")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"draw": self.action_draw, "announce": self.action_announce}
        actions.get(event.button.id or "", self.action_dope)()


SCREEN = CratesScreen
