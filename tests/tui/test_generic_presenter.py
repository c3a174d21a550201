"""The generic screen's game flow, from legal actions alone: no app, no terminal, no Pilot."""

from __future__ import annotations

from tablegames.rules import Action, State
from tablegames.tui.screens.generic_presenter import OVER, GenericPresenter
from tablegames.tui.screens.generic_view import Words

VIEW: dict[str, object] = {}


def flow(ascii: bool = False) -> GenericPresenter:
    return GenericPresenter(Words(State, ["Sara", "Tom"]), ascii)


def bids(*amounts: int) -> list[Action]:
    return [{"type": "bid", "amount": amount} for amount in amounts]


def test_a_few_actions_are_listed_one_by_one_and_numbered():
    shown = flow()
    legal = [*bids(1, 2), {"type": "pass"}]
    assert shown.offer(legal)
    assert shown.labels(VIEW) == ["1. bid: amount 1", "2. bid: amount 2", "3. pass"]
    assert shown.choose(2) == {"type": "pass"}
    assert shown.choose(3) is None  # (no such choice)


def test_many_actions_of_a_kind_are_grouped_and_taken_in_two_steps():
    shown = flow(ascii=True)
    legal = [
        *[{"type": "play", "card": card, "at": at} for card in "ABCDE" for at in (1, 2)],
        {"type": "pass"},
    ]
    shown.offer(legal)
    labels = shown.labels(VIEW)
    assert labels[0] == "1. play: card A ... (2 ways)" and labels[-1] == "6. pass"
    assert len(labels) == 6
    assert shown.choose(1) is None and shown.choices == []  # B's two ways open
    assert shown.offer(legal)  # (made afresh: the group's members, then back)
    assert shown.labels(VIEW) == [
        "1. play: card B, at 1",
        "2. play: card B, at 2",
        "3. back to every choice",
    ]
    assert shown.choose(1) == {"type": "play", "card": "B", "at": 2}
    shown.choose(2)  # back
    shown.offer(legal)
    assert len(shown.choices) == 6


def test_the_tenth_choice_on_has_no_number_and_only_fields_that_hash_group():
    shown = flow()
    legal = [{"type": "take", "cards": [n]} for n in range(10)]  # (a list: no group)
    shown.offer(legal)
    labels = shown.labels(VIEW)
    assert len(labels) == 10 and labels[8].startswith("9. ") and labels[9] == "take: cards 9"


def test_the_list_is_made_afresh_only_when_the_actions_change_and_a_group_closes_then():
    shown = flow()
    legal = [{"type": "play", "card": card, "at": at} for card in "ABCDE" for at in (1, 2)]
    shown.offer(legal)
    assert not shown.offer(legal)  # the same actions: the list on the screen holds
    shown.choose(0)
    shown.offer(legal)
    assert shown.group == ("play", "card", "A")
    assert shown.offer(legal[2:])  # the table moved on: every choice again
    assert shown.group is None and len(shown.choices) == 8  # (eight fit: one by one)


def test_the_status_line_asks_to_choose_or_to_wait_and_a_refusal_stays_until_read():
    shown = flow()
    assert shown.prompt("Sara", ["Tom"]) == "Waiting for Tom."
    assert shown.prompt("Sara", []) == "Waiting for the table."
    shown.offer(bids(1))
    asked = shown.prompt("Sara", ["Sara"])
    assert asked == "Sara: choose an action (Enter)."
    assert shown.says(asked, "")
    assert shown.says(OVER, asked)  # a prompt gives way to the next
    assert not shown.says(asked, "x Not your turn.")  # a refusal stays
