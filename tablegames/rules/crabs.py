"""You've Got Crabs, a real-time team card game for 4–10 players: the rules engine (``crabs``).

Rules: ``rules/texts/crabs.md``, what players read (``tablegames rules crabs``). They follow the
project's spec ("the spec" below), made from the seed, the original rule text (Persian, seed
``000_027779096f462416``); neither is in this repository, so the seed is quoted here.
There are no personal turns: the engine applies actions in the order they arrive, each with the
server's timestamp ``now`` (it never reads a clock). What the clock alone decides, the huddle's
end or a double-crab window closing while the empty pot waits for it, has a ``deadline()``; the
table then applies ``{"type": "time"}``, so it is in the action log like any move.

Decisions the spec leaves open, each with the seed sentence it follows or the silence it fills:

- Signals. Teams pick them in a huddle before play («تیمها به صورت خصوصی و مجزا دورهم جمع
  میشوند و سیگنال مخصوص غیر آوایی خود را انتخاب میکنند», "the teams gather privately and
  separately and choose their own non-vocal signal"); bots agree at once, humans have
  ``HUDDLE_SECONDS``, and a team that lets them run out keeps the gesture it was dealt. Then the
  signal is fixed: a change seen by the team alone is a signal opponents cannot see («از
  سیگنالهایی که رقیبانتان نمیتوانند آن را ببینند، استفاده نکنید», "do not use signals your
  opponents cannot see"). The seed's «یک سیگنال گمراهکننده طراحی کند ... یا از چندین سیگنال
  استفاده کنید» ("design a misleading signal ... or use several signals"): the huddle offers one
  signal or two (either means four), and a misleading signal needs no choice, since any gesture
  that is not the team's signal, made by anyone at any time, is a decoy. The huddle and the
  rest of its decisions are in ``crabs_huddle``.
- Gestures are one of ``GESTURES``, each public with its time. The seed is silent on players
  whose team is out of a tie-break: they may still gesture (it changes nothing).
- Swaps. The seed only says hand cards are exchanged for ocean cards ("شما کارتهای دست خود را
  با کارتهای وسط زمین جابهجا میکنید"); a swap of a kind for the same kind changes nothing and
  is refused, and a swap for an ocean card taken first says "too late". Nobody swaps while the
  other side is being asked, since the seed asks it "without turning the marker" ("بدون
  چرخاندن نشانگر نوبت، از سمت مقابل بپرسید آیا تمایل به تعویض کارتی دارند؟!").
- Which player holds a token is bookkeeping, as the team's tokens are shared ("شما و هم
  تیمی(های)تان توکنهای خرچنگ (امتیاز) مشترک دارید"): a gain goes to the accuser after a correct
  call, to the accused after a wrong opponent call. Where any teammate may pay ("هر کدام از هم
  تیمیها میتواند از توکن خودش آن را بدهد"), the richest pays after the player involved, the
  lower seat on a tie.
- A revealed four is discarded before the four new cards are drawn, in the seed's order ("کارتهای
  خود را بسوزانید و از دسته کارتها 4 کارت جدید بکشید"), and an ocean refresh discards before it
  deals: an empty draw pile is refilled from the whole discard pile, so four cards are always
  found.
- Double crab mechanics. The seed pays "3 tokens from wherever you like" ("تیم شما 3 توکن از
  هرجایی که خواستید دریافت میکند") for two correct calls "at most one second apart" ("اتهام
  همزمان باید نهایتاً در فاصله 1 ثانیه ای از یکدیگر باشد"). The engine cannot wait, so the
  first correct call pays as usual (a pot token). Its window is the second after it, its end
  included, as "at most" says: a call exactly one second later is a double crab, and the window
  has closed (the ``deadline``) only after that instant (``CLOCK_GRAIN`` later: times are
  compared to the microsecond). When the partner's call comes in the window and the pot has
  tokens, the first token goes back to the pot and the team is owed 3 (2
  if it no longer holds a token to give back), which either member takes with ``double_take``
  (``sources``: ``"pot"`` or opponent seats, one entry per token, named in any order and taken
  the pot first, then by seat), capped by what the pot and the opponents hold; the gains go to
  the two callers in turn, first caller first. While the pot
  has tokens, play goes on as the team chooses.
- A call on a player whose four was shown by another call at most one second earlier is void:
  nothing is paid and nothing changes, and a public line says so ("... called that four first:
  the call is void"). The seed settles each call before play goes on («وقتی که نتیجه اتهام حل و
  فصل شد، بازی ادامه پیدا میکند», "once the accusation's result is settled, play goes on"), so a
  call made at once with it, which the seed's double crab puts at "at most 1 second" apart, is
  about that four, already shown and settled, not about the four cards drawn since; judging it
  against the new hand would fine a player for being a moment slower. Later calls are judged as
  usual, on the new hand.
- The empty pot and the double crab (the spec: the window keeps the game open and the double
  crab is paid in full, the pot's share from opponents). The seed ends the game for everyone
  when the pot is empty ("بازی زمانی به پایان میرسد که تمامی توکنهای درون ظرف خرچنگ تمام
  شوند"), so while it waits (``phase`` ``closing``) only the calls that complete a double crab
  and ``double_take`` are played; everything else is refused. Every team-of-2 window still open
  when the pot empties counts, not only the call that emptied it. The first call's token then
  stays with the team and 2 come from opponents, the partner gaining first. A wrong partner call
  in the window (the seed is silent) closes it and costs nothing: the token would go back into
  the pot and revive a game that has ended. A double crab still owed when the pot runs dry is
  not lost but paid from opponents too ("از هرجایی که خواستید"), and the game waits for the
  choice; if the opponents hold no token, there is nothing to wait for.
- Tie-break ("در صورت تساوی، بازی را با تیمهایی که مساوی شدند، ادامه دهید"): the tied teams start
  with a fresh turn for the side the marker points to; the other teams can only gesture and
  cannot be accused. A correct teammate call wins even with an empty pot: no token moves (the
  call itself is the gain), so ``team_tokens`` can still show the tie while ``winners`` names the
  team. There is no double crab in a tie-break (the first gain wins at once).
- Dealing, where the seed only says four each and four face up ("به هر بازیکن ۴ کارت از دسته
  کارتها بدهید و 4 کارت هم به رو بر روی میز بگذارید"): one card at a time round the table from
  seat 0, four rounds, then four to the ocean. ``deck`` (the full 66 or 78 cards, top first)
  replaces the shuffle. ``hands`` (one list of four per seat) with ``ocean`` (four) and ``draw``
  (top first, default empty) stacks the game; cards named nowhere are left out. ``tokens`` (per
  seat) and ``pot`` stack the token counts; the rest of the 29 tokens are unused.
- Presentation (silent in the seed): the view's ``marker`` and ``active_side`` are both the side
  the marker points to; ``phase`` is ``huddle`` (before play), ``swap``, ``asking`` (nobody may
  swap), ``closing`` or ``over``; ``window_closes`` is the ``deadline()`` (the huddle's end, or
  a double-crab window's); ``signal`` is the team's (first) signal and ``signals`` all of it.
  The log keeps the last 60 events (a seat sees those it may); ``gestures`` keeps the last 20
  gestures.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations_with_replacement
from typing import Any, ClassVar, Literal

from .contract import Action, Event, Secrets
from .core import IllegalAction, SetupError, hidden_group, made_once
from .crabs_huddle import GESTURE_TEXT, GESTURES, HUDDLE, Huddle, signal_form
from .crabs_types import (
    AccuseAction,
    CrabsAction,
    CrabsOwnView,
    CrabsResult,
    DoneAction,
    DoubleTakeAction,
    Gesture,
    GestureAction,
    Source,
    SwapAction,
    WantSwapAction,
)

KIND_NAMES = {
    "retriever": "Crabrador Retriever",
    "crabbi": "Crabbi",
    "jab": "Jab Crab",
    "taxi": "Taxi Crab",
    "ab": "Ab Crab",
    "bunny": "Bunny Crabbit",
    "kebab": "Shish Crabob",
    "cappuccino": "Crabuccino",
    "king": "King Crab",
    "cabernet": "Crabernet Sauvignon",
    "diet": "Low Crab Diet",
    "cantaloupe": "Crabaloupe",
    "magic": "Abracrabdabra",
}
KINDS = tuple(KIND_NAMES)
#: With 2 or 3 teams these two kinds stay in the box (66 cards).
SMALL_GAME_REMOVED = ("cantaloupe", "retriever")
COPIES = 6
HAND_SIZE = 4
OCEAN_SIZE = 4
TOTAL_TOKENS = 29
POT_START = 8
DOUBLE_CRAB_WINDOW = 1.0
#: Calls are timed to the microsecond: a sum such as 4.2 + 1.0 may land a hair beside 5.2, and no
#: table's clock tells apart calls a microsecond apart.
CLOCK_GRAIN = 1e-6
DOUBLE_CRAB_TOKENS = 3
POT: Literal["pot"] = "pot"
LOG_LIMIT = 60
GESTURE_LIMIT = 20


# -- the table ----------------------------------------------------------------------------------
def kinds_for(players: int) -> tuple[str, ...]:
    """The crab kinds in play: all 13, or 11 with 2 or 3 teams (4–7 players)."""
    if players // 2 <= 3:
        return tuple(kind for kind in KINDS if kind not in SMALL_GAME_REMOVED)
    return KINDS


def deck_for(players: int) -> list[str]:
    """The full deck for `players` (66 or 78 cards), in kind order."""
    return [kind for kind in kinds_for(players) for _ in range(COPIES)]


def deal_with_fours(players: int, rng: random.Random, pot: int = 1) -> dict[str, object]:
    """The set-ups of a deal where partners 0 and 1 already hold four of a kind, so that even
    random calls end the game (for tests: `Game.checks`). The rest is shuffled with `rng`."""
    deck = deck_for(players)
    rng.shuffle(deck)
    for kind in ("king", "magic"):
        for _ in range(4):
            deck.remove(kind)
    rest = deck[4 * (players - 2) :]
    hands = [["king"] * 4, ["magic"] * 4] + [deck[4 * i : 4 * i + 4] for i in range(players - 2)]
    return {"hands": hands, "ocean": rest[:4], "draw": rest[4:], "pot": pot}


def team_seats(players: int) -> list[list[int]]:
    """Seats per team: team k is seats 2k and 2k+1; with an odd count the last team has three."""
    teams = [[2 * k, 2 * k + 1] for k in range(players // 2)]
    if players % 2:
        teams[-1].append(players - 1)
    return teams


def seat_teams(teams: Sequence[Sequence[int]], players: int) -> list[int]:
    """The team of every seat, from each team's seats (`team_seats`, a view's ``teams``)."""
    team_of = [0] * players
    for team, members in enumerate(teams):
        for seat in members:
            team_of[seat] = team
    return team_of


def seat_sides(players: int) -> list[int]:
    """The side of each seat: a team's first member on side 0, the others on side 1."""
    sides = [seat % 2 for seat in range(players)]
    if players % 2:
        sides[-1] = 1
    return sides


def is_crab(hand: Sequence[str]) -> bool:
    """True if `hand` is four of a kind."""
    return len(hand) == HAND_SIZE and len(set(hand)) == 1


def name_of(kind: str) -> str:
    """The printed name of a kind code: `king` -> `King Crab`."""
    return KIND_NAMES[kind]


def a_card(kind: str) -> str:
    """`a King Crab`, `an Ab Crab`."""
    name = KIND_NAMES[kind]
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"


def _who(seat: int) -> str:
    return "{" + str(seat) + "}"


def _plural(kind: str) -> str:
    return f"{KIND_NAMES[kind]}s"


@made_once
def accusations(players: int) -> tuple[AccuseAction, ...]:
    """An accusation of each seat at a table of `players`, in seat order."""
    return tuple({"type": "accuse", "target": target} for target in range(players))


@made_once
def gestures() -> tuple[GestureAction, ...]:
    """Each gesture a player may make, in the table's order."""
    return tuple({"type": "gesture", "name": name} for name in GESTURES)


class CrabsState(Huddle):
    """A game of You've Got Crabs in progress."""

    handlers: ClassVar[dict[str, str]] = {
        "swap": "_swap",
        "done": "_done",
        "want_swap": "_want_swap",
        "accuse": "_accuse",
        "double_take": "_double_take",
        "gesture": "_gesture",
        "signal": "_signal",
    }
    refusals: ClassVar[dict[str, str]] = {
        "swap": "_why_not_swap",
        "done": "_why_not_done",
        "want_swap": "_why_not_want_swap",
        "accuse": "_why_not_accuse_action",
        "double_take": "_why_not_double_take",
        "gesture": "_why_not_gesture",
        "signal": "_why_not_signal",
    }
    log_limit = LOG_LIMIT
    any_time = frozenset({"accuse", "gesture"})  # (see `State.question`)

    def __init__(
        self,
        players: int,
        seed: int,
        hands: list[list[str]] | None = None,
        ocean: list[str] | None = None,
        draw: list[str] | None = None,
        first_side: int | None = None,
        deck: list[str] | None = None,
        tokens: list[int] | None = None,
        pot: int | None = None,
    ) -> None:
        super().__init__(players, random.Random(seed))
        self.teams = team_seats(players)
        self.team_of = seat_teams(self.teams, players)
        self.sides = seat_sides(players)
        self.kinds = kinds_for(players)
        self.tokens, self.pot = _check_tokens(players, self.teams, tokens, pot)
        self.unused = TOTAL_TOKENS - sum(self.tokens) - self.pot
        self.marker = _check_first_side(players, first_side, self.rng)
        self.dealt = self.rng.sample(GESTURES, len(self.teams))
        self.hands, self.ocean, self.draw_pile = self._deal(hands, ocean, draw, deck)
        self.discard_pile: list[str] = []
        self.phase = "swap"  # huddle | swap | asking | closing | over
        self.done: set[int] = set()
        self.asked: set[int] = set()
        self.swapped = False
        self.taken_this_turn: set[str] = set()
        #: The last correct teammate call per team: (caller, target, time), for the double crab.
        self.last_correct: dict[int, tuple[int, int, float]] = {}
        #: The last correct call on each seat: target -> (caller, time), for calls that come late.
        self.shown: dict[int, tuple[int, float]] = {}
        #: Double crabs waiting for their team's choice: team -> (tokens owed, the two callers).
        self.double_owed: dict[int, tuple[int, tuple[int, int]]] = {}
        self.contenders = set(range(len(self.teams)))
        self.tiebreak = False
        self.winning_team: int | None = None
        self.gestures: list[Gesture] = []
        self._open_huddle(huddle=hands is None)  # a stacked game starts in play

    def _begin_play(self, now: float) -> None:
        self.phase = "swap"
        self.emit("start", f"Side {self.marker} swaps first.", time=now, side=self.marker)

    def _deal(
        self,
        hands: list[list[str]] | None,
        ocean: list[str] | None,
        draw: list[str] | None,
        deck: list[str] | None,
    ) -> tuple[list[list[str]], list[str], list[str]]:
        """Hands, ocean and draw pile (top last): stacked, from `deck`, or shuffled."""
        if hands is not None or ocean is not None or draw is not None:
            if deck is not None:
                raise SetupError("give either a deck order or hands/ocean/draw, not both")
            return _stacked(self.players, self.kinds, hands, ocean, draw)
        if deck is None:
            order = deck_for(self.players)
            self.rng.shuffle(order)
        else:
            order = _parse(deck, "deck", self.kinds)
            if Counter(order) != Counter(deck_for(self.players)):
                total = len(deck_for(self.players))
                raise SetupError(f"deck must hold each of the {total} cards of this game once")
        dealt: list[list[str]] = [[] for _ in range(self.players)]
        position = 0
        for _ in range(HAND_SIZE):
            for seat in range(self.players):
                dealt[seat].append(order[position])
                position += 1
        table = order[position : position + OCEAN_SIZE]
        return dealt, table, list(reversed(order[position + OCEAN_SIZE :]))

    # -- the contract -------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == "over"

    def apply(self, seat: int, action: Mapping[str, object], now: float = 0.0) -> list[Event]:
        # The clock comes first: once a window has run out, only the table's `time` action may
        # say so; a move stamped later would otherwise land in a game that has already ended.
        if not self.over and isinstance(action, dict) and action.get("type") != "time":
            due = self.deadline()
            if due is not None and now >= due:
                what = "the huddle" if self.phase == HUDDLE else "the double-crab window"
                raise IllegalAction(f"time is up: {what} has closed and the table settles it first")
        return super().apply(seat, action, float(now))  # events carry it as their `time`

    def deadline(self) -> float | None:
        """The huddle's end; or the end of the first open double-crab window while the empty pot
        waits for it."""
        if self.phase == HUDDLE:
            return self.huddle_ends
        if self.phase != "closing" or not self.last_correct:
            return None
        return min(_window_end(at) for _, _, at in self.last_correct.values())

    def _time_passes(self, now: float) -> None:
        if self.phase == HUDDLE:
            self._end_huddle(now)
            return
        for team, (caller, target, at) in sorted(self.last_correct.items()):
            if now >= _window_end(at):
                del self.last_correct[team]
                self.emit(
                    "window_closed",
                    f"{_who(target)} made no double-crab call on {_who(caller)} within the "
                    "second: the window closes.",
                    time=now,
                    window_closed=team,
                )
        self._check_pot(now)

    def _waiting_for(self) -> frozenset[int]:
        if self.phase == HUDDLE:
            return frozenset(self._huddle_waiting())
        seats = set(self.asked) if self.phase == "asking" else set(self._still_swapping())
        for team in self.double_owed:
            seats.update(self.teams[team])
        return frozenset(seats)

    def visible_waiting(self, seat: int | None) -> list[int]:
        if self.phase == HUDDLE and not self.over:
            return self._huddle_visible_waiting(seat)
        return super().visible_waiting(seat)

    def _legal(self, seat: int) -> list[CrabsAction]:
        if self.phase == HUDDLE:
            return self._huddle_legal(seat)
        actions: list[CrabsAction] = []
        if self.phase == "closing":  # the pot is empty: only a double crab can still be settled
            team = self.team_of[seat]
            if team in self.double_owed:
                actions += [
                    {"type": "double_take", "sources": list(sources)}
                    for sources in self._double_choices(team)
                ]
            return actions + [
                {"type": "accuse", "target": target}
                for target in range(self.players)
                if self._why_not_accuse(seat, target) is None
            ]
        if self._may_swap(seat):
            hand_kinds = list(dict.fromkeys(self.hands[seat]))
            ocean_kinds = list(dict.fromkeys(self.ocean))
            actions += [
                {"type": "swap", "hand": mine, "ocean": theirs}
                for mine in hand_kinds
                for theirs in ocean_kinds
                if mine != theirs
            ]
            if seat not in self.done:
                actions.append({"type": "done"})
        if seat in self.asked:
            actions += [{"type": "want_swap", "yes": True}, {"type": "want_swap", "yes": False}]
        team = self.team_of[seat]
        if team in self.double_owed:
            actions += [
                {"type": "double_take", "sources": list(sources)}
                for sources in self._double_choices(team)
            ]
        # (made once: every seat may accuse and gesture at any time, asked after every action)
        actions += [
            accusation
            for accusation in accusations(self.players)
            if self._why_not_accuse(seat, accusation["target"]) is None
        ]
        actions += gestures()
        return actions

    def _view(self, seat: int | None) -> CrabsOwnView:
        team = self.team_of[seat] if seat is not None else None
        return {
            "phase": self.phase,
            "hand": list(self.hands[seat]) if seat is not None else [],
            "hand_sizes": [len(hand) for hand in self.hands],
            "ocean": list(self.ocean),
            "teams": [list(members) for members in self.teams],
            "team": team,
            "sides": list(self.sides),
            "marker": self.marker,
            "active_side": self.marker,
            "done": sorted(self.done),
            "asked": sorted(self.asked),
            "swapped_this_turn": self.swapped,
            "tokens": list(self.tokens),
            "team_tokens": self._team_tokens(),
            "pot": self.pot,
            "draw_size": len(self.draw_pile),
            "discard_size": len(self.discard_pile),
            "signal": self.signals[team][0] if team is not None else None,
            "signals": list(self.signals[team]) if team is not None else [],
            "huddle": self._huddle_view(seat),
            "kinds": list(self.kinds),
            "gesture_names": list(GESTURES),
            "gestures": [g.copy() for g in self.gestures],
            "double_take": [
                {"team": t, "tokens": self._owed_now(t), "callers": list(callers)}
                for t, (_, callers) in sorted(self.double_owed.items())
            ],
            "window_closes": self.deadline(),
            "tiebreak": sorted(self.contenders) if self.tiebreak else None,
            "winners": self._winners(),
        }

    def secrets(self, seat: int | None) -> Secrets:
        """Other hands, the draw pile, other teams' signals."""
        found: Secrets = {}
        seen = [self.hands[seat] if seat is not None else None, self.ocean]
        for other, hand in enumerate(self.hands):
            if other != seat:
                hidden_group(found, hand, f"seat {other}'s hand", seen)
        hidden_group(found, self.draw_pile, "the draw pile", seen, minimum=4)
        team = self.team_of[seat] if seat is not None else None
        ours: set[str] = set()  # what the seat's own team picked, proposed or was dealt
        if team is not None:
            ours.update(self.signals[team], self.proposals[team], [self.dealt[team]])
            for member in self.teams[team]:
                ours.update(self.picks.get(member, ()))
        for other_team, signals in enumerate(self.signals):
            for signal in signals:
                if other_team != team and signal not in ours:
                    found.setdefault(("signal", signal), f"team {other_team}'s signal is {signal}")
        return found

    def _result(self) -> CrabsResult:
        team_tokens = self._team_tokens()
        return {
            "team_tokens": team_tokens,
            "winning_team": self.winning_team,
            "winners": self._winners(),
            "scores": [team_tokens[self.team_of[seat]] for seat in range(self.players)],
            "tiebreak": self.tiebreak,
            "teams": [list(members) for members in self.teams],
        }

    # -- swapping -----------------------------------------------------------------------------
    def _swap(self, seat: int, action: SwapAction, now: float) -> None:
        mine, theirs = action["hand"], action["ocean"]
        hand = self.hands[seat]
        hand[hand.index(mine)] = theirs
        self.ocean[self.ocean.index(theirs)] = mine
        self.taken_this_turn.add(theirs)
        self.taken_this_turn.discard(mine)
        self.swapped = True
        picked_up = seat in self.done
        self.done.discard(seat)
        again = " and picks their hand back up" if picked_up else ""
        self.emit(
            "swap",
            f"{_who(seat)} swaps {a_card(mine)} for the {name_of(theirs)}{again}.",
            time=now,
            seat=seat,
            gave=mine,
            took=theirs,
        )

    def _done(self, seat: int, action: DoneAction, now: float) -> None:
        self.done.add(seat)
        self.emit("done", f"{_who(seat)} lays their hand down.", time=now, seat=seat)
        if not self._still_swapping():
            self._end_side_turn(now)

    def _want_swap(self, seat: int, action: WantSwapAction, now: float) -> None:
        if action["yes"]:
            self.emit("want_swap", f"{_who(seat)} wants to swap.", time=now, yes=True, seat=seat)
            self._start_turn(1 - self.marker, now)
            return
        self.asked.discard(seat)
        self.emit(
            "want_swap", f"{_who(seat)} does not want to swap.", time=now, yes=False, seat=seat
        )
        if not self.asked:
            self._refresh_ocean(now)
            self._start_turn(self.marker, now)

    def _end_side_turn(self, now: float) -> None:
        if self.swapped:
            self._start_turn(1 - self.marker, now)
            return
        other = 1 - self.marker
        self.phase = "asking"
        self.asked = {seat for seat in self._side(other)}
        self.emit(
            "asking",
            f"Side {self.marker} made no swap: does anyone on side {other} want to swap?",
            time=now,
            side=other,
        )

    def _start_turn(self, side: int, now: float) -> None:
        flipped = side != self.marker
        self.marker, self.phase = side, "swap"
        self.done.clear()
        self.asked.clear()
        self.taken_this_turn.clear()
        self.swapped = False
        if flipped:
            self.emit("marker", f"The marker turns to side {side}.", time=now, side=side)
        else:
            self.emit("again", f"Side {side} swaps again.", time=now, side=side)

    def _refresh_ocean(self, now: float) -> None:
        self.discard_pile.extend(self.ocean)
        self.ocean = self._draw(OCEAN_SIZE, now)
        names = ", ".join(name_of(kind) for kind in self.ocean)
        self.emit(
            "refill",
            f"Nobody wants to swap: the ocean is discarded and refilled with {names}.",
            time=now,
            ocean=list(self.ocean),
        )

    def _draw(self, count: int, now: float) -> list[str]:
        drawn: list[str] = []
        for _ in range(count):
            if not self.draw_pile:
                self.draw_pile, self.discard_pile = self.discard_pile, []
                self.rng.shuffle(self.draw_pile)
                self.emit(
                    "reshuffle", "The discard pile is shuffled into a new draw pile.", time=now
                )
            drawn.append(self.draw_pile.pop())
        return drawn

    # -- accusations --------------------------------------------------------------------------
    def _accuse(self, seat: int, action: AccuseAction, now: float) -> None:
        target = action["target"]
        team, target_team = self.team_of[seat], self.team_of[target]
        call = f"{_who(seat)} calls “You've got crabs!” on {_who(target)}"
        first = self.shown.get(target)
        if first is not None and now < _window_end(first[1]):
            # Made at once with the call that showed the four: it is about that four, which is
            # settled, not about the hand drawn since.
            self.emit(
                "void_call",
                f"{call}, but {_who(first[0])} called that four first: the call is void.",
                time=now,
                seat=seat,
                accuser=seat,
                target=target,
                first=first[0],
            )
            return
        correct = is_crab(self.hands[target])
        fields: dict[str, Any] = {
            "seat": seat,
            "accuser": seat,
            "target": target,
            "correct": correct,
        }
        if team == target_team and correct:
            self._teammate_right(seat, target, call, now, fields)
        elif team == target_team and self.phase == "closing":
            del self.last_correct[team]  # the one call the window waited for was wrong
            self.emit(
                "accuse",
                f"{call}: wrong, but the pot is empty: nothing is paid.",
                time=now,
                **fields,
            )
        elif team == target_team:
            payer = self._payer(team, seat)
            if payer is None:
                self.emit(
                    "accuse",
                    f"{call}: wrong, but the team has no token to lose.",
                    time=now,
                    **fields,
                )
            else:
                self.tokens[payer] -= 1
                self.pot += 1
                self.emit(
                    "accuse",
                    f"{call}: wrong! {_who(payer)} returns a token to the pot.",
                    time=now,
                    paid_by=payer,
                    paid_to=POT,
                    **fields,
                )
        elif correct:
            kind = self.hands[target][0]
            moved = self._pay(target_team, target, seat)
            self.emit(
                "accuse",
                f"{call}: right! {_who(target)} shows four {_plural(kind)}. {moved[1]}",
                time=now,
                cards=list(self.hands[target]),
                paid_by=moved[0],
                paid_to=seat,
                **fields,
            )
            self._replace_hand(target, now, seat)
            self._gained(team, moved[0] is not None, now)
        else:
            moved = self._pay(team, seat, target)
            self.emit(
                "accuse",
                f"{call}: wrong! {moved[1]}",
                time=now,
                paid_by=moved[0],
                paid_to=target,
                **fields,
            )
            self._gained(target_team, moved[0] is not None, now)
        self._check_pot(now)

    def _teammate_right(
        self, seat: int, target: int, call: str, now: float, fields: dict[str, Any]
    ) -> None:
        team = self.team_of[seat]
        kind = self.hands[target][0]
        shows = f"{call}: right! {_who(target)} shows four {_plural(kind)}."
        cards = list(self.hands[target])
        first = self.last_correct.get(team)
        if (
            first is not None
            and first[:2] == (target, seat)
            and _in_window(first[2], now)
            and len(self.teams[team]) == 2
            and not self.tiebreak
        ):
            del self.last_correct[team]
            if self.phase == "closing":
                # The pot is empty: the first call's token stays with the team and the other
                # two come from opponents. The partner gains first, then the first caller.
                owed, callers = DOUBLE_CRAB_TOKENS - 1, (seat, target)
                back, where = " The first call's token stays with the team.", "opponents"
            else:
                giver = self._payer(team, target)  # the first call's token goes back, if it can
                owed, callers = DOUBLE_CRAB_TOKENS - 1, (target, seat)
                back, where = "", "opponents and/or the pot"
                if giver is not None:
                    owed = DOUBLE_CRAB_TOKENS
                    self.tokens[giver] -= 1
                    self.pot += 1
                    back = f" {_who(giver)} puts the first call's token back in the pot."
            owed += self.double_owed.get(team, (0, callers))[0]
            self.double_owed[team] = (owed, callers)
            self.emit(
                "accuse",
                f"{shows} Double crab!{back} The team takes {owed} tokens from {where}.",
                time=now,
                cards=cards,
                double=True,
                **fields,
            )
        elif self.pot:
            self.pot -= 1
            self.tokens[seat] += 1
            if len(self.teams[team]) == 2 and not self.tiebreak:
                self.last_correct[team] = (seat, target, now)
            self.emit(
                "accuse",
                f"{shows} {_who(seat)} takes a token from the pot.",
                time=now,
                cards=cards,
                paid_by=POT,
                paid_to=seat,
                **fields,
            )
        else:  # only in a tie-break: the call is a gain even with an empty pot
            self.emit(
                "accuse", f"{shows} That is a gain for the team.", time=now, cards=cards, **fields
            )
        self._replace_hand(target, now, seat)
        self._gained(team, True, now)

    def _replace_hand(self, seat: int, now: float, caller: int) -> None:
        """The four of a kind `caller` revealed goes to the discard pile and the player draws
        four."""
        self.shown[seat] = (caller, now)
        self.discard_pile.extend(self.hands[seat])
        self.hands[seat] = self._draw(HAND_SIZE, now)
        self.emit(
            "redraw",
            f"{_who(seat)} discards the four and draws four new cards.",
            time=now,
            seat=seat,
        )
        names = ", ".join(name_of(kind) for kind in self.hands[seat])
        self.emit("drawn", f"You draw {names}.", (seat,), time=now, cards=list(self.hands[seat]))

    def _payer(self, team: int, first: int) -> int | None:
        """Who pays a token for `team`: `first`, else the richest teammate, else None."""
        if self.tokens[first] > 0:
            return first
        richest = max(self.teams[team], key=lambda s: (self.tokens[s], -s))
        return richest if self.tokens[richest] > 0 else None

    def _pay(self, team: int, first: int, receiver: int) -> tuple[int | str | None, str]:
        """`team` pays `receiver` a token (player, teammate, then pot); (source, sentence)."""
        payer = self._payer(team, first)
        if payer is not None:
            self.tokens[payer] -= 1
            self.tokens[receiver] += 1
            return payer, f"{_who(payer)} gives {_who(receiver)} a token."
        if self.pot:
            self.pot -= 1
            self.tokens[receiver] += 1
            return POT, f"The team has no token, so {_who(receiver)} takes one from the pot."
        return None, "Neither the team nor the pot has a token: nothing is paid."

    def _gained(self, team: int, gained: bool, now: float) -> None:
        """In a tie-break, the first tied team to gain a token wins."""
        if self.tiebreak and gained and not self.over:
            self._finish(team, now)

    # -- the double crab ----------------------------------------------------------------------
    def _double_take(self, seat: int, action: DoubleTakeAction, now: float) -> None:
        team = self.team_of[seat]
        sources = action["sources"]
        owed = self._owed_now(team)
        _, callers = self.double_owed.pop(team)
        for index, source in enumerate(sources):
            if source == POT:
                self.pot -= 1
            else:
                self.tokens[source] -= 1
            self.tokens[callers[index % 2]] += 1
        named = ", ".join("the pot" if s == POT else _who(s) for s in sources)
        self.emit(
            "double_take",
            f"{_who(seat)}'s team collects the double crab: {owed} tokens from {named}.",
            time=now,
            seat=seat,
            sources=list(sources),
        )
        self._check_pot(now)

    def _owed_now(self, team: int) -> int:
        """Tokens the team may still take: what it is owed, capped by what exists to take."""
        owed = self.double_owed[team][0]
        available = self.pot + sum(
            self.tokens[s] for s in range(self.players) if self.team_of[s] != team
        )
        return min(owed, available)

    def _double_choices(self, team: int) -> list[tuple[Source, ...]]:
        pool: list[Source] = [POT] if self.pot else []
        pool += [s for s in range(self.players) if self.team_of[s] != team and self.tokens[s]]
        holds = {source: self.pot if source == POT else self.tokens[int(source)] for source in pool}
        return [
            choice
            for choice in combinations_with_replacement(pool, self._owed_now(team))
            if all(choice.count(source) <= held for source, held in holds.items())
        ]

    # -- gestures ------------------------------------------------------------------------------
    def _gesture(self, seat: int, action: GestureAction, now: float) -> None:
        name = action["name"]
        self.gestures.append({"seat": seat, "name": name, "time": float(now)})
        del self.gestures[:-GESTURE_LIMIT]
        self.emit(
            "gesture", f"{_who(seat)} {GESTURE_TEXT[name]}.", time=now, seat=seat, gesture=name
        )

    # -- the end ------------------------------------------------------------------------------
    def _check_pot(self, now: float) -> None:
        """The game ends (or a tie-break starts) the moment the pot is empty, once no double
        crab is left to settle: a window still open for the partner's call, or tokens owed."""
        if self.over or self.tiebreak or self.pot:
            return
        for team, (_, _, at) in list(self.last_correct.items()):
            if now >= _window_end(at):
                del self.last_correct[team]  # too late for a double crab: forget the call
        for team in list(self.double_owed):
            if not self._owed_now(team):
                del self.double_owed[team]  # the opponents have no token left to take
        if self.last_correct or self.double_owed:
            if self.phase != "closing":
                self.phase = "closing"
                self.done.clear()
                self.asked.clear()
                reason = self._closing_reason()
                self.emit("closing", f"{reason[0].upper()}{reason[1:]}.", time=now, closing=True)
            return
        totals = self._team_tokens()
        best = max(totals)
        tied = [team for team, total in enumerate(totals) if total == best]
        if len(tied) == 1:
            self._finish(tied[0], now)
            return
        self.tiebreak = True
        self.contenders = set(tied)
        self.last_correct.clear()
        names = " and ".join(f"team {team}" for team in tied)
        self.emit(
            "tiebreak",
            f"The pot is empty and {names} tie with {best} tokens: they play on, and the first "
            "to gain a token wins.",
            time=now,
            tiebreak=tied,
        )
        self._start_turn(self.marker, now)

    def _finish(self, team: int, now: float) -> None:
        self.winning_team = team
        self.phase = "over"
        self.done.clear()
        self.asked.clear()
        self.double_owed.clear()
        self.last_correct.clear()
        players = " and ".join(_who(seat) for seat in self.teams[team])
        self.emit(
            "over",
            f"Game over: {players} win with {self._team_tokens()[team]} tokens.",
            time=now,
            team=team,
            winners=self._winners(),
        )

    def _winners(self) -> list[int]:
        return list(self.teams[self.winning_team]) if self.winning_team is not None else []

    # -- refusals: what a player is told (legality itself is `legal`'s) ----------------------
    def normal_form(self, action: Action) -> Action:
        """A double crab's sources may be named in any order (they are listed the pot first,
        then seats in order), and a signal's two gestures too (`crabs_huddle.pick_action`)."""
        kind = action.get("type")
        if kind == "signal":
            return signal_form(action)
        sources = action.get("sources")
        if isinstance(sources, list) and all(s == POT or type(s) is int for s in sources):
            return {**action, "sources": sorted(sources, key=_source_order)}
        return action

    def why_illegal(self, seat: int, action: Action) -> str | None:
        kind = action["type"]
        if self.phase == HUDDLE and kind != "signal":
            return "the teams are still picking their signals: play begins after the huddle"
        if self.phase == "closing" and kind not in ("accuse", "double_take"):
            return self._closing_reason()
        return super().why_illegal(seat, action)

    def _why_not_swapping(self, seat: int) -> str | None:
        if not self._in_play(seat):
            return "your team is out of the tie-break"
        if self.phase == "asking":
            return "wait: the other side is being asked whether anyone wants to swap"
        if self.sides[seat] != self.marker:
            return f"it is side {self.marker}'s turn to swap, not yours"
        return None

    def _why_not_swap(self, seat: int, action: Action) -> str | None:
        mine, theirs = action.get("hand"), action.get("ocean")
        wrong = self._why_not_swapping(seat)
        if wrong is not None:
            return wrong
        if mine not in self.kinds or theirs not in self.kinds:
            return "name a card from your hand and one from the ocean, like king"
        assert isinstance(mine, str) and isinstance(theirs, str)
        if mine not in self.hands[seat]:
            return f"you hold no {name_of(mine)}"
        if theirs not in self.ocean:
            if theirs in self.taken_this_turn:
                return f"too late: the {name_of(theirs)} was taken from the ocean first"
            return f"there is no {name_of(theirs)} in the ocean"
        if mine == theirs:
            return f"swapping {a_card(mine)} for {a_card(theirs)} changes nothing"
        return None

    def _why_not_done(self, seat: int, action: Action) -> str | None:
        wrong = self._why_not_swapping(seat)
        if wrong is None and seat in self.done:
            return "you have already laid your hand down"
        return wrong

    def _why_not_want_swap(self, seat: int, action: Action) -> str | None:
        if seat not in self.asked:
            return "nobody is asking you whether you want to swap"
        if not isinstance(action.get("yes"), bool):
            return "answer whether you want to swap: yes true or false"
        return None

    def _why_not_accuse_action(self, seat: int, action: Action) -> str | None:
        if wrong := self.why_not_a_seat(
            action.get("target"), "say whom you accuse, by seat number"
        ):
            return wrong
        return self._why_not_accuse(seat, action["target"])

    def _why_not_double_take(self, seat: int, action: Action) -> str | None:
        team = self.team_of[seat]
        if team not in self.double_owed:
            return "your team has no double crab to collect"
        sources = action.get("sources")
        owed = self._owed_now(team)
        if not isinstance(sources, list) or len(sources) != owed:
            return f"name {owed} sources, one per token: 'pot' or an opponent's seat number"
        for source in sources:
            if source != POT and not self._is_opponent(source, team):
                return f"{source!r} is not the pot or an opponent's seat"
        for source, count in Counter(sources).items():
            held = self.pot if source == POT else self.tokens[int(source)]
            if count > held:
                where = "the pot holds" if source == POT else f"seat {source} holds"
                return f"{where} only {held} token{'s' if held != 1 else ''}"
        return None

    def _is_opponent(self, source: object, team: int) -> bool:
        """True if `source` is the seat of an opponent of `team`."""
        return type(source) is int and 0 <= source < self.players and self.team_of[source] != team

    def _why_not_gesture(self, seat: int, action: Action) -> str | None:
        name = action.get("name")
        if not isinstance(name, str) or name not in GESTURE_TEXT:  # (a peer's: any value)
            return f"choose a gesture: {', '.join(GESTURES)}"
        return None

    # -- helpers ------------------------------------------------------------------------------
    def _team_tokens(self) -> list[int]:
        return [sum(self.tokens[s] for s in members) for members in self.teams]

    def _in_play(self, seat: int) -> bool:
        return self.team_of[seat] in self.contenders

    def _side(self, side: int) -> list[int]:
        return [s for s in range(self.players) if self.sides[s] == side and self._in_play(s)]

    def _still_swapping(self) -> list[int]:
        if self.phase != "swap":
            return []
        return [s for s in self._side(self.marker) if s not in self.done]

    def _may_swap(self, seat: int) -> bool:
        return self.phase == "swap" and self.sides[seat] == self.marker and self._in_play(seat)

    def _why_not_accuse(self, seat: int, target: int) -> str | None:
        if target == seat:
            return "you cannot accuse yourself"
        if self.phase == "closing" and not self._completes_double(seat, target):
            return self._closing_reason()
        if not self._in_play(seat):
            return "your team is out of the tie-break"
        if not self._in_play(target):
            return "that player's team is out of the tie-break"
        if self.team_of[seat] == self.team_of[target] and self.sides[seat] == self.sides[target]:
            return "you may not accuse the teammate sitting beside you on your side"
        return None

    def _completes_double(self, seat: int, target: int) -> bool:
        """True if `seat` calling `target` answers the correct call `target` made on `seat`."""
        first = self.last_correct.get(self.team_of[seat])
        return first is not None and first[:2] == (target, seat)

    def _closing_reason(self) -> str:
        """Why nothing but the double crab is played while the empty pot waits for it."""
        if self.last_correct:
            return "the pot is empty: the game ends when the double-crab window closes"
        return "the pot is empty: the game ends once the double crab is collected"


def _source_order(source: Source) -> tuple[int, int]:
    """Where a double crab's source is listed: the pot first, then seats in order."""
    return (0, 0) if source == POT else (1, int(source))


def _window_end(called_at: float) -> float:
    """The first moment after the second that follows a call made at `called_at`: calls "at
    most one second" after it, one second included, come before it."""
    return called_at + DOUBLE_CRAB_WINDOW + CLOCK_GRAIN


def _in_window(called_at: float, now: float) -> bool:
    """True if a call at `now` is at most one second from one at `called_at`."""
    return called_at - DOUBLE_CRAB_WINDOW - CLOCK_GRAIN < now < _window_end(called_at)


# -- setup checks -------------------------------------------------------------------------------
def _parse(codes: object, what: str, kinds: Sequence[str]) -> list[str]:
    """Check a list of kind codes for a test setup; SetupError naming `what` if one is bad."""
    if not isinstance(codes, list | tuple):
        raise SetupError(f"{what} must be a list of crab codes")
    for code in codes:
        if not isinstance(code, str) or code not in kinds:
            raise SetupError(
                f"{what}: {code!r} is not a crab in this game (codes: {', '.join(kinds)})"
            )
    return [str(code) for code in codes]


def _stacked(
    players: int,
    kinds: Sequence[str],
    hands: list[list[str]] | None,
    ocean: list[str] | None,
    draw: list[str] | None,
) -> tuple[list[list[str]], list[str], list[str]]:
    """Validate a stacked game: (hands, ocean, draw pile top last)."""
    if hands is None or ocean is None:
        raise SetupError("a stacked game needs both hands and ocean (draw is optional)")
    if not isinstance(hands, list | tuple) or len(hands) != players:
        raise SetupError(f"hands must list one hand per seat ({players})")
    dealt = [_parse(hand, f"hand {seat}", kinds) for seat, hand in enumerate(hands)]
    if any(len(hand) != HAND_SIZE for hand in dealt):
        raise SetupError(f"every hand holds {HAND_SIZE} cards")
    table = _parse(ocean, "ocean", kinds)
    if len(table) != OCEAN_SIZE:
        raise SetupError(f"the ocean holds {OCEAN_SIZE} cards")
    pile = _parse(draw or [], "draw", kinds)
    counts = Counter([*(c for hand in dealt for c in hand), *table, *pile])
    for kind, count in counts.items():
        if count > COPIES:
            raise SetupError(f"the setup names {count} {_plural(kind)}; there are {COPIES}")
    return dealt, table, list(reversed(pile))


def _check_tokens(
    players: int, teams: list[list[int]], tokens: list[int] | None, pot: int | None
) -> tuple[list[int], int]:
    """Starting tokens per seat and in the pot: standard, or stacked by a test."""
    if tokens is None:
        trio = {seat for members in teams if len(members) == 3 for seat in members}
        per_seat = 3 if trio else 2
        tokens = [1 if seat in trio else per_seat for seat in range(players)]
    elif (
        not isinstance(tokens, list | tuple)
        or len(tokens) != players
        or not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in tokens)
    ):
        raise SetupError(f"tokens must list a count of 0 or more per seat ({players})")
    pot = POT_START if pot is None else pot
    if not isinstance(pot, int) or isinstance(pot, bool) or pot < 1:
        raise SetupError("the pot must start with at least one token")
    if sum(tokens) + pot > TOTAL_TOKENS:
        raise SetupError(f"there are only {TOTAL_TOKENS} tokens")
    return list(tokens), pot


def _check_first_side(players: int, first_side: int | None, rng: random.Random) -> int:
    """The side that swaps first: side 0 with an odd count, else `first_side` or the seed."""
    if (first_side is not None and first_side not in (0, 1)) or isinstance(first_side, bool):
        raise SetupError("first_side must be 0 or 1")
    if players % 2:
        if first_side == 1:
            raise SetupError("with an odd number of players side 0 has fewer and starts")
        return 0
    return first_side if first_side is not None else rng.randrange(2)
