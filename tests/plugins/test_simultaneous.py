"""Choices made at the same time (Sealed Bids, `sealedbids.py`): several seats waited for at
once, each bid sealed until all are in, and no driver, bot or client answering a question it
has already answered."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random

import pytest

from tablegames.bots import get_bot
from tablegames.net.client import RemoteClient
from tablegames.net.client_protocol import Event
from tablegames.net.join_bot import play_as_bot
from tablegames.net.messages import Pong, ViewUpdate
from tablegames.rules import IllegalAction, get_game
from tablegames.table import Table, Update
from tablegames.testing.harness import running_server, until


def bid(card: int) -> dict[str, object]:
    return {"type": "bid", "card": card}


def test_every_seat_is_asked_at_once_and_bids_stay_sealed_until_the_last():
    state = get_game("sealedbids").new(3, seed=1, prizes=[5, 1, 2, 3, 4, 6])
    assert state.waiting_for() == {0, 1, 2}
    state.apply(1, bid(4))
    assert state.waiting_for() == {0, 2} and state.legal(1) == []
    assert state.view(1)["chosen"] == 4 and state.view(1)["hand"] == [1, 2, 3, 5, 6]
    for seat in (0, 2, None):  # the others see that Bruno bid, never what
        view = state.view(seat)
        assert view["chosen"] is None and view["bids_left"][1] == [1, 2, 3, 4, 5, 6]
        assert all(event.get("bid") is None for event in view["log"])
    assert state.secrets(0) == {("bid", (1, 4)): "seat 1's sealed choice", **deck(state)}
    with pytest.raises(IllegalAction, match="you have bid already"):
        state.apply(1, bid(5))
    state.apply(0, bid(4))
    state.apply(2, bid(2))  # the last bid: all are shown
    shown = state.view(None)["log"][-3]
    assert shown["kind"] == "revealed" and shown["choices"] == [4, 4, 2]
    assert shown["text"] == "The bids: {0} 4, {1} 4, {2} 2."
    assert state.view(None)["log"][-2]["text"] == "{2} takes 5 with the 2."
    assert state.scores == [0, 0, 5] and state.waiting_for() == {0, 1, 2}


def deck(state) -> dict[tuple[str, object], str]:
    return {("prize_deck", tuple(state.prize_deck)): "the order of the prizes"}


class Asked:
    """What the bot asks of the server beyond its actions (a `Requests`): counted."""

    def __init__(self) -> None:
        self.barriers = 0

    def ready(self, ready: bool = True) -> None:
        pass

    def barrier(self) -> int:
        self.barriers += 1
        return self.barriers


class Scripted:
    """A `RemoteClient` for `play_as_bot` to drive, fed by the test: the server's messages in
    the order a test chooses, and what the bot sends."""

    def __init__(self, game: str, seat: int) -> None:
        self.game, self.seat = get_game(game), seat
        self.name, self.where, self.table_code = "Ann", "127.0.0.1:1", "TEST"  # (for its log)
        self.latest: Update | None = None
        self.over = False
        self.sent: list[tuple[dict[str, object], int | None]] = []
        self.ask = Asked()
        self.waiting = False  # the bot waits for the next message (it thinks in a thread)
        self.inbox: asyncio.Queue[Event] = asyncio.Queue()

    async def connect(self) -> None:
        pass

    async def next_event(self) -> Event:
        self.waiting = True  # (only while it waits: a message already in comes at once)
        try:
            return await self.inbox.get()
        finally:
            self.waiting = False

    def has_news(self) -> bool:
        return not self.inbox.empty()

    def submit(self, seat: int, action: dict[str, object], seen: int | None = None) -> None:
        self.sent.append((action, seen))

    def claim(self, seat: int, claim: dict[str, object]) -> None:
        pass

    async def close(self) -> None:
        pass

    def update(self, table: Table) -> None:
        self.latest = table.update_for(self.seat)
        self.over = self.latest.over
        self.inbox.put_nowait(ViewUpdate(**dataclasses.asdict(self.latest), log_drop=0))

    def pong(self, n: int) -> None:
        self.inbox.put_nowait(Pong(n=n))

    async def settled(self) -> None:
        """Until the bot has read all it was sent and waits for more."""
        await until(lambda: self.waiting and self.inbox.empty(), 10, "the bot reads all")


async def test_a_bot_never_answers_again_before_the_server_has_its_answer():
    table = Table(get_game("sealedbids"), 3, ["Ann", "Bo", "Cy"], seed=3)
    client = Scripted("sealedbids", 1)
    playing = asyncio.ensure_future(play_as_bot(client, "random"))  # type: ignore[arg-type]
    client.update(table)
    await client.settled()
    assert len(client.sent) == 1 and client.sent[0][1] == 0  # Bo bids, on version 0
    table.submit(0, bid(6))  # Ann's bid reaches the table before Bo's
    client.update(table)  # ...and Bo hears of it: still asked to bid, as far as it can tell
    await client.settled()
    assert len(client.sent) == 1  # it had answered that: the old code bid again here
    table.submit(1, client.sent[0][0], seen=client.sent[0][1])  # Bo's bid arrives
    client.update(table)
    client.pong(1)  # the server has had Bo's bid: Bo is no longer asked
    await client.settled()
    assert len(client.sent) == 1
    table.submit(2, bid(1))  # the last bid: the next prize, and a new question for everyone
    client.update(table)
    await client.settled()
    assert len(client.sent) == 2 and client.sent[1][1] == table.version
    playing.cancel()


async def test_a_question_asked_again_after_the_answer_is_answered_again():
    # Crates asks "play or draw" again after a draw: the same question, in a newer version.
    table = Table(get_game("sealedbids"), 2, ["Ann", "Bo"], seed=3)
    client = Scripted("sealedbids", 1)
    playing = asyncio.ensure_future(play_as_bot(client, "random"))  # type: ignore[arg-type]
    client.update(table)
    await client.settled()
    assert len(client.sent) == 1
    client.pong(1)  # refused, say, and nothing changed: it does not answer the same again
    await client.settled()
    assert len(client.sent) == 1
    table.submit(0, bid(6))  # a newer version asks Bo the same question: answered anew
    client.update(table)
    await client.settled()
    assert len(client.sent) == 2
    playing.cancel()


async def test_join_bot_clients_never_answer_a_bid_twice():
    # `join --bot` once answered every update while its seat was still waited for: another
    # seat's bid arriving before its own was applied made it bid again, and the table refused
    # ("the table moved on") a dozen times a game.
    async with running_server() as (server, port):
        hosted = server.add_table("sealedbids", 4, options={"target": 10}, seed=7)
        clients = [RemoteClient("127.0.0.1", port, f"Bot{n}", table=hosted.code) for n in range(4)]
        refused: list[str] = []
        for client in clients:
            client.listen_notices(lambda kind, text: refused.append(text) if kind == "error" else 0)
        plays = [play_as_bot(client, "random") for client in clients]
        views = await asyncio.wait_for(asyncio.gather(*plays), timeout=120)
    assert refused == []
    assert all(view["over"] for view in views) and hosted.table is not None
    assert hosted.table.over and len(hosted.table.log) >= 6 * 4


@pytest.mark.parametrize("level", ["random", "normal", "hard"])
def test_the_generic_bots_play_a_whole_game_of_it(level):
    from tablegames.simulate import play_bot_game

    table = play_bot_game("sealedbids", 3, seed=2, level=level, target=10)
    assert table.over and table.state.result()["rounds"] >= 1
    bot = get_bot("sealedbids", level, 0, random.Random(1))
    assert bot.choose(table.state.view(0), []) is None


@pytest.mark.e2e
def test_join_bot_processes_play_it_hosted_and_nothing_is_refused(tmp_path):
    from ..e2e.processes import finish, join_bot, start_host, stop

    env = {**os.environ, "TABLEGAMES_HOME": str(tmp_path), "TABLEGAMES_LOG": "info"}
    host, port = start_host(
        env, "--humans", "4", "--players", "4", "--target", "10", "--pace", "0", game="sealedbids"
    )
    try:
        bots = [join_bot(env, port, name) for name in ("Ann", "Bo", "Cy", "Di")]
        results = [finish(bot) for bot in bots]
    finally:
        stop(host, timeout=10)
    assert sorted(result["seat"] for result in results) == [0, 1, 2, 3]
    said = "".join(path.read_text() for path in tmp_path.glob("host-*.out"))
    assert "refused" not in said, said
    assert results[0]["scores"] and max(results[0]["scores"]) >= 10


async def test_a_replay_of_every_hand_shows_the_bids_sealed_at_that_moment(tmp_path):
    from tablegames.replay import Replay, private_line
    from tablegames.tui.app import ReplayApp

    from ..tui.helpers import screen_text

    bids = [(1, bid(4)), (0, bid(6))]  # Bo seals the 4, Ann the 6; Cy has not bid
    replay = Replay(get_game("sealedbids"), 3, 9, {"prizes": [5, 1, 2, 3, 4, 6]}, [
        (seat, action, 0.0) for seat, action in [*bids, (2, bid(1))]
    ], names=["Ann", "Bo", "Cy"])  # fmt: skip
    assert private_line(replay, 2, 1) == "1 2 3 5 6; sealed: 4"
    assert private_line(replay, 2, 2) == "1 2 3 4 5 6"  # nothing sealed yet
    assert private_line(replay, 3, 1) == "1 2 3 5 6"  # shown to all: no longer sealed
    app = ReplayApp(replay, seat=None, step=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Every hand" in text
        assert any("Ann" in line and "sealed: 6" in line for line in text.splitlines())
        assert any("Bo" in line and "sealed: 4" in line for line in text.splitlines())


def test_simulate_counts_a_round_of_bids_as_one_turn_and_a_draw_as_no_new_one():
    from tablegames.simulate import simulate_games

    bids = simulate_games("sealedbids", 2, 4, seed=5, level="random", target=10)
    tricks = 6 * bids["mean_rounds"]  # six prizes a hand, every seat bidding on each
    assert bids["mean_turns"] == tricks and bids["mean_actions"] == 4 * tricks
    crates = simulate_games("crates", 2, 3, seed=5, level="random", short=True)
    assert crates["mean_turns"] < crates["mean_actions"]  # a draw asks the same again


async def test_the_table_drivers_never_answer_a_bid_twice():
    # In-process drivers ask a bot only about the table as it is now: an answer is applied
    # before anything else is asked, so a bot that bid is not asked again (the game no longer
    # waits for it) and nothing a bot sends is refused.
    from tablegames.drivers import LocalClient

    table = Table(get_game("sealedbids"), 4, ["A", "B", "C", "D"], seed=2, options={"target": 10})
    for seat in range(4):
        table.bots[seat] = get_bot("sealedbids", "random", seat, random.Random(seat))
    refused: list[str] = []
    submit = table.submit

    def counted(seat: int, action: dict[str, object], **kwargs: object) -> object:
        try:
            return submit(seat, action, **kwargs)  # type: ignore[arg-type]
        except IllegalAction as refusal:
            refused.append(str(refusal))
            raise

    table.submit = counted  # type: ignore[method-assign]
    client = LocalClient(table, [], pace=0.0)
    await asyncio.wait_for(client.run_bots(), timeout=60)
    assert table.over and refused == []
