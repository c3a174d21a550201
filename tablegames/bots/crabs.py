"""You've Got Crabs bots: `random`, `normal` and `hard`, playing in real time.

A crabs bot decides *what* from its own view and *when* from the table's time (`view["now"]`,
given by the driver with `view["speed"]`): it picks what it would like to do, waits a human-like
reaction time for it (divided by the speed) and returns None until then. `wake_at()` tells the
driver when to ask again if nothing changes. Without `now` in the view (a headless network bot)
it acts at once. Everything it knows comes from the view: its hand, the ocean and the public log
(swaps, gestures, calls), which `Reader` turns into beliefs about the other seats.

In the huddle before play every level agrees at once with its team's pick (a partner's, else
the gesture the team was dealt), so a human partner's pick is never overruled; `hard`, if nobody
on its team has picked yet, proposes two signals (the dealt gesture and another) and makes either.

- `normal` collects the kind it holds most of, signals its partner when it has four (and makes a
  decoy gesture now and then), calls its partner on the team's signal, learns an opponent team's
  signal from gestures that came just before correct calls, and calls an opponent who makes it
  (`steal_time`: about as fast as a partner would, so a team that signals openly loses most of
  its fours once its signal has shown; a newcomer showed that a slower reader never stole), or
  who has shown four of a kind through swaps (`accuse_time`, slower: cards are less sure).
- `hard` reacts faster, feeds its partner (who sits on the other side and swaps next) the kind
  the partner is collecting and keeps opponents' kinds out of the ocean, signals with either of
  its team's two signals, makes more decoys, and also calls on what the swaps and laid-down hands
  say (a player collecting one kind who lays their hand down with that kind in the ocean).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar

from ..rules.crabs import COPIES, HAND_SIZE, is_crab, seat_teams
from ..rules.crabs_huddle import pick_action
from ..rules.crabs_types import (
    AccuseAction,
    AccuseEvent,
    CrabsAction,
    CrabsEvent,
    CrabsView,
    DoubleTakeAction,
    GestureAction,
    SignalAction,
    SwapAction,
)
from .typed import GameBot, seat_of

# -- reading the public log -----------------------------------------------------------------------

#: Gestures by a target this long before a correct call count fully as evidence of their signal.
SIGNAL_WINDOW = 6.0
#: Older gestures since the target's last new hand count this much.
OLD_GESTURE_WEIGHT = 0.3
#: How long a signal seen from a partner (or an opponent) stays worth a call.
SIGNAL_FRESH = 8.0


@dataclass
class SeatNotes:
    """What the public log says about one other seat since it last drew a new hand."""

    known: Counter[str] = field(default_factory=Counter)  # cards it must hold (it took them)
    gestures: list[tuple[float, str]] = field(default_factory=list)
    content_with: str | None = None  # laid down collecting this kind while one lay in the ocean
    signalled_at: float | None = None  # made (what we believe is) its team's signal
    called: bool = False  # we called it since its last signal or swap: not again


class Reader:
    """Beliefs built from the log a seat sees: known cards, collections, signals, discards."""

    def __init__(self, seat: int, learn_threshold: float = 1.0) -> None:
        self.seat = seat
        self.learn_threshold = learn_threshold  # evidence needed to trust a learned signal
        self.notes: dict[int, SeatNotes] = {}
        self.discarded: Counter[str] = Counter()  # face-down discards we know of (since a shuffle)
        self.ocean: Counter[str] = Counter()
        self.evidence: dict[int, dict[str, float]] = {}  # team -> gesture -> weight as its signal
        self.team_signals: frozenset[str] = frozenset()  # our team's (fixed once play begins)
        self.caught: list[tuple[float, int, int]] = []  # (time, accuser, target) correct calls
        self.refills = 0  # ocean refills seen
        self._last_time = -math.inf
        self._seen_at_last = 0
        self.fresh: list[CrabsEvent] = []  # the events read by the latest `read`

    def notes_for(self, seat: int) -> SeatNotes:
        """What we know of `seat` (nothing yet, the first time)."""
        notes = self.notes.get(seat)
        if notes is None:
            notes = self.notes[seat] = SeatNotes()
        return notes

    def read(self, view: CrabsView) -> None:
        """Take in the events of `view["log"]` not read before (the log's times never go back)."""
        self.team_signals = frozenset(view["signals"])
        fresh = []
        at_last = 0
        for event in view["log"]:
            time = event["time"]
            if time < self._last_time:
                continue
            if time == self._last_time:
                at_last += 1
                if at_last <= self._seen_at_last:
                    continue
            fresh.append(event)
        for event in fresh:
            time = event["time"]
            if time > self._last_time:
                self._last_time, self._seen_at_last = time, 0
            self._seen_at_last += 1
            self._take(event, view)
        self.fresh = fresh
        self.ocean = Counter(view["ocean"])

    def _take(self, event: CrabsEvent, view: CrabsView) -> None:
        time = event["time"]
        if event["kind"] == "swap":
            seat = event["seat"]
            self.ocean[event["took"]] -= 1
            self.ocean[event["gave"]] += 1
            if seat != self.seat:
                notes = self.notes_for(seat)
                notes.content_with = None
                notes.called = False
                if notes.known[event["gave"]]:
                    notes.known[event["gave"]] -= 1
                notes.known[event["took"]] += 1
                notes.known = +notes.known
        elif event["kind"] == "gesture":
            self._gesture(view, event["seat"], event["gesture"], time)
        elif event["kind"] == "refill":  # the ocean was discarded and refilled
            self.refills += 1
            self.discarded.update(+self.ocean)
            self.ocean = Counter(event["ocean"])
        elif event["kind"] == "accuse":
            self._call(event, view, time)
        elif event["kind"] == "done" and event["seat"] != self.seat:
            laid = self.notes_for(event["seat"])
            if len(laid.known) == 1:
                (kind_held,) = laid.known
                if self.ocean[kind_held] > 0 and laid.known[kind_held] >= 2:
                    laid.content_with = kind_held
        elif event["kind"] == "redraw":
            if event["seat"] != self.seat:
                self.notes[event["seat"]] = SeatNotes()
        elif event["kind"] == "reshuffle":
            self.discarded.clear()

    def _gesture(self, view: CrabsView, seat: int, name: str, time: float) -> None:
        """Note a gesture, and whether it is a signal we know: our team's or a learned one."""
        notes = self.notes_for(seat)
        notes.gestures.append((time, name))
        if seat == self.seat:
            return
        team_of = seat_teams(view["teams"], view["players"])
        team = team_of[seat]
        known: set[str | None] = set()
        if team == team_of[self.seat]:
            known.update(self.team_signals)
        else:
            known.add(self.signal_of(team, self.learn_threshold))
        if name in known:
            notes.signalled_at, notes.called = time, False

    def _call(self, event: AccuseEvent, view: CrabsView, time: float) -> None:
        accuser, target = event["accuser"], event["target"]
        team_of = seat_teams(view["teams"], view["players"])
        team = team_of[target]
        notes = self.notes_for(target)
        if event["correct"]:
            self.discarded.update(event.get("cards", []))
            self.caught.append((time, accuser, target))
            if team != team_of[self.seat]:
                self._learn(team, notes, time)
        else:
            notes.signalled_at = None
            evidence = self.evidence.get(team)
            if evidence is not None and team != team_of[self.seat]:
                for when, gesture in notes.gestures:  # a decoy fooled someone: trust it less
                    if time - when <= SIGNAL_WINDOW:
                        evidence[gesture] = max(0.0, evidence.get(gesture, 0.0) - 0.5)

    def _learn(self, team: int, notes: SeatNotes, time: float) -> None:
        """A correct call on `team`'s player: their gestures just before it hint at the signal."""
        evidence = self.evidence.setdefault(team, {})
        recent = {g for when, g in notes.gestures if time - when <= SIGNAL_WINDOW}
        believed = self.signal_of(team, 0.0)
        if believed is not None and recent and believed not in recent:
            for gesture in evidence:  # the team seems to use another signal (it may have two)
                evidence[gesture] *= 0.3
        for _, gesture in notes.gestures:
            weight = 1.0 if gesture in recent else OLD_GESTURE_WEIGHT
            evidence[gesture] = evidence.get(gesture, 0.0) + weight
        notes.gestures.clear()

    def signal_of(self, team: int, threshold: float) -> str | None:
        """The gesture we believe is `team`'s signal, if the evidence clearly points to one."""
        evidence = self.evidence.get(team, {})
        ranked = sorted(evidence.items(), key=lambda item: (-item[1], item[0]))[:2]
        if not ranked or ranked[0][1] < threshold:
            return None
        if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < 0.5:
            return None
        return ranked[0][0]

    def unseen(self, view: CrabsView) -> Counter[str]:
        """Copies of each kind not in our hand, the ocean, known hands or known discards."""
        placed = Counter(view["hand"]) + Counter(view["ocean"]) + self.discarded
        for seat, notes in self.notes.items():
            if seat != self.seat:
                placed.update(notes.known)
        return Counter({kind: max(0, COPIES - placed[kind]) for kind in view["kinds"]})

    def held_elsewhere(self) -> Counter[str]:
        """Cards the log shows in other players' hands."""
        held: Counter[str] = Counter()
        for seat, notes in self.notes.items():
            if seat != self.seat:
                held.update(notes.known)
        return held

    def chance_of_four(self, view: CrabsView, seat: int, unseen: Counter[str]) -> float:
        """How likely `seat` holds four of a kind, from its known cards and the unseen ones."""
        known = self.notes_for(seat).known
        if len(known) != 1:
            return 0.0
        (kind,) = known
        missing = HAND_SIZE - known[kind]
        total = sum(unseen.values())
        chance = 1.0
        for step in range(missing):
            if total - step <= 0:
                return 0.0
            chance *= max(0, unseen[kind] - step) / (total - step)
        if missing and self.notes_for(seat).content_with == kind and unseen[kind] >= missing:
            # Collecting `kind`, it laid its hand down though one lay in the ocean: it has four,
            # or something kept it from swapping; the fewer it lacks, the likelier four.
            chance = max(chance, {1: 0.85, 2: 0.6}.get(missing, 0.0))
        return chance


def _speed(view: CrabsView) -> float:
    """The factor the driver divides our own timings by (how long others take is theirs)."""
    return view.get("speed", 1.0)


# -- judging hands ------------------------------------------------------------------------------

COUNT_VALUE = {0: 0.0, 1: 1.0, 2: 3.0, 3: 10.0, 4: 100.0}
#: A kind we cannot complete (copies held elsewhere, or waited for too long) is worth this much a
#: card: a live single card then beats a dead three, so we break it up for something better.
DEAD_VALUE = 0.5


def hand_value(
    hand: Counter[str], held_elsewhere: Counter[str], dead: frozenset[str] = frozenset()
) -> float:
    """How close `hand` is to four of a kind: its best kind, with the copies still to be had.

    `held_elsewhere` counts the copies known to be in other hands: out of reach. Copies in the
    ocean, the draw or the discard pile can all still come our way.
    """
    best = 0.0
    for kind, count in hand.items():
        reach = COPIES - count - held_elsewhere[kind]
        need = HAND_SIZE - count
        value = COUNT_VALUE[count] + 0.2 * min(reach, need)
        if need and (kind in dead or reach < need):
            value = DEAD_VALUE * count
        best = max(best, value)
    return best


# -- the bots -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """How a level plays: reaction times (seconds, low-high) and what it pays attention to."""

    swap_time: tuple[float, float]
    call_time: tuple[float, float]  # from a partner's signal to the call
    steal_time: tuple[float, float]  # from an opponent's signal (learned) to the call
    accuse_time: tuple[float, float]  # from an opponent's tell in the swaps to the call
    signal_time: tuple[float, float]  # from holding four to the signal
    decide_time: tuple[float, float]  # laying down, answering the question
    resignal_after: float  # signal again if no call came
    patience: int  # ocean refills without our hand changing before we give up on our best kind
    decoy_every: float  # mean seconds between decoy gestures
    learn_threshold: float  # evidence needed to trust a learned opponent signal
    accuse_chance: float  # call an opponent when the cards say at least this
    feeds_partner: bool = False
    two_signals: bool = False  # proposes two signals in the huddle (if nobody has picked yet)


NORMAL = Style(
    swap_time=(0.9, 1.8),
    call_time=(0.9, 1.8),
    steal_time=(1.0, 2.0),
    accuse_time=(1.2, 2.4),
    signal_time=(0.8, 2.0),
    decide_time=(1.0, 2.2),
    resignal_after=6.0,
    patience=5,
    decoy_every=40.0,
    learn_threshold=1.0,
    accuse_chance=0.99,
)
HARD = Style(
    swap_time=(0.6, 1.2),
    call_time=(0.5, 1.0),
    steal_time=(0.6, 1.2),
    accuse_time=(0.6, 1.2),
    signal_time=(0.4, 1.0),
    decide_time=(0.6, 1.4),
    resignal_after=4.0,
    patience=3,
    decoy_every=20.0,
    learn_threshold=0.9,
    accuse_chance=0.7,
    feeds_partner=True,
    two_signals=True,
)


@dataclass
class Intent:
    """What the bot means to do, and the table time its reaction will be over."""

    kind: str
    due: float


class CrabsBot(GameBot[CrabsView, CrabsAction]):
    """A bot that watches the table and acts after a reaction time; see the module docstring."""

    style = NORMAL

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self.reader = Reader(seat, self.style.learn_threshold)
        self.intent: Intent | None = None
        self.rechecks: list[float] = []
        self.signalled_at: float | None = None  # when we last made our signal while holding four
        self.four_since: float | None = None
        self.next_decoy: float | None = None
        self.last_hand: list[str] = []
        self.abandoned: set[str] = set()
        self.refills_at_change = 0

    # -- the driver's questions -------------------------------------------------------------------
    def wake_at(self) -> float | None:
        times = list(self.rechecks)
        if self.intent is not None:
            times.append(self.intent.due)
        return min(times, default=None)

    def decide(self, view: CrabsView, legal: list[CrabsAction]) -> CrabsAction | None:
        now = view.get("now")
        self.reader.read(view)
        self.rechecks = []
        if view["huddle"]:  # before play: agree (or propose) at once
            self.intent = None
            return huddle_pick(view, self.rng if self.style.two_signals else None)
        clock = now if now is not None else self._log_time(view)
        kind, action = self.pressing(view, legal, clock)
        if action is None or now is None:
            self.intent = None
            if action is not None:
                self._acted(kind, action, clock)
            return action
        if self.intent is None or self.intent.kind != kind:
            self.intent = Intent(kind, clock + self._reaction(kind) / _speed(view))
        if clock < self.intent.due:
            return None
        self.intent = None
        self._acted(kind, action, clock)
        return action

    @staticmethod
    def _log_time(view: CrabsView) -> float:
        return view["log"][-1]["time"] if view["log"] else 0.0

    def _reaction(self, kind: str) -> float:
        style = self.style
        low, high = {
            "swap": style.swap_time,
            "call": style.call_time,
            "steal": style.steal_time,
            "accuse": style.accuse_time,
            "signal": style.signal_time,
        }.get(kind.split(":")[0], style.decide_time)
        return low + (high - low) * self.rng.random()

    def _acted(self, kind: str, action: CrabsAction, now: float) -> None:
        if kind == "signal":
            self.signalled_at = now
        elif kind == "decoy":
            self.next_decoy = None
        elif action["type"] == "accuse":
            self.reader.notes_for(action["target"]).called = True

    # -- what to do -------------------------------------------------------------------------------
    def pressing(
        self, view: CrabsView, legal: list[CrabsAction], now: float
    ) -> tuple[str, CrabsAction | None]:
        """The most pressing thing to do now, by priority, with its kind of reaction."""
        self._note_caught()
        types = {action["type"] for action in legal}
        takes = [action for action in legal if action["type"] == "double_take"]
        if takes:
            return "collect", best_double_take(view, takes)
        call = self._call(view, legal, now)
        if call is not None:
            return call
        hand = view["hand"]
        # Gestures are not always allowed: while the empty pot waits for a double crab, only
        # the call that completes it may still be made.
        can_gesture = "gesture" in types
        if is_crab(hand):
            if self.four_since is None:
                self.four_since = now
            if can_gesture:
                if self.signalled_at is None or self.signalled_at < self.four_since:
                    return "signal", gesture(self._a_signal(view))
                again = self.signalled_at + self.style.resignal_after / _speed(view)
                if now >= again:
                    return "signal", gesture(self._a_signal(view))
                self.rechecks.append(again)
        else:
            self.four_since = None
        if "want_swap" in types:
            return "answer", {"type": "want_swap", "yes": self._wants_ocean(view)}
        swaps = [action for action in legal if action["type"] == "swap"]
        if swaps and not is_crab(hand):
            swap = self.best_swap(view, swaps)
            if swap is not None:
                return "swap", swap
        if "done" in types:
            return "done", {"type": "done"}
        if not can_gesture:
            return "decoy", None
        return self._decoy(view, now)

    def _note_caught(self) -> None:
        """After our four was called: a new hand, a new signal to make when it is four again."""
        for event in self.reader.fresh:
            if event["kind"] == "accuse" and event["correct"] and event["target"] == self.seat:
                self.signalled_at = None
                self.abandoned.clear()  # a new hand: every kind is worth collecting again

    def _a_signal(self, view: CrabsView) -> str:
        """The gesture to make for our four: the team's signal, or either of two."""
        signals = view["signals"]
        return signals[0] if len(signals) == 1 else self.rng.choice(signals)

    def _call(
        self, view: CrabsView, legal: list[CrabsAction], now: float
    ) -> tuple[str, AccuseAction] | None:
        """Call a partner who signalled, or an opponent who signalled or shows four."""
        team_of = seat_teams(view["teams"], view["players"])
        mine = team_of[self.seat]
        accusable = {a["target"] for a in legal if a["type"] == "accuse"}
        unseen = self.reader.unseen(view)
        best: tuple[float, int] | None = None
        stolen: dict[int, bool] = {}  # an opponent who made their team's signal (as we learned)
        for seat in sorted(accusable):
            notes = self.reader.notes_for(seat)
            if notes.called:
                continue
            when = notes.signalled_at
            chance = self.reader.chance_of_four(view, seat, unseen)
            signalled = False
            if when is not None and now - when <= SIGNAL_FRESH:
                self.rechecks.append(when + SIGNAL_FRESH)
                # Known cards of two kinds: that was a decoy, not four of a kind.
                signalled = len(notes.known) <= 1
                chance = max(chance, 0.95) if signalled else chance
            stolen[seat] = signalled
            partner = team_of[seat] == mine
            threshold = 0.9 if partner or signalled else self.style.accuse_chance
            if chance >= threshold and (best is None or chance > best[0]):
                best = (chance, seat)
        if best is None:
            return None
        seat = best[1]
        kind = "call" if team_of[seat] == mine else "steal" if stolen[seat] else "accuse"
        return f"{kind}:{seat}", {"type": "accuse", "target": seat}

    def _wants_ocean(self, view: CrabsView) -> bool:
        swaps: list[SwapAction] = [
            {"type": "swap", "hand": mine, "ocean": theirs}
            for mine in set(view["hand"])
            for theirs in set(view["ocean"])
            if mine != theirs
        ]
        return self.best_swap(view, swaps) is not None

    def best_swap(self, view: CrabsView, swaps: list[SwapAction]) -> SwapAction | None:
        """The swap that brings us closest to four of a kind, if any is worth making."""
        hand: Counter[str] = Counter(view["hand"])
        elsewhere = self.reader.held_elsewhere()
        dead = self._given_up(view, hand)
        before = hand_value(hand, elsewhere, dead)
        partner_kinds, rival_kinds = self._collections(view)
        best: tuple[float, int, SwapAction] | None = None
        for index, swap in enumerate(swaps):
            after = hand.copy()
            after[swap["hand"]] -= 1
            after[swap["ocean"]] += 1
            after = +after
            gain = hand_value(after, elsewhere, dead) - before
            if self.style.feeds_partner:
                gain += 1.5 * (swap["hand"] in partner_kinds) - 1.5 * (swap["hand"] in rival_kinds)
                if swap["ocean"] in partner_kinds and after[swap["ocean"]] < 3:
                    gain -= 1.0
            if gain > 0.5 and (best is None or (gain, -index) > (best[0], -best[1])):
                best = (gain, index, swap)
        return best[2] if best is not None else None

    def _given_up(self, view: CrabsView, hand: Counter[str]) -> frozenset[str]:
        """The kinds we stopped collecting: the ocean was refilled `patience` times while our
        hand stood still, so the missing copies are most likely in other hands.

        We stick to that (else we would take the cards straight back) until our hand is new.
        """
        if sorted(view["hand"]) != self.last_hand:
            self.last_hand = sorted(view["hand"])
            self.refills_at_change = self.reader.refills
        if self.reader.refills - self.refills_at_change >= self.style.patience:
            self.refills_at_change = self.reader.refills
            kind, count = hand.most_common(1)[0]
            if count >= 2:
                self.abandoned.add(kind)
        return frozenset(self.abandoned)

    def _collections(self, view: CrabsView) -> tuple[set[str], set[str]]:
        """Kinds our partners and the rivals who swap next are seen collecting (2+ known)."""
        team_of = seat_teams(view["teams"], view["players"])
        mine = team_of[self.seat]
        partner: set[str] = set()
        rivals: set[str] = set()
        for seat, notes in self.reader.notes.items():
            if seat == self.seat or view["sides"][seat] == view["sides"][self.seat]:
                continue
            kinds = {kind for kind, count in notes.known.items() if count >= 2}
            (partner if team_of[seat] == mine else rivals).update(kinds)
        return partner, rivals

    def _decoy(self, view: CrabsView, now: float) -> tuple[str, CrabsAction | None]:
        """Now and then a gesture that means nothing, so opponents cannot read us easily."""
        if view.get("now") is None:
            return "decoy", None  # no clock: no way to space them out
        if self.next_decoy is None:
            pause = self.rng.expovariate(1 / self.style.decoy_every)
            self.next_decoy = now + pause / _speed(view)
        if now < self.next_decoy:
            self.rechecks.append(self.next_decoy)
            return "decoy", None
        names = [name for name in view["gesture_names"] if name not in view["signals"]]
        return "decoy", gesture(self.rng.choice(names))


def gesture(name: str) -> GestureAction:
    """The gesture action for `name`."""
    return {"type": "gesture", "name": name}


def huddle_pick(view: CrabsView, rng: random.Random | None = None) -> SignalAction | None:
    """What a bot does in the huddle, at once: agree with its team's proposal (a partner's pick,
    else the dealt gesture); None once it has. With `rng`, when nobody on the team has picked
    yet, propose two signals instead: the dealt gesture and another."""
    huddle = view["huddle"]
    assert huddle is not None  # (the huddle is on)
    proposal, picks, dealt = huddle["proposal"], huddle["picks"], huddle["dealt"]  # a player's
    if picks[str(seat_of(view))] == proposal:
        return None
    if rng is not None and not any(picks.values()):
        others = [name for name in view["gesture_names"] if name != dealt]
        proposal = [dealt, rng.choice(others)]
    return pick_action(proposal)


def best_double_take(view: CrabsView, takes: list[DoubleTakeAction]) -> DoubleTakeAction:
    """Take a double crab's tokens from the richest opponents rather than the pot."""
    tokens = view["tokens"]

    def worth(action: DoubleTakeAction) -> tuple[int, int]:
        seats = [source for source in action["sources"] if source != "pot"]
        return len(seats), sum(tokens[seat] for seat in seats)

    return max(takes, key=worth)


class HardBot(CrabsBot):
    """Quicker, feeds its partner, reads laid-down hands, has two signals when it can."""

    style = HARD


class RandomBot(GameBot[CrabsView, CrabsAction]):
    """Random legal actions every 1–3 seconds, knowing only what a beginner is told.

    It keeps four of a kind and makes its team's signal when it has them, and calls a partner
    who makes it; its swaps mostly take a kind it holds at least as many of as the card it gives
    (else a table of random bots would never empty the pot). Everything else, which swap,
    gestures (never its own signal by mistake), calls on anyone, is a random pick of a random
    kind of action; with nothing the game needs from it, it mostly sits still.
    """

    WEIGHTS: ClassVar[dict[str, float]] = {
        "swap": 6.0,
        "done": 3.0,
        "want_swap": 10.0,
        "double_take": 10.0,
        "gesture": 0.5,
        "accuse": 0.03,
    }
    ANY_SWAP_CHANCE = 0.1
    #: With nothing to do for the game (not swapping, not asked), it mostly sits still.
    IDLE_CHANCE = 0.8

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self.reader = Reader(seat)
        self.due: float | None = None
        self.partner_signal: int | None = None
        self.signalled_at: float | None = None

    def wake_at(self) -> float | None:
        return self.due

    def decide(self, view: CrabsView, legal: list[CrabsAction]) -> CrabsAction | None:
        self.reader.read(view)
        if view["huddle"]:  # before play: agree with the team at once
            self.due = None
            return huddle_pick(view)
        ours = self.reader.team_signals
        team = view["team"]
        assert team is not None  # (a seat's view)
        partners = set(view["teams"][team]) - {self.seat}
        for event in self.reader.fresh:
            if (
                event["kind"] == "gesture"
                and event["seat"] in partners
                and event["gesture"] in ours
            ):
                self.partner_signal = event["seat"]
            elif event["kind"] == "accuse" and event["target"] == self.partner_signal:
                self.partner_signal = None
        now = view.get("now")
        if now is not None:
            if self.due is None:
                self.due = now + self.rng.uniform(1.0, 3.0) / _speed(view)
            if now < self.due:
                return None
            self.due = None
        if self.partner_signal is not None:
            call: AccuseAction = {"type": "accuse", "target": self.partner_signal}
            if call in legal:
                self.partner_signal = None
                return call
        signal = view["signal"]
        if is_crab(view["hand"]) and signal is not None:  # keep the four, signal now and then
            clock = view.get("now", 0.0)
            due = self.signalled_at is None or clock - self.signalled_at >= 5.0 / _speed(view)
            if due and gesture(signal) in legal:  # (no gestures while the pot waits)
                self.signalled_at = clock
                return gesture(signal)
            return {"type": "done"} if {"type": "done"} in legal else None
        by_type: dict[str, list[CrabsAction]] = {}
        for action in legal:
            if action["type"] == "gesture" and action["name"] in view["signals"]:
                continue
            by_type.setdefault(action["type"], []).append(action)
        held: Counter[str] = Counter(view["hand"])
        # Mostly swaps that take a kind it holds at least as many of as the kind it gives; now
        # and then any swap, which also unsticks a table where every kind left is held up.
        every = [a for a in by_type.pop("swap", []) if a["type"] == "swap"]
        swaps = [a for a in every if held[a["ocean"]] >= max(1, held[a["hand"]])]
        if swaps or (every and self.rng.random() < self.ANY_SWAP_CHANCE):
            by_type["swap"] = [*(swaps or every)]
        types = sorted(by_type)
        if not set(types) - {"gesture", "accuse"} and self.rng.random() < self.IDLE_CHANCE:
            return None
        weights = [self.WEIGHTS.get(kind, 1.0) for kind in types]
        kind = self.rng.choices(types, weights)[0]
        return self.rng.choice(by_type[kind])


BOTS = {"random": RandomBot, "normal": CrabsBot, "hard": HardBot}
