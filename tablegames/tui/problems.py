"""The problems log: what went wrong in a screen, kept owner-only in the data directory."""

from __future__ import annotations

import time
import traceback

from ..net.logs import TRACEBACK_INDENT
from ..paths import data_dir, owner_only_file
from ..text import visible_lines

#: The log is started afresh once it grows past this many bytes.
KEPT_BYTES = 256 * 1024


def note_problem(error: BaseException) -> str:
    """Append `error` and its traceback to the problems log; returns a sentence to add to a
    message on this machine's own terminal (" The details are in FILE."), or "" if it could
    not be written."""
    try:
        path = owner_only_file(data_dir() / "problems.log")
        mode = "w" if path.stat().st_size > KEPT_BYTES else "a"
        with open(path, mode, encoding="utf-8") as log:
            log.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
            # Read in a terminal: what a guest sent (in an error's text) must not act on it.
            details = "".join(traceback.format_exception(error)).rstrip("\n")
            log.write(visible_lines(details, TRACEBACK_INDENT))
            log.write("\n")
    except OSError:
        return ""
    return f" The details are in {path}."
