"""The server process's side of listening: its open-file limit raised at start-up, a share of
it for each door, and accept errors at that limit logged summed, never a traceback each.

Every socket is an open file. At the process's limit nothing can be accepted any more (the
page, SSH logins and `join` alike), and asyncio logs a traceback for every failed accept, many
a second. So the soft limit is raised as far as the hard one allows, each door caps its own
connections well below it (`door_share`), and asyncio's accept errors are counted in a
`RefusalTally`: one line, then a sum every few seconds.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
from collections.abc import Callable

from .guard import RefusalTally

FILES_WANTED = 65536  # the soft limit asked for when the hard one is unlimited
DOOR_SHARE = 4  # a door (SSH, the browsers') may hold a quarter of the open files at most
OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def raise_file_limit() -> int:
    """Raise the soft limit on open files as far as the hard limit allows; returns the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FILES_WANTED if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):  # (a container may refuse it: the limit stays)
            return soft
        soft = wanted
    return soft


def door_share(cap: int) -> int:
    """`cap` connections, or fewer if the open-file limit is too low for that: a door takes at
    most `1 / DOOR_SHARE` of it, so the other doors and the sessions always have their own."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return cap
    return max(1, min(cap, soft // DOOR_SHARE))


def sum_accept_errors(loop: asyncio.AbstractEventLoop, log: logging.Logger) -> Callable[[], None]:
    """Log `loop`'s accept errors (at the open-file limit) summed, not one traceback each; other
    errors go to the loop's handler as before. Returns how to put that handler back."""
    tally = RefusalTally(log)
    earlier = loop.get_exception_handler()

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
        problem = context.get("exception")
        accepting = str(context.get("message", "")).startswith("socket.accept()")
        if accepting and isinstance(problem, OSError) and problem.errno in OUT_OF_FILES:
            tally.refused(
                "connections (out of open files)",
                "any address",
                "could not accept a connection: %s (the server holds all the files it may)",
                problem.strerror or problem,
            )
        elif earlier is not None:
            earlier(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)

    def stop() -> None:
        tally.flush()
        loop.set_exception_handler(earlier)

    return stop
