"""Sessions forked, not started: one process imports Textual, Rich and the games once, then forks
each new session onto its pty (the zygote pattern of Android, and multiprocessing's forkserver).

A session started the usual way pays for a new interpreter and every import (about half a
second, more on a busy or small machine) and keeps its own copy of all it imported. Forked from
this server, it starts at once, and every page the imports filled is shared copy-on-write: the
server froze them out of the collector's way (`gc.freeze`) so no child's collection writes to
them. Each session keeps what it had as a program of its own: its own process in a session and
process group of its own with the pty as controlling terminal (its own signals: a hang-up or a
kill of its group reaches nobody else), its limits (`Limits`), its own environment, and a crash
that ends that session alone.

The party server (`ForkServer`, asyncio) speaks to the fork server (`serve`, this module run as
a program) over a Unix socket pair, one JSON message a packet, the pty's slave end passed along
(SCM_RIGHTS): `spawn` asks for a child, which the fork server answers with its pid, and reports
each child's end with its returncode (negative for a signal, as `subprocess` does). A program
this interpreter runs (`python -m MODULE ...`, `python SCRIPT ...`: the sessions' own,
`python -m tablegames session ...`) runs in the child itself, already imported; any other is
run as usual (the child `exec`s it).
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import fcntl
import gc
import importlib
import json
import os
import pkgutil
import runpy
import selectors
import signal
import socket
import sys
import termios
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from .pty_program import Limits

MESSAGE_SIZE = 256 * 1024  # one packet: an environment and an argument list fit many times over
#: What a session imports, imported once here (screens, bots and engines are found by package).
PRELOAD = (
    "tablegames.cli",
    "tablegames.tui.app",
    "tablegames.tui.follow",
    "tablegames.net.client",
    "textual.widgets",
    "textual.drivers.linux_driver",
)
PRELOAD_PACKAGES = ("tablegames.tui.screens", "tablegames.tui.widgets", "tablegames.bots")


#: The returncode of a child whose end the fork server did not live to report.
UNREPORTED = 1


class ForkedChild:
    """A session the fork server started: its pid, and its returncode once it has ended.

    The fork server reports its children's ends. Should it die first, the ends are still seen
    (the child is watched through a pid file descriptor, or polled), with `UNREPORTED`.
    """

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._loop = asyncio.get_running_loop()
        self._ended = self._loop.create_future()

    def ended(self, returncode: int) -> None:
        if self.returncode is None:
            self.returncode = returncode
            self._ended.set_result(returncode)

    def watch_alone(self) -> None:
        """The fork server is gone: see this child's end without it."""
        if self.returncode is not None:
            return
        try:
            watched = os.pidfd_open(self.pid)
        except OSError:  # gone already (or no pidfd here): look now and then
            self._loop.create_task(self._poll())
            return

        def gone() -> None:
            self._loop.remove_reader(watched)
            os.close(watched)
            self.ended(UNREPORTED)

        self._loop.add_reader(watched, gone)

    async def _poll(self) -> None:
        while self.returncode is None:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                self.ended(UNREPORTED)
            except PermissionError:  # (a pid taken by another user's process: it is gone)
                self.ended(UNREPORTED)
            await asyncio.sleep(0.5)

    async def wait(self) -> int:
        returncode: int = await asyncio.shield(self._ended)
        return returncode


class ForkServer:
    """The party server's side: start the fork server, ask it for children, hear them end."""

    def __init__(self, process: asyncio.subprocess.Process, control: socket.socket) -> None:
        self.process = process
        self._control = control
        self._asked: dict[int, asyncio.Future[int]] = {}  # request number -> its pid
        self._children: dict[int, ForkedChild] = {}
        self._ended_early: dict[int, int] = {}  # pids reported ended before their answer came
        self._next = 0
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(control.fileno(), self._hear)
        self.ready: asyncio.Future[None] = self._loop.create_future()

    @classmethod
    async def start(cls, env: dict[str, str], timeout: float = 60.0) -> ForkServer:
        """Start the fork server with the environment every session starts from; returns once
        it has imported everything (OSError if it cannot)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                __name__,
                str(theirs.fileno()),
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),),
                start_new_session=True,  # a ^C at the host's terminal is the party server's
            )
        finally:
            theirs.close()
        ours.setblocking(False)
        server = cls(process, ours)
        try:
            await asyncio.wait_for(asyncio.shield(server.ready), timeout)
        except BaseException:
            await server.close()
            raise
        return server

    @property
    def alive(self) -> bool:
        """True while the fork server answers (a session can be forked)."""
        return self._control.fileno() >= 0 and self.process.returncode is None

    async def spawn(
        self, argv: Sequence[str], env: dict[str, str], terminal: int, limits: Limits
    ) -> ForkedChild:
        """A new child running `argv` with exactly `env` on the pty slave `terminal`."""
        if not self.alive:
            raise OSError("the fork server has stopped")
        self._next += 1
        asked = self._loop.create_future()
        self._asked[self._next] = asked
        message = {"id": self._next, "argv": list(argv), "env": env, "limits": asdict(limits)}
        fds = array.array("i", [terminal])
        self._control.sendmsg(
            [json.dumps(message).encode()], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)]
        )
        pid = await asked
        child = self._children[pid] = ForkedChild(pid)
        if pid in self._ended_early:
            child.ended(self._ended_early.pop(pid))
        elif not self.alive:  # it died between answering and now
            child.watch_alone()
        return child

    def _hear(self) -> None:
        try:
            data = self._control.recv(MESSAGE_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the fork server is gone: nothing more will be started or reported
            self._gone()
            return
        message = json.loads(data)
        if "ready" in message:
            if not self.ready.done():
                self.ready.set_result(None)
        elif "exit" in message:
            pid, returncode = message["pid"], message["exit"]
            child = self._children.pop(pid, None)
            if child is None:
                self._ended_early[pid] = returncode
            else:
                child.ended(returncode)
        elif "id" in message:
            asked = self._asked.pop(message["id"], None)
            if asked is not None and not asked.done():
                if "pid" in message:
                    asked.set_result(message["pid"])
                else:
                    asked.set_exception(OSError(message.get("error", "could not fork")))

    def _gone(self) -> None:
        with contextlib.suppress(ValueError, OSError):
            self._loop.remove_reader(self._control.fileno())
        self._control.close()
        for asked in self._asked.values():
            if not asked.done():
                asked.set_exception(OSError("the fork server has stopped"))
        for child in self._children.values():
            child.watch_alone()
        if not self.ready.done():
            self.ready.set_exception(OSError("the fork server stopped before it was ready"))
        # Its children live on (each in a session of its own); their pty closing ends them.

    async def close(self) -> None:
        """Stop the fork server (the sessions it started are the caller's to end first)."""
        self._gone()
        with contextlib.suppress(ProcessLookupError):
            self.process.terminate()
        await self.process.wait()


# -- the fork server itself ------------------------------------------------------------------------
def preload() -> None:
    """Import everything a session will: it is then shared by every child, not repeated."""
    for name in PRELOAD:
        importlib.import_module(name)
    for package_name in PRELOAD_PACKAGES:
        package = importlib.import_module(package_name)
        for found in pkgutil.walk_packages(package.__path__, package_name + "."):
            importlib.import_module(found.name)
    from ..rules import GAMES

    for game in GAMES.values():
        _ = game.state_class  # each engine


def serve(control: socket.socket) -> None:
    """Fork a child for each `spawn` asked for until the party server closes the socket;
    report each child's end."""
    wakeup_read, wakeup_write = os.pipe()
    for fd in (wakeup_read, wakeup_write):
        os.set_blocking(fd, False)
    signal.set_wakeup_fd(wakeup_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # (a handler, so that the pipe is written)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    preload()
    gc.collect()
    gc.freeze()  # what is imported now stays out of every collection, in every child
    control.send(json.dumps({"ready": True}).encode())
    events = selectors.DefaultSelector()
    events.register(control, selectors.EVENT_READ)
    events.register(wakeup_read, selectors.EVENT_READ)
    while True:
        for key, _ in events.select():
            if key.fileobj is control:
                if not _answer(control):
                    return
            else:
                with contextlib.suppress(BlockingIOError):
                    os.read(wakeup_read, 4096)
        _report_ended(control)


def _answer(control: socket.socket) -> bool:
    """Take one `spawn` and fork its child; False once the party server has gone."""
    fds = array.array("i")
    data, ancillary, _, _ = control.recvmsg(MESSAGE_SIZE, socket.CMSG_SPACE(fds.itemsize))
    for level, kind, passed in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(passed[: len(passed) - len(passed) % fds.itemsize])
    if not data:
        return False
    message = json.loads(data)
    if not fds:
        control.send(json.dumps({"id": message["id"], "error": "no terminal given"}).encode())
        return True
    terminal = fds[0]
    program = message["argv"][0] if message["argv"] else ""
    if program != sys.executable and not os.access(program, os.X_OK):  # as exec would fail
        os.close(terminal)
        error = {"id": message["id"], "error": f"cannot run {program!r}"}
        control.send(json.dumps(error).encode())
        return True
    try:
        pid = os.fork()
    except OSError as problem:
        os.close(terminal)
        control.send(json.dumps({"id": message["id"], "error": str(problem)}).encode())
        return True
    if pid == 0:  # the child: never returns
        _become(message, terminal)
    os.close(terminal)
    control.send(json.dumps({"id": message["id"], "pid": pid}).encode())
    return True


def _report_ended(control: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        returncode = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        with contextlib.suppress(OSError):
            control.send(json.dumps({"pid": pid, "exit": returncode}).encode())


def _become(message: dict[str, Any], terminal: int) -> None:
    """In the new child: become the session's program, as a freshly started one would be."""
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as a new interpreter has it
        os.setsid()
        fcntl.ioctl(terminal, termios.TIOCSCTTY, 0)
        for fd in (0, 1, 2):
            os.dup2(terminal, fd)
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))  # the fork server's own, the slave's copy
        Limits(**message["limits"]).apply()
        argv, env = message["argv"], message["env"]
        os.environ.clear()
        os.environ.update(env)
        if argv[0] != sys.executable or len(argv) < 2:
            os.execve(argv[0], argv, env)
        for name, fd, mode in (("stdin", 0, "r"), ("stdout", 1, "w"), ("stderr", 2, "w")):
            stream = open(fd, mode, encoding="utf-8", closefd=False)  # noqa: SIM115
            setattr(sys, name, stream)  # (the pty, in UTF-8 as the session's locale says)
            setattr(sys, f"__{name}__", stream)
        try:
            if argv[1] == "-m":
                sys.argv = [argv[2], *argv[3:]]
                runpy.run_module(argv[2], run_name="__main__", alter_sys=True)
            else:
                sys.argv = list(argv[1:])
                runpy.run_path(argv[1], run_name="__main__")
            code = 0
        except SystemExit as ended:
            code = ended.code if isinstance(ended.code, int) else (0 if ended.code is None else 1)
    except BaseException as problem:  # nothing may leave a child in the fork server's loop
        code = 1
        with contextlib.suppress(Exception):
            from .logs import note_problem

            note_problem(problem)  # (never printed: the pty is a guest's screen)
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def main() -> None:
    serve(socket.socket(fileno=int(sys.argv[1])))


if __name__ == "__main__":
    main()
