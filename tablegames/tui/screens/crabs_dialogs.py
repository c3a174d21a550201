"""The crabs screens besides the table: the team's huddle, the end, one human only."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Label, Static

from ...rules.crabs_types import CrabsView, HuddleView
from ..asks import ShowMenu
from ..client import TableClient, saving
from ..widgets.crabs_table import GESTURE_KEYS
from ..widgets.footer import Footer
from ..widgets.seats import table_box
from .crabs_view import gesture_phrase, signal_phrase, team_name, team_of, winners_line
from .results import ViewOver
from .typeahead import TypeAhead

if TYPE_CHECKING:
    from ..client import TableClient


class HuddleScreen(TypeAhead, Screen[list[str] | None]):
    """The team's huddle before play, where only this player sees: pick one gesture or two as
    the team's secret signal, or agree with the team's pick.

    Returns the pick (a list of one or two gestures), or None: not now (the huddle goes on, and
    `t` opens this again). The table keeps its clock running: the huddle has a time limit.
    """

    CSS_PATH = "crabs.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "send", "Pick"),
        Binding("escape", "later", "Not now"),
        *[Binding(key, f"choose({n})", "Choose", show=False) for n, key in enumerate(GESTURE_KEYS)],
    ]

    def __init__(
        self,
        gestures: Sequence[str],
        huddle: HuddleView,
        partners: Sequence[tuple[int, str]],
        seconds_left: Callable[[], float],
        ascii: bool = False,
    ) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.gestures = list(gestures)
        self.huddle = huddle
        self.partners = list(partners)  # (seat, name) of the teammates
        self.seconds_left = seconds_left
        self.ascii = ascii
        self.chosen: list[str] = []
        self.ended = False  # the huddle is over: close as soon as this is on top
        self.closing = False  # dismissed already

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Your team's huddle: your secret signal"
            yield Label(
                "Pick your team's secret signal: one gesture, or two (either then means four of "
                "a kind). It is fixed once play begins.",
                classes="title",
            )
            yield Label(id="team", classes="hint")
            count = min(len(GESTURE_KEYS), len(self.gestures))
            half = (count + 1) // 2
            with Horizontal(classes="gestures"):  # two columns: it fits a short terminal
                for column in (range(half), range(half, count)):
                    with Vertical(classes="column"):
                        for number in column:
                            yield Static(id=f"gesture-{number}", classes="option")
            yield Label(
                "Every other gesture is a decoy: make them to mislead your opponents.",
                classes="hint",
            )
            yield Label(id="how", classes="hint")
            yield Label(id="clock", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        self._show()
        self.set_interval(1.0, self._tick)

    def on_screen_resume(self) -> None:
        self._close_if_ended()

    def show_team(self, huddle: HuddleView) -> None:
        """The team's pick changed (a partner picked): show it."""
        self.huddle = huddle
        if self.is_mounted:
            self._show()

    def end(self) -> None:
        """The huddle is over: close now if on top, else as soon as it is."""
        self.ended = True
        self._close_if_ended()

    def _close_if_ended(self) -> None:
        # Once only, and only from the top of the stack: a resume that arrives after this
        # screen was closed (it closed while still opening) must not close the table under it.
        if self.ended and not self.closing and self.is_current:
            self.closing = True
            self.dismiss(None)

    def _show(self) -> None:
        proposal = list(self.huddle.get("proposal", []))
        picks = self.huddle.get("picks", {})
        said = []
        for seat, name in self.partners:
            theirs = picks.get(str(seat))
            said.append(f"{name}: {signal_phrase(theirs)}" if theirs else f"{name}: no pick yet")
        team = f"Your team's pick (*): {signal_phrase(proposal)}. " + "; ".join(said) + "."
        self.query_one("#team", Label).update(Text(team))
        arrow = ">" if self.ascii else "▶"
        for number, (key, name) in enumerate(zip(GESTURE_KEYS, self.gestures, strict=False)):
            chosen = name in self.chosen
            line = f"{arrow if chosen else ' '} [{key}] {gesture_phrase(name)}"
            if name in proposal:
                line += " *"
            option = self.query_one(f"#gesture-{number}", Static)
            option.update(Text(line))
            option.set_class(chosen, "-chosen")
        if self.chosen:
            how = f"Enter: pick {signal_phrase(self.chosen)}. "
        else:
            how = f"Enter: agree with {signal_phrase(proposal)}. "
        most = int(self.huddle["most"])
        how += f"1-0: choose ({most} at most). Esc: not now (t opens this again)."
        self.query_one("#how", Label).update(Text(how))
        self._tick()

    def _tick(self) -> None:
        left = max(0, round(self.seconds_left()))
        dealt = gesture_phrase(self.huddle["dealt"])
        self.query_one("#clock", Label).update(
            Text(f"About {left} s left; a team that has not agreed by then keeps {dealt}.")
        )

    def action_choose(self, number: int) -> None:
        if number >= len(self.gestures):
            return
        name = self.gestures[number]
        if name in self.chosen:
            self.chosen.remove(name)
        elif len(self.chosen) < int(self.huddle["most"]):
            self.chosen.append(name)
        else:
            self.chosen[-1] = name
        self._show()

    def action_send(self) -> None:
        if not self.closing:
            self.closing = True
            self.dismiss(list(self.chosen) or list(self.huddle["proposal"]))

    def action_later(self) -> None:
        if not self.closing:
            self.closing = True
            self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        widget = event.widget
        if widget is not None and widget.id and widget.id.startswith("gesture-"):
            self.action_choose(int(widget.id.removeprefix("gesture-")))


class CrabsOver(ViewOver[CrabsView]):
    """The game is over: the winning team and every team's tokens; returns "menu" or "quit"."""

    def _headline(self) -> str:
        return winners_line(self.view, self.names)

    def _table(self) -> Table:
        view = self.view
        you = view["seat"]
        teams = team_of(view)
        table = Table(box=table_box(self.ascii), expand=True)
        table.add_column("Team")
        table.add_column("Players")
        table.add_column("Tokens", justify="right")
        order = sorted(range(len(view["teams"])), key=lambda t: -view["team_tokens"][t])
        for team in order:
            members = ", ".join(self.names[seat] for seat in view["teams"][team])
            mine = " (you)" if you is not None and teams[you] == team else ""
            table.add_row(team_name(team) + mine, members, str(view["team_tokens"][team]))
        return table

    def _hint(self) -> str:
        return "Most tokens wins."


class OneHumanOnly(Screen[None]):
    """Crabs is real time: several humans at one keyboard cannot play it; say so kindly."""

    CSS_PATH = "crabs.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,m", "menu", "Menu"),
        Binding("q", "app.quit", "Quit"),
    ]
    TEXT = (
        "You've Got Crabs is played in real time, so only one human can play at this "
        "keyboard (with bots)."
    )
    HINT = (
        "To play with friends, host a table: `tablegames host crabs`, and each joins from "
        "their own terminal with `tablegames join`."
    )

    def __init__(self, client: TableClient) -> None:
        super().__init__()
        self.client = client

    def compose(self) -> ComposeResult:
        yield Label(Text(self.TEXT), classes="title")
        yield Label(Text(self.HINT))
        yield Label(Text("Enter: back to the menu   q: quit"))
        yield Footer()

    def on_mount(self) -> None:
        saved = saving(self.client)
        if saved is not None:
            saved.discard_save()  # nothing was played: do not offer it for `resume`

    def action_menu(self) -> None:
        self.app.post_message(ShowMenu())
