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
import msgspec.inspect as spec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablegames.net.messages import ClientMessage, ServerMessage
from tablegames.net.protocol import (
    MAX_DEPTH,
    ProtocolError,
    decode,
    encode,
    server_side,
)
from tablegames.testing.metrics import record
from tablegames.testing.wire import plain as as_map
from tablegames.testing.wire import problem

DOCUMENTED = {"frame-size", "bad-frame", "bad-message", "truncated"}
ROOT = Path(__file__).resolve().parents[2]

plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=20,
)  # fmt: skip


def value_of(kind: spec.Type) -> st.SearchStrategy[Any]:
    """Values that fit `kind` (a field's type, as msgspec describes it)."""
    if isinstance(kind, spec.UnionType):
        return st.one_of([value_of(member) for member in kind.types])
    if isinstance(kind, spec.StrType):
        return st.text(max_size=kind.max_length or 20)
    if isinstance(kind, spec.BoolType):
        return st.booleans()
    if isinstance(kind, spec.IntType):
        return st.integers(-(2**63), 2**63 - 1)
    if isinstance(kind, spec.FloatType):
        return st.floats(allow_nan=False)
    if isinstance(kind, spec.NoneType):
        return st.none()
    if isinstance(kind, spec.DictType):
        return st.dictionaries(st.text(max_size=8), plain, max_size=4)
    if isinstance(kind, spec.ListType):
        return st.lists(value_of(kind.item_type), max_size=4)
    if isinstance(kind, spec.AnyType):
        return plain
    raise AssertionError(f"no strategy for {kind}")


def message_of(kind: spec.StructType) -> st.SearchStrategy[dict[str, Any]]:
    """A message of `kind` as the plain map it is on the wire (optional fields or not)."""
    fields = {f.encode_name: value_of(f.type) for f in kind.fields if f.required}
    optional = {f.encode_name: value_of(f.type) for f in kind.fields if not f.required}
    return st.fixed_dictionaries({"t": st.just(kind.tag), **fields}, optional=optional)


CLIENT = spec.type_info(ClientMessage)
valid_messages = st.one_of([message_of(kind) for kind in CLIENT.types])


def feed(data: bytes, cuts: list[int]) -> tuple[list[Any], bytes, bool]:
    conn = server_side()
    conn.first = None  # (any message may come first here)
    at = 0
    for cut in sorted(c % (len(data) + 1) for c in cuts):
        conn.receive_data(data[at:cut])
        at = max(at, cut)
    conn.receive_data(data[at:])
    return conn.events_received(), conn.data_to_send(), conn.closing


def check_events(events: list[Any], sent: bytes) -> None:
    """Messages that fit their types, then at most one documented error, with its frame."""
    for index, event in enumerate(events):
        if isinstance(event, ProtocolError):
            assert event.code in DOCUMENTED, event
            assert index == len(events) - 1
            error = decode(sent[4:], ServerMessage)
            assert error.code == event.code
        else:
            assert problem(as_map(event), ClientMessage) is None


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
    assert events == [decode(encode(message)[4:], ClientMessage) for message in valid]
    assert sent == b"" and not closing
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
    why = problem(value, ClientMessage)
    if why is None:  # then it really fits: a known type, known fields of the right types
        kind = next(kind for kind in CLIENT.types if kind.tag == value["t"])
        fields = {f.encode_name: f for f in kind.fields}
        assert set(value) <= {"t", *fields}
        for name, field in fields.items():
            assert name in value or not field.required
    else:
        assert isinstance(why, str) and why


@given(depth=st.integers(MAX_DEPTH - 3, MAX_DEPTH + 3))
def test_nesting_is_refused_exactly_past_the_limit(depth):
    action: dict[str, Any] = {}
    for _ in range(depth):
        action = {"a": action}
    message = {"t": "action", "v": 1, "action": action}
    why = problem(message, ClientMessage)
    assert (why is None) == (depth + 2 <= MAX_DEPTH), (depth, why)


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
