"""One program on its own pseudo-terminal, its bytes relayed through callbacks (knows no SSH).

The program runs in a session of its own with the terminal as its controlling terminal, the
way a login shell does: it gets SIGWINCH when the size changes and SIGHUP when the line drops,
and its whole process group can be ended at once. The parent keeps only the master side, read
without blocking on the event loop; the slave is closed as soon as the child has it. `Limits`
are set in the child before it runs the program (rlimits and a lower priority), so one
program cannot take the machine's memory or processors from the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import resource
import signal
import struct
import termios
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

READ_SIZE = 65536
INPUT_LIMIT = 65536  # unwritten keystrokes held before the sender is asked to pause


CPU_GRACE = 5  # seconds of CPU between SIGXCPU (the soft limit) and SIGKILL (the hard one)


@dataclass(frozen=True)
class Limits:
    """What a program may use; None leaves that limit as it was."""

    memory: int | None = None  # bytes of data (heap and private maps: RLIMIT_DATA)
    cpu_seconds: int | None = None  # CPU time; then SIGXCPU, and SIGKILL `CPU_GRACE` later
    nice: int = 0  # added to its priority: higher is kinder to everything else
    open_files: int | None = None
    # Core dumps are always off: a program's memory holds what proves who its player is.

    def apply(self) -> None:
        """Set these limits on the calling process (the child, before it runs the program)."""
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if self.memory is not None:
            resource.setrlimit(resource.RLIMIT_DATA, (self.memory, self.memory))
        if self.cpu_seconds is not None:
            limit = (self.cpu_seconds, self.cpu_seconds + CPU_GRACE)
            resource.setrlimit(resource.RLIMIT_CPU, limit)
        if self.open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))
        if self.nice:
            os.nice(self.nice)


def _child_setup(limits: Limits) -> Callable[[], None]:
    """What the child does after setsid, before it runs the program: make stdin (the slave)
    its controlling terminal, then take on `limits`."""

    def setup() -> None:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        limits.apply()

    return setup


class PacedResizes:
    """New terminal sizes passed on to a program at most `per_second` times a second, the
    last one winning: a program lays its whole screen out again for each, and a client may
    send sizes nonstop."""

    def __init__(self, per_second: float) -> None:
        self.per_second = per_second
        self._due: asyncio.TimerHandle | None = None
        self._last = 0.0

    def ask(self, resize: Callable[[], None]) -> None:
        """Call `resize` (which reads the newest size) now, or once the pace allows."""
        if self._due is None:
            wait = self._last + 1 / self.per_second - time.monotonic()
            self._due = asyncio.get_running_loop().call_later(max(wait, 0), self._run, resize)

    def _run(self, resize: Callable[[], None]) -> None:
        self._due, self._last = None, time.monotonic()
        resize()

    def cancel(self) -> None:
        if self._due is not None:
            self._due.cancel()
            self._due = None


def set_size(fd: int, columns: int, rows: int) -> None:
    """Tell the terminal on `fd` its size (the kernel signals SIGWINCH to its foreground group)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class Child(Protocol):
    """A started program as `PtyProgram` follows it: a subprocess, or a forked session."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...


class Forks(Protocol):
    """What forks a program already imported (`forkserver.ForkServer`), faster than starting
    a new process."""

    @property
    def alive(self) -> bool: ...

    async def spawn(
        self, argv: Sequence[str], env: dict[str, str], terminal: int, limits: Limits
    ) -> Child: ...


class PtyProgram:
    """A running program on a pty: `write` sends it keys, `on_output` gets what it prints.

    `on_exit(returncode)` is called once, after the program has exited and its last output
    has been passed on; the returncode is negative for a signal, as in `subprocess`.
    """

    def __init__(
        self,
        process: Child,
        master: int,
        on_output: Callable[[bytes], None],
        on_exit: Callable[[int], None],
        on_input_blocked: Callable[[bool], None],
    ) -> None:
        self.process = process
        self.pid = process.pid
        self._master: int | None = master
        self._on_output = on_output
        self._on_exit = on_exit
        self._on_input_blocked = on_input_blocked
        self._pending_input = bytearray()
        self._reading = False
        self._loop = asyncio.get_running_loop()
        self._resume_reading()
        self._watch = asyncio.create_task(self._wait_for_exit())

    @classmethod
    async def start(
        cls,
        argv: list[str],
        env: dict[str, str],
        columns: int,
        rows: int,
        on_output: Callable[[bytes], None],
        on_exit: Callable[[int], None],
        on_input_blocked: Callable[[bool], None] = lambda blocked: None,
        limits: Limits = Limits(),
        forks: Forks | None = None,
    ) -> PtyProgram:
        """Start `argv` with exactly `env` on a new pty of the given size, under `limits`;
        forked by `forks` (already imported, shared) when given, else as a new process."""
        master, slave = os.openpty()
        try:
            set_size(master, columns, rows)
            os.set_blocking(master, False)
            # preexec_fn runs after the child's setsid (start_new_session): without its ioctl
            # the program would have a terminal but no controlling terminal (no SIGWINCH, no
            # /dev/tty, no job control); then the limits. close_fds keeps our other fds out.
            process: Child
            if forks is not None and forks.alive:  # (gone: a session starts the slow way)
                process = await forks.spawn(argv, env, slave, limits)
            else:
                process = await asyncio.create_subprocess_exec(
                    *argv,
                    stdin=slave,
                    stdout=slave,
                    stderr=slave,
                    env=env,
                    start_new_session=True,
                    preexec_fn=_child_setup(limits),
                    close_fds=True,
                )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)  # else reading the master never sees the program's end
        return cls(process, master, on_output, on_exit, on_input_blocked)

    @property
    def running(self) -> bool:
        return self.process.returncode is None

    def write(self, data: bytes) -> None:
        """Send keystrokes; held back (and the sender paused) while the program reads slowly."""
        if self._master is None:
            return
        if not self._pending_input:
            data = data[self._write_some(data) :]
        if data:
            first_held = not self._pending_input
            self._pending_input += data
            if first_held:
                self._loop.add_writer(self._master, self._flush_input)
            if len(self._pending_input) > INPUT_LIMIT:
                self._on_input_blocked(True)

    def resize(self, columns: int, rows: int) -> None:
        if self._master is not None:
            set_size(self._master, columns, rows)

    def size(self) -> tuple[int, int] | None:
        """The terminal's size now (columns, rows); None once the program has gone."""
        if self._master is None:
            return None
        rows, columns, _, _ = struct.unpack(
            "HHHH", fcntl.ioctl(self._master, termios.TIOCGWINSZ, bytes(8))
        )
        return columns, rows

    def pause_output(self) -> None:
        """Stop reading what the program prints (the other end is not keeping up)."""
        if self._reading and self._master is not None:
            self._loop.remove_reader(self._master)
            self._reading = False

    def resume_output(self) -> None:
        self._resume_reading()

    async def hang_up(self, grace: float = 2.0) -> int:
        """End the program as a dropped line would: SIGHUP, then SIGTERM, then SIGKILL.

        Each signal goes to the program's whole process group, with `grace` seconds between.
        Returns the returncode once the program has been reaped.
        """
        for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGKILL):
            if not self.running:
                break
            self._signal_group(sig)
            if sig == signal.SIGHUP:
                self._close_master()
            await asyncio.wait({self._watch}, timeout=grace)
        await self._watch
        return await self.process.wait()

    def _signal_group(self, sig: signal.Signals) -> None:
        # Only while the leader is unreaped is its pid surely still this program's group.
        if self.running:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, sig)

    def _write_some(self, data: bytes) -> int:
        assert self._master is not None
        try:
            return os.write(self._master, data)
        except BlockingIOError:
            return 0
        except OSError:  # the program is gone; its exit is reported by _wait_for_exit
            return len(data)

    def _flush_input(self) -> None:
        written = self._write_some(bytes(self._pending_input))
        del self._pending_input[:written]
        if not self._pending_input and self._master is not None:
            self._loop.remove_writer(self._master)
            self._on_input_blocked(False)

    def _resume_reading(self) -> None:
        if not self._reading and self._master is not None:
            self._loop.add_reader(self._master, self._read_output)
            self._reading = True

    def _read_output(self) -> None:
        data = self._read_some()
        if data:
            self._on_output(data)
        elif data is None:  # the slave side is closed by everyone: nothing more will come
            self.pause_output()

    def _read_some(self) -> bytes | None:
        """What the program printed: b"" if nothing yet, None once its side is closed."""
        if self._master is None:
            return None
        try:
            return os.read(self._master, READ_SIZE) or None
        except BlockingIOError:
            return b""
        except OSError as error:
            if error.errno == errno.EIO:  # Linux's way of saying the slave side is closed
                return None
            raise

    async def _wait_for_exit(self) -> None:
        returncode = await self.process.wait()
        # What it printed just before exiting is still in the pty: pass it on first. (Anything
        # it left running in its group gets SIGHUP from the kernel: its session leader is gone.)
        while data := self._read_some():
            self._on_output(data)
        self._close_master()
        self._on_exit(returncode)

    def _close_master(self) -> None:
        if self._master is None:
            return
        self.pause_output()
        if self._pending_input:
            self._loop.remove_writer(self._master)
            self._pending_input.clear()
        os.close(self._master)
        self._master = None
