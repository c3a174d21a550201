"""A party's SSH session: the lobby app for one guest, ending with a status the door explains.

`tablegames serve` runs `tablegames session` on a pseudo-terminal for each SSH login, under
limits (`SshConfig`). The guest never sees a traceback or the host's paths: what goes wrong is
noted in the problems log (owner-only, in the data directory). A mistake the app catches ends
it with its own sentence (`TableGamesApp.caught`); one that escapes the app ends
the program with `EXIT_FAILED`, and running out of memory with `EXIT_OUT_OF_MEMORY` at once,
doing as little as possible with no memory left: the SSH door turns either into a sentence.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TYPE_CHECKING

from ..net.logs import PROBLEMS_LOG, host_log_handler, note_problem
from ..net.ssh_types import EXIT_FAILED, EXIT_OUT_OF_MEMORY
from ..paths import data_dir, owner_only_file

if TYPE_CHECKING:
    from ..net.client import RemoteClient


def run_session(client: RemoteClient) -> None:
    """Run the party's lobby for one SSH session until the guest leaves; exits with a status
    the SSH door explains when something went wrong."""
    from .app import TableGamesApp

    # What the app's libraries log (a task's error, a warning) goes to the host, not the guest:
    # escaped and summed as the host's log is (the host reads it in a terminal).
    problems = open(owner_only_file(data_dir() / PROBLEMS_LOG), "a", encoding="utf-8")  # noqa: SIM115
    fmt = f"%(asctime)s session {os.getpid()}: %(message)s"
    logging.basicConfig(
        level=logging.WARNING, handlers=[host_log_handler(problems, fmt)], force=True
    )
    app = TableGamesApp(remote=client, lobby=True)
    try:
        app.run()
    except MemoryError:
        os._exit(EXIT_OUT_OF_MEMORY)
    except Exception as error:
        note_problem(error)
        sys.exit(EXIT_FAILED)
    if app.farewell:
        print(app.farewell)
    sys.exit(app.return_code or 0)
