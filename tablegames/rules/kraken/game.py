"""The Feed the Kraken state: setup, the contract hooks (legal, waiting, view, result), registry."""

from __future__ import annotations

import random
from collections import Counter
from typing import ClassVar

from ..contract import Action
from ..core import SetupError, get_game
from . import lookahead
from .abilities import Abilities
from .board import BOARDS, BOARDS_FOR_PLAYERS, START
from .cards import deck_cards, ritual_cards, stacked_top
from .characters import CHARACTERS, Characters, character_code, deal_characters
from .mutiny import Command
from .navigation import Navigation
from .rituals import SECRET_PHASES, Rituals
from .roles import (
    CULTIST,
    GROUPS,
    PIRATE,
    STARTING_GUNS,
    check_roles,
    deal_roles,
    first_knowledge,
    side,
)
from .secrets import Secrecy
from .silence import silence
from .types import (
    BareAction,
    KrakenAction,
    KrakenOwnView,
    KrakenPrivate,
    KrakenResult,
    KrakenView,
    MutinyView,
    Prompt,
)
from .voyage import AUTO, UpcomingMutiny


class KrakenState(Abilities, Characters, Rituals, Navigation, Command, Secrecy):
    """A game of Feed the Kraken in progress."""

    handlers: ClassVar[dict[str, str]] = {
        "appoint": "_appoint",
        "mutiny": "_mutiny",
        "tie_break": "_tie_break",
        "keep": "_keep",
        "redraw": "_redraw",
        "steer": "_steer",
        "jump": "_jump",
        "pick": "_pick",
        "telescope": "_telescope",
        "convert": "_convert",
        "stash": "_stash",
        "character": "_character",
        "decline": "_decline",
    }
    refusals: ClassVar[dict[str, str]] = {
        "appoint": "_why_not_appoint",
        "mutiny": "_why_not_mutiny",
        "tie_break": "_why_not_tie_break",
        "keep": "_why_not_keep",
        "redraw": "_why_not_redraw",
        "steer": "_why_not_steer",
        "jump": "_why_not_jump",
        "pick": "_why_not_pick",
        "telescope": "_why_not_telescope",
        "convert": "_why_not_convert",
        "stash": "_why_not_stash",
        "character": "_why_not_character",
        "decline": "_why_not_decline",
    }
    any_time = frozenset({"character"})  # (see `State.question`)

    def __init__(
        self,
        players: int,
        seed: int,
        board: str | None = None,
        characters: bool = True,
        roles: list[str] | None = None,
        deck: list[str] | None = None,
        dealt_characters: list[str] | None = None,
        captain: int | None = None,
        rituals: list[str] | None = None,
    ) -> None:
        super().__init__(players, random.Random(seed))
        board_name = _check_board(board, players)
        if characters not in (True, False):
            raise SetupError("characters must be true or false")
        if dealt_characters is not None and not characters:
            raise SetupError("dealt_characters needs characters on")
        if captain is not None and (
            not isinstance(captain, int) or isinstance(captain, bool) or not 0 <= captain < players
        ):
            raise SetupError(f"captain must be a seat from 0 to {players - 1}")
        self.board = BOARDS[board_name]
        self.factions = (
            check_roles(roles, players) if roles is not None else deal_roles(players, self.rng)
        )
        self.known = first_knowledge(self.factions)
        self.draw_pile = _stacked_pile(deck, deck_cards(board_name), "deck", self.rng)
        self.rituals = _stacked_pile(rituals, ritual_cards(), "rituals", self.rng)
        self.characters_on = bool(characters)
        self.captain_card = None
        self.spare_characters = []
        if self.characters_on:
            dealt, first, self.spare_characters = deal_characters(
                players, self.rng, dealt_characters, captain
            )
            self.characters = list[str | None](dealt)
            self.captain_card = first
        else:
            self.characters = [None] * players
            first = captain if captain is not None else self.rng.randrange(players)
        self._set_the_table(first)

    @classmethod
    def imagine(
        cls, view: KrakenView, rng: random.Random, roles: list[str], factions: list[str]
    ) -> KrakenState | None:
        """A quiet state for a bot's look-ahead at a captain's pick (see `lookahead`): the table
        as `view` shows it, the roles as a bot guesses them (`roles` as dealt, `factions` now),
        the unseen navigation cards shuffled from `rng`, no characters. None at any other moment,
        or for roles the table cannot have."""
        try:
            state = cls(
                view["players"],
                rng.getrandbits(32),
                board=view["board"],
                characters=False,
                roles=roles,
                captain=view["captain"],
            )
        except SetupError:
            return None
        state.game, state.quiet = get_game(view["game"]), True
        state.factions = list(factions)
        lookahead.copy_public(state, view)
        return state if lookahead.set_pick(state, view, rng) else None

    def copy(self, rng: random.Random | None = None) -> KrakenState:
        """A copy deep enough for a look-ahead's rollout (the chart and tables are shared),
        drawing from `rng` if given (else from the same generator as this state)."""
        copied = lookahead.rollout_copy(self)
        if rng is not None:
            copied.rng = rng
        return copied

    def _set_the_table(self, first_captain: int) -> None:
        players = self.players
        self.guns = [STARTING_GUNS] * players
        self.eliminated, self.tongueless, self.unconvertible = set(), set(), set()
        self.not_a = [[] for _ in range(players)]
        self.off_duty = set()
        self.resumes = [[] for _ in range(players)]
        self.ship = START
        self.discard_pile, self.rituals_used = [], []
        self.captain, self.lieutenant, self.navigator = first_captain, None, None
        self.crew = {"captain": None, "lieutenant": None, "navigator": None}
        self.character_used = [False] * players
        self.character_revealed = [False] * players
        self.gunsmiths = set()
        self.consultant = None
        self.upcoming = UpcomingMutiny()
        self.mutiny = None
        self.hands, self.kept, self.logbook = {}, {}, []
        self.smuggler_for = self.redraw_for = None
        self.revealed_card = None
        self.pick_reason = self.pick_seat = None
        self.window, self.window_pending, self.interrupt = None, set(), None
        self.peeks = [[] for _ in range(players)]
        self.agenda, self.phase, self.round = [], AUTO, 0
        self.winner = self.end_reason = None
        self._announce_roles()
        self._advance()

    def _announce_roles(self) -> None:
        pirates = [seat for seat, faction in enumerate(self.factions) if faction == PIRATE]
        for seat, faction in enumerate(self.factions):
            self.emit(
                "faction",
                f"You are a {faction.replace('_', ' ')}.",
                (seat,),
                seat=seat,
                faction=faction,
            )
            if faction == PIRATE:
                mates = [f"{{{other}}}" for other in pirates if other != seat]
                text = (
                    f"Your fellow pirates: {', '.join(mates)}."
                    if mates
                    else "You are the only pirate."
                )
                self.emit(
                    "pirates", text, (seat,), mates=[other for other in pirates if other != seat]
                )
            elif faction == CULTIST:
                self.emit("cult_unknown", "You do not know who the cult leader is.", (seat,))
            name = self.characters[seat]
            if name is not None:
                self.emit(
                    "character_dealt",
                    f"Your character is the {CHARACTERS[name].title}.",
                    (seat,),
                    character=name,
                )
        if self.captain_card is not None:
            self.emit(
                "first_captain",
                f"{{{self.captain}}} reveals the Captain card and takes command.",
                seat=self.captain,
                captain=self.captain,
            )
        else:
            self.emit(
                "first_captain",
                f"{{{self.captain}}} is the first captain.",
                seat=self.captain,
                captain=self.captain,
            )

    # -- the contract -------------------------------------------------------------------------
    def _waiting_for(self) -> frozenset[int]:
        if self.interrupt is not None:
            return frozenset((self.interrupt.seat,))
        phase = self.phase
        if phase == "window":
            return frozenset(self.window_pending)
        if phase in ("appoint", "emergency"):
            return frozenset((self.appointer(),))
        if phase == "mutiny" and self.mutiny is not None:
            return frozenset(set(self.mutiny.mutineers) - set(self.mutiny.choices))
        if phase == "tie_break":
            return frozenset((self.captain,))
        if phase == "navigation":
            return frozenset(self.hands)
        if phase == "steer" and self.navigator is not None:
            return frozenset((self.navigator,))
        if phase == "pick" and self.pick_seat is not None:
            return frozenset((self.pick_seat,))
        if phase in SECRET_PHASES:
            return frozenset((self.cult_leader(),))
        return frozenset()

    def _legal(self, seat: int) -> list[KrakenAction]:
        interrupt = self.interrupt
        if interrupt is not None:
            return self._interrupt_actions() if seat == interrupt.seat else []
        actions = self._phase_actions(seat) if seat in self._waiting_for() else []
        actions += self.character_actions(seat)
        if self.phase == "window" and seat in self.window_pending:
            actions.append({"type": "decline"})
        return actions

    def normal_form(self, action: Action) -> Action:
        """A character may be named as printed ("Look-out"), two targets and the stash's three
        recipients in any order (`legal` lists them in seat order)."""
        name = action.get("name")
        code = character_code(name) if action.get("type") == "character" else None
        lists = [key for key in ("targets", "recipients") if _seats(action.get(key))]
        if (code is None or code == name) and not lists:
            return action
        normal = {**action, "name": code} if code is not None else dict(action)
        for key in lists:
            normal[key] = sorted(action[key])
        return normal

    def _interrupt_actions(self) -> list[KrakenAction]:
        interrupt = self.interrupt
        assert interrupt is not None
        if interrupt.kind == "peek":
            return [{"type": "telescope", "choice": c} for c in ("keep", "discard")]
        if interrupt.kind == "instigate":
            total = self.instigated_total(interrupt.seat)
            return [{"type": "mutiny", "guns": total}, {"type": "decline"}]
        return [{"type": "pick", "target": target} for target in self.give_targets()]

    def _phase_actions(self, seat: int) -> list[KrakenAction]:
        phase = self.phase
        if phase in ("appoint", "emergency"):
            return [*self.appoint_options()]
        if phase == "mutiny":
            return [{"type": "mutiny", "guns": guns} for guns in self.gun_choices(seat)]
        if phase == "tie_break" and self.mutiny is not None:
            return [{"type": "tie_break", "target": target} for target in self.mutiny.tied]
        if phase == "navigation":
            keeps: list[KrakenAction] = [
                {"type": "keep", "card": c} for c in sorted(set(self.hands[seat]))
            ]
            return keeps + ([BareAction(type="redraw")] if seat == self.redraw_for else [])
        if phase == "steer":
            steers: list[KrakenAction] = [
                {"type": "steer", "card": c} for c in sorted(set(self.logbook))
            ]
            return [*steers, {"type": "jump"}]
        if phase == "pick":
            return [{"type": "pick", "target": target} for target in self.pick_targets()]
        if phase == "convert":
            return [{"type": "convert", "target": target} for target in self.convertible()]
        if phase == "stash":
            return [{"type": "stash", "recipients": r} for r in self.stash_options()]
        return []

    def _view(self, seat: int | None) -> KrakenOwnView:
        over = self.over
        return {
            "faction": self.factions[seat] if seat is not None else None,
            "known": {str(k): v for k, v in sorted(self.known[seat].items())}
            if seat is not None
            else {},
            "board": self.board.name,
            "map": self.board.chart(),
            "supply_line": sorted(self.board.supply_south or ()),
            "ship": self.ship,
            "round": self.round,
            "captain": self.captain,
            "lieutenant": self.lieutenant,
            "navigator": self.navigator,
            "off_duty": sorted(self.off_duty),
            "guns": list(self.guns),
            "resumes": [list(r) for r in self.resumes],
            "eliminated": sorted(self.eliminated),
            "tongueless": sorted(self.tongueless),
            "not_a": [list(cards) for cards in self.not_a],
            "unconvertible": sorted(self.unconvertible),
            "deck_size": len(self.draw_pile),
            "discard_size": len(self.discard_pile),
            "rituals_used": list(self.rituals_used),
            "rituals_left": len(self.rituals),
            "last_card": self.revealed_card,
            "characters": [
                name if shown else None
                for name, shown in zip(self.characters, self.character_revealed, strict=True)
            ],
            "characters_used": list(self.character_used),
            "captain_card": self.captain_card,
            "gunsmiths": sorted(self.gunsmiths),
            "phase": self.interrupt.kind if self.interrupt is not None else self.phase,
            "window": self.window,
            "pick": self.pick_reason,
            "mutiny": self._mutiny_view(),
            "upcoming": {
                "sit_out": sorted(self.upcoming.sit_out),
                "must_raise": sorted(self.upcoming.must_raise),
                "equalizer": self.upcoming.equalizer,
            },
            "private": self._private(seat),
            # Why this seat may not talk now (None: it may), public facts only.
            "silence": self.may_talk(seat) if seat is not None else None,
            "winner": self.winner,
            "roles": list(self.factions) if over else None,
        }

    def may_talk(self, seat: int) -> str | None:
        """Why `seat` may not talk now: the navigation, eyes closed, no tongue, off the ship
        (see `silence`); None once the game is over or when nothing forbids it."""
        return silence(seat, self.phase, self.over, self.eliminated, self.tongueless)

    def visible_waiting(self, seat: int | None) -> list[int]:
        """Who must act, except that nobody sees who acts with everyone's eyes closed or who
        holds a character that fits an open window."""
        waiting = self.waiting_for()
        if self.interrupt is None and (self.phase in SECRET_PHASES or self.phase == "window"):
            return [seat] if seat is not None and seat in waiting else []
        return sorted(waiting)

    def _mutiny_view(self) -> MutinyView | None:
        mutiny = self.mutiny
        if mutiny is None:
            return None
        raised = mutiny.raised
        return {
            "mutineers": list(mutiny.mutineers),
            "ready": sorted(mutiny.choices),
            "raised": None if raised is None else [raised.get(s) for s in range(self.players)],
            "threshold": self.mutiny_threshold(),
            "max_raise": mutiny.max_raise,
            "must_raise": sorted(mutiny.must_raise),
            "doubled": sorted(mutiny.doubled),
            "cancelled": sorted(mutiny.cancelled),
            "strategists": sorted(mutiny.strategists),
            "tied": list(mutiny.tied),
        }

    def _private(self, seat: int | None) -> KrakenPrivate:
        if seat is None:
            return {}
        mutiny, interrupt = self.mutiny, self.interrupt
        asking = interrupt if interrupt is not None and interrupt.seat == seat else None
        peek = asking.card if asking is not None else None
        steering = self.phase == "steer" and seat == self.navigator
        return {
            "prompt": self._prompt(seat),
            "character": self.characters[seat],
            "character_waits": self.character_waits(seat),
            "drawn": list(self.hands.get(seat, [])),
            "kept": self.kept.get(seat),
            "can_redraw": seat == self.redraw_for and seat in self.hands,
            "logbook": list(self.logbook) if steering else [],
            "peek": peek,
            # The Spiritualist chooses who receives whose gun: the givers go in the order named.
            "giver": asking.givers[0] if asking is not None and asking.givers else None,
            "peeks": [{**p, "cards": list(p["cards"])} for p in self.peeks[seat]],
            "mutiny_guns": (
                mutiny.choices.get(seat) if mutiny is not None and mutiny.raised is None else None
            ),
            "convertible": self.convertible()
            if self.phase == "convert" and seat == self.cult_leader()
            else [],
        }

    def _prompt(self, seat: int) -> Prompt | None:
        """What `seat` is being asked to do now (a phase name; "keep" while drawing), or None."""
        if seat not in self.waiting_for():
            return None
        phase = self.phase
        if self.interrupt is not None:
            return self.interrupt.kind
        if phase == "navigation":
            return "keep"
        return None if phase == "auto" or phase == "over" else phase

    def _result(self) -> KrakenResult:
        winners = [s for s, faction in enumerate(self.factions) if side(faction) == self.winner]
        sides = [[s for s, f in enumerate(self.factions) if side(f) == group] for group in GROUPS]
        return {
            "winner": self.winner,
            "winners": winners,
            "scores": [1 if seat in winners else 0 for seat in range(self.players)],
            "reason": self.end_reason,
            "roles": list(self.factions),
            "ship": self.ship,
            "teams": [seats for seats in sides if seats],  # a faction wins or loses together
        }


def _seats(value: object) -> bool:
    """True if `value` is a list of seat numbers (of ints, at least)."""
    return isinstance(value, list) and all(type(seat) is int for seat in value)


def _check_board(board: object, players: int) -> str:
    allowed = BOARDS_FOR_PLAYERS[players]
    if board is None:
        return allowed[0]
    if board not in allowed:
        raise SetupError(f"with {players} players the board is {' or '.join(allowed)}")
    assert isinstance(board, str)
    return board


def _stacked_pile(top: object, full: list[str], what: str, rng: random.Random) -> list[str]:
    """A shuffled pile (top card last) whose first cards may be stacked by `top` (top first)."""
    stacked = [] if top is None else stacked_top(top, full, what)
    rest = list((Counter(full) - Counter(stacked)).elements())
    rng.shuffle(rest)
    return list(reversed(stacked + rest))
