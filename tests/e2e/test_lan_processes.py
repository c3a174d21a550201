"""Real processes over loopback: `tablegames host` and `tablegames join --bot` play to the end."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from .processes import finish, hosting, join_bot

pytestmark = pytest.mark.e2e


def test_a_host_and_four_bot_clients_play_crates_to_the_end(env):
    with hosting(env, "--players", "4", "--short", "--pace", "0") as port:
        bots = [join_bot(env, port, f"bot{i}") for i in range(4)]
        results = [finish(bot) for bot in bots]
        assert sorted(r["seat"] for r in results) == [0, 1, 2, 3]
        assert len({tuple(r["scores"]) for r in results}) == 1  # everyone saw the same end


def test_bot_clients_without_names_sit_down_as_bots_with_names(env):
    # A headless bot's seat once read "normal bot" (and a second one could not sit down).
    with hosting(env, "--players", "3", "--short", "--pace", "0") as port:
        bots = [join_bot(env, port, None) for _ in range(3)]  # all at once: names taken in a race
        names = [finish(bot)["name"] for bot in bots]
        assert sorted(names) == ["Ada (bot)", "Bruno (bot)", "Chidi (bot)"], names


def test_a_killed_client_comes_back_with_its_saved_token_and_the_game_ends(env):
    with hosting(env, "--players", "3", "--short", "--pace", "0.05") as port:
        steady = [join_bot(env, port, f"steady{i}", pace=0.03) for i in range(2)]
        victim = join_bot(env, port, "victim", pace=0.03)
        seats, deadline = Path(env["TABLEGAMES_HOME"]) / "seats.json", time.monotonic() + 30
        while "victim" not in (seats.read_text() if seats.exists() else ""):
            assert time.monotonic() < deadline, "the victim never sat down"
            time.sleep(0.05)
        time.sleep(0.5)  # the game is under way
        assert victim.poll() is None, "the game ended before the kill"
        victim.kill()
        victim.wait(timeout=10)
        time.sleep(0.5)
        again = join_bot(env, port, "victim", pace=0.03)  # same name: finds its saved seat token
        results = [finish(p) for p in [*steady, again]]
        assert len({tuple(r["scores"]) for r in results}) == 1
        assert sorted(r["seat"] for r in results) == [0, 1, 2]
