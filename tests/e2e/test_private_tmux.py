"""The tests' terminals are on a tmux server of their own: a person's tmux (their sessions,
their ~/.tmux.conf, a `tmux kill-server` typed in another window) and the tests never meet."""

from __future__ import annotations

import subprocess

from .terminal import SOCKET, TMUX, Terminal


def sessions(*tmux: str) -> list[str]:
    listed = subprocess.run(
        [*tmux, "list-sessions", "-F", "#S"], capture_output=True, text=True, check=False
    )
    return listed.stdout.split()


def test_a_test_terminal_is_on_a_tmux_server_of_its_own() -> None:
    terminal = Terminal(["sleep", "30"], env={})
    try:
        assert terminal.name in sessions(*TMUX)
        assert terminal.name not in sessions("tmux")  # (the default server, anyone's)
        assert terminal.shows("#{socket_path}").endswith(SOCKET)
    finally:
        terminal.close()
    assert terminal.name not in sessions(*TMUX)
