"""The crabs screens besides the table: the team's private signal, the end, one human only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Label, Static

from ..widgets.crabs_table import GESTURE_KEYS
from ..widgets.seats import table_box
from .crabs_view import gesture_phrase, team_name, team_of, winners_line
from .results import GameOver
from .typeahead import TypeAhead


class SignalScreen(TypeAhead, Screen[str | None]):
    """The team's secret signal, chosen where only this player can see: a gesture or Enter to keep.

    Returns the gesture picked (None: keep the signal as it is).
    """

    DEFAULT_CSS = """
    SignalScreen { align: center middle; background: $background; }
    SignalScreen > Vertical { width: 64; max-width: 100%; height: auto; border: round $accent;
        padding: 0 1; }
    SignalScreen.ascii > Vertical { border: ascii $accent; }
    SignalScreen .title { text-style: bold; width: 100%; }
    SignalScreen .hint { color: $text-muted; width: 100%; }
    SignalScreen .option { width: 100%; }
    SignalScreen .option.-current { text-style: bold reverse; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape", "keep", "Keep it"),
        *[Binding(key, f"pick({n})", "Pick", show=False) for n, key in enumerate(GESTURE_KEYS)],
    ]

    def __init__(
        self,
        signal: str,
        gestures: Sequence[str],
        partners: Sequence[str],
        first: bool = False,
        ascii: bool = False,
    ) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.signal = signal
        self.gestures = list(gestures)
        self.partners = list(partners)
        self.first = first
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        arrow = ">" if self.ascii else "▶"
        team = " and ".join(self.partners) or "your team"
        with Vertical() as box:
            box.border_title = "Your team's secret signal"
            yield Label(
                Text(f"Your signal: {gesture_phrase(self.signal)}. Only you and {team} know it."),
                classes="title",
            )
            yield Label(
                "Make it when you hold four of a kind: your partner calls crabs on you and your "
                "team takes a token. Opponents are watching for it!",
                classes="hint",
            )
            for number, (key, name) in enumerate(zip(GESTURE_KEYS, self.gestures, strict=False)):
                current = name == self.signal
                line = f"{arrow if current else ' '} [{key}] {gesture_phrase(name)}"
                yield Static(
                    line + ("  (your signal)" if current else ""),
                    classes="option -current" if current else "option",
                    id=f"gesture-{number}",
                )
            start = "Enter: keep it and start" if self.first else "Enter or Esc: keep it"
            yield Label(f"{start}. A key or a click picks another.", classes="hint")
        yield Footer()

    def action_keep(self) -> None:
        self.dismiss(None)

    def action_pick(self, number: int) -> None:
        if number < len(self.gestures):
            name = self.gestures[number]
            self.dismiss(None if name == self.signal else name)

    def on_click(self, event: events.Click) -> None:
        widget = event.widget
        if widget is not None and widget.id and widget.id.startswith("gesture-"):
            self.action_pick(int(widget.id.removeprefix("gesture-")))


class CrabsOver(GameOver):
    """The game is over: the winning team and every team's tokens; returns "menu" or "quit"."""

    def __init__(self, view: dict[str, Any], names: Sequence[str], ascii: bool = False) -> None:
        super().__init__(ascii)
        self.view = view
        self.names = list(names)

    def _headline(self) -> str:
        return winners_line(self.view, self.names)

    def _table(self) -> Table:
        view = self.view
        you = view.get("seat")
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

    DEFAULT_CSS = """
    OneHumanOnly { align: center middle; }
    OneHumanOnly Label { width: 100%; content-align: center middle; margin-bottom: 1; }
    OneHumanOnly .title { text-style: bold; }
    """
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

    def __init__(self, client: Any) -> None:
        super().__init__()
        self.client = client

    def compose(self) -> ComposeResult:
        yield Label(Text(self.TEXT), classes="title")
        yield Label(Text(self.HINT))
        yield Label(Text("Enter: back to the menu   q: quit"))
        yield Footer()

    def on_mount(self) -> None:
        self.client.discard_save()  # nothing was played: do not offer it for `resume`

    def action_menu(self) -> None:
        self.app.call_later(self.app.show_menu)  # type: ignore[attr-defined]
