"""Set-ups are not options (issue 47, item 2): a guest's `create`, and `tablegames host`, may
choose only what a game declares for players (`Option`, with its declared values); a stacked
deal, a chosen role or a seed is for tests and `tablegames play --seed` on one's own machine,
and is refused with a sentence.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tablegames.rules import GAMES
from tablegames.testing.harness import running_server

from .guest import answers, greeted, refusals

#: A whole first round of crates, stacked: the hands the creator chose for everyone.
STACKED = {"hands": [["2C", "3C"], ["4D", "5D"]], "upcard": "KC", "draw": ["AS"]}


async def test_a_guest_cannot_deal_a_friend_the_hand_they_chose():
    async with running_server() as (server, port):
        sara = await greeted(port, "sara")
        create = {"t": "create", "game": "crates", "players": 2, "options": STACKED}
        (why,) = refusals(await answers(sara, create))
        assert not server.tables  # no table, so nobody is ever dealt that hand
        assert why.startswith("cannot set up that table: hands is not for players to choose")
        assert "Crates's options: short" in why


@pytest.mark.parametrize(
    ("game", "setup"), [(game.name, setup) for game in GAMES.values() for setup in game.setups]
)
async def test_every_set_up_of_every_game_is_refused_over_the_wire(game, setup):
    info = GAMES[game]
    async with running_server() as (server, port):
        ben = await greeted(port, "ben")
        create = {"t": "create", "game": game, "players": info.min_players}
        (why,) = refusals(await answers(ben, {**create, "options": {setup: 0}}))
        assert f"{setup} is not for players to choose" in why
        assert not server.tables


async def test_a_declared_option_takes_only_its_declared_values():
    async with running_server() as (server, port):
        ben = await greeted(port, "ben")
        create = {"t": "create", "game": "kraken", "players": 7}
        for options in ({"board": "huge"}, {"characters": "yes"}):
            (why,) = refusals(await answers(ben, {**create, "options": options}))
            assert why.startswith("cannot set up that table:"), why
        answered = await answers(ben, {**create, "options": {"board": "long"}})
        assert refusals(answered) == [] and len(server.tables) == 1


def test_tablegames_host_refuses_a_seed_with_a_sentence():
    """`host --seed` would let whoever hosts know the deal: refused before anything listens."""
    command = [sys.executable, "-m", "tablegames", "host", "crates", "--seed", "5", "--port", "0"]
    host = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=os.environ
    )
    try:
        said, _ = host.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        host.kill()
        said, _ = host.communicate()
        raise AssertionError(f"the host started with a seed: {said}") from None
    assert host.returncode != 0
    assert "Hosting" not in said
    assert "--seed is for `tablegames play`" in said
