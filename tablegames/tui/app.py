"""The Textual app: the menu when started bare, or straight to a table for a given client."""

from __future__ import annotations

import inspect
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on
from textual.binding import Binding, BindingType
from textual.screen import Screen, ScreenResultType
from textual.widget import Widget
from textual.widgets import Input

from ..rules import GAMES
from . import asks, page
from .catalogue import screen_class
from .plain import plain_terminal
from .screens.game import GameScreen, table_screen
from .screens.leaving import where_saved
from .screens.pacing import APP_PACE_BINDINGS
from .textual_private import CatchingApp, running_pump
from .widgets.notices import SHOWN_FOR, NoticeLine, Notices

if TYPE_CHECKING:
    from textual.driver import Driver

    from ..drivers import LocalClient
    from ..net.client import RemoteClient
    from ..replay import Replay
    from .client import TableClient
    from .follow import Follow

#: The key that opens the chat line at a network table: no game screen uses it.
CHAT_KEY = "slash"
CHAT_POPUPS = 3  # chat pop-ups on screen at once: a flood cannot fill the screen
CHAT_SHOWN_FOR = 8.0
NOTE_SHOWN = 8.0  # seconds the note a table opens with stays
ASCII_KEYS = {"←": "<-", "→": "->", "↑": "up", "↓": "down", "⏎": "Enter", "←→": "<- ->"}
#: This many mistakes within `PROBLEMS_WINDOW` seconds end the app (drawing afresh is not
#: getting past them).
PROBLEMS_TO_QUIT, PROBLEMS_WINDOW = 3, 30.0
AFRESH = "Something went wrong on that screen, so it was drawn afresh. Sorry!"
GUEST_FAREWELL = "Sorry: something went wrong in this session. The host's log has the details."
STOPPED = "tablegames stopped after a problem it could not get past."
#: The exit status after Ctrl-C, as a shell reports a program stopped by it (128 + SIGINT).
EXIT_INTERRUPTED = 130


class TableGamesApp(CatchingApp[None]):
    """tablegames in the terminal: the menu, a local table (`client`) or a network `remote`."""

    TITLE = "tablegames"
    ENABLE_COMMAND_PALETTE = False
    CSS_PATH = "app.tcss"  # (read with the first screen's: `table_styles`)
    # Screens narrower than a question at its widest (a phone held upright) are `-narrow`:
    # questions then take the screen's width at most (`Dialog` in app.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (72, "-roomy")]  # noqa: RUF012 (as Textual types it)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
        Binding(CHAT_KEY, "chat", "Chat", key_display="/"),
        *APP_PACE_BINDINGS,
    ]

    def __init__(
        self,
        client: LocalClient | None = None,
        ascii: bool = False,
        remote: RemoteClient | None = None,
        lobby: bool = False,
    ) -> None:
        super().__init__(css_path=table_styles(client))
        plain_terminal(self, ascii)
        self.client = client
        self.ascii = ascii
        self.remote = remote
        self.lobby = lobby  # a party session: straight to the lobby
        self.follow: Follow | None = None
        self._chat_popups: list[float] = []  # when each chat pop-up on screen goes away
        self._chat_missed = 0
        self.notices = Notices()  # table news and chat, shown where they cover nothing
        self.farewell = ""  # said in the terminal once the app has closed (where a game went)
        self.problems: list[Exception] = []  # mistakes a screen hit (see `caught`)
        self.expect_problems = False  # a test that breaks a screen on purpose sets it
        self._problem_times: list[float] = []
        self.opening_note = ""  # said over the table as it opens (what its bot levels do)

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this terminal; on Linux and macOS one that leaves nothing of
        the game on the terminal (`terminal.py`)."""
        from textual.drivers.linux_driver import LinuxDriver

        from .terminal import CleanDriver

        driver = super().get_driver_class()
        return CleanDriver if driver is LinuxDriver else driver

    def on_resize(self) -> None:
        """A table under a dialog is not told of a resize: each checks it still fits."""
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen) and screen is not self.screen:
                self.call_after_refresh(screen.check_size)

    def on_mount(self) -> None:
        from .leaks import SWEEP_EVERY, release_footer_keys

        # Textual keeps every footer key it ever drew until told otherwise (see `leaks`).
        self.set_interval(SWEEP_EVERY, lambda: release_footer_keys(self.screen_stack))
        self.screen_change_signal.subscribe(self, self._show_notices)  # (on the front screen)
        if page.on_the_page():
            page.RoomForThePage(self)
        if self.remote is not None:
            self.join_remote(self.remote, lobby=self.lobby)
        elif self.client is None:
            self.show_menu()
        else:
            try:
                self.push_screen(table_screen(self.client, self.ascii))
            except ValueError as problem:
                from .screens.notice import NoticeScreen

                self.push_screen(NoticeScreen(f"Sorry: {problem}."))

    def join_remote(self, remote: RemoteClient, invite: str = "", lobby: bool = False) -> None:
        """Follow `remote` to its table (the waiting room first), or to the party's lobby."""
        from .follow import Follow

        self.remote = remote
        self.follow = Follow(self, remote, invite, lobby)
        self.run_worker(self.follow.run(), name="network", exclusive=True)

    async def _host(self, table: dict[str, Any], lan: bool, port: int) -> None:
        """Host in this app: the table is saved as it goes, and we sit in its first seat (so
        we may start it early). `tablegames host --restore` brings it back if this app ends."""
        from ..net.admission import new_join_code, own_name
        from ..net.client import RemoteClient, SeatTokens
        from ..net.launch import (
            NO_LAN_ADDRESS,
            HostRefused,
            NewTable,
            address_text,
            check_store,
            lan_addresses,
        )
        from ..net.seat_tokens import load_client_key
        from ..net.server import Server, ServerConfig
        from ..store import Store

        store = Store()
        new = NewTable(
            table["game"], table["players"], table["options"], bots=table["bots"], owner_seat=0
        )
        try:
            check_store(store, new, restore=False, db_hint="")
        except HostRefused as refusal:
            self.notify(str(refusal), severity="error", timeout=20)
            return
        code = store.fact("join_code", new_join_code) if lan else None
        config = ServerConfig(host="0.0.0.0" if lan else "127.0.0.1", port=port, code=code)
        server = Server(config, store=store)
        hosted = server.add_table(
            new.game, new.players, new.options, fill_with_bots=new.bots, owner_seat=0
        )
        try:
            bound = await server.start()
        except OSError as problem:
            self.notify(f"Could not host: {problem}.", severity="error", timeout=20)
            return
        self.server = server
        found = lan_addresses() if lan else ["127.0.0.1"]
        where = found[0] if found else "127.0.0.1"
        code_part = f" --code {code}" if code else ""
        invite = f"Friends join with:  tablegames join {address_text(where, bound)}{code_part}"
        if not found:
            invite = f"{NO_LAN_ADDRESS}\n{invite}"
        client = RemoteClient(
            "127.0.0.1",
            bound,
            own_name(),
            table=hosted.code,
            seat=0,
            code=code,
            tokens=SeatTokens(),
            key=load_client_key(),
        )
        self.join_remote(client, invite)

    def action_chat(self) -> None:
        """Say something to the table (network games whose game has chat)."""
        remote = self.remote
        if remote is None or remote.game is None or not remote.game.chat:
            return
        from .screens.network import ChatDialog

        if isinstance(self.screen, ChatDialog):  # (a `/` typed into an open chat line)
            return

        def send(line: str | None) -> None:
            if line and self.remote is not None:
                self.remote.ask.chat(line)

        self.push_screen(ChatDialog(self.ascii, list(remote.chat_lines)), send)

    def action_pace(self, step: int) -> None:
        """The bots slower (1) or faster (-1): the table sets and says it."""
        tables = [screen for screen in self.screen_stack if isinstance(screen, GameScreen)]
        if tables:
            tables[-1].action_pace(step)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pace":  # at a table, but not in a line being typed (a chat: "a-ha")
            at_a_table = any(isinstance(screen, GameScreen) for screen in self.screen_stack)
            return at_a_table and not isinstance(self.screen.focused, Input)
        if action == "chat":
            remote = self.remote
            return remote is not None and remote.game is not None and remote.game.chat
        return True

    async def on_unmount(self) -> None:
        server = getattr(self, "server", None)
        if server is not None:
            await server.close()

    # -- what screens ask (`asks.py`) ------------------------------------------------------------
    def on_show_menu(self, _: asks.ShowMenu) -> None:
        self.show_menu()

    def on_rematch(self, _: asks.Rematch) -> None:
        if self.follow is not None:
            self.follow.rematch()

    def on_farewell(self, ask: asks.Farewell) -> None:
        self.farewell = ask.words
        self.exit()

    def on_start_game(self, ask: asks.StartGame) -> None:
        self.start_game(ask.client)

    def on_join_remote(self, ask: asks.JoinRemote) -> None:
        self.join_remote(ask.client)

    def on_host_and_join(self, ask: asks.HostAndJoin) -> None:
        self.run_worker(self._host(ask.table, ask.lan, ask.port), name="server")

    def show_menu(self) -> None:
        """Go back to (or open) the menu of games, closing any table; a party's lobby instead."""
        from .screens.menu import MenuScreen

        if self.in_party and self.follow is not None:
            self.follow.back_to_lobby()
            return
        while len(self.screen_stack) > 1 and not isinstance(self.screen, MenuScreen):
            self.pop_screen()
        if not isinstance(self.screen, MenuScreen):
            self.push_screen(MenuScreen(ascii=self.ascii))

    @property
    def in_party(self) -> bool:
        """True when games here are played from a party's lobby (rematch, back to the lobby)."""
        if self.follow is None:  # a table on this machine: the network's modules stay unloaded
            return False
        from .follow import party_game

        return party_game(self.follow)

    def start_game(self, client: TableClient) -> None:
        """Replace the setup (or waiting) screen with the table for `client`."""
        self.switch_screen(table_screen(client, self.ascii))

    def tell(self, text: str, kind: str = "news", seconds: float = SHOWN_FOR) -> None:
        """Show `text` where notices show (`notice_screen`): a game's notice line, above its
        table; the end of a game's, under the standings; never over the game. Where no screen
        has such a line (the lobby, the waiting room, the menu), it pops up."""
        if self.notice_screen() is None:
            self.notify(text, timeout=seconds, markup=False)
            return
        self.notices.tell(kind, text, seconds)
        self._show_notices()
        self.set_timer(seconds, self._show_notices)

    def notice_screen(self) -> Screen[object] | None:
        """The screen whose notice line shows the notices: the front-most that has one (its
        line is seen when it is in front, or under a dialog that leaves it in sight; under a
        whole screen, such as the help, they wait there for their seconds)."""
        screen: Screen[object]  # (the app's stack is typed loosely)
        for screen in reversed(self.screen_stack):
            if getattr(screen, "SHOWS_NOTICES", False):
                return screen
        return None

    def _show_notices(self, *_: object) -> None:
        if self.opening_note and isinstance(self.screen, GameScreen):
            # (in the game once its table is in front, not left on the terminal after it)
            note, self.opening_note = self.opening_note, ""
            self.tell(note, "game", NOTE_SHOWN)
        for screen in self.screen_stack:
            for line in screen.query(NoticeLine):
                line.show_notices()

    def pop_chat(self, who: str, text: str) -> None:
        """Show a chat line where notices show; where they do not, as a pop-up, a few at a
        time: the rest wait in the chat (/)."""
        if self.notice_screen() is not None:
            self.tell(f"{who}: {text}", "chat", CHAT_SHOWN_FOR)
            return
        now = time.monotonic()
        self._chat_popups = [until for until in self._chat_popups if until > now]
        if len(self._chat_popups) >= CHAT_POPUPS:
            self._chat_missed += 1
            return
        if self._chat_missed:
            text += f"\n(and {self._chat_missed} more: / shows the chat)"
            self._chat_missed = 0
        self._chat_popups.append(now + CHAT_SHOWN_FOR)
        self.notify(text, title=who, timeout=CHAT_SHOWN_FOR, markup=False)

    def caught(self, error: Exception) -> None:
        """A mistake in one screen costs that screen, not the game: it is noted in the
        problems log, the player is told in a sentence, and the table or the lobby is drawn
        afresh from what the client holds. Mistakes that keep coming end the app, still in a
        sentence. A party's guest never sees a traceback (nor the host's files): a mistake of
        the app itself ends their session with a sentence too.

        A mistake of the app itself ends it with that sentence too, never with Textual's
        traceback: its listing of local values could show a hand on the terminal it leaves.

        (Textual stops the message loop of the widget whose handler raised, so the broken
        screen is replaced rather than left frozen. A mistake hit in a test that did not
        expect it ends the app as Textual does.)

        A guest's session that ran out of memory (it has a limit: `SshConfig`) ends at once,
        doing as little as it can, with the status the SSH door explains to the guest.
        """
        if self.lobby:  # a session of `serve`, which imported this first: nothing is loaded now
            from ..net.ssh_types import EXIT_OUT_OF_MEMORY, out_of_memory

            if out_of_memory(error):
                os._exit(EXIT_OUT_OF_MEMORY)
        pump = running_pump()
        in_a_screen = pump is not self and pump is not None and self.is_running
        guest = self.lobby  # a session of `serve`, for a guest
        if self.is_headless and not self.expect_problems:
            self.problems.append(error)
            super().caught(error)
            return
        self.problems.append(error)
        from ..net.logs import note_problem  # (the problems log: loaded when there is one)

        noted = note_problem(error)
        now = time.monotonic()
        self._problem_times = [t for t in self._problem_times if now - t < PROBLEMS_WINDOW]
        self._problem_times.append(now)
        if not in_a_screen or len(self._problem_times) >= PROBLEMS_TO_QUIT:
            self.farewell = GUEST_FAREWELL if guest else f"{STOPPED}{noted}"
            self.exit(return_code=1)
            return
        broken = pump.screen if isinstance(pump, Widget) else None
        self.call_later(self._draw_afresh, broken)

    def _draw_afresh(self, broken: Screen[ScreenResultType] | None) -> None:
        """Replace the screen a mistake stopped: the table it is on (or is) with a new one for
        the same client, else the lobby of a party, else the menu."""
        stack = self.screen_stack
        tables = [screen for screen in stack if isinstance(screen, GameScreen)]
        table = tables[-1] if tables else None
        if table is not None and (broken is None or broken in stack[stack.index(table) :]):
            table.close()
            while self.screen is not table:
                self.pop_screen()
            self.switch_screen(table_screen(table.client, self.ascii))
        else:
            while len(self.screen_stack) > 2:
                self.pop_screen()
            if self.follow is not None and self.follow.lobby is not None:
                self.follow.lobby = None  # (it may be the screen that broke)
            self.show_menu()
        self.notify(AFRESH, severity="warning", timeout=10)

    async def action_quit(self) -> None:
        """Quit at once (ctrl+c), saying where an unfinished game went; the exit status is a
        shell's for an interrupted program (130)."""
        tables = [screen for screen in self.screen_stack if isinstance(screen, GameScreen)]
        if tables:
            server = getattr(self, "server", None)
            port = server.port if server is not None else None
            self.farewell = where_saved(tables[-1].client, tables[-1].over, port)
        self.exit(return_code=EXIT_INTERRUPTED)

    def get_key_display(self, binding: Binding) -> str:
        shown = super().get_key_display(binding)
        return ASCII_KEYS.get(shown, shown) if self.ascii else shown


def table_styles(client: LocalClient | None) -> list[str | PurePath]:
    """The app's style sheet, then those of the screen `client`'s table opens on (without a
    table, the menus').

    Textual reads a screen's sheets when it is first shown, and then parses every style of the
    app afresh; read here, all are parsed once, before the first paint.
    """
    here = Path(__file__).resolve().parent
    own: list[str | PurePath] = [here / "app.tcss"]
    game = client.game if client is not None else None
    if game is None or game.name not in GAMES:
        return [*own, here / "screens" / "menus.tcss"] if game is None else own
    screen = screen_class(game.name)
    if not isinstance(screen, type) or not issubclass(screen, Screen) or not screen.CSS_PATH:
        return own
    paths = [screen.CSS_PATH] if isinstance(screen.CSS_PATH, (str, PurePath)) else screen.CSS_PATH
    # (as Textual places a screen's sheets: beside the module of the class that names them)
    folder = Path(inspect.getfile(screen)).parent
    return [*own, *((folder / path).resolve() for path in paths)]


def utf8_terminal(environ: Mapping[str, str] | None = None) -> bool:
    """True if the terminal's locale speaks UTF-8 (suits, arrows and box lines can be drawn).

    The locale is the first of LC_ALL, LC_CTYPE and LANG that is set. Under `LANG=C` Python
    sets LC_CTYPE to C.UTF-8 for itself (and turns on its UTF-8 mode): that is not the
    terminal's, so LANG decides then.
    """
    environ = os.environ if environ is None else environ
    coerced = bool(sys.flags.utf8_mode) and "PYTHONUTF8" not in environ
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = environ.get(name, "")
        if not value or (name == "LC_CTYPE" and value == "C.UTF-8" and coerced):
            continue
        return "utf-8" in value.lower() or "utf8" in value.lower()
    return False  # no locale at all: the C locale, plain ASCII


#: Said instead of starting a screen when there is no terminal to draw it in (the app would
#: wait forever for keys that cannot come: a resumed game once played on with its bots alone
#: and then spun a core for as long as nobody stopped it).
NO_TERMINAL = (
    "tablegames needs a terminal to draw the game in, and its input or output is not one: run "
    "it in a terminal window, in tmux, or over `ssh -t`. (`tablegames simulate` plays bots "
    "without one.)"
)


def need_terminal() -> None:
    """Stop with a sentence (exit status 1) unless keys come from a terminal and the screen
    goes to one."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(NO_TERMINAL, file=sys.stderr)
        raise SystemExit(1)


def run_menu(ascii: bool = False) -> None:
    """Run the app from the menu of games until the player quits (in ASCII where the terminal
    has no UTF-8)."""
    need_terminal()
    _run(TableGamesApp(ascii=ascii or not utf8_terminal()))


def run_table(client: LocalClient, ascii: bool = False, note: str = "") -> None:
    """Run the app straight into `client`'s table until the player quits (`note`: said over
    the table as it opens)."""
    need_terminal()
    app = TableGamesApp(client, ascii=ascii or not utf8_terminal())
    app.opening_note = note
    _run(app)


def _run(app: TableGamesApp) -> None:
    """Run `app`, then say in the terminal what it left to say (where a game was saved); exit
    with its status (130 after Ctrl-C, 1 after a problem it could not get past)."""
    app.run()
    if app.farewell:
        print(app.farewell)
    if app.return_code:
        raise SystemExit(app.return_code)


def run_remote(client: RemoteClient, ascii: bool = False, lobby: bool = False) -> None:
    """Join a network table with `client` (or its party's lobby) until the player quits.

    A party session's locale is the server's, not its player's: only `join` looks at it.
    """
    need_terminal()
    _run(TableGamesApp(ascii=ascii or not (lobby or utf8_terminal()), remote=client, lobby=lobby))


class ReplayApp(TableGamesApp):
    """The app opened straight on a replay (`tablegames replay ID`): leaving it is leaving the
    app."""

    def __init__(
        self, replay: Replay, seat: int | None = None, ascii: bool = False, step: int = 0
    ) -> None:
        from .screens.replay import ReplayScreen

        super().__init__(ascii=ascii)
        self.viewer = ReplayScreen(replay, seat, ascii=ascii, step=step, alone=True)

    @on(events.Mount)
    def open_replay(self, event: events.Mount) -> None:
        """Open on the replay, not on the menu the app opens by default."""
        event.prevent_default()
        self.viewer.open(self)


def run_replay(replay: Replay, seat: int | None, ascii: bool = False) -> None:
    """Step through a finished game from `seat`'s chair (None: every hand shown) until quit."""
    need_terminal()
    _run(ReplayApp(replay, seat, ascii=ascii or not utf8_terminal()))
