"""The sans-I/O protocol: literal bytes in, typed messages or errors out, whatever the chunking;
typed messages out, checked as the peer will check them."""

from __future__ import annotations

import msgpack
import pytest

from tablegames.net.messages import (
    Act,
    AskLobby,
    ClientMessage,
    Error,
    Hello,
    Join,
    Ping,
    Pong,
    Presence,
    Say,
    SeatNews,
    ServerMessage,
    ViewUpdate,
    Welcome,
)
from tablegames.net.protocol import (
    MAX_CLIENT_FRAME,
    PROTOCOL_VERSION,
    Connection,
    ProtocolError,
    UnfitMessage,
    client_side,
    encode,
    frame,
    server_side,
)
from tablegames.testing.wire import plain, problem

HELLO = {"t": "hello", "v": 8, "name": "Sara"}


def test_a_literal_hello_frame_becomes_a_message():
    data = b"\x00\x00\x00\x16" + b"\x83\xa1t\xa5hello\xa1v\x08\xa4name\xa4Sara"
    assert data == encode(HELLO) == encode(Hello(version=8, name="Sara"))
    assert HELLO["v"] == PROTOCOL_VERSION  # the bytes above are this version's
    conn = server_side()
    conn.receive_data(data)
    assert conn.events_received() == [Hello(version=8, name="Sara")]
    assert conn.data_to_send() == b"" and not conn.closing


def test_every_split_of_a_stream_gives_the_same_messages():
    messages = [
        Hello(version=7, name="Sara"),
        Join(table="ABCD", seat=2),
        Act(seen=3, action={"type": "play", "card": "10H", "suit": "S"}),
        Say(text="gg ♥"),
        Ping(n=7),
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
    conn.receive_data(encode(Hello(version=7, name="x")))
    conn.receive_data(encode(Ping()) + BAD_INPUTS[name] + encode(Pong()))
    events = conn.events_received()
    assert events[:2] == [Hello(version=7, name="x"), Ping()]
    assert len(events) == 3 and isinstance(events[2], ProtocolError), events
    reply = conn.data_to_send()
    error = msgpack.unpackb(reply[4:])
    assert error["t"] == "error" and error["code"] == events[2].code and error["text"]
    assert problem(error, ServerMessage) is None
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


def test_the_server_messages_are_the_maps_older_clients_read():
    """The wire is version 8's: the same maps, fields at their default left out as before."""
    welcome = Welcome(
        version=8, server="tablegames", heartbeat=5.0, server_id="ab", name="Sara", nonce="n"
    )
    assert plain(welcome) == {
        "t": "welcome", "v": 8, "server": "tablegames", "heartbeat": 5.0, "server_id": "ab",
        "name": "Sara", "nonce": "n",
    }  # fmt: skip
    update = ViewUpdate(
        version=2, view={"hand": ["AS"]}, log_drop=0, events=[], over=False, legal=[],
        waiting=[0], asked=1,
    )  # fmt: skip
    assert plain(update) == {
        "t": "update", "version": 2, "view": {"hand": ["AS"]}, "log_drop": 0, "events": [],
        "over": False, "legal": [], "waiting": [0], "asked": 1,
    }  # fmt: skip
    seat = SeatNews(seat=0, name="Sara", taken=True, connected=True, bot=False, ready=False,
                    owner=True, away=12)  # fmt: skip
    assert plain(Presence(seats=[seat], spectators=0)) == {
        "t": "presence", "spectators": 0,
        "seats": [{"seat": 0, "name": "Sara", "taken": True, "connected": True, "bot": False,
                   "ready": False, "owner": True, "away": 12}],
    }  # fmt: skip
    for message in (welcome, update, Error(code="illegal", text="it is not your turn")):
        assert problem(plain(message), ServerMessage) is None
        assert problem(plain(message), ClientMessage) is not None


def test_in_play_an_unfit_message_is_refused_by_its_peer_in_a_sentence(monkeypatch):
    """Out of the tests nothing we send is decoded again before it goes (a view for every seat
    after every action, twice over): should a bug of ours send a message that does not fit,
    the peer refuses it as it refuses any, saying why, and stops reading."""
    monkeypatch.setattr(Connection, "checking", False)
    server, client = server_side(), client_side()
    server.send(Error(code="illegal", text="x" * 501))
    client.receive_data(server.data_to_send())
    (refused,) = client.events_received()
    assert isinstance(refused, ProtocolError)
    assert "length <= 500" in refused.text
    assert client.closing


def test_an_outgoing_message_with_a_wrong_field_type_is_refused_at_encode():
    """A bug of ours, raised where it is made, never sent to the peer."""
    server, client = server_side(), client_side()
    with pytest.raises(UnfitMessage, match="Expected `str`"):
        server.send(Error(code="illegal", text=None))  # type: ignore[arg-type]
    with pytest.raises(UnfitMessage, match="Expected `int`, got `str`"):
        client.send(Act(seen="3", action={"type": "draw"}))  # type: ignore[arg-type]
    with pytest.raises(UnfitMessage, match="length <= 500"):
        client.send(Say(text="x" * 501))
    with pytest.raises(UnfitMessage):
        client.send(Error(code="illegal", text="a client never says this"))
    assert server.data_to_send() == client.data_to_send() == b""  # nothing queued


def test_a_server_side_connection_takes_hello_first_and_nothing_else_before_it():
    conn = server_side()
    conn.receive_data(encode(AskLobby()) + encode(HELLO))
    (refusal,) = conn.events_received()
    assert isinstance(refusal, ProtocolError) and refusal.code == "hello-first"
    assert conn.closing and msgpack.unpackb(conn.data_to_send()[4:])["text"] == "say hello first"
    greeted = server_side()
    greeted.receive_data(encode(HELLO) + encode(AskLobby()) + encode(HELLO))
    assert [type(m) for m in greeted.events_received()] == [Hello, AskLobby, Hello]


def test_a_client_side_connection_refuses_bad_frames_without_answering():
    conn = client_side()
    conn.receive_data(frame(b"\xc1"))
    assert [e.code for e in conn.events_received()] == ["bad-frame"]
    assert conn.closing and conn.data_to_send() == b""  # a server is not told what it sent


def test_an_error_or_farewell_code_is_one_the_protocol_names():
    """`Error.code` and `Farewell.code` are words of the protocol (`ErrorCode`,
    `FarewellCode`), not free text: a client refuses an error with a code it cannot know, and
    reads each known one."""
    client = client_side()
    client.receive_data(encode({"t": "error", "code": "table-closed", "text": "closed"}))
    assert client.events_received() == [Error(code="table-closed", text="closed")]
    for unknown in ({"t": "error", "code": "oops", "text": "?"}, {"t": "bye", "code": "oops"}):
        client = client_side()
        client.receive_data(encode(unknown))
        (refusal,) = client.events_received()
        assert isinstance(refusal, ProtocolError) and refusal.code == "bad-message"
