"""What Feed the Kraken bots say: claims a player of their faction would make, at the moments
a player would make them (see `rules/kraken/talk.py` for the vocabulary).

A `Talker` speaks only from its seat's view and its own `Mind`: what it drew, passed, was handed
or saw, and whom it trusts. How it bends the truth depends on its faction:

- **Sailors** say what happened (a small slip now and then: people misremember), accuse the
  player they most suspect once they are fairly sure, and answer an accusation.
- **Pirates and the cult** tell the truth when it does not hurt them and lie when it does: a
  captain or lieutenant who passed a red or yellow card while holding a blue says they passed
  the blue; a navigator who steered away from a blue says they were handed no blue; a search
  that found a fellow pirate (or cult) says "sailor". Now and then they frame someone.

Every choice is drawn with the talker's own random generator (seeded from the bot's, without
taking numbers from it, so a silent bot plays the same moves as before), so the same view can
lead to different words: no rule reads a bot's side off its claims.

A talker keeps score of its own honesty (`said`: each claim, whether it matched what it knew
(None where it was not about what it saw) and the side it spoke for), which the tests and
`bench/kraken_talk.py` read.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ...rules.kraken import talk as vocabulary
from ...rules.kraken.types import KrakenView
from .chart import SIDE_OF
from .mind import Mind

#: A claim of the talk vocabulary (`rules.kraken.talk`: a ``kind`` and its fields).
Claim = dict[str, Any]

#: The colour a sailor passes when it can (the way to Bluewater Bay): the cover story's colour.
COVER = "blue"
#: How often each side tells a truth that hurts it (a pirate who passed a red while holding a blue
#: says so only this often), and how often it lies when the truth is harmless.
HURTFUL_TRUTH = {"sailor": 0.96, "pirate": 0.25, "cult": 0.3}
IDLE_LIE = {"sailor": 0.03, "pirate": 0.12, "cult": 0.12}
#: How often a seat says what a moment invites at all (some keep quiet).
SPEAKS = 0.85
#: Accusing: how sure a sailor must be, and how often each side accuses or frames at a moment.
ACCUSE_SURE = 0.6
ACCUSES = {"sailor": 0.3, "pirate": 0.15, "cult": 0.12}
ANSWERS = 0.8  # how often someone accused says they are a sailor
TEAM_TALK = 0.12  # how often a seat says what it thinks of a newly appointed team


class Talker:
    """One bot seat's voice: `speak(think, view)` returns the claims it makes now (`think()`
    gives the bot's `Mind`, brought up to date only when a claim needs it: talking is asked at
    every moment, and most moments say nothing)."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng
        # Each claim made, whether it matched what we knew (None: not about what we saw), and
        # the side we spoke for then (a convert speaks for the cult from then on).
        self.said: list[tuple[Claim, bool | None, str]] = []
        self._moments: set[tuple[Any, ...]] = set()

    def speak(self, think: Callable[[], Mind], view: KrakenView) -> list[Claim]:
        """The claims to make now (most often none), each at most once per moment."""
        if vocabulary.can_claim(view) is not None:
            return []
        faction = view["faction"]
        assert faction is not None  # (a seat's view)
        side = SIDE_OF[faction]
        claims: list[Claim] = []
        natural = vocabulary.natural(view, [claim for claim, _, _ in self.said])
        # Keeping quiet about a moment is a choice made once, too (`_first` remembers it).
        if natural is not None and self._first("natural", natural) and self.rng.random() < SPEAKS:
            claims.append(self._bend(side, natural, view))
        claims += self._answer(view)
        claims += self._accuse(side, think, view)
        claims += self._team(side, think, view)
        for claim in claims:
            truth = natural if natural is not None and claim["kind"] == natural["kind"] else None
            honest = None if truth is None else claim == truth
            self.said.append((claim, honest, side))
        return claims

    def _first(self, *moment: Any) -> bool:
        """True the first time this moment comes up (and remembers it)."""
        key = tuple(repr(part) for part in moment)
        if key in self._moments:
            return False
        self._moments.add(key)
        return True

    # -- bending the truth ----------------------------------------------------------------------
    def _bend(self, side: str, truth: Claim, view: KrakenView) -> Claim:
        """The claim made about what this seat saw: the truth, or a lie that covers it."""
        cover = self._cover(side, truth, view)
        hurts = cover is not None
        if hurts and self.rng.random() >= HURTFUL_TRUTH[side]:
            assert cover is not None
            return cover
        if not hurts and self.rng.random() < IDLE_LIE[side]:
            return self._slip(truth, view)
        return truth

    def _cover(self, side: str, truth: Claim, view: KrakenView) -> Claim | None:
        """The lie a seat of `side` tells if this truth gives it away, else None."""
        kind = truth["kind"]
        if side == "sailor":
            return None
        if kind == "passed":
            drew, passed = list(truth["drew"]), truth["passed"]
            if COVER in drew and passed != COVER:
                return {**truth, "passed": COVER}
            return None
        if kind == "handed":
            cards = truth["cards"]
            steered = self._steered(view, truth["nav"])
            if COVER in cards and steered != COVER and steered is not None:
                return {**truth, "cards": [steered, steered]}
            return None
        if kind == "searched":
            group = truth["group"]
            if group == side:  # found one of our own: "a sailor"
                return {**truth, "group": "sailor"}
            if group == "sailor" and self.rng.random() < 0.4:  # frame a sailor
                return {**truth, "group": "cult" if side == "pirate" else "pirate"}
            return None
        if kind in ("mermaid", "telescope") and self.rng.random() < 0.35:
            return self._slip(truth, view)
        return None

    def _slip(self, truth: Claim, view: KrakenView) -> Claim:
        """Another claim of the same kind, at random (a slip, or a lie with no plan)."""
        menu = vocabulary.offers(view).get(truth["kind"], [])
        same = [c for c in menu if vocabulary.topic(c) == vocabulary.topic(truth)]
        others = [c for c in same if c != truth]
        return self.rng.choice(others) if others else truth

    @staticmethod
    def _steered(view: KrakenView, nav: int) -> str | None:
        navs = vocabulary.read_voyage(view).navs
        return str(navs[nav - 1]["card"]) if 0 < nav <= len(navs) else None  # (a colour)

    # -- who is who -----------------------------------------------------------------------------
    def _answer(self, view: KrakenView) -> list[Claim]:
        """Someone called us a pirate or cult: say we are a sailor (whatever we are)."""
        for said in reversed(view.get("talk", [])):
            claim = said["claim"]
            if said["seat"] == self.seat:
                return []  # we spoke since
            if claim["kind"] in ("role", "searched") and claim["target"] == self.seat:
                if claim["group"] == "sailor" or not self._first("answer", view["round"]):
                    return []  # once a round is enough
                if self.rng.random() < ANSWERS:
                    return [{"kind": "role", "target": self.seat, "group": "sailor"}]
                return []
        return []

    def _accuse(self, side: str, think: Callable[[], Mind], view: KrakenView) -> list[Claim]:
        """Once a round at most: name the seat we suspect most (sailors), or frame one."""
        navs = sum(len(resume) for resume in view["resumes"])  # cards revealed so far
        if not navs or not self._first("accuse", view["round"], navs):
            return []  # nobody accuses before a single card was revealed
        if self.rng.random() >= ACCUSES[side]:
            return []
        mind = think()
        living = [
            s for s in range(view["players"]) if s != self.seat and s not in view["eliminated"]
        ]
        if not living:
            return []
        if side == "sailor":
            odds = {s: mind.side_odds(s) for s in living}
            suspect = max(living, key=lambda s: (1 - odds[s]["sailor"], -s))
            pirate, cult = odds[suspect]["pirate"], odds[suspect]["cult"]
            if pirate + cult < ACCUSE_SURE:
                return []
            group = "pirate" if pirate >= cult else "cult"
            return [{"kind": "role", "target": suspect, "group": group}]
        # Pirates and the cult frame someone who is not one of their own.
        strangers = [s for s in living if mind.ally(s) < 0.5] or living
        target = self.rng.choice(strangers)
        group = "cult" if side == "pirate" else "pirate"
        return [{"kind": "role", "target": target, "group": group}]

    def _team(self, side: str, think: Callable[[], Mind], view: KrakenView) -> list[Claim]:
        """What we think of a newly appointed team, now and then."""
        team = [view["captain"], view["lieutenant"], view["navigator"]]  # (`TEAM_FIELDS`)
        if (team[1] is None and team[2] is None) or self.seat in team:
            return []  # no team yet, or our own (its captain chose it; its officers were chosen)
        if not self._first("team", view["round"], *team) or self.rng.random() >= TEAM_TALK:
            return []
        others = [s for s in team if s is not None and s != self.seat]
        if not others:
            return []
        mind = think()
        trust = sum(mind.ally(s) for s in others) / len(others)
        if side != "sailor" and self.rng.random() < 0.3:
            trust = 1 - trust  # say the opposite of what we think, now and then
        if 0.4 <= trust <= 0.65:
            return []
        return [{"kind": "team", "stance": "trust" if trust > 0.65 else "suspect"}]
