"""A fifth game defined only here, Kuhn poker, played everywhere through the contract alone.

With nothing but this rules module the game is listed, simulated, hosted and played by
`join --bot` processes, saved and replayed, scanned for leaks and played hot-seat on the
generic screen. Other processes load it as any game from outside the package is loaded:
``TABLEGAMES_GAMES=tests.test_fifth_game:KUHN``; in this process the tests register it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tablegames.bots import AnyLegalAction, get_bot, level_note
from tablegames.bots.generic import ByHeuristic
from tablegames.local import local_table
from tablegames.replay import Replay
from tablegames.rulebook import rules_text
from tablegames.rules import GAMES, Game, Option, State
from tablegames.rules.plugins import VARIABLE
from tablegames.simulate import simulate_games
from tablegames.store import Store
from tablegames.tui import catalogue

# -- the game -------------------------------------------------------------------------------------
CARDS = ("jack", "queen", "king")  # lowest first
RULES = """# Kuhn poker

Two players, three cards (jack, queen, king). Each hand both ante 1 and get one card. The first
player checks or bets 1; after a check the other checks (showdown) or bets; after a bet the other
calls (showdown) or folds (the bettor takes the pot). At a showdown the higher card takes the pot.
Whoever has won the most chips after the last hand wins.
"""


class KuhnState(State):
    """A match of Kuhn poker: `hands` hands, the first player changing each hand."""

    handlers: ClassVar[dict[str, str]] = {k: f"_{k}" for k in ("check", "bet", "call", "fold")}

    def __init__(self, players: int, seed: int, hands: int = 3) -> None:
        super().__init__(players, random.Random(seed))
        self.hands, self.chips, self.hand = hands, [0, 0], 0
        self.shown: list[str] | None = None
        self.finished = False
        self._deal()

    @property
    def over(self) -> bool:
        return self.finished

    def _deal(self) -> None:
        self.hand += 1
        self.cards = self.rng.sample(CARDS, 2)
        self.turn = (self.hand - 1) % 2
        self.staked, self.bets = [1, 1], []
        self.restart_log(keep=1)
        text = f"Hand {self.hand} of {self.hands}: both ante 1; {{{self.turn}}} acts first."
        self.emit("deal", text, round=self.hand, first=self.turn)
        for seat, card in enumerate(self.cards):
            self.emit("card", f"You hold the {card}.", (seat,), card=card)

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        if seat != self.turn:
            return []
        kinds = ("call", "fold") if "bet" in self.bets else ("check", "bet")
        return [{"type": kind} for kind in kinds]

    def _waiting_for(self) -> frozenset[int]:
        return frozenset((self.turn,))

    def why_illegal(self, seat: int, action: dict[str, Any]) -> str | None:
        return "it is not your turn" if seat != self.turn else None  # (None: generic words)

    def _act(self, seat: int, kind: str) -> None:  # (a listed action: `apply` has checked)
        self.bets.append(kind)
        self.staked[seat] += kind in ("bet", "call")
        self.emit(kind, f"{{{seat}}} {kind}s.", seat=seat)
        self.turn = 1 - seat

    def _check(self, seat: int, action: dict[str, Any], now: float) -> None:
        self._act(seat, "check")
        if self.bets == ["check", "check"]:
            self._showdown()

    def _bet(self, seat: int, action: dict[str, Any], now: float) -> None:
        self._act(seat, "bet")

    def _call(self, seat: int, action: dict[str, Any], now: float) -> None:
        self._act(seat, "call")
        self._showdown()

    def _fold(self, seat: int, action: dict[str, Any], now: float) -> None:
        self._act(seat, "fold")
        self._settle(1 - seat)

    def _showdown(self) -> None:
        self.shown = list(self.cards)
        first, second = self.cards
        self.emit("showdown", f"{{0}} shows the {first}, {{1}} the {second}.", cards=self.shown)
        self._settle(max((0, 1), key=lambda seat: CARDS.index(self.cards[seat])))

    def _settle(self, winner: int) -> None:
        won = self.staked[1 - winner]
        self.chips[winner] += won
        self.chips[1 - winner] -= won
        self.emit("pot", f"{{{winner}}} takes the pot: {won} from the other.", seat=winner)
        if self.hand < self.hands:
            self._deal()
        else:
            self.finished = True

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {
            "hand": [self.cards[seat]] if seat is not None else [],
            "round": self.hand,
            "rounds": self.hands,
            "chips": list(self.chips),
            "pot": sum(self.staked),
            "bets": list(self.bets),
            "shown": self.shown,
        }

    @classmethod
    def heuristic(cls, view: dict[str, Any], action: dict[str, Any]) -> float:
        """Bet and call with the king, check and fold with the jack, check or call a queen."""
        strength = CARDS.index(view["hand"][0]) - 1  # jack -1, queen 0, king 1
        bold = {"bet": 1, "call": 0.5, "check": 0, "fold": -0.5}[action["type"]]
        return strength * bold + (0.1 if action["type"] in ("check", "call") else 0)

    def _result(self) -> dict[str, Any]:
        best = max(self.chips)
        winners = [seat for seat, chips in enumerate(self.chips) if chips == best]
        return {"winners": winners, "scores": list(self.chips)}


#: The game: name, title, players (fewest, most, usual), blurb, the state class, and the rest.
KUHN = Game(
    "kuhn", "Kuhn poker", 2, 2, 2, "Three cards, one each: check, bet, call or fold.", KuhnState,
    options=(Option("hands", int, 3, "hands to play", (1, 3, 5), quick=1),), rules=RULES,
)  # fmt: skip

# -- playing it everywhere ------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent
REFERENCE = f"{__name__}:KUHN"


@pytest.fixture
def kuhn(monkeypatch: pytest.MonkeyPatch) -> Game:
    """The game in this process's registry, for this test only."""
    monkeypatch.setitem(GAMES, KUHN.name, KUHN)
    return KUHN


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Other processes' environment: they load the game, and share our data directory."""
    monkeypatch.setenv("TABLEGAMES_HOME", str(tmp_path))
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return {**os.environ, VARIABLE: REFERENCE, "PYTHONPATH": path, "TABLEGAMES_LOG": "info"}


def tablegames(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "tablegames", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_it_keeps_the_contract_every_game_keeps(kuhn):
    from tablegames.testing.matrix import test_contract as contract
    from tablegames.testing.matrix import test_playouts as playouts

    for check in (
        contract.test_metadata_and_registry,
        playouts.test_random_playouts_end_with_winners,
        contract.test_replay_reaches_the_same_state,
        contract.test_views_and_actions_are_plain_data,
        contract.test_bad_and_out_of_turn_actions_change_nothing,
        contract.test_the_waiting_list_a_seat_sees_never_names_more_than_the_game_waits_for,
        playouts.test_same_seed_same_game,
        contract.test_every_view_has_the_documented_keys_and_every_event_a_kind,
        contract.test_every_option_says_what_it_is_and_every_value_offered_makes_a_game,
    ):
        check("kuhn")


def test_it_is_listed_and_played_by_the_generic_screen_and_bots(kuhn):
    from tablegames.tui.screens.generic import GenericScreen

    listing = next(entry for entry in catalogue.listings() if entry.name == "kuhn")
    assert (listing.title, listing.players, listing.own_screen, listing.own_bots) == (
        "Kuhn poker",
        "2–2",
        False,
        False,
    )
    assert catalogue.screen_class("kuhn") is GenericScreen
    assert rules_text("kuhn") == RULES


def test_its_heuristic_makes_the_generic_bots_think(kuhn):
    # No `from_view`, but a heuristic: normal and hard play by it, and no level note is shown.
    assert level_note(kuhn) is None
    hard = get_bot("kuhn", "hard", 1, random.Random(1))
    assert isinstance(hard, ByHeuristic)
    state = kuhn.new(2, 3)  # seat 0 holds the queen, seat 1 the king (seed 3)
    state.cards = ["queen", "king"]
    state.apply(0, {"type": "bet"})
    assert hard.choose(state.view(1), state.legal(1)) == {"type": "call"}  # a king calls
    state.cards = ["queen", "jack"]
    assert hard.choose(state.view(1), state.legal(1)) == {"type": "fold"}  # a jack folds


def test_a_game_with_neither_hook_says_its_levels_are_all_random(kuhn, monkeypatch):
    from typer.testing import CliRunner

    from tablegames.cli import app

    bare = type("BareKuhn", (KuhnState,), {"heuristic": State.heuristic})
    monkeypatch.setitem(GAMES, "kuhn", dataclasses.replace(kuhn, factory=bare))
    assert isinstance(get_bot("kuhn", "hard", 0, random.Random(1)), AnyLegalAction)
    note = level_note(GAMES["kuhn"])
    assert note is not None and "every level plays at random" in note
    ran = CliRunner().invoke(app, ["simulate", "kuhn", "--games", "2", "--bots", "hard"])
    assert ran.exit_code == 0 and note in ran.output  # (stderr, said where the level is chosen)


def test_simulated_in_process_and_from_the_command_line(kuhn, env):
    summary = simulate_games("kuhn", games=10, players=2, seed=1, level="normal", hands=3)
    assert summary["games"] == 10 and sum(summary["wins_per_seat"]) == pytest.approx(10)
    assert "kuhn" in tablegames(env, "list")
    assert "--hands" in tablegames(env, "simulate", "--help")
    ran = json.loads(tablegames(env, "simulate", "kuhn", "--games", "5", "--hands", "1"))
    assert (ran["games"], ran["players"], ran["options"]) == (5, 2, {"hands": 1})


@pytest.mark.e2e
def test_hosted_played_by_join_bot_processes_then_saved_and_replayed(kuhn, env):
    from .e2e.processes import finish, join_bot, start_host, stop

    host, port = start_host(env, "--humans", "2", "--hands", "3", "--pace", "0", game="kuhn")
    try:
        bots = [join_bot(env, port, name) for name in ("Ann", "Bo")]
        results = [finish(bot) for bot in bots]
    finally:
        stop(host, timeout=10)
    assert sorted(result["seat"] for result in results) == [0, 1]
    (finished,) = Store().history(5)
    for result in results:  # the game's result, not crates' own view key
        assert result["scores"] == replay_result(finished["id"])["scores"] and result["winners"]
    assert finished["game"] == "kuhn"
    replay = Replay.load(Store(), finished["id"])
    assert replay.is_over(replay.last) and replay.round_starts()[3] > 0
    assert [replay.names[seat] for seat in replay.result()["winners"]] == finished["winners"]
    assert replay.view(0, 0)["hand"] != replay.view(0, 1)["hand"]  # each saw only their card
    assert "{0}" not in " ".join(replay.describe(replay.last, None))


def replay_result(table_id: int) -> dict[str, Any]:
    replay = Replay.load(Store(), table_id)
    return replay.result()


def test_its_streams_over_real_sockets_leak_nothing(kuhn, monkeypatch):
    from .reliability.test_leaks import scan_games

    games = [("kuhn", 2, 2, {"hands": 5}, "normal"), ("kuhn", 2, 1, {}, "random")]
    report = scan_games(games, limit=30)
    assert report.frames > 40 and report.problems == [], report.problems[:5]

    # The scanner knows its secrets from its views: each card, told to all (planted), is found.
    def aloud(self: State, kind: str, text: str, to: Any = None, **fields: Any) -> Any:
        return State.emit(self, kind, text, None if kind == "card" else to, **fields)

    monkeypatch.setattr(KuhnState, "emit", aloud)
    assert scan_games(games[:1], limit=30).leaks


async def test_the_generic_screen_plays_it_hot_seat(kuhn):
    from tablegames.tui.app import TableGamesApp
    from tablegames.tui.screens.generic import GenericResult, GenericScreen
    from tablegames.tui.screens.handoff import HandoffScreen

    from .tui.helpers import STILL, press, screen_text, settle, take_seat

    client = local_table("kuhn", 2, humans=2, seed=4, names=("Ann", "Bo"), pace=STILL, hands=1)
    first, second = client.table.state.cards
    app = TableGamesApp(client, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen) and "Ann" in screen_text(app)
        assert first not in screen_text(app)  # nothing private before the hand-off
        await take_seat(app, pilot)
        assert isinstance(app.screen, GenericScreen)
        text = screen_text(app)
        assert f"| Hand   {first} " in text and "1. check" in text and "2. bet" in text
        assert second not in text.replace("Hand   " + first, "")
        await press(pilot, "2")  # Ann bets; Bo's turn comes after a hand-off
        assert isinstance(app.screen, HandoffScreen) and "Bo" in screen_text(app)
        await take_seat(app, pilot)
        text = screen_text(app)
        assert f"| Hand   {second} " in text and "Ann bets." in text and "1. call" in text
        await press(pilot, "down", "enter")  # Bo folds: Ann takes the pot, the match is over
        assert isinstance(app.screen, GenericResult)
        assert "Game over: Ann wins!" in screen_text(app)
        await settle(pilot)
        await press(pilot, "q")
    assert app.return_code == 0


async def test_the_generic_status_line_follows_the_table(kuhn):
    from tablegames.tui.app import TableGamesApp

    from .tui.helpers import STILL, press, screen_text

    client = local_table("kuhn", 2, humans=1, seed=4, names=("Ann",), pace=STILL, hands=3)
    app = TableGamesApp(client, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Ann: choose an action (Enter)." in screen_text(app)
        await press(pilot, "1")  # Ann checks: the bot's turn
        assert "Waiting for" in screen_text(app)
        table = client.table
        while 0 not in table.state.waiting_for():
            table.submit(*table.bot_move())
            await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert "Ann: choose an action (Enter)." in text and "Waiting for" not in text


async def test_a_replay_shows_it_on_the_generic_screen(kuhn):
    from tablegames.tui.app import ReplayApp
    from tablegames.tui.screens.generic import GenericScreen

    from .tui.helpers import press

    client = local_table("kuhn", 2, seed=5, store=Store(), hands=3)
    client.table.bots[0] = get_bot("kuhn", "normal", 0, random.Random(5))  # plays the human's seat
    client.table.run_bots(1000)
    assert client.table.over and client.saved_as is not None
    replay = Replay.load(Store(), client.saved_as[1])
    app = ReplayApp(replay, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen_stack[app.screen_stack.index(app.viewer) - 1]
        assert isinstance(table, GenericScreen) and not table.flow.choices  # nothing to choose
        await press(pilot, "n")
        assert app.viewer.client.step == 1


async def test_the_setup_screen_and_the_table_form_say_when_levels_are_all_random(
    kuhn, monkeypatch
):
    from textual.app import App
    from textual.widgets import Label

    from tablegames.tui.screens.setup import SetupScreen
    from tablegames.tui.screens.table_form import TableForm, bots_hint

    bare = type("BareKuhn", (KuhnState,), {"heuristic": State.heuristic})
    monkeypatch.setitem(GAMES, "kuhn", dataclasses.replace(kuhn, factory=bare))
    assert bots_hint("kuhn").endswith("every level plays at random here")
    assert "random" not in bots_hint("crates")

    class Host(App[None]):
        def compose(self):
            yield TableForm()

    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.push_screen(SetupScreen("kuhn"))
        await pilot.pause()
        hints = [str(label.render()) for label in app.screen.query(Label)]
        assert "every level plays at random here" in hints
