"""A game over real sockets: no frame a seat or spectator receives holds a secret of its moment
(the leak scanner, `scanner.py`, replays the table's log to know them); illegal and out-of-turn
actions from anyone change nothing and only their sender hears of it (a ping/pong barrier on
every connection proves nobody else was told anything); and every update carries only the log
entries a peer lacks, from which it rebuilds the exact view.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import random

import pytest

from tablegames.net.hosting import HostedTable
from tablegames.net.messages import ServerMessage
from tablegames.net.protocol import PROTOCOL_VERSION, updated_log, updated_talk
from tablegames.rules import Action, Event, IllegalAction, State, get_game
from tablegames.table import Table

from ..cases import case
from ..harness import RawPeer, running_server, scan_games
from ..metrics import record
from ..scanner import declared_secrets, digest, secrets_of
from ..wire import Frame, plain, problem, raw

ACTION_LIMIT = 400  # actions into a game the log difference test plays at most
#: Actions into a game of random players the leak test scans: most end sooner, and a scan's
#: time grows with the square of a game's length (a random crabs game ran past 1200 actions).
RANDOM_ACTIONS = 150


def test_its_secrets_are_declared(game_name: str) -> None:
    """Its secrets are declared by the game (`State.secrets`), as the leak scanner reads them
    (a game that does not is judged only by words guessed from its views, which proves
    little)."""
    extract = secrets_of(get_game(game_name))
    assert extract is declared_secrets, f"{game_name} declares no secrets (State.secrets)"


def test_a_game_over_real_sockets_leaks_nothing(game_name: str) -> None:
    """Played over real sockets (bots on the server, recording clients), no frame any seat or
    spectator receives holds what it must not know at that moment: a whole game of bots, and
    random players for up to `RANDOM_ACTIONS` actions (whole games of both kinds: the slow
    run's tests/reliability/test_leaks.py::test_many_games_of_every_kind_leak_nothing)."""
    players, remote = case(game_name).leak_table
    options = case(game_name).options(players, random.Random())
    games = [(game_name, players, remote, options, "normal")]
    report = scan_games(games, limit=40)
    games = [(game_name, players, remote, options, "random")]
    report.add(scan_games(games, limit=40, actions=RANDOM_ACTIONS))
    assert report.frames > 100
    assert report.problems == [], "\n".join(map(str, report.problems[:20]))


#: Values of every wrong kind for an action's fields.
JUNK_FIELDS: list[object] = [
    None,
    -1,
    2**64 - 1,
    -(2**63),
    2.5,
    "",
    "x" * 300,
    [],
    [1, [2]],
    {"a": {}},
    True,
    "AS",
    "bat",
]


def junk_action(handlers: list[str], rng: random.Random) -> Action:
    """A made-up action: an unknown type, or a real one with fields of every wrong kind."""
    kind = rng.choice([*handlers, "nope", "", "__init__", "_play", None, 7])
    action: Action = {} if kind is None else {"type": kind}
    for name in rng.sample(["card", "cards", "to", "target", "claim", "suit", "guns", "name",
                            "hand", "ocean", "yes", "believe", "sources", "recipients",
                            "choice", "announce"], rng.randint(0, 4)):  # fmt: skip
        action[name] = rng.choice(JUNK_FIELDS)
    return action


def is_refused(state: State, seat: int | None, action: Action) -> bool:
    """True if the engine refuses `action` from `seat` (tried on a copy of the state)."""
    if seat is None:
        return True  # a spectator holds no seat: the server refuses before the engine
    try:
        copy.deepcopy(state).apply(seat, action, 0.0)
    except IllegalAction:
        return True
    return False


async def clock_settled(table: Table, limit: float = 5.0) -> None:
    """Wait until the server's driver has applied `time` at the game's deadline."""
    async with asyncio.timeout(limit):
        while not table.over and table.state.deadline() is not None:
            await asyncio.sleep(0.02)


async def campaign(name: str, attempts: int, rng: random.Random) -> tuple[int, int]:
    """Try `attempts` illegal actions during one game; returns (tried, changed state)."""
    players = case(name).players
    options = case(name).options(players, rng)
    tried = changed = 0
    # (a campaign of refused actions on purpose: not to be closed as a flood for it)
    config = {"bot_pace": 0, "heartbeat": 3600.0, "idle_limit": 3600.0, "refusal_burst": 10**6}
    async with running_server(**config) as (server, port):
        hosted = server.add_table(name, players, options)
        seats = [await RawPeer.open(port) for _ in range(players)]
        for number, peer in enumerate(seats):
            await peer.sit(hosted.code, number, f"p{number}")
        watcher = await RawPeer.open(port)
        watcher.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "w"})
        watcher.send({"t": "join", "table": hosted.code, "spectate": True})
        everyone = [*seats, watcher]
        for peer in seats:
            peer.send({"t": "ready", "ready": True})
            await peer.until_pong()
        for peer in everyone:  # the last ready started the game: everyone has heard by now
            await peer.until_pong()
        table = hosted.table
        assert table is not None
        handlers = sorted(type(table.state).handlers)
        seen: list[tuple[int, Action]] = []  # (seat, action) once legal, maybe stale now
        while tried < attempts:
            if table.state.deadline() is not None:
                # The game waits on the clock (crabs' double-crab window): the server settles it
                # by itself, and an action arriving after the deadline would be preceded by
                # that change, so nothing is tried until it has happened and been heard.
                await clock_settled(table)
                for peer in everyone:
                    await peer.until_pong()
            sender = rng.choice(everyone)
            candidates = [
                *(a for s in range(players) if s != sender.seat for a in table.state.legal(s)),
                *(a for _, a in seen[-50:]),
                *(junk_action(handlers, rng) for _ in range(5)),
            ]
            action = rng.choice(candidates)
            seat = sender.seat
            if seat is not None and hosted.resends.applied_before(seat, table.version, action):
                continue  # a repeat is answered, not refused
            if not is_refused(table.state, sender.seat, action):
                continue
            views = [None, *range(players)]
            before = (table.version, len(table.log), [digest(table.state.view(s)) for s in views])
            sender.send({"t": "action", "v": table.version, "action": action})
            heard = await sender.until_pong()
            others = [await peer.until_pong() for peer in everyone if peer is not sender]
            tried += 1
            after = (table.version, len(table.log), [digest(table.state.view(s)) for s in views])
            changed += after != before
            assert [m["t"] for m in heard] == ["error"] and heard[0]["code"] == "illegal", heard
            assert all(news == [] for news in others), others
            if table.over:
                continue  # keep trying: after the end, nothing is legal at all
            seat = rng.choice(sorted(table.state.waiting_for()))
            move = rng.choice(table.state.legal(seat))
            seen.append((seat, move))
            seats[seat].send({"t": "action", "v": table.version, "action": move})
            for peer in everyone:
                await peer.until_pong()
        for peer in everyone:
            await peer.close()
    return tried, changed


def test_illegal_actions_change_nothing_and_only_the_sender_hears(game_name: str) -> None:
    """Illegal and out-of-turn actions from any seat or a spectator, over real sockets,
    change nothing, and only their sender hears of them."""
    tried, changed = asyncio.run(campaign(game_name, 250, random.Random()))
    record("illegal", tried=tried, changed=changed)
    assert changed == 0


@pytest.mark.slow
def test_thousands_of_illegal_actions_change_nothing(game_name: str) -> None:
    tried, changed = asyncio.run(campaign(game_name, 1200, random.Random()))
    record("illegal", tried=tried, changed=changed)
    assert changed == 0


class Recorder:
    """A peer that keeps what it was sent, as the maps it would decode."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.messages: list[Frame] = []

    def send(self, message: ServerMessage) -> None:
        decoded = plain(message)
        assert isinstance(decoded, dict)
        self.messages.append(decoded)

    def close(self) -> None:
        pass


def test_every_update_rebuilds_the_seats_exact_view_with_less_sent(game_name: str) -> None:
    """Every update carries only the log entries a peer lacks, and the peer rebuilds the exact
    view from them (with less sent than whole views)."""
    info = get_game(game_name)
    hosted = HostedTable(code="T", game=info, players=info.default_players, seed=5)
    peers = [Recorder(f"p{n}") for n in range(info.default_players)]
    for peer in peers:
        hosted.claim(peer, None)
    table = hosted.start()
    rng = random.Random(5)
    logs: list[list[Event]] = [[] for _ in peers]
    talks: list[list[Frame]] = [[] for _ in peers]
    sent = whole = 0
    for _ in range(ACTION_LIMIT):
        if table.over:
            break
        movers = [seat for seat in range(table.players) if table.legal(seat)]
        waiting = [seat for seat in movers if seat in table.state.waiting_for()]
        seat = rng.choice(waiting or movers)
        table.submit(seat, rng.choice(table.legal(seat)))
        if table.vocabulary is not None and rng.random() < 0.2 and not table.over:
            speaker = rng.randrange(table.players)  # talk travels beside the log (issue 20)
            with contextlib.suppress(IllegalAction):
                table.say(speaker, {"kind": "role", "target": speaker, "group": "sailor"})
        for number, peer in enumerate(peers):
            updates = [m for m in peer.messages if m["t"] == "update"]
            for message in updates:  # (the first one came when the game began)
                assert problem(message, ServerMessage) is None
                logs[number] = updated_log(
                    logs[number], message["log_drop"], message["view"]["log"]
                )
                if "talk" in message["view"]:
                    talks[number] = updated_talk(talks[number], message["view"]["talk"])
            truth = table.view_for(number)
            rebuilt = {**updates[-1]["view"], "log": logs[number]}
            if "talk" in truth:
                rebuilt["talk"] = talks[number]
            assert rebuilt == truth
            sent += len(raw(updates[-1]))
            whole += len(raw({**updates[-1], "view": truth}))
            peer.messages.clear()
    assert table.version > 10 or table.over  # (a round of Love Letter may end sooner)
    assert sent < 0.8 * whole, (sent, whole)
