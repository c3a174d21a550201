"""Feed the Kraken bots: `random`, `normal` (belief and chart heuristics), `hard` (looks ahead).

Every bot sees only its seat's view. The normal and hard bots keep a `Mind` (`mind.py`): a
belief over everyone's starting role (`belief.py`), updated from the log (`history.py`):
résumés, its own draws and discards, the logbook it steered from, the discards a mermaid
showed it, search results (a group: "cult" may be the leader or a cultist, weighed by the chance
of a conversion), floggings, mutiny fists and pirate captains' appointments, plus the chance
each seat was converted. From it they steer by the chart (`chart.py`), keep and steer by
the card best for their side, appoint the team they expect to sail best, mutiny against a team
they distrust (harder when the next card could lose the game), and use their character at
sensible moments (`characters.py`). Pirates, who know each other, share a mutiny between them.
Guns are kept for the mutiny that matters: early in the voyage a mutiny must pay for the guns
it costs and two are held back, until a card could lose the game; the cult, alone, grabs the
ship whenever it can take it alone from a captain outside it.
The hard bot (`hard.py`) reads cards more sharply, mutinies more warily, and checks whom it
feeds to the Kraken or silences by playing the choices out in worlds dealt from its belief.

They talk at the table (`talk.py`: claims a player of their side would make, lies included)
and listen (`hearing.py`: everyone's claims, weighed by each player's track record, move the
belief through `Mind.talk_factors`); `talks = False` makes a silent bot that does neither.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ...rules import Action, View
from ...rules.kraken.types import TYPES, KrakenAction, KrakenView
from ..typed import GameBot, seat_of
from .belief import GENERIC, Model
from .characters import character_move
from .hard import SHARP, HardJudge
from .hearing import Listener
from .mind import Mind
from .normal import PROMPTS, Judge
from .talk import Talker

#: How often the random bot uses an "any time" character when nobody waits for it.
RANDOM_ANY_TIME = 0.03


class RandomBot(GameBot[KrakenView, KrakenAction]):
    """Any legal move, uniformly; now and then an "any time" character out of the blue."""

    def decide(self, view: KrakenView, legal: list[KrakenAction]) -> KrakenAction | None:
        if not legal:
            return None
        if self.seat not in view["waiting"]:
            return self.rng.choice(legal) if self.rng.random() < RANDOM_ANY_TIME else None
        return self.rng.choice(legal)


class NormalBot(GameBot[KrakenView, KrakenAction]):
    """Steers for its side, appoints whom it trusts, mutinies against a team it distrusts."""

    judge_class: type[Judge] = Judge
    model: Model = GENERIC  # how the bot expects others to play
    talks = True  # claims and listens to claims (False: the silent bot of before)

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self.mind: Mind | None = None
        # -- talk (issue 20): its own generator, seeded from `rng`'s state without drawing from
        # it (a silent bot plays as before); a string seed is the same in every process --
        self.talker = Talker(seat, random.Random(f"talk/{seat}/{rng.getstate()[1]}"))
        self.listener = Listener(seat)

    def think(self, view: KrakenView) -> Mind:
        """The mind kept for this seat, brought up to date with `view` (new game: a new mind)."""
        mind = self.mind
        if mind is None or mind.me != view["seat"] or not mind.history.fits(view["log"]):
            mind = self.mind = Mind(view, self.model)
            self.listener = Listener(seat_of(view))
        mind.update(view)
        if self.talks:  # (issue 20) what the table said, weighed by each speaker's record
            mind.talk_factors = self.listener.hear(view)
        return mind

    def speak(self, shown: View) -> list[Action]:
        """The claims this bot makes now (see `talk.py`); the table asks at its moments."""
        view = TYPES.view(shown)  # (as `GameBot.choose`: the table's view of this game)
        if not self.talks or view["over"]:
            return []
        return self.talker.speak(lambda: self.think(view), view)

    def decide(self, view: KrakenView, legal: list[KrakenAction]) -> KrakenAction | None:
        if not legal:
            return None
        judge = self.judge_class(self.think(view), view, self.rng)
        used = character_move(judge, legal)
        if used is not None:
            return used
        if view["seat"] not in view["waiting"]:
            return None  # only an "any time" card to play, and not now
        prompt = view["private"]["prompt"]
        moves: list[KrakenAction] = [a for a in legal if a["type"] != "character"]
        if prompt == "window" or not moves:
            return {"type": "decline"} if {"type": "decline"} in legal else None
        answer = PROMPTS.get(prompt) if prompt is not None else None
        if answer is None:
            return self.rng.choice(moves)
        decide: Callable[[list[KrakenAction]], KrakenAction] = getattr(judge, answer)
        return decide(moves)


class HardBot(NormalBot):
    """The normal bot, warier of mutinies, looking ahead over sampled deals before it feeds
    someone to the Kraken or silences them (see `hard.py`)."""

    judge_class = HardJudge
    model = SHARP


BOTS = {"random": RandomBot, "normal": NormalBot, "hard": HardBot}
