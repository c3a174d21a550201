"""Joining the SSH front door with the real OpenSSH client, in tmux, on loopback.

A stand-in program (`ssh_table_program.py`) plays the lobby: it prints who it runs for, its
terminal and its pid, echoes lines and reports resizes.
"""

from __future__ import annotations

import os
import re
import socket
import stat
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tablegames.net.guard import AttemptLimiter
from tablegames.net.ssh import Launch, SshConfig
from tablegames.testing.metrics import record

from .ssh_harness import (
    DoorThread,
    alive,
    make_key,
    my_children,
    needs_ssh_and_tmux,
    open_fds,
    shown_pid,
    ssh_client_pid,
    ssh_command,
    table_program,
    wait_until,
)

pytestmark = [pytest.mark.e2e, needs_ssh_and_tmux]

OpenDoor = Callable[..., DoorThread]
#: A test of what happens to a session's program: run with it forked, and started anew.
both_launches = pytest.mark.parametrize("open_door", ["started", "forked"], indirect=True)


@pytest.fixture
def keys(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "keys"
    folder.mkdir()
    return {name: make_key(folder, name) for name in ("ben", "mallory")}


@pytest.fixture
def open_door(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[OpenDoor]:
    """Start front doors on free loopback ports; all are closed at the end of the test. Each
    session's program is forked by a fork server, as `serve` runs them; a test of the program's
    own life (`both_launches`) also runs it started as a new process, as a session is started
    when the fork server is gone."""
    doors: list[DoorThread] = []

    def opened(
        limiter: AttemptLimiter | None = None, launch=table_program, **settings: object
    ) -> DoorThread:
        settings.setdefault("host_key", tmp_path / "host_key")
        config = SshConfig(host="127.0.0.1", port=0, **settings)  # type: ignore[arg-type]
        forked = getattr(request, "param", "forked") == "forked"
        door = DoorThread(config, tmp_path / "names.db", limiter, launch, forked)
        doors.append(door)
        return door

    yield opened
    for door in doors:
        door.stop()


# -- who you are ----------------------------------------------------------------------------------
@both_launches
def test_a_key_user_plays_under_their_name_on_their_own_terminal(open_door, clients, keys):
    door = open_door()
    ssh = clients.open(ssh_command(door.port, "Ben", keys["ben"], "-o", "SetEnv=SECRET=leak"))
    screen = ssh.wait_for("READY")
    assert "PLAYER=Ben GUEST=no" in screen
    fingerprint = door.call(
        lambda: door.door.guest_list.name_holder("ben")
    )  # in use by this key now
    assert fingerprint is not None and f"KEY={fingerprint}" in screen
    assert door.call(lambda: door.store.name_owner("ben")) is None  # owned once at a table
    # The client's terminal type and size; a real controlling terminal; nothing else from it.
    assert "TERM=xterm-256color SIZE=80x24" in screen
    assert "TTY=yes CTTY=yes" in screen
    # (LC_CTYPE: a new interpreter's own, when it coerces the C locale; a forked one started
    # long before)
    assert re.search(r"ENV=GUEST,KEY,(LC_CTYPE,)?PATH,PLAYER,TERM\n", screen)

    ssh.keys("hello, table", "Enter")
    ssh.wait_for("YOU SAID: hello, table")
    ssh.keys("raw", "Enter")
    ssh.wait_for("RAW")
    ssh.keys("C-c")  # just a byte for the program: the session goes on
    ssh.wait_for("GOT 03")
    ssh.resize(100, 30)
    ssh.wait_for("RESIZED SIZE=100x30")
    ssh.keys("exit 3", "Enter")
    ssh.wait_for("SSH-EXIT=3")  # the program's exit status is the client's
    wait_until(lambda: door.session_count() == 0, what="the session ending")
    assert any("Ben logged in from 127.0.0.1 (SHA256:" in line for line in door.records.lines)
    assert any(line.startswith("ssh: Ben left") for line in door.records.lines)


def test_a_name_belongs_to_the_key_using_it_and_then_to_its_owner(open_door, clients, keys):
    door = open_door()
    first = clients.open(ssh_command(door.port, "ben", keys["ben"]))
    fingerprint = first.wait_for("READY").split("KEY=")[1].split()[0]

    other_key = clients.open(ssh_command(door.port, "BEN", keys["mallory"]))
    screen = other_key.wait_for("SSH-EXIT=255")
    assert "The name BEN belongs to another player's key" in screen.replace("\n", "")
    assert door.call(lambda: door.door.limiter.failures("127.0.0.1")) == 0  # no lock for it

    # A client that tries keys only is told as well (in the banner OpenSSH shows).
    batch = clients.open(
        ssh_command(door.port, "ben", keys["mallory"], "-o", "BatchMode=yes", "-o", "LogLevel=INFO")
    )
    screen = batch.wait_for("SSH-EXIT=255")
    assert "This key does not own the name ben." in screen

    # Without a key, an owned name cannot be had either.
    keyless = clients.open(ssh_command(door.port, "ben", None))
    assert "belongs to another player's key" in keyless.wait_for("SSH-EXIT=255").replace("\n", "")

    first.keys("exit 0", "Enter")
    first.wait_for("SSH-EXIT=0")
    # Owned (as sitting at a table makes it): still the owner's while away.
    assert door.call(lambda: door.store.claim_name("ben", "ben", fingerprint))
    taken = clients.open(ssh_command(door.port, "ben", keys["mallory"]))
    assert "belongs to another player's key" in taken.wait_for("SSH-EXIT=255").replace("\n", "")
    again = clients.open(ssh_command(door.port, "ben", keys["ben"]))
    assert "PLAYER=ben GUEST=no" in again.wait_for("READY")


def test_a_client_without_a_key_is_a_guest(open_door, clients, keys):
    door = open_door()
    carol = clients.open(ssh_command(door.port, "carol", None))
    screen = carol.wait_for("READY")
    assert "PLAYER=guest-carol GUEST=yes" in screen
    assert "KEY=none" in screen
    # The same name from the same address is the same guest (coming back after a drop)...
    again = clients.open(ssh_command(door.port, "carol", None))
    assert "PLAYER=guest-carol GUEST=yes" in again.wait_for("READY")
    # ...from another address, another guest.
    other = clients.open(ssh_command(door.port, "carol", None, "-b", "127.0.0.2"))
    assert "PLAYER=guest-carol-2 GUEST=yes" in other.wait_for("READY")
    # A key cannot own a guest's name: with one, "guest-..." is still a guest.
    keyed = clients.open(ssh_command(door.port, "guest-dan", keys["ben"]))
    assert "PLAYER=guest-dan GUEST=yes" in keyed.wait_for("READY")
    assert door.call(lambda: door.store.name_owner("guest-dan")) is None
    assert any(
        "guest-carol logged in from 127.0.0.1 (guest)" in line for line in door.records.lines
    )


def test_a_name_with_nothing_printable_is_refused(open_door, clients, keys):
    door = open_door()
    ssh = clients.open(ssh_command(door.port, "[]", keys["ben"]))
    screen = ssh.wait_for("SSH-EXIT=255").replace("\n", "")
    assert "That user name cannot be a player's name" in screen


# -- the join code --------------------------------------------------------------------------------
def test_a_guest_gives_the_join_code_at_login(open_door, clients):
    door = open_door(join_code="KX-PF")
    ssh = clients.open(ssh_command(door.port, "carol", None))
    ssh.wait_for("Join code:")
    ssh.keys("kx pf", "Enter")  # case, spaces and dashes do not matter
    assert "PLAYER=guest-carol" in ssh.wait_for("READY")


def test_a_key_user_is_asked_for_the_join_code_before_the_program(open_door, clients, keys):
    door = open_door(join_code="KXPF")
    ssh = clients.open(ssh_command(door.port, "ben", keys["ben"]))
    screen = ssh.wait_for("Join code:")
    assert "This party needs its join code (the host has it)." in screen  # (not a table's)
    ssh.keys("wrong", "Enter")
    ssh.wait_for("That is not the join code: ask the host for it.")
    ssh.keys("kx-pf", "Enter")
    screen = ssh.wait_for("READY")
    assert "kx-pf" not in screen and "wrong" not in screen  # never echoed
    # The host's log says where a session is: in the party (its lobby), not "at the table".
    assert any("ben joined the party (pid" in line for line in door.records.lines)
    assert not any("at the table" in line for line in door.records.lines)
    assert door.call(lambda: door.door.limiter.failures("127.0.0.1")) == 0  # forgiven


def test_wrong_join_codes_hold_the_address_back(open_door, clients, keys):
    door = open_door(AttemptLimiter(free=1, lock_after=2, lock_for=600), join_code="KXPF")
    guesser = clients.open(ssh_command(door.port, "mallory", None))
    guesser.wait_for("Join code:")
    guesser.keys("AAAA", "Enter")
    # The second prompt first: ssh drops what was typed before it asks (seen under load).
    wait_until(lambda: guesser.screen().count("Join code:") >= 2, what="a second prompt")
    guesser.keys("BBBB", "Enter")
    screen = guesser.wait_for("SSH-EXIT=255").replace("\n", "")
    assert "Too many wrong join codes from 127.0.0.1: try again in 10 minutes" in screen

    # Held back: a key that never gave the code is refused at once, before any prompt.
    ssh = clients.open(ssh_command(door.port, "ben", keys["ben"]))
    screen = ssh.wait_for("SSH-EXIT=").replace("\n", "")
    assert "Too many wrong join codes from 127.0.0.1: try again in 10 minutes" in screen
    assert "Join code" not in screen
    # Logged summed: the first wrong code in full, the rest in one line later (never the code).
    failures = [line for line in door.records.lines if line.startswith("ssh: wrong join code")]
    assert failures == ["ssh: wrong join code from 127.0.0.1"]
    assert not any("AAAA" in line or "BBBB" in line for line in door.records.lines)


# -- limits ---------------------------------------------------------------------------------------
def test_the_server_says_when_it_is_full(open_door, clients, keys):
    door = open_door(max_sessions=2, max_per_address=5)
    for name in ("ann", "bob"):
        clients.open(ssh_command(door.port, name, None)).wait_for("READY")
    third = clients.open(ssh_command(door.port, "cat", None))
    screen = third.wait_for("SSH-EXIT=1")
    assert "The table server is full (2 sessions); try again later." in screen
    assert "READY" not in screen


def test_players_are_limited_per_address_and_connections_in_all(open_door, clients, keys):
    door = open_door(max_per_address=1)
    clients.open(ssh_command(door.port, "ann", None)).wait_for("READY")
    second = clients.open(ssh_command(door.port, "bob", None))
    screen = second.wait_for("SSH-EXIT=255").replace("\n", "")
    assert "Too many players from 127.0.0.1 at once (at most 1): one of you must leave" in screen
    assert "--max-per-address" in screen
    elsewhere = clients.open(ssh_command(door.port, "bob", None, "-b", "127.0.0.2"))
    assert "PLAYER=guest-bob" in elsewhere.wait_for("READY")  # another address is not held up

    crowded = open_door(max_connections=1)
    clients.open(ssh_command(crowded.port, "ann", None)).wait_for("READY")
    turned_away = clients.open(ssh_command(crowded.port, "bob", None, "-o", "LogLevel=INFO"))
    screen = turned_away.wait_for("SSH-EXIT=255")
    assert "Connection reset" in screen or "closed by remote host" in screen  # no sentence
    assert (
        "ssh: dropped a connection from 127.0.0.1: the server has its 1 connections"
        in crowded.records.lines
    )


def test_a_join_code_not_given_in_time_closes_the_session(open_door, clients, keys):
    door = open_door(join_code="KXPF", login_timeout=2.0)
    ssh = clients.open(ssh_command(door.port, "ben", keys["ben"]))
    ssh.wait_for("Join code:")
    assert "No join code given in time." in ssh.wait_for("SSH-EXIT=1", timeout=10)


def test_a_connection_that_opens_no_session_is_closed_after_the_login_timeout(
    open_door, clients, keys
):
    door = open_door(login_timeout=1.5)
    ssh = clients.open(ssh_command(door.port, "ben", keys["ben"], "-N"))
    ssh.wait_for("SSH-EXIT=255", timeout=10)
    assert "ssh: ben from 127.0.0.1 opened no session in time" in door.records.lines


@both_launches
def test_a_program_that_cannot_start_is_reported_to_the_player(open_door, clients, tmp_path):
    def broken(identity, terminal):
        return Launch([str(tmp_path / "no-such-program")], {})

    door = open_door(launch=broken)
    ssh = clients.open(ssh_command(door.port, "ben", None))
    assert "The table could not be started here; tell the host." in ssh.wait_for("SSH-EXIT=1")
    assert "ssh: could not start the program for guest-ben" in door.records.lines
    assert door.session_count() == 0


@both_launches
def test_closing_the_door_ends_every_session(open_door, clients, keys):
    door = open_door()
    terminals = [clients.open(ssh_command(door.port, name, None)) for name in ("ann", "bob")]
    pids = [shown_pid(terminal.wait_for("READY")) for terminal in terminals]
    door.stop()
    assert not any(alive(pid) for pid in pids)  # reaped before stop() returned
    for terminal in terminals:
        assert "The host has closed the table server." in terminal.wait_for("SSH-EXIT=")


@both_launches
def test_an_idle_session_is_closed_with_a_sentence(open_door, clients, keys):
    door = open_door(idle_timeout=2.0)
    ssh = clients.open(ssh_command(door.port, "ben", keys["ben"]))
    pid = shown_pid(ssh.wait_for("READY"))
    screen = ssh.wait_for("SSH-EXIT=", timeout=20)
    assert "No keystroke for 2 seconds: this session is closed." in screen
    wait_until(lambda: not alive(pid), what="the program ending")


@both_launches
def test_a_dropped_connection_ends_the_program(open_door, clients, keys):
    door = open_door(hangup_grace=1.0)
    ssh = clients.open(ssh_command(door.port, "ben", keys["ben"]))
    pid = shown_pid(ssh.wait_for("READY"))
    assert alive(pid)
    os.kill(ssh_client_pid(ssh), 9)  # the client vanishes without a goodbye
    wait_until(lambda: not alive(pid), what="the program ending")
    wait_until(lambda: door.session_count() == 0, what="the session ending")
    assert pid not in my_children()  # reaped, not a zombie


@both_launches
def test_sessions_leave_no_processes_or_descriptors_behind(open_door, clients, keys):
    door = open_door()
    clients.open(ssh_command(door.port, "warmup", None)).wait_for("READY")
    wait_until(lambda: door.session_count() == 1, what="the warm-up session")
    fds, children = open_fds(), len(my_children())
    terminals = [clients.open(ssh_command(door.port, f"p{n}", None)) for n in range(4)]
    pids = [shown_pid(terminal.wait_for("READY")) for terminal in terminals]
    assert len(my_children()) == children + 4
    terminals[0].keys("exit 0", "Enter")  # one leaves on its own...
    terminals[0].wait_for("SSH-EXIT=0")
    for terminal in terminals[1:]:  # ...the others' connections drop
        os.kill(ssh_client_pid(terminal), 9)
    wait_until(lambda: not any(alive(pid) for pid in pids), what="every program ending")
    wait_until(lambda: door.session_count() == 1, what="the sessions ending")
    wait_until(lambda: len(my_children()) == children, what="every child reaped")
    wait_until(lambda: open_fds() == fds, what="every descriptor closed")


def test_commands_subsystems_and_forwarding_are_refused(open_door, clients, keys):
    door = open_door()
    command = clients.open(ssh_command(door.port, "ben", keys["ben"], command="cat /etc/passwd"))
    screen = command.wait_for("SSH-EXIT=1").replace("\n", "")
    assert "tablegames runs no commands: connect with plain ssh -p" in screen
    assert "READY" not in screen and "root:" not in screen

    no_pty = clients.open(ssh_command(door.port, "ben", keys["ben"], terminal=False))
    screen = no_pty.wait_for("SSH-EXIT=1").replace("\n", "")
    assert "tablegames needs a terminal: connect with ssh -t -p" in screen

    sftp = clients.open(ssh_command(door.port, "ben", keys["ben"], "-s", command="sftp"))
    assert "subsystem request failed" in sftp.wait_for("SSH-EXIT=")

    forward = clients.open(
        ssh_command(door.port, "ben", keys["ben"], "-W", f"127.0.0.1:{door.port}")
    )
    assert "stdio forwarding failed" in forward.wait_for("SSH-EXIT=")

    remote = clients.open(
        ssh_command(
            door.port,
            "ben",
            keys["ben"],
            "-N",
            "-o",
            "ExitOnForwardFailure=yes",
            "-R",
            "0:127.0.0.1:9",
        )
    )
    assert "remote port forwarding failed" in remote.wait_for("SSH-EXIT=")
    assert door.session_count() == 0
    refusals = [line for line in door.records.lines if line.startswith("ssh: refused")]
    assert refusals == [
        "ssh: refused a command from ben (127.0.0.1)",
        "ssh: refused ben (127.0.0.1): no terminal",
        "ssh: refused subsystem 'sftp' for ben",
        "ssh: refused port forwarding for ben (127.0.0.1)",  # the second: summed, later
    ]


# -- the host key ---------------------------------------------------------------------------------
def test_the_host_key_is_private_and_the_same_after_a_restart(open_door, clients, keys, tmp_path):
    known_hosts = tmp_path / "known_hosts"
    remembered = ["-o", f"UserKnownHostsFile={known_hosts}", "-o", "HostKeyAlias=tablegames-test"]
    first = open_door()
    key_file = tmp_path / "host_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    fingerprint = first.door.host_fingerprint
    ssh = clients.open(
        ssh_command(
            first.port, "ben", keys["ben"], *remembered, "-o", "StrictHostKeyChecking=accept-new"
        )
    )
    ssh.wait_for("READY")
    first.stop()

    second = open_door()
    assert second.door.host_fingerprint == fingerprint
    ssh = clients.open(
        ssh_command(second.port, "ben", keys["ben"], *remembered, "-o", "StrictHostKeyChecking=yes")
    )
    ssh.wait_for("READY")  # the client recognised the server


# -- a hostile guest (issue 28) -------------------------------------------------------------------
def ssh_run(port: int, name: str, key: Path | None, *options: str, command: str = "true") -> int:
    """`ssh ... NAME@127.0.0.1 COMMAND` in batch mode, without a terminal; its exit status."""
    line = ssh_command(port, name, key, "-o", "BatchMode=yes", *options, command=command)
    return subprocess.run(line, capture_output=True, timeout=30, check=False).returncode


def test_the_owner_is_let_in_after_25_wrong_key_tries_from_the_same_address(
    open_door, clients, keys
):
    door = open_door()
    ben = door.call(lambda: door.store)  # ben's key owns the name (he sat at a table once)
    fingerprint = subprocess.run(
        ["ssh-keygen", "-lf", str(keys["ben"]) + ".pub"], capture_output=True, text=True
    ).stdout.split()[1]
    assert door.call(lambda: ben.claim_name("ben", "ben", fingerprint))
    statuses = [ssh_run(door.port, "ben", keys["mallory"]) for _ in range(25)]
    assert statuses == [255] * 25  # every wrong key refused...
    owner = clients.open(ssh_command(door.port, "ben", keys["ben"]))
    assert "PLAYER=ben GUEST=no" in owner.wait_for("READY")  # ...and the owner let in at once
    other = clients.open(ssh_command(door.port, "cat", keys["mallory"]))
    assert "PLAYER=cat GUEST=no" in other.wait_for("READY")  # as is anyone else from there
    refusals = [line for line in door.records.lines if "for ben: the name belongs" in line]
    assert len(refusals) == 1  # summed: one line now, the count at the end of its window
    record("hostile", wrong_key_tries=25, owners_locked_out=0)


def test_a_login_gets_through_while_100_idle_sockets_from_another_address_are_held(
    open_door, clients, keys
):
    door = open_door(login_grace=60.0)  # idle sockets are dropped by the cap, not the clock
    idle = []
    for _ in range(100):
        sock = socket.create_connection(("127.0.0.1", door.port), source_address=("127.0.0.2", 0))
        idle.append(sock)
    try:
        cap = door.door.config.startups_per_source
        wait_until(
            lambda: door.call(lambda: len(door.door.logging_in())) <= cap, what="the cap holding"
        )
        ssh = clients.open(ssh_command(door.port, "ben", keys["ben"]))
        assert "PLAYER=ben" in ssh.wait_for("READY")
        held = [sock for sock in idle if still_open(sock)]
        assert len(held) == cap  # the rest were dropped
        dropped = [line for line in door.records.lines if "dropped a connection" in line]
        assert dropped == [  # summed: one line now, the count at the end of its window
            f"ssh: dropped a connection from 127.0.0.2: {cap} logins from this address are "
            "under way"
        ]
    finally:
        for sock in idle:
            sock.close()


def test_a_socket_that_never_speaks_is_dropped_after_the_login_grace(open_door):
    door = open_door(login_grace=1.0)
    sock = socket.create_connection(("127.0.0.1", door.port), source_address=("127.0.0.2", 0))
    try:
        sock.settimeout(15)
        while sock.recv(4096):  # the server's version line, then nothing: then closed
            pass
    except ConnectionResetError:
        pass
    finally:
        sock.close()
    assert any("no login asked for within 1 second" in line for line in door.records.lines)


def still_open(sock: socket.socket) -> bool:
    """True if the server has not closed `sock` (what it sent is read and dropped)."""
    sock.setblocking(False)
    try:
        while data := sock.recv(65536):
            del data
        return False  # closed
    except BlockingIOError:
        return True
    except OSError:
        return False


def test_a_refused_command_takes_no_name(open_door, keys):
    door = open_door()
    names = [f"squat{n}" for n in range(10)]
    assert [ssh_run(door.port, name, keys["mallory"]) for name in names] == [1] * 10
    assert door.call(lambda: [door.store.name_owner(name) for name in names]) == [None] * 10
    assert door.call(lambda: dict(door.door.guest_list.present)) == {}  # nor holds any once gone
    assert ssh_run(door.port, "squat0", keys["ben"]) == 1  # the next key may use it


def test_a_name_with_an_emoji_is_a_name(open_door, clients):
    door = open_door()
    ssh = clients.open(ssh_command(door.port, "zoë🂡", None))
    assert "PLAYER=guest-zoë🂡 GUEST=yes" in ssh.wait_for("READY")


def test_whoever_gave_the_join_code_is_not_asked_again(open_door, clients, keys):
    door = open_door(join_code="KXPF")
    ben = clients.open(ssh_command(door.port, "ben", keys["ben"]))
    ben.wait_for("Join code:")
    ben.keys("KXPF", "Enter")
    ben.wait_for("READY")
    carol = clients.open(ssh_command(door.port, "carol", None))
    carol.wait_for("Join code:")
    carol.keys("KXPF", "Enter")
    carol.wait_for("READY")
    for terminal in (ben, carol):
        terminal.keys("exit 0", "Enter")
        terminal.wait_for("SSH-EXIT=0")
    # Someone at the same address guesses until it is held back...
    guesser = clients.open(ssh_command(door.port, "mallory", None))
    for attempt in range(10):

        def asked_again(n: int = attempt) -> bool:
            screen = guesser.screen()
            return screen.count("Join code:") > n or "SSH-EXIT" in screen

        wait_until(asked_again, what="a prompt or the end")
        if "SSH-EXIT" in guesser.screen():
            break
        guesser.keys(f"WRONG{attempt}", "Enter")
    assert "Too many wrong join codes" in guesser.wait_for("SSH-EXIT=255").replace("\n", "")
    # ...and ben's key and carol (the same name, the same address) come back without the code.
    for terminal in (
        clients.open(ssh_command(door.port, "ben", keys["ben"])),
        clients.open(ssh_command(door.port, "carol", None)),
    ):
        screen = terminal.wait_for("READY")
        assert "Join code" not in screen


@both_launches
def test_a_full_screen_program_that_dies_leaves_the_terminal_as_it_was(open_door, clients, keys):
    door = open_door(session_memory_mb=512)
    ssh = clients.open(ssh_command(door.port, "ben", keys["ben"]))
    ssh.wait_for("READY")
    ssh.keys("fullscreen", "Enter")
    ssh.wait_for("FULL SCREEN")
    assert pane_flags(ssh) == "alternate=1 mouse=1"
    ssh.keys("hog", "Enter")  # more than its memory limit allows
    screen = ssh.wait_for("SSH-EXIT=")
    assert pane_flags(ssh) == "alternate=0 mouse=0"  # restored by the door
    assert "This session reached its memory limit (512 MB) and was closed." in screen.replace(
        "\n", ""
    )


def pane_flags(terminal) -> str:
    return terminal.shows("alternate=#{alternate_on} mouse=#{mouse_any_flag}")
