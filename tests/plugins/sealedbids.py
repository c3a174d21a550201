"""Sealed Bids, a game from outside the package where everyone chooses at the same time: one
rules module, loaded by ``TABLEGAMES_GAMES=tests.plugins.sealedbids:SEALED_BIDS`` (the test
suite's conftest names it).

A game of pure strategy (Goofspiel) for 2–10 players, in hands until a score:
- Each player holds the bid cards 1 to 6. A hand turns up the prizes 1 to 6 one at a time, in
  an order nobody knows.
- For each prize every player picks one of their bid cards at the same time, in secret (a
  sealed bid). When the last bid is in they are shown: the highest bid nobody else made takes
  the prize, with whatever was carried to it. If every bid was matched by another, the prize is
  carried to the next one (after a hand's last prize it is lost). Bids are spent.
- After six prizes the hand ends. Once someone has the points the table plays to (25; option
  `target`) the game ends and the most points win (ties share); else everyone takes 1 to 6
  again for a new hand.

What this module shows of the contract: several seats waited for at once, each bid sealed by
`State.commit` and opened by `State.reveal` (`SecretChoices`, which also names the sealed bids
for `secrets`); `panels` and `labels` for the generic screen; `from_view`, `heuristic` and
`evaluate` for the generic bots (a playout stops at the end of a hand, judged by the scores),
and a `hard` of its own from the generic `look_ahead` given its own way of dealing what a seat
cannot see (`deals`: `dealt_unsealed`).
A seat's remaining bid cards are public (every bid is shown), the one it sealed among them
until the bids are shown: its own view alone lists its cards without it.
"""

from __future__ import annotations

import math
import random
from typing import Any, ClassVar

from tablegames.bots import look_ahead
from tablegames.rules import Action, Game, Option, Panel, SecretChoices, Secrets, State, View

CARDS = tuple(range(1, 7))  # the bid cards each player holds, and the prizes of a hand
RULES = """# Sealed Bids

Everyone holds the bid cards 1 to 6. A hand turns up the prizes 1 to 6 one at a time.

- For each prize, **everyone picks a bid card at the same time, in secret**. When the last bid
  is in they are all shown: the highest bid nobody else made takes the prize (and whatever
  was carried to it). If every bid was matched, the prize is carried to the next one.
- Each bid card is spent. After six prizes the hand ends; once someone has the points the
  table plays to, the most points win. Otherwise everyone takes 1 to 6 again for a new hand.
"""


class SealedBidsState(State):
    """A game of Sealed Bids: hands of six prizes, every bid sealed until all are in."""

    handlers: ClassVar[dict[str, str]] = {"bid": "_bid"}
    per_seat: ClassVar[frozenset[str]] = frozenset(("scores", "bids_left", "last_bids"))
    panels: ClassVar[tuple[Panel, ...]] = (
        Panel("Prize", ("prize", "carried", "prizes_left")),
        Panel("Your bid", ("chosen", "hand")),
        Panel("Game", ("round", "target")),
        Panel("Players", ("scores", "last_bids", "bids_left")),
    )
    labels: ClassVar[dict[str, str]] = {
        "prize": "Up for bids",
        "carried": "Carried to it",
        "prizes_left": "Still to come",
        "chosen": "Sealed",
        "hand": "Your cards",
        "round": "Hand",
        "target": "Playing to",
        "scores": "Points",
        "bids_left": "Cards",
        "last_bids": "Last bid",
    }

    def __init__(
        self, players: int, seed: int, target: int = 25, prizes: list[int] | None = None
    ) -> None:
        super().__init__(players, random.Random(seed))
        self.target = target
        self.scores = [0] * players
        self.round = 0
        self.bids = SecretChoices()
        self.last_bids: list[int | None] = [None] * players
        self.winners: list[int] | None = None
        self.prize: int | None = None
        self.prize_deck: list[int] = []  # (each hand's: `_deal`)
        self.bids_left: list[list[int]] = []
        self.carried = 0
        self._deal(prizes)

    # -- the contract --------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.winners is not None

    def _waiting_for(self) -> frozenset[int]:
        return self.bids.waiting

    def _legal(self, seat: int) -> list[Action]:
        if seat not in self.bids.waiting:
            return []
        return [{"type": "bid", "card": card} for card in self.bids_left[seat]]

    def _view(self, seat: int | None) -> dict[str, Any]:
        chosen = self.bids.mine(seat)
        own = [] if seat is None else [c for c in self.bids_left[seat] if c != chosen]
        return {
            "round": self.round,
            "target": self.target,
            "prize": self.prize,
            "carried": self.carried or None,
            "prizes_left": sorted(self.prize_deck),
            "hand": own,
            "chosen": chosen,
            "scores": list(self.scores),
            "bids_left": [list(cards) for cards in self.bids_left],
            "last_bids": list(self.last_bids),
        }

    def _result(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners or []),
            "scores": list(self.scores),
            "rounds": self.round,
        }

    def secrets(self, seat: int | None) -> Secrets:
        """The bids sealed by others, and the order of the prizes still to come."""
        found = self.bids.secrets(seat, field="bid")
        if len(self.prize_deck) > 1:
            found[("prize_deck", tuple(self.prize_deck))] = "the order of the prizes"
        return found

    @classmethod
    def describe(cls, action: Action, view: View) -> str | None:
        card = action.get("card")
        return f"bid the {card}" if action.get("type") == "bid" and card in CARDS else None

    # -- for the generic bots -------------------------------------------------------------------
    @classmethod
    def from_view(cls, view: View, rng: random.Random) -> SealedBidsState:
        """The game as `view`'s seat sees it: the prizes to come in an order drawn from `rng`,
        and every bid sealed by another player drawn from that player's cards."""
        players, seat = view["players"], view["seat"]
        state = cls.__new__(cls)
        State.__init__(state, players, rng)
        state.game, state.quiet = SEALED_BIDS, True
        state.target, state.round = view["target"], view["round"]
        state.scores = list(view["scores"])
        state.bids_left = [list(cards) for cards in view["bids_left"]]
        state.last_bids = list(view["last_bids"])
        state.prize, state.carried = view["prize"], view["carried"] or 0
        state.prize_deck = list(view["prizes_left"])
        rng.shuffle(state.prize_deck)
        state.winners = None
        state.bids = SecretChoices()
        state.bids.ask(range(players))
        for other in range(players):
            if other == seat and view["chosen"] is not None:
                state.bids.choose(other, view["chosen"])
            elif other != seat and other not in view["waiting"]:
                state.bids.choose(other, rng.choice(state.bids_left[other]))
        return state

    @classmethod
    def heuristic(cls, view: View, action: Action) -> float:
        """Bid about what the prize is worth: a high card for a rich prize, a low one for less."""
        worth = min(max(CARDS), (view["prize"] or 0) + (view["carried"] or 0))
        return -abs(int(action.get("card", 0)) - worth)

    def evaluate(self, seat: int) -> float | None:
        """At a hand's first prize, before anyone bids: the seat's chance of winning, guessed
        from the points (each point behind the leader counts more as the target nears)."""
        if self.over or len(self.prize_deck) != len(CARDS) - 1 or self.bids.chosen:
            return None
        spread = max(2.0, self.target / 6)
        best = max(self.scores)
        weights = [math.exp((score - best) / spread) for score in self.scores]
        return weights[seat] / sum(weights)

    # -- playing -------------------------------------------------------------------------------
    def why_illegal(self, seat: int, action: Action) -> str | None:
        if seat in self.bids.chosen:
            return "you have bid already: wait for the others"
        if action.get("type") == "bid":
            left = ", ".join(map(str, self.bids_left[seat]))
            return f"bid one of your cards: {left}"
        return None

    def _bid(self, seat: int, action: Action, now: float) -> None:
        # (one of `legal(seat)`: the base class checks, and asks `why_illegal` otherwise)
        card = action["card"]
        self.commit(self.bids, seat, card, f"You bid the {card}.", field="bid")
        if self.bids.complete:
            self._show_bids()

    def _show_bids(self) -> None:
        said = ", ".join(f"{{{seat}}} {card}" for seat, card in sorted(self.bids.chosen.items()))
        shown = self.reveal(self.bids, f"The bids: {said}.")
        bids = [int(card) for card in shown]
        for seat, card in enumerate(bids):
            self.bids_left[seat].remove(card)
        self.last_bids = list(bids)
        unmatched = [card for card in bids if bids.count(card) == 1]
        worth = (self.prize or 0) + self.carried
        if unmatched:
            taker = bids.index(max(unmatched))
            self.scores[taker] += worth
            self.carried = 0
            text = f"{{{taker}}} takes {worth} with the {bids[taker]}."
            self.emit("take", text, seat=taker, points=worth, card=bids[taker])
        else:
            self.carried = worth
            self.emit("matched", "Every bid was matched: the prize is carried on.", points=worth)
        if self.prize_deck:
            self._turn_prize()
        else:
            self._end_hand()

    def _end_hand(self) -> None:
        board = ", ".join(f"{{{seat}}} {score}" for seat, score in enumerate(self.scores))
        self.emit("hand", f"Hand {self.round} ends: {board}.", scores=list(self.scores))
        best = max(self.scores)
        if best >= self.target:
            self.winners = [seat for seat, score in enumerate(self.scores) if score == best]
            self.prize = None
            if len(self.winners) == 1:
                self.emit("win", f"{{{self.winners[0]}}} wins.", seat=self.winners[0])
            else:
                names = " and ".join(f"{{{seat}}}" for seat in self.winners)
                self.emit("win", f"{names} win.", winners=list(self.winners))
            return
        self._deal(None)

    def _deal(self, prizes: list[int] | None) -> None:
        """A new hand: everyone takes 1 to 6, and the first prize is turned up."""
        self.round += 1
        self.restart_log(keep=2)  # the last hand's end stays above the new one
        self.bids_left = [list(CARDS) for _ in range(self.players)]
        self.carried = 0
        deck = list(prizes) if prizes is not None else list(CARDS)
        if prizes is None:
            self.rng.shuffle(deck)
        self.prize_deck = deck
        self._turn_prize()

    def _turn_prize(self) -> None:
        self.prize = self.prize_deck.pop(0)
        carried = f" (and {self.carried} carried)" if self.carried else ""
        self.emit("prize", f"The prize is {self.prize}{carried}: bid.", prize=self.prize)
        self.bids.ask(range(self.players))


def dealt_unsealed(view: View, rng: random.Random) -> SealedBidsState:
    """The game as `view`'s seat sees it (`from_view`), but with each bid another player has
    sealed still to be made: a look-ahead's playouts make it as they imagine that player bids,
    not drawn at random from its cards (the bots are asked in turn: a seat asked last would
    otherwise imagine every other bid at random). `hard` plays out from these."""
    seat, players = view["seat"], view["players"]
    others = (other for other in range(players) if other != seat)
    return SealedBidsState.from_view({**view, "waiting": [*view["waiting"], *others]}, rng)


SEALED_BIDS = Game(
    "sealedbids",
    "Sealed Bids",
    2,
    10,
    4,
    "Everyone bids a card in secret at once: the highest bid nobody matched takes the prize.",
    SealedBidsState,
    options=(
        Option("target", int, 25, "the points that end the game", (10, 25, 50), "Play to", 10),
    ),
    setups=("prizes",),
    rules=RULES,
    private_words="bid",
    bots=f"{__name__}:BOTS",  # (this module, under whatever name it is installed)
)
#: Its bots: the generic `random` and `normal`; `hard` the generic look-ahead, its players
#: imagined by the heuristic, each bid sealed before its own made in its playouts as such a
#: player makes it (`dealt_unsealed`), its playouts' best played: against three `normal` bots
#: it won 0.43 (0.32-0.56) of 60 games, the generic `hard` (the bids sealed before it drawn at
#: random, believing what people did, keeping `normal`'s move unless surely beaten) 0.29
#: (0.19-0.42), the same without beliefs nor a kept move 0.34 (0.23-0.47)
#: (docs/adding-a-game.md).
BOTS = {"hard": look_ahead(SEALED_BIDS, reads=False, keeps=None, deals=dealt_unsealed)}
