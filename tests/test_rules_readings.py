"""Where a seed reads two ways, players are told how this table reads it (the rules text, the
in-app help and `tablegames rules`), and the game's module docstring quotes the seed sentence."""

from __future__ import annotations

from importlib import import_module

import pytest
from typer.testing import CliRunner

from tablegames.cli import app
from tablegames.rulebook import rules_text

HEADING = "## How this table reads the rules"
#: game -> (module whose docstring quotes the seed, [(what players read, seed words quoted)])
READINGS = {
    "crates": (
        "tablegames.rules.crates",
        [
            ("A 3 cancels before it scores −50.", "માત્ર 3 જ બાકી હોય"),
            ("A 7 is a draw, not a skip.", "આગલો ખેલાડી કાર્ડ દોરે છે"),
            ('A late "Crates!" counts.', "પ્રતિસ્પર્ધી તે ખેલાડીને મૂર્ખ કહીને"),
            ("Suit or rank, not colour.", "એક જ પોશાક અથવા રંગનું કાર્ડ રમવું જોઈએ"),
            ("A dealt single card owes no", "માત્ર એક જ કાર્ડ બાકી હોય"),
        ],
    ),
    "roach": (
        "tablegames.rules.roach",
        [
            ("A penalty card goes face up in front of you", "همچنین آن را به رو در مقابل خود"),
            ("A special card from the penalty pile goes to your hand", "به دست خود اضافه"),
            ("whoever has collected the most cards loses", "کارتهای بیشتری جمع کرده باشد"),
            ("Passing without looking is allowed.", "میتواند یک نگاه سریع به کارت بکند"),
        ],
    ),
    "kraken": (
        "tablegames.rules.kraken",
        [
            ("The characters come from the published game", "اثرها کوچک ولی تعیینکنندهاند"),
            ("Only a mutineer who raised a gun can take command.", "و کاپیتان هم نمیشود"),
            ("The mermaid and the telescope go to another player", "پری دریایی: کاپیتان یک نفر"),
        ],
    ),
    "crabs": (
        "tablegames.rules.crabs",
        [
            ("Several signals:", "یا از چندین سیگنال استفاده کنید"),
            ("A misleading signal", "یک سیگنال گمراهکننده"),
            ("The signal is fixed once play begins:", "رقیبانتان نمیتوانند آن را ببینند"),
            ("A call made at once with another is void:", "حل و فصل شد، بازی ادامه پیدا میکند"),
            ("one second exactly still counts", "نهایتاً در فاصله 1 ثانیه ای"),
        ],
    ),
}


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("game", sorted(READINGS))
def test_each_reading_is_told_to_players_and_quoted_from_the_seed(game):
    module, readings = READINGS[game]
    text = flat(rules_text(game))
    section = text[text.index(flat(HEADING)) :]
    docstring = flat(import_module(module).__doc__ or "")
    for told, quoted in readings:
        assert told in section, told
        assert flat(quoted) in docstring, quoted


@pytest.mark.parametrize("game", sorted(READINGS))
def test_tablegames_rules_prints_the_section(game):
    result = CliRunner().invoke(app, ["rules", game], env={"COLUMNS": "100"})
    assert result.exit_code == 0 and "How this table reads the rules" in result.output
