"""A party's SSH session never shows its guest a traceback: it goes to the host's session log."""

from __future__ import annotations

import stat

from rich.text import Text

from tablegames.paths import data_dir
from tablegames.tui.app import TableGamesApp
from tablegames.tui.session import SESSION_LOG, out_of_memory


def test_an_error_in_a_session_goes_to_the_hosts_log_not_the_guests_screen(capsys):
    app = TableGamesApp(lobby=True, session=True)
    app._exit_renderables.append(Text('Traceback: File "/home/host/secret.py", ticket=abc'))
    app._print_error_renderables()
    shown = capsys.readouterr()
    assert shown.out == shown.err == ""
    log = data_dir() / SESSION_LOG
    assert "/home/host/secret.py" in log.read_text()
    assert stat.S_IMODE(log.stat().st_mode) == 0o600


def test_an_ordinary_app_still_shows_its_errors(capsys):
    app = TableGamesApp()
    app._exit_renderables.append(Text("Traceback: something"))
    app._print_error_renderables()
    assert "Traceback: something" in capsys.readouterr().err


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
