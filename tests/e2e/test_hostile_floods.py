"""Floods against a real `tablegames serve` (issue 28), on loopback, bounded in count and time:
idle sockets held open from 127.0.0.2 (reopened as soon as they are closed) while friends log
in from 127.0.0.1 with the real OpenSSH client; and chat sent nonstop over TCP while the
host's log is counted. Slow: thousands of connections each (run with -m slow -n 0)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tablegames.net.protocol import PROTOCOL_VERSION, encode
from tablegames.testing.metrics import record

from ..net.ssh_harness import make_key, ssh_command
from .processes import start_serve, stop

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client"),
]

FLOOD_SECONDS = 10.0


def serve_log(env: dict[str, str]) -> Path:
    (path,) = Path(env["TABLEGAMES_HOME"]).glob("serve-*.out")
    return path


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100


class IdleSockets(threading.Thread):
    """`count` sockets from 127.0.0.2 that never speak, each reopened when the server closes
    it, until stopped; counts the reopenings."""

    def __init__(self, port: int, count: int) -> None:
        super().__init__(daemon=True)
        self.port, self.count = port, count
        self.reopened = 0
        self.stopping = threading.Event()

    def _open(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), source_address=("127.0.0.2", 0))
        sock.setblocking(False)
        return sock

    def run(self) -> None:
        socks = [self._open() for _ in range(self.count)]
        while not self.stopping.is_set():
            for number, sock in enumerate(socks):
                try:
                    if sock.recv(4096):
                        continue
                except BlockingIOError:
                    continue
                except OSError:
                    pass
                sock.close()
                socks[number] = self._open()
                self.reopened += 1
            time.sleep(0.01)
        for sock in socks:
            sock.close()


def test_friends_log_in_while_100_idle_sockets_are_held_from_another_address(env, tmp_path):
    serve, ssh_port, _ = start_serve(env)
    key = make_key(tmp_path, "ben")
    flood = IdleSockets(ssh_port, 100)
    try:
        flood.start()
        time.sleep(1.0)  # the flood is on
        cpu_before, lines_before = cpu_seconds(serve.pid), len(serve_log(env).read_text())
        admitted, waits = 0, []
        started = time.monotonic()
        for _ in range(10):
            line = ssh_command(ssh_port, "ben", key, "-o", "BatchMode=yes", command="true")
            began = time.monotonic()
            done = subprocess.run(line, capture_output=True, text=True, timeout=30, check=False)
            waits.append(time.monotonic() - began)
            admitted += done.returncode == 1 and "runs no commands" in done.stderr + done.stdout
        took = time.monotonic() - started
        time.sleep(max(0.0, FLOOD_SECONDS - took))
        cpu = cpu_seconds(serve.pid) - cpu_before
        added = serve_log(env).read_text()[lines_before:].splitlines()
        logged = len([line for line in added if "127.0.0.2" in line])
        assert admitted == 10, f"{admitted} of 10 logins got through"
        assert flood.reopened > 100  # the flood was real: the server kept dropping it
        assert logged <= 6, added  # summed: a line or two every 10 s, not one per connection
        record(
            "preauth",
            logins_tried=10,
            logins_admitted=admitted,
            max_flood_reopened=flood.reopened,
            max_log_lines_per_10s=logged,
            max_server_cpu_percent=round(100 * cpu / FLOOD_SECONDS),
            max_login_ms=round(1000 * max(waits)),  # a figure, not a check: no timing asserted
        )
    finally:
        flood.stopping.set()
        flood.join(10)
        stop(serve)


def chat_flood(port: int, seconds: float) -> tuple[int, int]:
    """Chat in the lobby as fast as the socket takes it, reconnecting whenever closed (never
    reading an answer); returns the lines the kernel took and the connections made."""
    sent = connections = 0
    deadline = time.monotonic() + seconds
    lines = encode({"t": "chat", "text": "spam " + "x" * 80}) * 100
    while time.monotonic() < deadline:
        with socket.create_connection(("127.0.0.1", port)) as sock:
            connections += 1
            sock.settimeout(1.0)
            try:
                sock.sendall(encode({"t": "hello", "v": PROTOCOL_VERSION, "name": "flooder"}))
                while time.monotonic() < deadline:
                    sock.sendall(lines)
                    sent += 100
            except OSError:  # closed as a flood (or not read any more): again
                pass
    return sent, connections


def test_a_chat_flood_costs_the_hosts_log_a_few_lines(env):
    serve, _, tcp_port = start_serve(env)
    try:
        time.sleep(0.5)
        before = len(serve_log(env).read_text())
        cpu_before = cpu_seconds(serve.pid)
        sent, connections = chat_flood(tcp_port, FLOOD_SECONDS)
        cpu = cpu_seconds(serve.pid) - cpu_before
        added = serve_log(env).read_text()[before:]
        logged = added.count("\n")
        assert sent > 1000
        assert logged <= 10, added[-2000:]
        record(
            "logflood",
            chat_lines_written=sent,
            connections=connections,
            max_log_lines_per_10s=logged,
            max_server_cpu_percent=round(100 * cpu / FLOOD_SECONDS),
        )
    finally:
        stop(serve)
