"""Forked sessions are as separate as started ones: each its own process, session and process
group on its own terminal; one that crashes, is killed or gets a ^C ends alone, and the party
server and the fork server go on."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from tablegames.net.forkserver import ForkServer
from tablegames.net.pty_program import Limits, PtyProgram

from .ssh_harness import PROGRAM

ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "TERM": "xterm"}


class Session:
    """One forked stand-in session: what it printed, and its end."""

    def __init__(self) -> None:
        self.output = bytearray()
        self.ended: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.program: PtyProgram | None = None

    async def start(self, forks: ForkServer, name: str) -> Session:
        self.program = await PtyProgram.start(
            [sys.executable, str(PROGRAM)],
            {**ENV, "PLAYER": name},
            80,
            24,
            on_output=self.output.extend,
            on_exit=self.ended.set_result,
            forks=forks,
            limits=Limits(memory=512 * 2**20),
        )
        await self.shows(b"READY")
        return self

    async def shows(self, text: bytes, seconds: float = 10.0) -> None:
        for _ in range(int(seconds / 0.02)):
            if text in self.output:
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"{text!r} never came: {bytes(self.output)!r}")

    async def answers(self, line: str) -> None:
        assert self.program is not None
        self.program.write(f"{line}\r".encode())
        await self.shows(f"YOU SAID: {line}".encode())

    @property
    def pid(self) -> int:
        assert self.program is not None
        return self.program.pid


@asynccontextmanager
async def fork_server() -> AsyncIterator[ForkServer]:
    forks = await ForkServer.start(ENV)
    try:
        yield forks
    finally:
        await forks.close()


async def test_each_forked_session_is_a_session_of_its_own_on_its_own_terminal():
    async with fork_server() as forks:
        ann, bob = [await Session().start(forks, name) for name in ("Ann", "Bob")]
        for session in (ann, bob):
            assert b"PLAYER=Ann" in ann.output and b"PLAYER=Bob" in bob.output
            assert b"TTY=yes CTTY=yes" in session.output
            assert os.getsid(session.pid) == session.pid == os.getpgid(session.pid)
        assert forks.process.pid not in (ann.pid, bob.pid)
        assert os.getsid(forks.process.pid) != ann.pid
        for session in (ann, bob):
            assert session.program is not None
            await session.program.hang_up(grace=1.0)


@pytest.mark.parametrize(
    "end", ["exit 3", "kill", "ctrl-c"], ids=["crash", "killed", "interrupted"]
)
async def test_one_session_ending_leaves_the_others_and_the_fork_server_going(end):
    async with fork_server() as forks:
        ann, bob = [await Session().start(forks, name) for name in ("Ann", "Bob")]
        assert ann.program is not None
        if end == "kill":
            os.killpg(ann.pid, signal.SIGKILL)
        elif end == "ctrl-c":
            ann.program.write(b"\x03")  # the terminal's ^C: SIGINT to its own group alone
        else:
            ann.program.write(b"exit 3\r")
        returncode = await asyncio.wait_for(ann.ended, 10)
        assert returncode == {"exit 3": 3, "kill": -signal.SIGKILL, "ctrl-c": 1}[end]
        await bob.answers("still here")
        cy = await Session().start(forks, "Cy")  # the fork server forks on
        await cy.answers("me too")
        for session in (bob, cy):
            assert session.program is not None
            await session.program.hang_up(grace=1.0)


async def test_sessions_go_on_when_the_fork_server_is_gone_and_new_ones_start_anyway():
    async with fork_server() as forks:
        ann = await Session().start(forks, "Ann")
        forks.process.kill()
        await forks.process.wait()
        await ann.answers("still here")
        assert not forks.alive
        bob = await Session().start(forks, "Bob")  # started as a new process instead
        await bob.answers("hello")
        for session in (ann, bob):
            assert session.program is not None
            await session.program.hang_up(grace=1.0)
