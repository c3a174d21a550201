"""Turning a seat's legal Feed the Kraken actions into a short series of questions.

Every decision the engine offers (appointing, mutiny guns, keeping and steering cards, jumping,
picks, peeks, rituals, characters with their arguments) arrives as a list of legal actions.
`Chooser.ask` splits that list one question at a time: first what kind of move (when there are
several), then each argument that differs (a list of players, such as a pair of targets or the
gun stash's three recipients, one player at a time), until a single action is left. So every
action the engine lists is reachable, with no screen code per action type.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from string import ascii_lowercase
from typing import Any

from ...rules import Action
from ...rules.kraken.types import KrakenView
from ...words import plural
from .kraken_view import (
    FACTION_WORDS,
    WINDOW_WORDS,
    card_course,
    card_words,
    character_effect,
    character_title,
)

#: The order in which an action's arguments are asked for.
ARGUMENTS = ("lieutenant", "navigator", "source", "target", "targets", "recipients", "card",
             "guns", "choice")  # fmt: skip
LIST_ARGUMENTS = frozenset(("targets", "recipients"))
OPTION_KEYS = "123456789" + "0" + ascii_lowercase

PICK_QUESTIONS = {
    "cabin_search": "Cabin search: whose group do you secretly see (sailor, pirate or cult)?",
    "flogging": "Flogging: who is flogged? One faction they are not is shown to all.",
    "off_with_the_tongue": "Off with the tongue: who may no longer speak or be captain?",
    "feed_the_kraken": "Feed the Kraken: who goes overboard? (the cult wins if it is its leader)",
    "mermaid": "The mermaid: who secretly sees the last discarded cards?",
    "telescope": "The telescope: who secretly sees the top card of the draw pile?",
}
#: Prompts whose question is always the same (the others are worded from the view: `title`).
PROMPT_QUESTIONS = {
    "steer": "You are the navigator: steer by one logbook card (the other is discarded)",
    "instigate": "The Instigator urges you to add all your guns to the mutiny",
    "convert": "Cult ritual (eyes closed): convert a player to the cult",
    "stash": "Cult ritual (eyes closed): hand out 3 guns (yourself included, repeats allowed)",
    "tie_break": "A tie for captain: remove one tied player (the last one left takes command)",
    "appoint": "Appoint your team",
    "emergency": "Appoint your team",
}
#: Actions whose option always reads the same (the others are worded from the action: `describe`).
ACTION_WORDS = {
    "jump": "Jump overboard: both cards are discarded and you leave the game",
    "redraw": "Discard both and draw 2 new cards (Archivist)",
}

#: Moves that cannot be taken back, with the question asked once more before them.
ASK_AGAIN = {
    "jump": "Jump overboard? Both cards are discarded and you leave the game for good.",
}
#: Arguments whose values are seats: each player keeps one key through a whole decision.
SEAT_ARGUMENTS = frozenset(("lieutenant", "navigator", "source", "target"))


@dataclass
class Pending:
    """A legal action still possible, with the players of its list arguments not yet named."""

    action: Action
    left: dict[str, list[Any]] = field(default_factory=dict)
    sure: bool = False  # the player said yes once more (a move in ASK_AGAIN)


@dataclass
class Question:
    """One question: a title and its options, each leading to fewer pending actions."""

    title: str
    options: list[tuple[str, str, list[Pending]]]  # (key, label, what is left)


def family(action: Action) -> tuple[str, str]:
    return (str(action["type"]), str(action.get("name", "")))


def start(legal: Sequence[Action]) -> list[Pending]:
    """The pending actions for a fresh decision (list arguments still to name)."""
    return [
        Pending(action, {key: list(action[key]) for key in LIST_ARGUMENTS if key in action})
        for action in legal
    ]


class Chooser:
    """Words for the questions about one seat's legal actions in one view."""

    def __init__(self, view: KrakenView, names: Sequence[str], ascii: bool = False) -> None:
        seat = view["seat"]
        if seat is None:
            raise ValueError("a decision is asked from a seat's view, not a spectator's")
        self.view, self.names, self.ascii = view, list(names), ascii
        self.me = seat
        self.first: list[Pending] = []  # the whole decision, to go back to
        self.seat_keys: dict[Any, str] = {}  # each player's key in this decision
        #: A decision the table asked (not one the player's own key opened): when it leaves no
        #: choice, it is still shown and answered, never taken unseen.
        self.shows_no_choice = False

    def no_choice(self, only: Action) -> Question:
        """The decision the table asked, when it leaves one move: shown, with why, to answer."""
        private = self.view["private"]
        if only["type"] == "mutiny" and not self.view["guns"][self.me]:
            why = "You hold no guns: you raise none."
        elif only["type"] in ("keep", "steer") and len(private.get("drawn") or ()) > 1:
            why = "Your cards are alike: whichever you take, it is this one."
        elif only["type"] == "steer":
            why = "The logbook cards are alike: whichever you take, it is this one."
        else:
            why = "This is the only move you have."
        return Question(
            f"{self.title()}\nNo choice here: {why}",
            _keyed([(self.describe(only), [Pending(only, sure=True)])]),
        )

    def ask(self, pending: list[Pending]) -> Question | Action:
        """The next question about `pending`, or the one action they all come down to."""
        whole = not self.first
        self.first = self.first or pending
        distinct = _unique([p.action for p in pending])
        if len(distinct) == 1:
            only: Action = distinct[0]
            if only["type"] in ASK_AGAIN and not any(p.sure for p in pending):
                return self._once_more(only)
            if whole and self.shows_no_choice:
                return self.no_choice(only)
            return only
        families: dict[tuple[str, str], list[Pending]] = {}
        for item in pending:
            families.setdefault(family(item.action), []).append(item)
        if len(families) > 1:
            return self._kinds(families)
        ((kind, items),) = families.items()
        return self._argument(kind, items)

    def _once_more(self, action: Action) -> Question:
        """Yes or no to a move that cannot be taken back; no goes back to the whole decision."""
        options = [
            ("y", f"Yes: {self.describe(action)}", [Pending(action, sure=True)]),
            ("n", "No: back to the decision", self.first),
        ]
        return Question(ASK_AGAIN[action["type"]], options)

    def _seat_keyed(
        self, options: list[tuple[Any, str, list[Pending]]]
    ) -> list[tuple[str, str, list[Pending]]]:
        """Options naming players, keyed so that a player keeps their key from one question of
        this decision to the next (the navigator after the lieutenant): numbers never shift."""
        keyed = []
        for seat, label, pending in options:
            if seat not in self.seat_keys:
                used = set(self.seat_keys.values())
                self.seat_keys[seat] = next((key for key in OPTION_KEYS if key not in used), "")
            keyed.append((self.seat_keys[seat], label, pending))
        return keyed

    # -- which kind of move ---------------------------------------------------------------------
    def _kinds(self, families: dict[tuple[str, str], list[Pending]]) -> Question:
        options: list[tuple[str, list[Pending]]] = []
        for kind, items in families.items():
            actions = _unique([p.action for p in items])
            varying = _varying(actions)
            if len(actions) == 1 or (len(varying) == 1 and varying[0] not in LIST_ARGUMENTS):
                for action in actions:  # one line per action: "Keep red drunk (...)"
                    options.append(
                        (self.describe(action), [p for p in items if p.action == action])
                    )
            else:
                options.append((self.kind_label(kind), items))
        return Question(self.title(), _keyed(options))

    # -- one argument ---------------------------------------------------------------------------
    def _argument(self, kind: tuple[str, str], items: list[Pending]) -> Question | Action:
        actions = _unique([p.action for p in items])
        for key in ARGUMENTS:
            if key in LIST_ARGUMENTS and any(p.left.get(key) for p in items):
                return self._list_argument(kind, key, items)
            values = _unique([p.action.get(key) for p in items])
            if len(values) > 1:
                title = self.argument_title(kind, key, items)
                options = [
                    (
                        value,
                        self.value_label(key, value),
                        [p for p in items if p.action.get(key) == value],
                    )
                    for value in values
                ]
                if key in SEAT_ARGUMENTS:
                    return Question(title, self._seat_keyed(options))
                return Question(title, _keyed([(label, left) for _, label, left in options]))
        first: Action = actions[0]
        return first

    def _list_argument(self, kind: tuple[str, str], key: str, items: list[Pending]) -> Question:
        chosen = {p.action[key].__len__() - len(p.left[key]) for p in items}
        values = sorted({v for p in items for v in p.left.get(key, [])})
        options = []
        for value in values:
            narrowed = []
            for item in items:
                if value in item.left.get(key, []):
                    left = dict(item.left)
                    rest = list(left[key])
                    rest.remove(value)
                    left[key] = rest
                    narrowed.append(Pending(item.action, left))
            options.append((value, self.value_label("target", value), narrowed))
        number = min(chosen) + 1
        return Question(self.list_title(kind, key, number), self._seat_keyed(options))

    # -- words ----------------------------------------------------------------------------------
    def name(self, seat: int) -> str:
        return "yourself" if seat == self.me else self.names[seat]

    def seat_label(self, seat: int | None) -> str:
        if seat is None:
            return "nobody (the cards stand in)"
        view = self.view
        guns = view["guns"][seat]
        resume = "resume" if self.ascii else "résumé"
        notes = [plural(guns, "gun"), f"{resume} {len(view['resumes'][seat])}"]
        mutiny = view["mutiny"]
        raised = mutiny["raised"] if mutiny else None
        if raised is not None and raised[seat] is not None:
            notes.insert(0, f"raised {raised[seat]}")
        if seat in view["off_duty"]:
            notes.append("off duty")
        known = view["known"].get(str(seat))
        if known:
            notes.append(f"you know: {FACTION_WORDS[known]}")
        return f"{self.name(seat)} ({', '.join(notes)})"

    def card_label(self, card: str) -> str:
        return f"{card_words(card)}: {card_course(card, self.view, self.ascii)}"

    def value_label(self, key: str, value: Any) -> str:
        if key in ("lieutenant", "navigator", "source", "target"):
            return self.seat_label(value)
        if key == "card":
            return self.card_label(value)
        if key == "guns":
            return f"raise {plural(value, 'gun')}"
        if key == "choice":
            return "leave it on top" if value == "keep" else "discard it"
        return str(value)

    def describe(self, action: Action) -> str:
        """One line for a whole action, as an option."""
        kind = action["type"]
        if kind in ACTION_WORDS:
            return ACTION_WORDS[kind]
        if kind == "keep":
            return f"Keep {self.card_label(action['card'])}"
        if kind == "steer":
            return f"Steer by {self.card_label(action['card'])}"
        if kind == "decline":
            if self.view["phase"] == "instigate":
                return "Decline: keep your guns"
            return "Keep your character for later"
        if kind == "mutiny":
            return self.value_label("guns", action["guns"]).capitalize()
        if kind == "telescope":
            return self.value_label("choice", action["choice"]).capitalize()
        if kind == "character":
            args = {k: v for k, v in action.items() if k not in ("type", "name")}
            title = f"Use your {character_title(action['name'])}"
            if not args:
                return title
            words = ", ".join(self._argument_words(k, v) for k, v in args.items())
            return f"{title}: {words}"
        rest = ", ".join(self._argument_words(k, v) for k, v in action.items() if k != "type")
        return f"{kind.replace('_', ' ').capitalize()} {rest}".strip()

    def _argument_words(self, key: str, value: Any) -> str:
        if isinstance(value, list):
            return " and ".join(self.name(v) for v in value)
        if key == "target":
            return self.seat_label(value)
        if key in ("lieutenant", "navigator", "source"):
            return f"{key} {self.name(value)}"
        return str(value)

    def kind_label(self, kind: tuple[str, str]) -> str:
        action_type, name = kind
        if action_type == "character":
            return f"Use your {character_title(name)}..."
        return {
            "appoint": "Appoint...",
            "mutiny": "Raise guns...",
            "keep": "Keep a card...",
            "steer": "Steer by a card...",
            "pick": "Pick a player...",
            "stash": "Hand out the gun stash...",
            "convert": "Convert a player...",
            "tie_break": "Remove a tied player...",
        }.get(action_type, action_type.replace("_", " ").capitalize() + "...")

    def title(self) -> str:
        """The question for the whole decision, from the seat's prompt."""
        view = self.view
        private = view["private"]
        prompt = private.get("prompt")
        captain = self.names[view["captain"]]
        guns = view["guns"][self.me]
        if prompt == "window":
            character = private.get("character") or ""
            moment = WINDOW_WORDS.get(view["window"] or "", "")
            return f"A moment for characters {moment}. Your {character_effect(character)}"
        if prompt == "keep":
            drawn = ", ".join(card_words(c) for c in private.get("drawn", []))
            return f"You drew {drawn}. Keep one for the logbook; the rest is discarded."
        if prompt == "mutiny":
            mutiny = view["mutiny"]
            needed = mutiny["threshold"] if mutiny else "?"
            offices = (("lieutenant", view["lieutenant"]), ("navigator", view["navigator"]))
            team = [f"{office} {self.name(seat)}" for office, seat in offices if seat is not None]
            named = f" ({', '.join(team)})" if team else ""
            return (
                f"Mutiny against captain {captain}{named}? Raise guns in secret: you hold "
                f"{guns}, {needed} needed in all; raised guns are lost if it succeeds, and "
                "whoever raised the most becomes captain"
            )
        if prompt == "peek":
            peek = private.get("peek")
            shown = card_words(peek) if peek else "?"
            return f"The top card of the draw pile is {shown}: leave it or discard it?"
        if prompt == "pick":
            return PICK_QUESTIONS.get(view["pick"] or "", "Pick a player")
        if prompt == "give":
            giver = private.get("giver")
            gun = "the gun" if giver is None else f"{self.names[giver]}'s gun"
            return f"The Spiritualist: who receives {gun}?"
        return PROMPT_QUESTIONS.get(prompt or "", "Your move")

    def argument_title(self, kind: tuple[str, str], key: str, items: list[Pending]) -> str:
        action_type, name = kind
        if action_type == "appoint":
            if self.view["phase"] == "emergency":
                return "Name an emergency navigator (off duty allowed)"
            if key == "lieutenant":
                return "Appoint your lieutenant (draws 2 after you, keeps 1)"
            return "Appoint your navigator (steers by 1 of the 2 kept cards)"
        if action_type == "character":
            card = character_effect(name)
            if key == "source":
                return f"{card}: whose off-duty sign moves?"
            if key == "target" and name == "herbalist":
                return f"{card}: who gets the off-duty sign?"
            return f"{card}: on whom?"
        if action_type in ("keep", "steer", "mutiny", "pick", "telescope"):
            return self.title()
        return self.title()

    def list_title(self, kind: tuple[str, str], key: str, number: int) -> str:
        action_type, name = kind
        if key == "recipients":
            return f"Gun stash: gun {number} of 3 goes to whom?"
        card = character_effect(name) if action_type == "character" else "Choose"
        return f"{card}. Player {number} of 2?"


def _unique(values: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    for value in values:
        if value not in out:
            out.append(value)
    return out


def _varying(actions: Sequence[Action]) -> list[str]:
    keys = {k for a in actions for k in a} - {"type", "name"}
    return [k for k in ARGUMENTS if k in keys and len(_unique([a.get(k) for a in actions])) > 1]


def _keyed(options: list[tuple[str, list[Pending]]]) -> list[tuple[str, str, list[Pending]]]:
    """Give each option a key: its gun count for mutinies, else 1-9, 0, a-z."""
    keyed = []
    for index, (label, pending) in enumerate(options):
        guns = {p.action.get("guns") for p in pending if p.action["type"] == "mutiny"}
        key = OPTION_KEYS[index] if index < len(OPTION_KEYS) else ""
        if (
            len(guns) == 1
            and len(pending) >= 1
            and all(p.action["type"] == "mutiny" for p in pending)
        ):
            (count,) = guns
            if isinstance(count, int) and count < 10:
                key = str(count)
        keyed.append((key, label, pending))
    return keyed
