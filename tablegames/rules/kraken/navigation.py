"""Steps 3 to 5 of a round: navigation, moving the ship, map and card actions, off-duty signs."""

from __future__ import annotations

from typing import Any

from ..contract import Action
from .board import CABIN_SEARCH, FEED_THE_KRAKEN, FLOGGING, GOALS, OFF_WITH_THE_TONGUE, is_goal
from .cards import ARMED, DISARMED, DRUNK, MERMAID, TELESCOPE, action, colour
from .roles import (
    CULT_LEADER,
    FACTION_CARDS,
    GROUP_WORDS,
    OFF_DUTY_OFFICES,
    STARTING_GUNS,
    faction_card,
    group,
)
from .types import BareAction, CardAction, TargetAction, TelescopeAction
from .voyage import AUTO, Voyage

#: Map and card actions that ask the captain to pick another player -> the effect's method.
PICK_EFFECTS = {
    CABIN_SEARCH: "_search_cabin",
    FLOGGING: "_flog",
    OFF_WITH_THE_TONGUE: "_cut_tongue",
    FEED_THE_KRAKEN: "_feed_kraken",
    MERMAID: "_visit_mermaid",
    TELESCOPE: "_lend_telescope",
}
#: What the captain is asked to do for each pick.
PICK_PROMPTS = {
    CABIN_SEARCH: "searches a cabin",
    FLOGGING: "has someone flogged",
    OFF_WITH_THE_TONGUE: "has someone's tongue cut off",
    FEED_THE_KRAKEN: "feeds someone to the Kraken",
    MERMAID: "sends someone to the mermaid",
    TELESCOPE: "hands someone the telescope",
}
#: Card actions that need nobody's choice -> the effect's method.
CARD_EFFECTS = {DRUNK: "_drunk", ARMED: "_armed", DISARMED: "_disarmed"}
#: Navigation cards a player draws at once (the Smuggler makes it 3).
DRAW_COUNT = 2
MISSING = -1  # the kept-card slot of a lieutenant the cards stand in for


class Navigation(Voyage):
    """Drawing, the logbook, steering or jumping overboard, and everything a move sets off."""

    # -- drawing and the logbook --------------------------------------------------------------
    def _step_navigate(self) -> None:
        if len(self.draw_pile) < 2 * DRAW_COUNT:
            self._reshuffle()
        self.hands, self.kept, self.logbook = {}, {}, []
        for seat in (self.captain, self.lieutenant):
            count = DRAW_COUNT + (1 if seat is not None and seat == self.smuggler_for else 0)
            cards = [card for card in (self._draw_card() for _ in range(count)) if card]
            if seat is None:
                self.kept[MISSING] = cards.pop(self.rng.randrange(len(cards)))
                self.discard_pile.extend(cards)
                continue
            self.hands[seat] = cards
            self.emit(
                "drawn", f"You draw {', '.join(cards)}.", (seat,), seat=seat, cards=list(cards)
            )
        self.smuggler_for = None
        drawers = list(self.hands)
        named = " and ".join(f"{{{seat}}}" for seat in drawers)
        about: dict[str, Any] = {"seat": drawers[0]} if len(drawers) == 1 else {}
        verb = "draws" if about else "draw"
        self.emit(
            "navigation",
            f"{named} {verb} navigation cards; nobody may signal now.",
            drawers=drawers,
            **about,
        )
        self.phase = "navigation"

    def _keep(self, seat: int, action: CardAction, now: float) -> None:
        hand, card = self.hands[seat], action["card"]
        hand.remove(card)
        self.discard_pile.extend(hand)
        del self.hands[seat]
        self.kept[seat] = card
        if seat == self.redraw_for:
            self.redraw_for = None
        self.emit("kept", f"You put {card} in the logbook.", (seat,), seat=seat, card=card)
        self.emit(
            "keeps",
            f"{{{seat}}} puts a card in the logbook and discards the rest.",
            seat=seat,
            told=[seat],
        )
        if not self.hands:
            self._fill_logbook()
            self._advance()

    def _why_not_keep(self, seat: int, action: Action) -> str | None:
        wrong = self._why_not_drawing(seat)
        hand = self.hands.get(seat, [])
        if wrong is None and action.get("card") not in hand:
            return f"keep one of the cards you drew: {', '.join(hand)}"
        return wrong

    def _redraw(self, seat: int, action: BareAction, now: float) -> None:
        self.discard_pile.extend(self.hands[seat])
        fresh = [card for card in (self._draw_card() for _ in range(DRAW_COUNT)) if card]
        self.hands[seat], self.redraw_for = fresh, None
        self.emit(
            "redrawn",
            f"You discard them and draw {', '.join(fresh)}.",
            (seat,),
            seat=seat,
            cards=list(fresh),
        )
        self.emit(
            "redraw",
            f"{{{seat}}} discards their cards and draws two new ones.",
            seat=seat,
            told=[seat],
        )

    def _why_not_redraw(self, seat: int, action: Action) -> str | None:
        wrong = self._why_not_drawing(seat)
        if wrong is None and seat != self.redraw_for:
            return "only the player the Archivist chose may draw new cards"
        return wrong

    def _why_not_drawing(self, seat: int) -> str | None:
        if self.phase != "navigation" or self.interrupt is not None:
            return "nobody is drawing navigation cards now"
        if seat not in self.hands:
            return "you hold no navigation cards to choose from"
        return None

    def _fill_logbook(self) -> None:
        """The two kept cards go to the navigator in random order (or the cards choose)."""
        self.redraw_for = None  # the Archivist's offer lasts one navigation
        second = MISSING if self.lieutenant is None else self.lieutenant
        logbook = [self.kept[self.captain], self.kept[second]]
        if self.rng.random() < 0.5:
            logbook.reverse()
        self.logbook = logbook
        if self.navigator is None:
            choice = self.logbook[self.rng.randrange(len(self.logbook))]
            self.emit("cards_steer", "No navigator is left: the cards choose one at random.")
            self._reveal(choice)
            return
        self.emit(
            "logbook",
            f"The logbook holds {' and '.join(logbook)}.",
            (self.navigator,),
            cards=list(logbook),
        )
        self.phase = "steer"

    def _steer(self, seat: int, action: CardAction, now: float) -> None:
        self._reveal(action["card"])
        self._advance()

    def _why_not_steer(self, seat: int, action: Action) -> str | None:
        wrong = self._why_not_navigator(seat)
        if wrong is None and action.get("card") not in self.logbook:
            return f"steer by one of the logbook cards: {', '.join(self.logbook)}"
        return wrong

    def _jump(self, seat: int, action: BareAction, now: float) -> None:
        self.discard_pile.extend(self.logbook)
        self.logbook, self.kept = [], {}
        self.eliminated.add(seat)
        self.off_duty.discard(seat)
        self.navigator = None
        self.emit(
            "jump",
            f"{{{seat}}} jumps overboard! Both logbook cards are discarded unseen.",
            seat=seat,
        )
        if any(other not in (self.captain, self.lieutenant) for other in self.living()):
            self.emit(
                "emergency",
                f"{{{self.captain}}} must name an emergency navigator.",
                seat=self.captain,
                captain=self.captain,
            )
            self.phase = "emergency"
        else:
            self.agenda.insert(0, "navigate")
            self.phase = AUTO
        self._advance()

    def _why_not_jump(self, seat: int, action: Action) -> str | None:
        return self._why_not_navigator(seat)

    def _why_not_navigator(self, seat: int) -> str | None:
        if self.phase != "steer" or self.interrupt is not None:
            return "the navigator is not choosing now"
        if seat != self.navigator:
            return "only the navigator steers or jumps overboard"
        return None

    def _reveal(self, card: str) -> None:
        """Reveal the steered card: it joins the captain's résumé; the other is discarded."""
        rest = list(self.logbook)
        rest.remove(card)
        self.discard_pile.extend(rest)
        self.logbook, self.kept = [], {}
        self.resumes[self.captain].append(card)
        self.revealed_card = card
        self.crew = {
            "captain": self.captain,
            "lieutenant": self.lieutenant,
            "navigator": self.navigator,
        }
        self.emit(
            "reveal",
            f"The navigation card is {card}; it joins {{{self.captain}}}'s résumé.",
            captain=self.captain,
            card=card,
        )
        self.phase = AUTO

    # -- moving and acting --------------------------------------------------------------------
    def _step_move(self) -> None:
        assert self.revealed_card is not None
        start, way = self.ship, colour(self.revealed_card)
        self.ship = self.board.destination(start, way)
        self.emit(
            "sail",
            f"The ship sails {way} from {start} to {self.ship}.",
            start=start,
            way=way,
            ship=self.ship,
        )
        if is_goal(self.ship):
            winner = GOALS[self.ship]
            self._end(winner, self.ship, f"The ship reaches {self.ship}: the {winner}s win!")
            return
        if self.board.crosses_supply_line(start, self.ship):
            for seat in self.living():
                self.guns[seat] = max(self.guns[seat], STARTING_GUNS)
            self.emit(
                "supply_line",
                f"The ship crosses the supply line: everyone refills to {STARTING_GUNS}.",
            )

    def _step_map_action(self) -> None:
        printed = self.board.map_action(self.ship)
        if printed is not None:
            self._ask_pick(printed)

    def _step_card_action(self) -> None:
        assert self.revealed_card is not None
        printed = action(self.revealed_card)
        if printed in PICK_EFFECTS:
            self._ask_pick(printed)
        elif printed in CARD_EFFECTS:
            getattr(self, CARD_EFFECTS[printed])()

    def pick_targets(self) -> list[int]:
        """Whom the captain may pick for the pending map or card action."""
        return [seat for seat in self.living() if seat != self.captain]

    def _ask_pick(self, reason: str) -> None:
        if not self.pick_targets():
            self.emit("nobody_to_pick", "There is nobody else on board to pick.")
            return
        self.pick_reason, self.pick_seat, self.phase = reason, self.captain, "pick"
        self.emit(
            "pick",
            f"{{{self.captain}}} {PICK_PROMPTS[reason]}.",
            seat=self.captain,
            captain=self.captain,
            action=reason,
        )

    def _pick(self, seat: int, action: TargetAction, now: float) -> None:
        if self.interrupt is not None:  # (the Spiritualist, handing out guns)
            self._answer_give(seat, action)
            return
        target = action["target"]
        assert self.pick_reason is not None
        reason, self.pick_reason, self.pick_seat = self.pick_reason, None, None
        self.phase = AUTO
        getattr(self, PICK_EFFECTS[reason])(seat, target)
        self._advance()

    def _why_not_pick(self, seat: int, action: Action) -> str | None:
        if self.interrupt is not None:
            if self.interrupt.kind == "give":
                return self._why_not_give(seat, action)
            return "wait for the player who must answer first"
        if self.phase != "pick" or self.pick_reason is None:
            return "there is nobody to pick now"
        if seat != self.pick_seat:
            return "only the captain picks"
        return self._not_a_target(
            action,
            "the player you pick",
            self.pick_targets(),
            "pick another player who is still on board",
        )

    def _search_cabin(self, seat: int, target: int) -> None:
        # The captain sees the group only: the cult leader and a cultist both show as "cult".
        found = group(self.factions[target])
        self._learn(seat, target, found)
        self.unconvertible.add(target)
        self.emit("search", f"{{{seat}}} searches {{{target}}}'s cabin.", seat=seat, target=target)
        self.emit(
            "searched",
            f"{{{target}}} {GROUP_WORDS[found]}.",
            (seat,),
            seat=target,
            target=target,
            group=found,
        )

    def _flog(self, seat: int, target: int) -> None:
        kept = faction_card(self.factions[target])
        shown = self.rng.choice([card for card in FACTION_CARDS if card != kept])
        self.not_a[target].append(shown)
        self.unconvertible.add(target)
        self.emit("flogged", f"{{{target}}} is flogged: not a {shown}.", target=target, not_a=shown)

    def _cut_tongue(self, seat: int, target: int) -> None:
        self.tongueless.add(target)
        self.emit(
            "tongue",
            f"Off with {{{target}}}'s tongue! They may no longer speak or be captain.",
            target=target,
        )

    def _feed_kraken(self, seat: int, target: int) -> None:
        self.eliminated.add(target)
        self.off_duty.discard(target)
        self.emit("fed", f"{{{target}}} is fed to the Kraken.", seat=target, target=target)
        if self.factions[target] == CULT_LEADER:
            self._end("cult", "cult_leader_fed", "It was the cult leader: the cult wins!")

    def _visit_mermaid(self, seat: int, target: int) -> None:
        seen = self.discard_pile[-3:]
        self.rng.shuffle(seen)
        self.peeks[target].append({"source": MERMAID, "cards": list(seen)})
        self.emit(
            "mermaid",
            f"{{{target}}} visits the mermaid and sees the last discarded cards.",
            seat=target,
            target=target,
        )
        self.emit(
            "mermaid_cards",
            f"The mermaid shows you {', '.join(seen)}.",
            (target,),
            cards=list(seen),
        )

    def _lend_telescope(self, seat: int, target: int) -> None:
        self.emit(
            "telescope", f"{{{target}}} looks through the telescope.", seat=target, target=target
        )
        self._start_peek(target, TELESCOPE)

    def _telescope(self, seat: int, action: TelescopeAction, now: float) -> None:
        choice = action["choice"]
        self.peeks[seat][-1]["choice"] = choice
        if choice == "discard":
            self.discard_pile.append(self.draw_pile.pop())
            self.emit("top_card", f"{{{seat}}} discards the top card.", seat=seat, choice=choice)
        else:
            self.emit(
                "top_card", f"{{{seat}}} leaves the top card where it is.", seat=seat, choice=choice
            )
        self.interrupt = None
        self._advance()

    def _why_not_telescope(self, seat: int, action: Action) -> str | None:
        peek = self.interrupt
        if peek is None or peek.kind != "peek":
            return "you are not looking at the top card"
        if seat != peek.seat:
            return "only the player looking at the top card decides"
        if action.get("choice") not in ("keep", "discard"):
            return "say 'keep' to leave the top card or 'discard' to discard it"
        return None

    def _drunk(self) -> None:
        new = self.next_captain_by_resume()
        if new is None:
            self.emit(
                "drunk",
                f"{{{self.captain}}} is drunk, but nobody can take over.",
                seat=self.captain,
                captain=self.captain,
            )
            return
        self.emit(
            "drunk",
            f"{{{self.captain}}} is drunk: {{{new}}} becomes captain.",
            seat=self.captain,
            captain=new,
            previous=self.captain,
        )
        self.captain = new

    def _armed(self) -> None:
        navigator = self.crew["navigator"]
        if navigator is not None and navigator not in self.eliminated:
            self.guns[navigator] += 1
            self.emit("armed", f"The navigator {{{navigator}}} gains a gun.", navigator=navigator)

    def _disarmed(self) -> None:
        navigator = self.crew["navigator"]
        if navigator is not None and self.guns[navigator] > 0:
            self.guns[navigator] -= 1
            self.emit(
                "disarmed", f"The navigator {{{navigator}}} loses a gun.", navigator=navigator
            )

    def _step_off_duty(self) -> None:
        offices = OFF_DUTY_OFFICES[self.players]
        signs = {self.crew[office] for office in offices}
        self.off_duty = {seat for seat in signs if seat is not None and seat in self.living()}
        self.lieutenant = self.navigator = None
        if self.off_duty:
            holders = " and ".join(f"{{{seat}}}" for seat in sorted(self.off_duty))
            self.emit("off_duty", f"Off duty next round: {holders}.", seats=sorted(self.off_duty))
