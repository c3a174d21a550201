"""When Feed the Kraken's players may not talk, and why: the game's answer to `may_talk`.

The seed forbids words in three cases, and the table keeps all three for chat and claims alike:

- During the navigation «هیچکس نباید با علامت یا حرف به دیگری راهنمایی بدهد» ("nobody may
  guide another by sign or word"), until the card is revealed («بعد از رو شدن کارت نهایی، همه
  میتوانند ... حرف بزنند», "after the final card is revealed everyone may talk"): the cards
  going round (``navigation``), the navigator choosing (``steer``) and, after a jump, the
  captain naming an emergency navigator (``emergency``): the navigation is not over, its cards
  are drawn again at once, and a word then could steer them.
- While everyone's eyes are closed for the cult leader (``convert``, ``stash``): the seed has the
  leader act «پنهانی» ("secretly"); a word from the table would tell whose eyes were open.
- «بریدن زبان: بازیکن دیگر نمیتواند حرف بزند» ("off with the tongue: that player can no
  longer speak"), and a player fed to the Kraken or gone overboard is off the ship: «از بازی حذف
  میشود» ("leaves the game").

Once the game is over everyone may talk again. Pure and stdlib-only: the engine asks it with
its own facts, and the claims vocabulary with a view's (the same public facts).
"""

from __future__ import annotations

from collections.abc import Collection

#: Phases in which nobody at the table may talk, with the sentence a player is shown.
SILENT_PHASES = {
    "navigation": "nobody may talk or signal while the navigation cards go round",
    "steer": "nobody may talk or signal while the navigator chooses",
    "emergency": "nobody may talk or signal until the emergency navigation is revealed",
    "convert": "everyone's eyes are closed: nobody may talk",
    "stash": "everyone's eyes are closed: nobody may talk",
}
TONGUELESS = "you have no tongue: you cannot talk, only gesture"
OFF_THE_SHIP = "you were fed to the Kraken or went overboard: you take no further part"


def silence(
    seat: int,
    phase: str,
    over: bool,
    eliminated: Collection[int],
    tongueless: Collection[int],
) -> str | None:
    """Why `seat` may not talk now (None: it may), from the table's public facts."""
    if over:
        return None
    if seat in eliminated:
        return OFF_THE_SHIP
    if seat in tongueless:
        return TONGUELESS
    return SILENT_PHASES.get(phase)
