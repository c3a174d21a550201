"""The You've Got Crabs table: both sides, your hand, the ocean, gestures, calls, in real time.

One human per terminal (several humans play over the network): the bots keep acting while
the player thinks, so the screen redraws on every change and never blocks on a question. A
dealt game opens with the huddle, whose dialog lets the player pick the team's signal while the
huddle's clock runs (it opens by itself, again when a partner picks something else, and `t`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Static

from ...rules.crabs_types import TYPES, CrabsAction, CrabsEvent, CrabsView
from ...words import plural
from ..widgets.card import prettify
from ..widgets.crabs_table import (
    GESTURE_KEYS,
    GESTURE_LABELS,
    CardRow,
    GestureBar,
    SidePanel,
    crab_name,
)
from ..widgets.footer import Footer
from ..widgets.log import GameLog
from ..widgets.notices import banner
from . import crabs_view as show
from .crabs_dialogs import CrabsOver, HuddleScreen, OneHumanOnly
from .crabs_presenter import CrabsPresenter, Swap
from .dialogs import Option, PickDialog
from .game import ActionButton, GameScreen
from .table_log import Wording

if TYPE_CHECKING:
    from textual.screen import Screen

    from ...rules.crabs_types import DoubleTakeAction, SignalAction
    from ...table import Update
    from ..client import TableClient

#: Typographic marks in the engine's sentences, and what ASCII mode prints instead.
ASCII_PUNCTUATION = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "–": "-", "—": "-"})
TALL = 34  # terminal rows from which the cards are drawn as boxes
WIDE_BAR = 110  # terminals at least this wide show Done, Accuse and Signal beside the status


class CrabsWording(Wording):
    """Crabs in words, in ASCII punctuation where asked: a run of refills is one line; a
    seat's secret is its hand and its team's signal."""

    def line(self, event: dict[str, object]) -> str:
        line = super().line(event)
        return line.translate(ASCII_PUNCTUATION) if self.ascii else line

    def loggable(self, event: dict[str, object]) -> bool:
        """Gestures stay out of the log: each shows beside its player's name for a moment, a
        partner's signal is said on the status line, and the bots' decoys, several a second,
        flooded every other line away."""
        return event.get("kind") != "gesture"

    def in_runs(self, event: dict[str, object]) -> bool:
        return event.get("kind") == "refill"  # nobody wanted to swap, again

    def within_runs(self, event: dict[str, object]) -> bool:
        """What leads to the next refill: hands laid down, the other side asked and saying
        no, the same side again (a swap, a gesture or a call ends the run)."""
        if event.get("kind") == "want_swap":
            return event.get("yes") is False
        return event.get("kind") in ("done", "asking", "again", "reshuffle")

    def run_line(self, event: dict[str, Any], times: int) -> str:
        ocean = ", ".join(crab_name(kind) for kind in event.get("ocean", []))
        line = f"Nobody wants to swap ({times} times in a row): the ocean now holds {ocean}."
        return line.translate(ASCII_PUNCTUATION) if self.ascii else line

    def secret(self, view: dict[str, object]) -> str:
        seen = TYPES.view(view)
        cards = ", ".join(crab_name(card) for card in seen["hand"]) or "(no cards)"
        signals = seen["signals"]
        return f"{cards}; signal: {show.signal_phrase(signals)}" if signals else cards


class CrabsScreen(GameScreen[CrabsView, CrabsAction, CrabsEvent]):
    """One crabs table seen by one player (or a spectator, who sees no hand)."""

    GAME = "crabs"
    TYPES = TYPES
    TURN_BASED = False  # real time: no turns to sum up, bots act at their own speed
    MORE_HELP = (("click", "a hand card, then an ocean card, swaps them"),)
    CSS_PATH = "crabs.tcss"
    WORDING = CrabsWording
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "a",
            "hand(0)",
            "Swap",
            key_display="asdf jkl;",
            tooltip="a s d f pick a card of your hand (again: put it back); j k l ; an ocean "
            "card: with a hand card picked, you swap them",
        ),
        *[Binding(key, f"hand({n})", "Hand", show=False) for n, key in enumerate("sdf", 1)],
        Binding("j", "ocean(0)", "Ocean", show=False),
        Binding("k", "ocean(1)", "Ocean", show=False),
        Binding("l", "ocean(2)", "Ocean", show=False),
        Binding("semicolon", "ocean(3)", "Ocean", show=False),
        Binding("space", "done", "Done", tooltip="lay your hand down (done swapping this turn)"),
        Binding(
            "1",
            "gesture(0)",
            "Gesture",
            key_display="0-9",
            tooltip="make a gesture (your team's signal is marked *)",
        ),
        *[
            Binding(key, f"gesture({n})", "Gesture", show=False)
            for n, key in enumerate(GESTURE_KEYS)
            if key != "1"
        ],
        Binding(
            "x",
            "accuse",
            "Accuse",
            tooltip="call \u201cYou've got crabs!\u201d on a player (or click a player twice)",
        ),
        Binding(  # (the hand's box says "signal: ... (t)")
            "t",
            "signal",
            "Signal",
            show=False,
            tooltip="pick your team's signal in the huddle before play; then, see it",
        ),
        Binding(
            "y",
            "answer(True)",
            "Yes",
            show=False,
            key_display="y / n",
            tooltip="answer when asked whether you want to swap",
        ),
        Binding("n", "answer(False)", "No", show=False),
        Binding("c", "collect", "Collect", show=False, tooltip="collect a double crab's tokens"),
        Binding("escape", "unpick", "Unpick", show=False),
    ]

    def __init__(self, client: TableClient, ascii: bool = False) -> None:
        super().__init__(client, ascii)
        self.flow = CrabsPresenter()
        self._timer: Timer | None = None
        self.huddle_screen: HuddleScreen | None = None  # the huddle's dialog while it is open

    def min_size(self) -> tuple[int, int]:
        # both sides (their lower edge left out when tight), the cards, the gestures, a log of
        # two lines at least, the bar
        return (60, (len(self.names) + 1) // 2 + 15)

    @property
    def seat(self) -> int | None:
        """The seat played at this terminal; None for a spectator."""
        return None if self.watching else self.active_seat

    # -- building -------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="sides"):
            with Vertical(id="side0-box", classes="side"):
                yield SidePanel(self.ascii, id="side0")
            with Vertical(id="side1-box", classes="side"):
                yield SidePanel(self.ascii, id="side1")
        with Horizontal(id="cards"):
            with Vertical(id="hand-box"):
                yield CardRow(show.HAND_KEYS, self.ascii, id="hand")
            with Vertical(id="ocean-box"):
                yield CardRow(show.OCEAN_KEYS, self.ascii, id="ocean")
            yield Static(id="tokens")
        yield GestureBar(self.ascii, id="gestures")
        yield GameLog(self.ascii, id="log")
        with Horizontal(id="bar"):
            yield self.status_line
            yield ActionButton("Yes (y)", id="yes", compact=True)
            yield ActionButton("No (n)", id="no", compact=True)
            yield ActionButton("Done", id="done", compact=True)
            yield ActionButton("Accuse", id="accuse", compact=True)
            yield ActionButton("Signal", id="signal", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#ocean-box").border_title = "Ocean"
        self.query_one("#tokens").border_title = "Tokens"
        self._timer = self.set_interval(0.5, self._tick)
        # (The bots start next, even in the huddle: they pick at once, and the clock runs.)

    # -- following the table --------------------------------------------------------------------
    def _taken(self, seat: int, update: Update) -> None:
        view = TYPES.view(update.view)
        events = TYPES.events(update.events)
        self.flow.taken(view, events, self.seat)
        for event in events:
            if event["kind"] == "gesture":
                self._partner_signalled(event["seat"], event["gesture"], view)
            if event["kind"] == "signal_settled" and self.seat is not None:
                banner(self.app, show.settled_words(event, view))
        huddle = view["huddle"]
        if self.huddle_screen is not None:
            if huddle is None:
                self.huddle_screen.end()
            else:
                self.huddle_screen.show_team(huddle)

    def _partner_signalled(self, seat: int, name: str, view: CrabsView) -> None:
        """A partner making the team's signal holds four of a kind: say how to call them."""
        team = view["team"]
        if self.seat is None or seat == self.seat or name not in view["signals"] or team is None:
            return
        if seat in view["teams"][team]:
            key = show.player_key(seat)
            self._say(f"{self.names[seat]} made your signal! Call crabs on them: x then {key}.")

    def _results(self) -> Screen[str]:
        return CrabsOver(self._seen(), self.names, self.ascii)

    def _prompt(self) -> None:
        """The huddle opens by itself when the team's pick waits for this player (once per pick
        of the team's); a double crab is offered once, as soon as the team may collect it."""
        waiting = self.seat in self._update(self.active_seat).waiting
        asked = self.flow.asks(self._seen(), self.seat, waiting)
        if asked == "huddle":
            self._open_huddle()
        elif asked == "double":
            self.action_collect()

    def _tick(self) -> None:
        """Forget gestures shown long enough (they fade from the side panels)."""
        if self.flow.faded():
            self._draw()
        elif (self.message and self.flow.stale(self._seen())) or self._seen()["huddle"]:
            self._draw_bar(self._seen())  # (the huddle's seconds count down)

    # -- drawing --------------------------------------------------------------------------------
    def _draw(self) -> None:
        view = self._seen()
        you = self.seat
        tall = self.app.size.height >= TALL
        rows = show.side_rows(view, self.names, you, self.flow.gestures())
        longest = max(
            (len(row.name) + 6 * row.is_you for side in rows.values() for row in side), default=0
        )
        most = max(len(rows[0]), len(rows[1]))
        for side in (0, 1):
            panel = self.query_one(f"#side{side}", SidePanel)
            panel.show(rows[side], self.flow.marked_player, longest, most)
            box = self.query_one(f"#side{side}-box")
            box.border_title = escape(self._fit(show.side_title(view, side, you, self.ascii), box))
            box.set_class(view["marker"] == side, "active")
        tight = self.app.size.height <= self.min_size()[1]  # (the log's second line first)
        self.set_class(tight, "-tight")  # (crabs.tcss sizes the panels by these)
        self.set_class(tall, "-tall")
        hand = self.query_one("#hand", CardRow)
        hand_box = self.query_one("#hand-box")
        if you is None:
            hand.show([], None, self.keyboard.hidden_words("every hand"))
            hand_box.border_title = "Watching"
        else:
            hand.show(view["hand"], self.flow.picked_hand)
            hand_box.border_title = self.keyboard.owned(self.active_seat, "hand")
        hand_box.border_subtitle = ""
        if you is not None:  # the team's signal, private like the hand
            keys = "/".join(show.gesture_key(view, name) for name in view["signals"])
            label = "/".join(GESTURE_LABELS.get(name, "?") for name in view["signals"])
            four = show.is_four(view["hand"])
            subtitle = f"FOUR! signal: {keys}" if four else f"signal: {label} (t)"
            if view["huddle"] is not None:
                subtitle = "huddle: signal? (t)"
            hand_box.border_subtitle = self._fit(subtitle, hand_box)
            hand_box.set_class(four, "four")
        self.query_one("#ocean", CardRow).show(view["ocean"], self.flow.picked_ocean)
        tokens = show.token_lines(view, you)
        self.query_one("#tokens", Static).update(Text("\n").join(tokens))
        flash = self.flow.flash[0] if self.flow.flash else None
        self.query_one("#gestures", GestureBar).show(view["gesture_names"], view["signals"], flash)
        self._draw_bar(view)

    def _fit(self, title: str, box: Widget) -> str:
        """A border's `title` cut to fit `box`, saying so: in ASCII with `~` (the border would
        cut it with `…`, no ASCII)."""
        room = box.size.width - 4
        if self.ascii and 0 < room < len(title):
            return title[: room - 1] + "~"
        return title

    def _draw_bar(self, view: CrabsView) -> None:
        you = self.seat
        asked = you is not None and you in view["asked"]
        self.query_one("#yes", ActionButton).offer(asked)
        self.query_one("#no", ActionButton).offer(asked)
        roomy = self.app.size.width >= WIDE_BAR  # else the status line needs the whole row
        for name in ("done", "accuse", "signal"):
            self.query_one(f"#{name}", ActionButton).offer(you is not None and roomy and not asked)
        if self.message and self.flow.stale(view):
            self.message = ""
        self.status_line.line = self.flow.status(view, you, self.message, self.names)

    def _say(self, message: str) -> None:
        self.message = prettify(message, self.ascii)
        if self.ascii:
            self.message = self.message.translate(ASCII_PUNCTUATION)
        if self.is_mounted:
            self.flow.said(self._seen())
            self.status_line.line = self.message

    # -- the huddle ---------------------------------------------------------------------------
    def _open_huddle(self) -> None:
        """The huddle's dialog, where only this player sees it; the bots and the clock go on."""
        view = self._seen()
        team, huddle = view["team"], view["huddle"]
        if team is None or huddle is None:  # (a player's, in the huddle)
            return
        partners = [(s, self.names[s]) for s in view["teams"][team] if s != self.seat]
        screen = HuddleScreen(
            view["gesture_names"],
            huddle,
            partners,
            lambda: self.flow.huddle_left(self._seen()),
            self.ascii,
        )
        self.huddle_screen = screen

        def picked(pick: list[str] | None) -> None:
            self.huddle_screen = None
            huddle = self._seen()["huddle"]
            if huddle is None:
                return
            # Seen: it opens by itself again only for a pick the team makes after this one.
            self.flow.huddle_asked = pick or list(huddle.get("proposal", []))
            if pick is None:
                return
            action: SignalAction = {"type": "signal", "name": pick[0]}
            if len(pick) > 1:
                action["also"] = pick[1]
            if self._send(action):
                self._say(f"You picked {show.signal_phrase(pick)} for your team.")

        self._open(screen, picked)

    # -- actions --------------------------------------------------------------------------------
    def _playing(self) -> bool:
        return self.seat is not None and not self.covered and not self.over

    def action_hand(self, index: int) -> None:
        if self._playing():
            self._try_swap(self.flow.pick(self._seen(), "hand", index))

    def action_ocean(self, index: int) -> None:
        if self._playing():
            self._try_swap(self.flow.pick(self._seen(), "ocean", index))

    def _try_swap(self, picked: Swap) -> None:
        if picked.kind == "swap":
            if self._send({"type": "swap", "hand": picked.hand, "ocean": picked.ocean}):
                mine, theirs = crab_name(picked.hand), crab_name(picked.ocean)
                self._say(f"You swapped your {mine} for the {theirs}.")
        elif picked.words:
            self._say(picked.words)
        else:
            self.message = ""
        self._draw()

    def action_unpick(self) -> None:
        self.flow.picked_hand = self.flow.picked_ocean = self.flow.marked_player = None
        self.message = ""
        self._draw()

    def on_card_row_clicked(self, event: CardRow.Clicked) -> None:
        if event.row == "hand":
            self.action_hand(event.index)
        else:
            self.action_ocean(event.index)

    def action_done(self) -> None:
        if self._playing() and self._send({"type": "done"}):
            self._say("You laid your hand down.")
            self._draw()

    def action_gesture(self, index: int) -> None:
        if not self._playing():
            return
        names = self._seen()["gesture_names"]
        if index < len(names):
            self._make_gesture(names[index])

    def on_gesture_bar_chosen(self, event: GestureBar.Chosen) -> None:
        if self._playing():
            self._make_gesture(event.name)

    def _make_gesture(self, name: str) -> None:
        if self._send({"type": "gesture", "name": name}):
            self.flow.gestured(name)
            signal = " (your team's signal)" if name == self._seen()["signal"] else ""
            self._say(f"You {show.gesture_phrase(name)}{signal}.")
            self._draw()

    def action_accuse(self) -> None:
        if not self._playing():
            return
        update = self._update(self.active_seat)
        legal = TYPES.legal(update.legal)
        targets = [action["target"] for action in legal if action["type"] == "accuse"]
        if not targets:
            self._say("There is nobody you may call crabs on now.")
            return
        teams = show.team_of(TYPES.view(update.view))
        mine = teams[self.seat] if self.seat is not None else -1
        options = [
            Option(
                show.player_key(seat),
                f"{self.names[seat]} (team {show.team_name(teams[seat])}"
                + (", your partner)" if teams[seat] == mine else ")"),
                seat,
            )
            for seat in targets
        ]
        chooser = PickDialog(
            "Call \u201cYou've got crabs!\u201d on whom?", options, ascii=self.ascii
        )
        self._open(chooser, self._accuse)

    def _accuse(self, target: int | None) -> None:
        self.flow.marked_player = None
        if target is not None and self._send({"type": "accuse", "target": target}):
            self.message = ""  # the log says how it went

    def on_side_panel_clicked(self, event: SidePanel.Clicked) -> None:
        if not self._playing() or event.seat == self.seat:
            return
        if self.flow.marked_player == event.seat:
            self._accuse(event.seat)
        else:
            self.flow.marked_player = event.seat
            self._say(f"Click {self.names[event.seat]} again to call crabs on them (Esc: no).")
        self._draw()

    def action_answer(self, yes: bool) -> None:
        if self._playing() and self.seat in self._seen()["asked"]:
            self._send({"type": "want_swap", "yes": yes})
            self._draw()

    def action_collect(self) -> None:
        if not self._playing():
            return
        legal = TYPES.legal(self._update(self.active_seat).legal)
        takes = [action for action in legal if action["type"] == "double_take"][:10]
        if not takes:
            self._say("Your team has no double crab to collect.")
            return
        options = [
            Option(
                GESTURE_KEYS[number],
                ", ".join(show.source_label(s, self.names) for s in action["sources"]),
                action,
            )
            for number, action in enumerate(takes)
        ]
        title = f"Double crab! Take {plural(len(takes[0]['sources']), 'token')} from:"
        self._open(PickDialog(title, options, ascii=self.ascii), self._collect)

    def _collect(self, action: DoubleTakeAction | None) -> None:
        if action is not None:
            self._send(action)

    def action_signal(self) -> None:
        """In the huddle, its dialog; in play, the team's signal on the status line."""
        if not self._playing():
            return
        view = self._seen()
        if view["huddle"] is not None:
            if self.huddle_screen is None:
                self._open_huddle()
            return
        self._say(show.signal_words(view))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {
            "yes": lambda: self.action_answer(True),
            "no": lambda: self.action_answer(False),
            "done": self.action_done,
            "accuse": self.action_accuse,
            "signal": self.action_signal,
        }
        actions.get(event.button.id or "", lambda: None)()


def SCREEN(client: TableClient, ascii: bool = False) -> Screen[None]:
    """The crabs table for `client`, or a kind refusal for several humans at one keyboard."""
    if len(client.seats) > 1:
        return OneHumanOnly(client)
    return CrabsScreen(client, ascii=ascii)
