"""Following one network connection through a party: the lobby, a waiting room, the table, a
rematch, back to the lobby. The screens shown are driven by what the server says.

`Follow.run` is the app's network worker: it connects (taking back a seat we hold), then reads
the server's messages for as long as the connection lives, reconnecting when it drops.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from textual.screen import Screen, ScreenResultType

from ..net.client import ServerRefused, why_not_joined
from ..net.client_protocol import (
    HOST_LINE,
    NOT_INSTALLED,
    ConnectionLost,
    NotInstalled,
    Phase,
    chat_line,
)
from ..net.launch import address_text
from ..net.messages import Chat, Error, HostSays, Lobby, Presence, Seated, ViewUpdate
from ..words import on_its_own
from .screens.connect import ConnectScreen
from .screens.game import GameScreen
from .screens.lobby import HINT as LOBBY_HINT
from .screens.lobby import LobbyScreen

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from ..net.client import RemoteClient
    from .client import TableClient


HOST_SHOWN_FOR = 20.0  # seconds the host's line stays in the notices


class FollowingApp(Protocol):
    """What following a connection asks of the app (`app.TableGamesApp`): its screens, its
    pop-ups, and the sentence it leaves with."""

    farewell: str  # said in the terminal once the app has closed

    @property
    def ascii(self) -> bool: ...

    @property
    def screen(self) -> Screen[object]: ...

    @property
    def screen_stack(self) -> list[Screen[Any]]: ...

    def push_screen(self, screen: Screen[Any], callback: Any = None) -> object: ...

    def switch_screen(self, screen: Screen[Any]) -> object: ...

    def pop_screen(self) -> object: ...

    def tell(self, text: str, kind: str = "news", seconds: float = ...) -> None: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...

    def pop_chat(self, who: str, text: str) -> None: ...

    def start_game(self, client: TableClient) -> None: ...

    def exit(self) -> None: ...


class Follow:
    """The screens of one connection: which is up, and what each message changes."""

    def __init__(
        self, app: FollowingApp, remote: RemoteClient, invite: str = "", lobby: bool = False
    ) -> None:
        self.app, self.remote, self.invite = app, remote, invite
        self.lobby_first = lobby  # a party session: the lobby, not the first open table
        # A party session's server is on this machine's loopback: its address means nothing.
        self.where = "" if remote.ticket else address_text(remote.host, remote.port)
        self.waiting: ConnectScreen | None = None
        self.lobby: LobbyScreen | None = None
        self.started = False  # the table of this seat is on screen

    # -- arriving ---------------------------------------------------------------------------------
    async def run(self) -> None:
        self._wait_at_table()
        try:
            await self._arrive()
        except (ServerRefused, OSError, TimeoutError) as problem:
            assert self.waiting is not None
            why = why_not_joined(problem, self.remote.host, self.remote.port)
            self.waiting.say(f"{why} Press q to quit.")
            return
        while await self._next():
            pass

    async def _arrive(self) -> None:
        """Connect: our seat back, the table asked for, the only open one, or the lobby."""
        remote = self.remote
        if not self.lobby_first and remote.table_code is not None:
            await remote.connect()  # a table named up front (--table, hosting from the menu)
            self._seated()
            return
        try:
            first = await remote.greet()
            if isinstance(first, Seated) or await remote.take_back():
                self._seated()
                return
        except NotInstalled as lacking:  # our seat is at a game this program lacks
            if not self.lobby_first:
                raise
            self._lacking(str(lacking))
            return
        open_tables = [table for table in remote.lobby if not table.over]
        # The only table, if it is still waiting for players (or to watch): one being played
        # has no seat to offer, so the lobby shows it (to watch, or to open another).
        only = open_tables[0] if len(open_tables) == 1 else None
        if not self.lobby_first and only is not None and (remote.spectate or not only.started):
            remote.ask.join(only.code, spectate=remote.spectate)
        else:
            self._show_lobby()

    # -- what the server says ---------------------------------------------------------------------
    async def _next(self) -> bool:
        """Handle the next event; False once there is nothing more to follow."""
        remote, app = self.remote, self.app
        event = await remote.next_event()
        if isinstance(event, ConnectionLost):
            return await self._lost()
        if isinstance(event, Lobby) and remote.phase is Phase.LOBBY:
            self._update_lobby()
        elif isinstance(event, Seated):
            self._seated()
        elif isinstance(event, Presence) and not self.started and self.waiting is not None:
            self.waiting.show_presence(event)
            if remote.latest is not None and not self._stood_in():  # ready: the table is ours
                return self._start_table()
        elif isinstance(event, Presence) and event.text and self.started:
            app.tell(event.text)
        elif isinstance(event, ViewUpdate) and not self.started and remote.latest is not None:
            return self._table_or_waiting_room()
        elif isinstance(event, Chat) and self._lobby_up():
            assert self.lobby is not None
            self.lobby.show_chat()
        elif isinstance(event, Chat):
            app.pop_chat(*chat_line(event))
        elif isinstance(event, HostSays) and self._lobby_up():
            assert self.lobby is not None
            self.lobby.show_chat()  # (its line is marked as the host's there)
        elif isinstance(event, HostSays):  # news, where notices show: never a chat line
            app.tell(f"{HOST_LINE}: {event.text}", "news", HOST_SHOWN_FOR)
        elif isinstance(event, Error) and event.code == NOT_INSTALLED:
            self._lacking(event.text)
        elif isinstance(event, Error) and event.code == "table-closed":
            self._show_lobby()  # the table waited too long: the server sent us back
            assert self.lobby is not None
            self.lobby.say(event.text)
        elif isinstance(event, Error) and self._lobby_up():
            assert self.lobby is not None
            self.lobby.say(on_its_own(event.text))
        elif isinstance(event, Error) and not self.started and self.waiting is not None:
            self.waiting.say(event.text)
        return True

    def _lacking(self, text: str) -> None:
        """The table we were given plays a game this program lacks: the client went back to
        the lobby (the connection stays); say why there."""
        self._show_lobby()
        assert self.lobby is not None
        self.lobby.say(on_its_own(text))

    def _lobby_up(self) -> bool:
        return self.lobby is not None and self.app.screen is self.lobby

    async def _lost(self) -> bool:
        remote, app = self.remote, self.app
        removed = remote.ended_code == "removed"
        told = "Back in the lobby."  # (on the lobby's own line: a pop-up covered its tables)
        if remote.ended and self.lobby_first and removed:  # the host took our seat: the lobby
            told = f"{on_its_own(remote.ended)} You are in the lobby."
            remote.removed_to_lobby()
        elif remote.ended:
            text = on_its_own(remote.ended)
            if self.lobby_first:  # a party's session: it ends here, saying why (no slot held)
                app.farewell = text
                app.exit()
            elif self.started and removed:  # a bot plays our seat until we come back
                return await self._sit_back(text)
            elif self.started or self.waiting is None:
                app.notify(text, severity="error", timeout=60, markup=False)
            else:
                self.waiting.say(f"{text} Press q to quit.")
            return False
        if remote.over and not self.lobby_first:
            gone = "went silent" if remote.silent else "closed the connection"
            app.notify(
                f"The server {gone}; the game here was over. Press q to leave.",
                severity="warning",
                timeout=600,
                markup=False,
            )
            return False
        if not removed:
            gone = "The server went silent" if remote.silent else "Connection lost"
            app.tell(f"{gone}: trying to get back...", "connection", seconds=5)
        if not await remote.reconnect(lobby=party_game(self)):  # (in the lobby: back to it)
            app.notify(f"Could not get back: {remote.why}.", severity="error", timeout=30)
            return False
        if remote.table_code is None:
            self._show_lobby()
            assert self.lobby is not None
            self.lobby.say(told)
        else:
            app.tell("Back at the table.", "connection", seconds=4)
        return True

    async def _sit_back(self, text: str) -> bool:
        """The host let a bot play our seat, and `join` has no lobby to go to: asked over the
        table, the player sits back down (the seat's token proves it theirs) or leaves; True
        once back at the seat."""
        from .screens.dialogs import Option, PickDialog

        options = [Option("s", "Sit back down", True), Option("q", "Leave the game", False)]
        tables = [screen for screen in self.app.screen_stack if isinstance(screen, GameScreen)]
        for table in tables:  # (a question of the game's must not open over this one)
            table.away = True
        back: bool | None = None
        while back is None:  # (Esc only looks at the table: the question comes back)
            answered: asyncio.Future[bool | None] = asyncio.get_running_loop().create_future()
            self.app.push_screen(
                PickDialog(text, options, ascii=self.app.ascii), answered.set_result
            )
            back = await answered
        if not back:
            self.app.exit()
            return False
        self.remote.sits_back()
        if not await self.remote.reconnect():
            self.app.notify(f"Could not get back: {self.remote.why}.", severity="error", timeout=30)
            return False
        for table in tables:
            table.away = False
        self.app.tell("Back at your seat.", "connection", seconds=4)
        return True

    # -- screens ----------------------------------------------------------------------------------
    def _update_lobby(self) -> None:
        """New lobby news: redraw the list, leaving any dialog of the player's open on top."""
        if self.lobby is not None and self.lobby in self.app.screen_stack:
            self.lobby.show(self.remote.lobby)
        else:
            self._show_lobby()

    def _show_lobby(self) -> None:
        """The lobby on top, every table screen of ours closed (a table screen left under the
        lobby would go on following a table we are no longer at: issue 48)."""
        app = self.app
        self.started = False
        if self.lobby is None:
            self.lobby = LobbyScreen(self.remote, self.where, self.app.ascii)
        stack = app.screen_stack
        first = next((n for n, screen in enumerate(stack) if self._ours(screen)), len(stack))
        keep = first + 1 if first < len(stack) and stack[first] is self.lobby else first
        while len(app.screen_stack) > max(keep, 1):
            app.pop_screen()
        if app.screen is not self.lobby:
            app.push_screen(self.lobby)
        self.waiting = None
        self.lobby.say(LOBBY_HINT)  # (nothing said before, "Joining table...", holds now)
        self.lobby.show(self.remote.lobby)
        self.lobby.show_chat()

    def _ours(self, screen: Screen[ScreenResultType]) -> bool:
        """True for a screen of this connection's: the lobby, a waiting room, a table."""
        return screen is self.lobby or isinstance(screen, ConnectScreen | GameScreen)

    def _wait_at_table(self) -> None:
        """The waiting room for the table we are joining (or have just been given)."""
        waiting = ConnectScreen(self.where, self.app.ascii, remote=self.remote, invite=self.invite)
        if self.waiting is not None and self.app.screen is self.waiting:
            self.app.switch_screen(waiting)
        elif self.started or (self.lobby is not None and self.app.screen is not self.lobby):
            self.app.switch_screen(waiting)  # the table we played at gives way to the next one
        else:
            self.app.push_screen(waiting)
        self.waiting = waiting

    def _seated(self) -> None:
        """We have a seat (or a chair to watch from): the waiting room, until the deal."""
        if self.started or self.waiting is None or self.app.screen is not self.waiting:
            self._wait_at_table()
        self.started = False
        assert self.waiting is not None
        remote = self.remote
        if remote.seat is not None and remote.dealt:  # our seat back: its table comes next
            self.waiting.say("Back at your seat: the game is on...")
        elif remote.seat is not None:
            self.waiting.seated()
        else:
            self.waiting.say("Watching. Waiting for the deal...")
        if remote.presence is not None:
            self.waiting.show_presence(remote.presence)
        if remote.latest is not None:
            self._table_or_waiting_room()

    def _stood_in(self) -> bool:
        """True while a bot plays our seat because we were not ready at the deal (the
        presence that came before the deal's first update says so)."""
        remote = self.remote
        presence, seat = remote.presence, remote.seat
        if presence is None or seat is None or not 0 <= seat < len(presence.seats):
            return False
        return presence.seats[seat].standin

    def _table_or_waiting_room(self) -> bool:
        """The game has begun: its table, unless a bot plays our seat until we say we are
        ready (the waiting room says so, and r takes the seat)."""
        if self._stood_in() and self.waiting is not None:
            self.waiting.stood_in()
            return True
        return self._start_table()

    def _start_table(self) -> bool:
        try:
            self.app.start_game(self.remote)
        except ValueError as problem:
            assert self.waiting is not None
            self.waiting.say(f"{problem}. Press q to quit.")
            return False
        self.started = True
        return True

    # -- asked by the screens --------------------------------------------------------------------
    def back_to_lobby(self) -> None:
        """Leave the table for the lobby (a party), or quit (a single table)."""
        if self.lobby_first or self.lobby is not None:
            self.remote.ask.leave()
            self._show_lobby()
        else:
            self.app.exit()

    def rematch(self) -> None:
        self.remote.ask.rematch()
        self._wait_at_table()
        assert self.waiting is not None
        self.waiting.say("Asked for a rematch: waiting for the others...")
        self.started = False


def party_game(follow: Follow | None) -> bool:
    """True when a game is played from a lobby (its end offers a rematch and the lobby)."""
    return follow is not None and (follow.lobby_first or follow.lobby is not None)
