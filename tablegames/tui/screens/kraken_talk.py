"""Talking at the Feed the Kraken table: the claim menu (`t`), the one-key invitation after a
navigation, a map action or before a mutiny, and claims in the log and beside each player.

Everything offered is built from the active seat's view alone (`rules/kraken/talk.py`): what
that player drew, passed, was handed or saw, and what anyone may say of anyone. In hot-seat play
only the seat holding the keyboard claims, while it holds it.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from typing import Any

from ...rules.contract import Said
from ...rules.kraken import talk as vocabulary
from ...rules.kraken.types import KrakenView
from .dialogs import Option
from .kraken_choices import OPTION_KEYS

#: What the status line invites a player to claim, by the kind of the moment's true claim.
INVITES = {
    "passed": "Claim what you drew and passed",
    "handed": "Claim what you were handed",
    "searched": "Claim what your search showed",
    "mermaid": "Claim what the mermaid showed",
    "telescope": "Claim what the telescope showed",
    "guns": "Say how many guns you will raise",
}
TALK_KEY = "t"
INVITED = "invited"  # the menu's value for the moment's own claim
#: The claim menu's keys: each kind of claim keeps its key all game (a claim made, or one
#: that cannot be made now, leaves a gap rather than moving the others); `s` says the
#: moment's own claim.
KIND_KEYS = {kind: str(number) for number, kind in enumerate(vocabulary.KINDS, start=1)}
SAY_KEY = "s"


def said_words(seat: int, claim: dict[str, Any], names: Sequence[str]) -> str:
    """A claim's words with names for seats."""
    text = vocabulary.words(seat, claim)
    with suppress(IndexError, KeyError, ValueError):
        text = text.format(*names)
    return text


def menu_words(seat: int, claim: dict[str, Any], names: Sequence[str]) -> str:
    """A claim as a menu lists it: short enough for one line (what was passed comes early)."""
    kind = claim["kind"]
    if kind == "passed":
        drew = " and ".join(claim["drew"])
        return f"passed {claim['passed']}, of {drew} (navigation {claim['nav']})"
    if kind == "handed":
        return f"handed {' and '.join(claim['cards'])} (navigation {claim['nav']})"
    return f'"{said_words(seat, claim, names)}"'


def own_claims(view: KrakenView) -> list[dict[str, Any]]:
    me = view["seat"]
    return [said["claim"] for said in view.get("talk", []) if said["seat"] == me]


def invitation(view: KrakenView) -> dict[str, Any] | None:
    """The claim this moment invites from the seat of `view` (None: nothing new to say).

    After a navigation, a search, the mermaid or the telescope: what it saw, truly (the player
    may change it in the menu). Before a mutiny (not the captain): how many guns it will raise.
    """
    if vocabulary.can_claim(view) is not None:
        return None
    mine = own_claims(view)
    claim = vocabulary.natural(view, mine)
    if claim is not None:
        return claim
    mutiny = view["mutiny"]
    if view["phase"] == "mutiny" and mutiny and view["seat"] in mutiny["mutineers"]:
        public = [event for event in view["log"] if event["to"] is None]
        called = max((n for n, e in enumerate(public) if e["kind"] == "mutiny"), default=0)
        said = any(
            record["seat"] == view["seat"]
            and record["claim"]["kind"] == "guns"
            and record["line"] > called
            for record in view.get("talk", [])
        )
        if not said:
            return {"kind": "guns", "guns": 0}
    return None


def invitation_text(view: KrakenView, behind_a_dialog: bool = False) -> str:
    """`Claim what you drew and passed: t`, or "" when the moment invites nothing.

    Behind an open question the key works too (the question waits), and the line says so in
    the room the question's own hint leaves: `Answer above, or t: claim what you drew and
    passed`.
    """
    claim = invitation(view)
    if claim is None:
        return ""
    invite = INVITES[claim["kind"]]
    if behind_a_dialog:
        return f"Answer above, or {TALK_KEY}: {invite[0].lower()}{invite[1:]}"
    return f"{invite}: {TALK_KEY}"


def why_silent(view: KrakenView) -> str:
    """Why the seat of `view` cannot make a claim now, as the status line says it."""
    why = vocabulary.can_claim(view)
    return f"You cannot make claims now: {why}." if why else "You cannot make claims now."


def kind_options(view: KrakenView, names: Sequence[str]) -> list[Option[str]]:
    """The claim menu's first page: the moment's own claim first (`s`), then each kind of claim
    by its number, in order (before a mutiny the moment's claim is a kind: how many guns)."""
    options: list[Option[str]] = []
    me, invited = view["seat"], invitation(view)
    if me is None:  # (a spectator says nothing)
        return options
    kinds = list(vocabulary.offers(view))
    if invited is not None and invited["kind"] != "guns":
        words = menu_words(me, invited, names)
        options.append(Option(SAY_KEY, f"Say: {words}", INVITED))
    for kind in sorted(kinds, key=lambda kind: int(KIND_KEYS[kind])):
        options.append(Option(KIND_KEYS[kind], vocabulary.KINDS[kind], kind))
    return options


def target_options(view: KrakenView, names: Sequence[str]) -> list[Option[int]]:
    """Whom a "who is what" claim is about: yourself first, then everyone still aboard."""
    me = view["seat"]
    if me is None:  # (a spectator says nothing)
        return []
    targets = [me] + [
        seat for seat in range(view["players"]) if seat != me and seat not in view["eliminated"]
    ]
    return [
        Option(OPTION_KEYS[n], "me" if seat == me else names[seat], seat)
        for n, seat in enumerate(targets[: len(OPTION_KEYS)])
    ]


def role_options(
    view: KrakenView, target: int, names: Sequence[str]
) -> list[Option[dict[str, Any]]]:
    """What to say `target` is: a sailor, a pirate, in the cult; what this seat knows to be
    true first (its own group, or one it knows of another: a search, its mates)."""
    me, groups = view["seat"], list(vocabulary.GROUPS)
    if me is None:  # (a spectator says nothing)
        return []
    true = known_group(view, target)
    if true in groups:
        groups.insert(0, groups.pop(groups.index(true)))
    claims = [{"kind": "role", "target": target, "group": g} for g in groups]
    return [
        Option(OPTION_KEYS[n], f'"{said_words(me, claim, names)}"', claim)
        for n, claim in enumerate(claims)
    ]


def known_group(view: KrakenView, target: int) -> str | None:
    """The group (sailor, pirate, cult) the seat of `view` knows `target` to be in, if any."""
    faction = view["faction"] if target == view["seat"] else view["known"].get(str(target))
    if faction is None:
        return None
    return "cult" if str(faction).startswith("cult") else str(faction)


def claim_options(
    view: KrakenView, kind: str, names: Sequence[str]
) -> list[Option[dict[str, Any]]]:
    """The claims of `kind` the seat may make, the true ones it knows first (up to the keys)."""
    claims = vocabulary.offers(view).get(kind, [])[: len(OPTION_KEYS)]
    me = view["seat"]
    if me is None:  # (a spectator says nothing)
        return []
    return [
        # Guns by their number, as when raising them in a mutiny ([0] none, [2] two).
        Option(str(claim["guns"]) if kind == "guns" and claim["guns"] < 10 else OPTION_KEYS[n],
               menu_words(me, claim, names), claim)
        for n, claim in enumerate(claims)
    ]  # fmt: skip


def talk_events(talk: Sequence[Said]) -> list[dict[str, Any]]:
    """Talk records as log lines (kind `claim`, public)."""
    return [
        {"kind": "claim", "text": said["text"], "to": None, "seat": said["seat"]} for said in talk
    ]
