"""Run the reliability and security proofs and print one scoreboard line (`leak: ...`).

    python bench/reliability.py [--quick]

`--quick` runs the tests of the default suite (under three minutes on two cores); without it
the long ones (marked slow) run too: more games scanned, thousands of illegal actions and false
tokens, fifty server kills, a long atheris run, and the floods against a real party server
(idle sockets held while friends log in, chat nonstop). Besides `tests/reliability` it runs the
hostile-guest tests of the SSH front door and the party over SSH (real OpenSSH clients, in
tmux). The tests themselves assert; this prints what they counted. Everything talks to
loopback only. Exit status: pytest's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tablegames.testing.metrics import ENV, combine  # noqa: E402

TESTS = [
    "tests/reliability",
    "tests/net/test_ssh_front_door.py",  # wrong keys, idle sockets, squatting, memory
    "tests/e2e/test_party_over_ssh.py",  # a 9999x9999 terminal, a guest back at their seat
    "tests/e2e/test_hostile_floods.py",  # slow: floods against a real party server
    "tests/net/test_ssh_strangers.py",  # look-alike user names, escapes in them (issue 39)
    "tests/net/test_web_malformed.py",  # malformed requests, look-alike names in the form
    "tests/e2e/test_text_from_outside.py",  # escapes at every door of a real party server
]
DOOR_TESTS = [  # strangers at the door (issue 39)
    "tests/net/test_ssh_code_prompt.py",  # keyed strangers at the code prompt, squatted names
    "tests/net/test_web_strangers.py",  # silent sockets, connection caps, foreign-site posts
    "tests/e2e/test_web_floods.py",  # slow: 600 silent sockets against a real party server
]


def scoreboard(totals: dict[str, dict[str, object]]) -> str:
    """The one-line summary, from the combined metrics."""

    def get(kind: str, name: str, default: object = 0) -> object:
        return totals.get(kind, {}).get(name, default)

    memory = float(get("memory", "max_hostile_total"))  # type: ignore[arg-type]
    flood = float(get("memory", "max_flood_total"))  # type: ignore[arg-type]
    queued = float(get("slow_reader", "max_queued"))  # type: ignore[arg-type]
    classes = get("bad_input", "classes", [])
    assert isinstance(classes, list)
    parts = [
        f"leak: {get('leak', 'leaks')}/{get('leak', 'frames')} frames",
        f"planted leaks found: {get('plant', 'found')}/{get('plant', 'planted')}",
        f"history rewritten: {get('leak', 'rewritten')} events",
        f"illegal: {get('illegal', 'changed')}/{get('illegal', 'tried')} changed state",
        f"auth: {get('auth', 'accepted')}/{get('auth', 'tried')} accepted",
        f"bad input: {len(classes)} classes, {get('bad_input', 'collateral')} collateral",
        f"kills: {get('crash', 'kills')}, lost: {get('crash', 'lost')}, "
        f"twice: {get('crash', 'twice')}",
        f"reconnect: {get('crash', 'mismatches')}/{get('crash', 'reconnects')} mismatches "
        f"({get('crash', 'updates')} views)",
        f"slow reader: {queued / 1024:.0f} KiB max queued",
        f"hostile frame: +{memory / 2**20:.1f} MiB for {get('memory', 'connections')} conns, "
        f"flood +{flood / 2**20:.1f} MiB",
        f"silent: dropped within {float(get('silent', 'max_detect')):.2f} s",  # type: ignore[arg-type]
        f"fuzz: {get('fuzz', 'inputs')} inputs",
        f"files readable by others: {get('fairplay', 'files_readable_by_others')}"
        f"/{get('fairplay', 'files_written')}",
        f"code guesses before lock-out: {get('fairplay', 'max_code_guesses_before_lockout')}",
        f"chat flood: {get('fairplay', 'max_chat_delivered')}/{get('fairplay', 'chat_sent')} "
        "lines delivered",
        f"pre-auth flood: {get('preauth', 'logins_admitted', '-')}/"
        f"{get('preauth', 'logins_tried', '-')} logins admitted",
        f"owners locked out: {get('hostile', 'owners_locked_out', '-')} after "
        f"{get('hostile', 'wrong_key_tries', '-')} wrong keys",
        f"session memory: cap {get('hostile', 'session_memory_cap_mb', '-')} MB, 9999x9999 "
        f"session {get('hostile', 'max_session_rss_mb', '-')} MB",
        f"table flood: {get('hostile', 'max_tables_opened', '-')} tables for "
        f"{get('hostile', 'table_flood_connections', '-')} connections",
        f"log lines per 10 s of flood: chat "
        f"{get('logflood', 'max_log_lines_per_10s', get('flood', 'max_log_lines', '-'))}, "
        f"idle sockets {get('preauth', 'max_log_lines_per_10s', '-')}",
    ]
    parts += text_from_outside(totals)
    parts += strangers_at_the_door(totals)
    return " | ".join(parts)


def text_from_outside(totals: dict[str, dict[str, object]]) -> list[str]:
    """Issue 39's fields: control bytes from clients reaching the host's log or a player's
    terminal (each door, and all three at a real party server), the log lines 300 malformed
    HTTP requests cost, look-alike names let in, and the marks a letter keeps of 100."""
    outside = totals.get("outside", {})

    def get(name: str) -> object:
        return outside.get(name, "-")

    return [
        f"control bytes to the host's log: join port {get('tcp_control_in_log')}/"
        f"{get('tcp_payloads')}, ssh {get('ssh_control_in_log')}/{get('ssh_payloads')}, "
        f"every door {get('all_doors_control_in_log')}/{get('all_doors_payloads')} payloads",
        f"control bytes to players: {get('tcp_control_to_players')}/{get('tcp_payloads')}, "
        f"every door {get('all_doors_control_to_players')}/{get('all_doors_payloads')}",
        f"log lines for {get('max_malformed_requests')} malformed HTTP requests: "
        f"{get('max_malformed_http_log_lines')}",
        f"look-alike names admitted: {get('lookalikes_admitted')}/{get('lookalikes_tried')}",
        f"marks delivered: {get('max_marks_delivered')}/{get('marks_sent')}",
    ]


def strangers_at_the_door(totals: dict[str, dict[str, object]]) -> list[str]:
    """The scoreboard's fields for strangers at the doors: code-less logins, squatted names,
    silent sockets against the page, and another site's form posts."""
    strangers, flood = totals.get("strangers", {}), totals.get("webflood", {})
    foreign = totals.get("foreign", {})
    admitted = {1: "yes", 0: "no"}.get(strangers.get("friend_admitted"), "-")  # type: ignore[arg-type]
    return [
        f"friend with the code past {strangers.get('strangers', '-')} keyed strangers from one "
        f"address: {admitted} ({strangers.get('strangers_waiting', '-')} waited at the prompt)",
        f"names held at the code prompt: {strangers.get('names_held_by_strangers', '-')}"
        f"/{strangers.get('names_tried_at_prompt', '-')}",
        f"{flood.get('silent_sockets', '-')} silent sockets: page in "
        f"{flood.get('max_page_ms', '-')} ms, {flood.get('max_open_after_25s', '-')} open after "
        f"25 s, at the file limit {flood.get('max_log_lines_at_file_limit', '-')} log lines",
        f"foreign-site posts honoured: {foreign.get('posts_honoured', '-')}"
        f"/{foreign.get('posts_tried', '-')}",
    ]


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    with tempfile.TemporaryDirectory() as tmp:
        metrics = Path(tmp) / "metrics.jsonl"
        env = {**os.environ, ENV: str(metrics), "PYTHONPATH": str(ROOT)}
        marks = "not slow" if quick else "slow or not slow"
        command = [sys.executable, "-m", "pytest", *TESTS, *DOOR_TESTS, "-q", "-m", marks,
                   "-p", "no:cacheprovider", "--durations=8"]  # fmt: skip
        if not quick:
            command += ["-n", "0"]  # the slow ones kill servers and flood: one at a time
        print("$", " ".join(command), flush=True)
        started = time.monotonic()
        done = subprocess.run(command, cwd=ROOT, env=env, check=False)
        took = time.monotonic() - started
        lines = [json.loads(line) for line in metrics.read_text().splitlines()] if (
            metrics.exists()) else []  # fmt: skip
    totals = combine(lines)
    print(f"\n{'quick' if quick else 'full'} run: {took:.0f} s, pytest exit {done.returncode}")
    for kind, counts in sorted(totals.items()):
        print(f"  {kind}: {json.dumps(counts)}")
    print(scoreboard(totals))
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
