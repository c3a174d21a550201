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
    return " | ".join(parts)


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    with tempfile.TemporaryDirectory() as tmp:
        metrics = Path(tmp) / "metrics.jsonl"
        env = {**os.environ, ENV: str(metrics), "PYTHONPATH": str(ROOT)}
        marks = "not slow" if quick else "slow or not slow"
        command = [sys.executable, "-m", "pytest", *TESTS, "-q", "-m", marks,
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
