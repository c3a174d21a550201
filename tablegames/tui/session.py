"""A party's SSH session: the lobby app for one guest, who must never see a traceback.

`tablegames serve` runs `tablegames session` on a pseudo-terminal for each SSH login. The guest
at the other end is nobody to show the host's paths or a traceback (with its locals, a ticket)
to: what goes wrong is written to `sessions.log` in the host's data directory (owner-only,
kept short) and the program ends with a status the SSH door turns into a sentence
(`EXIT_FAILED`; `EXIT_OUT_OF_MEMORY` when the session's memory limit was reached, at once, as
little as possible being done with no memory left).
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..net.ssh_types import EXIT_FAILED, EXIT_OUT_OF_MEMORY
from ..paths import data_dir, owner_only_file

if TYPE_CHECKING:
    from ..net.client import RemoteClient

SESSION_LOG = "sessions.log"
SESSION_LOG_LIMIT = 1_000_000  # bytes: a longer log starts again (the host reads the end)


def session_log() -> Path:
    """The host's log of what went wrong in sessions (owner-only; emptied once too long)."""
    path = owner_only_file(data_dir() / SESSION_LOG)
    if path.stat().st_size > SESSION_LOG_LIMIT:
        path.write_text("", encoding="utf-8")
    return path


def out_of_memory(error: BaseException | None) -> bool:
    """True if `error`, or what it came from, is a MemoryError."""
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, MemoryError):
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


def run_session(client: RemoteClient) -> None:
    """Run the party's lobby for one SSH session until the guest leaves; exits with a status
    the SSH door explains when something went wrong."""
    from .app import TableGamesApp

    handler = logging.FileHandler(session_log(), encoding="utf-8")
    handler.setFormatter(logging.Formatter(f"%(asctime)s session {os.getpid()}: %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[handler], force=True)
    app = TableGamesApp(remote=client, lobby=True, session=True)
    try:
        app.run()
    except MemoryError:
        os._exit(EXIT_OUT_OF_MEMORY)
    except Exception:
        logging.exception("the session failed")
        sys.exit(EXIT_FAILED)
    if app.farewell:
        print(app.farewell)
    if app.return_code:
        sys.exit(EXIT_FAILED)
