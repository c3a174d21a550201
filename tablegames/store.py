"""Saved tables in SQLite: every accepted action in its own transaction, restored by replay.

A table is stored as its game, options, seats, seed and action log; restoring it is
`game.replay(...)` (done by `Table(log=...)`). The database runs in WAL mode with
`synchronous=NORMAL`: a committed action survives the process being killed at any instant
(an operating-system crash could lose the last few, which a game server can live with).
The seed stays in the database; a *record* (what `history` and `replay` show) exists only once
a game is over, so nothing read from a record can reveal an unfinished game.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from .paths import data_dir, owner_only_file
from .ratings import BOT, SeatRecord
from .rules import Action, get_game
from .rules.contract import Claimed

if TYPE_CHECKING:
    from .table import Accepted

log = logging.getLogger("tablegames.ratings")

#: Each migration takes the schema from version i to i + 1. Never edit one that has shipped.
MIGRATIONS: tuple[str, ...] = (
    # 1: tables, their seats and their action logs
    """
    CREATE TABLE game_tables (
        id INTEGER PRIMARY KEY,
        code TEXT NOT NULL,
        game TEXT NOT NULL,
        players INTEGER NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER,
        kind TEXT NOT NULL,
        created REAL NOT NULL,
        started REAL
    );
    CREATE TABLE seats (
        table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        token_key BLOB,
        bot_level TEXT,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE actions (
        table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        now REAL NOT NULL,
        PRIMARY KEY (table_id, seq)
    );
    """,
    # 2: results of finished games, the version a client acted on, fill-with-bots setting
    """
    ALTER TABLE game_tables ADD COLUMN finished REAL;
    ALTER TABLE game_tables ADD COLUMN result TEXT;
    ALTER TABLE game_tables ADD COLUMN fill_with_bots TEXT;
    ALTER TABLE actions ADD COLUMN client_version INTEGER;
    CREATE INDEX open_tables ON game_tables (kind, finished);
    """,
    # 3: the rules a table was played under; names owned by a key; this store's own identity
    """
    ALTER TABLE game_tables ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE game_tables ADD COLUMN min_humans INTEGER;
    ALTER TABLE game_tables ADD COLUMN owner_seat INTEGER;
    ALTER TABLE seats ADD COLUMN identity TEXT;
    CREATE TABLE names (
        name_key TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        key_fingerprint TEXT NOT NULL,
        claimed REAL NOT NULL
    );
    CREATE TABLE facts (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 4: table talk: each public claim, the game move it follows and where it was said
    """
    CREATE TABLE talk (
        table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        after INTEGER NOT NULL,
        line INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        claim TEXT NOT NULL,
        now REAL NOT NULL,
        PRIMARY KEY (table_id, n)
    );
    """,
    # 5: when a name's key last used it (names unused for long are released)
    """
    ALTER TABLE names ADD COLUMN used REAL;
    UPDATE names SET used = claimed;
    """,
    # 6: ratings per player (`ratings.identity`) and game, derived from the results: `rated`
    # holds every finished game they have read (counted 0: a result they could not read), and
    # `rating_changes` what each game did to each seat's player
    """
    CREATE TABLE ratings (
        game TEXT NOT NULL,
        identity TEXT NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        played INTEGER NOT NULL,
        won INTEGER NOT NULL,
        change REAL NOT NULL,
        PRIMARY KEY (game, identity)
    );
    CREATE TABLE rated (
        table_id INTEGER PRIMARY KEY,
        finished REAL NOT NULL,
        counted INTEGER NOT NULL
    );
    CREATE TABLE rating_changes (
        table_id INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        identity TEXT NOT NULL,
        won INTEGER NOT NULL,
        rating_before REAL NOT NULL,
        rating_after REAL NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    """,
    # 7: the browser guests the party let in (a cookie names one; `/forget` and a ban strike
    # it out, whatever copies of the cookie remain) and whether each gave the join code
    """
    CREATE TABLE web_guests (
        guest_id TEXT PRIMARY KEY,
        let_in REAL NOT NULL,
        code_given INTEGER NOT NULL
    );
    """,
    # 8: who made each move (`ratings.who_played`: a person is rated for a seat only if they
    # made at least half of its moves; a key, a browser cookie or this keyboard, never a name
    # alone): the ratings are rated afresh under those rules
    """
    ALTER TABLE actions ADD COLUMN mover TEXT;
    DELETE FROM ratings;
    DELETE FROM rated;
    DELETE FROM rating_changes;
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


@dataclass
class SavedSeat:
    seat: int
    name: str
    token_key: bytes | None = None
    bot_level: str | None = None
    identity: str | None = None  # the name key of the party login that holds the seat


@dataclass
class SavedTable:
    """Everything needed to bring a table back."""

    id: int
    code: str
    game: str
    players: int
    options: dict[str, object]
    seed: int | None
    kind: str
    created: float
    started: float | None
    finished: float | None
    result: dict[str, object] | None
    fill_with_bots: str | None
    rules_version: int = 1
    min_humans: int | None = None
    owner_seat: int | None = None
    seats: list[SavedSeat] = field(default_factory=list)
    log: list[tuple[int, Action, float]] = field(default_factory=list)
    client_versions: list[int | None] = field(default_factory=list)
    talk: list[Claimed] = field(default_factory=list)  # claims made (see `talk.py`)

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def check_rules(self) -> None:
        """Refuse (OutdatedRules) a table saved under rules other than this version's."""
        game = get_game(self.game)
        if self.rules_version != game.rules_version:
            raise OutdatedRules(
                f"game {self.id} was played under other {game.title} rules (version "
                f"{self.rules_version}; this tablegames plays version {game.rules_version}), "
                "so it cannot be replayed into the same game; `tablegames history` still lists it"
            )


class FinishedSeat(TypedDict):
    """A seat of a finished game (`Store.history`): its name, the player the ratings count it
    for (None: nobody) and whether it won."""

    seat: int
    name: str
    rated_as: str | None
    won: bool


class FinishedGame(TypedDict):
    """A finished game as `Store.history` tells it."""

    id: int
    game: str
    finished: float
    players: list[str]
    winners: list[str]
    rated: bool
    seats: list[FinishedSeat]


class Rating(TypedDict):
    """A player's rating in one game (`Store.stats`): openskill's ordinal, games played and
    won, and the change in their last game."""

    game: str
    identity: str
    name: str
    rating: float
    played: int
    won: int
    change: float


class Standing(TypedDict):
    """A player's night in one game (`Store.standings`): games played and won since, the
    rating's change since and the rating now."""

    game: str
    name: str
    played: int
    won: int
    change: float
    rating: float


class OutdatedRules(ValueError):
    """A saved table whose rules have changed since: replaying it would give another game."""


def default_path() -> Path:
    return data_dir() / "tablegames.db"


class Store:
    """One SQLite database of tables; safe to use from one thread (the event loop's)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        # Owner-only before SQLite opens it: it makes the -wal and -shm files with the same mode.
        for part in ("", "-wal", "-shm"):
            if part == "" or Path(f"{self.path}{part}").exists():
                owner_only_file(Path(f"{self.path}{part}"))
        self.db = sqlite3.connect(self.path, isolation_level=None)  # explicit transactions
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.migrate()

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    @property
    def version(self) -> int:
        (version,) = self.db.execute("PRAGMA user_version").fetchone()
        return int(version)

    def migrate(self, target: int = SCHEMA_VERSION) -> None:
        """Bring the schema up to `target`, one migration per transaction."""
        if self.version > SCHEMA_VERSION:
            raise RuntimeError(f"{self.path} was written by a newer tablegames")
        while self.version < target:
            step = self.version
            with self.transaction() as db:
                for statement in MIGRATIONS[step].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version={step + 1}")

    # -- writing --------------------------------------------------------------------------------
    def create_table(
        self,
        code: str,
        game: str,
        players: int,
        options: dict[str, object],
        kind: str,
        fill_with_bots: str | None = None,
        min_humans: int | None = None,
        owner_seat: int | None = None,
    ) -> int:
        """A new table row; returns its id."""
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO game_tables (code, game, players, options, kind, created, "
                "fill_with_bots, rules_version, min_humans, owner_seat) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    code,
                    game,
                    players,
                    json.dumps(options),
                    kind,
                    time.time(),
                    fill_with_bots,
                    get_game(game).rules_version,
                    min_humans,
                    owner_seat,
                ),
            )
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    def save_seat(self, table_id: int, seat: SavedSeat) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO seats (table_id, seat, name, token_key, bot_level, "
                "identity) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, seat.seat, seat.name, seat.token_key, seat.bot_level, seat.identity),
            )

    def free_seat(self, table_id: int, seat: int) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))

    def start_table(self, table_id: int, seed: int, seats: list[SavedSeat]) -> None:
        """The game begins: record its seed and final seating."""
        with self.transaction() as db:
            db.execute(
                "UPDATE game_tables SET seed = ?, started = ? WHERE id = ?",
                (seed, time.time(), table_id),
            )
            db.executemany(
                "INSERT OR REPLACE INTO seats (table_id, seat, name, token_key, bot_level, "
                "identity) VALUES (?, ?, ?, ?, ?, ?)",
                [(table_id, s.seat, s.name, s.token_key, s.bot_level, s.identity) for s in seats],
            )

    def append_action(
        self,
        table_id: int,
        seq: int,
        seat: int,
        action: Action,
        now: float,
        client_version: int | None = None,
        mover: str | None = None,
    ) -> None:
        """Commit one accepted action (its own transaction) before anyone is told of it;
        `mover` is who made it, as `ratings.py` names movers."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO actions (table_id, seq, seat, action, now, client_version, mover) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table_id, seq, seat, json.dumps(action), now, client_version, mover),
            )

    def saver(
        self, table_id: int, mover: Callable[[Accepted], str] | None = None
    ) -> Callable[[Accepted], None]:
        """A table listener that commits every action it hears of, and the result at the end.

        The table calls it before it tells anyone, so what a player saw is always saved; an
        action's `meta["client_version"]` (the version its client acted on) is kept, for spotting
        repeats, and `mover(accepted)`, who made it (asked at once: who plays a seat is the
        table's to say at that moment). Give it to `Table.on_action`, which returns how to stop
        saving.
        """

        from .table import is_time

        def save(accepted: Accepted) -> None:
            moved = mover is not None and not is_time(accepted.action)  # the clock is nobody
            self.append_action(
                table_id,
                accepted.seq,
                accepted.seat,
                accepted.action,
                accepted.now,
                accepted.meta.get("client_version"),
                mover(accepted) if moved and mover is not None else None,
            )
            if accepted.result is not None:
                self.finish_table(table_id, accepted.result)
                try:
                    self.update_ratings()
                except Exception:  # derived data: a mistake in it must never stop a game
                    log.exception("the ratings were not updated after game %d", table_id)

        return save

    def append_claim(self, table_id: int, said: Claimed) -> None:
        """Commit one claim's record (see `talk.py`; its sentence is made again on loading)."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO talk (table_id, n, after, line, seat, claim, now) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    said["n"],
                    said["after"],
                    said["line"],
                    said["seat"],
                    json.dumps(said["claim"]),
                    said["now"],
                ),
            )

    def talk_saver(self, table_id: int) -> Callable[[Claimed], None]:
        """A claim listener (`Table.on_claim`) that commits every claim it hears of."""
        return lambda said: self.append_claim(table_id, said)

    def finish_table(self, table_id: int, result: Mapping[str, object]) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE game_tables SET finished = ?, result = ? WHERE id = ?",
                (time.time(), json.dumps(result), table_id),
            )

    def delete_table(self, table_id: int) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM game_tables WHERE id = ?", (table_id,))

    # -- names and identity ---------------------------------------------------------------------
    def name_owner(self, name_key: str) -> str | None:
        """The key fingerprint that owns the name `name_key` (see `names.py`), if any."""
        row = self.db.execute(
            "SELECT key_fingerprint FROM names WHERE name_key = ?", (name_key,)
        ).fetchone()
        return None if row is None else str(row[0])

    def claim_name(self, name_key: str, name: str, fingerprint: str) -> bool:
        """Give `name` to the key `fingerprint` unless another key has it; True if it is theirs."""
        now = time.time()
        with self.transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO names (name_key, name, key_fingerprint, claimed, used) "
                "VALUES (?, ?, ?, ?, ?)",
                (name_key, name, fingerprint, now, now),
            )
        return self.name_owner(name_key) == fingerprint

    def name_used(self, name_key: str) -> None:
        """Note that the name's owner came by now (a name unused for long is released)."""
        with self.transaction() as db:
            db.execute("UPDATE names SET used = ? WHERE name_key = ?", (time.time(), name_key))

    def owned_names(self) -> list[tuple[str, str, float]]:
        """Every name a key owns: (name, key fingerprint, last used), most recent first."""
        rows = self.db.execute(
            "SELECT name, key_fingerprint, COALESCE(used, claimed) FROM names ORDER BY 3 DESC"
        )
        return [(str(name), str(key), float(used)) for name, key, used in rows]

    def release_name(self, name_key: str) -> str | None:
        """Free a name for the next key to take; returns it as it was written (None if unowned)."""
        with self.transaction() as db:
            row = db.execute("SELECT name FROM names WHERE name_key = ?", (name_key,)).fetchone()
            db.execute("DELETE FROM names WHERE name_key = ?", (name_key,))
        return None if row is None else str(row[0])

    def release_names_unused_since(self, when: float) -> list[str]:
        """Free every name its key has not used since `when` (a time.time()); returns them."""
        with self.transaction() as db:
            rows = db.execute(
                "SELECT name FROM names WHERE COALESCE(used, claimed) < ?", (when,)
            ).fetchall()
            db.execute("DELETE FROM names WHERE COALESCE(used, claimed) < ?", (when,))
        return [str(name) for (name,) in rows]

    def fact(self, key: str, make: Callable[[], str]) -> str:
        """A value kept in the store under `key`, made by `make()` the first time it is asked."""
        with self.transaction() as db:
            db.execute("INSERT OR IGNORE INTO facts (key, value) VALUES (?, ?)", (key, make()))
            (value,) = db.execute("SELECT value FROM facts WHERE key = ?", (key,)).fetchone()
        return str(value)

    def set_fact(self, key: str, value: str) -> None:
        """Keep `value` under `key` from now on (the host's new join code, say)."""
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO facts (key, value) VALUES (?, ?)", (key, value))

    # -- browser guests -------------------------------------------------------------------------
    def web_guest_let_in(self, guest_id: str, code_given: bool) -> None:
        """The browser guest `guest_id` was let in (having given the join code, or not)."""
        now = time.time()
        with self.transaction() as db:
            # A cookie lasts 30 days (`web_identity.COOKIE_DAYS`): older records open nothing.
            db.execute("DELETE FROM web_guests WHERE let_in < ?", (now - 31 * 86400,))
            db.execute(
                "INSERT OR REPLACE INTO web_guests (guest_id, let_in, code_given) VALUES (?, ?, ?)",
                (guest_id, now, int(code_given)),
            )

    def web_guest(self, guest_id: str) -> bool | None:
        """None if `guest_id` was never let in (or struck out since); else whether they gave
        the join code."""
        row = self.db.execute(
            "SELECT code_given FROM web_guests WHERE guest_id = ?", (guest_id,)
        ).fetchone()
        return None if row is None else bool(row[0])

    def web_guest_struck(self, guest_id: str) -> None:
        """Strike `guest_id` out: no copy of its cookie lets anyone in again."""
        with self.transaction() as db:
            db.execute("DELETE FROM web_guests WHERE guest_id = ?", (guest_id,))

    # -- reading --------------------------------------------------------------------------------
    def load(self, table_id: int) -> SavedTable:
        """The whole table, log included; KeyError if there is none."""
        row = self.db.execute(
            "SELECT id, code, game, players, options, seed, kind, created, started, finished, "
            "result, fill_with_bots, rules_version, min_humans, owner_seat FROM game_tables "
            "WHERE id = ?",
            (table_id,),
        ).fetchone()
        if row is None:
            raise KeyError(f"there is no saved game {table_id}")
        saved = SavedTable(
            id=row[0],
            code=row[1],
            game=row[2],
            players=row[3],
            options=json.loads(row[4]),
            seed=row[5],
            kind=row[6],
            created=row[7],
            started=row[8],
            finished=row[9],
            result=json.loads(row[10]) if row[10] else None,
            fill_with_bots=row[11],
            rules_version=row[12],
            min_humans=row[13],
            owner_seat=row[14],
        )
        saved.seats = [
            SavedSeat(*row)
            for row in self.db.execute(
                "SELECT seat, name, token_key, bot_level, identity FROM seats WHERE table_id = ? "
                "ORDER BY seat",
                (table_id,),
            )
        ]
        for seat, action, now, client_version in self.db.execute(
            "SELECT seat, action, now, client_version FROM actions WHERE table_id = ? ORDER BY seq",
            (table_id,),
        ):
            saved.log.append((seat, json.loads(action), now))
            saved.client_versions.append(client_version)
        saved.talk = [
            {
                "n": n,
                "after": after,
                "line": line,
                "seat": seat,
                "claim": json.loads(claim),
                "now": now,
            }
            for n, after, line, seat, claim, now in self.db.execute(
                "SELECT n, after, line, seat, claim, now FROM talk WHERE table_id = ? ORDER BY n",
                (table_id,),
            )
        ]
        return saved

    def open_tables(self, kind: str) -> list[SavedTable]:
        """Every unfinished table of `kind` ("server" or "local"), oldest first."""
        ids = self.db.execute(
            "SELECT id FROM game_tables WHERE kind = ? AND finished IS NULL ORDER BY id", (kind,)
        ).fetchall()
        return [self.load(table_id) for (table_id,) in ids]

    def history(self, limit: int = 50) -> list[FinishedGame]:
        """Finished games, newest first: id, game, date, players and winners (each seat's
        name), whether the game is rated, and each seat as the ratings read it (`seats`: its
        name, the player it is rated for as `stats` names them, or None, and whether it won).
        Rate what is unrated first (`update_ratings`) for `seats` to say so."""
        rows = self.db.execute(
            "SELECT id, game, finished, result, players FROM game_tables "
            "WHERE finished IS NOT NULL ORDER BY finished DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [self._finished(*row) for row in rows]

    def finished_game(self, code: str) -> FinishedGame | None:
        """The newest finished game at table `code`, as `history` tells it (None: none)."""
        row = self.db.execute(
            "SELECT id, game, finished, result, players FROM game_tables "
            "WHERE code = ? AND finished IS NOT NULL ORDER BY finished DESC LIMIT 1",
            (code,),
        ).fetchone()
        return None if row is None else self._finished(*row)

    def _finished(
        self, table_id: int, game: str, finished: float, result: str, players: int
    ) -> FinishedGame:
        read = _json_or_none(result)
        winners = read.get("winners", []) if isinstance(read, dict) else []
        names = dict(
            self.db.execute("SELECT seat, name FROM seats WHERE table_id = ?", (table_id,))
        )
        rated_as = dict(
            self.db.execute(
                "SELECT seat, ratings.name FROM rating_changes JOIN ratings "
                "ON ratings.game = ? AND ratings.identity = rating_changes.identity "
                "WHERE table_id = ?",
                (game, table_id),
            )
        )
        seats: list[FinishedSeat] = [
            {
                "seat": seat,
                "name": names.get(seat, f"seat {seat + 1}"),
                "rated_as": rated_as.get(seat),
                "won": seat in winners,
            }
            for seat in range(players)
        ]
        return {
            "id": table_id,
            "game": game,
            "finished": finished,
            "players": [seat["name"] for seat in seats],
            "winners": [seat["name"] for seat in seats if seat["won"]],
            "rated": bool(rated_as),
            "seats": seats,
        }

    def record(self, table_id: int) -> SavedTable:
        """A finished game, seed and log included; refused while the game is unfinished."""
        saved = self.load(table_id)
        if saved.finished is None:
            raise PermissionError(f"game {table_id} is not over: its record is sealed")
        return saved

    # -- ratings (derived from the results: see `ratings.py`) -----------------------------------
    def update_ratings(self) -> None:
        """Rate every finished game the ratings have not read yet, in the order the games
        finished; all of them afresh when that order or the games read have changed since (a
        game that finished before one already rated, a rated game deleted). One transaction:
        two processes sharing the store never rate a game twice."""
        with self.transaction() as db:
            new = db.execute(
                "SELECT id, finished FROM game_tables WHERE finished IS NOT NULL "
                "AND id NOT IN (SELECT table_id FROM rated) ORDER BY finished, id"
            ).fetchall()
            last = db.execute(
                "SELECT finished, table_id FROM rated ORDER BY finished DESC, table_id DESC LIMIT 1"
            ).fetchone()
            gone = db.execute(
                "SELECT 1 FROM rated LEFT JOIN game_tables ON game_tables.id = rated.table_id "
                "WHERE game_tables.finished IS NULL OR game_tables.finished != rated.finished "
                "LIMIT 1"
            ).fetchone()
            if gone is not None or (new and last is not None and tuple(new[0]) < tuple(last)):
                self._rate_all(db)
            elif new:
                self._rate(db, [table_id for table_id, _ in new])

    def rebuild_ratings(self) -> None:
        """Forget every rating and rate all finished games again, in the order they finished."""
        with self.transaction() as db:
            self._rate_all(db)

    def _rate_all(self, db: sqlite3.Connection) -> None:
        for table in ("ratings", "rated", "rating_changes"):
            db.execute(f"DELETE FROM {table}")
        finished = db.execute(
            "SELECT id FROM game_tables WHERE finished IS NOT NULL ORDER BY finished, id"
        ).fetchall()
        self._rate(db, [table_id for (table_id,) in finished])

    @staticmethod
    def _rate(db: sqlite3.Connection, table_ids: list[int]) -> None:
        """Add the games `table_ids` to the ratings, in that order (inside a transaction)."""
        from .ratings import Book, Standing, Unreadable, sitters

        book = Book(
            {
                (game, who): Standing(name, mu, sigma, played, won, change)
                for game, who, name, mu, sigma, played, won, change in db.execute(
                    "SELECT game, identity, name, mu, sigma, played, won, change FROM ratings"
                )
            }
        )
        for table_id in table_ids:
            game, players, finished, result, kind = db.execute(
                "SELECT game, players, finished, result, kind FROM game_tables WHERE id = ?",
                (table_id,),
            ).fetchone()
            seated = sitters(_seat_records(db, table_id, players), here=kind == "local")
            try:
                changes = book.add(game, players, seated, _json_or_none(result))
            except Unreadable as why:
                log.warning("game %d (%s) is not rated: %s", table_id, game, why)
                changes = []
            db.execute(
                "INSERT INTO rated (table_id, finished, counted) VALUES (?, ?, ?)",
                (table_id, finished, bool(changes)),
            )
            db.executemany(
                "INSERT INTO rating_changes (table_id, seat, identity, won, rating_before, "
                "rating_after) VALUES (?, ?, ?, ?, ?, ?)",
                [(table_id, c.seat, c.identity, c.won, c.before, c.after) for c in changes],
            )
        db.executemany(
            "INSERT OR REPLACE INTO ratings (game, identity, name, mu, sigma, played, won, "
            "change) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (game, who, s.name, s.mu, s.sigma, s.played, s.won, s.change)
                for (game, who), s in book.standings.items()
            ],
        )

    def stats(self, game: str | None = None) -> list[Rating]:
        """Everyone's rating (openskill's ordinal), games played and won, and the change in
        their last game, per game (rated first if need be), best rating first."""
        self.update_ratings()
        rows = self.db.execute(
            "SELECT game, identity, name, mu - 3 * sigma, played, won, change FROM ratings "
            "WHERE ? IS NULL OR game = ? ORDER BY game, 4 DESC, name",
            (game, game),
        )
        return [
            {
                "game": at,
                "identity": who,
                "name": name,
                "rating": rating,
                "played": played,
                "won": won,
                "change": change,
            }
            for at, who, name, rating, played, won, change in rows
        ]

    def rating_changes(self, table_id: int) -> dict[int, tuple[float, float]]:
        """What a rated game did to each seat's player: seat -> (rating after, change), as the
        results show them beside the seats' names; a person's seat a bot played most of is
        left out (that rating is the bot's, not theirs: `ratings.who_played`)."""
        rows = self.db.execute(
            "SELECT changes.seat, rating_after, rating_after - rating_before "
            "FROM rating_changes AS changes LEFT JOIN seats "
            "ON seats.table_id = changes.table_id AND seats.seat = changes.seat "
            "WHERE changes.table_id = ? AND NOT (changes.identity LIKE ? "
            "AND seats.bot_level IS NULL)",
            (table_id, f"{BOT}%"),
        )
        return {seat: (after, change) for seat, after, change in rows}

    def standings(self, since: float, kind: str = "server") -> list[Standing]:
        """The night's table: everyone who finished a game of `kind` since `since` (a
        time.time()), per game: games played and won since then, the rating's change since
        then and the rating now; best rating first."""
        rows = self.db.execute(
            """
            SELECT night.game, ratings.name, COUNT(*), SUM(night.won), SUM(moved),
                ratings.mu - 3 * ratings.sigma AS rating
            FROM (
                SELECT game_tables.game AS game, identity,
                    MAX(rating_changes.won) AS won, MAX(rating_after - rating_before) AS moved
                FROM rating_changes JOIN game_tables ON game_tables.id = rating_changes.table_id
                WHERE game_tables.finished >= ? AND game_tables.kind = ?
                GROUP BY rating_changes.table_id, identity
            ) AS night
            JOIN ratings ON ratings.game = night.game AND ratings.identity = night.identity
            GROUP BY night.game, night.identity
            ORDER BY night.game, rating DESC, ratings.name
            """,
            (since, kind),
        )
        return [
            {
                "game": game,
                "name": name,
                "played": played,
                "won": won,
                "change": moved,
                "rating": rating,
            }
            for game, name, played, won, moved, rating in rows
        ]


def _seat_records(db: sqlite3.Connection, table_id: int, players: int) -> list[SeatRecord]:
    """Every seat of a table as the ratings read it: its name and bot (a seat with no row was
    freed and never taken), and how many moves each mover made (not the clock's)."""
    from .table import TIME

    rows = {
        seat: (name, bot_level)
        for seat, name, bot_level in db.execute(
            "SELECT seat, name, bot_level FROM seats WHERE table_id = ?", (table_id,)
        )
    }
    moves: dict[int, dict[str | None, int]] = {}
    for seat, mover, count in db.execute(
        "SELECT seat, mover, COUNT(*) FROM actions WHERE table_id = ? "
        "AND json_extract(action, '$.type') IS NOT ? GROUP BY seat, mover",
        (table_id, TIME),
    ):
        moves.setdefault(seat, {})[mover] = count
    return [
        SeatRecord(seat, *rows.get(seat, (None, None)), moves.get(seat, {}))
        for seat in range(players)
    ]


def _json_or_none(text: str | None) -> object:
    """A stored result, or None when it is missing or not JSON (the ratings say so)."""
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None
