"""The Cockroach Poker Royal table: face-up cards, the card in flight, your hand and prompts."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.markup import escape
from textual.widgets import Button, Static

from ...rules.roach import CLAIMS
from ...rules.roach_types import TYPES, RoachAction, RoachEvent, RoachView
from ...words import plural
from ..widgets.log import GameLog
from ..widgets.roach_hand import RoachHand, chip_label
from . import roach_view as show
from .dialogs import Option, PickDialog
from .game import ActionButton
from .picking import PICK_BINDINGS, HandScreen
from .roach_dialogs import PeekNotice, RoachResult
from .roach_presenter import RoachPresenter
from .size import BUTTONS_FROM
from .table_log import Wording

if TYPE_CHECKING:
    from textual.screen import Screen

    from ...rules.roach_types import Flight
    from ..client import TableClient


#: Which actions each phase offers the player whose move it is.
TARGET_LABEL = 62  # columns for a player's line in the dialog choosing who gets the card
WIDE = 110  # terminals at least this wide get a wider table panel
BUTTONS = {"offer": "offer", "true": "judge", "false": "judge", "pass": "pass_on", "lay": "lay"}


class TargetDialog(PickDialog[int]):
    """The shared pick dialog, wide enough for each player's face-up cards on one line."""

    CSS_PATH = "roach.tcss"


class RoachWording(Wording):
    """Roach in words: its own log sentences; a seat's secret is its hand, and the card in
    flight it has seen."""

    def line(self, event: dict[str, object]) -> str:
        return show.log_line(event, self.names, self.ascii)

    def secret(self, view: dict[str, object]) -> str:
        """The hand, and the card in flight when this seat has seen it (a replay of every seat
        shows it so)."""
        seen_view = TYPES.view(view)
        kinds = show.hand_kinds(seen_view["hand"])
        hand = ", ".join(chip_label(0, card, count, self.ascii) for card, count in kinds)
        seen = _seen_card(seen_view["flight"])
        flight = f"; saw the card in flight: {show.card_name(seen)}" if seen else ""
        return (hand or "(no cards)") + flight


class RoachScreen(HandScreen[RoachView, RoachAction, RoachEvent]):
    """One roach table seen from this terminal: hot-seat for several seats, watching for none."""

    GAME = "roach"
    TYPES = TYPES
    MORE_HELP = (("click", "pick a card; click the picked card again to offer it (or mark it)"),)
    CSS_PATH = "roach.tcss"
    WORDING = RoachWording
    BINDINGS: ClassVar[list[BindingType]] = [
        *PICK_BINDINGS,
        Binding(
            "enter",
            "offer",
            "Offer",
            tooltip="offer the picked card (then choose a player and a claim)",
        ),
        Binding("enter", "mark", "Mark", tooltip="when laying out: mark the picked card"),
        Binding("t", "judge(True)", "True", tooltip="the claim about the card slid to you is true"),
        Binding("f", "judge(False)", "False", tooltip="the claim is false"),
        Binding(
            "p",
            "pass_on",
            "Pass on",
            tooltip="pass the card on, looking at it first or not: to a player it has not "
            "been with",
        ),
        Binding(
            "l",
            "lay",
            "Lay out",
            tooltip="lay out the marked cards (after taking the joker or the blank)",
        ),
    ]

    flow: RoachPresenter  # (the game's flow: `roach_presenter`)

    def __init__(self, client: TableClient, ascii: bool = False) -> None:
        super().__init__(client, ascii)
        self.flow = RoachPresenter()

    def min_size(self) -> tuple[int, int]:
        return (60, len(self.names) + 16)  # a line per player, the table, the hand, the prompt

    # -- building and updating ------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="seats")
        with Horizontal(id="middle"):
            yield Static(id="flight")
            yield GameLog(self.ascii, id="log")
        yield from self._hand_box(
            RoachHand(self.ascii, id="hand"),
            ("Offer (Enter)", "offer"),
            ("True (t)", "true"),
            ("False (f)", "false"),
            ("Pass on (p)", "pass"),
            ("Lay out (l)", "lay"),
        )

    def on_mount(self) -> None:
        self.query_one("#seats").border_title = "Players"
        self.query_one("#flight").border_title = "Table"

    def _results(self) -> Screen[str]:
        return RoachResult(self._seen(), self.names, self.ascii)

    def _my_move(self, view: RoachView) -> bool:
        return self.private and not self.covered and view["turn"] == self.active_seat

    def _draw(self) -> None:
        view = self._seen()
        you = self.active_seat if self.private else None
        colour = not self.app.no_color
        seats = self.query_one("#seats", Static)
        width = max(20, (seats.size.width or self.app.size.width - 4))
        players = show.seat_table(view, self.names, you, width, colour, self.ascii)
        seats.update(players)
        # (a narrow panel writes "frog 2+R": what the mark means, under it)
        seats.border_subtitle = show.ROYAL_MARK_MEANS if "+R" in players.plain else ""
        public_view = view if self.private else _without_secrets(view)
        middle = self.query_one("#flight", Static)
        self.set_class(self.app.size.width >= WIDE, "-wide")  # (roach.tcss widens the table)
        room = middle.content_size
        middle.update(
            show.flight_lines(
                public_view, self.names, you, self.ascii, room.height or 99, room.width or 99
            )
        )
        self._draw_hand(view)
        self._draw_status(view)
        self._show_buttons(view)

    def _draw_hand(self, view: RoachView) -> None:
        hand = self.query_one("#hand", RoachHand)
        box = self.query_one("#hand-box")
        if self._hide_hand(hand, box, show.turn_phrase(view, self.names, None)):
            return
        shown = self.flow.hand(view, self.active_seat, self.read_only)
        hand.show(shown.kinds, shown.selected, shown.marked, shown.blocked, "No cards in hand.")
        count = len(view["hand"])
        phrase = show.turn_phrase(view, self.names, self.keyboard.addressed(self.active_seat))
        owned = self.keyboard.owned(self.active_seat, "hand")
        box.border_title = escape(f"{owned} ({plural(count, 'card')}) {self.dash} {phrase}")

    def _draw_status(self, view: RoachView) -> None:
        status = self.status_line
        if self.watching or self.read_only:  # nobody plays here: say whose move it is
            status.line = show.turn_phrase(view, self.names, None).capitalize() + "."
            return
        if not self.private:
            status.line = ""
            return
        if self.message and self.flow.stale(self._version(), self.active_seat):
            self.message = ""
        status.line = self.message or show.prompt(view, self.names, self.active_seat, self.ascii)

    def _show_buttons(self, view: RoachView) -> None:
        self.query_one("#buttons").display = self.app.size.width >= BUTTONS_FROM
        allowed = self._allowed(view)
        for button_id, action in BUTTONS.items():
            shown = action in allowed
            if action == "pass_on":
                shown = shown and show.can_pass(view)
            self.query_one(f"#{button_id}", ActionButton).offer(shown)

    def _allowed(self, view: RoachView) -> set[str]:
        """The game actions the player at the keyboard may take now."""
        return self.flow.allowed(view, self.active_seat, self._my_move(view))

    def _offers(self, action: str) -> bool:
        """Only the keys that do something now (picking, and what the phase offers)."""
        if action not in {"offer", "mark", "judge", "pass_on", "lay"}:
            return True
        if not self.is_mounted:
            return False
        view = self._seen()
        return self.flow.offers(action, view, self.active_seat, self._my_move(view))

    def _version(self) -> int:
        return self._update(self.active_seat).version

    def _say(self, message: str) -> None:
        self.flow.said(self._version(), self.active_seat)
        super()._say(message)

    # -- dialogs --------------------------------------------------------------------------------
    def _keyboard_passed(self) -> None:
        self.flow.keyboard_passed()

    def _prompt(self) -> None:
        if self.flow.peeking:
            self._pass_peeked()

    def _target_dialog(self, title: str, seats: list[int]) -> TargetDialog:
        view = self._seen()
        options = []
        for number, seat in enumerate(seats, start=1):
            name, cards = self.names[seat], view["hand_sizes"][seat]
            room = TARGET_LABEL - len(name) - len(f": ({cards} in hand)")
            display = show.display_text(
                view["front_counts"][seat], view["fronts"][seat], view["lose_at"], room,
                colour=False, ascii=self.ascii,
            ).plain  # fmt: skip
            if not view["fronts"][seat]:
                display = "nothing face up"
            options.append(Option(str(number), f"{name}: {display} ({cards} in hand)", seat))
        return TargetDialog(title, options, ascii=self.ascii)

    def _claim_dialog(self, title: str, card: str | None) -> PickDialog[str]:
        """Which claim to make about `card`, each marked true or a bluff (None: unseen)."""
        options = [
            Option(str(number), show.claim_label(card, claim), claim)
            for number, claim in enumerate(CLAIMS, start=1)
        ]
        hint = "Press 1-8, or arrows and Enter."
        return PickDialog(title, options, hint=hint, ascii=self.ascii)

    # -- player actions -------------------------------------------------------------------------
    def _kinds(self) -> list[tuple[str, int]]:
        return show.hand_kinds(self._seen()["hand"]) if self.private else []

    def _picked(self) -> str | None:
        return self.flow.picked(self._seen()) if self.private else None

    def _pickable(self) -> int:
        return len(self._kinds())

    def _select(self, index: int) -> None:
        self.selected = index
        self._draw_hand(self._seen())

    def on_roach_hand_clicked(self, event: RoachHand.Clicked) -> None:
        view = self._seen()
        again = event.index == self.selected
        self._select(event.index)
        allowed = self._allowed(view)
        if "mark" in allowed:
            self.action_mark()
        elif again and "offer" in allowed:
            self.action_offer()

    def action_offer(self) -> None:
        view = self._seen()
        card = self._picked()
        if card is None or "offer" not in self._allowed(view):
            return
        others = [seat for seat in range(view["players"]) if seat != self.active_seat]
        name = show.card_name(card)
        if len(others) == 1:
            self._ask_claim(card, others[0])
            return
        dialog = self._target_dialog(f"Offer your {name} to whom?", others)
        self._open(dialog, lambda seat: self._ask_claim(card, seat))

    def _ask_claim(self, card: str, to: int | None) -> None:
        if to is None:
            return
        title = f"Slide your {show.card_name(card)} to {self.names[to]}, claiming it is a..."
        self._open(
            self._claim_dialog(title, card),
            lambda claim: self._offer(card, to, claim),
        )

    def _offer(self, card: str, to: int, claim: str | None) -> None:
        if claim is None:
            self._say(f"Your {show.card_name(card)} stays in your hand.")
            return
        self._send({"type": "offer", "card": card, "to": to, "claim": claim})

    def action_judge(self, believe: bool) -> None:
        if "judge" in self._allowed(self._seen()):
            self._send({"type": "challenge", "believe": believe})

    def action_pass_on(self) -> None:
        """Pass the card on: look at it first (then it must go on) or not, then choose whom to
        pass it to and the claim."""
        view = self._seen()
        if "pass_on" not in self._allowed(view):
            return
        targets = show.pass_targets(view)
        if not targets:
            self._say("The card has been with everyone else: say t (true) or f (false).")
            return
        flight = view["flight"]
        if flight and self.active_seat in flight["seen_by"]:
            self._ask_pass_target()
            return
        options = [
            Option("1", "Look at it first", True),
            Option("2", "Pass it on unseen", False),
        ]
        hint = "Press 1 or 2. Esc: go back"
        self._open(PickDialog("Pass the card on", options, hint=hint, ascii=self.ascii), self._look)

    def _look(self, look: bool | None) -> None:
        """Peek at the card and ask where it goes, or ask where it goes unseen."""
        if look is None:
            return
        if not look:
            self._ask_unseen_target()
            return
        self.flow.peeking = self._send({"type": "peek"})
        if self.flow.peeking:
            self._pass_peeked()

    def _ask_unseen_target(self) -> None:
        targets = show.pass_targets(self._seen())
        if len(targets) == 1:
            self._ask_unseen_claim(targets[0])
            return
        self._open(
            self._target_dialog("Pass it on unseen to whom?", targets), self._ask_unseen_claim
        )

    def _ask_unseen_claim(self, to: int | None) -> None:
        if to is None:
            return
        title = f"Pass it on unseen to {self.names[to]}, claiming it is a..."
        self._open(self._claim_dialog(title, None), lambda claim: self._pass_unseen(to, claim))

    def _pass_unseen(self, to: int, claim: str | None) -> None:
        if claim is None:
            return
        if self._send({"type": "pass", "to": to, "claim": claim, "look": False}):
            self._say(f'You passed it on unseen: it goes to {self.names[to]} as "{claim}".')

    def _pass_peeked(self) -> None:
        """Once the peeked card shows (at once here, when the server's answer comes over the
        network), ask where it goes; until then the screen says it is looking."""
        flight = self._seen()["flight"]
        if flight is None or "card" not in flight:
            if flight is None or flight["to"] != self.active_seat:
                self.flow.peeking = False  # the card is no longer in front of us
            else:
                self._say("Looking at the card...")
            return
        self.flow.peeking = False
        self._ask_pass_target()

    def _ask_pass_target(self) -> None:
        view = self._seen()
        seen = _seen_card(view["flight"])
        if seen is None:  # (asked only once the peeked card shows)
            return
        targets = show.pass_targets(view)
        card = show.with_article(seen)
        if len(targets) == 1:
            self._ask_pass_claim(targets[0])
            return
        dialog = self._target_dialog(f"It is {card}. Pass it to whom?", targets)
        self._open(dialog, self._ask_pass_claim)

    def _ask_pass_claim(self, to: int | None) -> None:
        if to is None:
            self._say("You have looked at the card: press p to pass it on.")
            return
        seen = _seen_card(self._seen()["flight"])
        if seen is None:
            return
        title = f"It is {show.with_article(seen)}. Pass it to {self.names[to]}, claiming it is a..."
        self._open(self._claim_dialog(title, seen), lambda claim: self._pass(to, claim))

    def _pass(self, to: int, claim: str | None) -> None:
        if claim is None:
            self._say("You have looked at the card: press p to pass it on.")
            return
        seat = self.active_seat
        if not self._send({"type": "pass", "to": to, "claim": claim}):
            return
        seen = _seen_card(self._seen(seat)["flight"])
        if seen is None:
            return
        if to in self.humans:  # the hand-off comes next: show the peeked card before it
            self._open(PeekNotice(seen, self.names[to], claim, self.ascii))
        else:
            card = show.with_article(seen)
            self._say(f'You peeked: it is {card}. It goes to {self.names[to]} as "{claim}".')

    def action_mark(self) -> None:
        view = self._seen()
        if "mark" not in self._allowed(view):
            return
        said = self.flow.mark(view) if self.private else None
        if said is not None:
            self._say(said)
            self._draw_hand(view)

    def action_lay(self) -> None:
        view = self._seen()
        if "lay" not in self._allowed(view):
            return
        lay = view["lay"]
        if not self.flow.marked and lay:
            self._say(show.lay_hint([], lay["claim"]))
            return
        if self._send({"type": "lay", "cards": list(self.flow.marked)}):
            self.flow.marked = []

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {
            "offer": self.action_offer,
            "true": lambda: self.action_judge(True),
            "false": lambda: self.action_judge(False),
            "pass": self.action_pass_on,
            "lay": self.action_lay,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            action()


def _without_secrets(view: RoachView) -> RoachView:
    """The view as anyone at the table may see it: no hand, no card in flight, no private log."""
    public = view.copy()
    public["hand"] = []
    public["log"] = [event for event in view["log"] if event["to"] is None]
    flight = view["flight"]
    if flight:
        unseen = flight.copy()
        unseen.pop("card", None)
        public["flight"] = unseen
    return public


def _seen_card(flight: Flight | None) -> str | None:
    """The card in flight, if this view's seat has seen it."""
    return None if flight is None else flight.get("card")


SCREEN = RoachScreen
