"""A party's SSH session ends with a status the SSH door explains, never with a traceback."""

from __future__ import annotations

import pytest

import tablegames.tui.app as app_module
from tablegames.net.ssh_types import EXIT_OUT_OF_MEMORY, out_of_memory
from tablegames.tui.app import TableGamesApp


def test_a_guests_session_out_of_memory_ends_at_once_with_its_status(monkeypatch):
    def exit_now(status: int) -> None:
        raise SystemExit(status)

    monkeypatch.setattr(app_module.os, "_exit", exit_now)
    app = TableGamesApp(lobby=True)
    with pytest.raises(SystemExit) as ended:
        app.caught(MemoryError())
    assert ended.value.code == EXIT_OUT_OF_MEMORY


def test_running_out_of_memory_is_seen_through_what_it_caused():
    assert out_of_memory(MemoryError())
    try:
        try:
            raise MemoryError
        except MemoryError as error:
            raise RuntimeError("drawing failed") from error
    except RuntimeError as caused:
        assert out_of_memory(caused)
    assert not out_of_memory(ValueError()) and not out_of_memory(None)
