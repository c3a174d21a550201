"""Floods against the browser door of a real `tablegames serve --web` (issue 39), on loopback,
bounded in count and time: 600 silent or half-sent connections from 127.0.0.2 while a friend's
browser on 127.0.0.3 loads the page and a friend logs in over SSH; then the same at a file limit
lowered under the running server, from ten addresses. Slow (run with -m slow -n 0)."""

from __future__ import annotations

import contextlib
import re
import resource
import selectors
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablegames.testing.metrics import record

from ..net.ssh_harness import make_key, ssh_command
from .processes import serve_announced, stop

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SILENT_FOR = 25.0  # seconds after which no silent socket may be open any more
HALF_SENT = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow"


@contextlib.contextmanager
def soft_file_limit(files: int) -> Iterator[None]:
    """This process's soft limit on open files lowered to `files` (its children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(files, hard), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def open_files_limit(pid: int) -> tuple[int, int]:
    """The soft and hard limits on open files of process `pid`."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            soft, hard = line.split()[3:5]
            return tuple(  # type: ignore[return-value]
                resource.RLIM_INFINITY if limit == "unlimited" else int(limit)
                for limit in (soft, hard)
            )
    raise AssertionError("no open files limit")


def flood(port: int, sources: list[str], count: int) -> list[socket.socket]:
    """`count` connections spread over `sources`: half silent, half with a request half sent.
    Connections the kernel or the server refuses at once are not kept."""
    opened = []
    for number in range(count):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # (many sockets, little memory)
        try:
            sock.bind((sources[number % len(sources)], 0))
            sock.settimeout(2)
            sock.connect(("127.0.0.1", port))
            if number % 2:
                sock.sendall(HALF_SENT)
        except OSError:
            sock.close()
            continue
        sock.setblocking(False)
        opened.append(sock)
    return opened


def still_open(socks: list[socket.socket]) -> int:
    """How many of `socks` the server has not closed yet (what it sent is read and dropped)."""
    count = 0
    for sock in socks:
        try:
            while data := sock.recv(65536):
                del data
        except BlockingIOError:
            count += 1
        except OSError:
            pass
    return count


def page_ms(port: int, source: str) -> float | None:
    """Milliseconds for the front page from `source`, or None if it was not answered in 5 s."""
    began = time.monotonic()
    said = b""
    try:
        with socket.create_connection(("127.0.0.1", port), 5, (source, 0)) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            while chunk := sock.recv(65536):
                said += chunk
    except OSError:
        return None
    return 1000 * (time.monotonic() - began) if said.startswith(b"HTTP/1.1 200") else None


def wait_closed(socks: list[socket.socket], seconds: float) -> int:
    """Wait up to `seconds` for the server to close `socks`; returns how many are still open."""
    deadline = time.monotonic() + seconds
    with selectors.DefaultSelector() as selector:
        for sock in socks:
            selector.register(sock, selectors.EVENT_READ)
        while selector.get_map() and time.monotonic() < deadline:
            for key, _ in selector.select(timeout=0.5):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    if sock.recv(65536):
                        continue
                except BlockingIOError:
                    continue
                except OSError:
                    pass
                selector.unregister(sock)
        return len(selector.get_map())


def admitted_over_ssh(port: int, key: Path) -> bool:
    line = ssh_command(port, "ben", key, "-o", "BatchMode=yes", command="true")
    done = subprocess.run(line, capture_output=True, text=True, timeout=30, check=False)
    return done.returncode == 1 and "runs no commands" in done.stdout + done.stderr


def test_600_silent_sockets_cost_the_page_nothing_and_are_closed_in_time(env, tmp_path):
    with soft_file_limit(256):  # as many a desktop starts with: the server raises its own
        serve, said = serve_announced(env, "--web", "0")
    web_port = int(re.search(r"http://127\.0\.0\.1:(\d+)", said).group(1))  # type: ignore[union-attr]
    ssh_port = int(re.search(r"ssh -p (\d+) NAME@", said).group(1))  # type: ignore[union-attr]
    key = make_key(tmp_path, "ben")
    log = next(Path(env["TABLEGAMES_HOME"]).glob("serve-*.out"))
    socks: list[socket.socket] = []
    try:
        soft, hard = open_files_limit(serve.pid)
        assert soft == hard or (hard == resource.RLIM_INFINITY and soft >= 65536)
        logged_before = len(log.read_text().splitlines())
        began = time.monotonic()
        socks = flood(web_port, ["127.0.0.2"], 600)
        waits = [page_ms(web_port, "127.0.0.3") for _ in range(5)]
        assert all(wait is not None for wait in waits), waits
        assert admitted_over_ssh(ssh_port, key)
        left = wait_closed(socks, SILENT_FOR - (time.monotonic() - began))
        assert left == 0, f"{left} of 600 silent sockets still open after {SILENT_FOR:.0f} s"
        lines = log.read_text().splitlines()[logged_before:]
        flood_lines = [line for line in lines if "127.0.0.2" in line]
        assert len(flood_lines) <= 6, flood_lines  # summed
        record(
            "webflood",
            silent_sockets=600,
            max_open_after_25s=left,
            max_page_ms=round(max(w for w in waits if w is not None)),
            max_log_lines=len(flood_lines),
        )
    finally:
        for sock in socks:
            sock.close()
        stop(serve, timeout=30)


def test_at_the_file_limit_accept_errors_are_summed_and_the_page_comes_back(env):
    serve, said = serve_announced(env, "--web", "0")
    web_port = int(re.search(r"http://127\.0\.0\.1:(\d+)", said).group(1))  # type: ignore[union-attr]
    log = next(Path(env["TABLEGAMES_HOME"]).glob("serve-*.out"))
    socks: list[socket.socket] = []
    try:
        # The host's limit is lower than the doors were told: the flood reaches it.
        resource.prlimit(serve.pid, resource.RLIMIT_NOFILE, (200, 200))
        logged_before = len(log.read_text().splitlines())
        socks = flood(web_port, [f"127.0.0.{n}" for n in range(10, 20)], 400)
        time.sleep(5.0)  # (the server tries to accept the rest every second meanwhile)
        for sock in socks:  # the flood leaves
            sock.close()
        socks = []
        deadline = time.monotonic() + 15
        while (waited := page_ms(web_port, "127.0.0.3")) is None:
            assert time.monotonic() < deadline, "the page did not come back"
            time.sleep(0.5)
        lines = log.read_text().splitlines()[logged_before:]
        tracebacks = [line for line in lines if line.startswith("Traceback")]
        assert not tracebacks, "\n".join(lines[-40:])
        assert len(lines) <= 12, "\n".join(lines)
        assert serve.poll() is None  # nothing crashed
        record("webflood", max_log_lines_at_file_limit=len(lines), max_page_ms_after=round(waited))
    finally:
        for sock in socks:
            sock.close()
        stop(serve, timeout=30)
