"""What a browser's terminal page sends, read without sockets: anything malformed is ignored."""

from __future__ import annotations

import json

import pytest

from tablegames.net.web_protocol import (
    MESSAGE_LIMIT,
    Keys,
    Ping,
    Quiet,
    Resize,
    ended,
    pong,
    read_message,
    size_asked,
)


def test_the_page_s_messages_are_read():
    assert read_message('["stdin", "n"]') == Keys(b"n")
    assert read_message('["stdin", "\\u001b[<0;10;5M"]') == Keys(b"\x1b[<0;10;5M")
    assert read_message('["stdin", "é"]') == Keys("é".encode())
    assert read_message('["resize", {"width": 107, "height": 26}]') == Resize(107, 26)
    assert read_message('["ping", "1733212800000"]') == Ping("1733212800000")
    assert read_message('["focus"]') == Quiet() and read_message('["blur"]') == Quiet()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "{}",
        "[]",
        "null",
        "[1, 2]",
        '["stdin"]',
        '["stdin", 5]',
        '["stdin", ""]',
        '["stdin", "a", "b"]',
        '["resize", {"width": "80", "height": 24}]',
        '["resize", {"width": true, "height": 24}]',
        '["resize", {"width": -1, "height": 24}]',
        '["resize", {"width": 99999999, "height": 24}]',
        '["resize", [80, 24]]',
        '["ping", {"a": 1}]',
        '["focus", 1]',
        '["exec", "rm -rf /"]',
        "[" * 100_000,
        json.dumps(["stdin", "x" * MESSAGE_LIMIT]),
        '["stdin", "\\ud800"]',
    ],
)
def test_anything_else_is_ignored(text):
    said = read_message(text)
    assert said is None or isinstance(said, Keys)  # (a lone surrogate is still keys)
    if said is not None:
        assert said.data == "\ufffd".encode() or said.data == b"?"


def test_a_ping_s_text_is_echoed_cut_short():
    said = read_message(json.dumps(["ping", "9" * 1000]))
    assert isinstance(said, Ping) and len(said.text) == 64
    assert json.loads(pong("12")) == ["pong", "12"]
    assert json.loads(ended("Bye.")) == ["ended", "Bye."]


@pytest.mark.parametrize(
    ("width", "height", "size"),
    [("100", "30", (100, 30)), (None, "30", (0, 30)), ("-5", "x", (0, 0)), ("9" * 40, "٣", (0, 0))],
)
def test_the_size_in_the_websocket_address_is_a_number_or_nothing(width, height, size):
    assert size_asked(width, height) == size
