"""The server core under Hypothesis: join, act, illegal act, drop, reconnect, spectate, chat, end.

No sockets: peers are in-memory stand-ins for `server.Client`, every message they send goes
through the real sans-I/O `Connection` (so it is validated as on the wire) and then the real
`Server._dispatch`; every frame the server sends them is kept as bytes. After each step:
an illegal action changed nothing and only its sender heard of it; at the end every byte each
peer received is scanned for leaks against a replay of the table's log.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from tablegames.net.guard import RateLimit
from tablegames.net.hosting import HostedTable
from tablegames.net.messages import ServerMessage
from tablegames.net.proofs import seat_proof, token_key
from tablegames.net.protocol import PROTOCOL_VERSION, ProtocolError, encode, server_side
from tablegames.net.server import Server, ServerConfig

from ..cases import case
from ..metrics import record
from ..plugin import chosen_games
from ..scanner import A_WORD, Report, Scanner, Truth, split_frames
from ..wire import Frame, raw


class Peer:
    """A connection as the server core sees it, keeping every byte sent to it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.address = "127.0.0.1"
        self.reached = "127.0.0.1:4747"  # where this connection reached the server
        self.nonce = ""
        self.proving: str | None = None
        self.identity: str | None = None
        self.key: str | None = None
        self.chat_limit = RateLimit(1000.0, 1000)
        self.refusal_limit = RateLimit(1000.0, 10**6)  # refusals on purpose: never a flood
        self.request_limit = RateLimit(1000.0, 10**6)
        self.greeted = False
        self.table: HostedTable | None = None
        self.closed = False
        self.received = bytearray()
        self.conn = server_side()  # the server's side of its line
        self.seat: int | None = None
        self.spectator = False
        self.sent: set[str] = set()  # words this peer sent (a refusal may echo them)

    def send(self, message: ServerMessage) -> None:
        if not self.closed:
            self.received += encode(message)

    def close(self) -> None:
        self.closed = True

    def messages(self, since: int = 0) -> list[Frame]:
        frames = split_frames(bytes(self.received[since:]))
        return [message for _, message in frames if isinstance(message, dict)]


class CoreServer(Server):
    """The real server core without its bot driver (no seat here is a bot)."""

    def _drive(self, hosted: HostedTable) -> None:
        pass


class ServerCore(RuleBasedStateMachine):
    GAME = ""  # each game's machine is a subclass that names it (`machine_for`)

    def __init__(self) -> None:
        super().__init__()
        self.server = CoreServer(ServerConfig())
        self.peers: list[Peer] = []
        self.tokens: dict[int, str] = {}
        self.streams: list[tuple[int | None, bytes]] = []  # from peers that have gone
        self.illegal_tried = 0
        self.count = 0

    @initialize(
        seed=st.integers(2**40, 2**62),
        start=st.sampled_from([True, True, True, False]),
    )
    def open_table(self, seed: int, start: bool) -> None:
        """A table; mostly everyone sits down and gets ready at once (so the game is on)."""
        game = self.GAME
        players, options = case(game).core_players, case(game).core_options
        self.hosted = self.server.add_table(game, players, options, seed=seed)
        self.players = players
        if start:
            for seat in range(players):
                self.sit_down(seat)
            self.everyone_ready()

    # -- helpers ----------------------------------------------------------------------------------
    def deliver(self, peer: Peer, message: Mapping[str, object]) -> None:
        """Send `message` from `peer` as bytes through a Connection, then to the server."""
        peer.sent.update(A_WORD.findall(repr(message)))
        peer.conn.receive_data(raw(message))
        for received in peer.conn.events_received():
            assert not isinstance(received, ProtocolError), received
            self.server.party.receive(peer, received)

    def connect(self, token: str | None = None) -> Peer:
        self.count += 1
        peer = Peer(f"peer{self.count}")
        self.peers.append(peer)
        self.deliver(peer, {"t": "hello", "v": PROTOCOL_VERSION, "name": peer.name})
        if token is not None:  # its answer to this connection's challenge, as a client's
            (welcome,) = [m for m in peer.messages() if m["t"] == "welcome"]
            code, server_id = self.hosted.code, self.server.party.server_id
            proof = seat_proof(token_key(token), welcome["nonce"], server_id, peer.reached, code)
            self.deliver(peer, {"t": "rejoin", "table": code, "proof": proof})
        return peer

    def live(self) -> list[Peer]:
        return [p for p in self.peers if not p.closed]

    @property
    def started(self) -> bool:
        return self.hosted.table is not None

    # -- rules ------------------------------------------------------------------------------------
    @precondition(lambda self: not self.started)
    @rule(seat=st.integers(0, 4))
    def sit_down(self, seat: int) -> None:
        peer = self.connect()
        self.deliver(peer, {"t": "join", "table": self.hosted.code, "seat": seat})
        seated = [m for m in peer.messages() if m["t"] == "seated"]
        if seated:
            peer.seat = seated[0]["seat"]
            self.tokens[peer.seat] = seated[0]["token"]

    @rule()
    def watch(self) -> None:
        peer = self.connect()
        peer.spectator = True
        self.deliver(peer, {"t": "join", "table": self.hosted.code, "spectate": True})

    @precondition(lambda self: not self.started)
    @rule()
    def everyone_ready(self) -> None:
        for peer in self.live():
            if peer.seat is not None:
                self.deliver(peer, {"t": "ready", "ready": True})

    @precondition(lambda self: self.started)
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        table = self.hosted.table
        assert table is not None
        seated = [p for p in self.live() if p.seat is not None]
        if not seated:
            return
        peer = data.draw(st.sampled_from(seated))
        assert peer.seat is not None
        legal = table.state.legal(peer.seat)
        if legal:
            action = data.draw(st.sampled_from(legal))
            self.deliver(peer, {"t": "action", "v": table.version, "action": action})

    @precondition(lambda self: self.started)
    @rule(data=st.data())
    def act_illegally(self, data: st.DataObject) -> None:
        """Another seat's move, a stale or made-up one: nothing changes, only the sender hears."""
        table = self.hosted.table
        assert table is not None
        seated = [p for p in self.live() if p.seat is not None] + [
            p for p in self.live() if p.spectator
        ]
        if not seated:
            return
        peer = data.draw(st.sampled_from(seated))
        others = [
            a
            for s in range(self.players)
            if s != peer.seat
            for a in table.state.legal(s)
            if peer.seat is None or a not in table.state.legal(peer.seat)
        ]
        junk = [{"type": "launch"}, {"type": "play", "card": "ZZ"}, {"no": "type"}, {}]
        action = data.draw(st.sampled_from(others + junk))
        before = (table.version, len(table.log), table.state.view(None))
        heard = {id(p): len(p.received) for p in self.peers}
        self.deliver(peer, {"t": "action", "v": table.version, "action": action})
        self.illegal_tried += 1
        assert (table.version, len(table.log), table.state.view(None)) == before
        for other in self.peers:
            if other is not peer:
                assert len(other.received) == heard[id(other)], "someone else heard of it"
        news = peer.messages(heard[id(peer)])
        assert [m["t"] for m in news] == ["error"], news

    @precondition(lambda self: self.started)
    @rule(data=st.data())
    def play_to_the_end(self, data: st.DataObject) -> None:
        """Everyone comes back and plays random legal moves until the game is over."""
        table = self.hosted.table
        assert table is not None
        for seat in list(self.tokens):
            if not any(p.seat == seat for p in self.live()):
                self.connect(token=self.tokens[seat]).seat = seat
        rng = random.Random(data.draw(st.integers(0, 2**32)))
        # Random crabs is long-tailed (300 seeds: median 1,131 moves, longest 9,550).
        for _ in range(40_000):
            if table.over:
                break
            due = table.state.deadline()
            if due is not None and not table.state.waiting_for():
                # The game waits on the clock (crabs' double-crab window) and this core has no
                # driver: once it is due, a client's `time` is what settles it.
                time.sleep(max(0.0, due - table.now()))
                peer = next(p for p in self.live() if p.seat is not None)
                self.deliver(peer, {"t": "action", "v": table.version, "action": {"type": "time"}})
                continue
            seat = rng.choice(sorted(table.state.waiting_for()))
            peer = next(p for p in self.live() if p.seat == seat)
            action = rng.choice(table.state.legal(seat))
            self.deliver(peer, {"t": "action", "v": table.version, "action": action})
        assert table.over

    @rule(text=st.text(max_size=40))
    def chat(self, text: str) -> None:
        if self.live():
            self.deliver(self.live()[0], {"t": "chat", "text": text})

    @rule(data=st.data())
    def drop(self, data: st.DataObject) -> None:
        live = self.live()
        if live:
            peer = data.draw(st.sampled_from(live))
            self.server.party.seating.goodbye(peer)  # (as `Server` says goodbye to a connection)
            peer.close()
            if not self.started and peer.seat is not None:
                self.tokens.pop(peer.seat, None)  # a seat freed before the game
                peer.seat = None

    @precondition(lambda self: self.started)
    @rule(data=st.data())
    def reconnect(self, data: st.DataObject) -> None:
        held = [s for s in self.tokens if not any(p.seat == s for p in self.live())]
        if held:
            seat = data.draw(st.sampled_from(held))
            peer = self.connect(token=self.tokens[seat])
            peer.seat = seat

    @rule()
    def wrong_token(self) -> None:
        peer = self.connect(token="ab" * 32)
        told = [m["t"] for m in peer.messages() if m["t"] != "chat"]  # (the lobby's chat so far)
        assert told == ["welcome", "lobby", "error"]
        assert peer.messages()[-1]["code"] == "bad-token" and peer.table is None

    @invariant()
    def an_over_game_accepts_nothing(self) -> None:
        table = self.hosted.table
        if table is not None and table.over:
            assert all(table.state.legal(s) == [] for s in range(self.players))

    def teardown(self) -> None:
        table = self.hosted.table
        stage = "over" if table and table.over else "started" if table else "not started"
        event(f"{self.hosted.game.name}: {stage}")
        if table is None:
            return
        truth = Truth(self.hosted.game, self.players, self.hosted.options, table.seed, table.log)
        scanner = Scanner(truth, self.tokens)
        report = Report()
        for peer in self.peers:
            recipient = None if peer.spectator else peer.seat  # unseated: judged as an onlooker
            sent = frozenset(peer.sent)
            report.add(scanner.scan_stream(recipient, bytes(peer.received), sent))
        record(
            "leak",
            frames=report.frames,
            leaks=len(report.leaks),
            mismatches=len(report.problems) - len(report.leaks),
        )
        record("illegal", tried=self.illegal_tried, changed=0)
        assert report.problems == [], "\n".join(map(str, report.problems[:10]))


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        stateful_step_count=40,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


def machine_for(game: str) -> type[ServerCore]:
    """The stateful test's machine for tables of `game`."""
    return type(f"ServerCoreFor{game.capitalize()}", (ServerCore,), {"GAME": game})


def test_the_server_core_keeps_its_promises(game_name: str, request: pytest.FixtureRequest) -> None:
    """The server core, driven by a stateful test (hypothesis: peers connect, sit down, act,
    chat, drop, come back, in random orders), keeps its promises at every step: every frame
    holds only what its peer may know and is owed, tokens stay secret, nothing crashes."""
    games = len(chosen_games(request.config))
    examples = max(2, -(-8 // games))  # the default run's eight examples, shared by its games
    run_state_machine_as_test(machine_for(game_name), settings=_settings(examples))


@pytest.mark.slow
def test_the_server_core_keeps_its_promises_at_length(game_name: str) -> None:
    run_state_machine_as_test(machine_for(game_name), settings=_settings(200 // 4))
