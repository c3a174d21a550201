"""Factions and hidden roles: the role table, mutiny thresholds, off-duty counts, who knows whom."""

from __future__ import annotations

import random
from collections import Counter

from ..core import SetupError

SAILOR, PIRATE, CULT_LEADER, CULTIST = "sailor", "pirate", "cult_leader", "cultist"
FACTIONS = (SAILOR, PIRATE, CULT_LEADER, CULTIST)
CULT = "cult"
#: The three groups (the seed's گروه): what a cabin search shows, the flogging cards ("not a
#: ..."), and the sides that win. A cult leader and a cultist are both "cult".
GROUPS = (SAILOR, PIRATE, CULT)
#: The group of each faction, which is also the side it wins with.
SIDES = {SAILOR: SAILOR, PIRATE: PIRATE, CULT_LEADER: CULT, CULTIST: CULT}
FACTION_CARDS = GROUPS
#: How a log line says that someone belongs to a group ("{3} is in the cult").
GROUP_WORDS = {SAILOR: "is a sailor", PIRATE: "is a pirate", CULT: "is in the cult"}

#: Players -> (sailors, pirates, cultists at the start); there is always one cult leader.
ROLE_TABLE: dict[int, tuple[int, int, int]] = {
    5: (3, 2, 0),  # one of the five sailor/pirate roles is removed unseen
    6: (3, 2, 0),
    7: (4, 2, 0),
    8: (4, 3, 0),
    9: (5, 3, 0),
    10: (5, 4, 0),
    11: (5, 4, 1),
}
#: Players -> guns needed for a successful mutiny.
MUTINY_THRESHOLD = {5: 3, 6: 3, 7: 3, 8: 4, 9: 4, 10: 5, 11: 5}
#: Players -> which offices of a navigation receive the off-duty signs.
OFF_DUTY_OFFICES: dict[int, tuple[str, ...]] = {
    5: ("navigator",),
    6: ("navigator",),
    7: ("lieutenant", "navigator"),
    8: ("lieutenant", "navigator"),
    9: ("captain", "lieutenant", "navigator"),
    10: ("captain", "lieutenant", "navigator"),
    11: ("captain", "lieutenant", "navigator"),
}
STARTING_GUNS = 3


def side(faction: str) -> str:
    """The side `faction` wins with: sailor, pirate or cult."""
    return SIDES[faction]


def group(faction: str) -> str:
    """The group a search shows for `faction`: sailor, pirate or cult (never the cult's rank)."""
    return SIDES[faction]


def faction_card(faction: str) -> str:
    """The faction card a player of `faction` holds for flogging: sailor, pirate or cult."""
    return SIDES[faction]


def allowed_role_counts(players: int) -> list[Counter[str]]:
    """Every role mix the table allows for `players` (5 players: 3+1 or 2+2 plus the leader)."""
    sailors, pirates, cultists = ROLE_TABLE[players]
    mixes = (
        [(sailors, pirates)] if players != 5 else [(sailors, pirates - 1), (sailors - 1, pirates)]
    )
    return [Counter({SAILOR: s, PIRATE: p, CULT_LEADER: 1, CULTIST: cultists}) for s, p in mixes]


def deal_roles(players: int, rng: random.Random) -> list[str]:
    """A random role per seat; with 5 players one sailor or pirate role is removed unseen."""
    sailors, pirates, cultists = ROLE_TABLE[players]
    pool = [SAILOR] * sailors + [PIRATE] * pirates
    if players == 5:
        pool.pop(rng.randrange(len(pool)))
    roles = [*pool, CULT_LEADER] + [CULTIST] * cultists
    rng.shuffle(roles)
    return roles


def check_roles(roles: object, players: int) -> list[str]:
    """Validate stacked roles: one faction code per seat, in a mix the role table allows."""
    if not isinstance(roles, list | tuple) or len(roles) != players:
        raise SetupError(f"roles must list one faction per seat ({players})")
    for code in roles:
        if code not in FACTIONS:
            raise SetupError(f"unknown faction {code!r} (use {', '.join(FACTIONS)})")
    counts = Counter(roles)
    if not any(counts == +mix for mix in allowed_role_counts(players)):
        raise SetupError(f"those roles do not fit a {players}-player game")
    return list(roles)


def first_knowledge(roles: list[str]) -> list[dict[int, str]]:
    """What each seat knows of the others at the start: pirates know each other, nobody else."""
    pirates = [seat for seat, role in enumerate(roles) if role == PIRATE]
    known: list[dict[int, str]] = [{} for _ in roles]
    for seat in pirates:
        known[seat] = {other: PIRATE for other in pirates if other != seat}
    return known
