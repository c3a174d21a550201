"""Steps 1 and 2 of a round: appointing the team (with off-duty rules) and the mutiny."""

from __future__ import annotations

from ..contract import Action
from .roles import MUTINY_THRESHOLD
from .types import AppointAction, MutinyAction, TargetAction
from .voyage import AUTO, Mutiny, UpcomingMutiny, Voyage


class Command(Voyage):
    """Appointing lieutenant and navigator, emergency navigators, mutinies and tie-breaks."""

    # -- appointing the team ------------------------------------------------------------------
    def officer_candidates(self) -> list[int]:
        """Who may be lieutenant or navigator: on duty, unless fewer than two would remain."""
        others = [seat for seat in self.living() if seat != self.captain]
        on_duty = [seat for seat in others if seat not in self.off_duty]
        return on_duty if len(on_duty) >= 2 else others

    def _step_appoint(self) -> None:
        if not self.officer_candidates():
            self.lieutenant = self.navigator = None
            self.emit(
                "cards_appoint",
                "Nobody is left to appoint: the cards choose for the missing offices.",
            )
            return
        if self.consultant is not None and (
            self.consultant == self.captain or self.consultant in self.eliminated
        ):
            self.consultant = None
        self.phase = "appoint"

    def appointer(self) -> int:
        """Who appoints next: the Consultant names the lieutenant before the captain's navigator."""
        if self.phase == "appoint" and self.consultant is not None and self.lieutenant is None:
            return self.consultant
        return self.captain

    def appoint_options(self) -> list[AppointAction]:
        """Every `appoint` the appointer may make now."""
        if self.phase == "emergency":
            return [
                {"type": "appoint", "navigator": seat}
                for seat in self.living()
                if seat not in (self.captain, self.lieutenant)
            ]
        candidates = self.officer_candidates()
        if self.consultant is not None:
            if self.lieutenant is None:
                return [{"type": "appoint", "lieutenant": seat} for seat in candidates]
            return [
                {"type": "appoint", "navigator": seat}
                for seat in candidates
                if seat != self.lieutenant
            ]
        if len(candidates) == 1:
            (only,) = candidates
            return [
                {"type": "appoint", "lieutenant": only, "navigator": None},
                {"type": "appoint", "lieutenant": None, "navigator": only},
            ]
        return [
            {"type": "appoint", "lieutenant": lieutenant, "navigator": navigator}
            for lieutenant in candidates
            for navigator in candidates
            if lieutenant != navigator
        ]

    def _appoint(self, seat: int, action: AppointAction, now: float) -> None:
        if self.phase == "emergency":
            self.navigator = navigator = action["navigator"]
            text = f"{{{seat}}} names {{{navigator}}} emergency navigator."
            self.emit("emergency_navigator", text, seat=seat, captain=seat, navigator=navigator)
            self.agenda.insert(0, "navigate")
        elif self.consultant is not None and self.lieutenant is None:
            self.lieutenant = action["lieutenant"]
            self.emit(
                "consultant",
                f"The Consultant {{{seat}}} appoints {{{self.lieutenant}}} lieutenant.",
                seat=seat,
                lieutenant=self.lieutenant,
            )
            if any(o.get("navigator") is not None for o in self.appoint_options()):
                return  # the captain names the navigator next
            self.consultant = None
        else:
            # After a Consultant the captain names only the navigator: the lieutenant was
            # announced with the Consultant's own event, and is not the captain's choice.
            consultant, self.consultant = self.consultant, None
            self.lieutenant = action.get("lieutenant", self.lieutenant)
            self.navigator = action.get("navigator")
            text = (
                self._team_text(seat)
                if consultant is None
                else f"{{{seat}}} appoints {{{self.navigator}}} navigator."
            )
            self.emit(
                "appoint",
                text,
                seat=seat,
                captain=seat,
                lieutenant=self.lieutenant,
                navigator=self.navigator,
                consultant=consultant,
            )
        self.phase = AUTO
        self._advance()

    def _team_text(self, seat: int) -> str:
        named = [
            f"{{{who}}} {office}"
            for office, who in (("lieutenant", self.lieutenant), ("navigator", self.navigator))
            if who is not None
        ]
        return f"{{{seat}}} appoints {' and '.join(named)}."

    def _why_not_appoint(self, seat: int, action: Action) -> str | None:
        """A sentence saying why the appointment `action` is not allowed."""
        if self.interrupt is not None:
            return "wait for the player who must answer first"
        if self.phase not in ("appoint", "emergency"):
            return "nobody is being appointed now"
        if seat != self.appointer():
            return "only the captain appoints the team"
        wanted: dict[str, object] = {
            key: action.get(key) for key in ("lieutenant", "navigator") if key in action
        }
        for key, value in wanted.items():
            wrong = None if value is None else self._not_a_seat(value, f"the {key}")
            if wrong is not None:
                return wrong
        for key, value in wanted.items():
            if value == self.captain:
                return f"the captain cannot be the {key}"
            if value in self.eliminated:
                return f"{{{value}}} is no longer on board"
            if (
                self.phase == "appoint"
                and value in self.off_duty
                and value not in self.officer_candidates()
            ):
                return f"{{{value}}} is off duty this round"
        if wanted.get("lieutenant") is not None and wanted.get("lieutenant") == wanted.get(
            "navigator"
        ):
            return "the lieutenant and the navigator must be two different players"
        asked = {"type": "appoint", **wanted}
        if any(option == asked for option in self.appoint_options()):
            return None  # (nothing wrong with it)
        if self.phase == "emergency":
            return "name an emergency navigator: anyone on board but the captain and lieutenant"
        if self.consultant is not None:
            office = "lieutenant" if self.lieutenant is None else "navigator"
            return f"name only the {office} now"
        return "name a lieutenant and a navigator: two different players on duty"

    # -- mutiny -------------------------------------------------------------------------------
    def _step_mutiny(self) -> None:
        rules, self.upcoming = self.upcoming, UpcomingMutiny()
        mutineers = [
            seat for seat in self.living() if seat != self.captain and seat not in rules.sit_out
        ]
        self.mutiny = None
        if not mutineers:
            return
        base = 1 if rules.equalizer else MUTINY_THRESHOLD[self.players]
        mutiny = Mutiny(
            mutineers=mutineers,
            threshold=base,
            max_raise=1 if rules.equalizer else None,
            must_raise=rules.must_raise & set(mutineers),
        )
        empty = [seat for seat in mutineers if self.guns[seat] == 0]
        for seat in empty:
            mutiny.choices[seat] = 0  # an empty hand has nothing to hide
        self.mutiny = mutiny
        # (said, not settled in silence: everyone sees the guns, and who is not asked why)
        said = f"Mutiny? Everyone but the captain raises guns in secret ({base} needed)."
        if empty:
            said += f" {_named(empty)} {'has' if len(empty) == 1 else 'have'} no guns: none raised."
        self.emit(
            "mutiny",
            said,
            threshold=base,
            mutineers=list(mutineers),
        )
        if len(mutiny.choices) == len(mutineers):
            self._reveal_guns()
        else:
            self.phase = "mutiny"

    def gun_choices(self, seat: int) -> range:
        """How many guns `seat` may raise in the mutiny now being chosen."""
        mutiny = self.mutiny
        assert mutiny is not None
        most = self.guns[seat] if mutiny.max_raise is None else min(1, self.guns[seat])
        least = 1 if seat in mutiny.must_raise and most > 0 else 0
        return range(least, most + 1)

    def _mutiny(self, seat: int, action: MutinyAction, now: float) -> None:
        mutiny = self.mutiny
        if self.interrupt is not None:  # (the Instigator's chosen player, adding all their guns)
            self._answer_instigator(seat, action)
            return
        assert mutiny is not None
        guns = action["guns"]
        mutiny.choices[seat] = guns
        self.emit(
            "raise",
            f"You raise {guns} gun{'s' if guns != 1 else ''}.",
            (seat,),
            seat=seat,
            guns=guns,
        )
        self.emit("chosen", f"{{{seat}}} has chosen.", seat=seat)
        if len(mutiny.choices) == len(mutiny.mutineers):
            self._reveal_guns()
            self._advance()

    def _why_not_mutiny(self, seat: int, action: Action) -> str | None:
        mutiny = self.mutiny
        if self.interrupt is not None:
            if self.interrupt.kind == "instigate":
                return self._why_not_add_guns(seat, action)
            return "wait for the player who must answer first"
        if self.phase != "mutiny" or mutiny is None:
            return "there is no mutiny to raise guns for now"
        if seat not in mutiny.mutineers:
            return "you take no part in this mutiny"
        if seat in mutiny.choices:
            return "your fist is already closed: you have chosen"
        guns = action.get("guns")
        if not isinstance(guns, int) or isinstance(guns, bool):
            return "say how many guns you raise (a number)"
        allowed = self.gun_choices(seat)
        if guns not in allowed:
            return f"you may raise from {allowed.start} to {allowed.stop - 1} guns"
        return None

    def _reveal_guns(self) -> None:
        mutiny = self.mutiny
        assert mutiny is not None
        mutiny.raised = dict(mutiny.choices)
        for seat, guns in mutiny.raised.items():
            self.guns[seat] -= guns
        shown = ", ".join(f"{{{seat}}} {guns}" for seat, guns in sorted(mutiny.raised.items()))
        raised = [mutiny.raised.get(seat) for seat in range(self.players)]
        self.emit("fists", f"The fists open: {shown}.", raised=raised)
        self.phase = AUTO

    def counted_guns(self) -> dict[int, int]:
        """How many guns each mutineer's raise counts for after the reveal's characters."""
        mutiny = self.mutiny
        assert mutiny is not None and mutiny.raised is not None
        return {
            seat: 0 if seat in mutiny.cancelled else guns * (2 if seat in mutiny.doubled else 1)
            for seat, guns in mutiny.raised.items()
        }

    def mutiny_threshold(self) -> int:
        mutiny = self.mutiny
        assert mutiny is not None
        return -(-mutiny.threshold // 2) if mutiny.halved else mutiny.threshold

    def _step_resolve_mutiny(self) -> None:
        mutiny = self.mutiny
        if mutiny is None or mutiny.raised is None:
            return
        counted = self.counted_guns()
        total, needed = sum(counted.values()), self.mutiny_threshold()
        # Only a mutineer who raised a gun that counts may take command (see the docstring).
        candidates = [
            seat for seat in mutiny.mutineers if seat not in self.tongueless and counted[seat] > 0
        ]
        if total < needed or not candidates:
            for seat, guns in mutiny.raised.items():
                self.guns[seat] += guns
            why = (
                f"{total} of {needed} guns"
                if total < needed
                else "nobody who may take command raised a gun"
            )
            self.emit("mutiny_fails", f"The mutiny fails ({why}); everyone keeps their guns.")
            self.mutiny = None
            return
        best = max(counted[seat] for seat in candidates)
        mutiny.tied = [seat for seat in candidates if counted[seat] == best]
        self.emit(
            "mutiny_succeeds",
            f"The mutiny succeeds with {total} guns ({needed} needed)!",
            guns=total,
            needed=needed,
        )
        if len(mutiny.tied) == 1:
            self._finish_mutiny(mutiny.tied[0])
        else:
            tied = ", ".join(f"{{{seat}}}" for seat in mutiny.tied)
            self.emit(
                "tie",
                f"A tie between {tied}: {{{self.captain}}} removes them one at a time.",
                tied=list(mutiny.tied),
                captain=self.captain,
            )
            self.phase = "tie_break"

    def _tie_break(self, seat: int, action: TargetAction, now: float) -> None:
        mutiny = self.mutiny
        assert mutiny is not None
        target = action["target"]
        mutiny.tied.remove(target)
        text = f"{{{seat}}} removes {{{target}}} from the tie."
        self.emit("tie_removed", text, seat=seat, target=target)
        if len(mutiny.tied) == 1:
            self._finish_mutiny(mutiny.tied[0])
            self._advance()

    def _why_not_tie_break(self, seat: int, action: Action) -> str | None:
        mutiny = self.mutiny
        if self.phase != "tie_break" or mutiny is None or self.interrupt is not None:
            return "there is no tie to break now"
        if seat != self.captain:
            return "only the old captain breaks the tie"
        target = action.get("target")
        wrong = self._not_a_seat(target, "the tied player you remove")
        if wrong is None and target not in mutiny.tied:
            return f"{{{target}}} is not among the tied players"
        return wrong

    def _finish_mutiny(self, new_captain: int) -> None:
        """Discard the raised guns (minus what characters give back) and change captains."""
        mutiny = self.mutiny
        assert mutiny is not None and mutiny.raised is not None
        returned: dict[int, int] = {}
        for seat, guns in mutiny.raised.items():
            if seat in mutiny.strategists and seat != new_captain:
                back = guns
            elif seat in self.gunsmiths:
                back = min(1, guns)
            else:
                back = 0
            if back:
                self.guns[seat] += back
                returned[seat] = back
        discarded = sum(mutiny.raised.values()) - sum(returned.values())
        old, self.captain = self.captain, new_captain
        self.emit(
            "command",
            f"{{{new_captain}}} takes command from {{{old}}}; {discarded} raised guns are lost.",
            seat=new_captain,
            captain=new_captain,
            previous=old,
            returned=[returned.get(seat, 0) for seat in range(self.players)],
        )
        self.mutiny = None
        self._restart_round()


def _named(seats: list[int]) -> str:
    """`{0}`, `{0} and {3}`, `{0}, {3} and {5}`: seats as a log line names them."""
    named = [f"{{{seat}}}" for seat in seats]
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
