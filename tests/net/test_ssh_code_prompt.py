"""The join code prompt is not a session (issue 39): keyed strangers who never give the code
hold no slot of `--max-sessions`, no name and no seat, and are closed on a clock.

Strangers are asyncssh clients with throwaway keys (`strangers.py`); friends use the real
OpenSSH client in tmux. Other 127.x source addresses stand in for other machines of the LAN.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tablegames.net.ssh import SshConfig
from tablegames.serve import party_ssh_config
from tablegames.testing.metrics import record

from .ssh_harness import (
    DoorThread,
    make_key,
    needs_ssh_and_tmux,
    ssh_command,
    wait_until,
)
from .strangers import Strangers

pytestmark = [pytest.mark.e2e, needs_ssh_and_tmux]

CODE = "KXPF"
OpenDoor = Callable[..., DoorThread]


@pytest.fixture
def open_door(tmp_path: Path) -> Iterator[OpenDoor]:
    doors: list[DoorThread] = []

    def opened(**settings: object) -> DoorThread:
        config = SshConfig(port=0, host_key=tmp_path / "host_key", join_code=CODE, **settings)  # type: ignore[arg-type]
        door = DoorThread(config, tmp_path / "names.db")
        doors.append(door)
        return door

    yield opened
    for door in doors:
        door.stop()


@pytest.fixture
def strangers() -> Iterator[Strangers]:
    crowd = Strangers()
    yield crowd
    crowd.leave()


@pytest.fixture
def keys(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "keys"
    folder.mkdir()
    return {name: make_key(folder, name) for name in ("ben", "carol")}


def test_a_friend_with_the_code_gets_in_while_25_keyed_strangers_wait_without_it(
    open_door, clients, strangers, keys
):
    door = open_door(max_sessions=4)
    crowd = strangers.come(door.port, [f"stranger{n}" for n in range(25)], "127.0.0.2")
    waiting = [stranger for stranger in crowd if stranger.waiting]
    assert waiting, [stranger.screen for stranger in crowd]
    # As OpenSSH's MaxStartups: the prompt is part of the login, counted per address.
    assert len(waiting) <= door.door.config.startups_per_source

    friend = clients.open(ssh_command(door.port, "ben", keys["ben"], "-b", "127.0.0.3"))
    friend.wait_for("Join code:")
    friend.keys(CODE, "Enter")
    assert "PLAYER=ben GUEST=no" in friend.wait_for("READY")
    # The strangers hold no session, no player of their address and no name.
    assert door.session_count() == 1
    assert door.call(lambda: door.door.logged_in_from("127.0.0.2")) == 0
    assert door.call(lambda: sorted(door.door.guest_list.present)) == ["ben"]
    assert all(stranger.waiting for stranger in waiting)  # still at the prompt, harmless
    record("strangers", strangers=len(crowd), strangers_waiting=len(waiting), friend_admitted=1)


def test_a_login_at_the_code_prompt_holds_no_name(open_door, clients, strangers, keys):
    door = open_door()
    (squatter,) = strangers.come(door.port, ["carol"], "127.0.0.2")
    assert squatter.waiting, squatter.screen
    assert door.call(lambda: door.door.guest_list.name_holder("carol")) is None

    carol = clients.open(ssh_command(door.port, "carol", keys["carol"]))
    carol.wait_for("Join code:")
    carol.keys(CODE, "Enter")
    assert "PLAYER=carol GUEST=no" in carol.wait_for("READY")
    # The name is carol's now: whoever proved it first. The other key is told at the code.
    said = strangers.type(squatter, CODE)
    assert "The name carol was just taken by another player." in said
    assert door.session_count() == 1
    record("strangers", names_tried_at_prompt=1, names_held_by_strangers=0)


def test_logins_that_never_give_the_code_are_closed_after_the_login_timeout(open_door, strangers):
    door = open_door(login_timeout=1.5)
    crowd = strangers.come(door.port, [f"stranger{n}" for n in range(5)], "127.0.0.2")
    assert all(stranger.waiting for stranger in crowd)
    wait_until(
        lambda: door.call(lambda: len(door.door.connections)) == 0,
        what="every stranger closed",
    )
    for stranger in crowd:
        assert "No join code given in time." in stranger.screen + strangers.rest(stranger)
    late = [line for line in door.records.lines if "no join code given in time" in line]
    assert len(late) == 1, door.records.lines  # summed: one line now, the count later


@pytest.mark.parametrize(("lan", "given", "expected"), [(True, None, 4), (False, None, 20),
                                                         (True, 9, 9)])  # fmt: skip
def test_with_lan_a_few_players_share_an_address_unless_the_host_says(lan, given, expected):
    config = party_ssh_config(lan, 2222, 20, CODE, given)
    assert config.max_per_address == expected
