"""The Cockroach Poker Royal table: face-up cards, the card in flight, your hand and prompts."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Button, Footer, Static
from textual.worker import Worker, WorkerState

from ...rules.roach import CLAIMS
from ..widgets.log import GameLog
from ..widgets.roach_hand import RoachHand
from . import roach_view as show
from .dialogs import Option, PickDialog, QuitDialog
from .handoff import HandoffScreen
from .help import HelpScreen
from .options import SetupOption
from .roach_dialogs import PeekNotice, RoachResult

if TYPE_CHECKING:
    from ...table import Update
    from ..client import TableClient

KEYS = [
    ("← →", "move the pick along your hand"),
    ("1-9", "pick card 1 to 9"),
    ("Enter", "offer the picked card (then choose a player and a claim); when laying out, mark it"),
    ("click", "pick a card; click the picked card again to offer it (or mark it)"),
    ("t", "the claim about the card slid to you is true"),
    ("f", "the claim is false"),
    ("p", "peek at the card and pass it on: to a player who has not seen it, with a claim"),
    ("l", "lay out the marked cards (after taking the joker or the blank)"),
    ("?", "this help"),
    ("q", "leave the game"),
]

#: Which actions each phase offers the player whose move it is.
PHASE_ACTIONS = {
    "offer": {"offer"},
    "respond": {"judge", "pass_on"},
    "lay": {"mark", "lay"},
}
TARGET_LABEL = 62  # columns for a player's line in the dialog choosing who gets the card
WIDE = 110  # terminals at least this wide get a wider table panel
WIDE_MIDDLE, NARROW_MIDDLE = 46, 36  # the table panel's width there, and elsewhere
BUTTONS = {"offer": "offer", "true": "judge", "false": "judge", "pass": "pass_on", "lay": "lay"}


class ActionButton(Button, can_focus=False):
    """A button for the mouse that never takes the keyboard away from the table."""


class TargetDialog(PickDialog[int]):
    """The shared pick dialog, wide enough for each player's face-up cards on one line."""

    DEFAULT_CSS = """
    TargetDialog > Vertical { width: 72; max-width: 100%; }
    """


class RoachScreen(Screen[None]):
    """One roach table seen from this terminal: hot-seat for several seats, watching for none."""

    CSS_PATH = "roach.tcss"
    AUTO_FOCUS = None  # keys go to the table, never to a button or the log
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "select(-1)", "Pick", key_display="←→"),
        Binding("right", "select(1)", "Pick", show=False),
        *[Binding(str(n), f"pick({n})", f"Card {n}", show=False) for n in range(1, 10)],
        Binding("enter", "offer", "Offer"),
        Binding("enter,space", "mark", "Mark"),
        Binding("t", "judge(True)", "True"),
        Binding("f", "judge(False)", "False"),
        Binding("p", "pass_on", "Peek & pass"),
        Binding("l", "lay", "Lay out"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, client: TableClient, ascii: bool = False, bots: bool = True) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.client = client
        self.ascii = ascii
        self.dash = "-" if ascii else "—"
        self.bots = bots
        self.humans = list(client.seats)
        self.watching = not self.humans  # a spectator: no hand, no actions
        self.active_seat = self.humans[0] if self.humans else 0  # the seat the screen acts for
        self.shown_seat: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.selected: int | None = 0
        self.marked: list[str] = []  # cards marked to be laid out
        self.message = ""
        self.message_version = -1  # the message goes stale when the table moves on
        self.message_seat: int | None = None  # and belongs to the seat it was said to
        self.logs: dict[int, list[dict[str, Any]]] = {}
        self._updates: dict[int, Update] = {}  # each seat's latest update, until the next change
        self.over = False
        self.covered = 0  # dialogs of ours on top of this screen
        self._sync_due = False
        self._closed = False
        self._bot_worker: Worker[None] | None = None

    # -- building and updating ------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="seats")
        with Horizontal(id="middle"):
            yield Static(id="flight")
            yield GameLog(self.ascii, id="log")
        with Horizontal(id="hand-box"):
            yield RoachHand(self.ascii, id="hand")
            with Vertical(id="buttons"):
                yield ActionButton("Offer (Enter)", id="offer", compact=True)
                yield ActionButton("True (t)", id="true", compact=True)
                yield ActionButton("False (f)", id="false", compact=True)
                yield ActionButton("Peek & pass (p)", id="pass", compact=True)
                yield ActionButton("Lay out (l)", id="lay", compact=True)
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#seats").border_title = "Players"
        self.query_one("#flight").border_title = "Table"
        self.query_one("#log").border_title = "Log"
        for seat in self.humans or [self.active_seat]:
            self.logs[seat] = list(self._update(seat).view["log"])
        self.client.listen(self._table_changed)
        listen_notices = getattr(self.client, "listen_notices", None)
        if listen_notices is not None:  # a network client: refusals and news come later
            listen_notices(self._notice)
        self.over = self._update(self.active_seat).over
        self._start_bots()
        self._sync()

    def on_resize(self) -> None:
        if self.is_mounted and not self._closed:
            self._draw()

    def on_unmount(self) -> None:
        self._closed = True
        self._stop_bots()

    @property
    def names(self) -> list[str]:
        return list(self.client.names)

    def _notice(self, kind: str, text: str) -> None:
        """A network client's news: a refused action, chat, someone leaving or coming back."""
        if not self._closed:
            mark = ("x " if self.ascii else "✗ ") if kind == "error" else ""
            self._say(mark + show.sentence(text))

    def _table_changed(self, seat: int | None, update: Update) -> None:
        """Called by the table for each local seat after every accepted action."""
        if self._closed:
            return
        seat = self.active_seat if seat is None else seat
        self._updates.clear()
        self.logs.setdefault(seat, []).extend(update.events)
        if update.over:
            self.over = True
        if not self._sync_due:
            self._sync_due = True
            self.call_later(self._sync)

    def _sync(self) -> None:
        """Bring the screen up to date, showing the hand-off before any private card."""
        self._sync_due = False
        if self._closed:
            return
        self._choose_seat()
        if self.covered:
            self._draw()
            return
        if self.over:
            self._stop_bots()
            self._draw()
            self._open(RoachResult(self._view(), self.names, self.ascii), self._end)
            return
        if self.active_seat != self.shown_seat and not self.watching:
            if len(self.humans) == 1:
                self.shown_seat = self.active_seat
            else:
                self._draw()  # the hand is blanked before the hand-off covers the screen
                handoff = HandoffScreen(self.names[self.active_seat], self.ascii)
                self._open(handoff, self._after_handoff)
                return
        self._draw()

    def _choose_seat(self) -> None:
        waiting = sorted(seat for seat in self.client.waiting_for() if seat in self.humans)
        if waiting:
            self.active_seat = waiting[0]

    def _update(self, seat: int) -> Update:
        if seat not in self._updates:
            update = self.client.update(seat)
            assert update is not None, "the table screen opens after the first update"
            self._updates[seat] = update
        return self._updates[seat]

    def _view(self) -> dict[str, Any]:
        return self._update(self.active_seat).view

    @property
    def private(self) -> bool:
        """True when the player at the keyboard may see the active seat's cards."""
        return not self.watching and self.shown_seat == self.active_seat

    def _my_move(self, view: dict[str, Any]) -> bool:
        return self.private and not self.covered and view["turn"] == self.active_seat

    def _draw(self) -> None:
        view = self._view()
        you = self.active_seat if self.private else None
        colour = not self.app.no_color
        seats = self.query_one("#seats", Static)
        width = max(20, (seats.size.width or self.app.size.width - 4))
        seats.update(show.seat_table(view, self.names, you, width, colour, self.ascii))
        seats.styles.height = len(self.names) + 3
        public_view = view if self.private else _without_secrets(view)
        middle = self.query_one("#flight", Static)
        middle.styles.width = WIDE_MIDDLE if self.app.size.width >= WIDE else NARROW_MIDDLE
        room = middle.content_size
        middle.update(
            show.flight_lines(
                public_view, self.names, you, self.ascii, room.height or 99, room.width or 99
            )
        )
        events = self.logs.get(self.active_seat, [])
        if not self.private:  # another player's private lines must not show before the hand-off
            events = [event for event in events if event.get("to") is None]
        lines = [show.log_line(event, self.names, self.ascii) for event in events]
        self.query_one("#log", GameLog).show(lines, source=(self.active_seat, self.private))
        self._draw_hand(view)
        self._draw_status(view)
        self._show_buttons(view)
        self.refresh_bindings()

    def _draw_hand(self, view: dict[str, Any]) -> None:
        hand = self.query_one("#hand", RoachHand)
        box = self.query_one("#hand-box")
        you = self.active_seat
        if self.watching:
            hand.clear("You are watching: every hand stays hidden.")
            box.border_title = escape(
                f"Watching {self.dash} " + show.turn_phrase(view, self.names, None)
            )
            return
        if not self.private:
            hand.clear(f"Waiting for {self.names[you]} to take the seat.")
            box.border_title = escape(f"{self.names[you]}'s hand (hidden)")
            return
        kinds = show.hand_kinds(view["hand"])
        if view["phase"] != "lay" or view["turn"] != you:
            self.marked = []
        if kinds:
            self.selected = min(self.selected or 0, len(kinds) - 1)
        else:
            self.selected = None
        blocked: frozenset[str] = frozenset()
        lay = view.get("lay")
        if lay and lay["seat"] == you and Counter(view["hand"])[lay["special"]] == 1:
            blocked = frozenset({lay["special"]})  # the special card just taken stays in hand
        hand.show(kinds, self.selected, Counter(self.marked), blocked, "No cards in hand.")
        who = "Your hand" if len(self.humans) == 1 else f"{self.names[you]}'s hand"
        count = len(view["hand"])
        phrase = show.turn_phrase(view, self.names, you)
        box.border_title = escape(
            f"{who} ({count} card{'s' if count != 1 else ''}) {self.dash} {phrase}"
        )

    def _draw_status(self, view: dict[str, Any]) -> None:
        status = self.query_one("#status", Static)
        if self.watching:
            status.update(Text(show.turn_phrase(view, self.names, None).capitalize() + "."))
            return
        if not self.private:
            status.update(Text(""))
            return
        if self.message and (
            self.message_version != self._version() or self.message_seat != self.active_seat
        ):
            self.message = ""
        text = self.message or show.prompt(view, self.names, self.active_seat, self.ascii)
        status.update(Text(text))

    def _show_buttons(self, view: dict[str, Any]) -> None:
        allowed = self._allowed(view)
        for button_id, action in BUTTONS.items():
            button = self.query_one(f"#{button_id}", ActionButton)
            shown = action in allowed
            if action == "pass_on":
                shown = shown and show.can_pass(view)
            button.display = shown

    def _allowed(self, view: dict[str, Any]) -> set[str]:
        """The game actions the player at the keyboard may take now."""
        if not self._my_move(view):
            return set()
        flight = view.get("flight") or {}
        if view["phase"] == "respond" and self.active_seat in flight.get("seen_by", ()):
            return {"pass_on"}  # looked at the card: it must go on
        return PHASE_ACTIONS.get(view["phase"], set())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show (and run) only the keys that do something now; the rest stay out of the footer."""
        if action in {"select", "pick"}:
            return self.is_mounted and self.private and not self.over
        if action not in {"offer", "mark", "judge", "pass_on", "lay"}:
            return True
        if not self.is_mounted:
            return False
        view = self._view()
        allowed = self._allowed(view)
        if action == "pass_on":
            return action in allowed and show.can_pass(view)
        return action in allowed

    def _version(self) -> int:
        return self._update(self.active_seat).version

    def _say(self, message: str) -> None:
        self.message = message
        self.message_version = self._version()
        self.message_seat = self.active_seat
        self.query_one("#status", Static).update(Text(message))

    # -- dialogs --------------------------------------------------------------------------------
    def _open(self, screen: Screen[Any], then: Any = None) -> None:
        """Push `screen` over this one; `then(result)` runs when it closes, then a fresh sync."""
        self.covered += 1

        def closed(result: Any) -> None:
            self.covered -= 1
            if then is not None:
                then(result)
            self._sync()

        self.app.push_screen(screen, closed)

    def _after_handoff(self, ready: bool | None) -> None:
        if ready:
            self.shown_seat = self.active_seat
            self.selected = 0
            self.marked = []
            self.message = ""
        else:
            self.action_quit()

    def _end(self, choice: str | None) -> None:
        if choice == "quit":
            self.app.exit()
        else:
            self._closed = True
            self.app.call_later(self.app.show_menu)  # type: ignore[attr-defined]

    def _target_dialog(self, title: str, seats: list[int]) -> TargetDialog:
        view = self._view()
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
        options = [
            Option(str(number), show.claim_label(card, claim), claim)
            for number, claim in enumerate(CLAIMS, start=1)
        ]
        hint = "Press 1-8, or arrows and Enter. Esc: go back"
        return PickDialog(title, options, hint=hint, ascii=self.ascii)

    # -- bots -----------------------------------------------------------------------------------
    def _start_bots(self) -> None:
        if self.bots and not self._closed and not self.over and self._bot_worker is None:
            self._bot_worker = self.run_worker(
                self.client.run_bots(), name="bots", group="bots", exit_on_error=False
            )

    def _stop_bots(self) -> None:
        if self._bot_worker is not None:
            self._bot_worker.cancel()
            self._bot_worker = None

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.name == "bots" and event.state == WorkerState.ERROR:
            self._bot_worker = None
            self._say(f"The bots stopped: {event.worker.error}")

    # -- player actions -------------------------------------------------------------------------
    def _submit(self, action: dict[str, Any]) -> bool:
        """Send `action` for the active seat; a refusal goes to the status line. True if taken."""
        refusal = self.client.submit(self.active_seat, action)
        if refusal is not None:
            self._say(("x " if self.ascii else "✗ ") + show.sentence(refusal))
            return False
        self.message = ""
        return True

    def _kinds(self) -> list[tuple[str, int]]:
        return show.hand_kinds(self._view()["hand"]) if self.private else []

    def _picked(self) -> str | None:
        kinds = self._kinds()
        if self.selected is None or not kinds:
            return None
        self.selected = min(self.selected, len(kinds) - 1)
        return kinds[self.selected][0]

    def action_select(self, step: int) -> None:
        kinds = self._kinds()
        if kinds and not self.covered:
            start = self.selected if self.selected is not None else -step
            self._select((start + step) % len(kinds))

    def action_pick(self, number: int) -> None:
        if number <= len(self._kinds()) and not self.covered:
            self._select(number - 1)

    def _select(self, index: int) -> None:
        self.selected = index
        self._draw_hand(self._view())

    def on_roach_hand_clicked(self, event: RoachHand.Clicked) -> None:
        view = self._view()
        again = event.index == self.selected
        self._select(event.index)
        allowed = self._allowed(view)
        if "mark" in allowed:
            self.action_mark()
        elif again and "offer" in allowed:
            self.action_offer()

    def action_offer(self) -> None:
        view = self._view()
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
        self._submit({"type": "offer", "card": card, "to": to, "claim": claim})

    def action_judge(self, believe: bool) -> None:
        if "judge" in self._allowed(self._view()):
            self._submit({"type": "challenge", "believe": believe})

    def action_pass_on(self) -> None:
        """Look at the card (then it must go on), and choose whom to pass it to and the claim."""
        view = self._view()
        if "pass_on" not in self._allowed(view):
            return
        targets = show.pass_targets(view)
        if not targets:
            self._say("Everyone else has seen this card: say t (true) or f (false).")
            return
        if self.active_seat not in view["flight"]["seen_by"]:
            if not self._submit({"type": "peek"}):
                return
            view = self._view()
        card = show.with_article(view["flight"]["card"])
        if len(targets) == 1:
            self._ask_pass_claim(targets[0])
            return
        dialog = self._target_dialog(f"It is {card}. Pass it to whom?", targets)
        self._open(dialog, self._ask_pass_claim)

    def _ask_pass_claim(self, to: int | None) -> None:
        if to is None:
            self._say("You have looked at the card: press p to pass it on.")
            return
        card = show.with_article(self._view()["flight"]["card"])
        title = f"It is {card}. Pass it to {self.names[to]}, claiming it is a..."
        self._open(self._claim_dialog(title, None), lambda claim: self._pass(to, claim))

    def _pass(self, to: int, claim: str | None) -> None:
        if claim is None:
            self._say("You have looked at the card: press p to pass it on.")
            return
        seat = self.active_seat
        if not self._submit({"type": "pass", "to": to, "claim": claim}):
            return
        seen = (self._update(seat).view.get("flight") or {}).get("card")
        if seen is None:
            return
        if to in self.humans:  # the hand-off comes next: show the peeked card before it
            self._open(PeekNotice(seen, self.names[to], claim, self.ascii))
        else:
            card = show.with_article(seen)
            self._say(f'You peeked: it is {card}. It goes to {self.names[to]} as "{claim}".')

    def action_mark(self) -> None:
        view = self._view()
        if "mark" not in self._allowed(view):
            return
        card = self._picked()
        if card is None:
            return
        lay = view["lay"]
        held = Counter(view["hand"])[card] - (1 if card == lay["special"] else 0)
        if held <= 0:
            self._say(f"You cannot lay out the {card} you just took.")
            return
        if self.marked.count(card) < held and len(self.marked) < 2:
            self.marked.append(card)
        else:
            self.marked = [c for c in self.marked if c != card]
        self._say(show.lay_hint(self.marked, lay["claim"]))
        self._draw_hand(view)

    def action_lay(self) -> None:
        view = self._view()
        if "lay" not in self._allowed(view):
            return
        if not self.marked:
            self._say(show.lay_hint([], view["lay"]["claim"]))
            return
        if self._submit({"type": "lay", "cards": list(self.marked)}):
            self.marked = []

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

    def action_help(self) -> None:
        game = self.client.game
        title = game.title if game else "Cockroach Poker Royal"
        self._open(HelpScreen("roach", title, KEYS))

    def action_quit(self) -> None:
        saving = getattr(self.client, "saved_as", None) is not None
        question = (
            "Leave this game? It is saved: `tablegames resume` brings it back."
            if saving
            else "Leave this game?"
        )
        self._open(QuitDialog(question, ascii=self.ascii, saving=saving), self._leave)

    def _leave(self, choice: str | None) -> None:
        if choice == "discard":
            self.client.discard_save()  # type: ignore[attr-defined]
            choice = "quit"
        if choice is not None:
            self._end(choice)


def _without_secrets(view: dict[str, Any]) -> dict[str, Any]:
    """The view as anyone at the table may see it: no hand, no card in flight, no private log."""
    flight = view.get("flight")
    public = {**view, "hand": [], "log": [e for e in view["log"] if e.get("to") is None]}
    if flight:
        public["flight"] = {key: value for key, value in flight.items() if key != "card"}
    return public


SCREEN = RoachScreen
OPTIONS: tuple[SetupOption, ...] = ()
