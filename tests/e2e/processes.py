"""Starting real `tablegames` processes for end-to-end tests (loopback only, bounded waits)."""

from __future__ import annotations

import json
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

TIMEOUT = 90


def cli(*args: str, python: str = sys.executable, module: str = "tablegames") -> list[str]:
    """The command line of `tablegames ARGS` (run as `module`: a wrapper of it, say)."""
    return [python, "-m", module, *args]


def free_port_outside_ephemeral_range() -> int:
    """A free loopback port below the ephemeral range.

    A server restarted on the same port must not use an ephemeral one: a client retrying
    `connect` to a port in that range while nothing listens can end up connected to itself.
    """
    rng = random.Random()
    for _ in range(200):
        port = rng.randrange(20000, 32000)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("no free port found")


def start_host(
    env: dict[str, str], *args: str, game: str = "crates"
) -> tuple[subprocess.Popen[str], int]:
    """Start `tablegames host GAME ARGS` (port 0 unless given); returns it and its port.

    Its output goes to a file in TABLEGAMES_HOME, never to a pipe nobody drains.
    """
    if "--port" not in args:
        args = ("--port", "0", *args)
    output = Path(env["TABLEGAMES_HOME"]) / f"host-{time.monotonic_ns()}.out"
    with output.open("w") as sink:
        host = subprocess.Popen(
            cli("host", game, *args), stdout=sink, stderr=subprocess.STDOUT, text=True, env=env
        )
    said = announced(host, output, r"port (\d+)", 20, "the host")
    found = re.search(r"port (\d+)", said)
    assert found, said
    return host, int(found.group(1))


@contextmanager
def hosting(env: dict[str, str], *args: str, game: str = "crates") -> Iterator[int]:
    """`start_host` for a `with` block, which gets its port; stopped as the block ends."""
    host, port = start_host(env, *args, game=game)
    try:
        yield port
    finally:
        stop(host)


def start_serve(
    env: dict[str, str], *args: str, python: str = sys.executable
) -> tuple[subprocess.Popen[str], int, int]:
    """Start `tablegames serve ARGS` on free ports (with the interpreter `python`); returns it,
    its SSH port and its TCP port."""
    serve, said = serve_announced(env, *args, python=python)
    ssh = re.search(r"ssh -p (\d+) NAME@", said)
    tcp = re.search(r"tablegames join 127.0.0.1:(\d+)", said)
    assert ssh and tcp
    return serve, int(ssh.group(1)), int(tcp.group(1))


def serve_announced(
    env: dict[str, str],
    *args: str,
    python: str = sys.executable,
    module: str = "tablegames",
    console: int = subprocess.DEVNULL,
) -> tuple[subprocess.Popen[str], str]:
    """Start `tablegames serve ARGS` on free ports (with the interpreter `python`, as `module`);
    returns it and what it printed once it said how friends join (every door it opened is in it).

    Its output goes to a file in TABLEGAMES_HOME (`serve-*.out`); its terminal is not one (no
    host console) unless `console` is a terminal's file descriptor to read commands from.
    """
    output = Path(env["TABLEGAMES_HOME"]) / f"serve-{time.monotonic_ns()}.out"
    with output.open("w") as sink:
        serve = subprocess.Popen(
            cli("serve", "--ssh", "0", "--port", "0", *args, python=python, module=module),
            stdin=console,
            stdout=sink,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
    # (the last line of its announcement)
    return serve, announced(serve, output, r"tablegames join 127\.0\.0\.1:", 30, "the party server")


def announced(
    process: subprocess.Popen[str] | subprocess.Popen[bytes],
    output: Path,
    last: str,
    timeout: float,
    what: str,
) -> str:
    """What `process` wrote to `output` once the pattern `last` is found in it (killed, and
    AssertionError naming `what`, if it ends or `timeout` seconds pass first)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        said = output.read_text()
        if re.search(last, said):
            return said
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    raise AssertionError(f"{what} did not start: {output.read_text()}")


def stop(process: subprocess.Popen[str], timeout: float = 15) -> None:
    """Stop a `tablegames` server as Ctrl-C does. One that has not ended in `timeout` s is
    killed (nothing is left running) and the test fails saying so."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)
        raise AssertionError(f"{process.args} did not stop on Ctrl-C within {timeout} s") from None


def join_bot(
    env: dict[str, str], port: int, name: str | None, pace: float = 0
) -> subprocess.Popen[str]:
    """Start `tablegames join --bot normal` (with `--name` unless None); its log goes to a file
    named after the player."""
    log = Path(env["TABLEGAMES_HOME"]) / f"join-{name or 'unnamed'}-{time.monotonic_ns()}.log"
    named = ["--name", name] if name is not None else []
    with log.open("w") as sink:
        process = subprocess.Popen(
            cli("join", f"127.0.0.1:{port}", "--bot", "normal", *named, "--pace", str(pace)),
            stdout=subprocess.PIPE,
            stderr=sink,
            text=True,
            env=env,
        )
    process.log_path = log  # type: ignore[attr-defined]
    return process


def finish(process: subprocess.Popen[str]) -> dict:
    """Wait for a `join --bot` process; its last line is its JSON summary."""
    try:
        out, _ = process.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise AssertionError(f"{process.args} did not finish: {joined_logs(process)}") from None
    assert process.returncode == 0, joined_logs(process)
    return json.loads(out.strip().splitlines()[-1])


def joined_logs(process: subprocess.Popen[str]) -> str:
    """The log of `process` and of every other join in the same directory."""
    here = process.log_path  # type: ignore[attr-defined]
    return "\n".join(
        f"--- {path.name}\n{path.read_text()[-1500:]}"
        for path in sorted(here.parent.glob("join-*"))
    )
