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

#: A game played by `join --bot` processes is waited for while it goes on: it has stopped once
#: nothing new is logged by its players or its host (a bot logs each move) for `STALLED`
#: seconds, and is given `LONGEST` seconds in all. (A fixed time for the whole game failed on a
#: machine loaded ten times over, where starting a process takes seconds.)
STALLED = 45.0
LONGEST = 600.0
STARTING = 60.0  # seconds a host is given to listen (a restored one took 20 on a loaded machine)


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
    said = announced(host, output, r"port (\d+)", STARTING, "the host")
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
    # (the last line of its announcement; its browser door, once the ssh one listens, took
    # over 30 s at load 17)
    return serve, announced(
        serve, output, r"tablegames join 127\.0\.0\.1:", STARTING, "the party server"
    )


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
    """Wait for a `join --bot` process while its game goes on (see `STALLED`); its last line
    is its JSON summary. One that stopped is killed, and the test fails showing where each
    player and the host were (`joined_logs`)."""
    began = heard = time.monotonic()
    news = activity(process)
    while True:
        try:
            out, _ = process.communicate(timeout=1)  # (retried, nothing it wrote is lost)
            break
        except subprocess.TimeoutExpired:
            pass
        now, latest = time.monotonic(), activity(process)
        if latest != news:
            news, heard = latest, now
        elif now - heard > STALLED or now - began > LONGEST:
            process.kill()
            process.communicate()
            waited = f"nothing new for {now - heard:.0f} s, {now - began:.0f} s in all"
            logs = joined_logs(process)
            raise AssertionError(f"{process.args} did not finish ({waited}): {logs}")
    assert process.returncode == 0, joined_logs(process)
    return json.loads(out.strip().splitlines()[-1])


def logs_beside(process: subprocess.Popen[str]) -> list[Path]:
    """The logs of `process` and of every other join and host started in the same directory."""
    here = process.log_path.parent  # type: ignore[attr-defined]
    return sorted([*here.glob("join-*.log"), *here.glob("host-*.out")])


def activity(process: subprocess.Popen[str]) -> list[int]:
    """How much each log beside `process` holds: it changes while anyone there does anything."""
    return [path.stat().st_size for path in logs_beside(process)]


def joined_logs(process: subprocess.Popen[str]) -> str:
    """The logs of `process` and of every other join and host in the same directory (their
    last lines: where each stopped)."""
    return "\n".join(
        f"--- {path.name}\n{path.read_text()[-3000:]}" for path in logs_beside(process)
    )
