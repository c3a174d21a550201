"""Skull, a bluffing game from outside the package, written from the guide as an author would:
the rules here, its own `normal` bot in `bots.py`, the generic bots at the other levels.

For 3–6 players. Each holds four discs, three flowers and a skull, and plays rounds:
- Each player in turn puts a disc face down on their mat. Then, in turn, each either adds a
  disc from their hand or opens the bidding: how many discs they will turn up without meeting
  a skull (at most the discs on all the mats). A player with no disc in hand must bid.
- Once the bidding is open, each in turn raises or passes (passing is for the round). It ends
  when all but one have passed, or the bid reaches every disc on the mats.
- The challenger turns up all their own discs first, then one at a time the top disc of other
  players' mats, their choice. All flowers: the challenge is won; a player who wins two wins
  the game. A skull: the challenge fails, and the challenger loses one of their discs for good.
- A player with no discs left is out; the last player left wins.

Rule decisions, as the rules leave them open:
- The first discs are put down in turn order, each unseen by the others (the table game has
  everyone put one down at once; in turn it is the same secret).
- The disc a failed challenger loses is taken at random (the table game has the skull's owner
  pick blindly, or the challenger pick when the skull was their own); the challenger alone
  sees which, so nobody else knows whether they still hold their skull.
- The next round is opened by the challenger, or, if they are out, by the next player still in.

For the generic bots: `from_view` (what a seat cannot see dealt as it may be), `heuristic`, and
`evaluate` (at a round's start, by discs and challenges won), which ends the look-ahead's
playouts there: without it a move was drowned in the rounds after it, and `hard` won none of
24 games against three `normal` bots (`bench/bot_strength.py`).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from tablegames.rules import Action, Game, Panel, Secrets, State, View

FLOWER, SKULL = "flower", "skull"
DISCS = (FLOWER, FLOWER, FLOWER, SKULL)
WINS_NEEDED = 2
RULES = """# Skull

Each player holds four discs: three flowers and a skull.

- **Put down**: in turn, everyone puts a disc face down on their mat. Then, in turn, add
  another disc, or **bid**: how many discs you will turn up without meeting a skull.
- **Bidding**: in turn, raise or pass. It ends when all but one have passed.
- **The challenge**: turn up all your own discs, then the top discs of others' mats. Only
  flowers: you win the challenge; win two to win the game. A skull: you lose a disc for good.
- Lose all your discs and you are out; the last player left wins.
"""


class SkullState(State):
    """A game of Skull."""

    handlers: ClassVar[dict[str, str]] = {
        "place": "_place",
        "bid": "_bid",
        "pass": "_pass",
        "flip": "_flip",
    }
    per_seat: ClassVar[frozenset[str]] = frozenset(
        ("discs", "mats", "shown", "wins", "out", "passed")
    )
    seat_keys: ClassVar[frozenset[str]] = frozenset(("current", "bidder", "seat"))
    panels: ClassVar[tuple[Panel, ...]] = (
        Panel("Yours", ("hand", "mat")),
        Panel("The round", ("round", "phase", "bid", "bidder")),
        Panel("Players", ("discs", "mats", "shown", "wins", "passed", "out")),
    )
    labels: ClassVar[dict[str, str]] = {
        "hand": "In your hand",
        "mat": "Your stack (bottom first)",
        "bid": "The bid",
        "bidder": "Bid by",
        "discs": "Discs",
        "mats": "Down",
        "shown": "Turned up",
        "wins": "Challenges won",
        "passed": "passed",
        "out": "out",
    }

    def __init__(self, players: int, seed: int) -> None:
        super().__init__(players, random.Random(seed))
        self.owned: list[list[str]] = [list(DISCS) for _ in range(players)]
        self.wins = [0] * players
        self.lost: list[list[str]] = [[] for _ in range(players)]  # face down, for good
        self.round = 0
        self.winners: list[int] | None = None
        self._new_round(0)

    def _new_round(self, first: int) -> None:
        self.round += 1
        self.mats: list[list[str]] = [[] for _ in range(self.players)]  # bottom first
        self.shown = [0] * self.players  # how many of each mat's top discs are face up
        self.phase = "place"  # place (first discs) | add | bid | flip
        self.turn = first
        self.bid = 0
        self.bidder: int | None = None
        self.passed = [False] * self.players
        self.flipped = 0
        self.emit("round", f"Round {self.round}: {{{first}}} puts the first disc down.", seat=first)

    # -- the contract ------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.winners is not None

    def _waiting_for(self) -> frozenset[int]:
        return frozenset((self.turn,))

    def hand(self, seat: int) -> list[str]:
        """The discs `seat` holds that are not on its mat."""
        held = list(self.owned[seat])
        for disc in self.mats[seat]:
            held.remove(disc)
        return held

    def on_mats(self) -> int:
        return sum(map(len, self.mats))

    def _legal(self, seat: int) -> list[Action]:
        if seat != self.turn:
            return []
        places = [{"type": "place", "disc": disc} for disc in sorted(set(self.hand(seat)))]
        if self.phase == "place":
            return places
        if self.phase == "add":
            bids = [{"type": "bid", "count": n} for n in range(1, self.on_mats() + 1)]
            return places + bids
        if self.phase == "bid":
            raises = [{"type": "bid", "count": n} for n in range(self.bid + 1, self.on_mats() + 1)]
            return [*raises, {"type": "pass"}]
        return [
            {"type": "flip", "seat": other}
            for other in range(self.players)
            if other != seat and self.shown[other] < len(self.mats[other])
        ]

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": self.phase,
            "current": self.turn,
            "hand": sorted(self.hand(seat)) if seat is not None else [],
            "mat": list(self.mats[seat]) if seat is not None else [],
            "bid": self.bid or None,
            "bidder": self.bidder,
            "discs": [len(discs) for discs in self.owned],
            "mats": [len(mat) for mat in self.mats],
            "shown": [
                mat[len(mat) - count :] for mat, count in zip(self.mats, self.shown, strict=True)
            ],
            "wins": list(self.wins),
            "out": [not discs for discs in self.owned],
            "passed": list(self.passed),
        }

    def _result(self) -> dict[str, Any]:
        winners = self.winners or []
        return {"winners": list(winners), "scores": list(self.wins), "rounds": self.round}

    def secrets(self, seat: int | None) -> Secrets:
        """Others' discs face down and lost, as the facts the seat alone is told of its own
        (``placed`` and ``disc``: ``[seat, disc]``), and others' hands."""
        found: Secrets = {}
        own = tuple(sorted(self.hand(seat))) if seat is not None else None
        for other in range(self.players):
            if other == seat:
                continue
            hidden = self.mats[other][: len(self.mats[other]) - self.shown[other]]
            for disc in set(hidden):
                found[("placed", (other, disc))] = f"seat {other} has a {disc} face down"
            for disc in set(self.lost[other]):
                found[("disc", (other, disc))] = f"seat {other} lost a {disc}"
            hand = tuple(sorted(self.hand(other)))
            if hand and hand != own:
                found[("hand", hand)] = f"seat {other} holds {', '.join(hand)}"
        return found

    @classmethod
    def describe(cls, action: Action, view: View) -> str | None:
        kind = action.get("type")
        if kind == "place" and action.get("disc") in (FLOWER, SKULL):
            return f"put a {action['disc']} down"
        if kind == "bid" and isinstance(action.get("count"), int):
            return f"bid {action['count']}"
        if kind == "flip" and isinstance(action.get("seat"), int):
            return f"turn up {{{action['seat']}}}'s top disc"
        return "pass" if kind == "pass" else None

    # -- for the generic bots ----------------------------------------------------------------
    @classmethod
    def from_view(cls, view: View, rng: random.Random) -> SkullState:
        """The game as `view`'s seat sees it: each other player's hidden discs dealt from
        what they may own (their skull kept with the chance that random losses left it)."""
        players, me = view["players"], view["seat"]
        state = cls.__new__(cls)
        State.__init__(state, players, rng)
        state.game, state.quiet = SKULL_GAME, True
        state.round, state.phase, state.turn = view["round"], view["phase"], view["current"]
        state.bid, state.bidder = view["bid"] or 0, view["bidder"]
        state.passed, state.wins = list(view["passed"]), list(view["wins"])
        state.winners, state.flipped = None, 0
        state.lost = [[] for _ in range(players)]  # (what others lost is unknown: unused)
        state.owned, state.mats, state.shown = [], [], []
        for seat in range(players):
            shown: list[str] = list(view["shown"][seat])
            if seat == me:
                owned = [*view["hand"], *view["mat"]]
                mat = list(view["mat"])
            else:
                owned = dealt_discs(view["discs"][seat], shown, rng)
                for disc in shown:
                    owned.remove(disc)
                rng.shuffle(owned)
                mat = owned[: view["mats"][seat] - len(shown)] + shown
                owned += shown
            state.owned.append(sorted(owned))
            state.mats.append(mat)
            state.shown.append(len(shown))
        if state.phase == "flip" and me is not None and state.bidder is not None:
            state.flipped = sum(state.shown)
        return state

    @classmethod
    def heuristic(cls, view: View, action: Action) -> float:
        """Bluff a little, bid what your own flowers cover, raise seldom, turn up the player
        who has shown flowers."""
        kind = action["type"]
        mine = view["mat"]
        if kind == "place":
            return 1.0 if action["disc"] == FLOWER else 0.6 if not mine else 0.2
        if kind == "bid":
            safe = 0 if SKULL in mine else len(mine)
            count: int = action["count"]
            return 0.9 - 0.3 * max(0, count - max(1, safe))
        if kind == "pass":
            return 0.5
        other: int = action["seat"]
        down: int = view["mats"][other]
        return 0.5 + 0.1 * len(view["shown"][other]) - 0.05 * down

    def evaluate(self, seat: int) -> float | None:
        """At a round's start, before a disc is down: the seat's chance of winning, guessed
        from each player's discs and challenges won (a won challenge counts as two more
        discs' worth, times the discs); None elsewhere."""
        if self.over or self.phase != "place" or any(self.mats):
            return None
        held = zip(self.wins, self.owned, strict=True)
        strength = [(1 + 2 * won) * len(discs) for won, discs in held]
        return strength[seat] / sum(strength)

    # -- playing -------------------------------------------------------------------------------
    def why_illegal(self, seat: int, action: Action) -> str | None:
        if seat != self.turn:
            return "it is not your turn"
        kind = action.get("type")
        if kind == "place" and self.phase not in ("place", "add"):
            return "the bidding is open: raise or pass"
        if kind == "place":
            return "put down a disc you hold"
        if kind == "bid" and self.phase == "place":
            return "everyone puts a disc down before anyone bids"
        if kind == "bid":
            return f"bid more than {self.bid} and at most {self.on_mats()}"
        if kind == "flip":
            return "turn up the top disc of another player's mat"
        return None

    def _next(self, seat: int, skip_passed: bool = False) -> int:
        for step in range(1, self.players + 1):
            other = (seat + step) % self.players
            if self.owned[other] and not (skip_passed and self.passed[other]):
                return other
        return seat

    def _place(self, seat: int, action: Action, now: float) -> None:
        disc = action["disc"]
        self.mats[seat].append(disc)
        self.emit("place", f"{{{seat}}} puts a disc down.", seat=seat)
        self.emit("placed", f"You put a {disc} down.", (seat,), seat=seat, placed=[seat, disc])
        self.turn = self._next(seat)  # (one with nothing in hand may only bid: see `_legal`)
        if self.phase == "place" and all(
            self.mats[other] for other in range(self.players) if self.owned[other]
        ):
            self.phase = "add"

    def _bid(self, seat: int, action: Action, now: float) -> None:
        self.bid, self.bidder, self.phase = action["count"], seat, "bid"
        self.emit("bid", f"{{{seat}}} bids {self.bid}.", seat=seat, count=self.bid)
        self._after_bidding(seat)

    def _pass(self, seat: int, action: Action, now: float) -> None:
        self.passed[seat] = True
        self.emit("pass", f"{{{seat}}} passes.", seat=seat)
        self._after_bidding(seat)

    def _after_bidding(self, seat: int) -> None:
        assert self.bidder is not None
        bidding = [s for s in range(self.players) if self.owned[s] and not self.passed[s]]
        if self.bid >= self.on_mats() or bidding == [self.bidder]:
            self._challenge(self.bidder)
        else:
            self.turn = self._next(seat, skip_passed=True)

    def _challenge(self, seat: int) -> None:
        self.phase, self.turn = "flip", seat
        self.emit("challenge", f"{{{seat}}} must turn up {self.bid}.", seat=seat, count=self.bid)
        own = self.mats[seat]
        self.shown[seat] = self.flipped = len(own)  # their own first, all of them
        self.emit("shown", f"{{{seat}}} turns up their own: {', '.join(reversed(own))}.", seat=seat)
        if SKULL in own:
            self._fail(seat, seat)
        elif self.flipped >= self.bid:
            self._succeed(seat)

    def _flip(self, seat: int, action: Action, now: float) -> None:
        other = action["seat"]
        self.shown[other] += 1
        disc = self.mats[other][len(self.mats[other]) - self.shown[other]]
        self.flipped += 1
        self.emit("flip", f"{{{seat}}} turns up {{{other}}}'s {disc}.", seat=seat, disc=disc)
        if disc == SKULL:
            self._fail(seat, other)
        elif self.flipped >= self.bid:
            self._succeed(seat)

    def _succeed(self, seat: int) -> None:
        self.wins[seat] += 1
        self.emit("won", f"{{{seat}}} wins the challenge.", seat=seat)
        if self.wins[seat] >= WINS_NEEDED:
            self._end([seat])
        else:
            self._new_round(seat)

    def _fail(self, seat: int, owner: int) -> None:
        self.mats = [[] for _ in range(self.players)]  # every disc back to its owner first
        self.shown = [0] * self.players
        lost = self.rng.choice(self.owned[seat])
        self.owned[seat].remove(lost)
        self.lost[seat].append(lost)
        text = f"{{{seat}}} meets {{{owner}}}'s skull and loses a disc."
        self.emit("lost", text, seat=seat, owner=owner)
        self.emit("lost_disc", f"You lose a {lost}.", (seat,), seat=seat, disc=[seat, lost])
        if not self.owned[seat]:
            self.emit("out", f"{{{seat}}} is out.", seat=seat)
        alive = [other for other in range(self.players) if self.owned[other]]
        if len(alive) == 1:
            self._end(alive)
        else:
            self._new_round(seat if self.owned[seat] else self._next(seat))

    def _end(self, winners: list[int]) -> None:
        self.winners = winners
        self.phase = "over"
        self.emit("win", f"{{{winners[0]}}} wins the game.", seat=winners[0])


def dealt_discs(count: int, shown: list[str], rng: random.Random) -> list[str]:
    """`count` discs a player may own after random losses, `shown` among them: its skull
    kept with the chance that the losses spared it (count / 4), for sure when it is shown,
    never when every disc it owns is a flower shown."""
    if SKULL in shown:
        kept = True
    elif shown.count(FLOWER) >= count:
        kept = False
    else:
        kept = rng.random() < count / len(DISCS)
    return [SKULL] * kept + [FLOWER] * (count - kept)


SKULL_GAME = Game(
    "skull",
    "Skull",
    3,
    6,
    4,
    "Flowers and a skull, face down: bid how many you can turn up without meeting a skull.",
    SkullState,
    rules=RULES,
    bots="tests.plugins.skull.bots:BOTS",
)
