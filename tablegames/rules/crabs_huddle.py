"""You've Got Crabs before play: the gestures, and the huddle in which each team picks its signal.

The seed has the teams gather apart and pick their signal before anyone plays: «تیمها به صورت
خصوصی و مجزا دورهم جمع میشوند و سیگنال مخصوص غیر آوایی خود را انتخاب میکنند» ("the teams
gather privately and separately and choose their own non-vocal signal"), and play starts «وقتی
تمام بازیکنان به سر میز بازگشتند» ("when all the players are back at the table"). So a game
opens in the ``huddle`` phase, a mixin of the crabs state here:

- Every team is dealt a gesture from the seeded generator (teams get different ones): its
  signal if it lets the huddle run out.
- Any member picks (``signal``, ``name`` and optionally ``also``): the pick becomes the team's
  proposal, seen by the team alone. The team has settled when every member's last pick is the
  proposal; a partner who wants another answers with a pick of their own. So a bot partner,
  which agrees at once with whatever its team proposes, never overrules a human who picks.
- Play begins when every team has settled, or at ``HUDDLE_SECONDS`` of table time (the table's
  ``time`` action, like any deadline): a team that has not settled keeps its dealt gesture.
- After the huddle the signal is fixed for the game: ``signal`` is refused. A change seen by the
  team alone would be a signal opponents cannot see, which the seed forbids: «از سیگنالهایی که
  رقیبانتان نمیتوانند آن را ببینند، استفاده نکنید» ("do not use signals your opponents cannot
  see").
- Several signals and the misleading one. The seed: «تیم شما میتواند یک سیگنال گمراهکننده طراحی
  کند تا تیمهای حریف دچار اشتباه شوند، یا از چندین سیگنال استفاده کنید تا پیچیدگی کارتان بیشتر
  شود» ("your team can design a misleading signal to make opposing teams err, or use several
  signals to make it more complex"). The huddle offers one signal or two (``also``): either
  gesture then means "I have four". Two at most: the partner still has a short thing to watch
  for, and eight gestures are left to mislead with. A misleading signal needs no choice: every
  gesture is public and anyone may make any of them at any time, so any gesture that is not the
  team's signal is a decoy (the bots make decoys; the huddle's screen says so).
- Two teams may pick the same gesture: each picks in private, and refusing one because another
  team has it would tell them the other team's signal.
- A game stacked with ``hands=`` (tests, scenarios) starts in play with the dealt signals.

Views: ``huddle`` is None once play has begun; during the huddle it has ``ends`` (the table
time it ends), ``most`` (gestures a signal may have), ``settled`` (the teams that have), and for
a player ``dealt``, ``proposal`` (the team's pick, a list of one or two gestures) and ``picks``
(each teammate's last pick, or None, keyed by seat numbers as strings).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from .contract import Action
from .core import State
from .crabs_types import CrabsAction, HuddleView, Phase, SignalAction

#: The gestures every player can make (code: what it is, what the log says); a team's signal is
#: one of them (or two).
GESTURE_TABLE = {
    "wink": ("wink", "winks"),
    "tap_table": ("tap the table", "taps the table"),
    "touch_nose": ("touch your nose", "touches their nose"),
    "scratch_head": ("scratch your head", "scratches their head"),
    "yawn": ("yawn", "yawns"),
    "sip_drink": ("sip a drink", "sips a drink"),
    "drum_fingers": ("drum your fingers", "drums their fingers"),
    "stretch": ("stretch", "stretches"),
    "nod": ("nod", "nods"),
    "crack_knuckles": ("crack your knuckles", "cracks their knuckles"),
}
GESTURE_TEXT = {code: done for code, (_, done) in GESTURE_TABLE.items()}
GESTURES = tuple(GESTURE_TABLE)
HUDDLE: Literal["huddle"] = "huddle"
#: Table seconds the teams have to pick their signals.
HUDDLE_SECONDS = 60.0
#: The most gestures a team's signal may have.
MOST_SIGNALS = 2

Pick = tuple[str, ...]


def signal_words(gestures: Sequence[str]) -> str:
    """`wink`, `wink or nod`: a team's signal as people read it."""
    return " or ".join(GESTURE_TABLE[name][0] for name in gestures)


def every_pick() -> list[Pick]:
    """Every signal a team may pick: one gesture, or two different ones (in gesture order)."""
    ones: list[Pick] = [(name,) for name in GESTURES]
    twos: list[Pick] = [(a, b) for i, a in enumerate(GESTURES) for b in GESTURES[i + 1 :]]
    return ones + twos


def pick_action(pick: Sequence[str]) -> SignalAction:
    """The `signal` action that picks `pick` (two gestures named in gesture order, as listed)."""
    first, *rest = sorted(pick, key=GESTURES.index)
    action: SignalAction = {"type": "signal", "name": first}
    if rest:
        action["also"] = rest[0]
    return action


EVERY_PICK = every_pick()
#: Each pick with its action, made once: `legal` hands out copies (it runs for every action).
PICK_ACTIONS = [(pick, pick_action(pick)) for pick in EVERY_PICK]


class Huddle(State):
    """The huddle's part of the crabs state (see the module docstring)."""

    teams: list[list[int]]
    team_of: list[int]
    phase: Phase
    #: Each team's signal: one gesture or two; fixed once play begins.
    signals: list[Pick]
    dealt: list[str]
    proposals: list[Pick]
    picks: dict[int, Pick]
    settled: set[int]
    huddle_ends: float

    def _open_huddle(self, huddle: bool) -> None:
        """Each team's signal as dealt (`dealt`); with `huddle`, the teams then pick their own."""
        self.signals = [(name,) for name in self.dealt]
        self.proposals = list(self.signals)
        self.picks, self.settled = {}, set()
        self.huddle_ends = HUDDLE_SECONDS
        if not huddle:
            self._begin_play(0.0)
            return
        self.phase = HUDDLE
        self.emit(
            "huddle",
            f"The teams huddle to pick their secret signals ({HUDDLE_SECONDS:.0f} seconds).",
            time=0.0,
            ends=self.huddle_ends,
        )
        for team, members in enumerate(self.teams):
            dealt = self.dealt[team]
            self.emit(
                "dealt_signal",
                f"Your team's dealt signal is to {GESTURE_TABLE[dealt][0]}: pick one gesture or "
                "two, or keep it.",
                members,
                time=0.0,
                signal=dealt,
            )

    def _begin_play(self, now: float) -> None:
        """Play begins; a game's swapping starts here (the crabs state says how)."""
        raise NotImplementedError

    # -- the contract's parts ---------------------------------------------------------------------
    def _huddle_waiting(self) -> set[int]:
        """The seats whose pick is not their team's proposal (yet)."""
        return {
            seat
            for team, members in enumerate(self.teams)
            if team not in self.settled
            for seat in members
            if self.picks.get(seat) != self.proposals[team]
        }

    def _huddle_visible_waiting(self, seat: int | None) -> list[int]:
        """Whom a seat sees the huddle wait for: who of its own team has not agreed. Other teams
        huddle apart: only whether they have settled shows (the view's ``settled``)."""
        if seat is None:
            return []
        mine = self.team_of[seat]
        return sorted(s for s in self._huddle_waiting() if self.team_of[s] == mine)

    def _huddle_legal(self, seat: int) -> list[CrabsAction]:
        team = self.team_of[seat]
        if team in self.settled:
            return []
        mine = self.picks.get(seat)
        return [action.copy() for pick, action in PICK_ACTIONS if pick != mine]

    def _huddle_view(self, seat: int | None) -> HuddleView | None:
        if self.phase != HUDDLE:
            return None
        shown: HuddleView = {
            "ends": self.huddle_ends,
            "most": MOST_SIGNALS,
            "settled": sorted(self.settled),
        }
        if seat is not None:
            team = self.team_of[seat]
            shown["dealt"] = self.dealt[team]
            shown["proposal"] = list(self.proposals[team])
            # Keyed by seat numbers as strings, so that views survive JSON unchanged.
            shown["picks"] = {
                str(s): list(self.picks[s]) if s in self.picks else None for s in self.teams[team]
            }
        return shown

    # -- picking ----------------------------------------------------------------------------------
    def _signal(self, seat: int, action: SignalAction, now: float) -> None:
        pick = pick_of(action)
        team = self.team_of[seat]
        self.picks[seat] = self.proposals[team] = pick
        self.emit(
            "signal",
            f"{{{seat}}} picks your team's signal: {signal_words(pick)}.",
            self.teams[team],
            time=now,
            seat=seat,
            signal=pick[0],
            signals=list(pick),
        )
        if all(self.picks.get(s) == pick for s in self.teams[team]):
            self._settle(team, pick, now)
        if len(self.settled) == len(self.teams):
            self._begin_play(now)

    def _why_not_signal(self, seat: int, action: Action) -> str | None:
        if self.phase != HUDDLE:
            return "your team's signal was picked in the huddle before play: it cannot change now"
        wrong = why_not_pick(action)
        if wrong is not None:
            return wrong
        pick = pick_of(action)
        if self.team_of[seat] in self.settled:
            return f"your team has settled on its signal: {signal_words(pick)}"
        if self.picks.get(seat) == pick:
            return f"you have already picked {signal_words(pick)}"
        return None

    def _settle(self, team: int, pick: Pick, now: float, timed_out: bool = False) -> None:
        self.settled.add(team)
        self.signals[team] = pick
        how = "ran out of time and keeps" if timed_out else "settles on"
        self.emit(
            "signal_settled",
            f"Your team {how} its signal: {signal_words(pick)}.",
            self.teams[team],
            time=now,
            signal=pick[0],
            signals=list(pick),
            timed_out=timed_out,
        )
        named = [f"{{{s}}}" for s in self.teams[team]]
        names = ", ".join(named[:-1]) + " and " + named[-1]
        self.emit("team_ready", f"{names} are back at the table.", time=now, team=team)

    def _end_huddle(self, now: float) -> None:
        """Time is up: a team that has not settled keeps its dealt gesture; play begins."""
        for team in range(len(self.teams)):
            if team not in self.settled:
                self._settle(team, (self.dealt[team],), now, timed_out=True)
        self._begin_play(now)


def why_not_pick(action: Action) -> str | None:
    """What is wrong with the gestures a `signal` action picks, or None: it is a pick."""
    name, also = action.get("name"), action.get("also")
    words = ", ".join(GESTURES)
    # (What a peer sent may be any plain value: only a string can name a gesture.)
    if not isinstance(name, str) or name not in GESTURE_TEXT:
        return f"a signal is one of the gestures: {words}"
    if also is not None and (not isinstance(also, str) or also not in GESTURE_TEXT):
        return f"a second signal is one of the gestures too: {words}"
    if also == name:
        return "a second signal must be another gesture"
    return None


def pick_of(action: SignalAction | Action) -> Pick:
    """The gestures a `signal` action picks, in gesture order."""
    also = action.get("also")
    return tuple(sorted((action["name"], *([also] if also else [])), key=GESTURES.index))


def signal_form(action: Action) -> Action:
    """A `signal` action as `legal` lists it: its gestures in gesture order, ``also`` left out
    when there is none. Anything else is returned as it came."""
    if why_not_pick(action) is not None or set(action) - {"type", "name", "also"}:
        return action
    return dict(pick_action(pick_of(action)))
