"""One browser tab at the party: its websocket bridged to one program on a pty of its own.

The program is the one an SSH session runs (the lobby app, with a party ticket), forked by the
same fork server, under the same limits (`session_limits`), on a terminal no larger than an
SSH one (`safe_size`). Keys and mouse reports typed in the page go to the program; what it
prints goes to the page as binary messages, in order, and the program is paused (not its
output dropped) while the page is behind. Resizes are passed on at most `RESIZES_PER_SECOND`
times a second. The session's end is the program's end, told to the page in a sentence; a
closed tab hangs the program up, as a dropped SSH connection does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from aiohttp import WSMsgType, web

from .guard import RefusalTally, wait_in_words
from .party import Login
from .pty_program import PacedResizes, PtyProgram
from .ssh_session import RESIZES_PER_SECOND, ending, ending_sentence, session_limits
from .ssh_types import Launch, SshConfig, Terminal, safe_size
from .web_identity import WebGuest
from .web_protocol import PAGE_ENV, Keys, Ping, Resize, ended, pong, read_message

if TYPE_CHECKING:
    from .ssh import SshFrontDoor

OUTPUT_LIMIT = 1 << 20  # bytes of output waiting for the page before the program is paused
SEND_TIMEOUT = 30.0  # seconds one send may take before the page is given up on
LEFT_SENTENCE = "You left the party. Open the page again to come back."


class Door(Protocol):
    """What a browser's session asks of the web door (`web.WebFrontDoor`)."""

    @property
    def ssh(self) -> SshFrontDoor: ...  # (its limits and fork server are the SSH door's)

    @property
    def launch(self) -> Callable[[Login, Terminal], Launch]: ...

    @property
    def log(self) -> logging.Logger: ...

    @property
    def refusals(self) -> RefusalTally: ...


class BrowserSession:
    """One websocket and its program, from launch to hang-up."""

    def __init__(
        self,
        door: Door,
        socket: web.WebSocketResponse,
        guest: WebGuest,
        name: str,
        address: str,
        terminal: Terminal,
    ) -> None:
        self.door = door
        self.socket = socket
        self.guest = guest
        self.name = name
        self.address = address
        self.terminal = terminal
        self.program: PtyProgram | None = None
        self.started = time.monotonic()
        self._outbox: list[bytes] = []
        self._waiting = 0  # bytes in the outbox
        self._wake = asyncio.Event()
        self._last_sentence: str | None = None
        self._program_gone = asyncio.Event()
        self._last_key = time.monotonic()
        self._resizes = PacedResizes(RESIZES_PER_SECOND)
        self._ended: Callable[[], None] | None = None
        self._input_open = asyncio.Event()  # cleared while the program's input is full
        self._input_open.set()
        self._done = asyncio.Event()  # the session has ended and its socket is closed

    @property
    def config(self) -> SshConfig:
        """The limits sessions are kept to: the SSH door's."""
        return self.door.ssh.config

    async def run(self) -> None:
        """Start the program, then pass bytes both ways until either side ends."""
        try:
            await self._run()
        finally:
            self._done.set()

    async def _run(self) -> None:
        door = self.door
        login = Login(self.name, None, self.guest.holder, self.address)
        try:
            plan: Launch = door.launch(login, self.terminal)
        except Exception:
            door.log.exception("web: no program to run for %s", self.name)
            await self.say_and_close("The table could not be started here; tell the host.")
            return
        plan = replace(plan, env={**plan.env, PAGE_ENV: "1"})  # (it tells the page its room)
        try:
            self.program = await PtyProgram.start(
                plan.argv,
                plan.env,
                self.terminal.columns,
                self.terminal.rows,
                on_output=self._output,
                on_exit=self._program_ended,
                on_input_blocked=self._input_blocked,
                limits=session_limits(self.config),
                forks=door.ssh.forks,
            )
        except Exception:
            door.log.exception("web: could not start the program for %s", self.name)
            if plan.ended is not None:
                plan.ended()
            await self.say_and_close("The table could not be started here; tell the host.")
            return
        self._ended = plan.ended
        door.log.info("web: %s joined the party (pid %d)", self.name, self.program.pid)
        sender = asyncio.create_task(self._send_output())
        try:
            await self._read_page()
        finally:
            self._resizes.cancel()
            if self.program.running:
                await self.program.hang_up(self.config.hangup_grace)
            await self._program_gone.wait()
            self._wake.set()
            with contextlib.suppress(asyncio.TimeoutError, ConnectionError):
                await asyncio.wait_for(sender, SEND_TIMEOUT)
            sender.cancel()
            await self.socket.close()

    async def say_and_close(self, sentence: str) -> None:
        """Tell the page why the session ends, and close its socket."""
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.socket.send_str(ended(sentence))
        await self.socket.close()

    async def close(self, sentence: str) -> None:
        """End the session from the server's side (it is closing): hang the program up, tell
        the page why, and return once the session has ended."""
        self._last_sentence = sentence
        if self.program is not None and self.program.running:
            await self.program.hang_up(self.config.hangup_grace)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._done.wait(), SEND_TIMEOUT)

    # -- the page -------------------------------------------------------------------------
    async def _read_page(self) -> None:
        """Read the page's messages until it leaves, the program ends or the guest is idle."""
        idle_timeout = self.config.idle_timeout
        gone = asyncio.ensure_future(self._program_gone.wait())
        try:
            while not gone.done():
                left = self._last_key + idle_timeout - time.monotonic()
                if left <= 0:
                    self.door.log.info(
                        "web: %s idle for %s: closing", self.name, wait_in_words(idle_timeout)
                    )
                    self._last_sentence = (
                        f"No keystroke for {wait_in_words(idle_timeout)}: this session is closed."
                    )
                    return
                receiving = asyncio.ensure_future(self.socket.receive())
                await asyncio.wait(
                    {receiving, gone}, timeout=left, return_when=asyncio.FIRST_COMPLETED
                )
                if not receiving.done():
                    receiving.cancel()
                    continue
                message = receiving.result()
                if message.type == WSMsgType.TEXT:
                    await self._page_said(message.data)
                elif message.type == WSMsgType.BINARY:
                    self._malformed()
                else:  # closed, closing or failed: the tab is gone
                    return
                if not self._input_open.is_set():
                    # The program reads slowly: read no more from the page until it has
                    # caught up (the page's socket then fills, and it waits).
                    await asyncio.wait(
                        {asyncio.ensure_future(self._input_open.wait()), gone},
                        return_when=asyncio.FIRST_COMPLETED,
                    )
        finally:
            gone.cancel()

    def _input_blocked(self, blocked: bool) -> None:
        if blocked:
            self._input_open.clear()
        else:
            self._input_open.set()

    async def _page_said(self, text: str) -> None:
        said = read_message(text)
        if said is None:
            self._malformed()
        elif isinstance(said, Keys):
            self._last_key = time.monotonic()
            if self.program is not None:
                self.program.write(said.data)
        elif isinstance(said, Resize):
            self._resized(said)
        elif isinstance(said, Ping):
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.socket.send_str(pong(said.text))

    def _malformed(self) -> None:
        self.door.refusals.refused(
            "malformed messages",
            self.address,
            "web: ignored a malformed message from %s (%s)",
            self.address,
            self.name,
        )

    def _resized(self, size: Resize) -> None:
        columns, rows = safe_size(size.columns, size.rows)
        self.terminal = Terminal(self.terminal.term, columns, rows)
        if self.program is not None:  # (as over SSH: a few times a second at most)
            self._resizes.ask(self._resize)

    def _resize(self) -> None:
        if self.program is not None:
            self.program.resize(self.terminal.columns, self.terminal.rows)

    # -- the program ----------------------------------------------------------------------
    def _output(self, data: bytes) -> None:
        self._outbox.append(data)
        self._waiting += len(data)
        self._wake.set()
        if self._waiting > OUTPUT_LIMIT and self.program is not None:
            self.program.pause_output()

    async def _send_output(self) -> None:
        """Pass the program's output on in order; then, once it has gone, why."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                chunk = b"".join(self._outbox)
                self._outbox.clear()
                self._waiting = 0
                if self.program is not None:
                    self.program.resume_output()
                if self.socket.closed:
                    continue
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await asyncio.wait_for(self.socket.send_bytes(chunk), SEND_TIMEOUT)
            if self._program_gone.is_set():
                sentence = self._last_sentence or LEFT_SENTENCE
                if not self.socket.closed:
                    with contextlib.suppress(ConnectionError, RuntimeError):
                        await self.socket.send_str(ended(sentence))
                return

    def _program_ended(self, returncode: int) -> None:
        why = ending_sentence(returncode, self.config)
        log = self.door.log.warning if why is not None else self.door.log.info
        log("web: %s's program ended (%s)", self.name, ending(returncode))
        if why is not None:
            self._last_sentence = why
        if self._ended is not None:
            self._ended()
        self._program_gone.set()
        self._wake.set()
