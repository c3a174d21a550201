"""The party's tables: opening, finding, dealing, closing and restoring them, and the host's
hand over a table's seats."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping

from ...bots import LEVELS
from ...rules import IllegalAction, get_game
from ...store import OutdatedRules, Store
from ..hosting import HostedTable, Stage, new_code, standing_in_words
from ..messages import Error
from ..seat_life import Whereabouts
from .lobby import LobbyRoom
from .members import Member, PartyConfig

log = logging.getLogger("tablegames.server")


class Tables(Mapping[str, HostedTable]):
    """The tables of one server by their codes (read as a mapping), and what opens, deals and
    closes them."""

    def __init__(
        self,
        config: PartyConfig,
        store: Store | None,
        lobby: LobbyRoom,
        whereabouts: Whereabouts,
        by_code: dict[str, HostedTable],
        started: Callable[[HostedTable], None],
        ended: Callable[[HostedTable], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config, self.store, self.lobby, self.whereabouts = config, store, lobby, whereabouts
        self._by_code = by_code  # (the lobby reads the same tables)
        self.started = started  # the server drives a table's bots once its game begins
        self.ended = ended  # ...and stops once the table ends
        self.clock = clock
        self._opened_from: dict[str, str] = {}  # table code -> the address that opened it

    def __getitem__(self, code: str) -> HostedTable:
        return self._by_code[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_code)

    def __len__(self) -> int:
        return len(self._by_code)

    def open(
        self,
        game: str,
        players: int,
        options: dict[str, object] | None = None,
        seed: int | None = None,
        fill_with_bots: str | None = None,
        code: str | None = None,
        min_humans: int | None = None,
        owner_seat: int | None = None,
        creator: str | None = None,
        address: str | None = None,
    ) -> HostedTable:
        """Open a table for `game`; players join it by its code. `creator` is the person who
        opened it from the lobby (`members.person`), from `address`."""
        info = get_game(game)
        if not info.min_players <= players <= info.max_players:
            raise ValueError(f"{info.title} takes {info.min_players}–{info.max_players} players")
        code = code or new_code()
        while code in self._by_code:
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
            on_action=self.lobby.table_action,
            store=self.store,
            creator=creator,
            clock=self.clock,
        )
        self._by_code[code] = hosted
        if address is not None:
            self._opened_from[code] = address
        self.lobby.changed()
        return hosted

    def live(self) -> list[HostedTable]:
        """The tables waiting for players or playing."""
        return [t for t in self._by_code.values() if Stage.of(t.table) is not Stage.FINISHED]

    def opened_by(self, person: str, address: str) -> tuple[list[str], list[str]]:
        """The live tables `person` opened, and those opened from `address`."""
        self._opened_from = {c: a for c, a in self._opened_from.items() if c in self._by_code}
        live = self.live()
        mine = [t.code for t in live if t.creator == person]
        here = [t.code for t in live if self._opened_from.get(t.code) == address]
        return mine, here

    def opened_from(self, code: str) -> str | None:
        """The address that opened table `code` (None: the host did, or nobody knows)."""
        return self._opened_from.get(code)

    def find(self, code: str) -> HostedTable:
        """Table `code` (any case), or a refusal saying why there is none."""
        hosted = self._by_code.get(code.upper())
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
        self.lobby.changed()

    def start_by_hand(self, code: str) -> str:
        """The host or the table's owner deals now: empty seats become bots, and a bot plays
        for whoever is not ready until they say they are. Returns what happens, in words."""
        hosted = self.find(code)
        why = hosted.why_not_start()
        if why is not None:
            raise IllegalAction(f"cannot start table {hosted.code}: {why}")
        unready = hosted.readiness.unready()
        self.start(hosted)
        return f"the game begins; {standing_in_words(unready)}" if unready else "the game begins"

    def give_seat(self, code: str, number: int, to: str) -> None:
        """Seat `number` of table `code` to a bot of level `to`, or "free": before the deal for
        someone else; during a game a bot plays it until its own player comes back to it."""
        hosted = self.find(code)
        if 0 <= number < hosted.players:  # whoever held it, logging in again, is in the lobby
            self.whereabouts.left(hosted.seats[number].identity, hosted.code)
        if to == "free":
            hosted.free(number)
        elif to in LEVELS or to == "bot":
            hosted.hand_to_bot(number, "normal" if to == "bot" else to)
        else:
            raise IllegalAction(f"a seat goes to a bot ({', '.join(LEVELS)}) or is freed")
        self.lobby.changed()

    def close(self, hosted: HostedTable, why: str) -> None:
        """End `hosted` now: whoever is there is told `why` and goes to the lobby; an
        unfinished game is forgotten (a finished one stays in the history)."""
        if self._by_code.get(hosted.code) is not hosted:
            return
        del self._by_code[hosted.code]
        self.ended(hosted)
        for peer in hosted.peers():
            member: Member = peer  # type: ignore[assignment]
            member.table = None  # in the lobby: `changed` tells it what the tables are now
            if why:
                member.send(Error(code="table-closed", text=why))
            self.lobby.chat.tell_earlier(member)
        self.whereabouts.table_closed(hosted.code)
        unfinished = Stage.of(hosted.table) is not Stage.FINISHED
        if unfinished and self.store is not None and hosted.store_id is not None:
            self.store.delete_table(hosted.store_id)
        if why:
            log.info("table %s closed: %s", hosted.code, why)
        self.lobby.changed()

    def close_by_hand(self, code: str, by: str | None = None) -> str:
        """The host (`by` None) or the table's creator (their name) ends table `code` now;
        returns what was said to whoever was there."""
        hosted = self.find(code)
        who = "The host" if by is None else by
        why = f"{who} closed table {hosted.code}."
        self.close(hosted, why)
        return why

    def left(self, hosted: HostedTable, dropped: bool) -> None:
        """Someone left `hosted`: if nobody is at it now, forget a table the lobby can do
        without (a finished one, which stays in the history, its last player left (one who
        `dropped` out is waited for: `Timekeeper.why_ended`), or one opened in the lobby whose
        players all left before it began)."""
        if hosted.peers():
            return
        stage = Stage.of(hosted.table)
        if stage is Stage.FINISHED:
            forget = not dropped
        else:
            forget = (
                stage is Stage.WAITING
                and hosted.owner_seat is not None
                and not any(seat.human for seat in hosted.seats)
            )
        if not forget or self._by_code.get(hosted.code) is not hosted:
            return
        del self._by_code[hosted.code]
        if stage is Stage.WAITING and self.store is not None and hosted.store_id is not None:
            self.store.delete_table(hosted.store_id)

    def moved_on(self, old: HostedTable) -> None:
        """Forget finished `old`, which everyone left for its rematch (it stays in the
        history)."""
        if not old.peers() and self._by_code.get(old.code) is old:
            del self._by_code[old.code]

    def restore(self) -> list[HostedTable]:
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
                saved, self.store, on_action=self.lobby.table_action, clock=self.clock
            )
            self._by_code[hosted.code] = hosted
            restored.append(hosted)
        return restored
