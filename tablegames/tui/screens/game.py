"""What every game's table screen shares: following the table, dialogs, the keys, leaving.

A game's screen subclasses `GameScreen`, composes its own widgets and draws its table (`_draw`);
the shell here keeps it up to date, with a few small parts doing one thing each, attributes down
and messages up:

- `TablePort` (`table_port.py`) follows the client: each update is kept as it comes (the log's
  lines, and whatever the game keeps: `_taken`), then `TablePort.Moved` brings the screen up to
  date, once for a run of them; refusals and news of the seats come as messages too;
- `Keyboard` (`keyboard.py`): who plays at this keyboard, and the hot-seat hand-off;
- `SeatLogs` and `Wording` (`table_log.py`): each local seat's log in the game's words;
- `BotPacer` (`pacing.py`): the bots this terminal drives, paused and paced by keys;
- `TypeAhead` (`typeahead.py`): keys belong to the question they were typed at.

After every accepted action `_sync` brings the screen up to date in one order: the screen the
table waits behind comes first (a round's scores, the results, the hot-seat hand-off before
another player's secrets), then the table is drawn, then `_prompt` asks what the game wants
asked. The hooks a game may override are the methods marked "Games ..." below.

Keys and updates may come in any order (a hurried player, a bot moving, a slow network), and
the screen is built so that none can answer a question nobody saw (see `typeahead.py`):
whenever what the player at the keyboard is asked changes — another seat, a hand-off passed,
the table's question for the seat (`Update.asked`) — keys typed before it and in the moment
after it are dropped; screens the table opens by itself do the same; and every action names
the version of the view it was chosen on, so the table refuses one that answered an older
question.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Generic

from textual import events, on
from textual.actions import parse
from textual.binding import Binding, BindingType
from textual.screen import Screen, ScreenResultType
from textual.widgets import Button
from typing_extensions import TypeVar  # (a default for each: PEP 696, in typing from 3.13)

from ...rules import GAMES, Action, Event, GameTypes, View
from ..asks import Farewell, Rematch, ShowMenu
from ..catalogue import screen_class
from ..client import pacing, saving, seat_presence
from ..textual_private import close_to_messages
from ..widgets.keys_footer import FooterKeys, footer_keys
from ..widgets.log import GameLog
from ..widgets.notices import AwayLine, NoticeLine, banner
from ..widgets.status import StatusLine
from .dialogs import PickDialog
from .handoff import Deliberate
from .keyboard import Keyboard, Overlay
from .leaving import quit_dialog, where_saved
from .pacing import APP_PACE_BINDINGS, PACE_BINDINGS, BotPacer
from .results import GameOver, rating_line
from .said import Said
from .size import TooSmall, fit_room, fit_titles, too_small
from .table_log import SeatLogs, Wording
from .table_port import TablePort
from .typeahead import TypeAhead

if TYPE_CHECKING:
    from ...table import Update
    from ..client import TableClient

__all__ = ["ActionButton", "GameScreen", "Overlay", "table_screen"]

#: The keys every game screen ends with, in its footer and in its help (each binding's tooltip
#: is its line in the help: `help.key_rows`).
SHARED_BINDINGS: list[BindingType] = [
    *PACE_BINDINGS,
    Binding("pageup", "log('page', -1)", "Log back", show=False, tooltip="scroll the log back"),
    Binding("pagedown", "log('page', 1)", "Log on", show=False, tooltip="scroll the log on"),
    Binding(
        "home", "log('to_end', False)", "Log start", show=False, tooltip="the log's oldest line"
    ),
    Binding("end", "log('to_end', True)", "Log end", show=False, tooltip="the log's newest line"),
    Binding(  # (a game's own Enter first)
        "enter",
        "results",
        "Results",
        tooltip="once the game is over and its results put aside (Esc): the results again",
    ),
    Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
    Binding("q", "quit", "Quit", tooltip="leave the game"),
]
#: Said (for this long) when a key of the game came as its question changed, and was dropped.
EARLY_KEY = "A key pressed as the table changed was not taken: press it again now."
EARLY_KEY_SHOWN = 3.0
#: The status line while a question waits in a dialog over the table.
DIALOG_WAITS = "Answer the question above (Back, or Esc, goes back)."

#: A game's view, action and event types, as its screen reads the table (`GameScreen.TYPES`);
#: a screen that names none reads the contract's plain data.
ViewT = TypeVar("ViewT", default=View)
ActionT = TypeVar("ActionT", default=Action)
EventT = TypeVar("EventT", default=Event)


class ActionButton(Button, can_focus=False):
    """A button for the mouse that never takes the keyboard away from the table."""

    def offer(self, shown: bool) -> None:
        """Show it when `shown`, to a player who may act: none shows to a spectator, before a
        hand-off, once the game is over, or in a replay (nothing can be done)."""
        table = self.screen
        self.display = shown and isinstance(table, GameScreen) and table.may_act


class GameScreen(TypeAhead, Screen[None], Generic[ViewT, ActionT, EventT]):
    """One table seen from this terminal: hot-seat for several seats, watching for none.

    `humans` are the seats played here; `active_seat` is the one the screen acts for now, and
    the keyboard (`Keyboard`) says whether its player has it: secrets show only then (`private`).
    A game's screen reads and acts in its game's own types (`GameScreen[CratesView,
    CratesAction, CratesEvent]`, with `TYPES` its types module's): `_seen` and `_send`.
    """

    TYPES: GameTypes[ViewT, ActionT, EventT] = GameTypes()  # the game's (`rules/typed.py`)

    GAME: ClassVar[str] = ""  # the game's name, for its rules in the help
    TURN_BASED: ClassVar[bool] = True  # turns to sum up, and bots to pace (not real time)
    GAME_ACTIONS: ClassVar[frozenset[str]] = frozenset()  # the game's own keys' actions
    #: The help's lines that are no key of this screen's (the mouse, a decision's own keys);
    #: its keys' lines are their bindings' tooltips.
    MORE_HELP: ClassVar[tuple[tuple[str, str], ...]] = ()
    WORDING: ClassVar[type[Wording]] = Wording  # how the game says its table in words
    DIALOGS_ABOVE_HAND: ClassVar[bool] = False  # questions stand clear of a hand at the bottom
    #: The actions of this table's keys that work while a question is open over it, typed in
    #: the question or tapped in this footer: help, leaving, the log. A game's own keys wait
    #: for the answer (a game adds any that make sense meanwhile: talk), and so does the bots'
    #: pace (space is no answer to a question, and must not stop the table behind it).
    OVER_QUESTIONS: ClassVar[frozenset[str]] = frozenset(("help", "quit", "log"))
    AUTO_FOCUS = None  # keys go to the table, never to a button or the log
    SHOWS_NOTICES = True  # news and chat show above the table (`NoticeLine`), never over it

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Help and quit come last in every footer: Textual lists a base class's bindings
        # first, so they are added to each game's own list rather than declared here.
        if "BINDINGS" in cls.__dict__:
            own = [binding for binding in cls.BINDINGS if isinstance(binding, Binding)]
            cls.GAME_ACTIONS = frozenset(parse(binding.action)[1] for binding in own)
            cls.BINDINGS = [*cls.BINDINGS, *SHARED_BINDINGS]
        cls.settling = cls.GAME_ACTIONS  # only a game's own keys wait for a question to settle
        super().__init_subclass__(**kwargs)

    def __init__(self, client: TableClient, ascii: bool = False) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.client = client
        self.ascii = ascii
        self.dash = "-" if ascii else "—"
        self.read_only = client.read_only  # nobody plays through this screen (a replay)
        self.humans = sorted(client.seats)
        self.watching = not self.humans  # a spectator: no hand, no actions
        self.active_seat = self.humans[0] if self.humans else 0  # the seat the screen acts for
        self.keyboard = Keyboard(
            self.humans,
            lambda: self.names,
            self._handed,
            self.read_only,
            ascii,
            client.game.private_words if client.game is not None else "secrets",
        )
        self.wording = self.WORDING(lambda: self.names, ascii)
        self.logs = SeatLogs(self.wording)
        self.port = TablePort(client, self, self._table_changed)
        network = seat_presence(client) is not None
        self.bots = BotPacer(pacing(client), self.TURN_BASED, self.read_only, network)
        self.message = ""  # what the status line says
        self.status_line = StatusLine(id="status")  # (a game's screen places it)
        self.covered = 0  # dialogs of ours on top of this screen
        self.seen_version = 0  # the version of the table the player last saw uncovered
        self.looking = False  # the game is over and the player put its results aside
        self.away = False  # the host let a bot play our seat: nothing is asked until we are back
        self._by_itself = False  # screens opened now open by themselves (not at a key)
        self._footer_keys: FooterKeys | None = None  # the keys the footer was last asked to show
        for seat in self.humans or [self.active_seat]:
            self.logs.start(seat, self._update(seat))
        self.over = self._update(self.active_seat).over
        self.port.listen()

    # -- following the table --------------------------------------------------------------------
    def on_mount(self) -> None:
        """Start play (a game's own `on_mount`, naming its panels, comes first)."""
        if self.read_only:  # a replay: the buttons would only say what cannot be done
            for button in self.query(ActionButton):
                button.display = False
        self.mount(NoticeLine())  # news and chat, above the table: never over it
        network = seat_presence(self.client)
        if network is not None:  # a network table: who is away shows over it
            away = AwayLine(network)
            self.client.listen_notices(away.seats_news)
            self.mount(away)
        self.mount(self.bots)
        fit_room(self, self.min_size()[1])
        # The bots start once the table is on the screen: thinking before, they held up the
        # first paint (their views and a thread sharing the interpreter with the drawing).
        self.call_after_refresh(self.bots.start)
        self._sync()
        self.check_size()

    def on_resize(self) -> None:
        if not self.is_mounted or self.port.closed:
            return
        fit_room(self, self.min_size()[1])
        self._draw()
        if self.ascii:
            self.call_after_refresh(fit_titles, self)
        self.check_size()

    def check_size(self) -> None:
        """Cover the table with `TooSmall` while the terminal is smaller than the game needs:
        a table drawn garbled must not take keys either."""
        stack = self.app.screen_stack
        if self.port.closed or self.read_only or any(isinstance(s, TooSmall) for s in stack):
            return
        needed = self.min_size()
        if too_small(self.app.size, needed):  # (q on it asks to leave)
            cramped = TooSmall(needed, "x" if self.ascii else "×")
            leave = self.action_quit
            self._open(cramped, lambda choice: self.call_later(leave) if choice == "quit" else None)

    def on_unmount(self) -> None:
        self.close()
        close_to_messages(self)  # (its message loop has ended: a mistake may have ended it)

    def close(self) -> None:
        """Stop following the table and driving its bots (the screen is going away)."""
        self.port.close()
        self.bots.finish()

    @property
    def names(self) -> list[str]:
        return list(self.client.names)

    @property
    def private(self) -> bool:
        """True when the player at the keyboard may see the active seat's secrets."""
        return self.keyboard.shows(self.active_seat)

    @property
    def may_act(self) -> bool:
        """True when the player at the keyboard may play the active seat now."""
        return self.private and not self.over and not self.read_only

    def _update(self, seat: int) -> Update:
        return self.port.update(seat)

    def _seen(self, seat: int | None = None) -> ViewT:
        """A seat's view (the active one's by default), as the game's own type."""
        return self.TYPES.view(self._update(self.active_seat if seat is None else seat).view)

    def _send(self, action: ActionT) -> bool:
        """Submit `action` for the active seat (see `_submit`), built as the game's own type."""
        return self._submit(self.TYPES.plain(action))

    def _table_changed(self, seat: int | None, update: Update) -> None:
        """Keep what the table tells a local seat after an accepted action (the port then
        brings the screen up to date)."""
        seat = self.active_seat if seat is None else seat
        self.logs.take(seat, update)
        if update.over:
            self.over = True
            self.bots.done = True
        self._taken(seat, update)

    @on(TablePort.Moved)
    def _sync(self) -> None:
        """Bring the screen up to date: what covers the table first, then the table, then any
        question for the player."""
        if self.port.closed:
            return
        self._choose_seat()
        if self.TURN_BASED and not self.read_only:
            updates = {seat: self._update(seat) for seat in self.humans}
            self.logs.note_turns(updates, self.query_one("#log", GameLog))
        self.keyboard.follow(self.active_seat)
        overlay = None if self.covered else self._screen_due()
        if overlay is not None and isinstance(overlay[0], Deliberate) and overlay[0].READ_BY_ALL:
            self.keyboard.put_down()  # (a round's scores, the end: over nobody's secrets)
        self._draw()  # a hand is blanked before a hand-off covers the screen
        self.logs.show(self.query_one("#log", GameLog), self.active_seat, self.private)
        if self.ascii:
            fit_titles(self)
        if not self.read_only:  # (a replay's keys are its controls': this footer is hidden)
            self._refresh_footer()  # the footer shows the keys that do something now
        update = self._update(self.active_seat)
        # What the player at the keyboard is asked now: when it changed, keys typed before it
        # and in the moment after it are dropped (`TypeAhead`).
        self.ask((self.active_seat, self.private, self.over, update.asked if self.private else 0))
        if not self.covered:
            self.seen_version = update.version
        self._by_itself = True  # what opens now opens by itself
        try:
            if overlay is not None:
                self._open(*overlay)
            elif not self.covered and not self.read_only and not self.away:
                self._prompt()
        finally:
            self._by_itself = False

    def on_said(self, said: Said) -> None:
        """What a part of the table has to say for the status line (the bots); and the one
        place a refusal of an action or claim of ours is said, whatever the client, in the
        game's words (over a dialog, in a banner too: the status line is the dialog's then)."""
        said.stop()
        if not said.refusal:
            self._say(said.text)
            return
        self._say(refusal_mark(self.ascii) + self.wording.line({"text": said.text, "to": None}))
        if self.covered:
            banner(self.app, self.message)

    def dropped(self, event: events.Key, first: bool) -> None:
        """A key of the game typed as its question changed was dropped: say so, once for the
        question and briefly (a banner), so a key that did nothing is not a mystery."""
        if first and self.may_act:
            banner(self.app, EARLY_KEY, seconds=EARLY_KEY_SHOWN)

    def _handed(self, seat: int | None) -> None:
        """The player the hand-off named last has the keyboard (None: they chose to quit). If
        the table has since moved on to another seat, the next sync hands it on again."""
        if seat is None:
            self.action_quit()
            return
        self.message = ""
        self._keyboard_passed()

    # -- what a game says and does (games override these) ---------------------------------------
    def _taken(self, seat: int, update: Update) -> None:
        """`update` came for `seat` (its log lines are kept). Games keep more."""

    def _choose_seat(self) -> None:
        """Act for the first local seat the table waits for. Games with other turns override."""
        waiting = sorted(seat for seat in self.client.waiting_for() if seat in self.humans)
        if waiting:
            self.active_seat = waiting[0]

    def _screen_due(self) -> Overlay | None:
        """What the table waits behind: the results once the game is over, else a hand-off.
        Games add their own (a round's scores)."""
        if self.over:
            self.bots.finish()  # nothing is left for them to do
            if self.looking:  # (reading the table and its log: Enter brings the results back)
                return None
            results = self._results()
            if isinstance(results, GameOver):
                results.ratings = rating_line(self.client.rating_changes(), self.names)
            return results, self._leave
        return self.keyboard.hand_off(self.active_seat)

    def _keyboard_passed(self) -> None:
        """The active seat's player has the keyboard. Games forget the last player's picks."""

    def _prompt(self) -> None:
        """Ask the player whatever the table, drawn and uncovered, waits for. Games override."""

    def _results(self) -> Screen[str]:
        """The screen that ends the game, answering "quit" or "menu". Games override."""
        raise NotImplementedError

    def _draw(self) -> None:
        """Draw the whole table as the active seat may see it. Games override."""
        raise NotImplementedError

    def min_size(self) -> tuple[int, int]:
        """The smallest terminal (columns, rows) the table fits in. Games with more to show
        override."""
        return (60, 20)

    def _offers(self, action: str) -> bool:
        """True if the game's key for `action` does something now, for a player who may act
        (it stays out of the footer otherwise). Games whose keys come and go override."""
        return True

    # -- saying things --------------------------------------------------------------------------
    def _say(self, message: str) -> None:
        """Put `message` on the status line. Games also note when it goes stale."""
        self.message = message
        self.status_line.line = message

    # -- dialogs --------------------------------------------------------------------------------
    def _open(
        self,
        screen: Screen[ScreenResultType],
        then: Callable[[ScreenResultType | None], object] | None = None,
    ) -> None:
        """Push `screen` over this one; `then(result)` runs when it closes, then a fresh sync.

        A screen that opens by itself (from `_sync`: the table's question, a hand-off, the
        results) drops keys typed before it and in the moment after (`TypeAhead.ask_anew`);
        one opened by the player's own key takes the keys they typed with it.
        """
        if self.port.closed or self not in self.app.screen_stack:
            return  # this table's screen is going (back to the lobby): nothing opens over it
        if isinstance(screen, PickDialog) and not screen.options:  # (the table moved on)
            self._say("There is nothing to choose from now.")
            if then is not None:
                then(None)
            return
        self.covered += 1
        if self._by_itself and isinstance(screen, TypeAhead):
            screen.ask_anew()
        if isinstance(screen, PickDialog):
            screen.set_class(self.DIALOGS_ABOVE_HAND, "-above-hand")  # the hand in sight
            if self.message.startswith(refusal_mark(self.ascii)):  # why, kept in sight over it
                banner(self.app, self.message)
            self._say(DIALOG_WAITS)  # what the status line said to do is done or not to be done

        def closed(result: Any) -> None:
            self.covered -= 1
            if self.message == DIALOG_WAITS:
                self.message = ""
            if then is not None:
                then(result)
            self._sync()

        self.app.push_screen(screen, closed)

    # -- keys -----------------------------------------------------------------------------------
    def _refresh_footer(self) -> None:
        """Redraw the footer when the keys that do something changed: each redraw mounts
        every key again, which most updates of the table do not need."""
        keys = footer_keys(self) if self.app.app_focus else None  # (unfocused: it waits)
        if keys is None or keys != self._footer_keys:
            self._footer_keys = keys
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The game's keys only for a player who may act here (not a spectator, not before
        the hand-off, not once the game is over) and when they do something now; they stay
        out of the footer otherwise."""
        if action == "pause_bots":
            return self.is_mounted and self.bots.paced_here
        if action == "pace":  # (it says what pace, or why there is none to set)
            return self.is_mounted and not self.read_only
        if action == "results":
            return self.looking
        if action in self.GAME_ACTIONS:
            return self.may_act and self._offers(action)
        return True

    def _submit(self, action: dict[str, object]) -> bool:
        """Send `action` for the active seat: True if sent (a refusal comes up as a `Said`,
        from a table on this machine as from one over the network)."""
        if self.watching:
            self._say("You are watching: you cannot act.")
            return False
        self.client.submit(self.active_seat, action, self.seen_version)
        self.message = ""
        # What the player goes on to choose (a peeked card's way on) is chosen on the view
        # their own move made: a table on this machine has it already, a server sends it.
        self.seen_version = self._update(self.active_seat).version
        return True

    def action_pause_bots(self) -> None:
        said = self.bots.pause()
        if said is not None:
            self._say(said)

    def action_pace(self, step: int) -> None:
        """Bots slower (1) or faster (-1); says the pace, or why there is none to set here, on
        the status line (over a dialog, in a banner)."""
        said = self.bots.step(step)
        if said is not None:
            self._say(said)
            if self.covered:
                banner(self.app, said)

    def action_log(self, how: str, argument: int | bool) -> None:
        """Scroll the log: `page` back (-1) or on (1), or `to_end`, the oldest (False) or the
        newest (True)."""
        log = self.query_one("#log", GameLog)
        if how == "page":
            log.page(int(argument))
        else:
            log.to_end(bool(argument))

    def action_results(self) -> None:
        """The end of the game again, after the player put it aside to read the table."""
        self.looking = False
        self._sync()

    def action_help(self) -> None:
        game = self.client.game
        name, title = (game.name, game.title) if game is not None else (self.GAME, "This game")
        from .help import HelpScreen, key_rows  # (with the rule book: when asked for)

        # This table's keys, its other lines, then the keys of every table (the bots' pace
        # where they are paced: a real-time game's space is its own).
        paced = self.TURN_BASED and not self.read_only
        own = [binding for binding in self.BINDINGS if binding not in SHARED_BINDINGS]
        shared = [b for b in SHARED_BINDINGS if paced or b not in PACE_BINDINGS]
        pace = APP_PACE_BINDINGS if paced else []
        rows = [*key_rows(own), *self.MORE_HELP, *key_rows(pace), *key_rows(shared)]
        self._open(HelpScreen(name, title, rows, self.ascii))

    def action_quit(self) -> None:
        party = bool(getattr(self.app, "in_party", False))
        dialog = quit_dialog(self.client, self.watching, party, self.ascii)
        held = self.bots.paced_here and not self.bots.paused  # nobody plays on behind it
        if held:
            self.bots.stop()
        self._open(dialog, lambda choice: self._leave(choice, held))

    def _leave(self, choice: str | None, held: bool = False) -> None:
        """Leave the table as the player chose (None: stay, and bots `held` for the question
        play on): quit the app, forget the saved game and quit, a rematch (a party game), or
        back to the menu."""
        if choice is None:
            if held:
                self.bots.start()
            return
        if choice == "look":  # (the results put aside: the table and its log, read at leisure)
            self.looking = True
            self._say("The game is over: Enter shows the results again.")
            return
        saved = saving(self.client)
        if choice == "discard" and saved is not None:
            saved.discard_save()
        self.close()
        if choice in ("quit", "discard"):
            server = getattr(self.app, "server", None)
            port = server.port if server is not None else None
            self.app.post_message(Farewell(where_saved(self.client, self.over, port)))
        elif choice == "rematch":
            self.app.post_message(Rematch())
        else:
            self.app.post_message(ShowMenu())


def refusal_mark(ascii: bool) -> str:
    """What starts a refusal on the status line."""
    return "x " if ascii else "✗ "


def table_screen(client: TableClient, ascii: bool = False) -> GameScreen:
    """The screen that plays `client`'s game; ValueError if there is none yet.

    A game names its screen (`Game.screen`); a game without one is drawn by
    `screens/generic.py`.
    """
    game = client.game
    if game is not None and game.name in GAMES:
        screen: GameScreen = screen_class(game.name)(client, ascii=ascii)
        return screen
    title = game.title if game is not None else "this game"
    raise ValueError(f"there is no screen for {title} yet")
