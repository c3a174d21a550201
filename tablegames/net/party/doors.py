"""Who comes into the party over its protocol, and as whom: the hello (a version, a ticket the
party gave a session it started, the join code or a pass, a name), `join`'s key proven, and
where each arrival goes (back where they were, or the lobby).

Identity comes in three strengths: a name asked for (a plain `join`), a seat token (proves one
seat), and a ticket the party gave a session it started itself (an SSH login: a key, or a
guest's name and address).

Names: a name asked for over TCP may not be one a key owns or uses now, nor be or look like a
guest's ("guest-...") or a bot's ("Bot 2"), nor look like a name someone holds (a key owns it,
a login uses it, someone sits at a table under it: `names.look_alike_problem`). A key owns its
name for good once it sits at a table (`NameBook.claim_name`), not by logging in.

Wrong join codes are counted per address, and whoever gave the right code is handed a pass
that later connections show instead (a reconnect behind an address someone else made guess is
not held back).
"""

from __future__ import annotations

import secrets
from collections import OrderedDict

from ...names import GUEST_PREFIX, clean_name, looks_like_bot, name_key
from ...rules import IllegalAction
from ...store import Store
from ...text import visible
from ..admission import TURNED_AWAY, Admission, is_loopback, name_problem, reserved
from ..guard import RefusalTally, wait_in_words
from ..messages import MAX_TEXT, Error, ErrorCode, Hello, Prove, Welcome
from ..proofs import key_fingerprint, new_nonce, proves_key, token_key
from ..protocol import PROTOCOL_VERSION
from .lobby import LobbyRoom
from .members import FORWARD_HINT, Login, Member, PartyConfig, reached_at
from .seating import Seating
from .tables import Tables

PASSES_KEPT = 10_000  # join-code passes remembered (the oldest forgotten first)


class Doors:
    """The party's own door: hellos, tickets, join codes and passes, names, `join`'s key."""

    def __init__(
        self,
        config: PartyConfig,
        store: Store | None,
        admission: Admission,
        refusals: RefusalTally,
        members: set[Member],
        tables: Tables,
        lobby: LobbyRoom,
        seating: Seating,
        server_id: str,
    ) -> None:
        self.config, self.store, self.admission, self.refusals = config, store, admission, refusals
        self.members, self.tables, self.lobby, self.seating = members, tables, lobby, seating
        self.server_id = server_id
        self.tickets: dict[str, Login] = {}
        self.passes: OrderedDict[bytes, None] = OrderedDict()  # given for a right join code

    def ticket_for(self, login: Login) -> str:
        """A secret a session the party started passes in its `hello` to be `login`."""
        ticket = secrets.token_urlsafe(32)
        self.tickets[ticket] = login
        return ticket

    def revoke(self, ticket: str) -> None:
        self.tickets.pop(ticket, None)

    def hello(self, member: Member, message: Hello) -> None:
        """`member` says who it is: let in (welcomed, and taken where it goes), or refused
        and closed."""
        if member.greeted:
            raise IllegalAction("you already said hello")
        if message.version != PROTOCOL_VERSION:
            text = f"this server speaks version {PROTOCOL_VERSION}: update tablegames"
            self._refuse(member, "version", text)
            return
        member.name = clean_name(message.name) or "guest"  # (a login's own, if it proves one)
        ticket = message.ticket
        # A ticket is for the session program the party started on this machine: from
        # anywhere else it was stolen, and it proves nothing.
        login = self.tickets.get(ticket) if ticket and is_loopback(member.address) else None
        if ticket and login is None:
            self._refuse(member, "bad-ticket", "that session is over: log in again")
            return
        if login is None and not self._code_accepted(member, message.code, message.code_pass):
            return
        if login is not None:
            member.name, member.identity, member.key = login.name, login.holder, login.key
            member.address = login.address or member.address
        offered = message.key if login is None else None  # `join`'s key, to prove after this
        fingerprint = key_fingerprint(offered) if offered is not None else None
        if offered is not None and fingerprint is None:
            self._refuse(
                member, "bad-key", "that is not a key this server can check: update tablegames"
            )
            return
        admission = self.admission
        if admission.turned_away(member.address, member.key or fingerprint, member.identity):
            self._refuse(member, "banned", TURNED_AWAY)
            return
        if login is None:
            why = self.why_not_name(member.name, fingerprint)
            if why is not None:
                self._refuse(member, "name-taken", why)
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
        if member.identity is not None and self.seating.go_back(member, member.identity):
            return
        self.lobby.chat.tell_earlier(member)
        member.send(self.lobby.message())

    def prove(self, member: Member, message: Prove) -> None:
        """`join`'s key answers this connection's challenge: its name is owned like an SSH
        key's from now on (a proven key is a login: see `members.person`)."""
        offered, member.proving = member.proving, None
        if offered is None:
            raise IllegalAction("there is no key to prove on this connection")
        fingerprint = key_fingerprint(offered)
        proven = any(
            proves_key(offered, message.signature, member.nonce, self.server_id, reached)
            for reached in reached_at(member, self.config)
        )
        why = self.why_not_name(member.name, fingerprint) if proven else None
        if not proven or why is not None or fingerprint is None:
            text = why or f"that key's answer was made for another connection ({FORWARD_HINT})"
            self._refuse(member, "bad-proof", text)
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
        tables = self.tables.values()
        seated = [peer.name for hosted in tables for peer in hosted.peers()]
        seats = [s.name for hosted in tables for s in hosted.seats if s.human]
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
            text = (
                f"too many wrong join codes from your address: try again in {wait_in_words(wait)}"
            )
            self._refuse(member, "held-back", text)
            return False
        if not given:
            self._refuse(member, "need-code", "this table needs a join code: add --code CODE")
            return False
        if not admission.try_code(member.address, given):
            self.refusals.refused(
                "wrong join codes",
                member.address,
                "wrong join code from %s (%d wrong so far)",
                member.address,
                admission.guard.failures(member.address),
            )
            refuse(member, "bad-code", "wrong join code")
            return False
        return True

    def _refuse(self, member: Member, code: ErrorCode, text: str) -> None:
        """`refuse`, and the host's log says so (summed per address and reason: a stranger may
        knock again and again)."""
        name = visible(member.name)[:MAX_TEXT]
        line = "turned %s from %s away: %s"
        self.refusals.refused(
            f"connections ({code})", member.address, line, name, member.address, text
        )
        refuse(member, code, text)


def refuse(member: Member, code: ErrorCode, text: str) -> None:
    """Turn `member` away at the door: told why, and closed."""
    member.send(Error(code=code, text=text))
    member.close()
