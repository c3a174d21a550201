"""How a bot thinks at a turn-based table, the same for every driver: the table's own
(`drivers.drive_bots`: a game on this machine, the server's bots) and `join --bot` over the
network (`net.join_bot.play_as_bot`).

- It thinks in a worker thread (`think`): a hard bot may take a second, and the event loop goes
  on meanwhile (screens, heartbeats, other tables).
- It thinks during its pace, not after it (`ready_at`): its answer goes `pace` seconds after
  the change it answers, or as soon as it is thought out if that takes longer. An answer thought
  out while the table changed is dropped; the bot thinks again about the table as it is.
- A call-out on another player's slip (`State.call_outs`: crates' Dope!) waits a fair moment
  after it became possible (`CallOuts`): meanwhile the bot answers among the rest, or waits.
- It speaks at the game's moments its seat is shown, on the view they came with
  (`talk.at_moment`; the table asks its own bots, `join --bot` asks its own).

So a bot seeded alike plays alike here and over the network, given the same views in turn.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from .rules import Action, Bot, View

#: A bot's call-out on another player's slip waits this many of the bots' paces after it became
#: possible: the player may mend the slip first, as the rules allow (1.5 s at the default pace;
#: at 0.5 s it was a race nobody could win).
FAIR_MOMENT = 3.0


class CallOuts:
    """When each call-out a bot could make became possible, so that it waits a fair moment.
    `kinds` are the game's call-outs (`State.call_outs`); times are the driver's clock."""

    def __init__(self, pace: float, kinds: frozenset[str]) -> None:
        self.wait = FAIR_MOMENT * pace
        self.kinds = kinds
        self.since: dict[tuple[int, str], float] = {}  # (seat, action) -> when first offered

    @staticmethod
    def _key(seat: int, action: Action) -> tuple[int, str]:
        return seat, repr(sorted(action.items()))

    def note(self, offers: Iterable[tuple[int, list[Action]]], now: float) -> None:
        """Note the call-outs the bots may make now, given each bot's seat and legal actions
        (and forget those they no longer may)."""
        offered = {
            self._key(seat, action)
            for seat, legal in offers
            for action in legal
            if action.get("type") in self.kinds
        }
        self.since = {key: self.since.get(key, now) for key in offered}

    def held(self, seat: int, action: Action, now: float) -> bool:
        """True if `action` is a call-out that must wait longer."""
        first = self.since.get(self._key(seat, action))
        return first is not None and now < first + self.wait

    def due(self) -> float | None:
        """When the first call-out held now may be made (None: none is held)."""
        return min((first + self.wait for first in self.since.values()), default=None)


async def think(
    bot: Bot, seat: int, view: View, legal: list[Action], call_outs: CallOuts, ready_at: float
) -> Action | None:
    """What `bot` in `seat` does about `view` (None: nothing now), thought in a worker thread.
    A call-out it may not make yet at `ready_at` gives way to what else it would do meanwhile
    (or nothing)."""
    action = await asyncio.to_thread(bot.choose, view, legal)
    if action is not None and call_outs.held(seat, action, ready_at):
        rest = [option for option in legal if option.get("type") not in call_outs.kinds]
        action = await asyncio.to_thread(bot.choose, view, rest) if rest else None
    return action
