"""The client's parts, each the one owner of its state, played without a server: what a player
asks (`client.ask`, the same bytes as before it had an owner of its own), the seats it holds by
their tokens (`client.held`), what it heard told on (`RemoteClient.news`), and no class of the
network layer grown past 25 methods."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

import tablegames.net
from tablegames.net.client import RemoteClient
from tablegames.net.client_news import News
from tablegames.net.client_protocol import ClientProtocol, ConnectionLost, Phase
from tablegames.net.client_requests import Requests
from tablegames.net.held_seats import HeldSeats
from tablegames.net.messages import (
    Chat,
    Error,
    HostSays,
    Lobby,
    Message,
    Ping,
    Presence,
    Say,
    Seated,
    ViewUpdate,
)
from tablegames.net.proofs import seat_proof, token_key
from tablegames.net.protocol import encode
from tablegames.net.seat_tokens import SeatTokens
from tablegames.table import Update

from .test_client_protocol import SEATED, WELCOME, said

PROOF = b"\xd9+437neuvFonwMo5WfdGRi7eqH7w-Nch7K3CXqJNwwb_A"  # t0k's at KXPF, on N1 from S1

#: What each request put on the wire before requests had an owner of their own (the bytes the
#: client sent when `chat`, `ready`... were ClientProtocol's methods): an old server reads them.
BEFORE = [
    b"\x00\x00\x00C\x86\xa1t\xa6create\xa4game\xa6crates\xa7players\x03\xa7options\x81\xa5short"
    b"\xc3\xa4bots\xa6normal\xa6humans\x02",
    b"\x00\x00\x00\x13\x82\xa1t\xa4join\xa5table\xa4KXPF",
    b"\x00\x00\x00\x10\x82\xa1t\xa5ready\xa5ready\xc3",
    b"\x00\x00\x00\x10\x82\xa1t\xa5ready\xa5ready\xc2",
    b"\x00\x00\x00\t\x81\xa1t\xa5start",
    b"\x00\x00\x00\x17\x82\xa1t\xa4chat\xa4text\xa9good luck",
    b"\x00\x00\x00\x1f\x83\xa1t\xa6action\xa1v\x00\xa6action\x81\xa4type\xa4draw",
    b"\x00\x00\x00\x1f\x83\xa1t\xa6action\xa1v\x07\xa6action\x81\xa4type\xa4draw",
    b"\x00\x00\x00\x17\x82\xa1t\xa5claim\xa5claim\x81\xa5holds\x02",
    b"\x00\x00\x00\x0b\x82\xa1t\xa4ping\xa1n\x01",
    b"\x00\x00\x00\x0b\x82\xa1t\xa4ping\xa1n\x02",
    b"\x00\x00\x00\x0b\x81\xa1t\xa7rematch",
    b"\x00\x00\x00\t\x81\xa1t\xa5leave",
    b"\x00\x00\x00F\x83\xa1t\xa4join\xa5table\xa4KXPF\xa5proof" + PROOF,
    b"\x00\x00\x00\x1d\x83\xa1t\xa4join\xa5table\xa4ABCD\xa8spectate\xc3",
    b"\x00\x00\x00\x14\x82\xa1t\xa5close\xa5table\xa4KXPF",
    b"\x00\x00\x00H\x83\xa1t\xa6rejoin\xa5table\xa4KXPF\xa5proof" + PROOF,
    b"\x00\x00\x00\x07\x81\xa1t\xa3bye",
]
#: What a player asks: `client.ask`'s, never the client's own (`test_..._asks_through_ask`).
REQUESTS = (
    "play", "claim", "barrier", "chat", "ready", "start_now", "new_table", "join", "close_table",
    "leave", "rematch",
)  # fmt: skip
OLD_NAMES = ("create", "join_table")  # their names as ClientProtocol's


def welcomed() -> ClientProtocol:
    client = ClientProtocol("Sara", "127.0.0.1:4747")
    client.say_hello()
    client.receive_data(encode(WELCOME) + encode(Lobby(tables=[])))
    client.data_to_send()
    return client


def test_each_request_is_the_same_bytes_it_was():
    client = welcomed()
    ask = client.ask
    sent = []
    for request in (
        lambda: ask.new_table("crates", 3, bots="normal", options={"short": True}, humans=2),
        lambda: ask.join("KXPF"),
        lambda: client.receive_data(encode(SEATED)),
        lambda: ask.ready(True),
        lambda: ask.ready(False),
        lambda: ask.start_now(),
        lambda: ask.chat("good luck"),
        lambda: ask.play(0, {"type": "draw"}),
        lambda: ask.play(0, {"type": "draw"}, seen=7),
        lambda: ask.claim(0, {"holds": 2}),
        lambda: ask.barrier(),
        lambda: ask.barrier(),
        lambda: ask.rematch(),
        lambda: ask.leave(),
        lambda: ask.join("KXPF"),  # her seat there, proven by its token
        lambda: ask.join("ABCD", spectate=True),
        lambda: ask.close_table("KXPF"),
        lambda: client.rejoin("KXPF", "t0k"),
        lambda: client.bye(),
    ):
        request()
        sent.append(client.data_to_send())
    assert sent.pop(2) == b""  # (being seated says nothing)
    assert sent == BEFORE


def test_a_line_too_long_is_cut_to_what_a_message_holds():
    client = welcomed()
    client.ask.chat("hello " * 200)
    (line,) = said(client)
    assert isinstance(line, Say) and line.text == ("hello " * 200)[:500]


@dataclass
class Asker:
    """Only what the requests need of a client: no protocol, no connection."""

    seat: int | None = 0
    latest: Update | None = None
    spectate: bool = False
    connected: bool = True
    held: HeldSeats = field(init=False)
    sent: list[Message] = field(default_factory=list)
    left: int = 0

    def __post_init__(self) -> None:
        self.held = HeldSeats(Holder(), None)

    def send(self, message: Message) -> None:
        self.sent.append(message)

    def forget_table(self) -> None:
        self.left += 1


def test_requests_number_their_own_pings_and_refuse_a_seat_not_ours():
    one, other = Asker(), Asker()
    first, second = Requests(one), Requests(other)
    assert [first.barrier(), first.barrier(), second.barrier()] == [1, 2, 1]
    assert one.sent == [Ping(n=1), Ping(n=2)] and other.sent == [Ping(n=1)]
    assert first.play(1, {"type": "draw"}) == "that seat is not yours"
    assert first.claim(None, {"holds": 2}) == "that seat is not yours"
    one.connected = False
    assert first.play(0, {"type": "draw"}) == "not connected: reconnecting…"
    first.leave()
    assert one.left == 1 and len(one.sent) == 3  # the two pings, and the leave
    first.join("KXPF", spectate=True)
    assert one.spectate  # what the client is at that table: the next connection asks the same


@dataclass
class Holder:
    """Only what the held seats need of a client: where it is connected, as whom."""

    server_id: str = "S1"
    reached: str = "127.0.0.1:4747"
    name: str = "Sara"
    nonce: str = "N1"
    spectate: bool = False
    table_code: str | None = None
    token: str | None = None


def test_held_seats_are_kept_for_the_server_address_and_name_they_were_taken_under(
    tmp_path: Path,
):
    store = SeatTokens(tmp_path / "seats.json")
    sara = Holder()
    HeldSeats(sara, store).keep("KXPF", "t0k")
    assert HeldSeats(Holder(), store).to_try() == [("KXPF", "t0k")]  # the next run finds it
    for elsewhere in (Holder(server_id="S2"), Holder(reached="10.0.0.7:4747"), Holder(name="Tom")):
        assert HeldSeats(elsewhere, store).to_try() == []
    assert HeldSeats(Holder(spectate=True), store).to_try() == []  # a watcher takes no seat
    again = HeldSeats(sara, store)
    again.forget("KXPF")
    assert HeldSeats(Holder(), store).to_try() == [] and again.token_at("KXPF") is None


def test_this_connections_seat_is_tried_first_and_its_proof_answers_this_challenge():
    sara = Holder(table_code="KXPF", token="t0k")
    held = HeldSeats(sara, None)
    held.keep("ABCD", "old")
    assert held.to_try() == [("KXPF", "t0k")]  # (nothing on disk without a store)
    assert held.token_at("ABCD") == "old" and held.token_at("ZZZZ") is None
    proof = seat_proof(token_key("t0k"), "N1", "S1", "127.0.0.1:4747", "KXPF")
    assert held.proof("KXPF", "t0k") == proof
    sara.nonce = "N2"  # a new connection: a new challenge, a new answer
    assert held.proof("KXPF", "t0k") != proof


def test_a_seat_taken_back_keeps_the_token_held_for_it():
    client = welcomed()
    client.receive_data(encode(SEATED))
    client.ask.leave()
    assert client.phase is Phase.LOBBY and client.token is None
    back = Seated(table="KXPF", game="crates", seat=0, token=None, names=["Sara", ""], title="")
    client.receive_data(encode(back))  # a seat taken back comes without its token
    assert client.token == "t0k" and client.held.to_try() == [("KXPF", "t0k")]


def test_the_client_asks_through_ask_and_owns_no_request_itself():
    for name in REQUESTS:
        assert callable(getattr(Requests, name))
    for name in (*REQUESTS, *OLD_NAMES):
        assert not hasattr(ClientProtocol, name), f"ClientProtocol.{name}: it is client.ask's"
    for name in ("keep", "forget", "token_at", "to_try", "proof"):
        assert callable(getattr(HeldSeats, name))
        assert not hasattr(ClientProtocol, name)
    for gone in ("held_token", "forget_token", "tokens_to_try", "seat_proof", "_held"):
        assert not hasattr(ClientProtocol, gone) and not hasattr(welcomed(), gone)
    # The TUI's interface stays the client's: a refusal there is told to its listeners.
    assert {"submit", "claim", "listen", "listen_notices"} <= set(vars(RemoteClient))
    for told in ("_notify", "_listeners", "_notices", "_incoming"):  # the news's own
        assert not hasattr(RemoteClient("127.0.0.1", 1, "x"), told)


def update(version: int) -> ViewUpdate:
    return ViewUpdate(
        version=version, view={"log": [f"v{version}"]}, log_drop=0, events=[], over=False,
        legal=[], waiting=[], asked=version,
    )  # fmt: skip


async def test_news_tells_each_update_and_notice_and_keeps_every_event_for_next():
    news = News()
    updates: list[tuple[int | None, int]] = []
    notices: list[tuple[str, str]] = []
    news.listen(lambda seat, update: updates.append((seat, update.version)))
    news.listen_notices(lambda kind, text: notices.append((kind, text)))
    events = [
        update(3),
        update(4),  # two in one read: each told with its own version
        Presence(seats=[], spectators=1, text="Tom is back"),
        Error(code="illegal", text="not your turn"),
        Chat(name="Tom", seat=None, text="hi", earlier=True),  # told again on a reconnect
        Chat(name="Cat", seat=None, text="go on", watching=True),
        HostSays(text="last round"),
        ConnectionLost(),
    ]
    news.tell(events, seat=1, at_table=True)
    assert updates == [(1, 3), (1, 4)]
    assert notices == [
        ("seats", ""), ("presence", "Tom is back"), ("error", "not your turn"),
        ("chat", "Cat (watching): go on"), ("host", "⚑ the host: last round"),
    ]  # fmt: skip
    assert [await news.next() for _ in events] == events and not news.waiting()
    news.tell([update(5)], seat=1, at_table=False)  # from a table we left: not to the screens
    assert updates == [(1, 3), (1, 4)] and news.waiting()
    news.start_afresh()  # a new connection: what the last one heard is not given
    assert not news.waiting()


def test_a_second_client_hears_nothing_the_first_was_told():
    one, other = RemoteClient("127.0.0.1", 1, "a"), RemoteClient("127.0.0.1", 1, "b")
    heard: list[str] = []
    one.listen_notices(lambda kind, text: heard.append(text))
    other.news.notify("error", "for b")
    assert heard == [] and one.news is not other.news


def methods(node: ast.ClassDef) -> int:
    return sum(isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef) for b in node.body)


def test_no_class_of_the_network_layer_has_more_than_25_methods():
    package = Path(tablegames.net.__file__).parent
    grown = [
        f"{path.relative_to(package)}: {node.name} has {methods(node)}"
        for path in sorted(package.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ClassDef) and methods(node) > 25
    ]
    assert grown == []
