"""The Textual app: the menu when started bare, or straight to a table for a given client."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from ..catalogue import is_playable

if TYPE_CHECKING:
    from ..net.client import RemoteClient
    from ..table import LocalClient
    from .client import TableClient
    from .screens.connect import ConnectScreen
    from .screens.game import GameScreen

ASCII_KEYS = {"←": "<-", "→": "->", "↑": "up", "↓": "down", "⏎": "Enter", "←→": "<- ->"}


def table_screen(client: TableClient, ascii: bool = False) -> GameScreen:
    """The screen that plays `client`'s game; ValueError if there is none yet.

    Each game's screen module `screens/<game>.py` names its screen class in `SCREEN`.
    """
    game = client.game
    if game is not None and is_playable(game.name):
        module = importlib.import_module(f"{__package__}.screens.{game.name}")
        screen: GameScreen = module.SCREEN(client, ascii=ascii)
        return screen
    title = game.title if game is not None else "this game"
    raise ValueError(f"there is no screen for {title} yet")


class TableGamesApp(App[None]):
    """tablegames in the terminal: the menu, a local table (`client`) or a network `remote`."""

    TITLE = "tablegames"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
        Binding("t", "chat", "Chat"),
    ]

    def __init__(
        self,
        client: LocalClient | None = None,
        ascii: bool = False,
        remote: RemoteClient | None = None,
    ) -> None:
        super().__init__()
        self.client = client
        self.ascii = ascii
        self.remote = remote

    def on_mount(self) -> None:
        if self.remote is not None:
            self.join_remote(self.remote)
        elif self.client is None:
            self.show_menu()
        else:
            try:
                self.push_screen(table_screen(self.client, self.ascii))
            except ValueError as problem:
                from .screens.notice import NoticeScreen

                self.push_screen(NoticeScreen(f"Sorry: {problem}."))

    def join_remote(self, remote: RemoteClient, invite: str = "") -> None:
        """Open the waiting room for `remote` and follow it to the table."""
        from .screens.connect import ConnectScreen

        self.remote = remote
        where = f"{remote.host}:{remote.port}"
        waiting = ConnectScreen(where, self.ascii, remote=remote, invite=invite)
        self.push_screen(waiting)
        self.run_worker(self._follow(remote, waiting), name="network", exclusive=True)

    def host_and_join(
        self, game: str, players: int, bots: str | None, lan: bool, port: int
    ) -> None:
        """Start a server in this app with one table, then sit down at it."""
        self.run_worker(self._host(game, players, bots, lan, port), name="server")

    async def _host(self, game: str, players: int, bots: str | None, lan: bool, port: int) -> None:
        from ..net.client import RemoteClient
        from ..net.hosting import new_code
        from ..net.server import Server, ServerConfig
        from ..store import Store

        code = new_code()
        config = ServerConfig(
            host="0.0.0.0" if lan else "127.0.0.1", port=port, code=code if lan else None
        )
        server = Server(config, store=Store())
        hosted = server.add_table(game, players, fill_with_bots=bots, code=code)
        try:
            bound = await server.start()
        except OSError as problem:
            self.notify(f"Could not host on port {port}: {problem.strerror}", severity="error")
            return
        self.server = server
        where = "<this machine's address>" if lan else "127.0.0.1"
        code_part = f" --code {hosted.code}" if lan else ""
        invite = f"Friends join with:  tablegames join {where}:{bound}{code_part}"
        client = RemoteClient("127.0.0.1", bound, "host", table=hosted.code, code=config.code)
        self.join_remote(client, invite)

    def action_chat(self) -> None:
        """Say something to the table (network games whose game has chat)."""
        remote = self.remote
        if remote is None or remote.game is None or not remote.game.chat:
            return
        from .screens.network import ChatDialog

        def send(line: str | None) -> None:
            if line and self.remote is not None:
                self.remote.chat(line)

        self.push_screen(ChatDialog(self.ascii), send)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "chat":
            remote = self.remote
            return remote is not None and remote.game is not None and remote.game.chat
        return True

    async def on_unmount(self) -> None:
        server = getattr(self, "server", None)
        if server is not None:
            await server.close()

    def show_menu(self) -> None:
        """Go back to (or open) the menu of games, closing any table."""
        from .screens.menu import MenuScreen

        while len(self.screen_stack) > 1 and not isinstance(self.screen, MenuScreen):
            self.pop_screen()
        if not isinstance(self.screen, MenuScreen):
            self.push_screen(MenuScreen(ascii=self.ascii))

    def start_game(self, client: TableClient) -> None:
        """Replace the setup (or waiting) screen with the table for `client`."""
        self.switch_screen(table_screen(client, self.ascii))

    async def _follow(self, remote: RemoteClient, waiting: ConnectScreen) -> None:
        """Join the network table, wait for the deal, then keep the connection alive.

        Chat, and news of players dropping out and coming back, show as banners.
        """
        from ..net.client import ServerRefused, why_not_joined

        try:
            await remote.connect()
        except (ServerRefused, OSError, TimeoutError) as problem:
            waiting.say(f"{why_not_joined(problem, remote.host, remote.port)} Press q to quit.")
            return
        if remote.seat is not None:
            waiting.seated()
        else:
            waiting.say("Watching. Waiting for the deal...")
        if remote.presence is not None:
            waiting.show_presence(remote.presence)
        started = False
        while True:
            if not started and remote.latest is not None:
                started = True
                try:
                    self.start_game(remote)
                except ValueError as problem:
                    waiting.say(f"{problem}. Press q to quit.")
                    return
            message = await remote.next_message()
            kind = message["t"]
            if kind == "presence" and not started:
                waiting.show_presence(message)
            elif kind == "presence" and message.get("text"):
                self.notify(message["text"], title="Table", timeout=6)
            elif kind == "chat":
                self.notify(message["text"], title=message["name"], timeout=10)
            elif kind == "error" and not started:
                waiting.say(str(message.get("text", "")))
            elif kind == "lost":
                if remote.over:
                    return
                self.notify("Connection lost: trying to sit back down...", timeout=5)
                if not await remote.reconnect():
                    self.notify("Could not get back to the table.", severity="error", timeout=30)
                    return
                self.notify("Back at the table.", timeout=4)

    def get_key_display(self, binding: Binding) -> str:
        shown = super().get_key_display(binding)
        return ASCII_KEYS.get(shown, shown) if self.ascii else shown


def run_menu(ascii: bool = False) -> None:
    """Run the app from the menu of games until the player quits."""
    TableGamesApp(ascii=ascii).run()


def run_table(client: LocalClient, ascii: bool = False) -> None:
    """Run the app straight into `client`'s table until the player quits."""
    TableGamesApp(client, ascii=ascii).run()


def run_remote(client: RemoteClient, ascii: bool = False) -> None:
    """Join a network table with `client` and run its screen until the player quits."""
    TableGamesApp(ascii=ascii, remote=client).run()


if TYPE_CHECKING:
    from ..replay import Replay


def run_replay(replay: Replay, seat: int | None, ascii: bool = False) -> None:
    """Step through a finished game from `seat`'s chair (None: every hand shown) until quit."""
    from .screens.replay import ReplayApp

    ReplayApp(replay, seat, ascii=ascii).run()
