"""What the crabs screen says about a view: crab names, seat rows, tokens, prompts and hints."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ...rules.crabs import seat_teams
from ...rules.crabs_types import (
    CrabsView,
    SignalSettledEvent,
    Source,
)
from ...words import plural
from ..widgets.crabs_table import PlayerRow

GESTURE_WORDS = {
    "wink": "wink",
    "tap_table": "tap the table",
    "touch_nose": "touch your nose",
    "scratch_head": "scratch your head",
    "yawn": "yawn",
    "sip_drink": "sip a drink",
    "drum_fingers": "drum your fingers",
    "stretch": "stretch",
    "nod": "nod",
    "crack_knuckles": "crack your knuckles",
}
HAND_KEYS = ("a", "s", "d", "f")
OCEAN_KEYS = ("j", "k", "l", ";")
TEAM_LETTERS = "ABCDE"


def gesture_phrase(name: str) -> str:
    """`tap_table` -> `tap the table`."""
    return GESTURE_WORDS.get(name, name.replace("_", " "))


def signal_phrase(gestures: Sequence[str] | None) -> str:
    """`wink`, `wink or nod`: a team's signal in words."""
    return " or ".join(gesture_phrase(name) for name in gestures or ())


def gesture_key(view: CrabsView, name: str) -> str:
    """The key that makes gesture `name` (1-9, 0)."""
    return "1234567890"[view["gesture_names"].index(name)]


def signal_words(view: CrabsView) -> str:
    """The team's signal with its keys, fixed for the game: `Your team's signal: wink (1).`"""
    said = " or ".join(
        f"{gesture_phrase(name)} ({gesture_key(view, name)})" for name in view["signals"]
    )
    return f"Your team's signal: {said}, fixed for the game. Any other gesture is a decoy."


def settled_words(event: SignalSettledEvent, view: CrabsView) -> str:
    """The banner when the player's team has settled on its signal, or ran out of time."""
    said = " or ".join(
        f"{gesture_phrase(name)} ({gesture_key(view, name)})" for name in event["signals"]
    )
    if event["timed_out"]:
        return f"Time is up: your team keeps its dealt signal, {said}."
    return f"Your team's signal: {said}. Make it when you hold four of a kind."


def huddle_hint(view: CrabsView, you: int, names: Sequence[str], left: float) -> str:
    """The status line in the huddle: what the team waits for, and the seconds left."""
    huddle = view["huddle"]
    seconds = f"about {max(0, round(left))} s left"
    if huddle is None:  # (asked only in the huddle)
        return ""
    if view["team"] in huddle["settled"]:
        return f"Your team is ready: the other teams are still huddling ({seconds})."
    proposal = list(huddle.get("proposal", []))
    picks = huddle.get("picks", {})
    if picks.get(str(you)) == proposal:
        others = [
            names[int(seat)]
            for seat, pick in picks.items()
            if int(seat) != you and pick != proposal
        ]
        return (
            f"Waiting for {' and '.join(others)} to agree to {signal_phrase(proposal)} "
            f"({seconds}; t: change)."
        )
    return f"Pick your team's secret signal with t ({seconds})."  # (whole at 60 columns)


def team_of(view: CrabsView) -> list[int]:
    """The team of every seat."""
    return seat_teams(view["teams"], view["players"])


def team_name(team: int) -> str:
    """Team 0 -> `A`."""
    return TEAM_LETTERS[team] if team < len(TEAM_LETTERS) else str(team + 1)


def player_key(seat: int) -> str:
    """The key that picks `seat` when accusing: seat 0 is 1, ..., seat 9 is 0."""
    return str((seat + 1) % 10)


def side_rows(
    view: CrabsView, names: Sequence[str], you: int | None, gestures: dict[int, str]
) -> dict[int, list[PlayerRow]]:
    """The players of each side (0 and 1), in seat order, with what marks them now."""
    teams = team_of(view)
    mine = teams[you] if you is not None else None
    done, asked = set(view["done"]), set(view["asked"])
    tiebreak = view["tiebreak"]
    rows: dict[int, list[PlayerRow]] = {0: [], 1: []}
    for seat, name in enumerate(names):
        state = "done" if seat in done else "ask?" if seat in asked else ""
        if tiebreak is not None and teams[seat] not in tiebreak:
            state = "out"
        rows[view["sides"][seat]].append(
            PlayerRow(
                seat=seat,
                name=name,
                team=team_name(teams[seat]),
                tokens=view["tokens"][seat],
                state=state,
                gesture=gestures.get(seat, ""),
                is_you=seat == you,
                partner=seat != you and teams[seat] == mine,
            )
        )
    return rows


def side_title(view: CrabsView, side: int, you: int | None, ascii: bool = False) -> str:
    """`Side 0 ▶ swapping`, `Side 1 (yours) · waiting`, `Side 1 · asked to swap`."""
    arrow = ">" if ascii else "▶"
    dot = "-" if ascii else "·"
    yours = " (yours)" if you is not None and view["sides"][you] == side else ""
    if view["phase"] in ("over", "closing"):  # (closing: the pot is empty, nobody swaps)
        return f"Side {side}{yours}"
    if view["phase"] == "huddle":
        starts = f" {dot} swaps first" if view["marker"] == side else ""
        return f"Side {side}{yours}{starts}"
    if view["marker"] == side:
        doing = "made no swap" if view["phase"] == "asking" else "swapping"
        return f"Side {side}{yours} {arrow} {doing}"
    if view["phase"] == "asking":
        return f"Side {side}{yours} {dot} asked: swap?"
    return f"Side {side}{yours} {dot} waits"


def token_lines(view: CrabsView, you: int | None) -> list[Text]:
    """The pot and draw pile, then each team's total, two teams a line; yours marked."""
    teams = team_of(view)
    mine = teams[you] if you is not None else None
    lines = [
        Text.assemble(("Pot ", "bold"), (str(view["pot"]), "bold"), f"  draw {view['draw_size']}")
    ]
    cells = []
    for team, total in enumerate(view["team_tokens"]):
        label = f"{team_name(team)} {total:>2}"
        cells.append(Text(label + (" you" if team == mine else "    ")))
    for start in range(0, len(cells), 2):
        lines.append(Text("  ").join(cells[start : start + 2]))
    return lines


def swap_phase_hint(view: CrabsView, you: int) -> str:
    """What the player can do right now, in a few words."""
    if view["phase"] == "over":
        return "The game is over."
    if view["phase"] == "closing":
        if view["window_closes"] is not None:
            return "The pot is empty: the game ends when the double-crab second is over."
        return "The pot is empty: the game ends once the double crab is collected."
    if you in view["asked"]:
        return "Nobody swapped: swap? y / n"
    if view["phase"] == "asking":
        return f"Side {1 - view['marker']} is being asked whether anyone wants to swap."
    if view["sides"][you] != view["marker"]:
        return f"Side {view['marker']} swaps: watch, gesture, call crabs (x)."
    if you in view["done"]:
        return "Hand laid down: wait, or swap to pick it up."
    side = [s for s, on in enumerate(view["sides"]) if on == view["marker"]]
    tiebreak = view["tiebreak"]
    if tiebreak is not None:
        teams = team_of(view)
        side = [s for s in side if teams[s] in tiebreak]
    if all(s in view["done"] for s in side if s != you):
        return "The others are done: swap, or space to lay your hand down."
    return "Swap: a hand card (asdf), then an ocean card (jkl;)."


def is_four(hand: Sequence[str]) -> bool:
    """True if `hand` is four of a kind."""
    return len(hand) == 4 and len(set(hand)) == 1


def owed_double(view: CrabsView) -> int:
    """Tokens the player's team may take for a double crab now (0: none)."""
    for entry in view["double_take"]:
        if entry["team"] == view["team"]:
            return entry["tokens"]
    return 0


def source_label(source: Source, names: Sequence[str]) -> str:
    """A double crab source: `the pot` or a player's name."""
    return "the pot" if source == "pot" else names[source]


def winners_line(view: CrabsView, names: Sequence[str]) -> str:
    """`Team A (Sara, Ada) wins with 9 tokens.`"""
    winners = view["winners"]
    if not winners:
        return "The game is over."
    team = team_of(view)[winners[0]]
    who = ", ".join(names[seat] for seat in winners)
    return f"Team {team_name(team)} ({who}) wins with {plural(view['team_tokens'][team], 'token')}."
