"""Replays: each position of a recorded game, from each seat, by round; sealed until over."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from tablegames.bots import get_bot
from tablegames.cli import app
from tablegames.local import local_table
from tablegames.replay import (
    REFUSAL,
    Replay,
    ReplayClient,
    SealedRecord,
    compact,
    private_line,
)
from tablegames.rules import Game, State, get_game
from tablegames.rules.core import visible_to
from tablegames.store import Store
from tablegames.table import Update
from tablegames.tui.client import pacing, saving

from .test_local import first_human_move

runner = CliRunner()
SEATS = [0, 1, 2, 3, None]


@dataclass
class Recorded:
    """A finished bot game saved in a store, with every update each seat was sent."""

    store: Store
    table_id: int
    told: dict[int | None, list[Update]]


def record_game(path: Path, seed: int = 5, finish: bool = True) -> Recorded:
    """A short four-player Crates game played by bots into the store at `path`."""
    store = Store(path)
    client = local_table("crates", 4, seed=seed, store=store, names=("Sara",), short=True)
    table = client.table
    table.bots[0] = get_bot("crates", "normal", 0, random.Random(seed))
    told: dict[int | None, list[Update]] = {seat: [] for seat in SEATS}
    for seat in SEATS:
        table.subscribe(seat, told[seat].append)
    table.run_bots(100_000 if finish else 12)
    assert table.over is finish
    assert client.saved_as is not None
    return Recorded(store, client.saved_as[1], told)


def record_scripted_game(path: Path, seed: int = 11) -> Recorded:
    """A short four-player Crates game saved at `path`, each seat taking its first legal action.

    It depends on the rules alone, not on how the bots play, so a snapshot of it stays put.
    """
    store = Store(path)
    client = local_table("crates", 4, seed=seed, store=store, names=("Sara",), short=True)
    table = client.table
    table.bots.clear()
    told: dict[int | None, list[Update]] = {seat: [] for seat in SEATS}
    for seat in SEATS:
        table.subscribe(seat, told[seat].append)
    while not table.over:
        seat = min(table.state.waiting_for())
        table.submit(seat, table.legal(seat)[0])
    assert client.saved_as is not None
    return Recorded(store, client.saved_as[1], told)


# -- positions ------------------------------------------------------------------------------------
def test_every_position_is_what_each_seat_was_told_during_the_game(recorded, replay):
    assert replay.last == len(recorded.told[0]) - 1 > 100
    for seat in SEATS:
        for step, update in enumerate(recorded.told[seat]):
            assert replay.update(step, seat) == update, (seat, step)


def test_positions_come_back_the_same_in_any_order(recorded, replay):
    order = list(range(replay.last + 1))
    random.Random(3).shuffle(order)
    for step in [*order[:150], replay.last, 0, replay.last - 1, 1]:
        assert replay.view(step, 2) == recorded.told[2][step].view
        assert replay.state(step).view(None) == recorded.told[None][step].view


def test_the_last_position_is_the_finished_game(recorded, replay):
    assert replay.is_over(replay.last) and not replay.is_over(replay.last - 1)
    result = replay.result()
    assert replay.winners() == [replay.names[seat] for seat in result["winners"]]
    assert replay.names[0] == "Sara" and replay.humans == [0]


def test_a_step_is_described_in_the_words_its_seat_saw(replay):
    step = next(i for i in range(1, replay.last) if replay.steps[i - 1].action["type"] == "play")
    card = replay.steps[step - 1].action["card"]
    player = replay.names[replay.steps[step - 1].seat]
    assert any(line.startswith(f"{player} plays {card}") for line in replay.describe(step, 0))


# -- rounds and jumps -----------------------------------------------------------------------------
def test_rounds_start_where_the_next_round_is_dealt(replay):
    starts = replay.round_starts()
    assert list(starts) == list(range(1, 9))  # a short game: eight rounds
    assert starts[1] == 0
    for number, start in list(starts.items())[1:]:
        assert replay.round_of(start) == number
        assert replay.round_of(start - 1) == number - 1
        summary = replay.view(start, None)["last_round"]
        assert summary["round"] == number - 1  # the round just scored
    assert replay.start_of_round(3) == starts[3]


def test_next_and_previous_round(replay):
    starts = replay.round_starts()
    assert replay.next_round(0) == starts[2]
    assert replay.next_round(starts[2]) == starts[3]
    assert replay.next_round(starts[8]) == replay.last
    assert replay.previous_round(starts[3] + 5) == starts[3]
    assert replay.previous_round(starts[3]) == starts[2]  # already at the start: the one before
    assert replay.previous_round(0) == 0


def test_find_takes_rounds_steps_percentages_and_words(replay):
    starts = replay.round_starts()
    assert replay.find("3") == replay.find("r3") == replay.find("round 3") == starts[3]
    assert replay.find("s10") == replay.find("step 10") == replay.find("#10") == 10
    assert replay.find("50%") == round(replay.last / 2)
    assert replay.find("end") == replay.last and replay.find("start") == 0
    with pytest.raises(ValueError, match="no round 9: rounds 1–8"):
        replay.find("9")
    with pytest.raises(ValueError, match=f"no step {replay.last + 1}: steps 0–{replay.last}"):
        replay.find(f"s{replay.last + 1}")
    with pytest.raises(ValueError, match="a round 1–8, s and a step 0–"):
        replay.find("soon")


class SecretNumbers(State):
    """A game with no rounds and no hands: each seat holds a secret number and guesses."""

    handlers: ClassVar[dict[str, str]] = {"guess": "_guess"}

    def __init__(self, players: int, seed: int) -> None:
        super().__init__(players, random.Random(seed))
        self.secrets = [self.rng.randrange(100) for _ in range(players)]
        self.turn = 0
        self.guesses = 0

    @property
    def over(self) -> bool:
        return self.guesses >= 20

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        return [{"type": "guess", "number": n} for n in range(3)] if seat == self.turn else []

    def _waiting_for(self) -> frozenset[int]:
        return frozenset((self.turn,))

    def _guess(self, seat: int, action: dict[str, Any], now: float) -> None:
        self.emit("guess", f"{{{seat}}} guesses {action['number']}.", seat=seat)
        self.emit("secret", f"Your secret is {self.secrets[seat]}.", to=[seat])
        self.guesses += 1
        self.turn = (self.turn + 1) % self.players

    def _view(self, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {"turn": self.turn, "guesses": self.guesses}
        if seat is not None:
            view["secret"] = self.secrets[seat]
        return view

    def _result(self) -> dict[str, Any]:
        return {"winners": [0], "scores": [0] * self.players}


SECRET_NUMBERS = Game("secrets", "Secret numbers", 2, 3, 2, "", SecretNumbers)


def secret_numbers_replay() -> Replay:
    log = [(guess % 2, {"type": "guess", "number": guess % 3}, float(guess)) for guess in range(20)]
    return Replay(SECRET_NUMBERS, 2, 4, {}, log)


def test_a_game_without_rounds_jumps_by_step_and_percentage():
    replay = secret_numbers_replay()
    assert not replay.has_rounds and replay.round_starts() == {}
    assert replay.round_of(7) is None
    assert replay.find("7") == 7 and replay.find("25%") == 5
    with pytest.raises(ValueError, match="no rounds"):
        replay.start_of_round(1)
    with pytest.raises(
        ValueError, match=r"no rounds: go to a step 0–20 like 12 \(after the 12th move\)"
    ):
        replay.find("r2")
    assert replay.names == ["Player 1", "Player 2"]


def test_without_a_hand_a_seats_secrets_are_its_private_keys():
    replay = secret_numbers_replay()
    secret = replay.view(3, 1)["secret"]
    assert replay.private_part(3, 1) == {"secret": secret}
    assert private_line(replay, 3, 1) == f"secret={secret}"
    assert compact([]) == "none" and compact({"a": [1, 2], "b": None}) == "a=1 2, b=-"


# -- whose eyes -----------------------------------------------------------------------------------
def test_a_seats_replay_never_shows_another_seats_hand(replay):
    client = ReplayClient(replay, 0)
    private_to_others = 0
    for step in range(replay.last + 1):
        client.go(step)
        for asked in (0, 1, 2, 3):
            update = client.update(asked)  # whichever seat a screen asks for: seat 0's own
            assert update.view["seat"] == 0
            assert update.view["hand"] == replay.revealed(step)[0]["hand"]
        assert all(visible_to(event, 0) for event in client.update().events)
        if step:
            hidden = [e for e in replay.steps[step - 1].events if not visible_to(e, 0)]
            private_to_others += len(hidden)
    assert private_to_others > 0  # there were other seats' secrets to keep


def test_a_spectators_replay_shows_no_hand_but_all_reveals_every_one(replay):
    step = replay.round_starts()[2] + 3
    spectator = ReplayClient(replay, None, step)
    assert spectator.seats == [] and spectator.update(2).view["hand"] == []
    state = replay.state(step)
    hands = [list(hand) for hand in state.hands]  # type: ignore[attr-defined]
    assert [view["hand"] for view in replay.revealed(step)] == hands
    assert [private_line(replay, step, seat) for seat in range(4)] == [
        " ".join(hand) if hand else "(no cards)" for hand in hands
    ]


# -- the client the table screen uses -------------------------------------------------------------
def test_the_replay_client_refuses_actions_and_tells_listeners_of_each_move(replay):
    client = ReplayClient(replay, 1)
    heard: list[tuple[int | None, Update]] = []
    client.listen(lambda seat, update: heard.append((seat, update)))
    assert client.seats == [1] and client.names == replay.names and client.game.name == "crates"
    refused: list[tuple[str, str]] = []
    client.listen_notices(lambda kind, text: refused.append((kind, text)))
    client.submit(1, {"type": "draw"})
    assert refused == [("error", REFUSAL)]
    assert pacing(client) is None and saving(client) is None  # no bots to pace, nothing saved
    assert client.update().events == [] and client.update().version == 0

    client.go(5)
    assert heard[-1][0] == 1 and heard[-1][1].version == 5
    assert heard[-1][1].events == replay.events(5, 1, since=0)  # every event passed over
    assert client.waiting_for() == frozenset(replay.update(5, 1).waiting)
    client.go(2)
    assert heard[-1][1].version == 2 and heard[-1][1].events == []
    client.go(2)
    assert len(heard) == 2  # no move, no news
    client.go(replay.last)
    assert heard[-1][1].over is False  # the screen must not offer to leave the game
    assert replay.update(replay.last, 1).over is True


# -- records ------------------------------------------------------------------------------------
def test_an_unfinished_game_is_sealed(tmp_path):
    playing = record_game(tmp_path / "open.db", finish=False)
    with pytest.raises(SealedRecord, match="still being played: its record is sealed"):
        Replay.load(playing.store, playing.table_id)
    with pytest.raises(SealedRecord):  # even handed the whole table, a replay refuses it
        Replay.from_record(playing.store.load(playing.table_id))
    with pytest.raises(KeyError):
        Replay.load(playing.store, 99)


def test_seats_are_chosen_by_number_from_one_or_by_name(replay):
    assert replay.seat_named(None) == 0  # the human
    assert replay.seat_named("1") == 0 and replay.seat_named("4") == 3
    assert replay.seat_named("sara") == 0 and replay.seat_named("Bru") == 2
    with pytest.raises(ValueError, match="no seat '5' in this game; choose 1–4 or a name: 1 Sara"):
        replay.seat_named("5")
    with pytest.raises(ValueError, match="no seat 'Zed'"):
        replay.seat_named("Zed")
    twins = Replay(replay.game, 2, 1, {}, [], names=["Ann", "Anna"])
    assert twins.seat_named("ann") == 0  # an exact name wins over a longer one
    with pytest.raises(ValueError, match="could be several players"):
        twins.seat_named("an")


# -- the command ----------------------------------------------------------------------------------
@pytest.fixture
def home_game() -> Recorded:
    """A finished game in the default store (the test's own TABLEGAMES_HOME)."""
    from tablegames.store import default_path

    return record_game(default_path())


def test_the_command_opens_the_replay_from_the_chosen_seat(home_game, monkeypatch):
    opened: list[tuple[Replay, int | None, bool]] = []
    monkeypatch.setattr(
        "tablegames.tui.app.run_replay",
        lambda replay, seat, ascii=False: opened.append((replay, seat, ascii)),
    )
    for args, seat in [([], 0), (["--as", "3"], 2), (["--as", "chidi"], 3), (["--all"], None)]:
        result = runner.invoke(app, ["replay", str(home_game.table_id), *args, "--ascii"])
        assert result.exit_code == 0, result.output
        assert opened[-1][1] == seat and opened[-1][2] is True
    assert opened[-1][0].last == len(home_game.told[0]) - 1


def test_the_command_explains_what_it_cannot_replay(home_game, tmp_path):
    result = runner.invoke(app, ["replay", "99"])
    assert result.exit_code != 0 and "there is no game 99" in result.output
    result = runner.invoke(app, ["replay", str(home_game.table_id), "--as", "7"])
    assert result.exit_code != 0 and "no seat '7'" in result.output
    result = runner.invoke(app, ["replay", str(home_game.table_id), "--as", "1", "--all"])
    assert result.exit_code != 0 and "not both" in result.output
    from tablegames.store import default_path

    store = Store(default_path())
    client = local_table("crates", 2, seed=1, store=store, short=True)
    first_human_move(client)
    assert client.saved_as is not None
    result = runner.invoke(app, ["replay", str(client.saved_as[1])])
    assert result.exit_code == 1
    assert "still being played: its record is sealed until it ends" in result.output


# -- a replay shows what each seat knew -----------------------------------------------------------
def test_a_kraken_replay_shows_a_searched_leader_as_cult():
    """The captain searched the cult leader: the replay, like the game, shows only the group."""
    options: dict[str, Any] = {
        "characters": False,
        "captain": 0,
        "roles": ["sailor", "pirate", "sailor", "pirate", "sailor", "sailor", "cult_leader"],
        # 0,0 blue to 1,1, then yellow to 1,3: a cabin search.
        "deck": ["blue-disarmed", "red-drunk", "red-drunk", "red-mermaid"] * 2,
    }
    options["deck"][4] = "yellow-uprising"
    state = get_game("kraken").new(7, 3, **options)
    log: list[tuple[int, dict[str, Any], float]] = []

    def act(seat: int, action: dict[str, Any]) -> None:
        state.apply(seat, action)
        log.append((seat, action, 0.0))

    for lieutenant, navigator, card in ((1, 2, "blue-disarmed"), (3, 4, "yellow-uprising")):
        act(0, {"type": "appoint", "lieutenant": lieutenant, "navigator": navigator})
        for seat in sorted(state.waiting_for()):
            act(seat, {"type": "mutiny", "guns": 0})
        act(0, {"type": "keep", "card": card})
        act(lieutenant, {"type": "keep", "card": "red-drunk"})
        act(navigator, {"type": "steer", "card": card})
    act(0, {"type": "pick", "target": 6})
    replay = Replay(get_game("kraken"), 7, 3, options, log)
    assert replay.view(replay.last, 0)["known"] == {"6": "cult"}
    assert "Player 7 is in the cult." in replay.describe(replay.last, 0)
    assert "cult_leader" not in private_line(replay, replay.last, 0)
    assert "cult" in private_line(replay, replay.last, 0)


def test_stats_has_a_table_for_each_game(home_game):
    from tablegames.store import default_path

    store = Store(default_path())
    client = local_table("roach", 3, seed=2, store=store, names=("Sara",))
    table = client.table
    for _ in range(10_000):  # Sara makes her own moves (a bot's would be the bot's: ratings)
        if table.over:
            break
        table.submit(*(table.bot_move() or (0, table.legal(0)[0])))
    result = runner.invoke(app, ["stats"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    crates, roach = (
        result.output.index("Crates: ratings"),
        result.output.index("Cockroach Poker Royal: ratings"),
    )
    assert crates < roach
    assert "│ game" not in result.output  # the game is the table's title, not a column
    # (`home_game`'s bot played Sara's seat: that crates game is the bot's, not hers)
    assert result.output[crates:roach].count("Sara") == 0
    assert result.output[crates:roach].count("normal bot") == 4
    assert result.output[roach:].count("Sara") == 1
