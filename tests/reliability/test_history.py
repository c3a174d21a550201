"""The leak scanner tells a player's words from the server's: a chat line may name any card,
a presence line from the server may not. (That no engine rewrites an event it emitted, which
the scanner relies on, is every game's own test: `tablegames/testing/matrix/test_contract.py`.)
"""

from __future__ import annotations

from tablegames.rules import GAMES
from tablegames.testing.scanner import Scanner, Truth


def test_a_players_chat_may_name_any_card_but_the_server_may_not():
    game = GAMES["crates"]
    options = {"dealer": 0, "hands": [["QH", "7S"], ["JH", "10D"]], "upcard": "KH"}
    scanner = Scanner(Truth(game, 2, options, seed=1, log=[]))
    chat = {"t": "chat", "name": "Tom", "seat": 1, "text": "I hold 10D, honest"}
    assert scanner.scan_message(0, 0, chat) == []
    news = {"t": "presence", "seats": [], "spectators": 0, "text": "Tom holds 10D"}
    assert [finding.kind for finding in scanner.scan_message(0, 0, news)] == ["leak"]
