"""When the normal bot plays its character card, and on whom: one small rule per character.

Each rule gets the `Judge` for the view and the legal uses of the card (the engine lists only
uses that would do something now) and returns one of them, or None to keep the card. Timed
characters are asked in their window (None then declines); "any time" characters are asked
whenever the table changes, so their rules wait for a good moment.
"""

from __future__ import annotations

from collections.abc import Callable

from ...rules.kraken.types import CharacterAction, KrakenAction
from .normal import ALL_IN_GAIN, MUTINY_GAIN, Judge

Rule = Callable[[Judge, list[CharacterAction]], CharacterAction | None]


def _phase(judge: Judge) -> tuple[str, str | None]:
    return judge.view["phase"], judge.view["window"]


def _before_mutiny(judge: Judge) -> bool:
    """The team is named and the fists are about to close."""
    return _phase(judge) == ("window", "after_appoint")


def _round_settled(judge: Judge) -> bool:
    """A calm moment late enough that waiting longer is unlikely to pay."""
    view = judge.view
    return view["phase"] == "appoint" and view["round"] >= 3


def _mutiny_totals(judge: Judge) -> tuple[int, int, dict[int, int]]:
    """(guns counted, guns needed, counted per mutineer) for the revealed mutiny."""
    mutiny = judge.view["mutiny"]
    assert mutiny is not None  # (the uses listed for these characters need one)
    raised = {s: g for s, g in enumerate(mutiny["raised"] or []) if g is not None}
    counted = {
        s: 0 if s in mutiny["cancelled"] else g * (2 if s in mutiny["doubled"] else 1)
        for s, g in raised.items()
    }
    return sum(counted.values()), mutiny["threshold"], counted


# -- any time -----------------------------------------------------------------------------------


def kleptomaniac(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    if not (_before_mutiny(judge) or _round_settled(judge)):
        return None
    guns = judge.view["guns"]
    use = min(
        uses, key=lambda u: (judge.mind.ally(u["target"]) - 0.1 * guns[u["target"]], u["target"])
    )
    return use if judge.mind.ally(use["target"]) < 0.5 else None


def gunslinger(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    if _before_mutiny(judge) and judge.mutiny_want() > MUTINY_GAIN:
        return uses[0]
    return uses[0] if _round_settled(judge) else None


def gunsmith(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    view = judge.view
    if view["phase"] == "appoint" and view["round"] >= 2 and view["guns"][judge.me] >= 3:
        return uses[0]
    return None


def look_out(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    phase, window = _phase(judge)
    if phase == "window" and window in ("before_draw", "after_reveal"):
        return uses[0]
    return uses[0] if _round_settled(judge) else None


def mentor(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    best = max(uses, key=lambda u: (judge.mind.ally(u["target"]), -u["target"]))
    return best if judge.mind.ally(best["target"]) > 0.6 else None


# -- before the team is appointed ---------------------------------------------------------------


def herbalist(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    mind, view = judge.mind, judge.view
    if mind.ally(view["captain"]) < 0.5:
        return None
    best = max(uses, key=lambda u: mind.ally(u["source"]) - mind.ally(u["target"]))
    return best if mind.ally(best["source"]) - mind.ally(best["target"]) > 0.4 else None


def consultant(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    return uses[0] if judge.mind.ally(judge.view["captain"]) < 0.4 else None


# -- after the team is appointed ----------------------------------------------------------------


def minstrel(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    if judge.mutiny_want() > -0.02 or judge.mind.ally(judge.view["captain"]) < 0.6:
        return None
    guns = judge.view["guns"]

    def threat(use: CharacterAction) -> float:
        return sum((1 - judge.mind.ally(t)) * guns[t] for t in use["targets"])

    best = max(uses, key=threat)
    return best if threat(best) >= 2 else None


def agitator(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    if judge.mutiny_want() <= MUTINY_GAIN:
        return None
    guns = judge.view["guns"]
    usable = [u for u in uses if judge.me not in u["targets"]] or uses
    return max(usable, key=lambda u: sum(min(1, guns[t]) for t in u["targets"]))


def chief_cook(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    mind = judge.mind
    captain = judge.view["captain"]
    new = judge.next_captain()
    if new is None or mind.ally(captain) > 0.4:
        return None
    return uses[0] if mind.ally(new) > mind.ally(captain) + 0.2 else None


def debt_collector(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    mind = judge.mind
    worst = min(uses, key=lambda u: (mind.ally(u["target"]), u["target"]))
    return worst if mind.ally(worst["target"]) < 0.3 else None


def equalizer(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    few_guns = judge.view["guns"][judge.me] <= 1
    return uses[0] if few_guns and judge.mutiny_want() > ALL_IN_GAIN else None


# -- right after the guns are revealed ----------------------------------------------------------


def troublemaker(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    if judge.mutiny_want() <= MUTINY_GAIN:
        return None
    total, needed, counted = _mutiny_totals(judge)
    best = max(uses, key=lambda u: (judge.mind.ally(u["target"]), counted.get(u["target"], 0)))
    target = best["target"]
    doubled = counted.get(target, 0) * 2
    tops = max((g for s, g in counted.items() if s != target), default=0)
    helps = total + counted.get(target, 0) >= needed and doubled > tops
    return best if helps and judge.mind.ally(target) > 0.5 else None


def peacemaker(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    total, needed, counted = _mutiny_totals(judge)
    if total < needed or judge.mutiny_want() > 0:
        return None
    biggest = max(uses, key=lambda u: (counted.get(u["target"], 0), -judge.mind.ally(u["target"])))
    return biggest if total - counted.get(biggest["target"], 0) < needed else None


def master_strategist(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    return uses[0]


def rabble_rouser(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    total, needed, _ = _mutiny_totals(judge)
    if total >= needed or total < -(-needed // 2):
        return None
    return uses[0] if judge.mutiny_want() > MUTINY_GAIN else None


def instigator(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    total, needed, _ = _mutiny_totals(judge)
    if total >= needed or judge.mutiny_want() <= MUTINY_GAIN:
        return None
    guns = judge.view["guns"]
    fits = [u for u in uses if total + guns[u["target"]] >= needed]
    if not fits:
        return None
    best = max(fits, key=lambda u: (judge.mind.ally(u["target"]), guns[u["target"]]))
    return best if judge.mind.ally(best["target"]) > 0.5 else None


# -- before the navigation cards are drawn ------------------------------------------------------


def bosun(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    view, mind = judge.view, judge.mind
    lieutenant, navigator = view["lieutenant"], view["navigator"]
    assert lieutenant is not None and navigator is not None  # (the Bosun swaps two officers)
    return uses[0] if mind.ally(lieutenant) > mind.ally(navigator) + 0.2 else None


def smuggler(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    best = max(uses, key=lambda u: judge.mind.ally(u["target"]))
    return best if judge.mind.ally(best["target"]) > 0.55 else None


archivist = smuggler


# -- in a round with a yellow card --------------------------------------------------------------


def spiritualist(judge: Judge, uses: list[CharacterAction]) -> CharacterAction | None:
    mind = judge.mind
    best = min(uses, key=lambda u: sum(mind.ally(t) for t in u["targets"]))
    return best if sum(mind.ally(t) for t in best["targets"]) < 0.8 else None


RULES: dict[str, Rule] = {
    "kleptomaniac": kleptomaniac,
    "gunslinger": gunslinger,
    "gunsmith": gunsmith,
    "look_out": look_out,
    "mentor": mentor,
    "herbalist": herbalist,
    "consultant": consultant,
    "minstrel": minstrel,
    "agitator": agitator,
    "chief_cook": chief_cook,
    "debt_collector": debt_collector,
    "equalizer": equalizer,
    "troublemaker": troublemaker,
    "peacemaker": peacemaker,
    "master_strategist": master_strategist,
    "rabble_rouser": rabble_rouser,
    "instigator": instigator,
    "bosun": bosun,
    "smuggler": smuggler,
    "archivist": archivist,
    "spiritualist": spiritualist,
}


def character_move(judge: Judge, legal: list[KrakenAction]) -> CharacterAction | None:
    """The character use the normal bot makes now, if any."""
    uses = [a for a in legal if a["type"] == "character"]
    if not uses:
        return None
    rule = RULES.get(uses[0]["name"])
    return rule(judge, uses) if rule is not None else None
