"""The client's side of the protocol with no socket and no event loop: bytes in, events and
bytes out, and where each message leaves the client (its phase, its table, its tokens)."""

from __future__ import annotations

import msgspec

from tablegames.net.client_protocol import (
    NOT_INSTALLED,
    SILENCE_BEATS,
    ClientProtocol,
    ConnectionLost,
    Phase,
    not_installed,
)
from tablegames.net.messages import (
    Act,
    Chat,
    Error,
    Farewell,
    Join,
    Leave,
    Lobby,
    Ping,
    Pong,
    Seated,
    SeatNews,
    TableNews,
    ViewUpdate,
    Welcome,
)
from tablegames.net.proofs import seat_proof, token_key
from tablegames.net.protocol import encode, frame, server_side
from tablegames.table import VirtualClock

WELCOME = Welcome(
    version=8, server="tablegames", heartbeat=5.0, server_id="S1", name="Sara", nonce="N1"
)
SEAT = SeatNews(seat=0, name="Sara", taken=True, connected=True, bot=False, ready=False, owner=True)
TABLE = TableNews(
    code="KXPF", game="crates", title="Crates", players=2, started=False, over=False, seats=[SEAT]
)
SEATED = Seated(
    table="KXPF", game="crates", seat=0, token="t0k", names=["Sara", ""], title="Crates", owner=True
)


def said(client: ClientProtocol) -> list[object]:
    """What the client sent since the last look, as the server reads it."""
    server = server_side()
    server.first = None
    server.receive_data(client.data_to_send())
    return server.events_received()


def greeted(clock: VirtualClock | None = None) -> ClientProtocol:
    """A client that said hello and was welcomed to the lobby (what it said and heard is read)."""
    client = ClientProtocol("Sara", "127.0.0.1:4747", clock=clock or VirtualClock(10.0))
    client.say_hello()
    client.receive_data(encode(WELCOME) + encode(Lobby(tables=[TABLE])))
    client.events_received()
    client.data_to_send()
    return client


def update(version: int, log: list[str], drop: int = 0, over: bool = False) -> ViewUpdate:
    return ViewUpdate(
        version=version, view={"log": log}, log_drop=drop, events=[], over=over,
        legal=[{"type": "draw"}], waiting=[0], asked=version,
    )  # fmt: skip


def test_a_hello_then_the_welcome_and_the_lobby_leave_the_client_in_the_lobby():
    client = ClientProtocol("Sara", "127.0.0.1:4747", clock=VirtualClock(10.0))
    assert client.phase is Phase.LOST and not client.connected
    client.say_hello()
    assert client.data_to_send() == b"\x00\x00\x00\x16\x83\xa1t\xa5hello\xa1v\x08\xa4name\xa4Sara"
    assert client.phase is Phase.CONNECTING and client.connected
    client.receive_data(encode(WELCOME)[:9])  # half a frame: nothing yet
    assert client.events_received() == [] and client.phase is Phase.CONNECTING
    client.receive_data(encode(WELCOME)[9:] + encode(Lobby(tables=[TABLE])))
    assert client.events_received() == [WELCOME, Lobby(tables=[TABLE])]
    assert client.phase is Phase.LOBBY and client.heartbeat == 5.0 and client.server_id == "S1"
    assert client.lobby == [TABLE] and client.lobby_at == 10.0


def test_a_seat_its_updates_and_the_table_closing_move_the_client_on():
    client = greeted()
    client.ask.join("KXPF")
    assert said(client) == [Join(table="KXPF")]
    client.receive_data(encode(SEATED))
    assert client.phase is Phase.SEATED and client.seat == 0 and client.token == "t0k"
    assert client.game is not None and client.game.name == "crates" and client.owner
    client.receive_data(encode(update(3, ["a", "b"])) + encode(update(4, ["c"], drop=1)))
    assert client.latest is not None and client.latest.version == 4
    assert client.latest.view["log"] == ["b", "c"]  # rebuilt from the differences
    assert client.ask.play(0, {"type": "draw"}) is None
    assert client.ask.play(1, {"type": "draw"}) == "that seat is not yours"
    assert said(client) == [Act(seen=4, action={"type": "draw"})]
    client.receive_data(encode(Error(code="table-closed", text="The host closed table KXPF.")))
    assert client.phase is Phase.LOBBY and client.table_code is None and client.latest is None
    kinds = [type(event) for event in client.events_received()]
    assert kinds == [Seated, ViewUpdate, ViewUpdate, Error]


def test_leaving_for_the_lobby_keeps_the_token_and_joining_again_proves_it():
    client = greeted()
    client.receive_data(encode(SEATED))
    client.ask.leave()
    assert client.phase is Phase.LOBBY and client.seat is None
    client.ask.join("KXPF")
    proof = seat_proof(token_key("t0k"), "N1", "S1", "", "KXPF")  # (no socket: reached "")
    assert said(client) == [Leave(), Join(table="KXPF", proof=proof)]
    assert b"t0k" not in encode(Join(table="KXPF", proof=proof))


def test_a_ping_is_answered_and_told_to_nobody():
    client = greeted()
    client.receive_data(encode(Ping(n=9)))
    assert client.events_received() == [] and said(client) == [Pong(n=9)]


def test_a_lobby_line_told_again_on_a_reconnect_is_kept_once():
    client = greeted()
    line = Chat(name="Tom", seat=None, text="hi")
    earlier = Chat(name="Tom", seat=None, text="hi", earlier=True)
    client.receive_data(encode(line) + encode(earlier))
    assert client.events_received() == [line] and list(client.chat_lines) == [("Tom", "hi")]


def test_silence_is_pinged_then_taken_for_a_lost_connection():
    client = greeted()
    client.receive_data(encode(SEATED))
    client.events_received()
    for _ in range(SILENCE_BEATS - 1):
        assert client.heard_nothing() is False
    assert said(client) == [Ping()] * (SILENCE_BEATS - 1)
    assert client.heard_nothing() is True and client.silent
    client.connection_lost()
    client.connection_lost()  # (told once)
    assert client.events_received() == [ConnectionLost(silent=True)]
    assert client.phase is Phase.LOST and client.heartbeat is None
    assert client.ask.play(0, {"type": "draw"}) == "not connected: reconnecting…"


def test_a_frame_it_cannot_read_ends_the_connection_without_answering():
    client = greeted()
    client.receive_data(frame(b"\xc1") + encode(Ping()))
    assert client.hanging_up and client.events_received() == [] and client.data_to_send() == b""
    client.connection_lost()
    assert client.events_received() == [ConnectionLost()] and client.phase is Phase.LOST


def test_sent_away_for_good_is_the_end_and_a_new_hello_starts_afresh():
    client = greeted()
    client.receive_data(encode(SEATED))
    client.receive_data(encode(Farewell(code="replaced", text="your seat moved")))
    assert client.phase is Phase.ENDED and client.ended == "your seat moved"
    client.connection_lost()
    assert isinstance(client.events_received()[-1], ConnectionLost)
    assert client.phase is Phase.ENDED and not client.connected


def test_a_table_of_a_game_not_installed_here_goes_back_to_the_lobby_saying_so():
    client = greeted()
    client.receive_data(encode(msgspec.structs.replace(SEATED, game="nosuchgame")))
    assert client.phase is Phase.LOBBY and client.connected and not client.hanging_up
    assert client.table_code is None and client.game is None
    told = client.events_received()
    assert told == [Error(code=NOT_INSTALLED, text=not_installed("nosuchgame"))]
    assert said(client) == [Leave()]  # the connection stays, for the lobby's other tables
    client.receive_data(encode(update(3, ["a"])))  # sent before the table knew
    assert client.latest is None and client.events_received() == []
