"""What each message does, free of sockets: who is who, the tables, the lobby and its chat.

The server's plumbing (`server.py`) feeds every checked message from a connection to
`Party.receive`; the party answers through the members' `send`. Identity comes in three
strengths: a name asked for (a plain `join`), a seat token (proves one seat), and a ticket the
party gave a session it started itself (an SSH login: a key, or a guest's name and address).

Names: a name asked for over TCP may not be one a key owns or uses now, nor be or look like a
guest's ("guest-...") or a bot's ("Bot 2"), nor look like a name someone holds (a key owns it,
a login uses it, someone sits at a table under it: `names.look_alike_problem`). A key owns its
name for good once it sits at a table (`NameBook.claim_name`), not by logging in.

What a client sent is repeated to it, and to the host's log, only made `visible`.

Who may come in is `admission.py`'s to say, as at the other doors: the join code, the host's
bans, names kept for the host, and the tables one person and one address may keep going.

Limits a stranger cannot turn against a friend: wrong join codes are counted per address, and
whoever gave the right code is handed a pass that later connections show instead (a reconnect
behind an address someone else made guess is not held back); each person (a key's name, a
party guest's login, or the address of a plain `join`) and each address may have only a few
live tables at once, and a table that waits `table_wait_limit` seconds with nothing happening
closes; refusals are logged summed, and a connection that keeps sending what is refused is
closed.

The clock (`tick`, run by the server) moves seats whose person is away past the takeover time
to a bot standing in, and ends the tables that are no longer live (see `why_ended`). It is
injected, as the store is (`Party(clock=..., wall_clock=...)`): a test moves a `VirtualClock`
on instead of waiting. The host (`close TABLE`: `close_by_hand`) may end one at any time; its
creator (a `close` message) before the deal, or while nobody else holds a seat there: a
creator's powers over other people's seats (start, free, hand to a bot) end at the deal, and
during a game only the host frees a seat (issue 47). Whoever is at a table that ends is told
why and goes to the lobby.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from ..bots import LEVELS
from ..names import GUEST_PREFIX, clean_name, looks_like_bot, name_key
from ..rules import GAMES, IllegalAction, SetupError, get_game
from ..store import OutdatedRules, Store
from ..table import Accepted
from ..text import clean_text, visible
from .admission import TURNED_AWAY, Admission, Visitor, is_loopback, name_problem, reserved
from .guard import AttemptLimiter, RateLimit, RefusalTally, wait_in_words
from .hosting import DROPPED, HostedTable, Stage, new_code, standing_in_words
from .messages import (
    MAX_TEXT,
    Act,
    AskLobby,
    Bye,
    Chat,
    Claim,
    ClientMessage,
    CloseTable,
    Create,
    Error,
    ErrorCode,
    Farewell,
    GiveSeat,
    Hello,
    HostSays,
    Join,
    Leave,
    Lobby,
    Ping,
    Pong,
    Prove,
    Ready,
    Rejoin,
    Rematch,
    Say,
    Seated,
    Standing,
    Start,
    Welcome,
    kind_of,
)
from .proofs import key_fingerprint, new_nonce, proves_key, proves_seat, token_key
from .protocol import PROTOCOL_VERSION
from .seat_life import LOBBY, Peer, Place, Seat, Whereabouts

log = logging.getLogger("tablegames.server")
CHAT_LIMIT = 300
STANDINGS_SHOWN = 200  # rows of the night's standings a lobby message carries at most
#: What each connection may ask only so often: each one tells a whole table, or the lobby, and
#: the host's log (a join/leave loop would otherwise flood them all).
RATE_LIMITED = frozenset(
    {"create", "join", "leave", "ready", "start", "seat", "rematch", "lobby", "close"}
)
#: What a seat proof that proves nothing hears (a replayed or relayed one, a wrong one).
BAD_PROOF = "that seat's proof is not valid here: it answers another connection or server"
PASSES_KEPT = 10_000  # join-code passes remembered (the oldest forgotten first)
LOBBY_CHAT_KEPT = 20  # the lobby's last lines, told to whoever arrives


@dataclass
class PartyConfig:
    """The party's rules; every limit is a setting so tests can shrink them."""

    code: str | None = None  # when set, `hello` must carry it (always with --lan)
    spectator_chat: bool = False  # whether spectators may chat at the tables
    chat_per_second: float = 1.0  # chat lines a connection may send on average...
    chat_burst: int = 5  # ...and at once
    heartbeat: float = 5.0
    max_tables: int = 50
    # Live tables (waiting or playing) one person, and one address, may have at once.
    max_tables_per_person: int = 3
    max_tables_per_address: int = 6
    requests_per_second: float = 5.0  # lobby and seat requests (join, leave, ready...) a
    request_burst: int = 20  # connection may make on average, and at once
    table_wait_limit: float = 1800.0  # a table that waits this long with nothing happening closes
    # A game under way (opened in the lobby) that nobody has been at for this long ends: its
    # slot is not held for people who all left (a player dropped for longer has lost it).
    table_idle_limit: float = 180.0
    # A finished table nobody is at stays this long (the clients' reconnect window): a player
    # whose connection dropped at the results comes back to them and to the rematch.
    finished_grace: float = 30.0
    takeover_after: float | None = None  # seconds before a bot plays for someone away
    takeover_level: str = "normal"


class Member(Peer, Protocol):
    """A connection as the party sees it."""

    address: str
    reached: str  # the address this connection reached the server at (`proofs.endpoint`)
    nonce: str  # its challenge, sent in the welcome
    proving: str | None  # the public key its hello offered, until `prove` proves it
    greeted: bool
    table: HostedTable | None
    identity: str | None  # who a party login is (its name's key, a guest's name@address)
    key: str | None  # the key fingerprint of a party login with one
    chat_limit: RateLimit
    request_limit: RateLimit  # for the messages in RATE_LIMITED
    refusal_limit: RateLimit  # refusals it may earn before it is closed


@dataclass(frozen=True)
class Login:
    """Who a party session proved to be: the name they play under, their key, what their
    seats are held under (`Identity.holder`) and the address they came from."""

    name: str
    key: str | None = None  # a guest has none: their name is only lent
    holder: str | None = None
    address: str = ""


class Party:
    """The tables of one server and what its members may do with them."""

    def __init__(
        self,
        config: PartyConfig,
        store: Store | None,
        started: Callable[[HostedTable], None],
        guard: AttemptLimiter | None = None,
        ended: Callable[[HostedTable], None] = lambda hosted: None,
        clock_changed: Callable[[], None] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self.store = store  # where the tables, names and ratings are kept (None: nowhere)
        self.clock = clock  # what `tick` and the tables' times away and waits go by
        self.started = started  # the server drives a table's bots once its game begins
        self.ended = ended  # ...and stops once the table ends
        self.clock_changed = clock_changed  # something is due sooner: `tick` again
        self.whereabouts = Whereabouts()
        self.lobby_chat: deque[Chat] = deque(maxlen=LOBBY_CHAT_KEPT)
        self.admission = Admission(
            config.code,
            guard or AttemptLimiter(),
            config.max_tables_per_person,
            config.max_tables_per_address,
        )
        self.admission.doors.append(self)
        self.tables: dict[str, HostedTable] = {}
        self.opened_from: dict[str, str] = {}  # table code -> the address that opened it
        self.members: set[Member] = set()
        self.tickets: dict[str, Login] = {}
        self.passes: OrderedDict[bytes, None] = OrderedDict()  # given for a right join code
        self.refusals = RefusalTally(log)
        self.server_id = (
            store.fact("server_id", lambda: secrets.token_hex(16))
            if store is not None
            else secrets.token_hex(16)
        )
        self.opened = wall_clock()  # the night began: its standings count the games since
        self.standings: list[Standing] = []
        if store is not None:
            try:  # the history rated now, not in the middle of the night's first game's end
                store.update_ratings()
            except Exception:  # derived data: a mistake in it must never stop the party
                log.exception("the ratings were not brought up to date")

    @property
    def guard(self) -> AttemptLimiter:
        """Wrong join codes per address, at every door of the party (`Admission.guard`)."""
        return self.admission.guard

    @guard.setter
    def guard(self, guard: AttemptLimiter) -> None:
        self.admission.guard = guard

    # -- tables -----------------------------------------------------------------------------------
    def add_table(
        self,
        game: str,
        players: int,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        fill_with_bots: str | None = None,
        code: str | None = None,
        min_humans: int | None = None,
        owner_seat: int | None = None,
        creator: str | None = None,
    ) -> HostedTable:
        """Open a table for `game`; players join it by its code. `creator` is the person who
        opened it from the lobby (see `person`)."""
        info = get_game(game)
        if not info.min_players <= players <= info.max_players:
            raise ValueError(f"{info.title} takes {info.min_players}–{info.max_players} players")
        code = code or new_code()
        while code in self.tables:
            code = new_code()
        hosted = HostedTable(
            code=code,
            game=info,
            players=players,
            options=dict(options or {}),
            seed=seed,
            fill_with_bots=fill_with_bots,
            min_humans=min_humans,
            owner_seat=owner_seat,
            on_action=self._table_action,
            store=self.store,
            creator=creator,
            clock=self.clock,
        )
        self.tables[code] = hosted
        self.lobby_changed()
        return hosted

    # -- the clock ---------------------------------------------------------------------------------
    def tick(self, now: float | None = None) -> float | None:
        """Do what the clock decides at `now`: a bot stands in for each person away past the
        takeover time, and tables no longer live end. Returns when a takeover is next due (None:
        none; the server also ticks every fraction of a heartbeat)."""
        now = self.clock() if now is None else now
        config = self.config
        took = [
            hosted.take_over(now, config.takeover_after, config.takeover_level)
            for hosted in list(self.tables.values())
        ]
        if any(took):
            self.lobby_changed()
        self.expire_tables(now)
        due = [hosted.takeover_due(config.takeover_after) for hosted in self.tables.values()]
        return min((moment for moment in due if moment is not None), default=None)

    def why_ended(self, hosted: HostedTable, now: float) -> str | None:
        """Why `hosted` is no longer live (None: it is), in words for whoever is still there.

        A table is live while it waits for players (until `table_wait_limit` passes with
        nothing happening), while a game is under way and someone is at it or was within
        `table_idle_limit` (a table opened with `host` waits for its players whatever), and
        once finished, while anyone is still at it and for `finished_grace` after ("" ends it
        quietly: nobody is there; one who went back to the lobby is not waited for: `goodbye`).
        """
        quiet = now - hosted.changed_at
        if hosted.table is None:
            if quiet < self.config.table_wait_limit:
                return None
            return (
                f"Table {hosted.code} waited {wait_in_words(self.config.table_wait_limit)} "
                "without starting and was closed: open a new one when everyone is here."
            )
        if hosted.peers():
            return None
        if hosted.table.over:
            return "" if quiet >= self.config.finished_grace else None
        limit = self.config.table_idle_limit
        if hosted.owner_seat is None or quiet < limit:
            return None
        return f"Nobody was at table {hosted.code} for {wait_in_words(limit)}: it ended."

    def expire_tables(self, now: float | None = None) -> list[str]:
        """End the tables that are no longer live now (`why_ended`); returns their codes."""
        now = self.clock() if now is None else now
        ended = []
        for hosted in list(self.tables.values()):
            why = self.why_ended(hosted, now)
            if why is not None:
                self.close_table(hosted, why)
                ended.append(hosted.code)
        return ended

    def close_table(self, hosted: HostedTable, why: str) -> None:
        """End `hosted` now: whoever is there is told `why` and goes to the lobby; an
        unfinished game is forgotten (a finished one stays in the history)."""
        if self.tables.get(hosted.code) is not hosted:
            return
        del self.tables[hosted.code]
        self.ended(hosted)
        for peer in hosted.peers():
            member: Member = peer  # type: ignore[assignment]
            member.table = None  # in the lobby: `lobby_changed` tells it what the tables are now
            if why:
                member.send(Error(code="table-closed", text=why))
            self._earlier_lobby_chat(member)
        self.whereabouts.table_closed(hosted.code)
        if (
            self.store is not None
            and hosted.store_id is not None
            and hosted.stage() is not Stage.FINISHED
        ):
            self.store.delete_table(hosted.store_id)
        if why:
            log.info("table %s closed: %s", hosted.code, why)
        self.lobby_changed()

    def close_by_hand(self, code: str, by: str | None = None) -> str:
        """The host (`by` None) or the table's creator (their name) ends table `code` now;
        returns what was said to whoever was there."""
        hosted = self.table(code)
        who = "The host" if by is None else by
        why = f"{who} closed table {hosted.code}."
        self.close_table(hosted, why)
        return why

    # -- the host's hand --------------------------------------------------------------------------
    def send_away(self, person: str, why: str) -> Visitor:
        """End the connections of the person whose name key is `person` (the host's `kick`
        and `ban`), each told `why`; their seat at a game under way goes to a bot for good (one
        before the deal is free again). Returns their keys, logins and addresses."""
        found = Visitor(person)
        for member in [m for m in self.members if name_key(m.name) == person]:
            found.keys |= {member.key} if member.key is not None else set()
            found.holders |= {member.identity} if member.identity is not None else set()
            found.addresses.add(member.address)
            found.sessions += 1
            member.send(Farewell(code="sent-away", text=why))
            self.goodbye(member)
            member.close()
        for hosted in list(self.tables.values()):
            playing = hosted.table is not None and not hosted.table.over
            for seat in hosted.seats:
                theirs = name_key(seat.name) == person or seat.identity in found.holders
                if playing and seat.human and theirs:
                    hosted.hand_to_bot(seat.number, self.config.takeover_level)
                    found.tables.append(hosted.code)
        self.lobby_changed()
        return found

    def announce(self, text: str) -> int:
        """The host says `text` to everyone here, as the host (`HostSays`: no guest can send
        one); returns to how many."""
        line = HostSays(text=clean_text(text, CHAT_LIMIT))
        for member in self.members:
            member.send(line)
        return len(self.members)

    def restore_tables(self) -> list[HostedTable]:
        """Bring back every unfinished table from the store (skipping ones under other rules)."""
        if self.store is None:
            return []
        restored = []
        for saved in self.store.open_tables("server"):
            try:
                saved.check_rules()
            except OutdatedRules as problem:
                log.warning("not restoring table %s: %s", saved.code, problem)
                continue
            hosted = HostedTable.restore(
                saved, self.store, on_action=self._table_action, clock=self.clock
            )
            self.tables[hosted.code] = hosted
            restored.append(hosted)
        return restored

    def _table_action(self, hosted: HostedTable, accepted: Accepted) -> None:
        """An action at one of the tables (saved, and rated at the end, before this hears of
        it): a game's end changes the night's standings."""
        if accepted.result is not None:
            self.standings = self.night_standings()
            self.lobby_changed()

    def night_standings(self) -> list[Standing]:
        """The night's table: per game, everyone who finished a game at this server's tables
        since it started, with their games, wins and ratings (`Store.standings`)."""
        if self.store is None:
            return []
        try:
            rows = self.store.standings(self.opened)[:STANDINGS_SHOWN]
        except Exception:  # derived data: a mistake in it must never stop the party
            log.exception("the night's standings could not be read")
            return []
        return [Standing(**{**row, "name": clean_name(row["name"])}) for row in rows]

    def table(self, code: str) -> HostedTable:
        hosted = self.tables.get(code.upper())
        if hosted is None:
            raise IllegalAction(self._no_table(code))
        return hosted

    def _no_table(self, code: str) -> str:
        """Why there is no table `code` now: how its game ended, when the store knows (a player
        away for its last move, or back after the host restarted, hears the result)."""
        ended = self.store.finished_game(code.upper()) if self.store is not None else None
        if ended is None:
            return f"there is no table {code}"
        winners = " and ".join(ended["winners"]) or "nobody"
        return f"the game at table {code.upper()} is over: {winners} won"

    def start(self, hosted: HostedTable) -> None:
        """Deal at `hosted` now (the host's or the owner's say-so, or everyone ready)."""
        hosted.start()
        self.started(hosted)
        self.lobby_changed()

    def start_by_hand(self, code: str) -> str:
        """The host or the table's owner deals now: empty seats become bots, and a bot plays
        for whoever is not ready until they say they are. Returns what happens, in words."""
        hosted = self.table(code)
        why = hosted.why_not_start()
        if why is not None:
            raise IllegalAction(f"cannot start table {hosted.code}: {why}")
        unready = hosted.unready()
        self.start(hosted)
        return f"the game begins; {standing_in_words(unready)}" if unready else "the game begins"

    # -- identity ---------------------------------------------------------------------------------
    def ticket_for(self, login: Login) -> str:
        """A secret a session the party started passes in its `hello` to be `login`."""
        ticket = secrets.token_urlsafe(32)
        self.tickets[ticket] = login
        return ticket

    def revoke(self, ticket: str) -> None:
        self.tickets.pop(ticket, None)

    # -- messages ---------------------------------------------------------------------------------
    def receive(self, member: Member, message: ClientMessage) -> None:
        """Do what `message` asks; a refusal is an `error` to `member` (sent here)."""
        kind = kind_of(message)  # (the protocol layer has seen to it that hello comes first)
        handler: Callable[[Member, Any], None] = getattr(self, f"_on_{kind}")
        if member.proving is not None and kind not in ("prove", "ping", "pong", "bye"):
            self._refuse(member, "prove-first", "prove your key first: update tablegames", True)
            return
        try:
            if kind in RATE_LIMITED and not member.request_limit.allow():
                raise IllegalAction("too many requests at once: wait a moment")
            handler(member, message)
        except IllegalAction as refusal:
            self.refused(member, kind, str(refusal))

    def refused(self, member: Member, kind: str, why: str, code: ErrorCode = "illegal") -> None:
        """Tell `member` why its `kind` message was refused; log it (summed); a connection that
        keeps earning refusals (a flood) is closed."""
        why = visible(why)[:MAX_TEXT]  # it may repeat what was sent: a table id, a game's name
        self.refusals.refused(
            f"{kind} messages", member.address, "refused %s from %s: %s", kind, member.name, why
        )
        member.send(Error(code=code, text=why))
        if not member.refusal_limit.allow():
            member.send(Error(code="flood", text="too many refused messages: goodbye"))
            self.refusals.refused(
                "connections (floods)", member.address, "closing %s: a flood", member.name
            )
            member.close()

    def goodbye(self, member: Member, now: float | None = None, gone: str = DROPPED) -> None:
        """`member`'s connection is gone (or, `gone` says, it went back to the lobby): a seat
        it held at a game under way is away from now (the takeover clock runs)."""
        self.members.discard(member)
        hosted = member.table
        if hosted is not None:
            hosted.detach(member, now, gone)
            member.table = None
            self.clock_changed()
            if not hosted.peers() and self._forgettable(hosted, dropped=gone == DROPPED):
                del self.tables[hosted.code]
                if (
                    hosted.stage() is Stage.WAITING
                    and self.store is not None
                    and hosted.store_id is not None
                ):
                    self.store.delete_table(hosted.store_id)
            self.lobby_changed()

    @staticmethod
    def _forgettable(hosted: HostedTable, dropped: bool) -> bool:
        """A table nobody is at that the lobby can do without: a finished one (it stays in the
        history) its last player left (one who `dropped` out is waited for: `why_ended`), or
        one opened in the lobby whose players all left before it began."""
        if hosted.stage() is Stage.FINISHED:
            return not dropped
        return (
            hosted.stage() is Stage.WAITING
            and hosted.owner_seat is not None
            and not any(seat.human for seat in hosted.seats)
        )

    def _refuse(self, member: Member, code: ErrorCode, text: str, close: bool = False) -> None:
        member.send(Error(code=code, text=text))
        if close:
            member.close()

    def _on_hello(self, member: Member, message: Hello) -> None:
        if member.greeted:
            raise IllegalAction("you already said hello")
        if message.version != PROTOCOL_VERSION:
            text = f"this server speaks version {PROTOCOL_VERSION}: update tablegames"
            self._refuse(member, "version", text, close=True)
            return
        ticket = message.ticket
        # A ticket is for the session program the party started on this machine: from
        # anywhere else it was stolen, and it proves nothing.
        login = self.tickets.get(ticket) if ticket and is_loopback(member.address) else None
        if ticket and login is None:
            self._refuse(member, "bad-ticket", "that session is over: log in again", close=True)
            return
        if login is None and not self._code_accepted(member, message.code, message.code_pass):
            return
        if login is not None:
            member.name, member.identity, member.key = login.name, login.holder, login.key
            member.address = login.address or member.address
        offered = message.key if login is None else None  # `join`'s key, to prove after this
        fingerprint = key_fingerprint(offered) if offered is not None else None
        if offered is not None and fingerprint is None:
            text = "that is not a key this server can check: update tablegames"
            self._refuse(member, "bad-key", text, close=True)
            return
        admission = self.admission
        if admission.turned_away(member.address, member.key or fingerprint, member.identity):
            self._refuse(member, "banned", TURNED_AWAY, close=True)
            return
        if login is None:
            member.name = clean_name(message.name) or "guest"
            why = self.why_not_name(member.name, fingerprint)
            if why is not None:
                self._refuse(member, "name-taken", why, close=True)
                return
        member.greeted = True
        self.members.add(member)
        given = None
        if admission.code is not None and login is None:
            given = self._pass_for(message.code_pass)
        member.nonce, member.proving = new_nonce(), offered
        member.send(
            Welcome(
                version=PROTOCOL_VERSION,
                server="tablegames",
                heartbeat=self.config.heartbeat,
                server_id=self.server_id,
                name=member.name,
                nonce=member.nonce,
                code_pass=given,
            )
        )
        if member.proving is None:  # (else once `prove` proves the key)
            self._arrive(member)

    def _arrive(self, member: Member) -> None:
        """A member just let in: where they were, or the lobby (and what was said there before
        they came)."""
        if member.identity is not None and self._go_back(member, member.identity):
            return
        self._earlier_lobby_chat(member)
        member.send(self.lobby_message())

    def _earlier_lobby_chat(self, member: Member) -> None:
        """Tell `member`, arriving in the lobby, what was said there before they came."""
        for line in self.lobby_chat:
            member.send(msgspec.structs.replace(line, earlier=True))

    def _on_prove(self, member: Member, message: Prove) -> None:
        """`join`'s key answers this connection's challenge: its name is owned like an SSH
        key's from now on (a proven key is a login: see `person`, `_own_name`)."""
        offered, member.proving = member.proving, None
        if offered is None:
            raise IllegalAction("there is no key to prove on this connection")
        fingerprint = key_fingerprint(offered)
        proven = proves_key(
            offered, message.signature, member.nonce, self.server_id, member.reached
        )
        why = self.why_not_name(member.name, fingerprint) if proven else None
        if not proven or why is not None or fingerprint is None:
            text = why or "that key's answer was not made for this connection: update tablegames"
            self._refuse(member, "bad-proof", text, close=True)
            return
        member.key, member.identity = fingerprint, name_key(member.name)
        self._arrive(member)

    def why_not_name(self, name: str, key: str | None = None) -> str | None:
        """Why `name`, asked for over TCP (with the key `key`, to be proven), cannot be had
        (None: it can)."""
        key_of_name = name_key(name)
        if reserved(name):
            return f"{name_problem(name)}: choose another name (--name)"
        if key_of_name.startswith(GUEST_PREFIX):
            return f"names starting {GUEST_PREFIX} are for SSH guests: choose another name (--name)"
        if looks_like_bot(name):
            return f"{name} is a bot's name at the tables: choose another name (--name)"
        owner = self.store.name_owner(key_of_name) if self.store is not None else None
        users = {other.key for other in self.members if other.identity == key_of_name}
        if (owner is not None and owner != key) or users - {key}:
            return (
                f"the name {name} belongs to a player who logs in with a key: choose another "
                "name (--name)"
            )
        held = self.held_names()
        if any(name_key(other) == key_of_name for other in held):
            return None  # someone's own name (a seat's, say): the tables' own rules apply
        problem = name_problem(name, held)
        if problem is not None:
            return f"{problem}: choose another name (--name)"
        return None

    def held_names(self) -> list[str]:
        """The names someone holds: owned by a key, used by a party login, or at a table."""
        owned = [name for name, _, _ in self.store.owned_names()] if self.store else []
        logins = [member.name for member in self.members if member.identity is not None]
        seated = [peer.name for hosted in self.tables.values() for peer in hosted.peers()]
        seats = [s.name for hosted in self.tables.values() for s in hosted.seats if s.human]
        return owned + logins + seated + seats

    def _pass_for(self, shown: str | None) -> str:
        """The pass a connection that gave the join code (or a pass) shows next time."""
        if shown is not None and self._valid_pass(shown):
            self.passes.move_to_end(token_key(shown))
            return shown
        given = secrets.token_urlsafe(24)
        self.passes[token_key(given)] = None
        while len(self.passes) > PASSES_KEPT:
            self.passes.popitem(last=False)
        return given

    def _valid_pass(self, shown: str) -> bool:
        # Looked up by its SHA-256, as seat tokens are: the lookup's time says nothing of it.
        return token_key(shown) in self.passes

    def _code_accepted(self, member: Member, given: str | None, shown: str | None = None) -> bool:
        """Check the party's join code, holding back an address that keeps guessing; a pass
        from an earlier right code lets its holder in without it, held back or not."""
        admission = self.admission
        if admission.code is None:
            return True
        if shown is not None and self._valid_pass(shown):
            return True
        wait = admission.held_back(member.address)
        if wait > 0:
            self._refuse(
                member,
                "held-back",
                f"too many wrong join codes from your address: try again in {wait_in_words(wait)}",
                close=True,
            )
            return False
        if not given:
            text = "this table needs a join code: add --code CODE"
            self._refuse(member, "need-code", text, close=True)
            return False
        if not admission.try_code(member.address, given):
            self.refusals.refused(
                "wrong join codes",
                member.address,
                "wrong join code from %s (%d wrong so far)",
                member.address,
                self.guard.failures(member.address),
            )
            self._refuse(member, "bad-code", "wrong join code", close=True)
            return False
        return True

    def _go_back(self, member: Member, identity: str) -> bool:
        """A party login arriving goes back where it was last (`Whereabouts`): its seat at the
        table it was at (or that table, to watch), or the lobby. Without a record (the server
        restarted) it goes back to a seat it holds at a game under way, the newest table's.
        True if it was seated (or sat down to watch) here."""
        place = self.whereabouts.last(identity)
        if place is None:
            held = [
                (hosted, seat)
                for hosted in self.tables.values()
                if hosted.table is None or not hosted.table.over
                for seat in [hosted.seat_for_identity(identity)]
                if seat is not None
            ]
            if held:
                self._take_back(member, *held[-1])
                return True
            return False
        hosted = self.tables.get(place.code) if place.code is not None else None
        if hosted is None or (hosted.table is not None and hosted.table.over):
            return False
        seat = hosted.seat_for_identity(identity)
        if seat is not None:
            self._take_back(member, hosted, seat)
            return True
        if place.watching:
            with contextlib.suppress(IllegalAction):
                self._watch(member, hosted)
                return True
        return False

    def _on_rejoin(self, member: Member, message: Rejoin) -> None:
        if member.table is not None:
            raise IllegalAction("you are already at a table")
        hosted = self.tables.get(message.table.upper())
        seat = self._proven_seat(member, hosted, message.proof) if hosted is not None else None
        if hosted is None or seat is None:
            self._refuse(member, "bad-token", BAD_PROOF)
            return
        self._take_back(member, hosted, seat)

    def _take_back(self, member: Member, hosted: HostedTable, seat: Seat) -> None:
        log.info("%s takes seat %d of table %s back", seat.name, seat.number + 1, hosted.code)
        member.name = seat.name or member.name
        self._sit(member, hosted, seat.number, token=None)
        hosted.attach(seat, member)
        if hosted.table is not None:
            member.send(hosted.update_message(hosted.table.update_for(seat.number), member))

    def _proven_seat(self, member: Member, hosted: HostedTable, proof: str) -> Seat | None:
        """The seat at `hosted` whose token `proof` answers this connection's challenge with
        (`proofs`): made for this nonce, this server and the address this socket was reached
        at, so what a listener or a look-alike server collected proves nothing here."""
        nonce, reached = member.nonce, member.reached
        return hosted.seat_proven(
            lambda key: proves_seat(key, proof, nonce, self.server_id, reached, hosted.code)
        )

    def _on_lobby(self, member: Member, message: AskLobby) -> None:
        member.send(self.lobby_message())

    def lobby_message(self) -> Lobby:
        """The tables: waiting for players first, then playing, then finished."""
        tables = sorted(self.tables.values(), key=HostedTable.stage)
        return Lobby(tables=[t.summary() for t in tables], standings=self.standings)

    def lobby_changed(self) -> None:
        """Tell everyone in the lobby (greeted, at no table) what the tables are now."""
        lobby = [m for m in self.members if m.table is None]
        if lobby:
            message = self.lobby_message()
            for member in lobby:
                member.send(message)

    def _on_create(self, member: Member, message: Create) -> None:
        if member.table is not None:
            raise IllegalAction("leave your table first")
        if len([t for t in self.tables.values() if t.table is None or not t.table.over]) >= (
            self.config.max_tables
        ):
            raise IllegalAction("this server has as many tables as it takes: join one")
        game, players, bots, humans = message.game, message.players, message.bots, message.humans
        if game not in GAMES:
            raise IllegalAction(f"there is no game called {game}")
        if bots is not None and bots not in LEVELS:
            raise IllegalAction(f"bots are {', '.join(LEVELS)}, not {bots}")
        try:
            # Only the game's declared options (`Game.chosen`): never a stacked deal, a role...
            options = get_game(game).chosen(message.options)
            get_game(game).new(players, 0, **options)  # refuse impossible tables up front
        except (SetupError, TypeError, ValueError) as problem:
            raise IllegalAction(f"cannot set up that table: {problem}") from None
        if humans is not None and not 1 <= humans <= players:
            raise IllegalAction(f"humans must be between 1 and {players}")
        person = self.person(member)
        self.opened_from = {c: a for c, a in self.opened_from.items() if c in self.tables}
        live = [t for t in self.tables.values() if t.table is None or not t.table.over]
        mine = [t.code for t in live if t.creator == person]
        here = [t.code for t in live if self.opened_from.get(t.code) == member.address]
        too_many = self.admission.tables_problem(mine, here, member.address)
        if too_many is not None:
            raise IllegalAction(too_many)
        hosted = self.add_table(
            game,
            players,
            options,
            fill_with_bots=bots,
            min_humans=humans,
            owner_seat=0,
            creator=person,
        )
        self.opened_from[hosted.code] = member.address
        log.info("%s opens table %s (%s)", member.name, hosted.code, hosted.game.title)
        self._claim(member, hosted, 0)

    def _on_join(self, member: Member, message: Join) -> None:
        if member.table is not None:
            raise IllegalAction("you are already at a table")
        hosted = self.table(message.table)
        # A seat this person holds here (they went back to the lobby) is theirs again: proven
        # by their login, or by their seat's token's answer to this connection's challenge.
        proof = message.proof
        seat = self._proven_seat(member, hosted, proof) if proof is not None else None
        if seat is None and member.identity is not None:
            seat = hosted.seat_for_identity(member.identity)
        if seat is not None:
            self._take_back(member, hosted, seat)
            return
        if message.spectate:
            self._watch(member, hosted)
            return
        self._claim(member, hosted, message.seat)

    def _watch(self, member: Member, hosted: HostedTable) -> None:
        hosted.check_name_free(member.name, None)
        self._sit(member, hosted, None, None)  # first: the views that follow are this table's
        hosted.watch(member)
        if hosted.table is not None:
            member.send(hosted.presence(None))
        self.lobby_changed()

    @staticmethod
    def person(member: Member) -> str:
        """Who a member is, for the limits per person: a key's name, a party guest's login
        (a name from an address, a browser), else an address (a plain `join` proves nothing
        else)."""
        if member.key is not None:
            return f"key {member.identity}"
        if member.identity is not None:
            return f"guest {member.identity}"
        return f"address {member.address}"

    def _own_name(self, member: Member) -> None:
        """A key that sat down owns its name from now on (not before: a login alone, or a
        refused command, takes nobody's name)."""
        if member.key is None or member.identity is None or self.store is None:
            return
        if not self.store.claim_name(member.identity, member.name, member.key):
            # The SSH door lets one key at a time use a name, so another cannot own it now.
            log.warning("%s sat down under a name another key owns", member.name)

    def _claim(self, member: Member, hosted: HostedTable, seat: int | None) -> None:
        number, token = hosted.claim(member, seat, member.identity)
        self._own_name(member)
        self._sit(member, hosted, number, token)
        member.send(hosted.presence(None))
        self.lobby_changed()

    def _sit(
        self, member: Member, hosted: HostedTable, seat: int | None, token: str | None
    ) -> None:
        member.table = hosted
        self.whereabouts.went(member.identity, Place(hosted.code, watching=seat is None))
        member.send(
            Seated(
                table=hosted.code,
                game=hosted.game.name,
                title=hosted.game.title,
                seat=seat,
                token=token,
                names=[s.name for s in hosted.seats],
                owner=seat is not None and seat == hosted.owner_seat,
                dealt=hosted.table is not None,
            )
        )
        hosted.earlier_chat(member)

    def _on_ready(self, member: Member, message: Ready) -> None:
        hosted = member.table
        if hosted is None or hosted.seat_of(member) is None:
            raise IllegalAction("take a seat first")
        if message.ready and hosted.play_own_seat(member):  # a bot played it since the deal
            self.lobby_changed()
            return
        hosted.set_ready(member, message.ready)
        if hosted.ready_to_start():
            self.start(hosted)

    def _on_start(self, member: Member, message: Start) -> None:
        hosted = self._owned(member)
        hosted.set_ready(member, True)
        self.start_by_hand(hosted.code)

    def _on_seat(self, member: Member, message: GiveSeat) -> None:
        hosted = self._owned(member)
        number, to = message.seat, message.to
        if hosted.table is not None:  # a creator's powers end at the deal (issue 47)
            raise IllegalAction("the game has begun: only the host can change a seat now")
        if number == hosted.owner_seat:
            raise IllegalAction("that is your own seat")
        self.give_seat(hosted.code, number, to)

    def give_seat(self, code: str, number: int, to: str) -> None:
        """Seat `number` of table `code` to a bot of level `to`, or "free": before the deal for
        someone else; during a game a bot plays it until its own player comes back to it."""
        hosted = self.table(code)
        if 0 <= number < hosted.players:  # whoever held it, logging in again, is in the lobby
            self.whereabouts.left(hosted.seats[number].identity, hosted.code)
        if to == "free":
            hosted.free(number)
        elif to in LEVELS or to == "bot":
            hosted.hand_to_bot(number, "normal" if to == "bot" else to)
        else:
            raise IllegalAction(f"a seat goes to a bot ({', '.join(LEVELS)}) or is freed")
        self.lobby_changed()

    def _owned(self, member: Member) -> HostedTable:
        hosted = member.table
        if hosted is None or not hosted.is_owner(member):
            raise IllegalAction("only the table's creator can do that")
        return hosted

    def _on_leave(self, member: Member, message: Leave) -> None:
        if member.table is None:
            raise IllegalAction("you are not at a table")
        self._to_lobby(member)

    def _to_lobby(self, member: Member) -> None:
        """`member` leaves its table for the lobby: its seat at a game under way is away (held;
        the takeover clock runs), and the lobby is where its next login comes back to."""
        self.goodbye(member, gone="went back to the lobby")
        self.members.add(member)
        self.whereabouts.went(member.identity, LOBBY)
        self._earlier_lobby_chat(member)
        member.send(self.lobby_message())

    def _on_close(self, member: Member, message: CloseTable) -> None:
        hosted = self.table(message.table)
        if not self._is_owner(member, hosted):
            raise IllegalAction("only the table's creator can close it")
        others = [s for s in hosted.seats if s.human and s.number != hosted.owner_seat]
        if (
            hosted.stage() is Stage.PLAYING and others
        ):  # a creator's powers end at the deal (issue 47)
            raise IllegalAction("friends are playing at this table: only the host can end it now")
        self.close_by_hand(hosted.code, member.name)

    @staticmethod
    def _is_owner(member: Member, hosted: HostedTable) -> bool:
        """True if `member` holds the owner's seat: at it now, or (a party login) away from it."""
        if hosted.owner_seat is None:
            return False
        seat = hosted.seats[hosted.owner_seat]
        if seat.peer is member:
            return True
        return member.identity is not None and seat.human and seat.identity == member.identity

    def _on_rematch(self, member: Member, message: Rematch) -> None:
        hosted = member.table
        seat = hosted.seat_of(member) if hosted is not None else None
        if hosted is None or seat is None or hosted.table is None or not hosted.table.over:
            raise IllegalAction("a rematch is for players at a finished table")
        hosted.rematch_votes.add(seat.number)
        humans = [s for s in hosted.seats if s.human and s.peer is not None]
        waiting = [s.name for s in humans if s.number not in hosted.rematch_votes]
        if waiting:
            wanted = f"{seat.name} wants a rematch (waiting for {', '.join(waiting)})."
            hosted.broadcast_presence(wanted)
            return
        self._rematch(hosted)

    def _rematch(self, old: HostedTable) -> None:
        """The same seats at a new table, dealt at once; everyone there moves with them."""
        new = self.add_table(
            old.game.name,
            old.players,
            old.options,
            fill_with_bots=old.fill_with_bots,
            min_humans=old.min_humans,
            owner_seat=old.owner_seat,
            creator=old.creator,  # (a rematch counts against its table's opener as the first)
        )
        new.chat.extend(old.chat)  # the same people: what they said goes on with them
        if old.code in self.opened_from:
            self.opened_from[new.code] = self.opened_from[old.code]
        movers = [(s, s.peer) for s in old.seats if s.human and s.peer is not None]
        for seat, peer in movers:
            assert peer is not None
            old.detach(peer)
            number, token = new.claim(peer, seat.number, seat.identity, ready=True)
            self._sit(peer, new, number, token)  # type: ignore[arg-type]
        for seat in old.seats:
            if seat.bot_level is not None and not new.seats[seat.number].claimed:
                new.keep_bot(seat.number, seat.bot_level, seat.name)
        for watcher in list(old.spectators):  # the spectators follow the game to its new table
            old.detach(watcher)
            self._sit(watcher, new, None, None)  # type: ignore[arg-type]
            new.watch(watcher)
        log.info("table %s: a rematch at table %s", old.code, new.code)
        if not old.peers():
            del self.tables[old.code]  # the finished game stays in the history
        self.start(new)

    def _on_action(self, member: Member, message: Act) -> None:
        hosted = member.table
        if hosted is None:
            raise IllegalAction("you are not at a table")
        hosted.act(member, message.seen, message.action)

    def _on_chat(self, member: Member, message: Say) -> None:
        hosted = member.table
        seat = hosted.seat_of(member) if hosted is not None else None
        if hosted is not None and not hosted.game.chat:
            raise IllegalAction(f"{hosted.game.title} has no chat: use gestures")
        if hosted is not None and seat is None and not self.config.spectator_chat:
            raise IllegalAction("spectators may not chat at this table")
        if hosted is not None and seat is not None and hosted.table is not None:
            silenced = hosted.table.may_talk(seat.number)  # the game's silences hold for chat too
            if silenced is not None:
                raise IllegalAction(silenced)
        if not member.chat_limit.allow():
            raise IllegalAction("you are chatting too fast: that line was not sent")
        text = clean_text(message.text, CHAT_LIMIT)
        if not text:
            return
        line = Chat(
            name=member.name,
            seat=None if seat is None else seat.number,
            text=text,
            watching=hosted is not None and seat is None,
        )
        if hosted is not None:
            hosted.chat_line(line)
        else:
            self.lobby_chat.append(line)
            for other in [m for m in self.members if m.table is None]:
                other.send(line)

    def _on_claim(self, member: Member, message: Claim) -> None:
        hosted = member.table
        if hosted is None:
            raise IllegalAction("you are not at a table")
        if hosted.seat_of(member) is None:
            raise IllegalAction("spectators cannot make claims")
        if not member.chat_limit.allow():  # claims are talk: the chat's rate holds for both
            raise IllegalAction("you are talking too fast: that claim was not made")
        hosted.make_claim(member, message.claim)

    def _on_ping(self, member: Member, message: Ping) -> None:
        member.send(Pong(n=message.n))

    def _on_pong(self, member: Member, message: Pong) -> None:
        pass  # any complete message keeps the connection alive

    def _on_bye(self, member: Member, message: Bye) -> None:
        member.close()
