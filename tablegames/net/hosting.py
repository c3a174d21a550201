"""A table as the server hosts it: seats with tokens, who is connected, readiness, and bots.

This is the server's game-agnostic bookkeeping, free of sockets: the server calls it with a
`Peer` (anything with `send(message)`), and it answers by sending messages to peers. Each seat
changes state only through the transitions of `seat_life.py`, and what goes with each one
(the bots at the running table, the store, the news told to everyone there) is done in one
place, `HostedTable._apply`: nothing else replaces a seat or seats a bot.
"""

from __future__ import annotations

import enum
import logging
import random
import secrets
import string
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, assert_never

from ..bots import get_bot
from ..names import look_alike_of, looks_like_bot, name_key
from ..ratings import UNPROVEN, browser_player, key_player
from ..rules import Action, Bot, Game, IllegalAction, get_game
from ..rules.contract import Claimed
from ..store import SavedSeat, SavedTable, Store
from ..table import Accepted, Meta, Table
from .chat_log import ChatLog
from .feed import Feed
from .messages import Ack, Farewell, Presence, SeatNews
from .proofs import token_key
from .readiness import Readiness
from .results import Results
from .seat_life import (
    BotPlays,
    BotStops,
    Change,
    Forgotten,
    Kept,
    Life,
    Peer,
    Resends,
    Seat,
    SentAway,
    Told,
    restored,
)
from .seats import Seats
from .spectators import Spectators

log = logging.getLogger("tablegames.host")  # what the host's terminal shows of each table
DROPPED = "dropped out"  # how a seat whose connection went is said to have left


class Stage(enum.IntEnum):
    """Where a table's game stands, in the lobby's order."""

    WAITING = 0  # for players: nobody has been dealt a hand
    PLAYING = 1
    FINISHED = 2

    @classmethod
    def of(cls, table: Table | None) -> Stage:
        """Where the game of a hosted table's running `table` (None: not dealt) stands."""
        if table is None:
            return cls.WAITING
        return cls.FINISHED if table.over else cls.PLAYING


CODE_ALPHABET = "".join(c for c in string.ascii_uppercase if c not in "IO")
TABLE_CHAT_KEPT = 20  # a table's last chat lines, told to whoever sits down (or comes back)


def _saved(seat: Seat) -> SavedSeat:
    return SavedSeat(seat.number, seat.name, seat.token_key, seat.bot_level, seat.identity)


def player_of(peer: Peer) -> str:
    """Who a connection's moves are made by, for the ratings: its proven key (an SSH login's,
    `join`'s), a browser guest's cookie, or nobody proven (`ratings.UNPROVEN`: a client that
    offered no key, an SSH guest without one)."""
    key, holder = getattr(peer, "key", None), getattr(peer, "identity", None)
    if isinstance(key, str):
        return key_player(key)
    if isinstance(holder, str) and holder.startswith("web:"):  # (`WebGuest.holder`)
        return browser_player(holder)
    return UNPROVEN


def _bot(game: str, level: str, seat: int) -> Bot:
    # A bot's own randomness, never the game's: the game's generator must replay exactly.
    return get_bot(game, level, seat, random.Random(secrets.randbits(64)))


def standing_in_words(names: Sequence[str]) -> str:
    """Who a bot plays for until they are ready: `a bot plays for fay until they say they are
    ready (r)`."""
    return f"a bot plays for {' and '.join(names)} until they say they are ready (r)"


def new_code(length: int = 4) -> str:
    """A short table code, e.g. `KXPF` (it names a table; it is no secret)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


@dataclass
class HostedTable:
    """A table on the server: the game, its seats, spectators and start rule.

    Each concern has its own small owner: `seats` (who holds each seat: `Seat` values),
    `spectators` (who watches), `readiness` (who is ready, for the deal or a rematch),
    `chat` (the last lines said here), `results` (the ratings at the end), `feed` (what each
    connection was sent) and `resends` (the actions already applied). This class ties them to
    the running game: each seat's change and what goes with it is done here, in `_apply`.
    """

    code: str
    game: Game
    players: int
    options: dict[str, object] = field(default_factory=dict)
    seed: int | None = None
    fill_with_bots: str | None = None  # level for seats still empty when everyone is ready
    store: Store | None = None
    min_humans: int | None = None  # the game begins once this many are seated and ready
    owner_seat: int | None = None  # whoever holds this seat may start it and give seats away
    creator: str | None = None  # the person who opened it in the lobby (`party.members.person`)
    on_action: Callable[[HostedTable, Accepted], None] | None = None  # the party hears of each
    clock: Callable[[], float] = time.monotonic
    table: Table | None = None
    store_id: int | None = None
    feed: Feed = field(default_factory=Feed)  # what each connection was sent of its view

    def __post_init__(self) -> None:
        self.seats = Seats(self.players)  # changed only by `_apply`
        self.spectators = Spectators(self.feed)
        self.readiness = Readiness(
            self.seats, self.fill_with_bots, self.min_humans, self.owner_seat
        )
        self.resends = Resends()  # the actions already applied, by seat and client version
        self.chat = ChatLog(TABLE_CHAT_KEPT)  # told to whoever sits down
        self.changed_at = self.clock()  # when someone last sat, left, readied... (or it opened)
        if self.store is not None and self.store_id is None:
            self.store_id = self.store.create_table(
                self.code,
                self.game.name,
                self.players,
                self.options,
                "server",
                self.fill_with_bots,
                min_humans=self.min_humans,
                owner_seat=self.owner_seat,
            )
        self.results = Results(
            self.code, self.seats, self.store, self.store_id, lambda: self.broadcast_presence(None)
        )

    @classmethod
    def restore(cls, saved: SavedTable, store: Store, **kwargs: Any) -> HostedTable:
        """A table brought back from the store, its game replayed to the last saved action."""
        hosted = cls(
            code=saved.code,
            game=get_game(saved.game),
            players=saved.players,
            options=saved.options,
            seed=saved.seed,
            fill_with_bots=saved.fill_with_bots,
            min_humans=saved.min_humans,
            owner_seat=saved.owner_seat,
            store=store,
            store_id=saved.id,
            **kwargs,
        )
        now = hosted.clock()
        for row in saved.seats:
            seat = restored(row.seat, row.name, row.token_key, row.bot_level, row.identity, now)
            hosted._apply(Change(seat))
        if saved.started is not None and saved.seed is not None:
            hosted.seed = saved.seed
            hosted._open(saved.seed, saved.log, Seat.resumed, talk=saved.talk)
            for (seat_number, action, _), version in zip(
                saved.log, saved.client_versions, strict=True
            ):
                if version is not None:
                    hosted.resends.remember(seat_number, version, action)
        return hosted

    def _apply(self, change: Change) -> Seat:
        """The one place a seat's life changes: the seat as a transition left it, then what
        goes with it, in order (a bot sits down or stands up at the running table, the store
        keeps or forgets the seat, a connection is sent away, everyone here hears the news)."""
        seat, table = change.seat, self.table
        self.seats.put(seat)
        for effect in change.effects:
            match effect:
                case BotPlays(level=level) if table is not None:
                    table.seat_bot(seat.number, _bot(self.game.name, level, seat.number))
                case BotStops() if table is not None:
                    table.unseat_bot(seat.number)
                case BotPlays() | BotStops():
                    # A seat's bot comes and goes with the running table: the deal seats every bot.
                    raise RuntimeError(f"table {self.code}: a bot moves before the deal")
                case Kept():
                    if self.store is not None and self.store_id is not None:
                        self.store.save_seat(self.store_id, _saved(seat))
                case Forgotten():
                    if self.store is not None and self.store_id is not None:
                        self.store.free_seat(self.store_id, seat.number)
                case SentAway(peer=peer, code=code, text=text):
                    self.feed.forget(peer)
                    peer.send(Farewell(code=code, text=text))
                    peer.close()
                case Told(text=text):
                    self.broadcast_presence(text)
                case _:
                    assert_never(effect)
        return seat

    # -- seats ----------------------------------------------------------------------------------
    def claim(
        self, peer: Peer, seat: int | None, identity: str | None = None, ready: bool = False
    ) -> tuple[int, str]:
        """Give `peer` a free seat (the one asked for, or the first free), `ready` or not;
        returns (seat, token).

        Only before the deal: once the game is on, a seat's hand goes to nobody but the person
        who holds it (its token, or a party login's identity: `Seats.proven`,
        `Seats.for_identity`), so a newcomer may only watch.
        """
        if self.table is not None:
            raise IllegalAction(self.seats.why_no_seat(peer.name))
        self.check_name_free(peer.name, None)
        free = [s for s in self.seats if not s.claimed]
        if seat is not None:
            if not 0 <= seat < self.players:
                raise IllegalAction(f"there is no seat {seat} at this table")
            free = [s for s in free if s.number == seat]
        if not free:
            raise IllegalAction("no free seat at this table")
        token = secrets.token_hex(32)
        chosen = self._apply(free[0].sit(peer, token_key(token), identity, ready))
        return chosen.number, token

    def check_name_free(self, name: str, seat: Seat | None) -> None:
        """Refuse a name someone else at this table already has (case and width ignored), or
        one that looks like it (`Sаra` with a Cyrillic а beside `Sara`), or that a bot takes
        when the game begins ("Bot 2", or a look-alike)."""
        if looks_like_bot(name):
            raise IllegalAction(f"{name} is what the bots are called: join under another name")
        others = [s.name for s in self.seats if s is not seat and (s.human or s.bot_level)]
        others += [peer.name for peer in self.spectators]
        key = name_key(name)
        if any(name_key(other) == key for other in others):
            raise IllegalAction(
                f"someone called {name} is already at this table: join under another name"
            )
        twin = look_alike_of(name, others)  # (a name's scripts were checked at its door)
        if twin is not None:
            raise IllegalAction(
                f"{name} looks like {twin}, who is at this table: join under another name"
            )

    def attach(self, seat: Seat, peer: Peer) -> None:
        """`peer` (re)takes `seat`: a bot standing in steps back; another terminal is told."""
        if getattr(peer, "identity", None) is not None:  # a party login: the same key
            why = "you came back to your seat from another login: this one is closed"
        else:
            why = "your seat was taken by another terminal (it had your seat's token)"
        self._apply(self.seats[seat.number].back(peer, why))

    def watch(self, peer: Peer) -> None:
        """`peer` watches the table: it gets the spectators' view from now on."""
        self.check_name_free(peer.name, None)
        self.spectators.add(peer)
        self.broadcast_presence(f"{peer.name} is watching.")
        if self.table is not None:
            self.spectators.follow(self.table, newcomer=peer)

    def detach(self, peer: Peer, now: float | None = None, gone: str = DROPPED) -> None:
        """`peer` went away (dropped, or to the lobby): its seat is held for it while the game
        is on (away: the takeover clock runs), free again before the deal; spectators are just
        forgotten. `gone` says how they left, for the news ("went back to the lobby")."""
        self.feed.forget(peer)
        if peer in self.spectators:
            self.spectators.remove(peer)
        over = self.table is not None and self.table.over
        for seat in self.seats:
            if seat.peer is peer:
                moment = self.clock() if now is None else now
                self._apply(seat.leave(moment, self.table is not None, over, gone))

    def takeover_due(self, after: float | None) -> float | None:
        """The first moment a bot should stand in for someone away here (None: none is due)."""
        if self.table is None or self.table.over:
            return None
        due = [seat.takeover_due(after) for seat in self.seats]
        return min((moment for moment in due if moment is not None), default=None)

    def take_over(self, now: float, after: float | None, level: str) -> bool:
        """A bot of `level` stands in for each person away `after` seconds or more, until they
        are back (AWAY -> STOOD_IN). True if one did."""
        took = False
        for seat in self.seats:
            due = seat.takeover_due(after)
            if due is not None and due <= now and self.table is not None and not self.table.over:
                self._apply(seat.stand_in(level))
                took = True
        return took

    def hand_to_bot(self, number: int, level: str) -> None:
        """The owner gives seat `number` to a bot for good (its player's token stops working)."""
        seat = self.seats.numbered(number)
        if seat.life is Life.BOT:
            raise IllegalAction(f"a bot already plays seat {number + 1}")
        self._apply(seat.to_bot(level, dealt=self.table is not None))

    def keep_bot(self, number: int, level: str, name: str) -> None:
        """Before a rematch's deal: the bot that played seat `number` (as `name`) plays it
        again."""
        self._apply(self.seats.numbered(number).kept_bot(level, name))

    def free(self, number: int, standin: str = "normal") -> None:
        """The host frees seat `number`: before the deal for someone else; during a game its
        player is sent to the lobby and a bot of level `standin` plays it until they come back
        with their token (STOOD_IN): nobody else ever takes it (and so its hand) mid-game."""
        seat = self.seats.numbered(number)
        if self.table is None and not seat.claimed:
            raise IllegalAction(f"seat {number + 1} is already free")
        if self.table is not None and seat.bot is not None:
            raise IllegalAction(f"a bot already plays seat {number + 1}")
        self._apply(seat.free(self.clock(), self.table is not None, standin))

    def set_ready(self, peer: Peer, ready: bool) -> None:
        seat = self.seats.of(peer)
        if seat is None:
            self.broadcast_presence(None)
        else:
            self._apply(seat.readied(ready))
            log.info("table %s: %s is %sready", self.code, seat.name, "" if ready else "not ")

    # -- the game -------------------------------------------------------------------------------
    def ready_to_start(self) -> bool:
        """True once the game may begin by itself (`Readiness.everyone_ready`), not yet dealt."""
        return self.table is None and self.readiness.everyone_ready()

    def why_not_start(self) -> str | None:
        """Why the host or the owner cannot deal now (None: they can)."""
        if self.table is not None:
            return "the game has already begun"
        if not any(s.human for s in self.seats):
            return "nobody is seated yet"
        return None

    def start(self) -> Table:
        """Deal now: empty seats become bots, and a bot plays for each player not ready until
        they say they are (`play_own_seat`); create the table and tell everyone."""
        unready = self.readiness.unready()
        fill = self.fill_with_bots or "normal"
        seed = self.seed if self.seed is not None else secrets.randbits(63)
        if self.store is not None and self.store_id is not None:
            dealt = [seat.dealt(fill).seat for seat in self.seats]
            self.store.start_table(self.store_id, seed, [_saved(s) for s in dealt])
        news = "The game begins."
        if unready:
            news = f"The game begins; {standing_in_words(unready)}."
        return self._open(seed, [], lambda seat: seat.dealt(fill), news)

    def play_own_seat(self, peer: Peer) -> bool:
        """`peer`, at its seat and now ready, plays it: the bot standing in steps back. True if
        one did."""
        seat = self.seats.of(peer)
        if seat is None or self.table is None or self.table.over or seat.standin is None:
            return False
        self._apply(seat.plays_own())
        return True

    def _open(
        self,
        seed: int,
        log: list[tuple[int, Action, float]],
        seating: Callable[[Seat], Change],
        news: str | None = None,
        talk: Sequence[Claimed] = (),
    ) -> Table:
        """Create the running table (replaying `log`, with its `talk`), seat each seat as
        `seating` says (`Seat.dealt`, `Seat.resumed`: its bots), persistence and subscribers.
        With `news`, everyone there is told it (and who sits where) before their first update:
        a client knows then whether a bot plays its seat."""
        changes = [seating(seat) for seat in self.seats]
        names = [change.seat.name for change in changes]
        table = Table(
            self.game,
            self.players,
            names,
            seed=seed,
            options=dict(self.options),
            log=list(log),
            talk=list(talk),
        )
        self.table = table
        for change in changes:
            self._apply(change)
        if self.store is not None and self.store_id is not None:
            table.on_action(self.store.saver(self.store_id, self.results.mover))
            table.on_claim(self.store.talk_saver(self.store_id))
        if self.on_action is not None:
            listener = self.on_action
            table.on_action(lambda accepted: listener(self, accepted))
        table.on_action(self.results.heard)
        if news is not None:
            self.broadcast_presence(news)
        self.seats.follow(table, self.feed)
        self.spectators.follow(table)
        return table

    def act(self, peer: Peer, version: int, action: Action) -> None:
        """Apply `action` from the seat `peer` holds; one already applied is only answered.

        A client resends its last action after a reconnect, not knowing whether it arrived, and
        may have acted since; any action already applied from the same version is a repeat.
        """
        seat = self.seats.of(peer)
        if seat is None or self.table is None:
            raise IllegalAction("you are not playing at this table")
        if self.resends.applied_before(seat.number, version, action):
            peer.send(Ack(seen=version))
            peer.send(self.feed.message(self.table.update_for(seat.number), peer))
            return
        meta: Meta = {"client_version": version, "by": player_of(peer)}
        self.table.submit(seat.number, action, meta, seen=version)
        self.resends.remember(seat.number, version, action)

    def make_claim(self, peer: Peer, claim: dict[str, object]) -> None:
        """Make a claim for the seat `peer` holds (spectators cannot claim)."""
        seat = self.seats.of(peer)
        if self.table is None:
            raise IllegalAction("the game has not begun")
        if seat is None:
            raise IllegalAction("spectators cannot make claims")
        self.table.say(seat.number, claim)

    # -- telling people -------------------------------------------------------------------------
    def presence(self, text: str | None) -> Presence:
        """Who sits where: names, bots and stand-ins, who is ready or away (and for how long)."""
        return Presence(
            seats=self.seat_news(),
            spectators=len(self.spectators),
            text=text,
            starts=self.readiness.in_words() if self.table is None else "",
        )

    def seat_news(self) -> list[SeatNews]:
        """Every seat as `presence` and the lobby tell it."""
        now = self.clock()
        over = self.table is not None and self.table.over  # nobody is awaited any more
        return [
            SeatNews(
                seat=s.number,
                name=s.name,
                taken=s.claimed,
                connected=s.peer is not None or s.bot_level is not None,
                bot=s.bot_level is not None,
                # Once the game is over, ready is for the rematch: asked for, or a bot.
                ready=(self.readiness.for_rematch(s.number) if over else s.ready)
                or s.bot_level is not None,
                owner=s.number == self.owner_seat,
                away=(
                    int(now - s.away_since)
                    if s.life in (Life.AWAY, Life.STOOD_IN)
                    and s.away_since is not None
                    and not over
                    else None
                ),
                standin=s.standin is not None,
                will_be_bot=(
                    self.fill_with_bots or "normal"
                    if self.table is None and not s.claimed
                    else None
                ),
                rating=self.results.ratings.get(s.number),  # (rating, change) after the game
            )
            for s in self.seats
        ]

    def broadcast_presence(self, text: str | None) -> None:
        """Tell everyone here who sits where now, and `text` (which the host's log keeps)."""
        self.changed_at = self.clock()
        if text is not None:
            log.info("table %s: %s", self.code, text)
        message = self.presence(text)
        for peer in self.peers():
            peer.send(message)

    def peers(self) -> list[Peer]:
        """Everyone here: the connections at the seats, then those watching."""
        return self.seats.peers() + list(self.spectators)
