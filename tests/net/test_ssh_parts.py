"""The SSH front door's parts without SSH: guest names, join codes, the host key, a pty program."""

from __future__ import annotations

import asyncio
import os
import signal
import stat
import sys
import textwrap
from pathlib import Path

import pytest

from tablegames.net.admission import code_matches
from tablegames.net.guest_list import guest_name
from tablegames.net.pty_program import Limits, PtyProgram
from tablegames.net.ssh import load_host_key
from tablegames.net.ssh_screen import CodePrompt, Entered, GaveUp, GuestScreen
from tablegames.net.ssh_session import ending_sentence
from tablegames.net.ssh_types import (
    EXIT_FAILED,
    EXIT_OUT_OF_MEMORY,
    SshConfig,
    safe_size,
    safe_term,
    short_fingerprint,
)


# -- names, codes, terminals ----------------------------------------------------------------------
def test_a_guest_is_named_after_the_name_they_asked_for():
    taken: set[str] = set()
    assert guest_name("carol", taken.__contains__) == "guest-carol"
    taken.add("guest-carol")
    assert guest_name("carol", taken.__contains__) == "guest-carol-2"
    assert guest_name("Guest-Ben", taken.__contains__) == "Guest-Ben"  # already a guest's name
    long = guest_name("x" * 40, lambda name: False)
    assert long == "guest-" + "x" * 18 and len(long) == 24
    assert guest_name("carol", lambda name: True).startswith("guest-")  # never gives up


def test_join_codes_compare_without_case_spaces_or_dashes():
    assert code_matches("kx-pf", "KXPF")
    assert code_matches(" K X P F ", "kx-pf")
    assert not code_matches("KXPG", "KXPF")
    assert not code_matches("", "KXPF")
    assert not code_matches("ＫＸＰＦ\udcff", "KXPF")  # odd input is just wrong, not an error


def test_only_plausible_terminal_types_reach_the_program():
    assert safe_term("xterm-256color") == "xterm-256color"
    assert safe_term("screen.xterm-256color") == "screen.xterm-256color"
    assert safe_term("../../../tmp/evil") == "xterm-256color"
    assert safe_term("") == "xterm-256color"
    assert safe_term("x" * 65) == "xterm-256color"


def test_terminal_sizes_are_made_usable():
    assert safe_size(0, 0) == (80, 24)
    assert safe_size(120, 40) == (120, 40)
    assert safe_size(9999, 9999) == (640, 240)  # what a screen can use, not what is asked


def test_a_fingerprint_is_shortened_for_the_log():
    assert short_fingerprint("SHA256:abcdefghijklmnopqrstuvwxyz") == "SHA256:abcdefghijkl"


# -- the host key ---------------------------------------------------------------------------------
def test_the_host_key_is_made_owner_only_then_reused(tmp_path: Path):
    path = tmp_path / "keys" / "host"
    key = load_host_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert load_host_key(path).get_fingerprint() == key.get_fingerprint()
    assert [p.name for p in path.parent.iterdir()] == ["host"]  # no draft left behind


def test_a_loose_host_key_is_tightened_and_an_empty_one_replaced(tmp_path: Path):
    path = tmp_path / "host"
    key = load_host_key(path)
    os.chmod(path, 0o644)
    assert load_host_key(path).get_fingerprint() == key.get_fingerprint()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.write_bytes(b"")  # an interrupted first run
    assert load_host_key(path).get_fingerprint() != key.get_fingerprint()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# -- a program on a pty ---------------------------------------------------------------------------
class Seen:
    """What a `PtyProgram` passed on."""

    def __init__(self) -> None:
        self.output = bytearray()
        self.exited: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def wrote(self, data: bytes) -> None:
        self.output += data

    def ended(self, returncode: int) -> None:
        self.exited.set_result(returncode)

    async def shows(self, text: bytes, timeout: float = 10) -> None:
        async with asyncio.timeout(timeout):
            while text not in self.output:
                await asyncio.sleep(0.02)


async def start(code: str, seen: Seen, columns: int = 80, rows: int = 24) -> PtyProgram:
    return await PtyProgram.start(
        [sys.executable, "-c", code],
        {"PATH": "/usr/bin:/bin"},
        columns,
        rows,
        seen.wrote,
        seen.ended,
    )


async def test_a_program_gets_a_terminal_of_the_asked_size_and_its_resizes():
    seen = Seen()
    code = textwrap.dedent("""
        import os, signal, time
        size = lambda: os.get_terminal_size(0)
        signal.signal(signal.SIGWINCH, lambda *_: print("now", size(), flush=True))
        print("size", size(), flush=True)
        print("typed", input(), flush=True)
        time.sleep(10)
    """)
    program = await start(code, seen, 120, 40)
    await seen.shows(b"columns=120, lines=40")
    program.write(b"hello\r")
    await seen.shows(b"typed hello")
    program.resize(90, 30)
    await seen.shows(b"now os.terminal_size(columns=90, lines=30)")
    assert await program.hang_up(grace=1) == -signal.SIGHUP
    assert await seen.exited == -signal.SIGHUP


async def test_the_last_words_and_exit_status_of_a_program_are_passed_on():
    seen = Seen()
    await start("import sys; sys.stdout.write('goodbye ' * 5000); sys.exit(4)", seen)
    assert await asyncio.wait_for(seen.exited, 10) == 4
    assert seen.output.count(b"goodbye") == 5000


@pytest.mark.parametrize(
    ("ignored", "ended_by"),
    [((signal.SIGHUP,), signal.SIGTERM), ((signal.SIGHUP, signal.SIGTERM), signal.SIGKILL)],
)
async def test_a_program_that_ignores_the_hang_up_is_ended_harder(ignored, ended_by):
    seen = Seen()
    ignore = "".join(f"signal.signal({int(sig)}, signal.SIG_IGN); " for sig in ignored)
    program = await start(
        f"import signal, time; {ignore}print('on', flush=True); time.sleep(30)", seen
    )
    await seen.shows(b"on")
    assert await program.hang_up(grace=0.3) == -ended_by
    assert not program.running


async def test_a_program_that_cannot_start_leaks_nothing():
    fds = len(os.listdir("/proc/self/fd"))
    with pytest.raises(FileNotFoundError):
        await PtyProgram.start(
            ["/no/such/program"], {}, 80, 24, lambda data: None, lambda code: None
        )
    assert len(os.listdir("/proc/self/fd")) == fds


async def test_a_program_runs_under_its_memory_cpu_and_priority_limits():
    seen = Seen()
    code = textwrap.dedent("""
        import os, resource
        print("nice", os.nice(0), "files", resource.getrlimit(resource.RLIMIT_NOFILE)[0],
              "core", resource.getrlimit(resource.RLIMIT_CORE)[0], flush=True)
        try:
            hoard = bytearray(200 * 2**20)
        except MemoryError:
            print("no memory for that", flush=True)
        while True:  # then a busy loop, until the CPU limit ends it
            pass
    """)
    limits = Limits(memory=128 * 2**20, cpu_seconds=1, nice=7, open_files=64)
    program = await PtyProgram.start(
        [sys.executable, "-c", code], {}, 80, 24, seen.wrote, seen.ended, limits=limits
    )
    await seen.shows(b"no memory for that")
    assert f"nice {os.nice(0) + 7} files 64 core 0".encode() in seen.output
    assert await asyncio.wait_for(seen.exited, 30) == -signal.SIGXCPU
    assert not program.running


def test_a_guest_is_told_in_words_why_their_session_ended():
    config = SshConfig(session_memory_mb=256, session_cpu_seconds=3600)
    memory = ending_sentence(EXIT_OUT_OF_MEMORY, config)
    assert memory is not None and "reached its memory limit (256 MB)" in memory
    cpu = ending_sentence(-signal.SIGXCPU, config)
    assert cpu is not None and "its share of the host's processor (60 minutes)" in cpu
    failed = ending_sentence(EXIT_FAILED, config)
    assert failed is not None and "Something went wrong" in failed and "/" not in failed
    crashed = ending_sentence(-signal.SIGSEGV, config)
    assert crashed is not None and "(SIGSEGV)" in crashed
    for ordinary in (0, 1, -signal.SIGHUP, -signal.SIGTERM):  # left, or hung up by us
        assert ending_sentence(ordinary, config) is None


def test_the_join_code_prompt_takes_keys_back_and_gives_the_code_on_enter():
    prompt = CodePrompt()
    assert prompt.keys(b"KXP") is None
    assert prompt.keys(b"Q\x7fF\x1b") is None  # backspace takes Q back; Escape is no key
    assert prompt.keys(b"\rmore") == Entered("KXPF")  # what follows Enter is dropped
    assert prompt.keys(b"x" * 100 + b"\n") == Entered("x" * 64)  # a flood is cut short
    assert prompt.keys(b"ab\x04") == GaveUp()


def test_a_mode_switch_cut_in_two_is_still_seen_and_undone_once():
    screen = GuestScreen()  # (no channel yet: what it writes goes nowhere)
    screen.relay(b"hello \x1b[?10")
    screen.relay(b"49h the game")
    assert screen.application_mode
    screen.restore()
    assert not screen.application_mode
    screen.relay(b"\x1b[?1049h then \x1b[?1049l back")
    assert not screen.application_mode  # the program undid it itself
