"""Table talk: which games have structured claims, and the record a table keeps of each claim.

Talk belongs to the table, never to the engine: a game's vocabulary (a module its declaration
names, `Game.talk`: pure functions of one seat's view) says which claims exist and checks one
against its maker's view; the `Table` keeps the record, persists it through its claim
listeners, and shows every viewer all of it (claims are public) under the view's `talk` key. A
record is a plain dict:

- `n`: its place in the table's talk (0 first); `after`: how many game moves (the action log)
  came before it, so a replay shows it at its moment; `line`: how many public log events came
  before it, so a screen can put it in the log where it was said;
- `seat`, `claim` (as the vocabulary recorded it), `now` (table time), and `text`: the sentence
  people read, seats written `{0}` as in event texts.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module
from typing import Protocol

from .rules import Event, Game
from .rules.contract import Said

TALK_KEY = "talk"


class Vocabulary(Protocol):
    """What the table needs of a game's vocabulary (`Game.talk` names the module)."""

    MOMENTS: frozenset[str]

    def check(self, view: dict[str, object], claim: object) -> dict[str, object]: ...

    def sentence(self, seat: int, claim: dict[str, object]) -> str: ...


def vocabulary(game: Game) -> Vocabulary | None:
    """The claims module of `game` (`Game.talk`), or None if it has no structured talk."""
    if not game.talk:
        return None
    module: Vocabulary = import_module(game.talk)
    return module


def at_moment(vocab: Vocabulary | None, shown: Iterable[dict[str, object]]) -> bool:
    """True if the events a seat is `shown` with an update hold one of the vocabulary's moments
    (a card revealed, a search it made): the only times a talking bot is asked what it says,
    on the view that came with them. The table asks its own bots so, and `join --bot` its own:
    a bot says the same at a table here and over the network."""
    return vocab is not None and any(event.get("kind") in vocab.MOMENTS for event in shown)


def record(
    vocab: Vocabulary,
    n: int,
    after: int,
    line: int,
    seat: int,
    claim: dict[str, object],
    now: float,
) -> Said:
    """One talk record (see the module's docstring), its sentence included."""
    return {
        "n": n,
        "after": after,
        "line": line,
        "seat": seat,
        "claim": claim,
        "now": now,
        "text": vocab.sentence(seat, claim),
    }


def merged_log(log: Iterable[Event], talk: Iterable[Said]) -> list[Event]:
    """A view's log with its talk records put where they were said: after `line` public
    events (and the seat's private lines that followed them); each record becomes an event of
    kind `claim` for the log's readers."""
    pending = sorted(talk, key=lambda r: r["n"])
    merged: list[Event] = []
    public = 0

    def flush() -> None:
        while pending and pending[0]["line"] <= public:
            said = pending.pop(0)
            merged.append(
                {
                    "kind": "claim",
                    "text": said["text"],
                    "to": None,
                    "seat": said["seat"],
                    "claim": said["claim"],
                }
            )

    for event in log:
        if event.get("to") is None:  # a claim goes after the private lines that came before
            flush()
            public += 1
        merged.append(event)
    flush()
    merged.extend(
        {"kind": "claim", "text": r["text"], "to": None, "seat": r["seat"], "claim": r["claim"]}
        for r in pending
    )
    return merged


def last_claims(talk: Iterable[Said]) -> dict[int, Said]:
    """Each seat's latest talk record."""
    latest: dict[int, Said] = {}
    for said in talk:
        latest[said["seat"]] = said
    return latest
