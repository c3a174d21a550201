"""Serving the SSH front door from a thread and joining it with the real OpenSSH client in tmux.

The door runs on an event loop of its own thread, so a test may block on tmux while the door
serves; everything is on loopback, and every wait is bounded.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tablegames.net.forkserver import ForkServer
from tablegames.net.guard import AttemptLimiter
from tablegames.net.ssh import Identity, Launch, SshConfig, SshFrontDoor, Terminal
from tablegames.store import Store

from ..e2e.terminal import Terminal as Tmux

PROGRAM = Path(__file__).with_name("ssh_table_program.py")
T = TypeVar("T")

needs_ssh_and_tmux = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("ssh-keygen") is None or not shutil.which("tmux"),
    reason="needs the OpenSSH client (ssh, ssh-keygen) and tmux: apt-get install openssh-client "
    "tmux",
)


def table_program(identity: Identity, terminal: Terminal) -> Launch:
    """The stand-in program, told who it runs for through its (otherwise bare) environment."""
    return Launch(
        [sys.executable, str(PROGRAM)],
        {
            "PATH": "/usr/bin:/bin",
            "TERM": terminal.term,
            "PLAYER": identity.name,
            "GUEST": "yes" if identity.guest else "no",
            "KEY": identity.fingerprint or "none",
        },
    )


class Records(logging.Handler):
    """The door's log lines, kept for the test to read."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


class DoorThread:
    """An `SshFrontDoor` serving from its own thread and event loop."""

    def __init__(
        self,
        config: SshConfig,
        store_path: Path,
        limiter: AttemptLimiter | None = None,
        launch: Callable[[Identity, Terminal], Launch] = table_program,
        forked: bool = False,
    ) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.records = Records()
        self.log = logging.getLogger(f"tablegames.ssh.test{id(self)}")
        self.log.setLevel(logging.DEBUG)
        self.log.addHandler(self.records)
        # SQLite connections belong to the thread that opened them: the door's thread.
        self.store: Store = self.call(lambda: Store(store_path))
        # Forked: each session's program forked by a fork server, as `serve` runs them.
        self.forks = self.run(ForkServer.start(dict(os.environ))) if forked else None
        self.door = SshFrontDoor(config, self.store, launch, limiter, self.log, self.forks)
        self.port = self.run(self.door.start())

    def run(self, work: Coroutine[Any, Any, T], timeout: float = 30) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    def call(self, function: Callable[[], T]) -> T:
        async def called() -> T:
            return function()

        return self.run(called())

    def session_count(self) -> int:
        return self.call(lambda: len(self.door.sessions))

    def stop(self) -> None:
        if self.loop.is_closed():
            return
        try:
            self.run(self.door.close())
            if self.forks is not None:
                self.run(self.forks.close())
            self.call(self.store.close)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()
            self.log.removeHandler(self.records)


def make_key(directory: Path, name: str) -> Path:
    """A fresh ed25519 client key without a passphrase."""
    path = directory / name
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(path)],
        check=True,
        timeout=30,
    )
    return path


def ssh_command(
    port: int,
    name: str,
    key: Path | None,
    *options: str,
    command: str | None = None,
    terminal: bool = True,
) -> list[str]:
    """`ssh` as a friend runs it: a key or none (keyboard-interactive), no user config, a pty.

    `options` come first, as the first setting of an option is the one OpenSSH keeps.
    """
    line = ["ssh", *options, "-F", "/dev/null", "-p", str(port), "-tt" if terminal else "-T"]
    line += ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"]
    line += ["-o", "IdentityAgent=none", "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=10"]
    if key is None:
        line += ["-o", "PubkeyAuthentication=no"]
        line += ["-o", "PreferredAuthentications=keyboard-interactive"]
    else:
        line += ["-i", str(key), "-o", "IdentitiesOnly=yes"]
    line.append(f"{name}@127.0.0.1")
    return [*line, command] if command is not None else line


class SshClients:
    """`ssh` clients in tmux terminals; each shows SSH-EXIT=status when its ssh ends."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.opened: list[Tmux] = []

    def open(self, ssh: list[str], width: int = 80, height: int = 24) -> Tmux:
        script = f"{shlex.join(ssh)}; echo SSH-EXIT=$?"
        terminal = Tmux(["sh", "-c", script], self.env, width, height)
        self.opened.append(terminal)
        return terminal

    def close(self) -> None:
        for terminal in self.opened:
            terminal.close()


def on_a_terminal(pid: int) -> bool:
    """True if `pid` has a controlling terminal: a session's program (forked or started),
    not the server or its fork server."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return int(stat.rsplit(")", 1)[1].split()[4]) != 0  # tty_nr


def descendants(pid: int) -> list[int]:
    """Every process below `pid`, from /proc."""
    found: list[int] = []
    waiting = [pid]
    while waiting:
        parent = waiting.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                found.append(child)
                waiting.append(child)
    return found


def process_name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def ssh_client_pid(terminal: Tmux) -> int:
    """The `ssh` process running in `terminal`."""
    for pid in descendants(terminal.pane_pid()):
        if process_name(pid) == "ssh":
            return pid
    raise AssertionError("no ssh process in the terminal")


def alive(pid: int) -> bool:
    """True if `pid` is a process that has not exited (a zombie has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_until(check: Callable[[], bool], timeout: float = 15.0, what: str = "it") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        time.sleep(0.05)


def shown_pid(screen: str) -> int:
    """The program's pid as it printed it ("PID=1234")."""
    for word in screen.split():
        if word.startswith("PID="):
            return int(word[4:])
    raise AssertionError(f"no PID= on the screen:\n{screen}")


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def my_children() -> list[int]:
    return descendants(os.getpid())
