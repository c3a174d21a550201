"""What the Crates screen says about a view: seat rows, the pile, turns, why a card is dimmed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ...rules.cards import RANK_ORDER
from ...rules.crates import NAMEABLE_SUITS, SUIT_NAMING_CARDS, WILD_CARDS
from ...rules.crates_types import CratesView
from ..touch import on_the_page, press
from ..widgets.card import (
    card_label,
    prettify,
    rank_of,
    suit_name,
    suit_of,
    suit_style,
)
from ..widgets.hand import BIG, SMALL, boxed_card
from ..widgets.seats import SeatRow

HAND_SUITS = ("S", "H", "C", "D")  # a hand's suits in order: the colours take turns


def sorted_hand(cards: Sequence[str]) -> list[str]:
    """A hand as it is shown: by suit (♠ ♥ ♣ ♦), then by rank (A, 2 ... K) within a suit."""
    return sorted(
        cards, key=lambda card: (HAND_SUITS.index(suit_of(card)), RANK_ORDER[rank_of(card)])
    )


def names_a_suit(card: str) -> bool:
    """True for the cards that name a suit when played: 8s (wild) and 9s (which must fit)."""
    return card in SUIT_NAMING_CARDS


def suits_to_name(card: str) -> tuple[str, ...]:
    """The suits an 8 or 9 may name: any for an 8, its own colour's two for a 9."""
    return NAMEABLE_SUITS[card]


#: Each note's short mark, for a narrow players panel (explained under it).
NOTE_MARKS = {
    "say Crates! (c)": "c!",
    "Crates!": "C!",
    "loses a turn": "skip",
    "out": "out",
    "dealer": "D",
}


def seat_rows(view: CratesView, names: Sequence[str], you: int | None) -> list[SeatRow]:
    """One row per seat: cards held, running total and the marks that matter now."""
    rows = []
    for seat, name in enumerate(names):
        cards = view["hand_sizes"][seat]
        notes = []  # the most pressing first: a narrow panel shows only the first ones
        if seat in view["exposed"] and seat == you:  # nobody else is told: they must notice
            notes.append("say Crates! (c)")
        if seat in view["announced"]:
            notes.append("Crates!")
        if seat in view["lost_turn"]:
            notes.append("loses a turn")
        if cards == 0:
            notes.append("out")
        if seat == view["dealer"]:
            notes.append("dealer")
        rows.append(
            SeatRow(
                name=name,
                cards=cards,
                score=view["scores"][seat],
                to_act=seat == view["turn"],
                is_you=seat == you,
                notes=notes,
            )
        )
    return rows


def pile_text(
    view: CratesView,
    names: Sequence[str],
    ascii: bool = False,
    colour: bool = True,
    big: bool = False,
) -> Text:
    """The top card drawn as a box, with the suit to follow, crank, draw pile and direction."""
    top = view["top"]
    suit = view["suit"]
    named = top is not None and suit != suit_of(top)
    suit_line = Text.assemble("Suit: ", (suit_name(suit, ascii), suit_style(suit, colour)))
    suit_note = Text(f"(named by the {rank_of(top)})" if top and named else "", style="italic")
    draw_pile = Text(f"Draw pile: {view['draw_size']}")
    beside = [suit_line, suit_note, draw_pile]
    if big:
        beside = [Text(), suit_line, suit_note, draw_pile, Text()]
    box = boxed_card(top, BIG if big else SMALL, ascii, colour) if top else []
    crank = view["crank"]
    crank_line = Text("Crank: ")
    if crank:
        crank_line.append(f"{crank}, play A or 2!", style="bold reverse")
    else:
        crank_line.append("none")
    if view["direction"] == 1:
        way = "clockwise" if ascii else "↻ clockwise"
    else:
        way = "anticlockwise" if ascii else "↺ anticlockwise"
    lines = [Text.assemble(row, " ", info) for row, info in zip(box, beside, strict=False)]
    lines += [crank_line, Text(f"Play: {way}")]
    if view["turn"] is not None:
        lines.append(Text.assemble("To play: ", (names[view["turn"]], "bold")))
    return Text("\n").join(lines)


def turn_phrase(view: CratesView, names: Sequence[str], you: int | None) -> str:
    """`your turn`, `Ada (bot) to play`, or that the game is over."""
    turn = view["turn"]
    if turn is None:
        return "game over"
    if turn == you:
        return "name a suit" if view["phase"] == "suit" else "your turn"
    return f"{names[turn]} to play"


def whose_turn(view: CratesView, names: Sequence[str]) -> str:
    """`It is Ada (bot)'s turn.` (or that nobody is to play)."""
    turn = view["turn"]
    return "Nobody is to play now." if turn is None else f"It is {names[turn]}'s turn."


def card_hint(
    view: CratesView,
    card: str,
    names: Sequence[str],
    you: int,
    ascii: bool = False,
    armed: bool = False,
) -> str:
    """What selecting `card` tells the player: why it cannot be played, or how to play it (with
    two cards in hand: that `c` first says Crates! with it, unless `armed` already)."""
    turn = view["turn"]
    label = card_label(card, ascii)
    tapped = on_the_page()  # (a phone: keys are tapped, a card is played by a second tap)
    if turn != you:
        who = "nobody's" if turn is None else f"{names[turn]}'s"
        return f"It is {who} turn, not yours: {label} waits."
    if view["phase"] == "suit":
        return f"First name a suit for the turned-up card: {press('Enter', 'Play')}."
    reason = view["unplayable"].get(card)
    if reason is not None:
        mark = "x" if ascii else "✗"
        reason = prettify(reason, ascii)
        return f"{mark} {reason}" if reason.startswith(label) else f"{mark} {label}: {reason}"
    plays = f"Tap {label} again to play it" if tapped else f"Enter plays {label}"
    if card in WILD_CARDS:
        return f"{plays} and {'name' if tapped else 'lets you name'} any suit."
    if names_a_suit(card):
        own, partner = (suit_name(suit, ascii) for suit in suits_to_name(card))
        keep = "keep" if tapped else "lets you keep"
        return f"{plays} and {keep} {own} or switch to {partner}."
    if len(view["hand"]) == 2 and not armed:
        return f"{plays}; {press('c', 'Crates!')} first and Crates! is said with it."
    return f"{plays}."


def turn_hint(view: CratesView, ascii: bool = False) -> str:
    """The nudge shown when a turn starts: pick and play, or draw when nothing fits."""
    top = view["top"]
    if view["phase"] == "suit" and top is not None:  # (a turned-up card is on the pile)
        return f"Name a suit for the turned-up {card_label(top, ascii)}: {press('Enter', 'Play')}."
    playable = [card for card in view["hand"] if card not in view["unplayable"]]
    if not playable:
        crank = view["crank"]
        draw = f"draw {crank}" if crank else "draw a card"
        return f"Nothing fits: {press('d', 'Draw')} to {draw}."
    if on_the_page():
        picks = "a tap picks a card, a second tap plays it"
        if len(view["hand"]) == 2:
            return f"Your turn, two cards: Crates! first says it with your play; {picks}."
        return f"Your turn: {picks}."
    arrows = "<- ->" if ascii else "←→"
    if len(view["hand"]) == 2:  # the play that leaves one card may say Crates! itself
        return f"Your turn, two cards: c says Crates! with your play; {arrows} picks, Enter plays."
    return f"Your turn: {arrows} or a card's number picks it, Enter plays it."


def first_playable(view: CratesView) -> int | None:
    """The place in the hand as shown (`sorted_hand`) of the first card that fits now, if any."""
    for index, card in enumerate(sorted_hand(view["hand"])):
        if card not in view["unplayable"]:
            return index
    return None


def suit_options_title(card: str, ascii: bool = False) -> str:
    """The suit dialog's question for `card`."""
    return f"Name a suit for your {card_label(card, ascii)}"
