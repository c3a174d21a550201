"""The cult uprising: revealing a ritual and the cult leader's secret conversion and gun stash."""

from __future__ import annotations

from itertools import combinations_with_replacement

from ..contract import Action
from .cards import CONVERSION, CULT_CABIN_SEARCH, GUN_STASH, UPRISING, action
from .roles import CULT_LEADER, CULTIST, GROUP_WORDS, group
from .types import StashAction, TargetAction
from .voyage import AUTO, Voyage

#: Ritual -> the method that starts it.
RITUAL_EFFECTS = {
    CONVERSION: "_begin_conversion",
    GUN_STASH: "_begin_stash",
    CULT_CABIN_SEARCH: "_cult_cabin_search",
}
STASH_GUNS = 3
#: Phases in which only the cult leader acts, with everyone else's eyes closed: views do not
#: say who is being waited for.
SECRET_PHASES = frozenset(("convert", "stash"))


class Rituals(Voyage):
    """Cult rituals, revealed by the captain at the end of a navigation with a cult uprising."""

    def _step_ritual(self) -> None:
        if self.revealed_card is None or action(self.revealed_card) != UPRISING:
            return
        if not self.rituals:
            self.emit("no_rituals", "Cult uprising, but no rituals are left.")
            return
        ritual = self.rituals.pop()
        self.rituals_used.append(ritual)
        self.emit(
            "ritual",
            f"Cult uprising: {{{self.captain}}} reveals the ritual {ritual}.",
            captain=self.captain,
            ritual=ritual,
        )
        getattr(self, RITUAL_EFFECTS[ritual])()

    def convertible(self) -> list[int]:
        """Players the cult leader may convert: on board, not cult, never searched or flogged."""
        return [
            seat
            for seat in self.living()
            if self.factions[seat] not in (CULT_LEADER, CULTIST) and seat not in self.unconvertible
        ]

    def _leader_acts(self) -> bool:
        self.emit("eyes_closed", "Everyone closes their eyes: the cult leader acts in secret.")
        return self.cult_leader() not in self.eliminated

    def _begin_conversion(self) -> None:
        if self._leader_acts() and self.convertible():
            self.phase = "convert"
        else:
            self.emit("eyes_open", "Everyone opens their eyes.")

    def _begin_stash(self) -> None:
        if self._leader_acts():
            self.phase = "stash"
        else:
            self.emit("eyes_open", "Everyone opens their eyes. No guns appear.")

    def _cult_cabin_search(self) -> None:
        leader = self.cult_leader()
        if not self._leader_acts():
            self.emit("eyes_open", "Everyone opens their eyes.")
            return
        team = sorted({seat for seat in self.crew.values() if seat is not None} - {leader})
        groups = [(seat, group(self.factions[seat])) for seat in team]  # as a cabin search
        for seat, shown in groups:
            self._learn(leader, seat, shown)
        found = ", ".join(f"{{{seat}}} {GROUP_WORDS[shown]}" for seat, shown in groups)
        self.emit(
            "cult_search",
            f"The cult cabin search: {found or 'nobody else was on the team'}.",
            (leader,),
            found=[[seat, shown] for seat, shown in groups],
        )
        self.emit("eyes_open", "Everyone opens their eyes.")

    def _convert(self, seat: int, action: TargetAction, now: float) -> None:
        target = action["target"]
        self.factions[target] = CULTIST
        self._learn(target, seat, CULT_LEADER)
        self._learn(seat, target, CULTIST)
        self.emit("convert", f"You convert {{{target}}}.", (seat,), target=target)
        self.emit(
            "converted",
            f"You are converted: {{{seat}}} is the cult leader. You now win only with the cult.",
            (target,),
            leader=seat,
        )
        self.emit("eyes_open", "Everyone opens their eyes.")
        self.phase = AUTO
        self._advance()

    def _why_not_convert(self, seat: int, action: Action) -> str | None:
        if self.phase != "convert" or self.interrupt is not None or seat != self.cult_leader():
            return "there is nobody to convert now"
        return self._not_a_target(
            action,
            "the player you convert",
            self.convertible(),
            "convert a player on board who was never searched or flogged",
        )

    def stash_options(self) -> list[list[int]]:
        """Every way to hand out the stash: 3 guns to up to 3 players on board."""
        return [list(c) for c in combinations_with_replacement(self.living(), STASH_GUNS)]

    def _why_not_stash(self, seat: int, action: Action) -> str | None:
        if self.phase != "stash" or self.interrupt is not None or seat != self.cult_leader():
            return "there is no gun stash to hand out now"
        recipients = action.get("recipients")
        if (
            not isinstance(recipients, list)
            or len(recipients) != STASH_GUNS
            or not all(isinstance(r, int) and not isinstance(r, bool) for r in recipients)
            or not set(recipients) <= set(self.living())
        ):
            return "hand out exactly 3 guns: list 3 players on board (repeats allowed)"
        return None

    def _stash(self, seat: int, action: StashAction, now: float) -> None:
        recipients = action["recipients"]
        for target in recipients:
            self.guns[target] += 1
        self.emit(
            "stash",
            f"You hand out guns to {', '.join(f'{{{r}}}' for r in sorted(recipients))}.",
            (seat,),
            recipients=sorted(recipients),
        )
        gained = sorted(set(recipients))
        shown = ", ".join(f"{{{r}}} +{recipients.count(r)}" for r in gained)
        self.emit(
            "eyes_open",
            f"Everyone opens their eyes. Guns appear: {shown}.",
            guns=[[r, recipients.count(r)] for r in gained],
        )
        self.phase = AUTO
        self._advance()
