"""What each character does: `_options_<name>` lists its argument sets, `_use_<name>` acts.

`_options_*` returns every argument map the character could be used with right now (empty when
it would have no effect); `characters.Characters` checks timing and arguments before `_use_*`.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ..contract import Action
from .cards import colour
from .characters import CHARACTERS
from .types import MutinyAction, TargetAction, Uses
from .voyage import Interrupt, Voyage

Options = list[Uses]
GUNSLINGER_GUNS = 2


def them(user: int, target: int) -> str:
    """A character's target in its sentence: `{3}`, or "themselves" when it is its user."""
    return "themselves" if target == user else f"{{{target}}}"


def theirs(user: int, target: int) -> str:
    """A target's belongings in a character's sentence: `{3}'s`, or "their own"."""
    return "their own" if target == user else f"{{{target}}}'s"


class Abilities(Voyage):
    """The 21 character abilities."""

    def _pairs(self, seats: list[int]) -> Options:
        return [{"targets": [a, b]} for a, b in combinations(seats, 2)]

    def _revealed(self, seat: int, verb: str, **fields: Any) -> None:
        name = self.characters[seat]
        title = CHARACTERS[name].title if name else "character"
        self.emit(
            "character",
            f"{{{seat}}} reveals the {title} and {verb}.",
            seat=seat,
            **fields,
            character=name,
        )

    def _mutineers_with_raise(self) -> list[int]:
        mutiny = self.mutiny
        if mutiny is None or mutiny.raised is None:
            return []
        return [seat for seat in mutiny.mutineers if mutiny.raised[seat] > 0]

    # -- any time -----------------------------------------------------------------------------
    def _options_kleptomaniac(self, seat: int) -> Options:
        return [{"target": t} for t in self.living() if t != seat and self.guns[t] > 0]

    def _use_kleptomaniac(self, seat: int, args: Uses) -> None:
        target = args["target"]
        self.guns[target] -= 1
        self.guns[seat] += 1
        self._revealed(seat, f"steals a gun from {{{target}}}", target=target)

    def _options_gunslinger(self, seat: int) -> Options:
        return [{}]

    def _use_gunslinger(self, seat: int, args: Uses) -> None:
        self.guns[seat] += GUNSLINGER_GUNS
        self._revealed(seat, "takes 2 guns from the supply")

    def _options_gunsmith(self, seat: int) -> Options:
        return [{}] if self.guns[seat] > 0 else []

    def _use_gunsmith(self, seat: int, args: Uses) -> None:
        self.guns[seat] -= 1
        self.gunsmiths.add(seat)
        self._revealed(seat, "discards a gun: from now on 1 raised gun comes back after a mutiny")

    def _options_look_out(self, seat: int) -> Options:
        return [{}] if self.draw_pile or self.discard_pile else []

    def _use_look_out(self, seat: int, args: Uses) -> None:
        self._revealed(seat, "looks at the top navigation card")
        self._start_peek(seat, "look_out")

    def _options_mentor(self, seat: int) -> Options:
        return [
            {"target": t}
            for t in self.living()
            if t != seat and self.characters[t] is not None and self.character_used[t]
        ]

    def _use_mentor(self, seat: int, args: Uses) -> None:
        target = args["target"]
        self.character_used[target] = False
        self._revealed(seat, f"turns {{{target}}}'s character face down again", target=target)

    # -- before the team is appointed ---------------------------------------------------------
    def _options_herbalist(self, seat: int) -> Options:
        return [
            {"source": source, "target": target}
            for source in sorted(self.off_duty)
            for target in self.living()
            if target not in self.off_duty
        ]

    def _use_herbalist(self, seat: int, args: Uses) -> None:
        source, target = args["source"], args["target"]
        self.off_duty.discard(source)
        self.off_duty.add(target)
        self._revealed(
            seat,
            f"moves {theirs(seat, source)} off-duty sign to {them(seat, target)}",
            source=source,
            target=target,
        )

    def _options_consultant(self, seat: int) -> Options:
        return [{}] if seat != self.captain else []

    def _use_consultant(self, seat: int, args: Uses) -> None:
        self.consultant = seat
        self._revealed(seat, "will appoint the lieutenant")

    # -- after the team is appointed ----------------------------------------------------------
    def _others_on_board(self) -> list[int]:
        return [t for t in self.living() if t != self.captain]

    def _options_minstrel(self, seat: int) -> Options:
        return self._pairs(self._others_on_board())

    def _use_minstrel(self, seat: int, args: Uses) -> None:
        a, b = args["targets"]
        self.upcoming.sit_out |= {a, b}
        self._revealed(
            seat, f"sings: {{{a}}} and {{{b}}} sit out the coming mutiny", targets=[a, b]
        )

    def _options_agitator(self, seat: int) -> Options:
        return self._pairs(self._others_on_board())

    def _use_agitator(self, seat: int, args: Uses) -> None:
        a, b = args["targets"]
        self.upcoming.must_raise |= {a, b}
        self._revealed(
            seat, f"stirs: {{{a}}} and {{{b}}} must raise a gun in the next mutiny", targets=[a, b]
        )

    def _options_chief_cook(self, seat: int) -> Options:
        return [{}] if self.next_captain_by_resume() is not None else []

    def _use_chief_cook(self, seat: int, args: Uses) -> None:
        new = self.next_captain_by_resume()
        assert new is not None
        self._revealed(seat, f"serves the captain's dinner: {{{new}}} becomes captain", captain=new)
        self.captain = new
        self._restart_round()

    def _team(self) -> list[int]:
        return [s for s in (self.captain, self.lieutenant, self.navigator) if s is not None]

    def _options_debt_collector(self, seat: int) -> Options:
        team = self._team()
        return [{"target": t} for t in team if self.guns[t] > 0] if len(team) > 1 else []

    def _use_debt_collector(self, seat: int, args: Uses) -> None:
        payer = args["target"]
        self._revealed(
            seat, f"collects: {{{payer}}} pays each other team member a gun", target=payer
        )
        for other in self._team():
            if other != payer and self.guns[payer] > 0:
                self.guns[payer] -= 1
                self.guns[other] += 1

    def _options_equalizer(self, seat: int) -> Options:
        return [{}]

    def _use_equalizer(self, seat: int, args: Uses) -> None:
        self.upcoming.equalizer = True
        self._revealed(seat, "evens things out: the next mutiny needs 1 gun, 1 gun each at most")

    # -- right after the guns are revealed ----------------------------------------------------
    def _options_troublemaker(self, seat: int) -> Options:
        mutiny = self.mutiny
        doubled = mutiny.doubled if mutiny is not None else set()
        return [{"target": t} for t in self._mutineers_with_raise() if t not in doubled]

    def _use_troublemaker(self, seat: int, args: Uses) -> None:
        assert self.mutiny is not None
        target = args["target"]
        self.mutiny.doubled.add(target)
        self._revealed(seat, f"makes {theirs(seat, target)} guns count double", target=target)

    def _options_peacemaker(self, seat: int) -> Options:
        return [{"target": t} for t in self._mutineers_with_raise()]

    def _use_peacemaker(self, seat: int, args: Uses) -> None:
        mutiny, target = self.mutiny, args["target"]
        assert mutiny is not None and mutiny.raised is not None
        self.guns[target] += mutiny.raised[target]
        mutiny.raised[target] = 0
        mutiny.cancelled.add(target)
        self._revealed(
            seat, f"hands {theirs(seat, target)} raised guns back: they do not count", target=target
        )

    def _options_master_strategist(self, seat: int) -> Options:
        return [{}] if seat in self._mutineers_with_raise() else []

    def _use_master_strategist(self, seat: int, args: Uses) -> None:
        assert self.mutiny is not None
        self.mutiny.strategists.add(seat)
        self._revealed(seat, "keeps their raised guns unless they become captain")

    def _options_rabble_rouser(self, seat: int) -> Options:
        mutiny = self.mutiny
        revealed = mutiny is not None and mutiny.raised is not None and not mutiny.halved
        return [{}] if revealed else []

    def _use_rabble_rouser(self, seat: int, args: Uses) -> None:
        assert self.mutiny is not None
        self.mutiny.halved = True
        self._revealed(seat, "rouses the crew: this mutiny needs only half the guns")

    def _options_instigator(self, seat: int) -> Options:
        mutiny = self.mutiny
        if mutiny is None or mutiny.raised is None:
            return []
        return [{"target": t} for t in mutiny.mutineers if self.guns[t] > 0]

    def _use_instigator(self, seat: int, args: Uses) -> None:
        target = args["target"]
        self._revealed(seat, f"urges {them(seat, target)} to add all their guns", target=target)
        self.interrupt = Interrupt("instigate", target, instigator=seat)

    def instigated_total(self, seat: int) -> int:
        """All of `seat`'s guns: what the Instigator's chosen player may raise in total."""
        assert self.mutiny is not None and self.mutiny.raised is not None
        return self.mutiny.raised[seat] + self.guns[seat]

    def _answer_instigator(self, seat: int, action: MutinyAction) -> None:
        total = action["guns"]
        assert self.mutiny is not None and self.mutiny.raised is not None
        self.mutiny.raised[seat], self.guns[seat] = total, 0
        self.emit(
            "instigated", f"{{{seat}}} adds all their guns: {total} raised.", seat=seat, guns=total
        )
        self.interrupt = None
        self._advance()

    def _why_not_add_guns(self, seat: int, action: Action) -> str | None:
        instigated = self.interrupt
        assert instigated is not None
        if seat != instigated.seat:
            return "wait for the player the Instigator chose"
        total = self.instigated_total(seat)
        if action.get("guns") != total or isinstance(action.get("guns"), bool):
            return f"add all your guns (raise {total} in all) or decline"
        return None

    def _refuse_instigator(self, seat: int) -> None:
        instigated = self.interrupt
        assert instigated is not None and instigated.instigator is not None
        self.character_used[instigated.instigator] = False
        self.emit(
            "instigator_refused",
            f"{{{seat}}} keeps their guns; the Instigator's card turns face down again.",
            seat=seat,
        )
        self.interrupt = None
        self._advance()

    # -- before the navigation cards are drawn ------------------------------------------------
    def _options_bosun(self, seat: int) -> Options:
        return [{}] if self.lieutenant is not None and self.navigator is not None else []

    def _use_bosun(self, seat: int, args: Uses) -> None:
        self.lieutenant, self.navigator = self.navigator, self.lieutenant
        self._revealed(seat, "swaps the lieutenant and the navigator")

    def _drawers(self) -> Options:
        return [{"target": t} for t in (self.captain, self.lieutenant) if t is not None]

    def _options_smuggler(self, seat: int) -> Options:
        return self._drawers()

    def _use_smuggler(self, seat: int, args: Uses) -> None:
        target = args["target"]
        self.smuggler_for = target
        self._revealed(seat, f"slips {them(seat, target)} a third navigation card", target=target)

    def _options_archivist(self, seat: int) -> Options:
        return self._drawers()

    def _use_archivist(self, seat: int, args: Uses) -> None:
        target = args["target"]
        self.redraw_for = target
        verb = "swaps their" if target == seat else f"lets {{{target}}} swap their"
        self._revealed(seat, f"{verb} cards for two new ones", target=target)

    # -- in a round with a yellow card --------------------------------------------------------
    def _options_spiritualist(self, seat: int) -> Options:
        card = self.revealed_card
        if card is None or colour(card) != "yellow":
            return []
        return self._pairs([t for t in self.living() if self.guns[t] > 0])

    def _use_spiritualist(self, seat: int, args: Uses) -> None:
        a, b = args["targets"]
        self._revealed(
            seat, f"calls on the spirits: {{{a}}} and {{{b}}} each give a gun", targets=[a, b]
        )
        self.interrupt = Interrupt("give", seat, givers=[a, b])

    def give_targets(self) -> list[int]:
        """Who may receive the next Spiritualist gun: anyone on board but its giver."""
        assert self.interrupt is not None
        giver = self.interrupt.givers[0]
        return [t for t in self.living() if t != giver]

    def _why_not_give(self, seat: int, action: Action) -> str | None:
        spirit = self.interrupt
        assert spirit is not None
        if seat != spirit.seat:
            return "wait for the Spiritualist to choose"
        return self._not_a_target(
            action,
            "who receives the gun",
            self.give_targets(),
            "the gun goes to another player on board",
        )

    def _answer_give(self, seat: int, action: TargetAction) -> None:
        spirit = self.interrupt
        assert spirit is not None
        target = action["target"]
        giver = spirit.givers.pop(0)
        if self.guns[giver] > 0:
            self.guns[giver] -= 1
            self.guns[target] += 1
        self.emit(
            "gun_given", f"{{{giver}}} gives a gun to {{{target}}}.", seat=giver, target=target
        )
        if not spirit.givers:
            self.interrupt = None
            self._advance()
