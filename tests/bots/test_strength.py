"""How the check's `bots` part judges a level against the one below (`testing/strength.py`):
its verdict in words, and a matchup that stops once the level is surely stronger."""

from __future__ import annotations

from tablegames.testing.strength import FEWEST_GAMES, STOPPING_Z, Matchup, matchup, wilson


def figures(won: float, games: int) -> Matchup:
    return Matchup("loveletter", "hard", "normal", 4, games, won, 1.0)


def test_the_verdict_says_whether_a_level_is_surely_stronger():
    assert figures(40, 100).verdict == "surely stronger"  # 0.40 (0.31-0.50)
    assert figures(30, 100).verdict.startswith("stronger, not surely")  # 0.30 (0.22-0.40)
    assert figures(25, 100).verdict == "no stronger"  # the fair share: not above it
    assert figures(10, 100).verdict == "surely weaker"  # 0.10 (0.06-0.17)
    assert figures(40, 100).stronger and figures(30, 100).stronger
    assert not figures(25, 100).stronger
    said = figures(30, 100).words()
    assert "won 0.30 of 100 games (95% 0.22-0.40; fair share 0.25): stronger, not surely" in said


def test_a_matchup_stops_once_its_level_is_surely_stronger():
    # Love Letter's `normal` wins about 0.45 against three `random` bots: surely stronger after
    # a few dozen deals, where a minute would play hundreds (the minute is the next one's); it
    # stops by a 99% interval (a 95% one, looked at after every game, is too often lucky).
    played = matchup("loveletter", "normal", "random", seconds=60)
    assert played.sure and FEWEST_GAMES <= played.games < 120, played.words()
    assert wilson(played.share, played.games, STOPPING_Z)[0] > 0.25, played.words()
    assert played.words().endswith(f"surely stronger, {played.seconds:.0f} s of CPU")
