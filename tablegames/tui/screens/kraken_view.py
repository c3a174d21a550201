"""What the Feed the Kraken screen says about a view: the chart, the crew, secrets, status, log.

Pure functions from a view (and the players' names) to Rich text, so they are easy to test and
the screen module stays about flow. Nothing here decides what may be shown: callers pass
`private=False` whenever the player at the keyboard may not see the seat's secrets.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from functools import cache
from typing import Any

from rich.cells import cell_len
from rich.text import Text

from ...rulebook import rules_text
from ...rules.kraken import talk as vocabulary
from ...rules.kraken.types import Colour, KrakenView, Phase
from ...talk import last_claims
from ...words import plural, with_article
from ..widgets.seats import fit_name

COLOURS: tuple[Colour, ...] = ("red", "yellow", "blue")
#: Each colour by the word a card's code starts with (`colour_of`).
COLOUR_OF: dict[str, Colour] = {colour: colour for colour in COLOURS}
GOAL_NAMES = {"crimson_cove": "Crimson Cove", "bluewater_bay": "Bluewater Bay", "kraken": "Kraken"}
GOAL_WINNERS = {"crimson_cove": "pirates", "bluewater_bay": "sailors", "kraken": "cult"}
ACTION_LETTERS = {
    "cabin_search": "S",
    "flogging": "F",
    "off_with_the_tongue": "T",
    "feed_the_kraken": "K",
}
ACTION_NAMES = {
    "cabin_search": "cabin search",
    "flogging": "flogging",
    "off_with_the_tongue": "off with the tongue",
    "feed_the_kraken": "feed the Kraken",
}
CARD_EFFECTS = {
    "drunk": "the captain is replaced",
    "disarmed": "the navigator loses a gun",
    "armed": "the navigator gains a gun",
    "mermaid": "someone sees the last discards",
    "telescope": "someone peeks at the top card",
    "uprising": "a cult ritual",
}
#: Faction codes in words, and "cult": the group a search shows (leader or cultist, unknown).
FACTION_WORDS = {
    "sailor": "sailor",
    "pirate": "pirate",
    "cult_leader": "cult leader",
    "cultist": "cultist",
    "cult": "cult",
}
WAY = {"red": ("west", "<", "◀"), "yellow": ("north", "^", "▲"), "blue": ("east", ">", "▶")}
COLOUR_STYLE = {"red": "bold red", "yellow": "bold yellow", "blue": "bold blue"}
WINDOW_WORDS = {
    "before_appoint": "before the team is appointed",
    "after_appoint": "after the team is appointed",
    "after_reveal": "right after the guns are revealed",
    "before_draw": "before the navigation cards are drawn",
    "yellow_round": "at the end of a yellow round",
}
PICK_WORDS = {
    "cabin_search": "searches a cabin",
    "flogging": "has someone flogged",
    "off_with_the_tongue": "cuts off someone's tongue",
    "feed_the_kraken": "feeds someone to the Kraken",
    "mermaid": "sends someone to the mermaid",
    "telescope": "hands someone the telescope",
}
SECRET_PHASES: frozenset[Phase] = frozenset(("window", "convert", "stash"))
#: The moments played with everyone's eyes closed (the cult's): what a player learns in one
#: goes round every human, or being handed the keyboard would show who learned something.
EYES_CLOSED: frozenset[Phase] = frozenset(("convert", "stash"))
CHARACTER_TITLES = {
    "look_out": "Look-out",
    "chief_cook": "Chief cook",
    "debt_collector": "Debt collector",
    "master_strategist": "Master strategist",
    "rabble_rouser": "Rabble-rouser",
}


def character_title(name: str) -> str:
    return CHARACTER_TITLES.get(name, name.replace("_", " ").capitalize())


@cache
def character_cards() -> dict[str, tuple[str, str]]:
    """Character code -> (when, what it does), read from the rules text's table so the screen
    and `tablegames rules kraken` say the same thing."""
    try:
        text = rules_text("kraken")
    except FileNotFoundError:
        return {}
    cards: dict[str, tuple[str, str]] = {}
    section = text.split("## Characters", 1)[-1]
    for row in section.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] and cells[0] != "character" and set(cells[0]) != {"-"}:
            code = cells[0].lower().replace(" ", "_").replace("-", "_")
            cards[code] = (cells[1], cells[2])
    return cards


def character_effect(name: str) -> str:
    """`Bosun (before the cards are drawn): swap lieutenant and navigator`."""
    when, effect = character_cards().get(name, ("", ""))
    title = character_title(name)
    if not effect:
        return title
    return f"{title} ({when}): {effect}"


# -- words --------------------------------------------------------------------------------------


def colour_of(card: str) -> Colour:
    """A navigation card's colour: its code starts with it (`red-drunk`)."""
    return COLOUR_OF[card.split("-", 1)[0]]


def card_words(card: str) -> str:
    """`red-drunk` -> `red drunk`."""
    return card.replace("-", " ")


def card_text(card: str, colour: bool = True) -> Text:
    """A navigation card in words, its colour word styled (the word carries the colour)."""
    shade, kind = card.split("-", 1)
    return Text.assemble((shade, COLOUR_STYLE[shade] if colour else "bold"), f" {kind}")


def place_name(space: str) -> str:
    """A space or goal area for people: `0,4` stays, `bluewater_bay` -> `Bluewater Bay`."""
    return GOAL_NAMES.get(space, space)


def way_mark(colour: str, ascii: bool) -> str:
    _, plain, fancy = WAY[colour]
    return plain if ascii else fancy


def card_course(card: str, view: KrakenView, ascii: bool = False) -> str:
    """Where `card` would sail the ship from where it is, and what it does:
    `west to -1,5 (cabin search); the captain is replaced`."""
    colour = colour_of(card)
    ship = view["ship"]
    chart = view["map"]
    if ship not in chart:
        return CARD_EFFECTS.get(card.split("-", 1)[1], "")
    there = chart[ship][colour] or ""
    words = f"{WAY[colour][0]} to {place_name(there)}"
    if there in GOAL_WINNERS:
        words += f": the {GOAL_WINNERS[there]} win!"
    elif there in chart and (action := chart[there]["action"]):
        words += f" ({ACTION_NAMES[action]})"
    effect = CARD_EFFECTS.get(card.split("-", 1)[1])
    return f"{words}; {effect}" if effect else words


def worth_logging(event: dict[str, object]) -> bool:
    """False for lines the crew panel already shows (who has closed a mutiny fist)."""
    return event.get("kind") != "chosen"


def line(event: dict[str, object], names: Sequence[str]) -> str:
    """An event's sentence for people: seat numbers become names, codes become words."""
    text = str(event.get("text", ""))
    with suppress(IndexError, KeyError, ValueError):  # a malformed line must not stop the game
        text = text.format(*names)
    for code, words in (*GOAL_NAMES.items(), ("cult_leader", "cult leader")):
        text = text.replace(code, words)
    for ritual in ("cult_cabin_search", "gun_stash"):
        text = text.replace(ritual, ritual.replace("_", " "))
    for shade in COLOURS:
        text = text.replace(f"{shade}-", f"{shade} ")
    return text


# -- the chart ----------------------------------------------------------------------------------


def _spaces(view: KrakenView) -> dict[tuple[int, int], str]:
    out = {}
    for space in view["map"]:
        column, level = (int(part) for part in space.split(","))
        out[(column, level)] = space
    return out


def next_moves(view: KrakenView) -> dict[str, str]:
    """Colour -> where that colour sails the ship from where it is now."""
    chart = view["map"]
    ship = view["ship"]
    if ship not in chart:
        return {}
    return {colour: str(chart[ship][colour]) for colour in COLOURS}


def map_text(
    view: KrakenView, ascii: bool = False, colour: bool = True, wide: bool = False
) -> Text:
    """The sea chart, north up: every space with its map action letter, the ship in brackets,
    the letters r/y/b on the spaces the next card could sail to, the three goal areas."""
    spaces = _spaces(view)
    top = max(level for _, level in spaces)
    step, side = (6, 8) if wide else (4, 5)
    grid = 6 * step + 3
    marks: dict[str, list[str]] = {}
    for shade, there in next_moves(view).items():
        marks.setdefault(there, []).append(shade)
    dot = "." if ascii else "·"
    ship = view["ship"]
    head = Text()
    if "kraken" in marks:
        head.append_text(_marks(marks["kraken"], colour, ascii, "yellow"))
        head.append(" ")
    kraken = "[KRAKEN] (cult)" if ship == "kraken" else "KRAKEN (cult)"
    head.append(kraken, "bold reverse" if "kraken" in marks or ship == "kraken" else "bold")
    lines = [Text(" " * max(0, side + (grid - len(head)) // 2)) + head]
    cove, bay = (
        _goal_rows(goal, view, marks, colour, ascii) for goal in ("crimson_cove", "bluewater_bay")
    )
    for level in range(top, -1, -1):
        row = _side(cove.get(level, Text()), True, side)
        cursor = 0
        for column in range(-3, 4):
            x = (column + 3) * step
            row.append(" " * (x - cursor))
            row.append_text(_token(spaces.get((column, level)), view, marks, dot, colour))
            cursor = x + 3
        row.append(" " * (grid - cursor))
        row.append_text(_side(bay.get(level, Text()), False, side))
        row.rstrip()
        lines.append(row)
    return Text("\n").join(lines)


def _marks(shades: list[str], colour: bool, ascii: bool, way: str) -> Text:
    text = Text()
    for shade in shades:
        text.append(shade[0], COLOUR_STYLE[shade] if colour else "bold")
    text.append(way_mark(way, ascii), "bold")
    return text


def _goal_rows(
    goal: str, view: KrakenView, marks: dict[str, list[str]], colour: bool, ascii: bool
) -> dict[int, Text]:
    """The west (Cove) or east (Bay) goal beside the rows whose spaces sail into it: the
    colours that would take the ship there now beside the ship's own row, the goal's name and
    who wins there on the lowest two other rows next to each other."""
    west = goal == "crimson_cove"
    chart, ship = view["map"], view["ship"]
    reach = sorted(
        {int(space.split(",")[1]) for space, ways in chart.items() if goal in ways.values()},
        reverse=True,
    )
    rows: dict[int, Text] = {}
    shades = marks.get(goal, [])
    if shades and ship in chart:  # beside the ship: that is where it sails from
        rows[int(ship.split(",")[1])] = _marks(shades, colour, ascii, "red" if west else "blue")
    free = [level for level in reach if level not in rows]
    pair = next(  # the lowest two rows next to each other that are free
        (free[at : at + 2] for at in range(len(free) - 2, -1, -1) if free[at] - free[at + 1] == 1),
        free[-2:],
    )
    there = ship == goal  # the ship is there: the voyage is over
    name = ("[Cove]" if there else "Cove") if west else ("[Bay]" if there else "Bay")
    for level, words in zip(pair, (name, "(P)" if west else "(S)"), strict=False):
        rows[level] = Text(words, "bold reverse" if shades or there else "bold")
    return rows


def _side(text: Text, west: bool, width: int) -> Text:
    """One row of a goal's column, beside the chart (west: padded to its right edge)."""
    pad = " " * max(0, width - 1 - len(text))
    return Text(pad) + text + Text(" ") if west else Text(" ") + text


def _token(
    space: str | None,
    view: KrakenView,
    marks: dict[str, list[str]],
    dot: str,
    colour: bool,
) -> Text:
    """Three characters for one spot of the chart."""
    if space is None:
        return Text("   ")
    action = view["map"][space]["action"]
    centre = ACTION_LETTERS.get(action or "", dot)
    if space == view["ship"]:
        return Text(f"[{centre}]", "bold reverse")
    shades = marks.get(space, [])
    token = Text()
    for index in (0, 1):
        if index == 1:
            token.append(centre, "bold" if shades or action else "dim")
        if len(shades) > index:
            token.append(shades[index][0], COLOUR_STYLE[shades[index]] if colour else "bold")
        else:
            token.append(" ")
    return token


def chart_legend(
    view: KrakenView, ascii: bool = False, colour: bool = True, between: str = "  "
) -> Text:
    """Where each colour sails next: `r< -1,5  y^ 0,6 (S)  b> 1,5`, goals spelled out (one
    under the other with `between="\n"`)."""
    chart = view["map"]
    ways = []
    for shade, there in next_moves(view).items():
        way = Text(shade[0] + way_mark(shade, ascii), COLOUR_STYLE[shade] if colour else "bold")
        if there in GOAL_NAMES:
            way.append(f" {GOAL_NAMES[there]}!", "bold")
        else:
            letter = ACTION_LETTERS.get(chart[there]["action"] or "")
            way.append(f" {there}" + (f" {letter}" if letter else ""))
        ways.append(way)
    return Text(between).join(ways)


def chart_key(ascii: bool = False) -> str:
    """The letters used on the chart."""
    ship = "[.]" if ascii else "[·]"
    return f"{ship} ship  S search  F flog  T tongue  K feed the Kraken"


# -- the crew -----------------------------------------------------------------------------------


def crew_text(
    view: KrakenView,
    names: Sequence[str],
    you: int | None,
    waiting: Sequence[int],
    ascii: bool = False,
    colour: bool = True,
    wide: bool = False,
    room: int = 99,
) -> Text:
    """One line per player: who waits, office, off duty, guns, résumé and public marks; for
    `you` (only when the seat's secrets may be shown) what you know of each player.

    In `room` columns, names shorten first, then the résumé goes: job, duty and guns stay. A
    narrow crew (`compact`) leaves out the résumé and the bots' "(bot)" and says claims short,
    so that what you know of each player and what they claimed can be read.
    """
    known = view["known"] if you is not None else {}
    arrow = ">" if ascii else "▶"
    if compact(wide, room):
        names = [name.removesuffix(" (bot)") for name in names]
    name_width = _name_width(names, you, wide, room)
    tight = compact(wide, room)
    with_resume = name_width + CREW_COLUMNS + RESUME_COLUMNS <= room and not tight
    resume = ("Resume" if ascii else "Résumé") if with_resume else ""
    # Compact, the résumé as wide as the longest (the letters), if it leaves words a room.
    resume_width = max(3, *(len(cards) for cards in view["resumes"]))
    short_resume = tight and name_width + 17 + resume_width + COMPACT_WORDS <= room
    columns = (
        f"Job Off Guns {'Res' if short_resume else ''}" if tight else f"Job Duty  Guns {resume}"
    )
    head = Text(f"  {'Player':<{name_width}} {columns}".rstrip(), "bold underline")
    lines = [head]
    mutiny = view["mutiny"]
    raised = (mutiny["raised"] if mutiny else None) or [None] * len(names)
    spoken = last_words(view, names, short=compact(wide, room))
    for seat, name in enumerate(names):
        shown = name
        if seat == you:
            shown = f"{name}*" if starred(names, you, wide, room) else f"{name} (you)"
        gone = seat in view["eliminated"]
        row = Text(arrow if seat in waiting else " ", "bold")
        row.append(" ")
        row.append(fit_name(shown, name_width, "~"), "strike dim" if gone else "bold")
        office = office_of(view, seat)
        row.append(" ")
        row.append(f"{office:<3}", "bold reverse" if office else "")
        duty = "off" if seat in view["off_duty"] else ""
        row.append(f" {duty:<3}" if tight else f" {duty:<4}", "italic")
        guns = str(view["guns"][seat])
        if raised[seat] is not None:  # the fists are open: held + raised
            guns += f"+{raised[seat]}"
        row.append(f" {guns:>4}" if tight else f" {guns:>5}")
        if with_resume or short_resume:
            row.append(" ")
            shown_resume = _resume(view["resumes"][seat], colour, wide)
            if short_resume:
                shown_resume.pad_right(resume_width - shown_resume.cell_len)
            row.append_text(shown_resume)
        notes = notes_on(view, seat, known, wide)
        if seat in spoken and tight:  # what was said, in a few words, before the rest
            first = 1 if notes and notes[0].startswith("= ") else 0  # (what you know first)
            notes.insert(first, spoken[seat])
        elif seat in spoken:
            notes.append(f'"{spoken[seat]}"')
        if notes:  # what you know of them, the marks they bear, their latest claim
            row.append((" " if tight else "  ") + ", ".join(notes), "italic")
        lines.append(row)
    return Text("\n").join(lines)


def last_words(view: KrakenView, names: Sequence[str], short: bool = False) -> dict[int, str]:
    """Each seat's latest claim, in its words with names for seats (`short`: a few words)."""
    spoken = {}
    for seat, said in last_claims(view.get("talk", [])).items():
        if short:
            spoken[seat] = short_words(seat, said["claim"], names)
            continue
        text = vocabulary.words(seat, said["claim"])
        with suppress(IndexError, KeyError, ValueError):
            text = text.format(*names)
        spoken[seat] = text
    return spoken


def short_words(seat: int, claim: dict[str, Any], names: Sequence[str]) -> str:
    """A claim in a few words for a narrow crew panel: `me: sailor`, `Ada: pirate`, `trust`,
    `2 guns`, `RB, passed R` (the log has it in full)."""
    kind = claim["kind"]

    def who(target: int) -> str:
        return "me" if target == seat else names[target]

    def colours(cards: Sequence[str]) -> str:
        return "".join(card[0].upper() for card in cards)

    if kind == "role":
        return f"{who(claim['target'])}: {claim['group']}"
    if kind == "searched":
        return f"search {who(claim['target'])}: {claim['group']}"
    if kind == "team":
        return str(claim["stance"])
    if kind == "guns":
        return plural(claim["guns"], "gun")
    if kind == "passed":
        return f"{colours(claim['drew'])}, passed {colours([claim['passed']])}"
    if kind == "handed":
        return f"handed {colours(claim['cards'])}"
    if kind == "mermaid":
        return f"mermaid {colours(claim['cards'])}"
    if kind == "telescope":
        return f"telescope {colours([claim['card']])}"
    return str(kind)


CREW_COLUMNS = 17  # a crew row besides the name and résumé: arrow, job, duty, guns
#: A crew panel narrower than this (and not wide) is drawn compact (see `crew_text`).
COMPACT_ROOM = 48
COMPACT_WORDS = 12  # columns kept for notes and claims before a compact crew shows the résumé


def compact(wide: bool, room: int) -> bool:
    """True if the crew panel is too narrow for the résumé, "(bot)" and whole claims."""
    return not wide and room < COMPACT_ROOM


RESUME_COLUMNS = 7
SHORTEST_NAME = 6


def _name_width(names: Sequence[str], you: int | None, wide: bool, room: int = 99) -> int:
    you_mark = (1 if compact(wide, room) else 6) if you is not None else 0  # `*` or " (you)"
    wanted = min(18 if wide else 12, max((cell_len(n) for n in names), default=0) + you_mark)
    with_resume = room - CREW_COLUMNS - RESUME_COLUMNS
    if with_resume >= min(wanted, 8):  # the résumé stays while names keep 8 letters
        return max(SHORTEST_NAME, min(wanted, with_resume))
    return max(SHORTEST_NAME, min(wanted, room - CREW_COLUMNS))


def starred(names: Sequence[str], you: int | None, wide: bool, room: int = 99) -> bool:
    """True if the crew panel marks your row with `*` (no room for "(you)")."""
    if compact(wide, room):
        names = [name.removesuffix(" (bot)") for name in names]
    return you is not None and cell_len(names[you]) + 6 > _name_width(names, you, wide, room)


def office_of(view: KrakenView, seat: int) -> str:
    if seat == view["captain"]:
        return "Cpt"
    if seat == view["lieutenant"]:
        return "Lt"
    if seat == view["navigator"]:
        return "Nav"
    return ""


def _resume(cards: Sequence[str], colour: bool, wide: bool) -> Text:
    """A résumé as colour letters (R Y B), or words when there is room."""
    text = Text()
    if not cards:
        return Text("-", "dim")
    for card in cards:
        shade = colour_of(card)
        style = COLOUR_STYLE[shade] if colour else "bold"
        text.append(shade[0].upper(), style)
    return text


def notes_on(view: KrakenView, seat: int, known: dict[str, str], wide: bool) -> list[str]:
    notes: list[str] = []
    if seat in view["eliminated"]:
        notes.append("gone")
    if seat in view["tongueless"]:
        notes.append("no tongue")
    for card in view["not_a"][seat]:
        notes.append(f"not {card}")
    character = view["characters"][seat]
    if character:
        title = character_title(character)
        used = view["characters_used"][seat]
        notes.append(f"{title}{' (used)' if used and wide else ''}")
    if seat in view["gunsmiths"] and not character:
        notes.append("gunsmith")
    faction = known.get(str(seat))
    if faction:
        notes.insert(0, f"= {FACTION_WORDS[faction]}")
    return notes


# -- this seat's secrets ------------------------------------------------------------------------


def secret_text(
    view: KrakenView, names: Sequence[str], ascii: bool = False, colour: bool = True
) -> Text:
    """What only this seat knows: faction, who it knows, character, cards in hand, peeks."""
    private, faction, seat = view["private"], view["faction"], view["seat"]
    if faction is None or seat is None:  # (a spectator has no secrets)
        return Text()
    out = Text()
    out.append("You are ")
    out.append(with_article(FACTION_WORDS[faction]), "bold reverse")
    out.append(f" ({_goal_of(faction)})")
    known = view["known"]
    if known:
        knows = ", ".join(f"{names[int(s)]} {FACTION_WORDS[f]}" for s, f in sorted(known.items()))
        out.append(f"\nYou know: {knows}")
    character = private.get("character")
    if character:
        used = view["characters_used"][seat]
        out.append("\nCharacter: ")
        out.append(character_effect(character), "dim strike" if used else "")
        out.append(" (used)" if used else " (c uses it)")
    drawn, kept, logbook = private.get("drawn"), private.get("kept"), private.get("logbook")
    top, fist = private.get("peek"), private.get("mutiny_guns")
    if drawn:
        out.append("\nYou drew: ")
        out.append_text(_cards(drawn, colour))
    if kept:
        out.append("\nIn the logbook: ")
        out.append_text(card_text(kept, colour))
    if logbook:
        out.append("\nLogbook: ")
        out.append_text(_cards(logbook, colour))
    if top:
        out.append("\nTop of the draw pile: ")
        out.append_text(card_text(top, colour))
    if fist is not None:
        out.append(f"\nYour fist: {plural(fist, 'gun')}")
    for peek in private.get("peeks", [])[-2:]:
        source = peek["source"].replace("_", "-")
        out.append(f"\nSeen ({source}): ")
        out.append_text(_cards(peek["cards"], colour))
        if peek.get("choice"):
            out.append(f", {'left' if peek['choice'] == 'keep' else 'discarded'}")
    return out


def secret_line(view: KrakenView, names: Sequence[str]) -> str:
    """This seat's secrets in one line: `pirate; knows Ada pirate; Gunslinger (used); drew ...`."""
    private, faction, seat = view["private"], view["faction"], view["seat"]
    if faction is None or seat is None:  # (a spectator has no secrets)
        return ""
    parts = [FACTION_WORDS[faction]]
    known = view["known"]
    if known:
        parts.append(
            "knows "
            + ", ".join(f"{names[int(s)]} {FACTION_WORDS[f]}" for s, f in sorted(known.items()))
        )
    character = private.get("character")
    if character:
        used = view["characters_used"][seat]
        parts.append(character_title(character) + (" (used)" if used else ""))
    for cards, said in ((private.get("drawn"), "drew"), (private.get("logbook"), "logbook")):
        if cards:
            parts.append(f"{said} {', '.join(card_words(card) for card in cards)}")
    for card, said in ((private.get("kept"), "kept"), (private.get("peek"), "top card")):
        if card:
            parts.append(f"{said} {card_words(card)}")
    fist = private.get("mutiny_guns")
    if fist is not None:
        parts.append(f"fist {plural(fist, 'gun')}")
    return "; ".join(parts)


def _cards(cards: Sequence[str], colour: bool) -> Text:
    return Text(", ").join(card_text(card, colour) for card in cards)


def _goal_of(faction: str) -> str:
    return {
        "sailor": "win at Bluewater Bay, east",
        "pirate": "win at Crimson Cove, west",
        "cult_leader": "win at the Kraken, north, or if you are fed to it",
        "cultist": "win with the cult leader",
    }[faction]


# -- status -------------------------------------------------------------------------------------


def public_waiting(view: KrakenView, waiting: Sequence[int]) -> list[int]:
    """The seats an onlooker may see the game wait for (none in an eyes-closed moment)."""
    if view["phase"] in SECRET_PHASES:
        return []
    return list(waiting)


def phase_text(
    view: KrakenView, names: Sequence[str], waiting: Sequence[int], room: int = 999
) -> str:
    """What the table is doing and who it waits for, as everyone may know it, in `room`
    columns: a list of players too long for it names the first few and how many more."""
    phase = view["phase"]
    if view["winner"]:
        return "The voyage is over."
    if phase == "window":
        return f"A moment for characters {WINDOW_WORDS.get(view['window'] or '', '')}."
    if phase in EYES_CLOSED:
        return "Everyone's eyes are closed: the cult leader acts."
    captain = names[view["captain"]]
    texts = {
        "appoint": "{who} appoints the lieutenant and navigator.",
        "emergency": f"{captain} names an emergency navigator.",
        "mutiny": "Mutiny? Still choosing guns in secret: {who}.",
        "tie_break": f"A tied mutiny: {captain} removes tied players.",
        "navigation": "Navigation: {who} choose a card for the logbook.",
        "steer": "Navigation: {who} steers by a logbook card (or jumps).",
        "pick": f"{captain} {PICK_WORDS.get(view['pick'] or '', 'picks a player')}.",
        "peek": "{who} looks at the top card of the draw pile.",
        "instigate": "The Instigator urges {who} to add all their guns.",
        "give": "The Spiritualist ({who}) hands out guns.",
    }
    waited = [names[seat] for seat in public_waiting(view, waiting)]
    text = texts.get(phase, "Waiting for {who}." if waited else "")
    return text.format(who=names_in(waited, room - len(text) + len("{who}")))


def names_in(names: Sequence[str], room: int) -> str:
    """`Ada, Bruno, Chidi` in `room` columns, else `Ada, Bruno and 4 more`, else `6 players`."""
    whole = ", ".join(names)
    if len(whole) <= room or len(names) < 2:
        return whole
    for shown in range(len(names) - 1, 0, -1):
        words = f"{', '.join(names[:shown])} and {len(names) - shown} more"
        if len(words) <= room:
            return words
    return plural(len(names), "player")


def round_title(view: KrakenView, dash: str) -> str:
    board = "quick journey" if view["board"] == "quick" else "long journey"
    return f"Sea chart {dash} {board}, round {view['round']}"


def deck_line(view: KrakenView) -> str:
    rituals = view["rituals_left"]
    return f"Deck {view['deck_size']}  discards {view['discard_size']}  rituals left {rituals}" + (
        f"  used: {', '.join(r.replace('_', ' ') for r in view['rituals_used'])}"
        if view["rituals_used"]
        else ""
    )


def results_lines(
    view: KrakenView, names: Sequence[str]
) -> tuple[str, list[tuple[str, str, bool]]]:
    """The headline and (name, role, won) rows once the game is over."""
    winner = view["winner"]
    roles = view["roles"] or []
    ship = view["ship"]
    headline = {
        "sailor": "The sailors win",
        "pirate": "The pirates win",
        "cult": "The cult wins",
    }.get(winner or "", "Nobody wins")
    where = f": the ship reached {place_name(ship)}." if ship in GOAL_NAMES else "!"
    if winner == "cult" and ship not in GOAL_NAMES:
        where = ": the cult leader was fed to the Kraken."
    sides = {"sailor": "sailor", "pirate": "pirate", "cult_leader": "cult", "cultist": "cult"}
    rows = [
        (names[seat], FACTION_WORDS[role], sides[role] == winner) for seat, role in enumerate(roles)
    ]
    return headline + where, rows
