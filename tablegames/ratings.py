"""Ratings per player and game, read from finished games' results (openskill's Weng–Lin model).

A result says who won (`placings`): every seat plays for itself, ranked winners first and the
others by score (crates: the lowest total first; roach: its one loser last), or the teams the
result names win and lose together (crabs' teams, kraken's factions). Who a seat is
(`identity`): a bot by its level ("normal bot"), anyone else by their name as the name rules
compare names (`Sara`, `SARA` and full-width `Ｓａｒａ` are one player). A rating is shown as
openskill's ordinal, mu - 3 sigma: 0 for a newcomer, rising as they prove themselves.

Ratings are derived data: `Book` applies games in the order given and nothing else (no clock,
no randomness), so the same games in the same order always give the same numbers. The store
keeps them (`Store.update_ratings`); a result this module cannot read is `Unreadable`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .names import name_key

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

START_MU = 25.0  # openskill's defaults: a newcomer's skill, and how unsure of it we are
START_SIGMA = START_MU / 3


class Unreadable(ValueError):
    """A result the ratings cannot read; its message says why, in a few words."""


def identity(name: str, bot_level: str | None) -> str:
    """Who sits in a seat, for the ratings: `normal bot`, or the player's name key."""
    return f"{bot_level} bot" if bot_level else name_key(name)


def shown_name(name: str, bot_level: str | None) -> str:
    """How a rating's owner is written: `normal bot`, or the name as the player wrote it."""
    return f"{bot_level} bot" if bot_level else name


@dataclass(frozen=True)
class Standing:
    """One identity's rating at one game: skill (mu, sigma), games played and won (a bot level
    at several seats of a game played it once, and won it if one of them won), and how much
    the rating moved in its last game."""

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
class Sitter:
    """A seat of a finished game and who sat there."""

    seat: int
    name: str
    bot_level: str | None = None

    @property
    def identity(self) -> str:
        return identity(self.name, self.bot_level)


@dataclass(frozen=True)
class Change:
    """What one game did to one seat's player: rating before and after, and whether they won."""

    seat: int
    identity: str
    won: bool
    before: float
    after: float


def _seats(value: Any, players: int, what: str) -> list[int]:
    if value is None:
        raise Unreadable(f"it names no {what}")
    if not isinstance(value, list) or not all(
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players
        for seat in value
    ):
        raise Unreadable(f"its {what} are not seats of the table")
    return list(value)


def _teams(result: Mapping[str, Any], players: int) -> list[list[int]]:
    if "teams" not in result:
        return [[seat] for seat in range(players)]
    teams = result["teams"]
    if not isinstance(teams, list) or not teams:
        raise Unreadable("its teams are not lists of seats")
    members = [_seats(team, players, "teams") for team in teams]
    if sorted(seat for team in members for seat in team) != list(range(players)):
        raise Unreadable("its teams do not hold every seat once")
    return [team for team in members if team]


def _direction(winners: list[int], scores: list[Any]) -> int:
    """+1 when the winners scored the most, -1 the least, 0 when scores say nothing more."""
    if not all(isinstance(s, int | float) and not isinstance(s, bool) for s in scores):
        return 0  # a game's own short values ("out", "3 tricks")
    won = [scores[seat] for seat in winners]
    lost = [score for seat, score in enumerate(scores) if seat not in winners]
    if lost and min(won) >= max(lost) and max(won) > min(lost):
        return 1
    if lost and max(won) <= min(lost) and min(won) < max(lost):
        return -1
    return 0


def placings(result: Mapping[str, Any], players: int) -> list[tuple[int, list[int]]]:
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
        self, game: str, players: int, sitters: Sequence[Sitter], result: Mapping[str, Any]
    ) -> list[Change]:
        """Rate one finished game: each seat's change (its player's rating moved once per game,
        by the mean of their seats' moves, when one identity held several: bots of a level).
        Raises Unreadable, changing nothing."""
        known = {sitter.seat: sitter for sitter in sitters}
        sides = [
            (rank, [known[seat] for seat in team if seat in known])
            for rank, team in placings(result, players)
        ]
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
        moves: dict[str, list[tuple[float, float]]] = {}
        for (_, team), ratings in zip(sides, rated, strict=True):
            for sitter, after in zip(team, ratings, strict=True):
                moves.setdefault(sitter.identity, []).append((after.mu, after.sigma))
        winners = set(result["winners"])
        changes = []
        for who, seats_moves in moves.items():
            old = before[who]
            mu = old.mu + sum(mu - old.mu for mu, _ in seats_moves) / len(seats_moves)
            sigma = sum(sigma for _, sigma in seats_moves) / len(seats_moves)
            mine = [s for _, team in sides for s in team if s.identity == who]
            new = replace(
                old,
                name=shown_name(mine[-1].name, mine[-1].bot_level),
                mu=mu,
                sigma=sigma,
                played=old.played + 1,
                won=old.won + any(s.seat in winners for s in mine),
            )
            new = replace(new, change=new.rating - old.rating)
            self.standings[(game, who)] = new
            changes += [
                Change(s.seat, who, s.seat in winners, old.rating, new.rating) for s in mine
            ]
        return sorted(changes, key=lambda change: change.seat)

    def _openskill(self) -> PlackettLuce:
        """The model, imported the first time a game is rated (`stats` stays a light command)."""
        if self._model is None:
            from openskill.models import PlackettLuce

            self._model = PlackettLuce()
        return self._model
