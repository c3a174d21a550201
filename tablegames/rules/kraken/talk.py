"""Feed the Kraken's table talk: the claims a player may make, checked against their own view.

Pure data and functions of one seat's view (stdlib only); the engine never sees a claim. A claim
is a plain dict with a `kind` and a few fields, public, and never checked for truth: `check`
refuses only what is malformed or what the maker's *public* position rules out (claiming what
you drew as captain of a navigation you did not captain), so a refusal never tells anyone
anything they could not see. `offers` builds the menu a player chooses from, out of their view
alone; `natural` is the one claim the moment invites (what you just passed, what a search showed);
`sentence` is the line people read, with seats written `{0}`, `{1}` like event texts.

The vocabulary (decided; the spec only says "structured public claims"):

- `passed`: `nav`, `office` (captain or lieutenant), `drew` (2–3 colours), `passed` (a colour):
  "as captain (navigation 2) I drew red and blue and passed red";
- `handed`: `nav`, `cards` (the 2 colours the navigator was handed);
- `searched`: `target`, `group` (sailor, pirate, cult): "I searched {3}: a pirate";
- `mermaid`: `cards` (1–3 colours); `telescope`: `card` (a colour);
- `role`: `target`, `group`: "I am a sailor", "{3} is a pirate";
- `team`: `stance` (trust or suspect); `check` adds the team it is about: "I suspect this team";
- `guns`: `guns`: "I will raise 2 guns" (before a mutiny).

Cards are claimed by colour only (red, blue, yellow): the colour is what moves the ship, and a
colour is what people say at the table. `nav` counts the navigation cards revealed so far (1 for
the first), so a claim about the second navigation stays about it. Flogging has no claim of its
own: the flogged player learns nothing new and the "not a …" card is public, so what is left to
say is a `role` claim. Nobody claims when the game says nobody may talk (`silence`: the
navigation, eyes closed, no tongue, off the ship), the same rule the table applies to chat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any

from ..core import IllegalAction
from .silence import silence

COLOURS = ("red", "blue", "yellow")
GROUPS = ("sailor", "pirate", "cult")
STANCES = ("trust", "suspect")
OFFICES = ("captain", "lieutenant")
#: Claim kinds in the order a menu lists them, with the words a menu shows for each.
KINDS = {
    "passed": "what I drew and passed",
    "handed": "what I was handed as navigator",
    "searched": "what my cabin search showed",
    "mermaid": "what the mermaid showed me",
    "telescope": "what the telescope showed me",
    "role": "who is what (me or another)",
    "team": "trust or suspect this team",
    "guns": "how many guns I will raise",
}
#: Fields each kind must have (besides `kind`); `team` is completed by `check`.
FIELDS = {
    "passed": {"nav", "office", "drew", "passed"},
    "handed": {"nav", "cards"},
    "searched": {"target", "group"},
    "mermaid": {"cards"},
    "telescope": {"card"},
    "role": {"target", "group"},
    "team": {"stance"},
    "guns": {"guns"},
}
TEAM_FIELDS = ("captain", "lieutenant", "navigator")
#: Event kinds after which someone may have something new to claim: tables ask bots then.
MOMENTS = frozenset(("reveal", "searched", "mermaid_cards", "top_card", "appoint", "mutiny"))


def colour_of(card: str) -> str:
    return card.split("-", 1)[0]


@dataclass
class Voyage:
    """What one seat's log says about the navigations so far, and its own part in them."""

    navs: list[dict[str, Any]] = field(default_factory=list)  # revealed: team, colour, mine
    searches: list[tuple[int, int, str | None]] = field(default_factory=list)  # by, target, seen
    mermaid: list[tuple[int, list[str]]] = field(default_factory=list)  # (nav count, colours)
    telescope: list[tuple[int, str | None]] = field(default_factory=list)  # (nav count, colour)


def read_voyage(view: Mapping[str, Any]) -> Voyage:
    """The navigations, searches and peeks in `view`'s log, as this seat knows them."""
    me = view["seat"]
    voyage = Voyage()
    lieutenant = navigator = None
    drawn: list[str] = []
    kept: str | None = None
    handed: list[str] = []
    for event in view["log"]:
        kind = event.get("kind")
        if kind == "appoint":
            if event.get("lieutenant") is not None:
                lieutenant = event["lieutenant"]
            if event.get("navigator") is not None:
                navigator = event["navigator"]
        elif kind == "consultant":
            lieutenant = event["lieutenant"]
        elif kind == "emergency_navigator":
            navigator = event["navigator"]
        elif kind == "character" and event.get("character") == "bosun":
            lieutenant, navigator = navigator, lieutenant
        elif kind in ("drawn", "redrawn") and event.get("to") is not None:
            drawn = [colour_of(c) for c in event["cards"]]
        elif kind == "kept" and event.get("to") is not None:
            kept = colour_of(event["card"])
        elif kind == "logbook" and event.get("to") is not None:
            handed = [colour_of(c) for c in event["cards"]]
        elif kind == "jump":
            handed = []
        elif kind == "reveal":
            team = {"captain": event["captain"], "lieutenant": lieutenant, "navigator": navigator}
            mine: dict[str, Any] = {}
            if drawn and kept is not None:
                mine = {"drew": sorted(drawn), "passed": kept}
            elif handed and me == navigator:
                mine = {"cards": sorted(handed)}
            voyage.navs.append({**team, "card": colour_of(event["card"]), "mine": mine})
            drawn, kept, handed = [], None, []
        elif kind == "searched" and event.get("to") is not None:
            voyage.searches.append((me, event["target"], event["group"]))
        elif kind == "search" and event["seat"] != me:
            voyage.searches.append((event["seat"], event["target"], None))
        elif kind == "mermaid_cards" and event.get("to") is not None:
            voyage.mermaid.append((len(voyage.navs), [colour_of(c) for c in event["cards"]]))
        elif kind == "telescope" and event.get("target") == me:
            voyage.telescope.append((len(voyage.navs), None))
        elif kind == "peek" and event.get("to") is not None and voyage.telescope:
            if voyage.telescope[-1][1] is None:
                voyage.telescope[-1] = (voyage.telescope[-1][0], colour_of(event["card"]))
        elif kind in ("command", "off_duty") or (
            kind == "character" and event.get("character") == "chief_cook"
        ):
            lieutenant = navigator = None
    return voyage


# -- checking ---------------------------------------------------------------------------------
def _seat(view: Mapping[str, Any], value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(f"name {what} by seat number")
    if not 0 <= value < view["players"]:
        raise IllegalAction(f"there is no seat {value}")
    return value


def _one_of(value: object, choices: Iterable[str], what: str) -> str:
    options = tuple(choices)
    if value not in options:
        raise IllegalAction(f"{what} must be one of {', '.join(options)}")
    return str(value)


def _colours(value: object, low: int, high: int, what: str) -> list[str]:
    if not isinstance(value, list) or not low <= len(value) <= high:
        count = f"{low}" if low == high else f"{low} to {high}"
        raise IllegalAction(f"{what} must be a list of {count} colours")
    return sorted(_one_of(c, COLOURS, "a card's colour") for c in value)


def can_claim(view: Mapping[str, Any], seat: int | None = None) -> str | None:
    """Why the seat of `view` may not claim now (None: it may). Public facts only."""
    me = view["seat"] if seat is None else seat
    if me is None:
        return "spectators cannot make claims"
    if view.get("over"):
        return "the game is over"
    if "silence" in view and me == view["seat"]:
        told: str | None = view["silence"]  # (the seat's own view says why it may not)
        return told
    return silence(me, view["phase"], False, view["eliminated"], view["tongueless"])


def check(view: Mapping[str, Any], claim: object) -> dict[str, Any]:
    """The claim as it is recorded (fields in order, the team filled in), or IllegalAction.

    Only `view`'s public facts decide: where the maker sat, what happened openly. Whether the
    claim is true is never looked at, so a refusal reveals nothing.
    """
    why = can_claim(view)
    if why is not None:
        raise IllegalAction(why)
    if not isinstance(claim, dict):
        raise IllegalAction("a claim must be a map with a kind")
    kind = claim.get("kind")
    if kind not in FIELDS:
        raise IllegalAction(f"a claim's kind must be one of {', '.join(KINDS)}")
    given = set(claim) - {"kind"}
    if kind == "team":
        given -= set(TEAM_FIELDS)
    if given != FIELDS[kind]:
        raise IllegalAction(f"a {kind} claim has the fields {', '.join(sorted(FIELDS[kind]))}")
    me = view["seat"]
    voyage = read_voyage(view)
    out: dict[str, Any] = {"kind": kind}
    if kind in ("passed", "handed"):
        nav = claim["nav"]
        if not isinstance(nav, int) or isinstance(nav, bool) or not 1 <= nav <= len(voyage.navs):
            raise IllegalAction("name a navigation card revealed so far (1 is the first)")
        team = voyage.navs[nav - 1]
        out["nav"] = nav
        if kind == "passed":
            office = _one_of(claim["office"], OFFICES, "the office")
            if team[office] != me:
                raise IllegalAction(f"you were not the {office} of navigation {nav}")
            drew = _colours(claim["drew"], 2, 3, "what you drew")
            passed = _one_of(claim["passed"], drew, "the card you passed")
            out.update(office=office, drew=drew, passed=passed)
        else:
            if team["navigator"] != me:
                raise IllegalAction(f"you were not the navigator of navigation {nav}")
            out["cards"] = _colours(claim["cards"], 2, 2, "what you were handed")
    elif kind == "searched":
        target = _seat(view, claim["target"], "the player you searched")
        if not any(by == me and t == target for by, t, _ in voyage.searches):
            raise IllegalAction("you have not searched that cabin")
        out.update(target=target, group=_one_of(claim["group"], GROUPS, "the group"))
    elif kind == "mermaid":
        if not voyage.mermaid:
            raise IllegalAction("the mermaid has not shown you anything")
        out["cards"] = _colours(claim["cards"], 1, 3, "what the mermaid showed")
    elif kind == "telescope":
        if not voyage.telescope:
            raise IllegalAction("nobody has handed you the telescope")
        out["card"] = _one_of(claim["card"], COLOURS, "the card's colour")
    elif kind == "role":
        out["target"] = _seat(view, claim["target"], "whom the claim is about")
        out["group"] = _one_of(claim["group"], GROUPS, "the group")
    elif kind == "team":
        if view.get("navigator") is None and view.get("lieutenant") is None:
            raise IllegalAction("no team is appointed now")
        out["stance"] = _one_of(claim["stance"], STANCES, "the stance")
        out.update({office: view.get(office) for office in TEAM_FIELDS})
    elif kind == "guns":
        guns = claim["guns"]
        if not isinstance(guns, int) or isinstance(guns, bool) or not 0 <= guns <= 12:
            raise IllegalAction("say a number of guns from 0 to 12")
        out["guns"] = guns
    return out


# -- sentences --------------------------------------------------------------------------------
def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def sentence(seat: int, claim: dict[str, Any]) -> str:
    """What people read: `{seat} claims: "…"`, seats written `{n}` for each screen's names."""
    return f'{{{seat}}} claims: "{words(seat, claim)}"'


def words(seat: int, claim: dict[str, Any]) -> str:
    """The words of `seat`'s claim, in the first person (seats written `{n}`)."""
    kind = claim["kind"]
    if kind == "passed":
        said = (
            f"as {claim['office']} (navigation {claim['nav']}) I drew {_and(claim['drew'])}"
            f" and passed {claim['passed']}"
        )
    elif kind == "handed":
        said = f"as navigator (navigation {claim['nav']}) I was handed {_and(claim['cards'])}"
    elif kind == "searched":
        article = "the " if claim["group"] == "cult" else "a "
        said = f"I searched {{{claim['target']}}}: {article}{claim['group']}"
    elif kind == "mermaid":
        said = f"the mermaid showed me {_and(claim['cards'])}"
    elif kind == "telescope":
        said = f"through the telescope I saw {claim['card']}"
    elif kind == "role":
        group = "in the cult" if claim["group"] == "cult" else f"a {claim['group']}"
        who = "I am" if claim["target"] == seat else f"{{{claim['target']}}} is"
        said = f"{who} {group}"
    elif kind == "team":
        team = [claim[o] for o in TEAM_FIELDS if claim.get(o) is not None]
        named = ", ".join(f"{{{s}}}" for s in team)
        said = f"I {claim['stance']} this team ({named})"
    else:
        guns = claim["guns"]
        said = f"I will raise {guns} gun{'s' if guns != 1 else ''}"
    return said


# -- what a player is offered -----------------------------------------------------------------
def truth(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The true claims this seat could make about what it saw itself (newest first)."""
    me = view["seat"]
    voyage = read_voyage(view)
    found: list[dict[str, Any]] = []
    for number, nav in enumerate(voyage.navs, start=1):
        mine = nav["mine"]
        if "drew" in mine:
            office = "captain" if nav["captain"] == me else "lieutenant"
            if nav[office] == me:
                found.append({"kind": "passed", "nav": number, "office": office, **mine})
        elif "cards" in mine:
            found.append({"kind": "handed", "nav": number, **mine})
    for by, target, seen in voyage.searches:
        if by == me and seen is not None:
            found.append({"kind": "searched", "target": target, "group": seen})
    for _, cards in voyage.mermaid:
        found.append({"kind": "mermaid", "cards": sorted(cards)})
    for _, card in voyage.telescope:
        if card is not None:
            found.append({"kind": "telescope", "card": card})
    found.reverse()
    return found


def natural(view: Mapping[str, Any], said: Iterable[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """The claim this moment invites, true, if this seat has not made one like it: what it
    passed or was handed in the last navigation, what its search, the mermaid or the telescope
    showed it. None if there is nothing new to say."""
    if can_claim(view) is not None:
        return None
    done = {topic(claim) for claim in said}
    for claim in truth(view):
        if topic(claim) not in done:
            return claim
    return None


def topic(claim: dict[str, Any]) -> tuple[Any, ...]:
    """What a claim is about, so the same moment is not offered twice."""
    kind = claim["kind"]
    if kind in ("passed", "handed"):
        return ("nav", claim["nav"])
    if kind == "searched":
        return (kind, claim["target"])
    return (kind, claim.get("target"), claim.get("stance"))


def offers(view: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Every claim this seat may make now, by kind (the menu), true ones first where it knows
    the truth. Built from `view` alone: what the seat saw or may invent."""
    if can_claim(view) is not None:
        return {}
    me, players = view["seat"], view["players"]
    voyage = read_voyage(view)
    known = truth(view)
    menu: dict[str, list[dict[str, Any]]] = {}

    def add(claim: dict[str, Any]) -> None:
        entries = menu.setdefault(claim["kind"], [])
        if claim not in entries:
            entries.append(claim)

    for claim in known:
        add(claim)
    pairs = [sorted(p) for p in combinations_with_replacement(COLOURS, 2)]
    for number, nav in reversed(list(enumerate(voyage.navs, start=1))):
        for office in OFFICES:
            if nav[office] == me:
                for drew in pairs:
                    for passed in dict.fromkeys(drew):
                        add(
                            {
                                "kind": "passed",
                                "nav": number,
                                "office": office,
                                "drew": drew,
                                "passed": passed,
                            }
                        )
        if nav["navigator"] == me:
            for cards in pairs:
                add({"kind": "handed", "nav": number, "cards": cards})
    for by, target, _ in voyage.searches:
        if by == me:
            for group in GROUPS:
                add({"kind": "searched", "target": target, "group": group})
    if voyage.mermaid:
        for triple in combinations_with_replacement(COLOURS, 3):
            add({"kind": "mermaid", "cards": sorted(triple)})
    if voyage.telescope:
        for colour in COLOURS:
            add({"kind": "telescope", "card": colour})
    living = [s for s in range(players) if s not in view["eliminated"]]
    for target in [me] + [s for s in living if s != me]:
        for group in GROUPS:
            add({"kind": "role", "target": target, "group": group})
    if view.get("navigator") is not None or view.get("lieutenant") is not None:
        for stance in STANCES:
            add(check(view, {"kind": "team", "stance": stance}))
    for guns in range(int(view["guns"][me]) + 1):
        add({"kind": "guns", "guns": guns})
    return {kind: menu[kind] for kind in KINDS if kind in menu}
