"""Many friends over SSH at once: real `ssh` clients joining the SSH front door on loopback.

    .venv/bin/python bench/ssh_sessions.py [--sessions 20] [--command CMD] [--ready TEXT]
    .venv/bin/python bench/ssh_sessions.py --party [--sessions 20]
    .venv/bin/python bench/ssh_sessions.py --party --game crates [--sessions 1] [--pace 0.1]
    .venv/bin/python bench/ssh_sessions.py --party --compare [--sessions 20]

Sessions are forked by a fork server, as `serve` runs them (`--started`: each a new process,
as before it). `--compare` runs the party both ways, one after the other in the same run, and
prints the figures side by side with their ratios (started ÷ forked).

With `--party` the server is the real party (a game server, each session running the lobby
app) and, once every lobby is drawn, each friend opens a table of their own and sits down.
With `--game GAME` instead, the party has one table of GAME played by bots (`--players`, one
move every `--pace` seconds, the whole game: 15 rounds of crates), and every session watches
it from the first deal to the end, closing each round's summary: a session's memory is read
at the start of the game, every few seconds, and at its end (it must stay flat).

The front door runs in a process of its own (this script with `--serve`), launching `--command`
for every session (default: the tests' stand-in program, which prints READY). Each client is an
OpenSSH `ssh -tt` on a pty of its own, 80x24. Printed figures, nothing passes or fails:

- time from starting `ssh` to `--ready` appearing in its output: one session alone (median of
  three), then all sessions started at once (median, p90, max);
- memory per session: the launched programs' PSS (shared pages divided among sharers; a
  program is a process on a terminal: the fork server, if any, is counted apart) once every
  lobby is drawn, then their RSS and PSS at the end (at a table with `--party`, at the game's
  end with `--game`), and how much the server's own RSS grew per session;
- the server's CPU (and the programs') while every session sits idle for `--idle` seconds.

Everything is bounded: each wait has a timeout, and every client, program and the server are
ended before the script returns.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import selectors
import shlex
import signal
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` and `tablegames` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import median, spread_ms

REPO = Path(__file__).resolve().parent.parent
DEFAULT_COMMAND = f"{shlex.quote(sys.executable)} {REPO / 'tests/net/ssh_table_program.py'}"
SERVER_START_TIMEOUT = 30.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# -- /proc ----------------------------------------------------------------------------------------
def status_kb(pid: int, field: str) -> int:
    """A KiB figure from /proc/PID/status (VmRSS...) or smaps_rollup (Pss...); 0 if absent."""
    for source in ("status", "smaps_rollup"):
        try:
            for line in Path(f"/proc/{pid}/{source}").read_text().splitlines():
                if line.startswith(f"{field}:"):
                    return int(line.split()[1])
        except (OSError, ValueError):
            continue
    return 0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def descendants(pid: int) -> list[int]:
    """Every process below `pid`."""
    found, waiting = [], [pid]
    while waiting:
        parent = waiting.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = [int(child) for child in (task / "children").read_text().split()]
            except OSError:
                continue
            found += children
            waiting += children
    return found


def on_a_terminal(pid: int) -> bool:
    """True if `pid` has a controlling terminal: a session's program, not a server."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return int(stat.rsplit(")", 1)[1].split()[4]) != 0  # tty_nr


@dataclass
class Footprint:
    """What a party server's sessions hold at one moment: their programs (a process on a
    terminal each) and the memory of those, of the fork server and of the server."""

    server_pid: int
    programs: list[int]
    server_rss_kb: int
    program_rss_kb: list[int]
    program_pss_kb: list[int]
    fork_server_pss_kb: int

    @classmethod
    def now(cls, server_pid: int) -> Footprint:
        below = descendants(server_pid)
        programs = [pid for pid in below if on_a_terminal(pid)]
        return cls(
            server_pid,
            programs,
            status_kb(server_pid, "VmRSS"),
            [status_kb(pid, "VmRSS") for pid in programs],
            [status_kb(pid, "Pss") for pid in programs],
            sum(status_kb(pid, "Pss") for pid in below if pid not in programs),
        )

    def cpu_seconds(self) -> tuple[float, float]:
        """The CPU seconds the server and (together) its programs have used so far."""
        return cpu_seconds(self.server_pid), sum(cpu_seconds(pid) for pid in self.programs)

    def cpu_seconds_since(self, before: tuple[float, float]) -> tuple[float, float]:
        """The CPU seconds the server and its programs have used since `cpu_seconds` said
        `before`."""
        server, programs = self.cpu_seconds()
        return server - before[0], programs - before[1]

    def figures(self, server_before_kb: int, sessions: int) -> dict[str, Any]:
        """The memory figures of a run's report (per program: the mean)."""
        count = max(len(self.programs), 1)
        growth = (self.server_rss_kb - server_before_kb) / sessions
        return {
            "programs": len(self.programs),
            "program_rss_kb": round(sum(self.program_rss_kb) / count),
            "program_pss_kb": round(sum(self.program_pss_kb) / count),
            "fork_server_pss_kb": self.fork_server_pss_kb,
            "server_rss_kb": {"before": server_before_kb, "after": self.server_rss_kb},
            "server_growth_per_session_kb": round(growth),
        }


def ended(process: subprocess.Popen[Any], timeout: float) -> None:
    """Wait for `process` to end (asked to already), killing it after `timeout` seconds."""
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


# -- the server, in its own process ---------------------------------------------------------------
async def serve(args: argparse.Namespace) -> None:
    """Run the front door until stdin closes; print one JSON line once listening."""
    from tablegames.net.ssh import Identity, Launch, SshConfig, SshFrontDoor, Terminal
    from tablegames.store import Store

    home = Path(args.home)
    argv = shlex.split(args.command)

    def launch(identity: Identity, terminal: Terminal) -> Launch:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", "/"),
            "LANG": "C.UTF-8",
            "TERM": terminal.term,
            "TABLEGAMES_HOME": str(home),
            "PLAYER": identity.name,
            "GUEST": "yes" if identity.guest else "no",
            "KEY": identity.fingerprint or "none",
        }
        return Launch(argv, env)

    config = SshConfig(
        host="127.0.0.1",
        port=0,
        host_key=home / "host_key",
        max_sessions=args.sessions + 1,
        max_connections=2 * args.sessions + 16,
        max_per_address=args.sessions + 8,
        startups=(args.sessions + 8, 30, 2 * args.sessions + 16),  # they all come at once
        startups_per_source=args.sessions + 8,
    )
    store = Store(home / "names.db")
    if args.party:  # the real thing: a game server, and the lobby app in every session
        from tablegames.net.server import Server, ServerConfig
        from tablegames.serve import session_launcher

        os.environ["TABLEGAMES_HOME"] = str(home)
        game_server = Server(
            ServerConfig(port=0, max_tables=args.sessions + 10, bot_pace=args.pace), store=store
        )
        launch = session_launcher(game_server, await game_server.start())
        if args.game:  # one table played by bots from the start, for the sessions to watch
            hosted = game_server.add_table(args.game, args.players, fill_with_bots="normal")
            game_server.party.tables.start(hosted)
    forks = None
    if not args.started:
        from tablegames.net.forkserver import ForkServer

        path = os.environ.get("PATH", "/usr/bin:/bin")
        forks = await ForkServer.start(
            {"PATH": path, "LANG": "C.UTF-8", "TABLEGAMES_HOME": str(home)}
        )
    door = SshFrontDoor(config, store, launch, forks=forks)
    port = await door.start()
    print(json.dumps({"port": port, "pid": os.getpid()}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until stdin closes
    await door.close()
    if forks is not None:
        await forks.close()


def start_server(args: argparse.Namespace, home: Path) -> tuple[subprocess.Popen[str], int]:
    command = [sys.executable, __file__, "--serve", "--home", str(home)]
    command += ["--sessions", str(args.sessions), "--command", args.command]
    command += ["--party"] if args.party else []
    command += ["--started"] if args.started else []
    if args.game:
        command += ["--game", args.game, "--players", str(args.players), "--pace", str(args.pace)]
    server = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO
    )
    assert server.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(server.stdout, selectors.EVENT_READ)
    if not selector.select(SERVER_START_TIMEOUT):
        server.kill()
        raise SystemExit("the SSH front door did not start")
    return server, int(json.loads(server.stdout.readline())["port"])


# -- the clients ----------------------------------------------------------------------------------
class Client:
    """One `ssh -tt` on a pty of its own, its output collected."""

    def __init__(self, port: int, name: str, key: Path, known_hosts: Path) -> None:
        import fcntl
        import termios

        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.set_blocking(self.master, False)
        command = ["ssh", "-F", "/dev/null", "-p", str(port), "-tt", "-i", str(key)]
        command += ["-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none"]
        command += ["-o", "StrictHostKeyChecking=no", "-o", f"UserKnownHostsFile={known_hosts}"]
        command += ["-o", "LogLevel=ERROR", "-o", "ConnectTimeout=10", f"{name}@127.0.0.1"]
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
            env={**os.environ, "TERM": "xterm-256color"},
        )
        os.close(slave)
        self.output = bytearray()
        self.ready_after: float | None = None

    def read(self, ready: bytes) -> None:
        try:
            while chunk := os.read(self.master, 65536):
                self.output += chunk
        except (BlockingIOError, OSError):
            pass
        if self.ready_after is None and ready in self.output:
            self.ready_after = time.perf_counter() - self.started

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            ended(self.process, 5)
        os.close(self.master)


def wait_until_ready(clients: list[Client], ready: bytes, timeout: float) -> None:
    """Read every client until each shows `ready`; raise if some do not within `timeout`."""
    selector = selectors.DefaultSelector()
    for client in clients:
        selector.register(client.master, selectors.EVENT_READ, client)
    deadline = time.monotonic() + timeout
    try:
        while any(client.ready_after is None for client in clients):
            left = deadline - time.monotonic()
            if left <= 0:
                late = [c for c in clients if c.ready_after is None]
                tail = bytes(late[0].output[-300:]).decode(errors="replace")
                raise TimeoutError(
                    f"{len(late)} session(s) never showed the marker; one showed:\n{tail}"
                )
            for key, _ in selector.select(min(left, 0.5)):
                key.data.read(ready)
    finally:
        selector.close()


def drain(clients: list[Client], seconds: float) -> None:
    """Keep reading every client's output for `seconds` (so no program blocks on a full pty)."""
    selector = selectors.DefaultSelector()
    for client in clients:
        selector.register(client.master, selectors.EVENT_READ, client)
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        for key, _ in selector.select(min(left, 0.5)):
            key.data.read(b"\0never")
    selector.close()


def watch_a_game(clients: list[Client], server_pid: int, timeout: float) -> dict[str, Any]:
    """Every client watches the party's one table (w) until its game is over, pressing Enter
    every two seconds (a round's summary waits for a key); the sessions' RSS at the start of
    the game, every five seconds, and at its end."""
    for client in clients:
        os.write(client.master, b"w")
        client.output, client.ready_after, client.started = bytearray(), None, time.perf_counter()
    wait_until_ready(clients, b"You are watching", timeout)  # (every game says so)

    def rss() -> list[int]:
        return [status_kb(pid, "VmRSS") for pid in descendants(server_pid) if on_a_terminal(pid)]

    start, samples, started = rss(), [], time.monotonic()
    for client in clients:
        client.output, client.ready_after = bytearray(), None
    while any(client.ready_after is None for client in clients):
        if time.monotonic() - started > timeout:
            raise TimeoutError("the game did not end in time")
        for client in clients:
            os.write(client.master, b"\r")
        for _ in range(2):
            drain(clients, 1.0)
            for client in clients:
                client.read(b"Game over")
                del client.output[:-65536]  # a whole game's screens: only the end is read
        if not samples or time.monotonic() - samples[-1][0] >= 5:
            samples.append((time.monotonic(), max(rss())))
    end = rss()
    return {
        "game_s": round(time.monotonic() - started),
        "rss_start_kb": round(sum(start) / max(len(start), 1)),
        "rss_end_kb": round(sum(end) / max(len(end), 1)),
        "rss_peak_kb": max(kb for _, kb in samples),
        "rss_every_5s_mib": [round(kb / 1024, 1) for _, kb in samples],
    }


def session_pss(server_pid: int) -> int:
    """The mean PSS (KiB) of the sessions' programs now."""
    pss = [status_kb(pid, "Pss") for pid in descendants(server_pid) if on_a_terminal(pid)]
    return round(sum(pss) / max(len(pss), 1))


def open_tables(clients: list[Client], timeout: float) -> list[float]:
    """Every client presses n, then (once the dialog shows) Enter: a new table each; seconds
    from n to being seated there."""
    for client in clients:
        os.write(client.master, b"n")
        client.output, client.ready_after, client.started = bytearray(), None, time.perf_counter()
    wait_until_ready(clients, b"A new table", timeout)
    for client in clients:
        os.write(client.master, b"\r")
        client.output, client.ready_after = bytearray(), None
    wait_until_ready(clients, b"start now", timeout)
    return [client.ready_after or 0.0 for client in clients]


# -- the run --------------------------------------------------------------------------------------
def measure(args: argparse.Namespace) -> dict[str, Any]:
    ready = args.ready.encode()
    with tempfile.TemporaryDirectory(prefix="tg-ssh-bench-") as folder:
        home = Path(folder)
        key = home / "client_key"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
        server, port = start_server(args, home)
        clients: list[Client] = []
        try:
            alone = []
            for run in range(3):
                client = Client(port, f"alone{run}", key, home / "known_hosts")
                clients.append(client)
                wait_until_ready([client], ready, args.timeout)
                assert client.ready_after is not None
                alone.append(client.ready_after)
                client.close()
                clients.remove(client)
            time.sleep(1.0)  # the lone programs hung up and reaped
            server_before = status_kb(server.pid, "VmRSS")

            clients = [
                Client(port, f"friend{n}", key, home / "known_hosts") for n in range(args.sessions)
            ]
            wait_until_ready(clients, ready, args.timeout)
            at_once = [client.ready_after or 0.0 for client in clients]
            drain(clients, 1.0)
            in_lobby = session_pss(server.pid)  # the measure: a session in the lobby
            watched = None
            if args.game:  # everyone watches the bots' game to its end
                watched = watch_a_game(clients, server.pid, args.game_timeout)
            elif args.party:  # each friend opens a table of their own and sits down at it
                seated = open_tables(clients, args.timeout)
            drain(clients, 1.0)  # let start-up output settle before measuring
            seen = Footprint.now(server.pid)
            busy = seen.cpu_seconds()
            drain(clients, args.idle)
            server_cpu, programs_cpu = seen.cpu_seconds_since(busy)
        finally:
            for client in clients:
                client.close()
            assert server.stdin is not None
            server.stdin.close()  # the server closes the door, hangs up its programs, and exits
            ended(server, 30)
    return {
        "sessions": args.sessions,
        "command": "tablegames session (the party's lobby app)" if args.party else args.command,
        "ready_alone_ms": round(1000 * median(alone), 1),
        "ready_at_once_ms": spread_ms(at_once),
        **seen.figures(server_before, args.sessions),
        "lobby_pss_kb": in_lobby,
        "sessions_start": "started" if args.started else "forked",
        "seated_at_a_table_ms": (
            round(1000 * median(seated), 1) if args.party and not args.game else None
        ),
        "watched_a_game": watched,
        "idle_s": args.idle,
        "server_cpu_percent": round(100 * server_cpu / args.idle, 2),
        "programs_cpu_percent": round(100 * programs_cpu / args.idle, 2),
    }


def report(figures: dict[str, Any]) -> None:
    at_once = figures["ready_at_once_ms"]
    server = figures["server_rss_kb"]
    lines = [
        f"ssh sessions: {figures['sessions']} real OpenSSH clients on loopback",
        f"  command: {figures['command']}  ({figures['programs']} programs running, "
        f"{figures['sessions_start']}; fork server PSS "
        f"{figures['fork_server_pss_kb'] / 1024:.1f} MiB)",
        f"  ready, one session alone:  {figures['ready_alone_ms']:.0f} ms (median of 3)",
        f"  ready, all started at once: median {at_once['median']:.0f} ms, "
        f"p90 {at_once['p90']:.0f} ms, max {at_once['max']:.0f} ms",
        *(
            [f"  each opens a table and sits down: median {figures['seated_at_a_table_ms']:.0f} ms"]
            if figures.get("seated_at_a_table_ms") is not None
            else []
        ),
        f"  memory per session in the lobby: PSS {figures['lobby_pss_kb'] / 1024:.1f} MiB",
        f"  memory per session at the end: program RSS {figures['program_rss_kb'] / 1024:.1f} MiB "
        f"(PSS {figures['program_pss_kb'] / 1024:.1f} MiB), server growth "
        f"{figures['server_growth_per_session_kb']} KiB "
        f"(server RSS {server['before'] / 1024:.1f} -> {server['after'] / 1024:.1f} MiB)",
        f"  all idle for {figures['idle_s']:.0f} s: server CPU {figures['server_cpu_percent']}% "
        f"of a core, programs {figures['programs_cpu_percent']}%",
    ]
    watched = figures.get("watched_a_game")
    if watched:
        lines.append(
            f"  a whole game watched ({watched['game_s']} s): session RSS at its start "
            f"{watched['rss_start_kb'] / 1024:.1f} MiB, at its end "
            f"{watched['rss_end_kb'] / 1024:.1f} MiB, peak {watched['rss_peak_kb'] / 1024:.1f} MiB"
        )
        lines.append(f"  its RSS every 5 s (MiB): {watched['rss_every_5s_mib']}")
    print("\n".join(lines))


def compare(both: dict[str, dict[str, Any]]) -> None:
    """Started and forked sessions side by side: medians, and started ÷ forked."""
    started, forked = both["started"], both["forked"]
    rows = [
        ("ready alone, median ms", started["ready_alone_ms"], forked["ready_alone_ms"]),
        ("ready all at once, median ms", started["ready_at_once_ms"]["median"],
         forked["ready_at_once_ms"]["median"]),
        ("ready all at once, max ms", started["ready_at_once_ms"]["max"],
         forked["ready_at_once_ms"]["max"]),
        ("PSS per session in the lobby, MiB", started["lobby_pss_kb"] / 1024,
         forked["lobby_pss_kb"] / 1024),
        ("PSS per session at a table, MiB", started["program_pss_kb"] / 1024,
         forked["program_pss_kb"] / 1024),
        ("RSS per session, MiB", started["program_rss_kb"] / 1024,
         forked["program_rss_kb"] / 1024),
    ]  # fmt: skip
    print(f"\nstarted vs forked sessions ({started['sessions']} at once):")
    for what, before, after in rows:
        ratio = before / after if after else float("nan")
        print(f"  {what:34} started {before:8.1f}  forked {after:8.1f}  ratio {ratio:5.2f}")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--command", default=DEFAULT_COMMAND, help="what each session runs")
    parser.add_argument("--ready", help="text that shows a session is ready")
    parser.add_argument(
        "--party",
        action="store_true",
        help="run the real party server; each session opens a table of its own",
    )
    parser.add_argument("--game", help="with --party: a bots' game of GAME, watched to its end")
    parser.add_argument("--players", type=int, default=4, help="with --game: its seats")
    parser.add_argument("--pace", type=float, default=0.1, help="with --game: bots' pace (s)")
    parser.add_argument(
        "--game-timeout", type=float, default=1800.0, help="with --game: seconds it may take"
    )
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle to measure")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for ready")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--started", action="store_true", help="each session a new process")
    parser.add_argument("--compare", action="store_true", help="started and forked, side by side")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--home", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.party = args.party or bool(args.game)
    if args.ready is None:
        args.ready = "you are" if args.party else "READY"
    if args.serve:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bench ends it by closing stdin
        asyncio.run(serve(args))
        return {}
    if args.compare:
        both = {}
        for started in (True, False):
            args.started = started
            both["started" if started else "forked"] = measure(args)
            report(both["started" if started else "forked"])
        compare(both)
        figures = both
    else:
        figures = measure(args)
        report(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return figures


if __name__ == "__main__":
    main()
