"""Character cards: the table of all 21 with their timing, dealing them, windows and using them.

Each character is used once, face down until then. A character with a timing other than "any"
can only be used in its window: a short pause in the round that the engine opens to every seat
whose unused character fits it and closes when all of them have used or declined. The effects
themselves live in abilities.py (`_options_<name>` lists the arguments, `_use_<name>` acts).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..contract import Action
from ..core import SetupError
from .types import BareAction, CharacterAction, Uses
from .voyage import AUTO, CLOSED_PHASES, Voyage

ANY_TIME = "any"
#: Window -> a few words on when it opens, for the log and the rules.
WINDOWS = {
    "before_appoint": "before the team is appointed",
    "after_appoint": "after the team is appointed",
    "after_reveal": "right after the guns are revealed",
    "before_draw": "before the navigation cards are drawn",
    "yellow_round": "at the end of a round in which a yellow card was revealed",
}
CAPTAIN_CARD = "captain"


@dataclass(frozen=True)
class Character:
    """One character card: its code, name, timing and what it does."""

    name: str
    title: str
    timing: str
    effect: str
    small_table: bool = True  # False: left out with 5–6 players


CHARACTERS: dict[str, Character] = {
    c.name: c
    for c in (
        Character("kleptomaniac", "Kleptomaniac", ANY_TIME, "steal 1 gun from a chosen player"),
        Character("gunslinger", "Gunslinger", ANY_TIME, "take 2 guns from the supply"),
        Character(
            "gunsmith",
            "Gunsmith",
            ANY_TIME,
            "discard 1 gun; after each successful mutiny get 1 of your raised guns back",
        ),
        Character(
            "look_out", "Look-out", ANY_TIME, "see the top navigation card; leave or discard it"
        ),
        Character(
            "mentor",
            "Mentor",
            ANY_TIME,
            "turn another player's used character face down again",
            small_table=False,
        ),
        Character(
            "herbalist", "Herbalist", "before_appoint", "move an off-duty sign to another player"
        ),
        Character(
            "consultant",
            "Consultant",
            "before_appoint",
            "you appoint the lieutenant; the captain appoints the navigator",
        ),
        Character(
            "minstrel",
            "Minstrel",
            "after_appoint",
            "choose 2 players who sit out the coming mutiny",
            small_table=False,
        ),
        Character(
            "agitator",
            "Agitator",
            "after_appoint",
            "choose 2 players who must raise at least 1 gun in the next mutiny",
        ),
        Character(
            "chief_cook",
            "Chief cook",
            "after_appoint",
            "the captaincy passes as with drunk; the new captain appoints a new team",
        ),
        Character(
            "debt_collector",
            "Debt collector",
            "after_appoint",
            "choose a team member, who gives 1 gun to each other team member",
            small_table=False,
        ),
        Character(
            "equalizer",
            "Equalizer",
            "after_appoint",
            "the next mutiny needs only 1 gun and each player may raise at most 1",
        ),
        Character(
            "troublemaker", "Troublemaker", "after_reveal", "a chosen player's guns count double"
        ),
        Character(
            "peacemaker", "Peacemaker", "after_reveal", "a chosen player's raised guns go back"
        ),
        Character(
            "master_strategist",
            "Master strategist",
            "after_reveal",
            "if you don't become captain, your raised guns come back",
        ),
        Character(
            "rabble_rouser", "Rabble-rouser", "after_reveal", "this mutiny needs only half the guns"
        ),
        Character(
            "instigator",
            "Instigator",
            "after_reveal",
            "a chosen player may add all their guns; if they don't, your card turns face down",
        ),
        Character("bosun", "Bosun", "before_draw", "swap the lieutenant and navigator"),
        Character(
            "smuggler", "Smuggler", "before_draw", "the captain or lieutenant draws 3 instead of 2"
        ),
        Character(
            "archivist",
            "Archivist",
            "before_draw",
            "the captain or lieutenant may discard their cards and draw 2 new",
        ),
        Character(
            "spiritualist",
            "Spiritualist",
            "yellow_round",
            "choose 2 players; each gives 1 gun to a player of your choice",
        ),
    )
}


def character_code(name: object) -> str | None:
    """The code of a character named `name` (code or printed name, any case), else None."""
    if not isinstance(name, str):
        return None
    code = name.strip().lower().replace(" ", "_").replace("-", "_")
    code = "look_out" if code == "lookout" else code
    return code if code in CHARACTERS or code == CAPTAIN_CARD else None


def character_pool(players: int) -> list[str]:
    """The characters in play for `players` (Debt collector, Minstrel, Mentor need 7+)."""
    return [name for name, card in CHARACTERS.items() if card.small_table or players >= 7]


def deal_characters(
    players: int, rng: random.Random, dealt: object, captain: int | None
) -> tuple[list[str], int, list[str]]:
    """Each seat's character, the first captain, and the characters left undealt.

    Dealt at random: players−1 characters plus the captain card; its holder (or `captain`)
    becomes captain and draws a fresh card. `dealt` stacks each seat's card; "captain" in it
    marks the first captain, who then draws a fresh card at random.
    """
    pool = character_pool(players)
    if dealt is None:
        rng.shuffle(pool)
        hands = [*pool[: players - 1], CAPTAIN_CARD]
        spare = pool[players - 1 :]
        rng.shuffle(hands)
        holder = hands.index(CAPTAIN_CARD)
        if captain is not None and captain != holder:
            hands[holder], hands[captain] = hands[captain], hands[holder]
            holder = captain
        hands[holder] = spare.pop(0)
        return hands, holder, spare
    codes = _check_dealt(dealt, players, pool)
    spare = [name for name in pool if name not in codes]
    if CAPTAIN_CARD in codes:
        holder = codes.index(CAPTAIN_CARD)
        rng.shuffle(spare)
        codes[holder] = spare.pop(0)
    else:
        holder = rng.randrange(players)
    return codes, holder if captain is None else captain, spare


def _check_dealt(dealt: object, players: int, pool: list[str]) -> list[str]:
    if not isinstance(dealt, list | tuple) or len(dealt) != players:
        raise SetupError(f"dealt_characters must name one character per seat ({players})")
    codes = [character_code(name) for name in dealt]
    for name, code in zip(dealt, codes, strict=True):
        if code is None:
            raise SetupError(f"there is no character called {name!r}")
        if code != CAPTAIN_CARD and code not in pool:
            raise SetupError(f"the {CHARACTERS[code].title} is left out with {players} players")
    if len(set(codes)) != len(codes):
        raise SetupError("each character card exists once")
    return [code for code in codes if code is not None]


class Characters(Voyage):
    """Windows in the round's flow and the `character` and `decline` actions."""

    def _step_before_appoint(self) -> None:
        self._open_window("before_appoint")

    def _step_after_appoint(self) -> None:
        self._open_window("after_appoint")

    def _step_after_reveal(self) -> None:
        self._open_window("after_reveal")

    def _step_before_draw(self) -> None:
        self._open_window("before_draw")

    def _step_yellow_round(self) -> None:
        self._open_window("yellow_round")

    def _open_window(self, window: str) -> None:
        if not self.characters_on:
            return
        pending = {
            seat
            for seat in self.living()
            if self._unused(seat) is not None
            and CHARACTERS[str(self.characters[seat])].timing == window
            and self.character_options(seat)
        }
        if pending:
            self.window, self.window_pending, self.phase = window, pending, "window"
            self.emit("window", f"A moment for characters {WINDOWS[window]}.", window=window)

    def _close_window_if_done(self) -> None:
        if self.phase == "window" and not self.window_pending:
            self.window, self.phase = None, AUTO

    def _unused(self, seat: int) -> str | None:
        """`seat`'s character if it may still be used (face down, seat on board), else None."""
        name = self.characters[seat]
        if name is None or self.character_used[seat] or seat in self.eliminated:
            return None
        return name

    def character_options(self, seat: int) -> list[Uses]:
        """The argument sets `seat`'s character could be used with, regardless of timing."""
        name = self._unused(seat)
        if name is None:
            return []
        options: list[Uses] = getattr(self, f"_options_{name}")(seat)
        return options

    def _why_not_now(self, seat: int, name: str) -> str | None:
        """Why `seat` cannot use its character `name` at this moment, or None if it can."""
        timing = CHARACTERS[name].timing
        if self.interrupt is not None:
            return "wait for the player who must answer first"
        if timing == ANY_TIME:
            if self.phase in CLOSED_PHASES:
                return "characters wait while a mutiny is being chosen or a navigation runs"
            return None
        if self.phase != "window" or self.window != timing or seat not in self.window_pending:
            return f"the {CHARACTERS[name].title} can only be used {WINDOWS[timing]}"
        return None

    def character_waits(self, seat: int) -> str | None:
        """Why `seat`'s character, face down and unused, cannot be used now (a sentence for its
        player), or None: it can be, or there is none to use."""
        name = self._unused(seat)
        if name is None:
            return None
        card = CHARACTERS[name]
        why = self._why_not_now(seat, name)
        if why is None and not self.character_options(seat):
            why = f"it has nothing to act on now ({card.effect})"
        return None if why is None else f"The {card.title} cannot be used now: {why}."

    def character_actions(self, seat: int) -> list[CharacterAction]:
        """Every `character` action `seat` may take now."""
        name = self._unused(seat)
        if name is None or self._why_not_now(seat, name) is not None:
            return []
        return [
            {"type": "character", "name": name, **options}
            for options in self.character_options(seat)
        ]

    def _character(self, seat: int, action: CharacterAction, now: float) -> None:
        name = action["name"]
        self.character_used[seat] = self.character_revealed[seat] = True
        self.window_pending.discard(seat)
        getattr(self, f"_use_{name}")(seat, action)
        self._close_window_if_done()
        self._advance()

    def _why_not_character(self, seat: int, action: Action) -> str | None:
        if not self.characters_on:
            return "this game is played without characters"
        name = action.get("name")
        if name is None or name != self.characters[seat]:
            return "you can only use the character card you hold"
        if self.character_used[seat]:
            return "you have already used your character"
        if seat in self.eliminated:
            return "you are no longer on board"
        assert isinstance(name, str)
        why = self._why_not_now(seat, name)
        if why is not None:
            return why
        uses = {key: value for key, value in action.items() if key not in ("type", "name")}
        if uses not in self.character_options(seat):
            card = CHARACTERS[name]
            return f"the {card.title} cannot do that ({card.effect})"
        return None

    def _decline(self, seat: int, action: BareAction, now: float) -> None:
        instigated = self.interrupt
        if instigated is not None:  # (the Instigator's chosen player keeps their guns)
            self._refuse_instigator(seat)
            return
        self.window_pending.discard(seat)
        self.emit("character_kept", "You keep your character for later.", (seat,), seat=seat)
        self._close_window_if_done()
        self._advance()

    def _why_not_decline(self, seat: int, action: Action) -> str | None:
        asking = self.interrupt
        if asking is not None and asking.kind == "instigate" and seat == asking.seat:
            return None
        if asking is not None or self.phase != "window" or seat not in self.window_pending:
            return "there is nothing for you to decline now"
        return None
