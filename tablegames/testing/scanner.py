"""The leak scanner: what each recipient must not know, as the game declares it.

The truth comes from replaying the server's log (`Truth`): after every action the state is
asked, per recipient (each seat and a spectator), which secrets exist right now: what the game
declares (`State.secrets`: cards in other hands and in piles, the card in flight, other teams'
signals, other factions...), else words guessed from its views. Every event is also tied to
the secrets at the instant the engine emitted it, so history is judged by the moment it was
written, not by where cards are later.

A frame a recipient received is then checked three ways (`scan_stream`):
- raw bytes: the seed (before the game ended) and other seats' tokens never appear;
- present-tense content (everything but events and declared history) holds no secret of the
  frame's moment, matched by shape: a whole string or word (unique card codes), a list with
  the same cards as a hidden hand or pile, or a (field, value) pair such as ("signal", "wink");
- every event was meant for the recipient, was emitted by the engine, and named no secret that
  was secret both when it was emitted and once its action was done (a hand revealed by the rules
  during the action is public after it; a draw shouted to all would be secret at both moments).
An `update` must moreover be exactly what the table owes that recipient at its version: the
view, visible events, legal actions and visible waiting list of the replayed state.

Secrets that cannot be told apart from public data (another hand equal to one's own, a signal
equal to one's own team's) are left out at the source, so the scanner reports no false leaks.
"""

from __future__ import annotations

import bisect
import contextlib
import copy
import hashlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

import msgpack

from ..net.proofs import token_key
from ..net.protocol import updated_log
from ..rules import GROUP, SHARED_VIEW_KEYS, WORD, Event, Game, State
from ..rules.contract import LogEntry
from ..rules.core import visible_to

Recipient = int | None
#: A (field, value) pair of a frame that would betray a secret (`State.secrets` declares them).
Pair = tuple[str, object]
#: A word of a frame (a card code in a sentence).
A_WORD = re.compile(r"[A-Za-z0-9_-]+")


# -- secrets --------------------------------------------------------------------------------------
@dataclass
class Secrets:
    """What one recipient must not know at one moment, by the shape it would take in a frame."""

    tokens: dict[str, str] = field(default_factory=dict)  # a whole string or word -> why
    lists: dict[tuple[str, ...], str] = field(default_factory=dict)  # sorted items -> why
    pairs: dict[Pair, str] = field(default_factory=dict)  # (field, value) -> why
    #: A declared secret's value, wherever it is (lists as tuples) -> why (`telling`).
    values: dict[object, str] = field(default_factory=dict)

    def token(self, text: str, why: str) -> None:
        self.tokens.setdefault(text, why)

    def pair(self, name: str, value: object, why: str) -> None:
        self.pairs.setdefault((name, value), why)

    def __and__(self, other: Secrets) -> Secrets:
        """Secrets in both (by shape): what was secret at two moments."""
        return Secrets(
            {k: v for k, v in self.tokens.items() if k in other.tokens},
            {k: v for k, v in self.lists.items() if k in other.lists},
            {k: v for k, v in self.pairs.items() if k in other.pairs},
            {k: v for k, v in self.values.items() if k in other.values},
        )

    def __bool__(self) -> bool:
        return bool(self.tokens or self.lists or self.pairs or self.values)


def _strings(value: object) -> set[str]:
    """Every string inside a piece of a view."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*map(_strings, value)) if value else set()
    return set()


def view_secrets(state: State, seat: Recipient) -> Secrets:
    """Any game, from its views alone: each string another seat's view shows and neither a
    spectator's view nor this recipient's does (that seat's hand, its role...).

    What no view shows (an undealt deck) is beyond it, and a word another seat's view shows may
    be public in other places (a card with copies): games declare their secrets instead
    (`declared_secrets`).
    """
    secrets = Secrets()
    public, own = state.view(None), state.view(seat)
    known = _strings({key: own[key] for key in own.keys() - SHARED_VIEW_KEYS})
    for other in range(state.players):
        if other == seat:
            continue
        theirs = state.view(other)
        for key in theirs.keys() - SHARED_VIEW_KEYS:
            if theirs[key] != public.get(key):
                for word in _strings(theirs[key]) - known:
                    secrets.token(word, f"seat {other}'s {key} holds {word}")
    return secrets


def declared_secrets(state: State, seat: Recipient) -> Secrets:
    """Any game that declares its secrets (`State.secrets`): its (field, value) pairs, no words
    guessed; a `WORD` anywhere, whole or in a sentence; a `GROUP` as a list in any order; and
    each value that means something alone (`telling`), wherever it is."""
    secrets = Secrets()
    for (name, value), why in (state.secrets(seat) or {}).items():
        if name == WORD and isinstance(value, str):
            secrets.token(value, why)
        elif name == GROUP and isinstance(value, tuple):
            secrets.lists.setdefault(value, why)
        else:
            secrets.pair(name, value, why)
    wanted = {value: why for (_, value), why in secrets.pairs.items() if telling(value)}
    if wanted:
        rightful = _found(state.view(seat), wanted)
        secrets.values = {value: why for value, why in wanted.items() if value not in rightful}
    return secrets


#: The shortest string, and the smallest number, a declared secret's value may be to be looked
#: for outside its field: shorter words and smaller numbers are in every frame by chance.
TELLING_LENGTH, TELLING_NUMBER = 6, 1000


def telling(value: object) -> bool:
    """True if a declared secret's `value` means something wherever it is found: a word of
    `TELLING_LENGTH` characters or more, a number of `TELLING_NUMBER` or more, or two or more
    items together (a seat and its card: ``(1, "baron")``). A yes or no, a small number, a
    short word, one item alone (a one-card hand: any discard pile may look like it) are too
    common: they are looked for under their declared field only."""
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, str):
        return len(value) >= TELLING_LENGTH
    if isinstance(value, int | float):
        return abs(value) >= TELLING_NUMBER
    return isinstance(value, tuple) and len(value) >= 2


def _found(value: object, wanted: Mapping[object, str]) -> set[object]:
    """Which of `wanted` are in a piece of a view: a value, a list (as a tuple) or a key of a
    map (what a recipient rightly sees: `_walk` reads keys as values too, so a key such as
    Feed the Kraken's ``equalizer`` is no leak of a character of that name). Only a list as
    long as a wanted tuple is read as one (a view holds thousands of lists: the log's)."""
    lengths = {len(item) for item in wanted if isinstance(item, tuple)}
    found: set[object] = set()
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.update(key for key in node if key in wanted)
            stack += node.values()
        elif isinstance(node, list):
            stack += node
            if len(node) in lengths:
                as_tuple = frozen(node)
                try:
                    if as_tuple in wanted:
                        found.add(as_tuple)
                except TypeError:  # a list holding maps
                    continue
        elif node in wanted:
            found.add(node)
    return found


def secrets_of(game: Game) -> Callable[[State, Recipient], Secrets]:
    """How the scanner learns what a recipient of `game` must not know: the game's own
    declaration (`State.secrets`), else words guessed from the views."""
    return declared_secrets if game.implements("secrets") else view_secrets


# -- the truth, by replay -------------------------------------------------------------------------
def canonical(value: object) -> bytes:
    """A key for plain data as it travels (maps keep their order on the wire)."""
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed


def digest(value: object) -> bytes:
    return hashlib.blake2b(msgpack.packb(value, use_bin_type=True), digest_size=16).digest()


class _Emitted(list[Event]):
    """A state's list of events being emitted, telling `on_emit` of each one as it comes."""

    def __init__(
        self, owner: State, items: Iterable[Event], on_emit: Callable[[State, Event], None]
    ) -> None:
        super().__init__(items)
        self.owner, self.on_emit = owner, on_emit

    def append(self, item: Event) -> None:
        super().append(item)
        self.on_emit(self.owner, item)

    def extend(self, items: Iterable[Event]) -> None:
        for item in items:
            self.append(item)


@contextlib.contextmanager
def _capturing_emits(on_emit: Callable[[State, Event], None]) -> Iterator[None]:
    """Call `on_emit(state, event)` for every event a state records while inside.

    Engines record events in `State._emitted` (through `emit`, or directly for speed), so the
    list itself is watched: a property on `State` wraps every list assigned to it.
    """
    active = [True]

    def told(owner: State, item: Event) -> None:
        if active[0]:
            on_emit(owner, item)

    def get(self: State) -> list[Event] | None:
        emitted: list[Event] | None = self.__dict__.get("_emitted")
        return emitted

    def put(self: State, value: Iterable[Event]) -> None:
        self.__dict__["_emitted"] = _Emitted(self, value, told)

    # `_emitted` is an instance attribute; for the while, a property on the class stands in
    # front of it (set and removed by name: no type has such a passing attribute).
    setattr(State, "_emitted", property(get, put))  # noqa: B010
    try:
        yield
    finally:
        active[0] = False
        delattr(State, "_emitted")


class Truth:
    """A table's true history: secrets and owed updates per version, events per emission."""

    def __init__(
        self,
        game: Game,
        players: int,
        options: dict[str, object],
        seed: int,
        log: list[LogEntry],
    ) -> None:
        self.game, self.players, self.seed = game, players, seed
        self.recipients: list[Recipient] = [None, *range(players)]
        extract = secrets_of(game)
        self.secrets: list[dict[Recipient, Secrets]] = []  # per version
        self.owed: list[dict[Recipient, tuple[bytes, bytes, bytes, bool]]] = []
        self.events: list[list[Event]] = [[]]  # events of the action making version v
        #: canonical event -> [(version it was emitted for, secrets at emission per recipient)]
        self.emitted: dict[bytes, list[tuple[int, dict[Recipient, Secrets]]]] = {}
        version = 0
        replayed: list[State] = []

        def on_emit(state: State, event: Event) -> None:
            if state.quiet or (replayed and state is not replayed[0]):
                return  # another state (a bot's simulation): not this table
            try:
                now = {r: extract(state, r) for r in self.recipients}
            except (AttributeError, IndexError, KeyError, TypeError):
                now = {}  # a state half-built in its constructor: judge by the after-state
            self.emitted.setdefault(canonical(event), []).append((version, now))

        with _capturing_emits(on_emit):
            state = game.new(players, seed, **options)
            replayed.append(state)
            self._record(state, extract)
            # `version` is read by `on_emit` while each action is applied.
            for version, (seat, action, now) in enumerate(log, start=1):  # noqa: B007
                # a copy: an engine may go on changing what it emitted (see test_history.py)
                # (the list's items only: the list itself is the state's, watched with it)
                self.events.append(copy.deepcopy(list(state.apply(seat, action, now))))
                self._record(state, extract)
        self.final = state
        self.over_at = len(log) if state.over else None

    def _record(self, state: State, extract: Callable[[State, Recipient], Secrets]) -> None:
        self.secrets.append({r: extract(state, r) for r in self.recipients})
        owed: dict[Recipient, tuple[bytes, bytes, bytes, bool]] = {}
        for r in self.recipients:
            legal = [] if r is None else state.legal(r)
            owed[r] = (
                digest(state.view(r)),
                digest(legal),
                digest(state.visible_waiting(r)),
                state.over,
            )
        self.owed.append(owed)

    def emission(self, key: bytes, version: int) -> tuple[int, dict[Recipient, Secrets]] | None:
        """The latest emission of the event `key` up to `version`: (its version, secrets then)."""
        records = self.emitted.get(key, [])
        at = bisect.bisect_right(records, version, key=lambda record: record[0])
        return records[at - 1] if at else None

    def event_secrets(
        self, made_at: int, at_emission: dict[Recipient, Secrets], r: Recipient
    ) -> Secrets:
        """What an event emitted for `made_at` must not name for `r`: secret then and after."""
        after = self.secrets[made_at][r]
        return at_emission[r] & after if r in at_emission else after


# -- scanning --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Finding:
    recipient: Recipient
    version: int
    kind: str  # leak | event | seed | token (leaks) | mismatch | history (not leaks)
    what: str

    def __str__(self) -> str:
        who = "spectator" if self.recipient is None else f"seat {self.recipient}"
        return f"{self.kind} to {who} at version {self.version}: {self.what}"


@dataclass
class Report:
    frames: int = 0
    findings: list[Finding] = field(default_factory=list)

    def add(self, other: Report) -> None:
        self.frames += other.frames
        self.findings += other.findings

    @property
    def leaks(self) -> list[Finding]:
        """Secrets that reached someone."""
        return [f for f in self.findings if f.kind not in ("mismatch", "history")]

    @property
    def problems(self) -> list[Finding]:
        """Leaks, and frames that are not what the recipient is owed."""
        return [f for f in self.findings if f.kind != "history"]

    @property
    def rewritten(self) -> list[Finding]:
        """Events that changed after they were sent (an engine kept editing them)."""
        return [f for f in self.findings if f.kind == "history"]


def split_frames(data: bytes) -> Iterator[tuple[bytes, object]]:
    """(raw frame, decoded body) for every complete frame in `data`."""
    at = 0
    while at + 4 <= len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        if at + 4 + length > len(data):
            return
        raw = data[at : at + 4 + length]
        yield raw, msgpack.unpackb(raw[4:], raw=False, strict_map_key=False)
        at += 4 + length


def with_whole_log(
    update: dict[str, object], log: list[Event]
) -> tuple[list[Event], dict[str, object]]:
    """An update frame as the client reads it: its view's log rebuilt from the entries sent.

    Returns the log so far and the update with that log back in its view; a frame that does
    not say where its entries go is left as it is (the owed-view check then reports it).
    """
    drop, view = update.get("log_drop"), update.get("view")
    if not isinstance(drop, int) or not isinstance(view, dict):
        return log, update
    new = view.get("log")
    if not isinstance(new, list):
        return log, update
    log = updated_log(log, drop, new)
    return log, {**update, "view": {**view, "log": log}}


#: What a talk record may hold (`tablegames/talk.py`): nothing else may ride along with a claim.
TALK_FIELDS = frozenset(("n", "after", "line", "seat", "claim", "now", "text"))


def without_talk(update: dict[str, object]) -> tuple[dict[str, object], list[str]]:
    """An update with its view's table talk taken out, and what is wrong with that talk.

    Claims are players' own words, public, and like chat may name anything, truly or not; what
    is checked is that a record holds nothing but the record's fields. The rest of the view must
    then be exactly the seat's own view.
    """
    view = update.get("view")
    if not isinstance(view, dict) or "talk" not in view:
        return update, []
    talk = view["talk"]
    wrong = [
        f"a talk record with other fields: {sorted(record)}"
        for record in (talk if isinstance(talk, list) else [talk])
        if not isinstance(record, dict) or not set(record) <= TALK_FIELDS
    ]
    return {**update, "view": {k: v for k, v in view.items() if k != "talk"}}, wrong


def frozen(value: object) -> object:
    """A list as the tuple a game declares it as (`State.secrets`), lists inside too."""
    return tuple(frozen(item) for item in value) if isinstance(value, list) else value


def _list_pair(pairs: dict[Pair, str], name: str, item: object) -> str | None:
    """Why (`name`, list `item`) is a declared secret, or None (maps are never declared)."""
    if not isinstance(item, list):
        return None
    try:
        return pairs.get((name, frozen(item)))
    except TypeError:  # a list of maps
        return None


def _walk(
    value: object,
    secrets: Secrets,
    skip: frozenset[str] = frozenset(),
    events: list[Event] | None = None,
) -> list[str]:
    """Secrets named in `value` outside events (and outside `skip` fields of the top map).

    Events met on the way are added to `events` (when given) instead of being looked into.
    """
    tokens, lists, pairs, values = secrets.tokens, secrets.lists, secrets.pairs, secrets.values
    hits: list[str] = []
    stack: list[tuple[object, bool]] = [(value, True)]
    while stack:
        node, top = stack.pop()
        if values and not isinstance(node, dict):
            try:
                why = values.get(frozen(node))
            except TypeError:  # a list holding maps (looked into below)
                why = None
            if why is not None:
                hits.append(why)
                if isinstance(node, list):
                    continue  # (its items are the secret's: said once)
        if isinstance(node, str):
            if tokens:
                if node in tokens:
                    hits.append(tokens[node])
                else:
                    hits += [tokens[word] for word in A_WORD.findall(node) if word in tokens]
        elif isinstance(node, list):
            if lists and len(node) >= 2 and all(isinstance(item, str) for item in node):
                why = lists.get(tuple(sorted(node)))
                if why is not None:
                    hits.append(why)
            stack += [(item, False) for item in node]
        elif isinstance(node, dict):
            if not top and "text" in node and "to" in node:
                if events is not None:
                    events.append(node)
                continue
            for name, item in node.items():
                if top and name in skip:
                    continue
                if pairs:
                    try:
                        why = pairs.get((name, item))
                    except TypeError:  # a list or map (looked into below); declared as a tuple
                        why = _list_pair(pairs, name, item)
                    if why is not None:
                        hits.append(why)
                stack.append((name, False))
                stack.append((item, False))
    return list(dict.fromkeys(hits))  # (a secret under its own field is also its value)


class Scanner:
    """Scans every frame sent to recipients of one table against its `Truth`."""

    def __init__(self, truth: Truth, tokens: dict[int, str] | None = None) -> None:
        self.truth = truth
        self.tokens = tokens or {}
        self.history = truth.game.state_class.history
        self._event_verdicts: dict[tuple[Recipient, bytes, int], list[str]] = {}
        #: Within `scan_stream`: each event of the rebuilt log, its wire form (see there).
        self._canonical: dict[int, tuple[Event, bytes]] | None = None
        seed = truth.seed
        # Small seeds (tests that stack a game) are too short to search for as bytes.
        self.seed_needles = (
            [str(seed).encode(), seed.to_bytes(8, "big"), msgpack.packb(seed)]
            if seed >= 2**40
            else []
        )

    def scan_stream(self, r: Recipient, data: bytes, sent: frozenset[str] = frozenset()) -> Report:
        """Every complete frame one connection of recipient `r` received, in order.

        `sent`: words `r` itself sent; a refusal may echo them ("you do not hold 5H").
        """
        report = Report()
        own_token = self.tokens.get(r) if r is not None else None
        token_needles = [
            (seat, needle)
            for seat, token in self.tokens.items()
            if token != own_token
            for needle in (token.encode(), bytes.fromhex(token), token_key(token))
        ]
        # Each event of the rebuilt log is the same object from frame to frame, never changed:
        # its wire form is made once (kept with the event, so its id is never another's).
        self._canonical = {}
        try:
            self._scan_frames(r, data, sent, report, token_needles)
        finally:
            self._canonical = None
        return report

    def _scan_frames(
        self,
        r: Recipient,
        data: bytes,
        sent: frozenset[str],
        report: Report,
        token_needles: list[tuple[int, bytes]],
    ) -> None:
        version = 0
        log: list[Event] = []  # the view's log as this connection rebuilds it
        for raw, message in split_frames(data):
            report.frames += 1
            if isinstance(message, dict) and message.get("t") == "update":
                version = int(message.get("version", version))
                log, message = with_whole_log(message, log)
                message, bad_talk = without_talk(message)
                report.findings += [Finding(r, version, "talk", why) for why in bad_talk]
            found = report.findings
            over_at = self.truth.over_at
            sealed = over_at is None or version < over_at
            if sealed and any(needle in raw for needle in self.seed_needles):
                found.append(Finding(r, version, "seed", "the seed was sent"))
            for seat, needle in token_needles:
                if needle in raw:
                    found.append(Finding(r, version, "token", f"seat {seat}'s token was sent"))
            found += self.scan_message(r, version, message, sent)

    def scan_message(
        self, r: Recipient, version: int, message: object, echo: frozenset[str] = frozenset()
    ) -> list[Finding]:
        """Findings in one decoded message to `r`, sent when the table was at `version`.

        In a refusal (`error`), the words of `echo` are not secrets: the sender's own words.
        """
        truth = self.truth
        findings: list[Finding] = []
        if isinstance(message, dict) and message.get("t") == "chat":
            return []  # a player's own words, which may name any card (truly or not)
        if version >= len(truth.secrets):
            return [Finding(r, version, "mismatch", "a version the log never reached")]
        secrets = truth.secrets[version][r]
        if echo and isinstance(message, dict) and message.get("t") == "error":
            tokens = {k: v for k, v in secrets.tokens.items() if k not in echo}
            secrets = Secrets(tokens, secrets.lists, secrets.pairs)
        update = message if isinstance(message, dict) and message.get("t") == "update" else None
        events: list[Event] = []
        if update is not None:
            rest = {name: value for name, value in update.items() if name != "view"}
            hits = _walk(rest, secrets, frozenset(), events)
            hits += _walk(update.get("view"), secrets, self.history, events)
        else:
            hits = _walk(message, secrets, frozenset(), events)
        findings += [Finding(r, version, "leak", why) for why in hits]
        for event in events:
            findings += self._check_event(r, version, event)
        if update is not None:
            findings += self._check_owed(r, version, update)
        return findings

    def _check_event(self, r: Recipient, version: int, event: Event) -> list[Finding]:
        made = self._canonical
        known = None if made is None else made.get(id(event))
        if known is None or known[0] is not event:
            known = (event, canonical(event))
            if made is not None:
                made[id(event)] = known
        canon = known[1]
        emission = self.truth.emission(canon, version)
        key = (r, canon, -1 if emission is None else emission[0])
        verdict = self._event_verdicts.get(key)
        if verdict is None:
            verdict = []
            if not visible_to(event, r):
                verdict.append(f"an event for seats {event.get('to')}: {event.get('text')!r}")
            elif emission is None:
                verdict.append(f"history: an event unlike any emitted: {event.get('text')!r}")
            else:
                secrets = self.truth.event_secrets(emission[0], emission[1], r)
                if secrets:
                    verdict += _walk(event, secrets)
            self._event_verdicts[key] = verdict
        return [
            Finding(r, version, "history" if why.startswith("history:") else "event", why)
            for why in verdict
        ]

    def _check_owed(self, r: Recipient, version: int, message: dict[str, object]) -> list[Finding]:
        view_digest, legal_digest, waiting_digest, over = self.truth.owed[version][r]
        problems = []
        if digest(message.get("view")) != view_digest:
            problems.append("the view is not the seat's own view")
        if digest(message.get("legal")) != legal_digest:
            problems.append("the legal actions are not the seat's own")
        if digest(message.get("waiting")) != waiting_digest:
            problems.append("the waiting list is not the one this seat may see")
        if message.get("over") != over:
            problems.append("the over flag is wrong")
        events = message.get("events")
        visible = [e for e in self.truth.events[version] if visible_to(e, r)]
        if events not in ([], visible):
            problems.append("the events are not those of this version this seat may see")
        return [Finding(r, version, "mismatch", text) for text in problems]
