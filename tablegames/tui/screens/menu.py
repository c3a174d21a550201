"""The opening menu: the games that can be played, the ones still coming, their rules, the
games saved on this machine to continue, and finished ones to watch again."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from ...rules import get_game
from ...words import moment_words
from ..catalogue import Listing, listings
from ..widgets.footer import Footer
from .dialogs import Option as Choice
from .dialogs import PickDialog
from .help import HelpScreen

if TYPE_CHECKING:
    from ...store import FinishedGame

SAVED_SHOWN = 9  # the newest unfinished (or finished) games offered (keys 1-9)


class GamesDialog(PickDialog[int]):
    """Saved games to choose from: wide, each game on one line with its players."""

    CSS_PATH = "menus.tcss"


class MenuScreen(Screen[None]):
    """Choose a game: Enter sets it up, r shows its rules, c continues a saved one, w replays a
    finished one, q quits."""

    CSS_PATH = "menus.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", "Play", show=False),
        Binding("r", "rules", "Rules"),
        Binding("c", "resume", "Continue"),
        Binding("w", "watch", "Replays"),
        Binding("h", "host", "Host a network game"),
        Binding("j", "join", "Join one"),
        Binding("q", "quit", "Quit"),
        Binding("escape", "back", "Back", show=False),
    ]

    def __init__(self, ascii: bool = False) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.ascii = ascii
        self.entries = listings()

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("tablegames", id="name")
            yield Label(
                "Card games at one terminal or over the network: humans and bots", id="tagline"
            )
            yield OptionList(*[self._option(entry) for entry in self.entries], id="games")
            yield Label("", id="blurb")
        yield Footer()

    def _option(self, entry: Listing) -> Option:
        return Option(self._prompt(entry, False), id=entry.name)  # rules readable for all

    def _prompt(self, entry: Listing, highlighted: bool) -> Text:
        dash = "-" if self.ascii else "–"
        players = f"{entry.min_players}{dash}{entry.max_players} players"
        pointer = (">" if self.ascii else "▶") if highlighted else " "
        return Text(f"{pointer} {entry.title:<23} {players:<13} Enter to play")

    def on_mount(self) -> None:
        games = self.query_one("#games", OptionList)
        games.border_title = "Games"
        games.focus()
        games.highlighted = 0
        self._describe(self.entries[0])

    def _describe(self, entry: Listing) -> None:
        """Point at `entry` (not by colour alone) and show its blurb."""
        games = self.query_one("#games", OptionList)
        for other in self.entries:
            games.replace_option_prompt(other.name, self._prompt(other, other is entry))
        self.query_one("#blurb", Label).update(Text(f"{entry.title}: {entry.blurb}"))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._describe(self._entry(event.option_id))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._start(self._entry(event.option_id))

    def _entry(self, name: str | None) -> Listing:
        return next(entry for entry in self.entries if entry.name == name)

    def _highlighted(self) -> Listing:
        games = self.query_one("#games", OptionList)
        return self.entries[games.highlighted or 0]

    def _start(self, entry: Listing) -> None:
        from .setup import SetupScreen

        self.app.push_screen(SetupScreen(entry.name, ascii=self.ascii))

    def action_play(self) -> None:
        self._start(self._highlighted())

    def action_rules(self) -> None:
        entry = self._highlighted()
        self.app.push_screen(HelpScreen(entry.name, entry.title, ascii=self.ascii))

    def action_resume(self) -> None:
        from ...local import saved_label
        from ...store import Store

        saved = Store().open_tables("local")[-SAVED_SHOWN:][::-1]
        if not saved:
            self.query_one("#blurb", Label).update(Text("No unfinished games on this machine."))
            return
        options = [
            Choice(str(number), saved_label(entry), entry.id)
            for number, entry in enumerate(saved, start=1)
        ]
        self._choose("Continue which game?", options, "to play on", self._resume)

    def _choose(
        self,
        title: str,
        options: list[Choice[int]],
        then: str,
        chosen: Callable[[int | None], None],
    ) -> None:
        """Ask which of `options` (games by id), saying what choosing one does."""
        keys = "1" if len(options) == 1 else f"1-{len(options)}"
        hint = f"Press {keys}, or arrows and Enter, {then}."
        self.app.push_screen(GamesDialog(title, options, hint, ascii=self.ascii), chosen)

    def _resume(self, table_id: int | None) -> None:
        if table_id is None:
            return
        from ...local import resume_local
        from ...store import Store
        from .game import table_screen

        try:
            client = resume_local(Store(), table_id)
        except KeyError:  # forgotten since the list was made (another terminal discarded it)
            self.query_one("#blurb", Label).update(Text("That game is no longer saved."))
            return
        except ValueError as problem:
            self.query_one("#blurb", Label).update(Text(f"Cannot continue: {problem}."))
            return
        self.app.push_screen(table_screen(client, self.ascii))

    def action_watch(self) -> None:
        from ...store import Store

        finished = Store().history(SAVED_SHOWN)
        if not finished:
            self.query_one("#blurb", Label).update(Text("No finished games to watch yet."))
            return
        options = [
            Choice(str(number), _finished_label(entry), entry["id"])
            for number, entry in enumerate(finished, start=1)
        ]
        self._choose("Watch which game again?", options, "to replay it", self._watch)

    def _watch(self, table_id: int | None) -> None:
        if table_id is None:
            return
        from ...replay import Replay
        from ...store import Store
        from .replay import ReplayScreen

        try:
            replay = Replay.load(Store(), table_id)
        except ValueError as problem:
            self.query_one("#blurb", Label).update(Text(f"Cannot replay: {problem}."))
            return
        ReplayScreen(replay, replay.seat_named(None), ascii=self.ascii).open(self.app)

    def action_host(self) -> None:
        from .network import HostScreen

        self.app.push_screen(HostScreen(ascii=self.ascii))

    def action_join(self) -> None:
        from .network import JoinScreen

        self.app.push_screen(JoinScreen(ascii=self.ascii))

    def action_quit(self) -> None:
        self.app.exit()

    def action_back(self) -> None:
        """Esc goes back from a question; the menu is where everything starts, so it says how
        to leave rather than leaving without a word (q, as the footer shows)."""
        self.query_one("#blurb", Label).update(
            Text("This is the first screen: q quits tablegames.")
        )


def _finished_label(entry: FinishedGame) -> str:
    """A finished game in a few words, with the id `tablegames history` and `replay` know it by:
    `Crates #5: Sara won, 2026-11-30 06:03`."""
    when = moment_words(entry["finished"])
    names = entry["winners"] or ["nobody"]
    won = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"{get_game(entry['game']).title} #{entry['id']}: {won} won, {when}"
