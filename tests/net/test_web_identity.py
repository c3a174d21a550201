"""Browser guests without accounts: the name form's checks and the cookie the server signs."""

from __future__ import annotations

import stat

import pytest

from tablegames.net.web_identity import (
    COOKIE_DAYS,
    CookieSigner,
    FormRefused,
    asked_name,
    load_cookie_key,
    name_refusal,
    new_guest,
)

KEY = b"k" * 32


def test_a_signed_guest_reads_back_as_itself():
    signer = CookieSigner(KEY)
    guest = new_guest("Ana", "guest-Ana", "party-1", now=1_000_000.0)
    assert signer.read(signer.sign(guest), now=1_000_100.0) == guest
    assert guest.holder == f"web:{guest.guest_id}" and len(guest.guest_id) >= 20


@pytest.mark.parametrize(
    "tamper",
    [
        lambda value: value[:-1] + ("A" if value[-1] != "A" else "B"),  # the signature
        lambda value: ("B" if value[0] != "B" else "C") + value[1:],  # the guest
        lambda value: value.split(".")[0],  # no signature
        lambda value: value + "." + value,
        lambda value: "",
        lambda value: "x" * 5000,
        lambda value: "%%%.###",
    ],
)
def test_a_cookie_changed_in_any_way_is_no_cookie(tamper):
    signer = CookieSigner(KEY)
    value = signer.sign(new_guest("Ana", "guest-Ana", "party-1", now=1_000_000.0))
    assert signer.read(tamper(value), now=1_000_000.0) is None


def test_a_cookie_signed_with_another_key_or_too_old_is_no_cookie():
    guest = new_guest("Ana", "guest-Ana", "party-1", now=1_000_000.0)
    value = CookieSigner(b"o" * 32).sign(guest)
    assert CookieSigner(KEY).read(value, now=1_000_000.0) is None
    ours = CookieSigner(KEY).sign(guest)
    too_late = 1_000_000.0 + COOKIE_DAYS * 86400 + 1
    assert CookieSigner(KEY).read(ours, now=too_late) is None


def test_a_cookie_names_the_party_that_let_its_guest_in():
    signer = CookieSigner(KEY)
    guest = new_guest("Ana", "guest-Ana", "party-1", now=1_000_000.0)
    read = signer.read(signer.sign(guest), now=1_000_000.0)
    assert read is not None and read.party == "party-1"


@pytest.mark.parametrize("typed", [None, "", "   ", "\x1b\x07\x00", "[]\\", "\u202e\u200d"])
def test_a_name_with_nothing_printable_is_refused_with_a_sentence(typed):
    with pytest.raises(FormRefused, match="Type the name you want to play under"):
        asked_name(typed)


def test_a_typed_name_is_cleaned_and_cut_to_a_name_s_length():
    assert asked_name("  ana\x1b[2J  [b]ell ") == "ana2J bell"
    assert len(asked_name("x" * 1000)) == 24


def test_a_name_an_ssh_key_holds_is_refused_to_a_browser():
    why = name_refusal("ben", "SHA256:abc")
    assert why is not None and "belongs to a player who joins with an SSH key" in why
    assert name_refusal("ben", None) is None


def test_the_cookie_key_is_made_owner_only_once_and_kept(tmp_path):
    path = tmp_path / "home" / "web_cookie_key"
    key = load_cookie_key(path)
    assert len(key) == 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_cookie_key(path) == key  # the same key: browsers' cookies survive a restart
    path.chmod(0o644)
    assert load_cookie_key(path) == key and stat.S_IMODE(path.stat().st_mode) == 0o600
    with pytest.raises(ValueError):
        CookieSigner(b"short")
