"""Names and chat lines are cleaned of terminal tricks and compared as people read them."""

from __future__ import annotations

from tablegames.names import (
    clean_name,
    clean_text,
    look_alike_key,
    look_alike_problem,
    looks_like_bot,
    looks_like_guest,
    mixed_scripts,
    name_key,
)


def test_escape_sequences_and_format_characters_never_reach_another_terminal():
    assert clean_text("hi\x1b[2J\x07 there", 50) == "hi2J there"
    assert clean_name("ben\u202eevil") == "benevil"  # a right-to-left override
    assert clean_name("a\u200bb") == "ab"  # zero-width space
    assert clean_text("[bold red]loud[/]", 50) == "bold redloud/"
    assert clean_text("line\u2028break\nnext", 50) == "line break next"


def test_names_are_one_name_whatever_the_case_or_width():
    assert name_key("Ben") == name_key("BEN") == name_key("ｂｅｎ") == name_key(" ben ")
    assert name_key("Ben") != name_key("Bea")


def test_names_are_cut_to_a_readable_length():
    assert len(clean_name("x" * 100)) == 24


# -- look-alikes (issue 39, finding 6) ------------------------------------------------------------
def test_names_that_look_the_same_have_one_look_alike_key():
    assert look_alike_key("Аlice") == look_alike_key("alice")  # a Cyrillic А
    assert look_alike_key("a1ice") == look_alike_key("alice") == look_alike_key("AIice")
    assert look_alike_key("guest‐bob") == look_alike_key("guest-bob")  # U+2010 HYPHEN
    assert look_alike_key("ｂｏｂ") == look_alike_key("Bob")
    assert look_alike_key("Ben") != look_alike_key("Bea")


def test_a_name_mixing_scripts_is_refused_but_a_name_in_one_is_fine():
    for mixed in ("Аlice", "gueѕt-bob", "Bоt 2", "Ζoe"):
        assert mixed_scripts(mixed), mixed
    for fine in (
        "ana🂡", "Zoë", "O'Brien", "Jean-Luc 2", "Сергей", "Ελένη", "山田たろう", "김민준",
        "Tanaka太郎", "Z\u0301oe", "🐙🦀",
    ):  # fmt: skip
        assert not mixed_scripts(fine), fine


def test_look_alikes_of_guests_and_bots_are_theirs_too():
    for guest in ("guest-bob", "Guest-Bob", "guest‐bob", "gueѕt-bob", "ɡuest-bob"):
        assert looks_like_guest(guest), guest
    assert not looks_like_guest("guestbook") and not looks_like_guest("guest")
    for bot in ("Bot 2", "BOT 12", "Bоt 2", "Bot l2", "Bot ２"):
        assert looks_like_bot(bot), bot
    for person in ("Botany", "Bot", "Bob 2", "Robot 2"):
        assert not looks_like_bot(person), person


def test_why_a_name_could_be_taken_for_someone_elses():
    assert "mixes" in (look_alike_problem("Аlice", ["alice"]) or "")
    assert look_alike_problem("a1ice", ["bob", "alice"]) == "a1ice looks like alice"
    assert look_alike_problem("guest‐bob") == "guest‐bob looks like a guest's name"
    assert look_alike_problem("Bot l2") == "Bot l2 looks like a bot's name"
    # The same name is not a look-alike (whose it is, the doors' own rules say)...
    assert look_alike_problem("ALICE", ["alice"]) is None
    assert look_alike_problem("guest-bob") is None and look_alike_problem("Bot 2") is None
    # ...and a name in one script is only refused beside one it looks like.
    assert look_alike_problem("Сергей", ["alice"]) is None
    assert look_alike_problem("ana🂡", ["ana"]) is None
