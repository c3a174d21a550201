"""Fuzzing the frame decoder and message validation: only documented rejections, and the same
messages whatever the chunking of the input (Hypothesis; atheris too when it is installed).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablegames.net.protocol import (
    CLIENT_MESSAGES,
    MAX_DEPTH,
    MAX_TEXT,
    SERVER_MESSAGES,
    Connection,
    ProtocolError,
    Schema,
    check_message,
    decode,
    encode,
)
from tablegames.testing.metrics import record

DOCUMENTED = {"frame-size", "bad-frame", "bad-message", "truncated"}
ROOT = Path(__file__).resolve().parents[2]

plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=20,
)  # fmt: skip


def field_value(accepted: tuple[type, ...]) -> st.SearchStrategy[Any]:
    options = []
    for kind in accepted:
        if kind is str:
            options.append(st.text(max_size=MAX_TEXT))
        elif kind is bool:
            options.append(st.booleans())
        elif kind is int:
            options.append(st.integers(-(2**63), 2**63 - 1))
        elif kind is float:
            options.append(st.floats(allow_nan=False))
        elif kind is dict:
            options.append(st.dictionaries(st.text(max_size=8), plain, max_size=4))
        elif kind is list:
            options.append(st.lists(plain, max_size=4))
        elif kind is type(None):
            options.append(st.none())
    return st.one_of(options)


def message_of(kind: str, schema: Schema) -> st.SearchStrategy[dict[str, Any]]:
    required = {name: field_value(types) for name, (types, need) in schema.items() if need}
    optional = {name: field_value(types) for name, (types, need) in schema.items() if not need}
    del required["t"]
    return st.fixed_dictionaries({"t": st.just(kind), **required}, optional=optional)


valid_messages = st.one_of([message_of(k, s) for k, s in sorted(CLIENT_MESSAGES.items())])


def feed(data: bytes, cuts: list[int]) -> tuple[list[Any], bytes, bool]:
    conn = Connection(CLIENT_MESSAGES)
    at = 0
    for cut in sorted(c % (len(data) + 1) for c in cuts):
        conn.receive_data(data[at:cut])
        at = max(at, cut)
    conn.receive_data(data[at:])
    return conn.events_received(), conn.data_to_send(), conn.closing


def check_events(events: list[Any], sent: bytes) -> None:
    """Messages that fit their schema, then at most one documented error, with its frame."""
    for index, event in enumerate(events):
        if isinstance(event, ProtocolError):
            assert event.code in DOCUMENTED, event
            assert index == len(events) - 1
            error = decode(sent[4:], 1 << 20)
            assert error["code"] == event.code
            assert check_message(error, SERVER_MESSAGES) is None
        else:
            assert check_message(event, CLIENT_MESSAGES) is None


FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
chunks = st.lists(st.integers(0, 10_000), max_size=8)
pieces = st.lists(
    st.one_of(
        valid_messages.map(encode),
        st.binary(max_size=40).map(lambda b: len(b).to_bytes(4, "big") + b),
        plain.map(lambda v: encode(v) if isinstance(v, dict) else msgpack.packb(v)),
        st.binary(max_size=12),
    ),
    max_size=6,
)


@FUZZ
@given(valid=st.lists(valid_messages, max_size=6), cuts=chunks)
def test_valid_messages_come_out_the_same_whatever_the_chunking(valid, cuts):
    data = b"".join(encode(message) for message in valid)
    events, sent, closing = feed(data, cuts)
    assert events == valid and sent == b"" and not closing
    record("fuzz", inputs=1)


@FUZZ
@given(parts=pieces, cuts=chunks)
def test_any_bytes_give_messages_or_one_documented_error(parts, cuts):
    data = b"".join(parts)
    events, sent, _ = feed(data, cuts)
    whole, sent_whole, _ = feed(data, [])
    assert events == whole and sent == sent_whole  # the chunking changes nothing
    check_events(events, sent)
    record("fuzz", inputs=1)


@FUZZ
@given(value=plain)
def test_validation_answers_every_value_without_raising(value):
    problem = check_message(value, CLIENT_MESSAGES)
    if problem is None:  # then it really fits: a known type, known fields of the right types
        schema = CLIENT_MESSAGES[value["t"]]
        assert set(value) <= set(schema)
        for name, (types, required) in schema.items():
            assert name in value or not required
            if name in value:
                assert isinstance(value[name], types)
                assert not isinstance(value[name], bool) or bool in types
    else:
        assert isinstance(problem, str) and problem


@given(depth=st.integers(MAX_DEPTH - 3, MAX_DEPTH + 3))
def test_nesting_is_refused_exactly_past_the_limit(depth):
    action: dict[str, Any] = {}
    for _ in range(depth):
        action = {"a": action}
    message = {"t": "action", "v": 1, "action": action}
    problem = check_message(message, CLIENT_MESSAGES)
    assert (problem is None) == (depth + 2 <= MAX_DEPTH), (depth, problem)


@pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris not installed")
@pytest.mark.parametrize(
    "runs",
    [pytest.param(3000, id="short"), pytest.param(300_000, id="long", marks=pytest.mark.slow)],
)
def test_atheris_finds_nothing(runs):
    done = subprocess.run(
        [sys.executable, "-m", "tests.reliability.fuzz_protocol", f"-runs={runs}",
         "-max_total_time=240", "-rss_limit_mb=2048"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    record("fuzz", inputs=runs)
