"""The host's log: every record escaped (message, arguments, tracebacks), a client's error in
one line, and repeated lines of any kind summed (issue 39, findings 1 and 5)."""

from __future__ import annotations

import errno
import io
import logging
from collections.abc import Iterator

import pytest
from aiohttp.http_exceptions import BadHttpMessage, BadStatusLine

from tablegames.net.logs import host_log_handler

PAYLOAD = "\x1b]0;PWNED\x07\x1b[2J\x1b[8m\u202e"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def logged(clock: Clock) -> Iterator[tuple[logging.Logger, io.StringIO, logging.Handler]]:
    """A logger whose records go through the host's handler into a string."""
    out = io.StringIO()
    handler = host_log_handler(out, window=10.0, clock=clock)
    log = logging.getLogger(f"tablegames.test_logs.{id(out)}")
    log.propagate = False
    log.setLevel(logging.DEBUG)
    log.addHandler(handler)
    yield log, out, handler
    log.removeHandler(handler)


def safe_lines(text: str) -> list[str]:
    """The lines of `text`, each checked to hold only printable characters."""
    lines = text.splitlines()
    for line in lines:
        assert all(char.isprintable() for char in line), repr(line)
    assert "\r" not in text and "\x1b" not in text
    return lines


def test_a_record_from_a_client_is_one_escaped_line(logged):
    log, out, _ = logged
    log.warning("refused %s from %s: %s", "join", "mallory", f"there is no table {PAYLOAD}")
    log.info(f"a message built before logging: {PAYLOAD}\nforged 12:00 ssh: alice logged in")
    (first, second) = safe_lines(out.getvalue())
    assert "there is no table \\x1b]0;PWNED\\x07\\x1b[2J\\x1b[8m\\u202e" in first
    assert "\\nforged 12:00" in second  # one record, one line: no line is forged


def test_a_traceback_is_escaped_and_cannot_forge_a_line(logged):
    log, out, _ = logged
    try:
        raise ValueError(f"bad {PAYLOAD}\n12:00:00 ssh: alice logged in")
    except ValueError:
        log.exception("a session task failed")
    lines = safe_lines(out.getvalue())
    assert lines[0].endswith("a session task failed")
    assert any("ValueError" in line for line in lines[1:])
    assert all(line.startswith(" ") for line in lines[1:])  # the traceback is indented under it


@pytest.mark.parametrize(
    "error",
    [
        BadStatusLine(f"GET /{PAYLOAD} HTTP/1.1"),
        BadHttpMessage(f"Invalid header name {PAYLOAD!r}"),
        OSError(errno.EMFILE, "Too many open files"),
        ConnectionResetError(errno.ECONNRESET, "Connection reset by peer"),
    ],
)
def test_a_clients_error_is_one_line_without_a_traceback(logged, error):
    log, out, _ = logged
    try:
        raise error
    except Exception as caught:
        log.error("Error handling request from %s", "127.0.0.1", exc_info=caught)
    (line,) = safe_lines(out.getvalue())
    assert "Error handling request from 127.0.0.1: " in line
    assert type(error).__name__ in line and "Traceback" not in line


def test_three_hundred_bad_requests_are_a_few_lines_and_a_sum(logged, clock):
    log, out, handler = logged
    for n in range(300):
        try:
            raise BadStatusLine(f"{PAYLOAD} {n}")
        except BadStatusLine as caught:
            log.error("Error handling request from %s", f"127.0.0.{n % 7 + 1}", exc_info=caught)
    assert len(safe_lines(out.getvalue())) <= 10
    clock.now += 11
    handler.write_sums()
    lines = safe_lines(out.getvalue())
    assert len(lines) <= 10
    summed = [line for line in lines if "more like" in line]
    assert len(summed) == 1 and "Error handling request from %s" in summed[0]
    shown = len(lines) - 1
    assert f"{300 - shown} more like" in summed[0] and "in 11 s" in summed[0], summed


def test_a_kind_may_write_again_after_its_window_with_its_sum_first(logged, clock):
    log, out, _ = logged
    for _ in range(50):
        log.warning("ssh: dropped a connection from %s: %s", "10.0.0.9", "too many")
    before = len(safe_lines(out.getvalue()))
    clock.now += 10.5
    log.warning("ssh: dropped a connection from %s: %s", "10.0.0.9", "too many")
    lines = safe_lines(out.getvalue())
    assert len(lines) == before + 2
    assert f"{50 - before} more like" in lines[-2] and "ssh: dropped a connection" in lines[-1]


def test_a_party_nights_news_is_not_summed(logged):
    log, out, _ = logged
    for table in ("KXPF", "ABCD", "QRST", "WXYZ"):  # news: more lines of a kind get through
        for name in ("Ben", "Sara", "Ana"):
            log.info("table %s: %s", table, f"{name} sits down.")
    for name in ("Ben", "Sara", "Ana", "Zoë"):  # logins are news too
        log.info("ssh: %s logged in from %s (%s)", name, "10.0.0.2", "SHA256:abc")
    lines = safe_lines(out.getvalue())
    assert len(lines) == 16 and not any("more like" in line for line in lines)


def test_accept_errors_when_descriptors_run_out_are_a_line_and_a_sum(logged, clock):
    log, out, handler = logged
    error = OSError(errno.EMFILE, "Too many open files")
    for n in range(5000):  # as asyncio's accept loop reports them: a socket's line each
        log.error(
            f"socket.accept() out of system resource\nsocket: <socket fd={n} laddr=1.2.3.4>",
            exc_info=error,
        )
    clock.now += 10
    handler.write_sums()
    lines = safe_lines(out.getvalue())
    assert len(lines) == 4 and "4,997 more like “socket.accept() out of" in lines[-1], lines


def test_the_problems_log_a_host_reads_holds_no_escapes():
    from tablegames.net.logs import note_problem
    from tablegames.paths import data_dir

    try:
        raise ValueError(f"a guest's {PAYLOAD}\n12:00:00 session 1: forged")
    except ValueError as error:
        note_problem(error)
    lines = safe_lines((data_dir() / "problems.log").read_text())
    assert lines[0].startswith("--- ") and all(line.startswith("    ") for line in lines[1:])
    assert any("ValueError: a guest's \\x1b]0;PWNED" in line for line in lines), lines
