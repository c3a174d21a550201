"""What the roach screen says about a view: card names, face-up displays, the card in flight."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TypedDict

from rich.cells import cell_len
from rich.text import Text

from ... import words
from ...rules.roach import ANIMALS, PLURALS, ROYAL, SPECIALS, claim_is_true
from ...rules.roach_types import ClaimEvent, Phase, RoachView
from ...words import plural
from ..widgets.log import event_line
from ..widgets.seats import fit_name

#: Short animal names for a display that would not fit on its line otherwise.
SHORT = {"cockroach": "roach", "scorpion": "scorp", "ladybug": "lady"}
_ROYAL_CODE = re.compile(r"\broyal-(\w+)")


def card_name(card: str) -> str:
    """A card as players say it: `royal-bat` -> `royal bat`; `bat`, `joker` unchanged."""
    return card.replace("royal-", "royal ")


def sentence(text: str) -> str:
    """A log or refusal sentence with card codes in words (`royal-bat` -> `royal bat`)."""
    return _ROYAL_CODE.sub(r"royal \1", text)


def with_article(card: str) -> str:
    """`a bat`, `an ...`: a card's name with its article."""
    return words.with_article(card_name(card))


def log_line(event: dict[str, object], names: Sequence[str], ascii: bool = False) -> str:
    """An event's sentence for people: seat numbers become names, card codes become words."""
    return sentence(event_line(event, names, ascii))


def arrow(ascii: bool) -> str:
    return "->" if ascii else "→"


# -- hands -----------------------------------------------------------------------------------------
def hand_kinds(hand: Sequence[str]) -> list[tuple[str, int]]:
    """The hand as (card, how many) in the view's order (each animal with its royal)."""
    counts = Counter(hand)
    return [(card, counts[card]) for card in dict.fromkeys(hand)]


def claim_label(card: str | None, claim: str) -> str:
    """A claim as the claim dialog lists it: `bat`, or `bat (true)` / `fly (a bluff)` for `card`."""
    if card is None:
        return claim
    return f"{claim} ({'true' if claim_is_true(card, claim) else 'a bluff'})"


def lay_rule(claim: str, special: str) -> str:
    """`You took the joker: lay out one bat card, or any two other cards.`"""
    kind = "royal card" if claim == ROYAL else f"{claim} card"
    return f"You took the {special}: lay out one {kind}, or any two other cards."


# -- face-up displays ------------------------------------------------------------------------------
def display_parts(counts: dict[str, int], lose_at: int) -> list[tuple[str, int, bool]]:
    """Each animal face up as (animal, count, one more loses), most first (at `lose_at` and
    more, the game is lost already: no more is needed)."""
    shown = [(animal, counts[animal]) for animal in ANIMALS if counts.get(animal)]
    shown.sort(key=lambda pair: -pair[1])
    return [(animal, count, count == lose_at - 1) for animal, count in shown]


#: Under the players when a narrow panel marks a royal card among an animal's (`display_text`).
ROYAL_MARK_MEANS = "+R: one of them royal"


def display_text(
    counts: dict[str, int],
    front: Sequence[str],
    lose_at: int,
    width: int,
    colour: bool = True,
    ascii: bool = False,
) -> Text:
    """A seat's face-up cards grouped by animal: `mouse 3!, bat 2 (1 royal), royal fly 1`
    (`!`: one more loses; each animal's one royal card is named).

    Animals go short (`roach`, `scorp`, `lady`; a royal among them `+R`) when the full names
    would not fit in `width`.
    """
    parts = display_parts(counts, lose_at)
    extras = [card for card in front if card in SPECIALS]
    royal = {card.removeprefix("royal-") for card in front if card.startswith("royal-")}
    if not parts and not extras:
        return Text("-" if ascii else "—", style="dim")
    danger = "bold red" if colour else "bold"
    for short in (False, True):
        text = Text()
        for index, (animal, count, close) in enumerate(parts):
            if index:
                text.append(", " if not short else " ")
            name = SHORT.get(animal, animal) if short else animal
            mark = ""
            if animal in royal and short:
                mark = "+R"
            elif animal in royal and count == 1:
                name = f"royal {name}"
            elif animal in royal:
                mark = " (1 royal)"
            said = f"{name} {count}" + ("!" if close else "") + mark
            text.append(said, style=danger if close or count >= lose_at else "")
        for card in extras:
            text.append((" +" if text else "+") + card, style="italic")
        if text.cell_len <= width:
            break
    text.truncate(max(1, width), overflow="ellipsis" if not ascii else "crop")
    return text


def final_display(
    counts: dict[str, int], front: Sequence[str], lose_at: int, colour: bool = True
) -> Text:
    """A seat's face-up cards at the end, in words: `4 ladybugs (1 royal), 3 bats, a joker`;
    an animal that reached the losing count in bold (red)."""
    royal = {card.removeprefix("royal-") for card in front if card.startswith("royal-")}
    text = Text()
    for animal, count, _ in display_parts(counts, lose_at):
        if text:
            text.append(", ")
        said = plural(count, animal, PLURALS[animal]) + (" (1 royal)" if animal in royal else "")
        text.append(said, style=("bold red" if colour else "bold") if count >= lose_at else "")
    for card in (card for card in front if card in SPECIALS):
        text.append((", " if text else "") + words.with_article(card), style="italic")
    return text or Text("none", style="dim")


def seat_table(
    view: RoachView,
    names: Sequence[str],
    you: int | None,
    width: int,
    colour: bool = True,
    ascii: bool = False,
) -> Text:
    """Every player on one line: who acts, cards in hand, face-up cards grouped by animal."""
    labels = [name + (" (you)" if seat == you else "") for seat, name in enumerate(names)]
    name_width = min(20, max([len("Player"), *map(cell_len, labels)]))
    pointer = ">" if ascii else "▶"
    flight = view["flight"]
    holder = flight["to"] if flight else None
    rest = max(8, width - name_width - 9)
    lines = [
        Text(
            f"  {'Player':<{name_width}} Hand  Face up {bang_means(view)}"[:width],
            style="bold underline",
        )
    ]
    for seat, label in enumerate(labels):
        acting = seat == view["turn"]
        line = Text(f"{pointer if acting else ' '} ", style="bold" if acting else "")
        line.append(fit_name(label, name_width, "~"), style="bold" if acting else "")
        size = view["hand_sizes"][seat]
        line.append(f" {size:>4}  ")
        line.append_text(
            display_text(
                view["front_counts"][seat],
                view["fronts"][seat],
                view["lose_at"],
                rest,
                colour,
                ascii,
            )
        )
        notes = []
        if seat == holder:
            notes.append("has the card")
        if size == 0 and view["turn"] is not None:
            notes.append("empty hand!")
        if notes and line.cell_len + 3 + len(", ".join(notes)) <= width:
            line.append("  " + ", ".join(notes), style="italic")
        lines.append(line)
    return Text("\n").join(lines)


# -- the middle of the table -----------------------------------------------------------------------
def flight_lines(
    view: RoachView,
    names: Sequence[str],
    you: int | None,
    ascii: bool = False,
    height: int = 99,
    width: int = 99,
) -> Text:
    """The penalty pile, the card in flight with its chain of claims, then cards lately shown.

    In `height` lines of `width` columns: when all of it does not fit (a small terminal), the
    lines are drawn closer (`_table_lines`) until the card in flight fits, who has seen it and
    who takes it first; as many lately shown cards as fit come after, newest first.
    """
    for tight in range(TIGHTEST + 1):
        lines = _table_lines(view, names, you, ascii, tight)
        if _rows(lines, width) <= height:
            break
    lately: list[Text] = []
    for reveal in reversed(reveals(view)):
        more = reveal_lines(reveal, names, you, ascii, width)
        if _rows([*lines, Text(), *lately, *more], width) > height:
            break  # (the heading comes with a line under it, or not at all)
        lately += more
    if lately:
        lines.append(Text("Cards shown lately:", style="bold"))
        lines += lately
    return Text("\n").join(lines)


def _rows(lines: Sequence[Text], width: int) -> int:
    """The rows `lines` take in a panel `width` wide (a longer line wraps)."""
    return sum(max(1, -(-line.cell_len // max(1, width))) for line in lines)


#: How far `_table_lines` may draw the table together: each step takes a line or more away.
TIGHTEST = 4


def _table_lines(
    view: RoachView, names: Sequence[str], you: int | None, ascii: bool, tight: int
) -> list[Text]:
    """The penalty pile and the card in flight, drawn `tight` steps closer: (1) the pile on one
    line, (2) only the last pass of the card, beside its heading, (3) who takes it on one line,
    (4) no pile."""
    go = arrow(ascii)
    top, size = view["penalty_top"], view["penalty_size"]
    pile = Text("Penalty: " if tight else "Penalty pile: ", style="bold")
    pile.append(plural(size, "card") if size else "empty")
    lines = [pile] if tight < TIGHTEST else []
    if top is not None and tight < TIGHTEST:
        face_up = Text(", " if tight else "\n face up: ")
        face_up.append(card_name(top), style="bold")
        pile.append_text(face_up)
    flight = view["flight"]
    if not flight:
        return [line for text in lines for line in text.split()]
    links = [
        Text.assemble(
            f" {who(link['from'], names, you)} {go} {who(link['to'], names, you)}: ",
            (f'"{link["claim"]}"', "bold"),  # a claim, not the card
        )
        for link in flight["claims"]
    ]
    if tight >= 2:  # the last pass, beside the heading
        lines.append(Text("In flight:", style="bold") + links[-1])
    else:
        lines.append(Text("Card in flight:", style="bold"))
        lines += links
    seen = [who(seat, names, you) for seat in flight["seen_by"]]
    lines.append(Text(f" seen by {', '.join(seen)}", style="italic"))
    if "card" in flight:
        shown = Text(" you saw it: ")
        shown.append(card_name(flight["card"]), style="bold reverse")
        lines.append(shown)
    sender = who(flight["from"], names, you)
    if flight["to"] == you and tight < 3:
        lines.append(Text(f" judge right: {sender} takes it", style="italic"))
        lines.append(Text(" judge wrong: you take it", style="italic"))
    elif flight["to"] == you:
        lines.append(Text(f" right: {sender} takes it, else you", style="italic"))
    return [line for text in lines for line in text.split()]


def who(seat: int, names: Sequence[str], you: int | None) -> str:
    """A seat in a tight spot: `you`, or the name without its `(bot)` tag."""
    if seat == you:
        return "you"
    return names[seat].removesuffix(" (bot)")


class Reveal(TypedDict):
    """A card turned up: who slid it claiming what, the card, the claim's truth, its taker."""

    sender: int
    claim: str
    card: str
    truth: bool
    taker: int


def reveals(view: RoachView) -> list[Reveal]:
    """Every card turned up in the log, oldest first."""
    found: list[Reveal] = []
    claim: ClaimEvent | None = None
    for event in view["log"]:
        if event["kind"] == "offer" or event["kind"] == "pass":
            claim = event
        elif event["kind"] == "reveal" and claim is not None:
            found.append(
                {
                    "sender": claim["sender"],
                    "claim": claim["claim"],
                    "card": event["card"],
                    "truth": event["truth"],
                    "taker": event["taker"],
                }
            )
            claim = None
    return found


def reveal_lines(
    reveal: Reveal, names: Sequence[str], you: int | None, ascii: bool, width: int
) -> list[Text]:
    """` Ada: "bat" was royal bat → you` (the claim judged, the card, who took it).

    Split over two lines when that is wider than `width`.
    """
    go = arrow(ascii)
    said = f' {who(reveal["sender"], names, you)}: "{reveal["claim"]}"'
    card = Text(card_name(reveal["card"]), style="bold")
    taker = who(reveal["taker"], names, you)
    layouts = [
        [Text.assemble(said, " was ", card, f" {go} {taker}")],
        [Text.assemble(said, " was ", card), Text(f"   {go} {taker} took it")],
        [Text(said), Text.assemble("   was ", card, f" {go} {taker}")],
    ]
    for lines in layouts:
        if all(line.cell_len <= width for line in lines):
            return lines
    return layouts[-1]


# -- whose move, and what to do --------------------------------------------------------------------
VERBS: dict[Phase, str] = {
    "offer": "offer a card",
    "respond": "answer a claim",
    "lay": "lay out cards",
}


def turn_phrase(view: RoachView, names: Sequence[str], you: int | None) -> str:
    """`your turn: offer a card`, `Ada (bot) to answer a claim`, or `game over`."""
    turn = view["turn"]
    if turn is None:
        return "game over"
    verb = VERBS.get(view["phase"], "move")
    if turn == you:
        return f"your turn: {verb}"
    return f"{names[turn]} to {verb}"


def can_pass(view: RoachView) -> bool:
    """True if the receiver of the card in flight may still pass it on (looking or not)."""
    flight = view["flight"]
    if not flight:
        return False
    return len(set(flight["held_by"])) < view["players"]


def pass_targets(view: RoachView) -> list[int]:
    """Seats the card in flight may be passed to: those it has not been with."""
    flight = view["flight"]
    if not flight:
        return []
    return [seat for seat in range(view["players"]) if seat not in flight["held_by"]]


def prompt(view: RoachView, names: Sequence[str], you: int, ascii: bool = False) -> str:
    """What the player at the keyboard should do now, with the keys to do it."""
    turn, phase, flight, lay = view["turn"], view["phase"], view["flight"], view["lay"]
    arrows = "<- ->" if ascii else "←→"
    if turn is None:
        return "The game is over."
    if turn != you:
        return f"Waiting for {names[turn]} to {VERBS.get(phase, 'move')}."
    if phase == "offer":
        return f"Your turn: pick a card ({arrows} or its number) and press Enter to offer it."
    if phase == "respond" and flight:  # (a card is in flight while it is answered)
        head = f'{names[flight["from"]]} slides you a card: "{flight["claim"]}". '
        if "card" in flight and you in flight["seen_by"]:
            return f"You looked: it is {with_article(flight['card'])}. Press p to pass it on."
        if can_pass(view):
            return head + "t: true  f: false  p: pass on"
        return head + "It has been with everyone else: t true or f false?"
    if phase == "lay" and lay:
        return lay_rule(lay["claim"], lay["special"]) + " Enter marks a card, l lays out."
    return ""


def lay_hint(marked: Sequence[str], claim: str) -> str:
    """What the marked cards would do: `Marked: bat. Press l to lay it out.`"""
    if not marked:
        kind = "royal" if claim == ROYAL else claim
        return f"Mark one {kind} card or any two other cards with Enter, then press l."
    names = " and ".join(card_name(card) for card in marked)
    them = "it" if len(marked) == 1 else "them"
    return f"Marked: {names}. Press l to lay {them} out, or Enter to change."


def bang_means(view: RoachView) -> str:
    """What the `!` beside an animal means: one more loses, or (``loser=most``) ends the game."""
    if view["loser_rule"] == "most":
        return "(! = one more ends the game)"
    return "(! = one more loses)"


def loser_line(view: RoachView, names: Sequence[str]) -> str:
    """The sentence that names the loser: `Ada (bot) has 4 bats in front of them and loses!...`."""
    for event in reversed(view["log"]):
        if event["kind"] == "lose":
            return log_line(dict(event), names)
    loser = view["loser"]
    if loser is None:
        return "The game is over."
    return f"{names[loser]} loses! Everyone else wins."
