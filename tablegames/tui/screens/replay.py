"""Watching a finished game again: the game's own table screen under a bar of replay controls.

The table screen is the one the game is played on, fed by a `ReplayClient`, so a replay looks
exactly like the game did from that seat (or from a spectator's chair, with every hand listed
in a panel, for `--all`). `ReplayScreen` lies over it with a transparent background: it takes
every key, so the table's own keys (play, draw...) never fire. Moving forward plays the table on
like a live game (its log grows, a round's scores show when a round ends); moving back deals a
fresh table screen at the earlier position, since a live table's log only ever grows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Label, RichLog, Static

from ...replay import Replay, ReplayClient, private_line
from ..asks import ShowMenu
from ..widgets.card import prettify
from ..widgets.footer import Footer
from .dialogs import BackButton, Dialog
from .game import table_screen
from .help import HelpScreen
from .size import BUTTONS_FROM
from .typeahead import TypeAhead, pass_on, press_now

if TYPE_CHECKING:
    from textual.app import App

LAYOUT_WAIT = 50  # refreshes to wait for a fresh table to be laid out before scrolling its logs
RED_CARD = r"\b(10|[2-9AJQK])[HD♥♦]"  # a card of a red suit, as `prettify` writes it
KEYS = [
    ("n or .", "next step: the next action"),
    ("p or ,", "previous step"),
    ("]", "start of the next round (the end, in the last round)"),
    ("[", "start of this round, or of the one before when already there"),
    ("g", "go to: a round (3), a step (s120) or a point in the game (50%)"),
    ("< / >", "the deal / the end of the game"),
    ("PgUp PgDn", "scroll the log back and on"),
    ("Home End", "the log's oldest line, and back to its newest"),
    ("?", "this help"),
    ("q", "leave the replay"),
]


class GoToDialog(TypeAhead, Dialog[int | None]):
    """Ask where to go: a round, a step or a percentage; returns the position, or None."""

    CSS_PATH = "replay.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", show=False)]

    def __init__(self, replay: Replay, ascii: bool = False) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.replay = replay

    def compose(self) -> ComposeResult:
        title = "Go to round" if self.replay.has_rounds else "Go to step"
        with Vertical():
            yield Label(title, classes="title")
            example = "3, s12, 50% or end" if self.replay.has_rounds else "12, 50% or end"
            yield Input(placeholder=example, id="goto-input")
            yield Label(Text(f"Type {self.replay.find_hint()}."), classes="hint")
            with Horizontal(classes="foot"):
                yield Label("Enter goes there, Escape stays.", classes="hint")
                yield BackButton()
            yield Label("", id="goto-error")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    async def on_key(self, event: events.Key) -> None:
        """Keys typed before the field took the keyboard (`g` then `s120` at once) go in it."""
        if pass_on(self, event):
            return
        field = self.query_one(Input)
        if event.is_printable and event.character:  # the field would have taken it
            event.stop()
            event.prevent_default()
            field.focus()
            field.insert_text_at_cursor(event.character)
        elif event.key == "enter" and not field.has_focus:
            event.stop()
            event.prevent_default()
            self._go_to(field.value)
        else:
            await press_now(self, event)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._go_to(event.value)

    def _go_to(self, text: str) -> None:
        try:
            step = self.replay.find(text)
        except ValueError as problem:
            self.query_one("#goto-error", Label).update(Text(f"{problem}."))
            return
        self.dismiss(step)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReplayScreen(TypeAhead, Screen[None]):
    """Replay controls over the game's table screen: step, jump by round, go to, leave."""

    CSS_PATH = "replay.tcss"
    AUTO_FOCUS = None
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,full_stop", "step(1)", "Next", key_display="n"),
        Binding("p,comma", "step(-1)", "Back", key_display="p"),
        Binding("right_square_bracket", "round(1)", "Round", key_display="]"),
        Binding("left_square_bracket", "round(-1)", "Round back", key_display="["),
        Binding("g", "go_to", "Go to"),
        Binding("less_than_sign", "go(0)", "Deal", show=False),
        Binding("greater_than_sign", "go(-1)", "End", show=False),
        # The log's keys are the table's, as in the game (Home once went to the deal).
        Binding("pageup", "log('page', -1)", "Log back", show=False),
        Binding("pagedown", "log('page', 1)", "Log on", show=False),
        Binding("home", "log('to_end', False)", "Log start", show=False),
        Binding("end", "log('to_end', True)", "Log end", show=False),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "leave", "Quit"),
    ]

    def __init__(
        self,
        replay: Replay,
        seat: int | None = None,
        ascii: bool = False,
        step: int = 0,
        alone: bool = False,
    ) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.replay = replay
        self.alone = alone  # the app was opened on it: leaving it is leaving the app
        self.seat = seat  # None: a spectator's table, every hand in the panel
        self.ascii = ascii
        self.client = ReplayClient(replay, seat, step)
        self._table_due = False  # a fresh table is to go under the controls
        self.table = table_screen(self.client, ascii)  # the table under the controls

    @property
    def step(self) -> int:
        """The position shown: 0 is the deal, i the state after the i-th action."""
        return self.client.step

    def open(self, app: App[None]) -> None:
        """Show the table at the current step with these controls over it."""
        app.install_screen(self, name=f"replay-{id(self)}")  # kept while the table is replaced
        app.push_screen(self.table)
        app.push_screen(self)

    # -- drawing ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Vertical(id="replay-controls"):
            if self.seat is None:
                yield Static(id="replay-hands")
            yield Static(id="replay-bar")
            yield Footer()

    def on_mount(self) -> None:
        self._draw()

    def on_resize(self) -> None:
        self.query_one(Footer).compact = self.app.size.width < BUTTONS_FROM  # q stays in sight

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self._table_due:
            self.call_after_refresh(self._put_table)

    def _draw(self) -> None:
        self.query_one("#replay-bar", Static).update(self._bar_text())
        if self.seat is None:
            self._draw_hands()

    def _bar_text(self) -> Text:
        """`Replay: step 37/392 · round 3 of 8 · as Sara · Ada (bot) plays 5♥.`"""
        replay, step = self.replay, self.step
        parts = [f"Replay: step {step}/{replay.last}"]
        number = replay.round_of(step)
        if number is not None:
            parts.append(f"round {number} of {max(replay.round_starts())}")
        parts.append("every hand" if self.seat is None else f"as {replay.names[self.seat]}")
        if step == replay.last:
            winners = replay.winners()
            parts.append(f"game over, {' and '.join(winners)} won" if winners else "game over")
        elif step == 0:
            parts.append("the deal")
        else:
            seen = replay.events(step, self.seat)
            acted = f"{replay.names[replay.steps[step - 1].seat]} acted"
            parts.append(self.table.wording.line(seen[0]) if seen else acted)
        dot = " - " if self.ascii else " · "
        text = Text(dot.join(parts), no_wrap=True, overflow="ellipsis")
        text.stylize("bold", 0, len(parts[0]))
        room = self.app.size.width - 2  # the bar's padding
        if self.ascii and text.cell_len > room:  # cut, and say so (the CSS would write "…")
            text = text[: max(0, room - 3)] + Text("...")
        return text

    def _draw_hands(self) -> None:
        """The panel of every seat's private information (only when the replay shows all)."""
        replay, step = self.replay, self.step
        panel = self.query_one("#replay-hands", Static)
        width = max(len(name) for name in replay.names)
        waiting = replay.state(step).waiting_for()
        mark = ">" if self.ascii else "▶"
        lines = []
        for seat, name in enumerate(replay.names):
            view = replay.view(step, seat)
            secret = self.table.wording.secret(view) or prettify(
                private_line(replay, step, seat), self.ascii
            )
            pointer = mark if seat in waiting else " "
            line = Text(f"{pointer} {name.ljust(width)}  {secret}", no_wrap=True)
            if not self.app.no_color:  # red suits in red, as in the hand (the mark says it too)
                line.highlight_regex(RED_CARD, "bold red")
            lines.append(line)
        panel.update(Text("\n").join(lines))
        panel.border_title = "Every hand" if "hand" in replay.view(step, 0) else "Every seat"

    # -- moving -------------------------------------------------------------------------------
    def go(self, step: int) -> None:
        """Show position `step` (clamped to the game); a bell when already there."""
        step = self.replay.clamp(step)
        if step == self.step:
            self.app.bell()
            return
        if step > self.step:
            self.client.go(step)  # the table plays on: its log grows as in the game
        else:
            # A live table's log only grows: going back needs a table dealt afresh. Several
            # steps back in a row share one new table, put in place once the keys are handled.
            self.client = ReplayClient(self.replay, self.seat, step)
            self._table_due = True
            self.call_after_refresh(self._put_table)
        self._draw()

    def _put_table(self) -> None:
        """Put a fresh table screen for the current step under these controls, if one is due."""
        app = self.app
        if not self._table_due or app.screen is not self:  # a dialog is open: when it closes
            return
        self._table_due = False
        fresh = self.table = table_screen(self.client, self.ascii)
        self.run_worker(self._swap_table(fresh), name="table", group="table")

    async def _swap_table(self, fresh: Screen[None]) -> None:
        """Replace the table under these controls by `fresh`, showing nothing half-built."""
        app = self.app
        # Nothing is drawn until the new table is composed: the old one stays in sight.
        with app.batch_update():
            # These change the stack at once; nothing can come in between.
            app.pop_screen()
            swapped = app.switch_screen(fresh)
            app.push_screen(self)
            await swapped
        fresh.call_after_refresh(self._settle, fresh)

    def _settle(self, fresh: Screen[None], waited: int = 0, ready: bool = False) -> None:
        """Scroll a fresh table's logs to their newest line once it has been laid out.

        Under these controls a log's own scroll to the end comes before its scrollbars are
        placed, and is refused; so it is done again here, a refresh after the logs are sized.
        """
        if not fresh.is_attached:  # already replaced by a newer table
            return
        logs = [log for log in fresh.query(RichLog) if log.auto_scroll]
        laid_out = all(log.size.area for log in logs)
        if waited < LAYOUT_WAIT and not (laid_out and ready):
            fresh.call_after_refresh(self._settle, fresh, waited + 1, laid_out)
            return
        for log in logs:
            log.scroll_end(animate=False, immediate=True, force=True)

    def action_step(self, by: int) -> None:
        self.go(self.step + by)

    def action_round(self, way: int) -> None:
        replay = self.replay
        if not replay.has_rounds:  # no rounds: a tenth of the game at a time
            self.go(self.step + way * max(1, replay.last // 10))
        elif way > 0:
            self.go(replay.next_round(self.step))
        else:
            self.go(replay.previous_round(self.step))

    def action_go(self, step: int) -> None:
        self.go(self.replay.last if step < 0 else step)

    def action_log(self, how: str, argument: int | bool) -> None:
        """Scroll the table's log (`page` by pages, `to_end` to an end), as the table's own
        keys do in the game."""
        self.table.action_log(how, argument)

    def action_go_to(self) -> None:
        def chosen(step: int | None) -> None:
            if step is not None and step != self.step:
                self.go(step)

        self.app.push_screen(GoToDialog(self.replay, self.ascii), chosen)

    def action_help(self) -> None:
        game = self.replay.game
        self.app.push_screen(HelpScreen(game.name, f"{game.title} replay", KEYS, self.ascii))

    def action_leave(self) -> None:
        if self.alone:
            self.app.exit()
            return
        self.app.post_message(ShowMenu())  # opened from the menu: back to it, and then...
        self.app.call_later(self.app.uninstall_screen, self)  # ...gone (once off the stack)
