"""Love Letter, a game from outside the package: one rules module, loaded by
``TABLEGAMES_GAMES=tests.plugins.loveletter:LOVELETTER`` (the test suite's conftest names it).

The classic 16-card rules, for one round (the tokens of affection are left out: the round's
winner wins the game). Rule decisions, as the rules leave them open:
- Setup: the top card is set aside face down; with two players, the next three are set aside
  face up. Each player draws one card; the first player draws a second on their turn.
- A card that needs another player as its target (Guard, Priest, Baron, King) is played with no
  effect when every other player still in the round is protected by a Handmaid; a Prince then
  must target its own player.
- The round ends when one player is left, or when the deck is empty at the end of a turn: the
  highest card wins, a tie going to the highest sum of discarded cards, then shared.

What this module shows of the contract: `from_view` (so the generic bots look ahead),
`heuristic` (how its players are imagined in the look-ahead's playouts), its own `hard` made by
the generic `look_ahead` keeping the move of a bot written by hand (`BOTS`: `CardCounter`, a
careful player counting the cards it has not seen), `secrets` (every
private fact is written as a ``holds`` field ``[seat, card]``, the only field that carries
one), `describe`, `panels`, `labels`, `per_seat` and `seat_keys` (so the generic screen speaks
in words), and a `deck` set-up that stacks the cards for tests.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from typing import Any, ClassVar

from tablegames.bots import look_ahead
from tablegames.rules import Action, Game, Panel, Secrets, State, View

#: Each card: its value, and how many the deck holds.
CARDS = {
    "guard": (1, 5),
    "priest": (2, 2),
    "baron": (3, 2),
    "handmaid": (4, 2),
    "prince": (5, 2),
    "king": (6, 1),
    "countess": (7, 1),
    "princess": (8, 1),
}
DECK = tuple(card for card, (_, copies) in CARDS.items() for _ in range(copies))
TARGETED = frozenset(("guard", "priest", "baron", "king"))  # a card aimed at another player
GUESSES = tuple(card for card in CARDS if card != "guard")
RULES = """# Love Letter

Sixteen cards; one card in hand, and on your turn you draw a second and play one of the two.

| card | value | copies | when played |
|---|---|---|---|
| Guard | 1 | 5 | name a card other than Guard: if the player you choose holds it, they are out |
| Priest | 2 | 2 | look at another player's hand |
| Baron | 3 | 2 | compare hands with another player in secret: the lower card is out |
| Handmaid | 4 | 2 | nobody may choose you until your next turn |
| Prince | 5 | 2 | a player (you too) discards their hand and draws a new card |
| King | 6 | 1 | trade hands with another player |
| Countess | 7 | 1 | must be played if you also hold the King or a Prince |
| Princess | 8 | 1 | if you play or discard her, you are out |

The last player in, or the highest card when the deck runs out, wins (ties: the highest sum
of discarded cards). This table plays one round.
"""


def value(card: str) -> int:
    return CARDS[card][0]


def title(card: str) -> str:
    return f"the {card.capitalize()}"


class LoveLetterState(State):
    """One round of Love Letter."""

    handlers: ClassVar[dict[str, str]] = {"play": "_play"}
    per_seat: ClassVar[frozenset[str]] = frozenset(("discards", "out", "protected", "known"))
    seat_keys: ClassVar[frozenset[str]] = frozenset(("current", "target"))
    # (Whose turn it is shows by the players' arrows: `current` is for bots, not the screen.)
    panels: ClassVar[tuple[Panel, ...]] = (
        Panel("Your hand", ("hand",)),
        Panel("Table", ("deck_left", "face_up")),
        Panel("Players", ("discards", "known", "protected", "out")),
    )
    labels: ClassVar[dict[str, str]] = {
        "hand": "Cards",
        "deck_left": "In the deck",
        "face_up": "Set aside",
        "discards": "Discarded",
        "known": "You saw",
    }

    def __init__(self, players: int, seed: int, deck: list[str] | None = None) -> None:
        super().__init__(players, random.Random(seed))
        if deck is None:
            deck = list(DECK)
            self.rng.shuffle(deck)
        self.deck = list(deck)  # top first
        self.set_aside = self.deck.pop(0)
        self.face_up = [self.deck.pop(0) for _ in range(3)] if players == 2 else []
        self.hands: list[list[str]] = [[self.deck.pop(0)] for _ in range(players)]
        self.discards: list[list[str]] = [[] for _ in range(players)]
        self.out = [False] * players
        self.protected = [False] * players
        #: known[seat][other]: the card `seat` knows `other` holds (a Priest, Baron or King).
        self.known: list[dict[int, str]] = [{} for _ in range(players)]
        self.turn = 0
        self.winners: list[int] | None = None
        self.emit("deal", "Each player draws a card; {0} goes first.", first=0)
        for seat, hand in enumerate(self.hands):
            self._tell_draw(seat, hand[0])
        self._draw(0)

    # -- the contract --------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.winners is not None

    def _waiting_for(self) -> frozenset[int]:
        return frozenset((self.turn,))

    def _legal(self, seat: int) -> list[Action]:
        if seat != self.turn:
            return []
        hand = self.hands[seat]
        playable = sorted(set(hand), key=value)
        if "countess" in hand and ({"king", "prince"} & set(hand)):
            playable = ["countess"]
        actions = []
        for card in playable:
            for target in self._targets(seat, card):
                if card == "guard" and target is not None:
                    actions += [_play(card, target, guess) for guess in GUESSES]
                else:
                    actions.append(_play(card, target))
        return actions

    def _targets(self, seat: int, card: str) -> list[int | None]:
        if card not in TARGETED and card != "prince":
            return [None]
        others = [
            other
            for other in range(self.players)
            if other != seat and not self.out[other] and not self.protected[other]
        ]
        if card == "prince":
            return [*others, seat]
        return list(others) or [None]

    def _view(self, seat: int | None) -> dict[str, Any]:
        known: list[str | None] = [None] * self.players
        if seat is not None:
            for other, card in self.known[seat].items():
                known[other] = card
            known[seat] = None
        return {
            "hand": list(self.hands[seat]) if seat is not None else [],
            "current": self.turn,
            "deck_left": len(self.deck),
            "face_up": list(self.face_up),
            "discards": [list(pile) for pile in self.discards],
            "out": list(self.out),
            "protected": list(self.protected),
            "known": known,
        }

    def _result(self) -> dict[str, Any]:
        winners = self.winners or []
        return {
            "winners": list(winners),
            "scores": [int(seat in winners) for seat in range(self.players)],
            "rounds": 1,
        }

    def secrets(self, seat: int | None) -> Secrets:
        """Every card in another player's hand this seat has not been shown, and the deck."""
        if self.over:
            return {}  # the hands are shown at the end
        found: Secrets = {}
        own = tuple(self.hands[seat]) if seat is not None else ()
        knows = self.known[seat] if seat is not None else {}
        for other, hand in enumerate(self.hands):
            if other == seat or not hand:
                continue
            for card in hand:
                if knows.get(other) != card:
                    found[("holds", (other, card))] = f"seat {other} holds {title(card)}"
            if tuple(hand) != own:
                found[("hand", tuple(hand))] = f"seat {other}'s hand is {hand}"
        found[("deck", tuple(self.deck))] = "the order of the deck"
        return found

    @classmethod
    def describe(cls, action: Action, view: View) -> str | None:
        card, target = action.get("card"), action.get("target")
        if action.get("type") != "play" or not isinstance(card, str) or card not in CARDS:
            return None
        words = f"play {title(card)}"
        if isinstance(target, int):
            words += " on yourself" if target == view.get("seat") else f" on {{{target}}}"
        guess = action.get("guess")
        if isinstance(guess, str):
            words += f", guessing {title(guess)}"
        return words

    @classmethod
    def from_view(cls, view: View, rng: random.Random) -> LoveLetterState:
        """A round as `view`'s seat sees it: the cards it cannot see dealt at random."""
        players, seat = view["players"], view["seat"]
        unseen = list(DECK)
        seen = [*view["hand"], *view["face_up"], *(c for pile in view["discards"] for c in pile)]
        seen += [card for card in view["known"] if card is not None]
        for card in seen:
            unseen.remove(card)
        rng.shuffle(unseen)
        state = cls.__new__(cls)
        State.__init__(state, players, rng)
        state.game, state.quiet = LOVELETTER, True
        state.hands = []
        for other in range(players):
            if other == seat:
                state.hands.append(list(view["hand"]))
            elif view["out"][other]:
                state.hands.append([])
            else:  # what the seat knows of it, the rest unseen; the player to act holds two
                known = view["known"][other]
                hand = [known] if known is not None else [unseen.pop()]
                if other == view["current"]:
                    hand.append(unseen.pop())
                state.hands.append(hand)
        state.set_aside = unseen.pop()
        state.deck, state.face_up = unseen, list(view["face_up"])
        state.discards = [list(pile) for pile in view["discards"]]
        state.out, state.protected = list(view["out"]), list(view["protected"])
        state.known = [{} for _ in range(players)]
        state.known[seat] = {o: c for o, c in enumerate(view["known"]) if c is not None}
        state.turn, state.winners = view["current"], None
        return state

    @classmethod
    def heuristic(cls, view: View, action: Action) -> float:
        """How good playing a card looks, by the cards still unseen (`unseen_odds`): a Guard
        names the card its player most likely holds (a card seen, surely), a Baron compares
        when the card kept is likely higher, a Prince aims at a Princess; and the card kept
        counts more as the deck runs out."""
        card, target, guess = action.get("card"), action.get("target"), action.get("guess")
        hand = list(view["hand"])
        if not isinstance(card, str) or card not in hand:
            return 0.0
        hand.remove(card)
        kept = hand[0] if hand else card
        seat, known = view["seat"], view["known"]
        odds = unseen_odds(view)

        def holds(other: object) -> dict[str, float]:
            """What `other` holds, as the chances of each card."""
            if isinstance(other, int) and known[other] is not None:
                return {known[other]: 1.0}
            return odds

        # (the card kept wins at the end: it matters more the fewer cards are left to draw)
        weight = 0.05 if view["deck_left"] > 2 else 0.4
        score = value(kept) * weight
        if target is None or card in ("handmaid", "countess", "princess"):
            return score + EFFECTS_ALONE.get(card, 0.0)
        theirs = holds(target)
        if card == "guard":
            return score + 3.0 * theirs.get(str(guess), 0.0)
        if card == "priest":
            return score + (0.1 if len(theirs) == 1 else 0.4)
        if card == "baron":
            wins = sum(p for other, p in theirs.items() if value(other) < value(kept))
            loses = sum(p for other, p in theirs.items() if value(other) > value(kept))
            return score + 3.0 * wins - 4.0 * loses
        if card == "prince" and target == seat:  # (my kept card goes: a Princess puts me out)
            drawn = sum(p * value(other) for other, p in odds.items())
            return -100.0 if kept == "princess" else drawn * weight
        if card == "prince":
            return score + 0.2 + 3.0 * theirs.get("princess", 0.0)
        # the King: a trade, worth what I get for what I give (and they learn what I held)
        gets = sum(p * value(other) for other, p in theirs.items())
        return 0.1 * (gets - value(kept)) - (2.0 if kept == "princess" else 0.3)

    # -- playing -------------------------------------------------------------------------------
    def _play(self, seat: int, action: Action, now: float) -> None:
        # (one of `legal(seat)`: the base class checks, and asks `why_illegal` otherwise)
        card = action["card"]
        wanted = {k: v for k, v in action.items() if k != "type"}
        target, guess = action.get("target"), action.get("guess")
        self.hands[seat].remove(card)
        self.discards[seat].append(card)
        self._forget(seat, card)
        self.emit("play", _sentence(seat, card, target, guess), seat=seat, **wanted)
        getattr(self, f"_{card}")(seat, target, guess)
        self._next_turn()

    def why_illegal(self, seat: int, action: Action) -> str | None:
        if seat != self.turn:
            return "it is not your turn"
        card, target = action.get("card"), action.get("target")
        if not isinstance(card, str) or card not in self.hands[seat]:
            return "you can only play a card in your hand"
        hand = self.hands[seat]
        if card != "countess" and "countess" in hand and {"king", "prince"} & set(hand):
            return "you must play the Countess while you hold the King or a Prince"
        if card == "guard" and action.get("guess") not in GUESSES and target is not None:
            return "name a card other than the Guard"
        if isinstance(target, int) and 0 <= target < self.players:
            if self.out[target]:
                return f"{{{target}}} is out of the round"
            if self.protected[target]:
                return f"{{{target}}} is protected by the Handmaid"
        return f"say whom {title(card)} is for (another player still in the round)"

    def _guard(self, seat: int, target: int | None, guess: str | None) -> None:
        if target is None:
            return
        if self.hands[target][0] == guess:
            self.emit("hit", f"{{{target}}} holds {title(str(guess))}!", seat=target)
            self._knock_out(target)
        else:
            self.emit("miss", f"{{{target}}} does not hold {title(str(guess))}.", seat=target)

    def _priest(self, seat: int, target: int | None, guess: str | None) -> None:
        if target is not None:
            self._show(seat, target)

    def _baron(self, seat: int, target: int | None, guess: str | None) -> None:
        if target is None:
            return
        self._show(seat, target)
        self._show(target, seat)
        mine, theirs = value(self.hands[seat][0]), value(self.hands[target][0])
        if mine == theirs:
            self.emit("tie", f"{{{seat}}} and {{{target}}} hold the same card.")
        else:
            self._knock_out(target if mine > theirs else seat)

    def _handmaid(self, seat: int, target: int | None, guess: str | None) -> None:
        self.protected[seat] = True

    def _prince(self, seat: int, target: int | None, guess: str | None) -> None:
        assert target is not None
        (dropped,) = self.hands[target]
        self.hands[target] = []
        self.discards[target].append(dropped)
        self._forget(target, dropped)
        self.emit("discard", f"{{{target}}} discards {title(dropped)}.", seat=target, card=dropped)
        if dropped == "princess":
            self._knock_out(target)
            return
        new = self.deck.pop(0) if self.deck else self.set_aside
        self.hands[target].append(new)
        self._tell_draw(target, new)

    def _king(self, seat: int, target: int | None, guess: str | None) -> None:
        if target is None:
            return
        self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
        for one, other in ((seat, target), (target, seat)):
            self._forget(one, self.hands[other][0])
            self.known[one][other] = self.hands[other][0]  # what they gave away
            self.emit(
                "trade",
                f"You take {title(self.hands[one][0])} from {{{other}}}.",
                (one,),
                seat=one,
                holds=[one, self.hands[one][0]],
            )

    def _countess(self, seat: int, target: int | None, guess: str | None) -> None:
        pass

    def _princess(self, seat: int, target: int | None, guess: str | None) -> None:
        self._knock_out(seat)

    # -- helpers -------------------------------------------------------------------------------
    def _show(self, seat: int, other: int) -> None:
        """`seat` sees `other`'s card (a private event: a `holds` fact)."""
        card = self.hands[other][0]
        self.known[seat][other] = card
        text = f"You see that {{{other}}} holds {title(card)}."
        self.emit("see", text, (seat,), seat=seat, holds=[other, card])

    def _forget(self, seat: int, card: str) -> None:
        """What others knew of `seat`'s hand no longer holds once `card` leaves it."""
        for knows in self.known:
            if knows.get(seat) == card and card not in self.hands[seat]:
                del knows[seat]

    def _tell_draw(self, seat: int, card: str) -> None:
        self.emit("draw", f"You draw {title(card)}.", (seat,), seat=seat, holds=[seat, card])

    def _draw(self, seat: int) -> None:
        card = self.deck.pop(0)
        self.hands[seat].append(card)
        self._tell_draw(seat, card)

    def _knock_out(self, seat: int) -> None:
        self.out[seat] = True
        shown = self.hands[seat]
        self.discards[seat] += shown
        self.hands[seat] = []
        for knows in self.known:
            knows.pop(seat, None)
        text = f"{{{seat}}} is out of the round"
        text += f", showing {title(shown[0])}." if shown else "."
        self.emit("out", text, seat=seat, cards=shown)

    def _next_turn(self) -> None:
        alive = [seat for seat in range(self.players) if not self.out[seat]]
        if len(alive) == 1 or not self.deck:
            self._finish(alive)
            return
        seat = self.turn
        while True:
            seat = (seat + 1) % self.players
            if not self.out[seat]:
                break
        self.turn = seat
        self.protected[seat] = False
        self._draw(seat)

    def _finish(self, alive: list[int]) -> None:
        def strength(seat: int) -> tuple[int, int]:
            return value(self.hands[seat][0]), sum(map(value, self.discards[seat]))

        best = max(map(strength, alive))
        self.winners = [seat for seat in alive if strength(seat) == best]
        shown = {str(seat): self.hands[seat][0] for seat in alive}
        if len(alive) > 1:
            self.emit("showdown", "The deck is empty: the hands are shown.", hands=shown)
        if len(self.winners) == 1:
            (seat,) = self.winners
            self.emit("win", f"{{{seat}}} wins the round.", seat=seat)
        else:
            names = " and ".join(f"{{{seat}}}" for seat in self.winners)
            self.emit("win", f"{names} win the round.", winners=self.winners)


#: What a card played on nobody is worth to the `heuristic` (the Princess played loses).
EFFECTS_ALONE = {"handmaid": 0.5, "countess": 0.0, "princess": -100.0}


def unseen_odds(view: View) -> dict[str, float]:
    """The chance that a card the seat cannot see is each card: the deck less every card it
    has seen (its hand, the cards set aside face up, the discards, the hands it knows)."""
    return _odds(tuple(sorted(_seen(view))))


def _seen(view: View) -> list[str]:
    seen = [*view["hand"], *view["face_up"], *(c for pile in view["discards"] for c in pile)]
    return seen + [card for card in view["known"] if card is not None]


@functools.lru_cache(maxsize=4096)
def _odds(seen: tuple[str, ...]) -> dict[str, float]:
    # (cached: a look-ahead's players ask it for every action of every move of its playouts)
    unseen = Counter(DECK)
    unseen.subtract(seen)
    total = sum(unseen.values())
    return {card: count / total for card, count in unseen.items() if count > 0}


def _play(card: str, target: int | None, guess: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "play", "card": card}
    if target is not None:
        action["target"] = target
    if guess is not None:
        action["guess"] = guess
    return action


def _sentence(seat: int, card: str, target: int | None, guess: str | None) -> str:
    words = f"{{{seat}}} plays {title(card)}"
    if target is not None:
        words += " on themselves" if target == seat else f" on {{{target}}}"
    if guess is not None:
        words += f", naming {title(guess)}"
    return words + "."


# -- its own hard bot -----------------------------------------------------------------------------
#: The chance a rival who knows `CardCounter`'s card puts it out before its next turn (a Guard
#: in one of its two cards, or a Baron higher).
SEEN_DANGER = 0.5
#: What seeing a hand is worth (in shares of the win), three times with a Guard kept.
INFORMATION = 0.01
#: How much likelier a player keeps a card higher than the one it played (three times in four,
#: in games between `normal` bots), and a King or a Prince behind a Countess (she may be forced).
KEPT_HIGHER, BEHIND_COUNTESS = 3.0, 3.0


class CardCounter:
    """The move Love Letter's `hard` keeps: a careful player's, by the cards it has not seen.

    It reads the round's log (`Reading`) for what each other player may hold: a card unseen
    (the deck less its hand, the discards, the cards set aside face up and the hands it saw),
    not the card a Guard named in vain, above the card a Baron's loser showed, likelier higher
    than the card it played last (people mostly keep the better card), a King or a Prince
    likelier behind a Countess; and who has seen its own card (a Priest, a Baron's tie, a
    King). Each way to play is rated by the share of the win it likely leaves it (`rate`): a
    Guard names the likeliest card (a card seen, surely), a Baron compares when the card kept
    likely beats theirs, a Prince aims at a likely Princess, a Handmaid counts where it is in
    danger; the card kept counts by the number of players while the deck is thick, by how
    likely it is the highest as the deck runs out, less the chance a rival puts it out first
    (more for a card a rival has seen, or a low one a Baron beats).
    """

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        if len(legal) <= 1:
            return legal[0] if legal else None
        reading = Reading(view)
        rated = [(reading.rate(action), self.rng.random(), i) for i, action in enumerate(legal)]
        return legal[max(rated)[2]]


class Reading:
    """What a seat makes of its view: what each other player may hold, and who knows its hand."""

    def __init__(self, view: View) -> None:
        self.view, self.seat = view, view["seat"]
        self.hand: list[str] = list(view["hand"])
        self.alive = [o for o in range(view["players"]) if not view["out"][o]]
        self.rivals = [o for o in self.alive if o != self.seat]
        self.odds = odds = unseen_odds(view)
        self.unseen = Counter(DECK)
        self.unseen.subtract(_seen(view))
        # Facts about the card each player holds since it last played (from the log).
        self.not_held: dict[int, set[str]] = {o: set() for o in self.rivals}
        self.above: dict[int, int] = {o: 0 for o in self.rivals}
        self.countess: set[int] = set()
        #: played[o]: the card o played last, keeping one it liked better (mostly higher).
        self.played: dict[int, str] = {}
        #: knowers[o]: the card of mine player o knows I hold.
        self.knowers: dict[int, str] = {}
        self._read(view.get("log") or [])
        known = view["known"]
        self.holds: dict[int, dict[str, float]] = {}
        for other in self.rivals:
            if known[other] is not None:
                self.holds[other] = {known[other]: 1.0}
                continue
            played = value(self.played.get(other, "guard"))
            weights = {
                card: p
                * (BEHIND_COUNTESS if other in self.countess and card in ("king", "prince") else 1)
                * (KEPT_HIGHER if value(card) > played else 1.0)
                for card, p in odds.items()
                if card not in self.not_held[other] and value(card) > self.above[other]
            }
            total = sum(weights.values()) or 1.0
            self.holds[other] = {card: w / total for card, w in weights.items()} or odds
        #: How much the card kept counts, more as the deck runs out (the highest wins there).
        self.late: float = 1.0 / (1 + view["deck_left"] / 2)

    def _read(self, log: list[dict[str, Any]]) -> None:
        """Follows the round's events: its own hand, who has seen it, and what others hold."""
        me, mine = self.seat, list[str]()
        last: dict[str, Any] = {}  # the last card played
        for event in log:
            kind, seat = event.get("kind"), event.get("seat", -1)
            if kind == "draw" and seat == me:
                mine.append(event["holds"][1])
            elif kind == "discard" and seat == me and event["card"] in mine:
                mine.remove(event["card"])
            elif kind == "discard":
                self._lapse(seat)
            elif kind == "trade" and seat == me:  # what I gave, they know; what I got, I do
                mine = [event["holds"][1]]
                other = last["target"] if last["seat"] == me else last["seat"]
                self.knowers[other] = mine[0]
            elif kind == "play":
                last = event
                card: str = event["card"]
                target: int = event.get("target", -1)
                if seat == me:
                    mine.remove(card)
                self._lapse(seat)
                if seat != me:
                    self.played[seat] = card
                if card == "countess" and seat != me:
                    self.countess.add(seat)
                elif card == "guard" and target in self.not_held:
                    self.not_held[target].add(event["guess"])
                elif card == "king" and target >= 0:
                    self._lapse(target)
                elif card in ("priest", "baron") and target == me:
                    self.knowers[seat] = mine[0]
                elif card == "baron" and seat == me and target >= 0:
                    self.knowers[target] = mine[0]
            elif kind == "out" and event.get("cards") and last.get("card") == "baron":
                pair = {last["seat"], last.get("target", -1)} - {seat}
                for winner in pair & set(self.above):  # (it holds more than the loser showed)
                    self.above[winner] = value(event["cards"][0])
            self.knowers = {o: c for o, c in self.knowers.items() if c in mine}

    def _lapse(self, seat: object) -> None:
        """What was known of `seat`'s card may no longer hold: it has another card now."""
        if isinstance(seat, int) and seat in self.not_held:
            self.not_held[seat].clear()
            self.above[seat] = 0
            self.countess.discard(seat)
            self.played.pop(seat, None)

    def rate(self, action: Action) -> float:
        """The share of the round's win playing `action` likely leaves this seat."""
        card, target, guess = str(action["card"]), action.get("target"), action.get("guess")
        hand = list(self.hand)
        hand.remove(card)
        kept = hand[0] if hand else card
        rivals = self.rivals
        if card == "princess":
            return 0.0
        if card == "handmaid":
            return self.share(kept, rivals, safe=True)
        if card == "countess" or not isinstance(target, int):
            return self.share(kept, rivals)
        theirs = self.holds.get(target, {})
        fewer = [other for other in rivals if other != target]
        if card == "guard":
            hit = theirs.get(str(guess), 0.0)
            return hit * self.share(kept, fewer) + (1 - hit) * self.share(kept, rivals)
        if card == "priest":
            learns = 0.0 if len(theirs) == 1 else INFORMATION * (3 if kept == "guard" else 1)
            return self.share(kept, rivals) + learns
        if card == "baron":
            wins = sum(p for c, p in theirs.items() if value(c) < value(kept))
            ties = theirs.get(kept, 0.0)
            seen = {target: kept}
            return wins * self.share(kept, fewer) + ties * self.share(kept, rivals, seen)
        if card == "prince" and target == self.seat:
            if kept == "princess":
                return 0.0
            return sum(p * self.share(new, rivals) for new, p in self.odds.items())
        if card == "prince":
            out = theirs.get("princess", 0.0)
            redraw = {target: self.odds}
            stays = self.share(kept, rivals, holds=redraw)
            return out * self.share(kept, fewer) + (1 - out) * stays
        # the King: I get their card, they get mine and know it
        return sum(p * self.share(c, rivals, {target: c}) for c, p in theirs.items())

    def danger(self, kept: str, rivals: int) -> float:
        """The chance one rival who does not know it puts `kept` out on its turn: with a Guard
        naming it (people name the cards they have not seen: mine among them) or a Baron
        higher, aimed at me among the `rivals`."""
        odds, unseen = self.odds, self.unseen
        names = (unseen[kept] + 1) / (unseen.total() - unseen["guard"] + 1)
        higher = sum(p for c, p in odds.items() if value(c) > value(kept))
        guard, baron = (min(1.0, 2 * odds.get(card, 0.0)) for card in ("guard", "baron"))
        return (guard * names + baron * higher) / rivals

    def share(
        self,
        kept: str,
        rivals: list[int],
        seen: dict[int, str] | None = None,
        safe: bool = False,
        holds: dict[int, dict[str, float]] | None = None,
    ) -> float:
        """The share of the win this seat likely has holding `kept` against `rivals`: by the
        number of players while the deck is thick, by the highest card as it thins; less the
        chance it is put out before its next turn (unless `safe`: a Handmaid), likelier where
        a rival knows its card (`seen`, besides what they know already)."""
        if not rivals:
            return 1.0
        holds = {**self.holds, **(holds or {})}
        beats = 1.0
        for other in rivals:
            theirs = holds[other]
            beats *= sum(
                p * (1.0 if value(c) < value(kept) else 0.5 if c == kept else 0.0)
                for c, p in theirs.items()
            )
        share = (1 - self.late) / (len(rivals) + 1) + self.late * beats
        if safe:
            return share
        knowers = {**self.knowers, **(seen or {})}
        danger = sum(
            SEEN_DANGER if knowers.get(other) == kept else self.danger(kept, len(rivals))
            for other in rivals
        )
        return share * max(0.0, 1 - danger)


LOVELETTER = Game(
    "loveletter", "Love Letter", 2, 4, 4,
    "Sixteen cards, one in hand: guess, peek, compare and protect your way to the Princess.",
    LoveLetterState, setups=("deck",), rules=RULES, private_words="card",
    bots=f"{__name__}:BOTS",  # (this module, under whatever name it is installed)
)  # fmt: skip
#: Its bots: the generic `random` and `normal`; `hard` the generic look-ahead keeping the move
#: of `CardCounter` (above) unless its playouts surely find better, by three standard errors
#: (the best of fifteen moves often beats one no worse by two, by chance alone), its players
#: imagined by the heuristic (imagined as `CardCounter`, slower, it played fewer playouts and
#: won less: 0.27 of 100 deals). `CardCounter` alone against three `normal` bots won 0.29 of
#: 800 deals, the look-ahead keeping its move 0.34 of 400 (docs/adding-a-game.md). It does not
#: read what they did (`reads`): a state it believes in is lost at the next card drawn (the
#: deck, unseen, lies in another order in it), so each of its states is dealt by `from_view`;
#: `CardCounter` reads the round's log instead.
BOTS = {
    "hard": look_ahead(LOVELETTER, people="heuristic", reads=False, keeps=CardCounter, sure=3.0)
}
