"""One SSH session at the table: its terminal, the join code if still owed, then one program.

Only a shell on a terminal is served. A command (`ssh host cmd`, scp) gets a sentence and exit
status 1; a subsystem (sftp) is refused; a session without a pty is told to use `ssh -t`.
Everything the program prints is passed on as bytes, and everything typed goes to it: Ctrl-C
is just a byte for the program. The session's end is the program's end: its exit status goes
to the client; a dropped connection hangs the program up.

Whatever ends the session (the program exiting on its own or failing, the host closing the
server, an idle timeout), the guest's terminal is left as it was found: if the program had
put it in application mode (the alternate screen, mouse reporting...) and did not undo that
itself, the session does, before its last sentence.
"""

from __future__ import annotations

import logging
import signal
import time
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any, Protocol

import asyncssh

from .admission import code_matches, held_back
from .guard import AttemptLimiter, wait_in_words
from .pty_program import Forks, Limits, PacedResizes, PtyProgram
from .ssh_screen import CodePrompt, Entered, GaveUp, GuestScreen, IdleWatch
from .ssh_types import (
    EXIT_FAILED,
    EXIT_OUT_OF_MEMORY,
    Identity,
    Launch,
    SshConfig,
    Terminal,
    safe_size,
    safe_term,
)

EARLY_KEYS_LIMIT = 4096  # keys typed before the program is up, kept for it
GOODBYE_TIMEOUT = 2.0  # seconds a client gets to read the last sentence before it is cut off
RESIZES_PER_SECOND = 10  # new terminal sizes passed on to the program at most


class SessionDoor(Protocol):
    """What a session asks of the SSH door (`ssh.SshFrontDoor`)."""

    @property
    def config(self) -> SshConfig: ...

    @property
    def log(self) -> logging.Logger: ...

    @property
    def limiter(self) -> AttemptLimiter: ...

    @property
    def join_code(self) -> str | None: ...

    @property
    def sessions(self) -> set[TableSession]: ...  # with a program, or about to have one

    @property
    def forks(self) -> Forks | None: ...

    @property
    def launch(self) -> Callable[[Identity, Terminal], Launch]: ...

    def full(self) -> bool: ...

    def track(self, work: Coroutine[object, object, None]) -> None: ...


class Login(Protocol):
    """What a session asks of the login it came in by (`ssh_login.Doorman`)."""

    @property
    def door(self) -> SessionDoor: ...

    @property
    def identity(self) -> Identity | None: ...

    @property
    def admitted(self) -> bool: ...

    @property
    def code_given(self) -> bool: ...

    def how_to_connect(self, name: str, *flags: str) -> str: ...

    def note_refusal(self, reason: str) -> None: ...

    def code_accepted(self) -> str | None: ...

    def wrong_code(self) -> bool: ...

    def launched(self) -> None: ...

    def close(self) -> None: ...


class TableSession(asyncssh.SSHServerSession[bytes]):
    """A session on one connection: refusals, the join code prompt, then a `PtyProgram`."""

    def __init__(self, doorman: Login) -> None:
        self.doorman = doorman
        self.door = doorman.door
        self.screen = GuestScreen()  # the guest's terminal, over the channel
        self.terminal: Terminal | None = None
        self.program: PtyProgram | None = None
        self.ended: Callable[[], None] | None = None  # what to call once the program has gone
        self.started = time.monotonic()
        self.asking_for_code = False
        self._code = CodePrompt()
        self._command: str | None = None
        self._early_keys = bytearray()
        self._idle = IdleWatch(self.door.config.idle_timeout, self._idle_over)
        self._closing = False  # whoever set this says goodbye and sends the exit status
        self._resizes = PacedResizes(RESIZES_PER_SECOND)

    @property
    def identity(self) -> Identity:
        assert self.doorman.identity is not None  # sessions open only after login
        return self.doorman.identity

    # -- what the client asks for --------------------------------------------------------------
    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.screen.chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any
    ) -> bool:
        columns, rows = safe_size(term_size[0], term_size[1])
        self.terminal = Terminal(safe_term(term_type), columns, rows)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self._command = command  # accepted only to say why it will not run
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self.door.log.warning(
            "ssh: refused subsystem %r for %s", subsystem[:40], self.identity.name
        )
        return False

    def session_started(self) -> None:
        door, identity = self.door, self.identity
        if self._command is not None:
            door.log.warning("ssh: refused a command from %s (%s)", identity.name, identity.address)
            self.refuse(
                "tablegames runs no commands: connect with plain "
                f"{self.doorman.how_to_connect(identity.name)}"
            )
        elif self.terminal is None:
            door.log.warning("ssh: refused %s (%s): no terminal", identity.name, identity.address)
            self.refuse(
                "tablegames needs a terminal: connect with "
                f"{self.doorman.how_to_connect(identity.name, '-t')}"
            )
        elif self.doorman.admitted:
            self._enter()
        elif self.doorman.code_given:
            self.refuse("You were turned away at login.")  # (its connection is closing)
        elif not self._refused_when_full():  # (said before the code is asked, and after)
            self._ask_for_code()

    def _enter(self) -> None:
        """The player is in: the session counts as one of the server's, and its program starts."""
        if not self._refused_when_full():
            self.door.sessions.add(self)
            self._idle.start()
            self.door.track(self._launch())

    def _refused_when_full(self) -> bool:
        door = self.door
        if not door.full():
            return False
        self.doorman.note_refusal("full")
        self.refuse(
            f"The table server is full ({door.config.max_sessions} sessions); try again later."
        )
        return True

    # -- keys in --------------------------------------------------------------------------------
    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self._idle.key()
        if self.asking_for_code:
            match self._code.keys(data):
                case Entered(code=typed):
                    self._code_entered(typed)
                case GaveUp():
                    self.refuse("No join code given.")
        elif self.program is not None:
            self.program.write(data)
        elif len(self._early_keys) < EARLY_KEYS_LIMIT:
            self._early_keys += data

    def eof_received(self) -> bool:
        return True  # the program runs on, and may still print

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if self.terminal is None:
            return
        columns, rows = safe_size(width, height)
        self.terminal = replace(self.terminal, columns=columns, rows=rows)
        if self.program is not None:
            self._resizes.ask(self._resize)

    def _resize(self) -> None:
        if self.program is not None and self.terminal is not None:
            self.program.resize(self.terminal.columns, self.terminal.rows)

    # -- output flow ----------------------------------------------------------------------------
    def pause_writing(self) -> None:
        if self.program is not None:
            self.program.pause_output()

    def resume_writing(self) -> None:
        if self.program is not None:
            self.program.resume_output()

    # -- the end --------------------------------------------------------------------------------
    def connection_lost(self, exc: Exception | None) -> None:
        """The channel is gone (the client left, or the connection dropped)."""
        self._closing = True
        self.asking_for_code = False
        self._idle.stop()
        self._resizes.cancel()
        if self.program is None:
            self.door.sessions.discard(self)
        else:  # a dropped line: the program is hung up, and leaves `sessions` once reaped
            self.door.track(self.end())
        self.doorman.close()

    async def end(self) -> None:
        """Hang up the program (if any) and wait until it has gone."""
        self._closing = True
        if self.program is not None:
            await self.program.hang_up(self.door.config.hangup_grace)
        self.door.sessions.discard(self)

    async def close_with(self, sentence: str, status: int = 0) -> None:
        """End the program, then tell the client why and close the session."""
        if self._closing:
            return
        self._closing = True
        await self.end()
        self.screen.restore()
        self.screen.say(sentence)
        self.screen.exit(status)
        # OpenSSH drops output it has not shown yet when the connection goes: let the client
        # close the channel first (it leaves on its own then).
        await self.screen.closed(GOODBYE_TIMEOUT)

    def refuse(self, sentence: str) -> None:
        """Turn the session away before any program runs."""
        self._closing = True
        self.asking_for_code = False
        self.screen.say(sentence)
        self.screen.exit(1)
        self.door.sessions.discard(self)

    # -- the join code, for clients that came in with a key ---------------------------------
    def _ask_for_code(self) -> None:
        wait = self.door.limiter.refused_for(self.identity.address)
        if wait > 0:
            self.refuse(held_back(self.identity.address, wait))
            return
        self.asking_for_code = True
        self.screen.write(b"This party needs its join code (the host has it).\r\nJoin code: ")

    def _code_entered(self, typed: str) -> None:
        self.screen.write(b"\r\n")
        join_code = self.door.join_code
        assert join_code is not None
        if code_matches(typed, join_code):
            self.asking_for_code = False
            why_not = self.doorman.code_accepted()
            if why_not is None:
                self._enter()
            else:
                self.refuse(why_not)
        elif self.doorman.wrong_code():
            wait = self.door.limiter.refused_for(self.identity.address)
            self.refuse("That is not the join code. " + held_back(self.identity.address, wait))
        else:
            self.screen.write(b"That is not the join code: ask the host for it.\r\nJoin code: ")

    # -- the program ----------------------------------------------------------------------------
    async def _launch(self) -> None:
        identity, terminal = self.identity, self.terminal
        assert terminal is not None
        try:
            plan = self.door.launch(identity, terminal)
        except Exception:
            self.door.log.exception("ssh: no program to run for %s", identity.name)
            self.refuse("The table could not be started here; tell the host.")
            return
        try:
            program = await PtyProgram.start(
                plan.argv,
                plan.env,
                terminal.columns,
                terminal.rows,
                on_output=self.screen.relay,
                on_exit=self._program_ended,
                on_input_blocked=self.screen.input_blocked,
                limits=session_limits(self.door.config),
                forks=self.door.forks,
            )
        except Exception:
            self.door.log.exception("ssh: could not start the program for %s", identity.name)
            self.refuse("The table could not be started here; tell the host.")
            if plan.ended is not None:
                plan.ended()
            return
        self.program, self.ended = program, plan.ended
        self.doorman.launched()
        self.door.log.info("ssh: %s joined the party (pid %d)", identity.name, program.pid)
        if self._closing:  # the client left while it was starting
            await self.end()
            return
        if self.terminal is not None and self.terminal != terminal:  # resized meanwhile
            program.resize(self.terminal.columns, self.terminal.rows)
        if self._early_keys:
            program.write(bytes(self._early_keys))
            self._early_keys.clear()

    def _program_ended(self, returncode: int) -> None:
        identity, config = self.identity, self.door.config
        why = ending_sentence(returncode, config)
        log = self.door.log.warning if why is not None else self.door.log.info
        log("ssh: %s's program ended (%s)", identity.name, ending(returncode))
        if self.ended is not None:
            self.ended()
        self.door.sessions.discard(self)
        self._idle.stop()
        self._resizes.cancel()
        if not self._closing:
            self._closing = True
            if why is not None:
                self.screen.restore()
                self.screen.say(why)
            self.screen.exit(returncode if returncode >= 0 else 128 - returncode)

    def _idle_over(self) -> None:
        idle_timeout = self._idle.timeout
        self.door.log.info(
            "ssh: %s idle for %s: closing", self.identity.name, wait_in_words(idle_timeout)
        )
        self.door.track(
            self.close_with(
                f"No keystroke for {wait_in_words(idle_timeout)}: this session is closed."
            )
        )


def session_limits(config: SshConfig) -> Limits:
    """What one session's program may use, from the door's settings."""
    return Limits(
        memory=config.session_memory_mb * 2**20,
        cpu_seconds=config.session_cpu_seconds,
        nice=config.session_nice,
        open_files=256,
    )


def ending_sentence(returncode: int, config: SshConfig) -> str | None:
    """What to tell the guest whose program ended so (None: it ended as programs do)."""
    again = "Connect again to go on (a seat at a game is kept for you)."
    if returncode == EXIT_OUT_OF_MEMORY:
        return (
            f"This session reached its memory limit ({config.session_memory_mb} MB) and was "
            f"closed. {again}"
        )
    if returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        cpu = wait_in_words(config.session_cpu_seconds)
        used = f"This session used its share of the host's processor ({cpu})"
        return f"{used} and was closed. {again}"
    if returncode == EXIT_FAILED:
        return f"Something went wrong in this session (the host's log says what). {again}"
    if returncode < 0 and returncode not in (-signal.SIGHUP, -signal.SIGTERM):
        return f"This session stopped unexpectedly ({ending(returncode)}). {again}"
    return None


def ending(returncode: int) -> str:
    """How a program ended, for the log: "status 0", "SIGHUP"."""
    if returncode >= 0:
        return f"status {returncode}"
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"
