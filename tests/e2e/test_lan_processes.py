"""Real processes over loopback: `tablegames host` and `tablegames join --bot` play to the end."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e
TIMEOUT = 90


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "tablegames", *args]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "TABLEGAMES_HOME": str(tmp_path)}


def start_host(env: dict[str, str], *args: str) -> tuple[subprocess.Popen[str], int]:
    host = subprocess.Popen(
        cli("host", "crates", "--port", "0", *args),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert host.stdout is not None
    first = host.stdout.readline()
    found = re.search(r"port (\d+)", first)
    assert found, first
    return host, int(found.group(1))


def join_bot(env: dict[str, str], port: int, name: str, pace: float = 0) -> subprocess.Popen[str]:
    return subprocess.Popen(
        cli("join", f"127.0.0.1:{port}", "--bot", "normal", "--name", name, "--pace", str(pace)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def finish(process: subprocess.Popen[str]) -> dict:
    out, err = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


def test_a_host_and_four_bot_clients_play_crates_to_the_end(env):
    host, port = start_host(env, "--players", "4", "--short", "--pace", "0")
    try:
        bots = [join_bot(env, port, f"bot{i}") for i in range(4)]
        results = [finish(bot) for bot in bots]
        assert sorted(r["seat"] for r in results) == [0, 1, 2, 3]
        assert len({tuple(r["scores"]) for r in results}) == 1  # everyone saw the same end
    finally:
        host.send_signal(signal.SIGINT)
        host.wait(timeout=10)


def test_a_killed_client_comes_back_with_its_saved_token_and_the_game_ends(env):
    host, port = start_host(env, "--players", "3", "--short", "--pace", "0.05")
    try:
        steady = [join_bot(env, port, f"steady{i}", pace=0.03) for i in range(2)]
        victim = join_bot(env, port, "victim", pace=0.03)
        time.sleep(2.0)  # the game is under way
        assert victim.poll() is None, "the game ended before the kill"
        victim.kill()
        victim.wait(timeout=10)
        time.sleep(0.5)
        again = join_bot(env, port, "victim", pace=0.03)  # same name: finds its saved seat token
        results = [finish(p) for p in [*steady, again]]
        assert len({tuple(r["scores"]) for r in results}) == 1
        assert sorted(r["seat"] for r in results) == [0, 1, 2]
    finally:
        host.send_signal(signal.SIGINT)
        host.wait(timeout=10)
