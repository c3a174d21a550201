"""The sans-I/O protocol: literal bytes in, messages or errors out, whatever the chunking."""

from __future__ import annotations

import msgpack
import pytest

from tablegames.net.protocol import (
    CLIENT_MESSAGES,
    MAX_CLIENT_FRAME,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    Connection,
    ProtocolError,
    check_message,
    encode,
)


def server_side() -> Connection:
    return Connection(CLIENT_MESSAGES, max_frame=MAX_CLIENT_FRAME)


def frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


HELLO = {"t": "hello", "v": 7, "name": "Sara"}


def test_a_literal_hello_frame_becomes_a_message():
    data = b"\x00\x00\x00\x16" + b"\x83\xa1t\xa5hello\xa1v\x07\xa4name\xa4Sara"
    assert data == encode(HELLO)
    assert HELLO["v"] == PROTOCOL_VERSION  # the bytes above are this version's
    conn = server_side()
    conn.receive_data(data)
    assert conn.events_received() == [HELLO]
    assert conn.data_to_send() == b"" and not conn.closing


def test_every_split_of_a_stream_gives_the_same_messages():
    messages = [
        HELLO,
        {"t": "join", "table": "ABCD", "seat": 2},
        {"t": "action", "v": 3, "action": {"type": "play", "card": "10H", "suit": "S"}},
        {"t": "chat", "text": "gg ♥"},
        {"t": "ping", "n": 7},
    ]
    stream = b"".join(encode(m) for m in messages)
    for cut in range(len(stream) + 1):
        conn = server_side()
        conn.receive_data(stream[:cut])
        conn.receive_data(stream[cut:])
        assert conn.events_received() == messages, cut
    conn = server_side()
    for byte in stream:
        conn.receive_data(bytes([byte]))
    assert conn.events_received() == messages


def nested(depth: int) -> dict:
    value: dict = {"a": 1}
    for _ in range(depth):
        value = {"a": value}
    return value


BAD_INPUTS = {
    "zero length": b"\x00\x00\x00\x00",
    "oversized length": (MAX_CLIENT_FRAME + 1).to_bytes(4, "big"),
    "huge length": b"\xff\xff\xff\xff",
    "tls greeting": bytes.fromhex("160301020001000000"),
    "ssh greeting": b"SSH-2.0-OpenSSH_9.2\r\n",
    "http request": b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
    "garbage": frame(b"\xc1\xc1\xc1"),
    "not a map": frame(msgpack.packb([1, 2, 3])),
    "invalid utf-8": frame(b"\x81\xa1t\xa2\xff\xfe"),
    "integer map key": frame(msgpack.packb({1: "x", "t": "ping"})),
    "ext type": frame(msgpack.packb({"t": "ping", "n": msgpack.ExtType(5, b"xx")})),
    "binary": frame(msgpack.packb({"t": "chat", "text": b"bytes"}, use_bin_type=True)),
    "trailing bytes": frame(msgpack.packb(HELLO) + b"\x00"),
    "deep nesting": frame(b"\x81\xa1t" + b"\x91" * 5000 + b"\x00"),
    "nested map": frame(msgpack.packb({"t": "action", "v": 1, "action": nested(20)})),
    "wrong field type": frame(msgpack.packb({"t": "hello", "v": "1", "name": "x"})),
    "bool for int": frame(msgpack.packb({"t": "hello", "v": True, "name": "x"})),
    "missing field": frame(msgpack.packb({"t": "hello", "v": PROTOCOL_VERSION})),
    "unknown field": frame(msgpack.packb({"t": "ping", "evil": 1})),
    "unknown message": frame(msgpack.packb({"t": "launch-missiles"})),
    "server-only message": frame(msgpack.packb({"t": "update", "version": 1})),
    "overlong name": frame(msgpack.packb({"t": "hello", "v": PROTOCOL_VERSION, "name": "x" * 501})),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_gives_an_error_frame_and_closes(name):
    conn = server_side()
    conn.receive_data(encode({"t": "ping"}) + BAD_INPUTS[name] + encode({"t": "pong"}))
    events = conn.events_received()
    assert events[0] == {"t": "ping"}
    assert len(events) == 2 and isinstance(events[1], ProtocolError), events
    reply = conn.data_to_send()
    error = msgpack.unpackb(reply[4:])
    assert error["t"] == "error" and error["code"] == events[1].code and error["text"]
    assert check_message(error, SERVER_MESSAGES) is None
    assert conn.closing
    conn.receive_data(encode({"t": "ping"}))  # nothing more is read once closing
    assert conn.events_received() == []


def test_an_oversized_length_is_refused_before_the_body_arrives():
    conn = server_side()
    conn.receive_data(b"\x00\x10\x00\x01")  # 1 MiB + 1 announced, no body sent
    assert [e.code for e in conn.events_received()] == ["frame-size"]


def test_a_connection_ending_mid_frame_is_reported():
    conn = server_side()
    conn.receive_data(encode(HELLO)[:7])
    conn.receive_eof()
    assert [e.code for e in conn.events_received()] == ["truncated"]


def test_every_server_message_the_server_sends_fits_its_schema():
    samples = [
        {"t": "welcome", "v": 3, "server": "tablegames", "heartbeat": 5.0, "server_id": "ab"}
        | {"name": "Sara"},
        {
            "t": "update",
            "version": 2,
            "view": {"hand": ["AS"]},
            "log_drop": 0,
            "events": [],
            "over": False,
            "legal": [],
            "waiting": [0],
            "asked": 1,
        },
        {"t": "error", "code": "illegal", "text": "it is not your turn"},
    ]
    for message in samples:
        assert check_message(message, SERVER_MESSAGES) is None
        assert check_message(message, CLIENT_MESSAGES) is not None or message["t"] == "ping"


def test_a_server_side_connection_takes_hello_first_and_nothing_else_before_it():
    conn = Connection(CLIENT_MESSAGES, first="hello")
    conn.receive_data(encode({"t": "lobby"}) + encode(HELLO))
    (refusal,) = conn.events_received()
    assert isinstance(refusal, ProtocolError) and refusal.code == "hello-first"
    assert conn.closing and msgpack.unpackb(conn.data_to_send()[4:])["text"] == "say hello first"
    greeted = Connection(CLIENT_MESSAGES, first="hello")
    greeted.receive_data(encode(HELLO) + encode({"t": "lobby"}) + encode(HELLO))
    assert [m["t"] for m in greeted.events_received()] == ["hello", "lobby", "hello"]
