"""The host's terminal: list the tables, start one, give a seat to a bot or free it, close one;
list the names keys own and free one; send someone away (`kick`, `ban`), change the join code,
say something to everyone as the host.

`tablegames host` and `tablegames serve` read one command per line from their terminal (only
when stdin is one: under nohup or systemd they just log). Seat numbers count from 1, as the
screens show them; the table code may be left out while the server has one table.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable

from ..bots import LEVELS
from ..names import name_key
from ..rules import IllegalAction
from ..text import visible_lines
from .hosting import HostedTable
from .party import Party
from .ssh_types import short_fingerprint
from .words import away_words, seat_words

HELP = f"""Commands (seat numbers count from 1; TABLE may be left out with one table):
  tables                    every table: its seats, who is there, who is away
  start [TABLE]             deal now; empty seats become bots
  bot [TABLE] SEAT [LEVEL]  a bot plays that seat from now on ({", ".join(LEVELS)})
  free [TABLE] SEAT         before the deal: free that seat for someone else; during a
                            game: its player goes to the lobby and a bot plays it until
                            they come back to it
  close TABLE               end that table now (whoever is there goes back to the lobby)
  names                     the names SSH keys own, and who is here now or when last
  release NAME              free a name a key owns (the next key to sit down with it owns it)
  forgive ADDRESS           let an address held back for wrong join codes try again now
  kick NAME                 end NAME's sessions at every door (a bot takes their seat)
  ban NAME                  kick, and turn away their keys, browsers and addresses until
                            the server stops
  code new                  a fresh join code from now on (whoever is in stays)
  say TEXT                  say TEXT to everyone, as the host
  help                      this list"""


class HostConsole:
    """Commands typed at the host's terminal, run against the party's tables."""

    def __init__(self, party: Party, say: Callable[[str], None] = print) -> None:
        self.party, self.say = party, say

    def attach(self) -> Callable[[], None]:
        """Read commands from stdin while it is a terminal; returns how to stop reading."""
        if not sys.stdin.isatty():
            return lambda: None
        loop = asyncio.get_running_loop()
        fd = sys.stdin.fileno()

        def ready() -> None:
            line = sys.stdin.readline()
            if line:
                self.say(visible_lines(self.run(line)))  # names, and what was typed, shown safe
            else:  # the terminal closed: the server goes on, only the console stops
                loop.remove_reader(fd)

        loop.add_reader(fd, ready)
        self.say("Type `help` for the host's commands.")

        def stop() -> None:
            loop.remove_reader(fd)

        return stop

    def run(self, line: str) -> str:
        """Do one command; returns what to print (a sentence, never a traceback)."""
        words = line.split()
        if not words:
            return ""
        command, rest = words[0].lower(), words[1:]
        try:
            if command in ("help", "?"):
                return HELP
            if command in ("tables", "t", "list"):
                return self.tables()
            if command == "start":
                hosted = self._table(rest)
                return f"Table {hosted.code}: {self.party.tables.start_by_hand(hosted.code)}."
            if command in ("bot", "free"):
                hosted = self._table(rest)
                seat, level = self._seat(rest, hosted)
                self.party.tables.give_seat(
                    hosted.code, seat, "free" if command == "free" else level
                )
                return f"Table {hosted.code}: done."
            if command == "close":
                if not rest:
                    raise IllegalAction("say which table: `tables` lists their codes")
                return self.party.tables.close_by_hand(rest[0])
            if command == "names":
                return self.names()
            if command == "release":
                return self.release(" ".join(rest))
            if command == "forgive":
                return self.forgive(rest[0] if rest else "")
            if command in ("kick", "ban"):
                return self.send_away(" ".join(rest), ban=command == "ban")
            if command == "code" and rest == ["new"]:
                return self.new_code()
            if command == "say":
                return self.say_to_everyone(line.split(None, 1)[1] if rest else "")
        except IllegalAction as refusal:
            return f"Cannot: {refusal}."
        return f"No command {command!r}. Type `help` for the list."

    def tables(self) -> str:
        tables = list(self.party.tables.values())
        if not tables:
            return "No tables yet."
        return "\n".join(table_lines(hosted) for hosted in tables)

    def names(self) -> str:
        """Every name a key owns: the name, its key, here now or how long since it was used."""
        store = self.party.store
        owned = store.owned_names() if store is not None else []
        if not owned:
            return "No name is owned by a key yet."
        now = time.time()
        here = {member.key for member in self.party.members if member.key is not None}
        return "\n".join(
            f"{name}  {short_fingerprint(key)}  "
            + ("here now" if key in here else f"last here {away_words(int(now - used))} ago")
            for name, key, used in owned
        )

    def release(self, name: str) -> str:
        """Free `name` for the next key that sits down with it."""
        store = self.party.store
        if not name:
            raise IllegalAction("say which name: `names` lists them")
        released = store.release_name(name_key(name)) if store is not None else None
        if released is None:
            raise IllegalAction(f"no key owns the name {name}")
        return f"The name {released} is free: the next key to sit down with it owns it."

    def forgive(self, address: str) -> str:
        """Let `address` give the join code again at once (its wrong guesses forgotten)."""
        if not address:
            raise IllegalAction("say which address: the log names the ones held back")
        wait = self.party.guard.refused_for(address)
        self.party.guard.succeeded(address)
        if wait <= 0:
            return f"{address} was not held back; its wrong codes, if any, are forgotten."
        return f"{address} may give the join code again now."

    def send_away(self, name: str, ban: bool) -> str:
        """End `name`'s sessions at every door (with `ban`, turn away all they were known by
        until the server stops); says what was done."""
        if not name:
            raise IllegalAction("say whom: `tables` lists who is at each table")
        found = self.party.admission.send_away(name_key(name), ban)
        if not found.sessions and not found.tables:
            raise IllegalAction(f"nobody called {name} is here")
        done = f"{name} was sent away" + (" and banned until the server stops" if ban else "")
        if found.tables:
            done += f"; a bot plays their seat at table {', '.join(found.tables)}"
        return done + "."

    def new_code(self) -> str:
        """A fresh join code, kept for the next start too; whoever is in stays."""
        admission = self.party.admission
        if admission.code is None:
            raise IllegalAction("this party asks for no join code (start it with --lan)")
        code = admission.new_code()
        if self.party.store is not None:
            self.party.store.set_fact("join_code", code)
        return (
            f"The join code is now {code} (whoever is in stays; the old code lets nobody new in)."
        )

    def say_to_everyone(self, text: str) -> str:
        if not text.strip():
            raise IllegalAction("say what: `say TEXT`")
        told = self.party.lobby.announce(text)
        return f"Said to everyone ({told} here)."

    def _table(self, rest: list[str]) -> HostedTable:
        """The table a command names (dropping its word from `rest`), or the only one."""
        if rest and not rest[0].isdigit():
            return self.party.tables.find(rest.pop(0))
        open_tables = [t for t in self.party.tables.values() if t.table is None or not t.table.over]
        if len(open_tables) == 1:
            return open_tables[0]
        raise IllegalAction("say which table: `tables` lists their codes")

    def _seat(self, rest: list[str], hosted: HostedTable) -> tuple[int, str]:
        if not rest or not rest[0].isdigit():
            raise IllegalAction("say which seat, by its number")
        level = rest[1] if len(rest) > 1 else hosted.fill_with_bots or "normal"
        if level not in LEVELS:
            raise IllegalAction(f"bots are {', '.join(LEVELS)}")
        return int(rest[0]) - 1, level


def table_lines(hosted: HostedTable) -> str:
    """A table for the host: its code, game, state, and one line per seat."""
    if hosted.table is None:
        state = "waiting for players"
    else:
        state = "finished" if hosted.table.over else "playing"
    lines = [f"{hosted.code}  {hosted.game.title} for {hosted.players}, {state}"]
    for seat in hosted.seat_news():
        if hosted.table is not None:  # ready is the waiting room's word
            seat.ready = False
        lines.append(f"  {seat.seat + 1}. {seat_words(seat)}")
    if hosted.spectators:
        lines.append(f"  and {len(hosted.spectators)} watching")
    return "\n".join(lines)
