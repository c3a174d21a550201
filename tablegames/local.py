"""Setting up a game on this machine: humans in hot-seat, the other seats taken by bots."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .bots import get_bot
from .drivers import LocalClient
from .names import clean_name, name_key
from .rules import get_game
from .rules.contract import Claimed
from .table import Accepted, Table
from .words import moment_words, plural

# The store (sqlite3) and the ratings are imported where a game is saved: a table played
# without saving opens without them (`play --no-save`: every module is start-up time).
if TYPE_CHECKING:
    from .store import SavedSeat, SavedTable, Store

LINE = 80  # the widest line a command prints
BOT_NAMES = ("Ada", "Bruno", "Chidi", "Dara", "Emil", "Farah", "Gus", "Hana", "Ivo", "Juno")


def human_names(humans: int, given: Sequence[str]) -> list[str]:
    """The names of the `humans` at this keyboard: those `given` (cleaned, as at a network
    table), the rest `Player N`. ValueError, in a sentence, if two are one name there (`Ada`
    and `ada`): the hand-offs and the log must tell them apart."""
    cleaned = [clean_name(name) for name in given[:humans]]
    names = [
        cleaned[i] if i < len(cleaned) and cleaned[i] else f"Player {i + 1}" for i in range(humans)
    ]
    for number, name in enumerate(names):
        other = next((n for n in names[:number] if name_key(n) == name_key(name)), None)
        if other is not None:
            same = (
                f"two players would be called {name}"
                if other == name
                else f"{other} and {name} are one name at a table"
            )
            raise ValueError(f"{same}: give each player a name of their own")
    return names


def seat_names(players: int, humans: int, given: Sequence[str]) -> list[str]:
    """Names for every seat: the humans' (`human_names`), then bot names."""
    names = human_names(humans, given)
    bots = [name for name in BOT_NAMES if name not in names]
    return names + [f"{bots[i % len(bots)]} (bot)" for i in range(players - humans)]


def local_table(
    game_name: str,
    players: int,
    humans: int = 1,
    bot_level: str = "normal",
    seed: int | None = None,
    names: Sequence[str] = (),
    pace: float = 0.5,
    store: Store | None = None,
    speed: float = 1.0,
    clock: Callable[[], float] = time.monotonic,
    **options: Any,
) -> LocalClient:
    """A table with `humans` hot-seat players in seats 0.. and bots in the rest, on `clock`
    (a test's `VirtualClock`: a real-time game's moments come when the test says).

    With a `store`, the game is saved as it goes and can be resumed (`resume_local`).
    """
    game = get_game(game_name)
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game.title} takes {game.min_players}–{game.max_players} players")
    if not 1 <= humans <= players:
        raise ValueError(f"humans must be between 1 and {players}")
    bot_rng = random.Random(seed)
    bots = {seat: get_bot(game_name, bot_level, seat, bot_rng) for seat in range(humans, players)}
    table_args: dict[str, Any] = {} if seed is None else {"seed": seed}
    table = Table(
        game=game,
        players=players,
        names=seat_names(players, humans, names),
        options=options,
        bots=bots,
        clock=clock,
        **table_args,
    )
    client = LocalClient(table, seats=range(humans), pace=pace, speed=speed)
    if store is not None:
        from .store import SavedSeat

        seats = [
            SavedSeat(seat, name, bot_level=bot_level if seat in bots else None)
            for seat, name in enumerate(table.names)
        ]
        save_from_first_move(client, store, options, seats)
    return client


def save_from_first_move(
    client: LocalClient, store: Store, options: dict[str, object], seats: list[SavedSeat]
) -> None:
    """Save `client`'s game in `store` once a human has made a move, and every move after.

    A game left before anyone at this keyboard moved is not worth continuing: it is never
    saved, so `resume` and the menu do not offer it.
    """
    table = client.table
    saver: Callable[[Accepted], None] | None = None

    def save(accepted: Accepted) -> None:
        nonlocal saver
        if saver is None:
            if accepted.seat not in client.seats:
                return
            table_id = store.create_table("LOCAL", table.game.name, table.players, options, "local")
            store.start_table(table_id, table.seed, seats)
            client.saved_as = (store, table_id)
            saver = store.saver(table_id, moved_by(table, seats))
            for seq, (seat, action, now) in enumerate(table.log[:-1]):  # the bots' moves first
                saver(Accepted(seq, seat, action, now, None, {}))
            for said in table.talk:  # and what was said meanwhile
                store.append_claim(table_id, said)
        saver(accepted)

    def save_claim(said: Claimed) -> None:
        if client.saved_as is not None:  # before the first move it is saved with the moves
            store.append_claim(client.saved_as[1], said)

    client.stop_saving = _both(table.on_action(save), table.on_claim(save_claim))


def moved_by(table: Table, seats: Sequence[SavedSeat]) -> Callable[[Accepted], str]:
    """Who made each move at this keyboard, for the ratings: the seat's bot, or the player
    the seat is named for (`ratings.local_player`)."""
    from .ratings import bot_mover, local_player

    levels = {seat.seat: seat.bot_level for seat in seats if seat.bot_level is not None}

    def mover(accepted: Accepted) -> str:
        if accepted.seat in table.bots:
            return bot_mover(levels.get(accepted.seat, "normal"))
        return local_player(table.names[accepted.seat])

    return mover


def _both(first: Callable[[], None], second: Callable[[], None]) -> Callable[[], None]:
    """One function that stops two listeners."""

    def stop() -> None:
        first()
        second()

    return stop


def resume_local(store: Store, table_id: int, pace: float = 0.5, speed: float = 1.0) -> LocalClient:
    """Bring back a saved hot-seat game exactly where it stopped.

    `pace` and `speed` are how this sitting plays (as `play` takes them), not saved rules.
    """
    saved = store.load(table_id)
    if saved.kind != "local" or saved.finished is not None or saved.seed is None:
        raise ValueError(f"game {table_id} is not an unfinished game saved on this machine")
    saved.check_rules()
    rng = random.Random()
    bots = {
        seat.seat: get_bot(saved.game, seat.bot_level, seat.seat, rng)
        for seat in saved.seats
        if seat.bot_level is not None
    }
    table = Table(
        game=get_game(saved.game),
        players=saved.players,
        names=saved.names,
        seed=saved.seed,
        options=saved.options,
        bots=bots,
        log=saved.log,
        talk=saved.talk,
    )
    humans = [seat.seat for seat in saved.seats if seat.bot_level is None]
    client = LocalClient(table, seats=humans, pace=pace, speed=speed)
    client.stop_saving = _both(
        table.on_action(store.saver(table_id, moved_by(table, saved.seats))),
        table.on_claim(store.talk_saver(table_id)),
    )
    client.saved_as = (store, table_id)
    return client


def describe_saved(saved: SavedTable) -> str:
    """One line about a saved game, for `tablegames resume`, within 80 columns (the humans by
    name, the bots counted)."""
    moves = plural(len(saved.log), "move")
    line = f"{saved.id:>4}  {saved.game:<8} {_started(saved)}  {moves:>9}  {players_phrase(saved)}"
    return line if len(line) <= LINE else line[: LINE - 1] + "…"


def saved_label(saved: SavedTable) -> str:
    """A saved game in a few words, for the menu, with the id `tablegames resume` lists it by:
    `Crates #12: Sara with 3 bots, 12 moves, 2026-11-30 06:03`."""
    when = moment_words(saved.created)
    title = get_game(saved.game).title
    moves = plural(len(saved.log), "move")
    return f"{title} #{saved.id}: {players_phrase(saved)}, {moves}, {when}"


def players_phrase(saved: SavedTable) -> str:
    """Who plays a saved game: the humans by name, the bots counted (`Sara and Tom with a bot`)."""
    humans = [seat.name for seat in saved.seats if seat.bot_level is None]
    bots = len(saved.seats) - len(humans)
    named = " and ".join([", ".join(humans[:-1]), humans[-1]] if len(humans) > 1 else humans)
    if not bots:
        return named
    return f"{named} with {'a bot' if bots == 1 else plural(bots, 'bot')}"


def _started(saved: SavedTable) -> str:
    return moment_words(saved.created)
