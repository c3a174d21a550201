"""Ratings per player and game, read from finished games' results (openskill's Weng–Lin model).

Who placed where (`placings`): every seat plays for itself, ranked winners first and the others
by score (crates: the lowest total first; roach: its one loser last), or the teams the result
names win and lose together (crabs' teams, kraken's factions). A rating is shown as openskill's
ordinal, mu - 3 sigma: 0 for a newcomer, rising as they prove themselves.

Who a seat's player is (`sitters`), decided from who made its moves (each saved move names its
mover; the clock's `time` moves are nobody's):

- **A person is rated for a seat only if they made at least half of its moves.** A seat that
  bots made more than half of the moves of is rated as the bot that made the most of them (a
  stand-in for someone who walked away, the bot the host gave the seat to): the person earns
  nothing from it, nor loses anything. A seat where nobody made half its moves (two people and
  a bot, say), or two people exactly half each, is rated for nobody. A seat where nobody moved
  is rated as it was held: a bot's as the bot, a player's at this keyboard as them, a party
  guest's (or a seat nobody held at the end) for nobody.
- **A rating belongs to an owned identity**, never to a name alone: an SSH key or the lasting
  key `tablegames join` keeps and proves (`key:SHA256:...`, whatever name it plays under), a
  browser guest's cookie (`web:...`, a hash of its holder), or this keyboard (`here:NAME`: the
  names typed for a hot-seat game, as the name rules compare names, `SARA` is `Sara`). A person
  nothing proves (a client that offered no key, an SSH guest without a key) is rated for
  nobody: their seat is left out and the others are rated among themselves. So a name lent,
  released or typed at another door never adds a game to someone's rating, and two people of
  one name are two rows of `stats`.
- **Each bot seat is its own player**: the first seat of a level at a table is `normal bot`,
  the next `normal bot 2`, and so on in seat order, so no bot plays on both sides of a team
  game. One identity at two seats of a game (a key under two names) is rated at neither.

Games saved before movers were recorded count each move as the seat says: a bot's seat's as the
bot's, a hot-seat player's as theirs, a party guest's as nobody's (nothing proves who they were).

Ratings are derived data: `Book` applies games in the order given and nothing else (no clock,
no randomness), so the same games in the same order always give the same numbers. The store
keeps them (`Store.update_ratings`); a result this module cannot read is `Unreadable`.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .names import name_key

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

START_MU = 25.0  # openskill's defaults: a newcomer's skill, and how unsure of it we are
START_SIGMA = START_MU / 3
UNPROVEN = "unproven"  # the mover of a person nothing proves: rated for nobody
BOT = "bot:"  # a bot's mover, `bot:normal`; its identity at a table, `bot:normal` or `bot:normal:2`


class Unreadable(ValueError):
    """A result the ratings cannot read; its message says why, in a few words."""


# -- who moved ---------------------------------------------------------------------------------
def key_player(fingerprint: str) -> str:
    """The identity of whoever holds the key `fingerprint` (an SSH key, `join`'s key)."""
    return f"key:{fingerprint}"


def browser_player(holder: str) -> str:
    """The identity of a browser guest whose seats are held under `holder` (a hash of it: the
    ratings need it only to tell guests apart)."""
    return "web:" + hashlib.sha256(holder.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def local_player(name: str) -> str:
    """The identity of a player at this keyboard called `name` (as names compare)."""
    return f"here:{name_key(name)}"


def bot_mover(level: str) -> str:
    """The mover of a bot of `level`."""
    return f"{BOT}{level}"


def is_bot(identity: str) -> bool:
    return identity.startswith(BOT)


def bot_level(identity: str) -> str | None:
    """The level of a bot's mover or identity (`bot:normal:2`: normal); None for a person."""
    return identity.split(":")[1] if is_bot(identity) else None


def proven_by(identity: str) -> str:
    """What an identity rests on, in a few words (`stats` shows it)."""
    kind, _, rest = identity.partition(":")
    if kind == "key":
        return f"key {rest[:19]}"  # (as `ssh_types.short_fingerprint` writes a SHA256 one)
    return {"web": "browser cookie", "here": "this keyboard", "bot": "bot"}.get(kind, kind)


@dataclass(frozen=True)
class SeatRecord:
    """A seat of a finished game as the store keeps it: its name (None: nobody held it at the
    end, freed and never taken), the bot that held it at the end (if one did) and how many of
    its moves each mover made (None: a move saved before movers were recorded)."""

    seat: int
    name: str | None
    bot_level: str | None = None
    moves: Mapping[str | None, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Sitter:
    """A seat of a finished game and the player it is rated for: their identity and name."""

    seat: int
    identity: str
    name: str


def who_played(record: SeatRecord, here: bool) -> str | None:
    """The mover a seat is rated for, by the rule of the module's docstring (None: nobody);
    `here`: a game at this keyboard."""
    if record.bot_level is not None:
        held = bot_mover(record.bot_level)
    elif here and record.name is not None:
        held = local_player(record.name)
    else:
        held = UNPROVEN
    moves: Counter[str] = Counter()
    for mover, count in record.moves.items():
        moves[mover or held] += count
    total = sum(moves.values())
    if total == 0:
        return None if held == UNPROVEN else held
    people = [mover for mover, count in moves.items() if not is_bot(mover) and 2 * count >= total]
    if people:
        (person, *others) = people
        return None if others or person == UNPROVEN else person
    bots = sorted((count, mover) for mover, count in moves.items() if is_bot(mover))
    if 2 * sum(count for count, _ in bots) > total:
        return bots[-1][1]
    return None


def sitters(records: Sequence[SeatRecord], here: bool) -> list[Sitter]:
    """Each rated seat's player (seats rated for nobody left out), in seat order: bots named
    by level and seat of that level (`normal bot`, `normal bot 2`), people by their seat's
    name; one identity at two seats is rated at neither."""
    played = {record.seat: who_played(record, here) for record in records}
    seats_of = Counter(mover for mover in played.values() if mover is not None)
    bots_seen: Counter[str] = Counter()
    rated = []
    for record in sorted(records, key=lambda record: record.seat):
        mover = played[record.seat]
        if mover is None:
            continue
        level = bot_level(mover)
        if level is not None:
            bots_seen[level] += 1
            rated.append(Sitter(record.seat, *_bot_seat(level, bots_seen[level])))
        elif seats_of[mover] == 1:
            rated.append(Sitter(record.seat, mover, record.name or f"seat {record.seat + 1}"))
    return rated


def _bot_seat(level: str, number: int) -> tuple[str, str]:
    """The identity and name of the `number`th seat a bot of `level` plays at a table."""
    if number == 1:
        return bot_mover(level), f"{level} bot"
    return f"{bot_mover(level)}:{number}", f"{level} bot {number}"


@dataclass(frozen=True)
class Standing:
    """One identity's rating at one game: skill (mu, sigma), games played and won, and how
    much the rating moved in its last game."""

    name: str
    mu: float = START_MU
    sigma: float = START_SIGMA
    played: int = 0
    won: int = 0
    change: float = 0.0

    @property
    def rating(self) -> float:
        """openskill's ordinal: the skill it is 99.7% sure the player has."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Change:
    """What one game did to one seat's player: rating before and after, and whether they won."""

    seat: int
    identity: str
    won: bool
    before: float
    after: float


def _seats(value: object, players: int, what: str) -> list[int]:
    if value is None:
        raise Unreadable(f"it names no {what}")
    if not isinstance(value, list) or not all(
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players
        for seat in value
    ):
        raise Unreadable(f"its {what} are not seats of the table")
    return list(value)


def _teams(result: Mapping[str, object], players: int) -> list[list[int]]:
    if "teams" not in result:
        return [[seat] for seat in range(players)]
    teams = result["teams"]
    if not isinstance(teams, list) or not teams:
        raise Unreadable("its teams are not lists of seats")
    members = [_seats(team, players, "teams") for team in teams]
    if sorted(seat for team in members for seat in team) != list(range(players)):
        raise Unreadable("its teams do not hold every seat once")
    return [team for team in members if team]


def _direction(winners: list[int], scores: list[object]) -> int:
    """+1 when the winners scored the most, -1 the least, 0 when scores say nothing more."""
    numbers = [s for s in scores if isinstance(s, int | float) and not isinstance(s, bool)]
    if len(numbers) < len(scores):
        return 0  # a game's own short values ("out", "3 tricks")
    won = [numbers[seat] for seat in winners]
    lost = [score for seat, score in enumerate(numbers) if seat not in winners]
    if lost and min(won) >= max(lost) and max(won) > min(lost):
        return 1
    if lost and max(won) <= min(lost) and min(won) < max(lost):
        return -1
    return 0


def placings(result: object, players: int) -> list[tuple[int, list[int]]]:
    """The teams of a finished game with their ranks (0 the best; equal ranks are a tie):
    the winners' teams first, then the others by score, better scores first, the way the
    winners' scores show is better (crates: lower). Raises Unreadable."""
    if not isinstance(result, Mapping):
        raise Unreadable("it has no result")
    winners = _seats(result.get("winners"), players, "winners")
    if not winners:
        raise Unreadable("nobody won")
    scores = result.get("scores")
    if not isinstance(scores, list) or len(scores) != players:
        raise Unreadable("it has no score for each seat")
    direction = _direction(winners, scores)
    placed: list[tuple[int, list[int]]] = []
    losing: list[tuple[float, list[int]]] = []
    for team in _teams(result, players):
        won = [seat in winners for seat in team]
        if all(won):
            placed.append((0, team))
        elif any(won):
            raise Unreadable("a team both won and lost")
        else:
            score = float(scores[team[0]]) * direction if direction else 0.0
            losing.append((-score, team))
    if not placed or not losing:
        raise Unreadable("nobody lost" if placed else "nobody won")
    values = sorted({value for value, _ in losing})
    placed += [(1 + values.index(value), team) for value, team in losing]
    return placed


class Book:
    """Ratings of every identity at every game, as games are added one by one."""

    def __init__(self, standings: Mapping[tuple[str, str], Standing] | None = None) -> None:
        self.standings: dict[tuple[str, str], Standing] = dict(standings or {})
        self._model: PlackettLuce | None = None

    def standing(self, game: str, who: str) -> Standing:
        return self.standings.get((game, who)) or Standing(who)

    def add(
        self, game: str, players: int, sitters: Sequence[Sitter], result: object
    ) -> list[Change]:
        """Rate one finished game: each rated seat's change. Raises Unreadable, changing
        nothing (one identity at two seats too: `sitters` never seats one twice)."""
        known = {sitter.seat: sitter for sitter in sitters}
        if len({sitter.identity for sitter in known.values()}) < len(known):
            raise Unreadable("one player sat at two seats")
        placed = placings(result, players)
        sides = [(rank, [known[seat] for seat in team if seat in known]) for rank, team in placed]
        sides = [(rank, team) for rank, team in sides if team]
        if len(sides) < 2 or len({rank for rank, _ in sides}) < 2:
            raise Unreadable("fewer than two sides with known players")
        model = self._openskill()
        before = {s.identity: self.standing(game, s.identity) for _, team in sides for s in team}
        rated = model.rate(
            [
                [model.rating(before[s.identity].mu, before[s.identity].sigma) for s in team]
                for _, team in sides
            ],
            ranks=[float(rank) for rank, _ in sides],
        )
        winners = {seat for rank, team in placed if rank == 0 for seat in team}
        changes = []
        for (_, team), ratings in zip(sides, rated, strict=True):
            for sitter, after in zip(team, ratings, strict=True):
                old = before[sitter.identity]
                won = sitter.seat in winners
                new = replace(
                    old,
                    name=sitter.name,
                    mu=after.mu,
                    sigma=after.sigma,
                    played=old.played + 1,
                    won=old.won + won,
                )
                new = replace(new, change=new.rating - old.rating)
                self.standings[(game, sitter.identity)] = new
                changes.append(Change(sitter.seat, sitter.identity, won, old.rating, new.rating))
        return sorted(changes, key=lambda change: change.seat)

    def _openskill(self) -> PlackettLuce:
        """The model, imported the first time a game is rated (`stats` stays a light command)."""
        if self._model is None:
            from openskill.models import PlackettLuce

            self._model = PlackettLuce()
        return self._model
