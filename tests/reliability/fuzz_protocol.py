"""An atheris target for the frame decoder: `python -m tests.reliability.fuzz_protocol -runs=N`.

Each input is fed to a server-side `Connection` whole and in chunks (the first byte sets the
chunk size); both must give the same events, every message must fit its type, and only the
documented errors may appear, each as the last event with an error frame queued.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    import msgspec

    from tablegames.net.messages import ClientMessage, Error, ServerMessage
    from tablegames.net.protocol import ProtocolError, decode, server_side

DOCUMENTED = {"frame-size", "bad-frame", "bad-message", "truncated"}


def feed(data: bytes, chunk: int) -> tuple[list[object], bytes]:
    conn = server_side()
    conn.first = None  # (any message may come first here)
    for at in range(0, len(data), chunk):
        conn.receive_data(data[at : at + chunk])
    conn.receive_eof()
    return conn.events_received(), conn.data_to_send()


def one_input(data: bytes) -> None:
    if not data:
        return
    chunk = data[0] % 17 + 1
    body = data[1:]
    whole, sent = feed(body, len(body) or 1)
    chunked, _ = feed(body, chunk)
    assert whole == chunked, (whole, chunked)
    for index, event in enumerate(whole):
        if isinstance(event, ProtocolError):
            assert event.code in DOCUMENTED, event
            assert index == len(whole) - 1, "nothing may follow an error"
            error = decode(sent[4:], ServerMessage)
            assert isinstance(error, Error) and error.code == event.code
        else:  # it goes back and forth unchanged
            assert decode(msgspec.msgpack.encode(event), ClientMessage) == event, event


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
