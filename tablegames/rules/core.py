"""The rules contract every game obeys: Game, State hooks, IllegalAction and the registry."""

from __future__ import annotations

import importlib
import random
from bisect import bisect_left
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, wraps
from itertools import repeat
from operator import is_
from typing import Any, ClassVar, TypeVar, cast

from .contract import GROUP, Action, Event, LogEntry, Result, Secrets, View


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is a sentence for the player."""


class SetupError(ValueError):
    """Options that do not describe a possible game (bad card codes, wrong player count...)."""


class SeenLog:
    """What one seat's visible log was last worked out to be (`State.visible_log`): the log it
    was read from, the events it may see with their numbers since the game began, and the
    number just past the last event looked at."""

    __slots__ = ("end", "events", "log", "numbers")

    def __init__(self, log: list[Event], start: int) -> None:
        self.log = log
        self.end = start
        self.events: list[Event] = []
        self.numbers: list[int] = []


class State:
    """One game in progress: subclasses implement the `_` hooks, this class owns the guards.

    Dispatch: an action `{"type": "play", ...}` is handled by the method named in
    `handlers["play"]`, which reports what happened through `emit`. Handlers must validate
    everything before changing anything, so that an IllegalAction leaves the state untouched.
    A refused one is explained by the method named in `refusals["play"]` (`why_illegal`).

    Every view has the keys of `contract.SharedView`, filled in by `view` (a game's `_view`
    adds its own). The log only grows, except that a game may start it afresh for a new round
    (`restart_log`) or keep only its last `log_limit`. Keys a game may add that shared code
    reads with one meaning are declared in `contract.KnownViewKeys` (``hand``, ``table``,
    ``round``, ``chosen``; ``talk``, ``now`` and ``speed`` are never a game's).

    Every event (`emit`) is a `contract.EventBase` and the facts as fields (seats, cards,
    counts); in its ``text`` seat ``n`` is written ``{n}`` (``"{2} plays the Guard."``: the
    screens put in names). Bots, screens and replays read the kind and the fields; the text is
    only shown, never parsed. A public event that some seats were also told in private words
    of their own (``{0} draws 1 card`` beside ``{0} draws 4C``) names them in ``told``: their
    logs show it in those words only.

    Several seats may be waited for at once (`_waiting_for` names them all): each is asked
    (`legal`) and answers in any order, and a seat that has answered is no longer waited for
    (its question changes: `question`, the table's `Update.asked`), so no driver, bot or
    player answers the same question twice. A choice made at the same time as others and kept
    secret until all are in (sealed bids, a card everyone picks at once) is *committed*:
    `commit` seals it (everyone sees that the seat chose, as the game no longer waits for it;
    the seat alone is told what), and the seat's view shows its own under ``chosen``; `reveal`
    opens them all in one public event once the last is in. `SecretChoices` keeps them, and
    names them for `secrets`.

    Presentation (optional; the generic screen reads it, games with screens of their own need
    none of it): `describe` says an action in words, `panels` groups, orders and titles the
    view's own keys and `labels` names them, `per_seat` names the view keys that hold one
    entry per seat (shown beside each player), `seat_keys` the view keys and action fields
    whose values are seats (shown as names).

    Bots (optional; the generic bots read them): `from_view` (look-ahead), `heuristic` (how
    good an action looks) and `evaluate` (how a seat stands where a look-ahead may stop short
    of the end: a game of many rounds).
    """

    handlers: ClassVar[dict[str, str]] = {}
    _dispatch: ClassVar[dict[str, Callable[..., None]]] = {}  # `handlers`, resolved once
    #: Action type -> the name of the method `(seat, action) -> sentence or None` that says
    #: why such an action is refused (see `why_illegal`); a type not named here is refused in
    #: the generic sentence.
    refusals: ClassVar[dict[str, str]] = {}
    _explain: ClassVar[dict[str, Callable[[State, int, Action], str | None]]] = {}  # resolved
    #: How many events the log keeps (None: all of them, or the round's: see `restart_log`).
    log_limit: ClassVar[int | None] = None
    #: The game this is a state of (set by `Game.new`; its name is every view's ``game``).
    game: Game
    #: Action types a seat may take at any moment, asked or not (calling out, accusing,
    #: gesturing): they are no part of what a seat is asked (`question`).
    any_time: ClassVar[frozenset[str]] = frozenset()
    #: View keys whose value is a list with one entry per seat (each player's discards, score,
    #: protection): the generic screen shows each entry beside its player.
    per_seat: ClassVar[frozenset[str]] = frozenset()
    #: View keys and action fields whose values are seats (``current``, ``target``): screens
    #: show the players' names instead of numbers.
    seat_keys: ClassVar[frozenset[str]] = frozenset()
    #: How the generic screen shows the view's own keys: `Panel`s in order, each a title and
    #: its keys in order. With panels, only their keys show, and the per-seat keys they name
    #: come beside the players in that order; without, one group: the hand and the table
    #: (keys ``hand``, ``table``) first, then the rest by name. Empty values (None, False,
    #: nothing in a list) are left out either way.
    panels: ClassVar[tuple[Panel, ...]] = ()
    #: What the generic screen calls a view key or per-seat key (``"deck_left": "Cards in
    #: the deck"``); a key not named here is shown as its name in words.
    labels: ClassVar[dict[str, str]] = {}
    #: Any-time action types that catch another player's slip while they may still mend it
    #: (crates' Dope!): drivers pacing bots for people let a bot make one only after a fair
    #: moment (`thinking.FAIR_MOMENT`), never the instant it becomes possible.
    call_outs: ClassVar[frozenset[str]] = frozenset()
    #: Actions applied so far, and the last `legal` answer with the count it was given at: an
    #: action `apply` is handed from that very list is known to be listed (see `apply`). A state
    #: changes only through `apply`; `legal`'s answer is the engine's own, not to be changed.
    _moves = 0
    _last_legal: tuple[int, int, list[Action]] = (-1, -1, [])
    #: Action fields whose values `legal` cannot list (a free amount, a line of text): see
    #: `apply`. Empty in every built-in game.
    free_fields: ClassVar[frozenset[str]] = frozenset()
    #: Whether `trusted` states are checked all the same: off in play, on in the tests
    #: (tests/conftest.py), which so prove that bots' look-ahead only ever plays legal actions.
    checking: ClassVar[bool] = False
    #: View keys that tell what was public once and may name what is secret now (the last
    #: round's hands, since dealt again): the leak scanner leaves them to its exact-view check.
    history: ClassVar[frozenset[str]] = frozenset()
    _trusted = False

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._dispatch = {kind: getattr(cls, name) for kind, name in cls.handlers.items()}
        cls._explain = {kind: getattr(cls, name) for kind, name in cls.refusals.items()}

    def __init__(self, players: int, rng: random.Random) -> None:
        self.players = players
        self.rng = rng
        self.quiet = False  # bots' simulations switch the log off for speed (see `trusted`)
        self.log: list[Event] = []  # what views show, filtered per seat (see `visible_log`)
        self._emitted: list[Event] = []  # the events of the action being applied
        self._dropped = 0  # events `log_limit` has dropped from the log's front so far
        #: Each seat's visible log as last worked out: (log, dropped, length seen, entries).
        self._log_views: dict[int | None, SeenLog] = {}

    @property
    def trusted(self) -> bool:
        """A state a bot plays out in its look-ahead (a game's `from_view` may make its states
        so), where it acts only as its rules-following policy says: `apply` takes such a
        state's actions as legal without asking `legal` (the check a player's action needs).
        The tests check them all the same (`checking`); a real game's state is never trusted."""
        return self._trusted

    @trusted.setter
    def trusted(self, value: bool) -> None:
        self._trusted = value and not State.checking

    # -- the contract -------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the game has ended."""
        raise NotImplementedError

    def legal(self, seat: int) -> list[Action]:
        """Every action `seat` may take now (empty when the game is over)."""
        if self.over or not 0 <= seat < self.players:
            return []
        listed: Any = self._legal(seat)  # (a game's own action types: plain dicts, as listed)
        if type(listed) is not list:
            listed = list(listed)
        # Kept as it is, not copied: an answer is the engine's own, not to be changed (as the
        # actions in it are not), and this runs for every action of every playout.
        self._last_legal = (self._moves, seat, listed)  # (see `apply`)
        return listed  # type: ignore[no-any-return]

    def waiting_for(self) -> frozenset[int]:
        """Seats whose move the game needs in order to progress."""
        return frozenset() if self.over else self._waiting_for()

    def question(self, seat: int, legal: Sequence[Action]) -> Hashable:
        """What `seat` is asked now, given its `legal` actions, as a value that changes exactly
        when the question does: whether the game waits for the seat, and the shapes (type and
        fields) of what it may do, `any_time` actions left out. A new card in the ocean or a
        new top card is the same question; a new phase, turn or decision is a new one.

        The table refuses an action chosen on a view older than the seat's question (it
        answered another). Games whose questions differ in more than shape override it.
        """
        # (each distinct shape sorted once: `legal` may list hundreds of actions of a few shapes)
        listed = {(action["type"], *action) for action in legal}
        any_time = self.any_time
        shapes = frozenset((kind, *sorted(keys)) for kind, *keys in listed if kind not in any_time)
        return seat in self.waiting_for(), shapes

    def apply(self, seat: int, action: Mapping[str, object], now: float = 0.0) -> list[Event]:
        """Apply `action` for `seat` and return its events; IllegalAction leaves all untouched.

        Legality is defined once, by `legal`: an action is taken only if it is one of
        `legal(seat)`, read in its `normal_form` and compared with its values' types (``true``
        is no 1), and its handler is given the listed action itself, so a handler never checks
        what membership guarantees. A refused action is explained by `why_illegal` (a game's
        sentence) or, where the game says nothing, by a generic sentence.

        Parameters `legal` cannot list (a free amount, a line of text) are the game's
        `free_fields`: `legal` lists such an action without them, membership is judged without
        them, and `why_illegal` is asked about every action of such a game (None: its values
        are fine), free values present or missing. None of the built-in games has one: every
        card, seat, claim, gun count and gesture they take is listed.
        """
        # The fast path: the very object `legal(seat)` just listed (a driver or bot chose it
        # from that list, and nothing has moved since), so it is legal as it is: no need to
        # list, compare and check again (the game is not over, the seat and type are real).
        if self._trusted:  # (a bot's look-ahead: see `trusted`)
            self._moves += 1
            self._emitted = []
            self._dispatch[action["type"]](self, seat, action, now)  # type: ignore[index]
            return self._emitted
        moves, asked, last = self._last_legal
        # (`type(seat)`: True == 1, but True is no seat; the search for the very object runs in
        # C: `legal` may list hundreds)
        if (
            moves == self._moves
            and asked == seat
            and type(seat) is int
            and not self.free_fields
            and any(map(is_, last, repeat(action)))
        ):
            handler = self._dispatch.get(action["type"])  # type: ignore[call-overload]
            if handler is not None:  # (a type listed that no handler takes: refused below)
                self._moves = moves + 1
                self._emitted = []
                handler(self, seat, action, now)
                return self._emitted
        if self.over:
            raise IllegalAction("the game is over")
        if type(seat) is not int or not 0 <= seat < self.players:  # (True is not a seat)
            raise IllegalAction(f"there is no seat {seat!r} at this table")
        if not isinstance(action, dict):
            raise IllegalAction("an action must be a map with a 'type'")
        kind = action.get("type")
        if kind == "time":
            return self._time(now)
        handler = self._dispatch.get(kind) if type(kind) is str else None
        if handler is None:
            raise IllegalAction(f"unknown action type {kind!r}")
        listed = self._listed(seat, action, str(kind))
        self._moves += 1
        self._emitted = []
        handler(self, seat, listed, now)
        return self._emitted

    def _listed(self, seat: int, action: dict[str, object], kind: str) -> Action:
        """The action of `legal(seat)` that `action` is (with any free fields' values), or
        IllegalAction saying why there is none (see `apply`)."""
        action = self.normal_form(action)
        free_fields = self.free_fields
        free = {k: v for k, v in action.items() if k in free_fields} if free_fields else {}
        shape = {k: v for k, v in action.items() if k not in free} if free else action
        legal = self.legal(seat)
        listed = listed_as(legal, shape)
        free_ok = not self.free_fields  # (a game with free fields is always asked about them)
        why = None if listed is not None and free_ok else self.why_illegal(seat, action)
        if listed is None or why is not None:
            raise IllegalAction(why or refusal(kind, legal))
        return {**listed, **free} if free else listed

    def normal_form(self, action: Action) -> Action:
        """`action` as `legal` would list it (the default: as it is). A game that accepts other
        spellings of an action says here how they read: a claim's alias (roach's "toad" is a
        frog), a field left at its default (a pass that looks), a list in another order (three
        guns handed out to 2, 0, 0). It must not raise: junk is returned as it came, and refused.
        """
        return action

    def why_illegal(self, seat: int, action: Action) -> str | None:
        """Why `seat` may not take `action` (in its `normal_form`, not among `legal(seat)`):
        the sentence the player is shown ("you must play a club, a 7, or a wild card"), or None
        for the generic one. Asked only about refused actions (and about actions with
        `free_fields`, where None means their values are fine): it explains, `legal` decides.
        This one asks the method `refusals` names for the action's type; a game with a reason
        that holds for every type (the wrong phase) says it first, then asks this.
        """
        explain = self._explain.get(action["type"])
        return None if explain is None else explain(self, seat, action)

    def why_not_a_seat(self, value: object, ask: str) -> str | None:
        """For `why_illegal`: why `value` names no seat at this table, `ask` (the sentence that
        asks for a seat number) if it is not a whole number; None if it names one."""
        if not isinstance(value, int) or isinstance(value, bool):
            return ask
        if not 0 <= value < self.players:
            return f"there is no seat {value} at this table"
        return None

    def deadline(self) -> float | None:
        """The table time at which the game changes by itself, or None (only moves change it).

        From that moment the table submits `{"type": "time"}` (for any seat, before any other
        action), so that what the clock decided is in the action log and replays exactly.
        """
        return None

    def _time(self, now: float) -> list[Event]:
        due = self.deadline()
        if due is None or now < due:
            raise IllegalAction("nothing is waiting on the clock")
        self._moves += 1
        self._emitted = []
        self._time_passes(now)
        return self._emitted

    def may_talk(self, seat: int) -> str | None:
        """Why `seat` may not talk at the table now (a sentence for the player), or None: it may.

        Every path that carries a player's words at a table asks it first: claims
        (`Table.say`) and table chat over the network. A game whose rules impose silence (eyes
        closed, a player who lost their tongue) overrides it; by default everyone may talk.
        Lobby chat, away from any table, is not a game's business.
        """
        return None

    def visible_waiting(self, seat: int | None) -> list[int]:
        """The seats `seat` may see the game waiting for (games with secret prompts narrow it)."""
        return sorted(self.waiting_for())

    def view(self, seat: int | None) -> View:
        """What `seat` may know now; None is a spectator who sees only public information.

        The game's own keys (`_view`) and the ones every view has (see the class docstring).
        """
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat} at this table")
        view: View = dict(self._view(seat))
        view["game"] = self.game.name
        view["seat"] = seat
        view["players"] = self.players
        view["over"] = over = self.over
        view["result"] = self.result() if over else None
        view["waiting"] = self.visible_waiting(seat)
        view["log"] = self.visible_log(seat)
        return view

    def visible_log(self, seat: int | None) -> list[Event]:
        """The log's events `seat` may see, oldest first, in a new list.

        A table builds every seat's view after every action and the log mostly only grows, so
        each seat's filtered log is kept and only the events added since are looked at; events
        `log_limit` dropped from the front are dropped from it too (by their numbers since the
        game began), rather than the whole log being looked at again after every action.
        """
        log, dropped = self.log, self._dropped
        seen = self._log_views.get(seat)
        if seen is None or seen.log is not log:  # the first view, or a new round's log
            seen = self._log_views[seat] = SeenLog(log, dropped)
        elif seen.numbers and seen.numbers[0] < dropped:
            gone = bisect_left(seen.numbers, dropped)
            del seen.events[:gone], seen.numbers[:gone]
        events, numbers = seen.events, seen.numbers
        for index in range(max(seen.end - dropped, 0), len(log)):
            event = log[index]
            to = event["to"]
            if to is None or (seat is not None and seat in to):
                events.append(event)
                numbers.append(dropped + index)
        seen.end = dropped + len(log)
        return list(events)

    @classmethod
    def from_view(cls, view: View, rng: random.Random) -> State:
        """A quiet state consistent with `view`: what the viewer saw is as it was, and what it
        could not see is dealt from `rng` (a game may take keywords that deal it as a bot
        guesses instead). Bots' look-ahead plays in these, never in the real state: a game may
        make it `trusted` too.

        Games whose bots look ahead implement it; `sample` is the same from a real state.
        """
        raise NotImplementedError(f"{cls.__name__} cannot be rebuilt from a view")

    def sample(self, seat: int, rng: random.Random) -> State:
        """A state `seat` could not tell from this one: `from_view` of its view (OpenSpiel's
        resample_from_infostate). The contract test plays both and compares what `seat` sees."""
        return type(self).from_view(self.view(seat), rng)

    def result(self) -> Result:
        """Final outcome (a `contract.Result`: winners, scores, rounds...); only once over."""
        if not self.over:
            raise ValueError("the game is not over")
        return cast(Result, self._result())

    def emit(
        self, kind: str, text: str, to: Iterable[int] | None = None, **fields: Any
    ) -> Event | None:
        """Report what happened: an event for the action's result and the log (None when quiet).

        `kind` names it and `fields` carry its facts; `text` is the sentence people read.
        """
        if self.quiet:
            return None
        new = {"kind": kind, "text": text, "to": None if to is None else sorted(to), **fields}
        self._emitted.append(new)
        log = self.log
        log.append(new)
        if self.log_limit is not None and len(log) > self.log_limit:
            del log[0]
            self._dropped += 1
        return new

    def restart_log(self, keep: int = 0) -> None:
        """Start the log afresh (a new round), keeping its last `keep` events."""
        self.log = self.log[-keep:] if keep else []

    # -- optional hooks: words, secrets, a bot's judgement ---------------------------------
    @classmethod
    def describe(cls, action: Action, view: View) -> str | None:
        """`action` in words for the player whose `view` it is, seats written ``{n}`` as in
        events ("play the Guard on {2}, guessing Priest"), or None: the generic words.

        The generic screen groups many choices by their first key and asks for a group's words
        with the action cut to its type and first field (``{"type": "play", "card": "guard"}``),
        so a game that describes should say a part as well as a whole.
        """
        return None

    def secrets(self, seat: int | None) -> Secrets | None:
        """What `seat` (None: a spectator) must not know now, declared by the game: each secret
        as the (field, value) pair that would betray it in any frame, and why it is secret
        (``("hand", ("princess",)): "seat 2 holds the Princess"``). Lists are given as tuples.

        Two fields stand for anywhere: ``(WORD, "7H")``, a word no public fact uses (a card
        code unique in its deck), betrays the secret wherever it is written, in a sentence
        too; ``(GROUP, ("bat", "fly", "fly"))``, things hidden together (a hand, a pile,
        sorted), as a list of the same items in any order (`hidden_group` declares one, unless
        it looks like something the seat sees).

        The leak scanner (``tablegames/testing/scanner.py``) judges a game that declares its
        secrets by these pairs alone, so they must be exact: name the fields the game keeps for
        secret facts (``hand``, ``drew``, ``saw``), never a field that public facts use too,
        and leave out what this seat knows already (its own hand, a card it was shown). View
        keys that tell what was public once are named in `history`. None (the default): not
        declared, the scanner guesses from the views.
        """
        return None

    def evaluate(self, seat: int) -> float | None:
        """How `seat` stands in this unfinished game, from 0 (surely lost) to 1 (surely won),
        at a position where a look-ahead may stop and judge instead of playing on (the end of
        a round: the scores so far), or None: play on (the default, everywhere).

        The generic look-ahead bots (`tablegames.bots.generic`) end each playout at the first
        position after their move where it is a number: in a game of many rounds a playout to
        the very end says little about one move, so `hard` is worth its name only with it.
        """
        return None

    # -- several seats at once: choices sealed until all are in ----------------------------
    def commit(
        self, choices: SecretChoices, seat: int, choice: object, told: str, field: str = "chosen"
    ) -> None:
        """Seal `seat`'s `choice` among `choices` (IllegalAction if it may not choose now): the
        seat alone is told `told` (its words: "You bid the 5."), in an event whose `field` is
        ``[seat, choice]`` (the field `secrets` names). The others see that it chose by the
        game no longer waiting for it."""
        choices.choose(seat, choice)
        self.emit("chose", told, (seat,), seat=seat, **{field: [seat, choice]})

    def reveal(self, choices: SecretChoices, text: str, kind: str = "revealed") -> list[Any]:
        """Open every sealed choice at once in one public event (`text`, its ``choices`` one
        per seat, None for a seat that was not asked); returns them, and `choices` asks
        nobody until it is asked again."""
        opened = choices.reveal(self.players)
        self.emit(kind, text, choices=list(opened))
        return opened

    @classmethod
    def heuristic(cls, view: View, action: Action) -> float:
        """How good `action` looks to the seat whose `view` it is (higher is better): the
        generic bots' judgement for a game without bots of its own (`tablegames.bots.generic`):
        its `normal` and `hard` play the best action by it, and look-ahead plays out by it.
        Games that define neither this nor `from_view` get random bots only, and say so.
        """
        raise NotImplementedError(f"{cls.__name__} has no heuristic")

    # -- hooks --------------------------------------------------------------------------------
    def _legal(self, seat: int) -> Sequence[Mapping[str, object]]:
        """Every action `seat` may take now, as a list of the game's own action types."""
        raise NotImplementedError

    def _waiting_for(self) -> frozenset[int]:
        raise NotImplementedError

    def _view(self, seat: int | None) -> Mapping[str, object]:
        """The game's own keys of `seat`'s view (its own view type: `view` adds the shared ones)."""
        raise NotImplementedError

    def _result(self) -> Mapping[str, object]:
        """The outcome: the `contract.Result` keys, and any of the game's own."""
        raise NotImplementedError

    def _time_passes(self, now: float) -> None:
        """Settle what the clock decided at `deadline()` (games with a deadline implement it)."""
        raise NotImplementedError


def listed_as(legal: list[Action], action: Action) -> Action | None:
    """The action of `legal` that `action` is (equal, with the same types), or None."""
    try:
        found = legal[legal.index(action)]  # (a loop in C: `legal` may list hundreds)
    except ValueError:
        return None
    if same_data(found, action):
        return found
    return next((other for other in legal if other == action and same_data(other, action)), None)


def same_data(listed: object, sent: object) -> bool:
    """True if `sent`, equal to `listed`, also has its types, all the way down: Python finds
    ``true == 1`` and ``1.0 == 1``, but a player who sends ``true`` for one gun is refused."""
    kind = type(listed)
    if kind is not type(sent):
        return False
    if kind is dict:
        assert isinstance(listed, dict) and isinstance(sent, dict)
        pairs = [(value, sent[key]) for key, value in listed.items()]
    elif kind is list or kind is tuple:
        assert isinstance(listed, list | tuple) and isinstance(sent, list | tuple)
        pairs = list(zip(listed, sent, strict=True))
    else:
        return True
    for mine, theirs in pairs:  # (a loop, not `all`: this runs for every action applied)
        inner = type(mine)
        if inner is not type(theirs) or (inner in NESTED and not same_data(mine, theirs)):
            return False
    return True


NESTED = (dict, list, tuple)


def refusal(kind: str, legal: Sequence[Action]) -> str:
    """The generic sentence for an action of type `kind` that is not among `legal`."""
    if not legal:
        return "you have nothing to do now"
    if all(action.get("type") != kind for action in legal):
        return f"you cannot {kind.replace('_', ' ')} now"
    return f"that {kind.replace('_', ' ')} is not one of your choices now"


class SecretChoices:
    """Choices several seats make at the same time, each sealed until all are in: a round of
    sealed bids, a card every player picks at once (see `State.commit` and `State.reveal`).

    `ask` names the seats to choose; the game waits for those that have not (`waiting`); a
    seat sees its own choice (`mine`) and that the others chose, never what; `secrets` names
    the others' choices for the leak scanner. Plain data: a state holding one still copies.
    The choices are the game's own plain values, read as the game reads them (`reveal`).
    """

    def __init__(self) -> None:
        self.asked: frozenset[int] = frozenset()
        self.chosen: dict[int, Any] = {}

    def ask(self, seats: Iterable[int]) -> None:
        """A new round of choices for `seats` (anything sealed before is forgotten)."""
        self.asked, self.chosen = frozenset(seats), {}

    @property
    def waiting(self) -> frozenset[int]:
        """The seats asked that have not chosen yet."""
        return self.asked - self.chosen.keys()

    @property
    def complete(self) -> bool:
        """True once every seat asked has chosen (and someone was asked)."""
        return bool(self.asked) and not self.waiting

    def choose(self, seat: int, choice: object) -> None:
        """Seal `seat`'s choice; IllegalAction if it was not asked or has chosen already."""
        if seat in self.chosen:
            raise IllegalAction("you have chosen already: wait for the others")
        if seat not in self.asked:
            raise IllegalAction("you are not asked to choose now")
        self.chosen[seat] = choice

    def mine(self, seat: int | None) -> Any:
        """`seat`'s own sealed choice (None: none yet, or a spectator)."""
        return None if seat is None else self.chosen.get(seat)

    def reveal(self, players: int) -> list[Any]:
        """Every choice, one per seat (None for a seat not asked); nobody is asked after."""
        opened = [self.chosen.get(seat) for seat in range(players)]
        self.asked, self.chosen = frozenset(), {}
        return opened

    def secrets(self, seat: int | None, field: str = "chosen") -> Secrets:
        """The others' sealed choices as `State.secrets` declares them: ``(field, (other,
        choice))``, the pair `State.commit`'s private event carries."""
        return {
            (field, (other, _plain(choice))): f"seat {other}'s sealed choice"
            for other, choice in self.chosen.items()
            if other != seat
        }


def _plain(value: object) -> object:
    """`value` with its lists as tuples (secrets' values are hashable)."""
    return tuple(_plain(item) for item in value) if isinstance(value, list) else value


def hidden_group(
    found: Secrets,
    items: Iterable[str],
    why: str,
    seen: Iterable[Iterable[str] | None] = (),
    minimum: int = 2,
) -> None:
    """Declare `items` hidden together (a hand, a pile) in `found` as a `GROUP` secret, unless
    they are fewer than `minimum` or just like a group the seat sees (`seen`: its own hand,
    cards face up), which would look like a leak where there is none. (A pile of two or three
    common cards looks like any pair laid out: such piles are declared from a larger
    `minimum`.)"""
    group = tuple(sorted(items))
    if len(group) >= minimum and group not in {tuple(sorted(other)) for other in seen if other}:
        found.setdefault((GROUP, group), why)


@dataclass(frozen=True)
class Panel:
    """View keys the generic screen shows together, in this order, under `title`
    (`State.panels`)."""

    title: str
    keys: tuple[str, ...]


Maker = TypeVar("Maker", bound=Callable[..., tuple[Mapping[str, object], ...]])


def made_once(make: Maker) -> Maker:
    """`make` (actions from hashable arguments alone) made once for each set of arguments and
    handed out as they are: `legal` lists them for every action of every playout, and an answer
    of `legal` is the engine's own, never changed by whoever holds it (nor the actions in it).
    The tests (`State.checking`) hold them to it: an action changed since it was made fails
    the next `legal` that hands it out."""
    made = cache(make)

    @wraps(make)
    def handed_out(*args: Hashable) -> tuple[Mapping[str, object], ...]:
        actions = made(*args)
        if State.checking and actions != make(*args):
            raise AssertionError(f"an action of {make.__name__}{args} was changed by its holder")
        return actions

    return cast(Maker, handed_out)


def visible_to(event: Event, seat: int | None) -> bool:
    """True if `seat` may see `event` (events carry `to`: None for public, else a list of seats)."""
    to = event.get("to")
    return to is None or (seat is not None and seat in to)


@dataclass(frozen=True)
class Option:
    """A setting players choose when they set up a game: the keyword `Game.new` takes as `name`.

    The command line (``--name``), the setup screens and the tests all read this one
    description. `help` is the phrase they show; `choices` the values offered (a bool offers
    yes and no); a default of None leaves the choice to the game (shown as "auto"); `quick` is
    the value that makes a short game for tests and quick benchmarks (None: the default).
    """

    name: str
    kind: type[bool] | type[int] | type[float] | type[str]
    default: bool | int | float | str | None
    help: str
    choices: tuple[object, ...] = ()
    label: str = ""
    quick: bool | int | float | str | None = None

    @property
    def title(self) -> str:
        """The setup screen's label: `label`, else the name in words."""
        return self.label or self.name.replace("_", " ").capitalize()

    @property
    def values(self) -> tuple[object, ...]:
        """What a setup screen offers, the default first when it is not among the choices."""
        offered = self.choices or ((False, True) if self.kind is bool else ())
        return offered if self.default in offered else (self.default, *offered)

    def check(self, value: object) -> None:
        """SetupError unless `value` is of this option's kind and among its choices."""
        # (True is an int to Python, and 1 is no bool: kinds are compared exactly.)
        fits = type(value) is self.kind or (self.kind is float and type(value) is int)
        if not fits or (self.choices and value not in self.choices):
            if self.choices:
                wanted = " or ".join(map(str, self.choices))
            else:
                wanted = "true or false" if self.kind is bool else f"a {self.kind.__name__}"
            raise SetupError(f"{self.name} must be {wanted}, not {value!r}")


@dataclass(frozen=True, eq=False)
class Checks:
    """How the per-game checks (`tablegames check`, `tablegames/testing/`) play a game, where
    their defaults do not fit: each field says its default."""

    #: (players, seats played by recording clients) at the leak test's table over real sockets
    #: (None: `players`, every seat but one).
    leak_table: tuple[int, int] | None = None
    #: Players at a small table (illegal input, a whole game replayed) and at the stateful
    #: server test's (None: the default table size, four at most).
    players: int | None = None
    core_players: int | None = None
    #: What makes the options of a network test's table: "package.module:NAME", NAME called
    #: with `(players, rng)` (a deal stacked so that random players finish); "": the quick
    #: options.
    deal: str = ""
    #: The stateful server test's options (None: the quick options).
    core_options: Mapping[str, object] | None = None
    #: A line of the game's own keys as its screen's help lists them ("": the generic screen's).
    own_key: str = ""
    #: Whether its rules let a game end with nobody winning (a faction nobody is left in).
    may_end_without_winners: bool = False
    #: The hurried players' table: (players, people at the keyboard, options, the game's own
    #: keys they press); None: every seat at the keyboard, the quick options, the generic keys.
    hurried: tuple[int, int, Mapping[str, object], tuple[str, ...]] | None = None


@dataclass(frozen=True)
class Game:
    """A registered game: metadata plus how to start and replay one.

    `options` are what players choose (see `Option`); `setups` are further keywords `new` takes
    that stack a game exactly (hands, deck order...), for tests and replays, not for players.
    `bots` and `screen` name, as import strings ("package.module:NAME"), a game's own bots (a
    map level -> bot class taking `(seat, rng)`) and its own table screen (a `GameScreen`
    subclass); "" leaves it to the generic ones. `talk` names its vocabulary of claims (a
    module, see `tablegames/talk.py`). Strings, so that knowing a game imports none of them.
    `checks` says how the per-game checks play it where their defaults do not fit.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    blurb: str
    #: Makes a state: `factory(players, seed, **options)`, usually the `State` subclass; or
    #: its import string ("package.module:NAME"), imported when a game starts, so that
    #: knowing the game costs no engine.
    factory: Callable[..., State] | str = field(repr=False)
    options: tuple[Option, ...] = ()
    setups: tuple[str, ...] = ()
    chat: bool = True  # whether players may chat at the table (crabs uses gestures instead)
    #: Played in real time (no turns): bots act after reaction times a table may speed up.
    realtime: bool = False
    #: Bumped whenever a rule changes what a saved action log means: a table saved under other
    #: rules is not replayed (it would become a different game).
    rules_version: int = 1
    #: The rules for players, as Markdown, for a game without ``rules/texts/<name>.md``.
    rules: str = field(default="", repr=False)
    #: The game's own bots: "package.module:NAME", NAME a map level -> bot class ("": generic).
    bots: str = ""
    #: A few words on how its bot levels differ, for where a level is chosen ("": nothing to
    #: say). Crabs: which levels read signals.
    bots_note: str = ""
    #: The game's own table screen: "package.module:NAME", a `GameScreen` class ("": generic).
    screen: str = ""
    #: What a player keeps to themselves, in the words a hot-seat hand-off says ("I am Sara:
    #: show my cards"): "cards" for a card game, "role" for one of hidden roles...
    private_words: str = "secrets"
    #: The game's vocabulary of claims, the table's talk: "package.module", a module with
    #: `MOMENTS`, `check` and `sentence` (`tablegames/talk.py`; "": no talk but chat).
    talk: str = ""
    #: How the per-game checks (`tablegames check`) play it, where their defaults do not fit.
    checks: Checks = field(default_factory=Checks, repr=False)

    @property
    def make(self) -> Callable[..., State]:
        """What makes a state of this game (`factory`, imported if named by a string)."""
        factory = self.factory
        if isinstance(factory, str):
            made: Callable[..., State] = resolve(factory)
            return made
        return factory

    @property
    def state_class(self) -> type[State]:
        """The `State` subclass whose class hooks (`describe`, `per_seat`, `heuristic`,
        `from_view`...) say how to show and judge this game without a state at hand."""
        factory = self.make
        return factory if isinstance(factory, type) and issubclass(factory, State) else State

    def implements(self, hook: str) -> bool:
        """True if this game's state class overrides the optional `State` hook `hook`
        (``"from_view"``, ``"heuristic"``, ``"describe"``, ``"secrets"``)."""
        own = getattr(self.state_class, hook, None)
        base = getattr(State, hook)
        return getattr(own, "__func__", own) is not getattr(base, "__func__", base)

    @property
    def option_names(self) -> tuple[str, ...]:
        """Every keyword `new` takes besides players and seed: options, then set-ups."""
        return (*(option.name for option in self.options), *self.setups)

    def chosen(self, options: Mapping[str, object]) -> dict[str, Any]:
        """`options` as players may choose them: this game's declared options only, each with
        a value it declares. A set-up (a stacked deal, a role, the first player...) stacks a game
        for tests and replays; from a player it is refused, SetupError saying why, so a table's
        creator can never choose what a friend is dealt."""
        declared = {option.name: option for option in self.options}
        for name, value in options.items():
            if name not in declared:
                offered = (
                    f"{self.title}'s options: {', '.join(declared)}"
                    if declared
                    else f"{self.title} has no options"
                )
                raise SetupError(f"{name} is not for players to choose ({offered})")
            declared[name].check(value)
        return dict(options)

    def quick_options(self) -> dict[str, Any]:
        """The options that make a short game (crates: 8 rounds, not 15), for tests."""
        return {option.name: option.quick for option in self.options if option.quick is not None}

    def new(self, players: int, seed: int, **options: object) -> State:
        """A new game for `players` seats, deterministic for a given seed and options."""
        if not self.min_players <= players <= self.max_players:
            raise SetupError(
                f"{self.title} takes {self.min_players}–{self.max_players} players, not {players}"
            )
        unknown = set(options) - set(self.option_names)
        if unknown:
            raise SetupError(f"unknown option(s) for {self.name}: {', '.join(sorted(unknown))}")
        for option in self.options:
            value = options.get(option.name)
            if value is not None:
                option.check(value)
        state = self.make(players, seed, **options)
        state.game = self
        return state

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self  # a game is immutable: copies of a state share it

    def replay(
        self,
        players: int,
        seed: int,
        options: dict[str, object],
        log: Sequence[LogEntry] | Iterable[Sequence[Any]],
    ) -> State:
        """The state reached by applying `log` [(seat, action, now), ...] to a new game."""
        state = self.new(players, seed, **options)
        for seat, action, now in log:
            state.apply(seat, action, now)
        return state


#: Every game, by name, in the order menus list them.
GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add `game` to the registry under its name and return it; ValueError if another game
    already has that name (a game from elsewhere cannot take a built-in one's place)."""
    known = GAMES.get(game.name)
    if known is not None and known is not game:
        raise ValueError(f"another game is already called {game.name!r} ({known.title})")
    GAMES[game.name] = game
    return game


def resolve(reference: str) -> Any:
    """The object an import string names: "package.module:NAME" (NAME may be dotted)."""
    module_name, _, attribute = reference.strip().partition(":")
    found: Any = importlib.import_module(module_name)
    for part in filter(None, attribute.split(".")):
        found = getattr(found, part)
    return found


def load(reference: str) -> Game:
    """Import the game `reference` names ("package.module:NAME", NAME a `Game`, by default
    GAME) and register it.

    This is how every game joins the registry, from an entry point of the group
    ``tablegames.games`` (tablegames' own as the rules are imported, the other packages' and
    TABLEGAMES_GAMES's in `plugins.load_games`). See `declared` for what it raises.
    """
    return register(declared(reference))


def declared(reference: str) -> Game:
    """The game `reference` names ("package.module:NAME", NAME a `Game`, by default GAME),
    imported but not registered.

    The module's own exception is raised as it is, whatever it is (an import it lacks, a
    mistake in its code); ImportError says that the module has no such name, TypeError that
    the name is not a `Game`.
    """
    module_name, _, attribute = reference.strip().partition(":")
    if not module_name:
        raise ImportError(f"{reference!r} names no module (want 'package.module:NAME')")
    module = importlib.import_module(module_name)
    name = attribute or "GAME"
    game: object = module
    for part in name.split("."):
        if not hasattr(game, part):
            wanted = "want 'package.module:NAME'"
            raise ImportError(f"the module {module_name} has no {name} ({wanted})")
        game = getattr(game, part)
    if not isinstance(game, Game):
        raise TypeError(f"{module_name}:{name} is a {type(game).__name__}, not a tablegames Game")
    return game


def get_game(name: str) -> Game:
    """The registered game called `name`; KeyError with the known names otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise KeyError(f"no game called {name!r} (known: {known})") from None
