"""Whole games on a phone, by taps on what its screen shows: one move a call, per game.

Each `*_move(phone, screen, done)` looks at the screen, taps what a player would (a question's
answer, a card, a button, a key of the footer), counts in `done` the kind of move it made, and
returns True if it tapped anything. They play to the end; `KINDS` lists every kind of move a
whole game must have made by taps."""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable

from .phone import OVER, Phone

#: A question over the table: its options and its Back (`tui/screens/dialogs.py`).
QUESTION = "Back (Esc)"
OPTION = re.compile(r"\[(\w)\] ")


def status(screen: str) -> str:
    """The status line, over the footer."""
    lines = [line for line in screen.splitlines() if line.strip()]
    return lines[-2] if len(lines) > 1 else ""


def footer(screen: str) -> str:
    lines = [line for line in screen.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def options(screen: str) -> list[tuple[int, int, str]]:
    """The options of the question on screen: (column, row, label) of each `[k] label` inside
    the question's box (drawn with █: a chart's `[S]` is no option)."""
    found = []
    for row, line in enumerate(screen.splitlines()):
        left, right = line.find("█"), line.rfind("█")
        for match in OPTION.finditer(line):
            if left < match.start() < right:
                label = line[match.end() : right].strip()
                found.append((match.start(), row, label))
    return found


def tap_option(phone: Phone, screen: str, choose: Callable[[str], bool] = lambda _: True) -> str:
    """Tap the first option whose label `choose` likes (else the first); its label."""
    offered = options(screen)
    assert offered, f"no options to tap:\n{screen}"
    column, row, label = next((o for o in offered if choose(o[2])), offered[0])
    phone.tap_cell(column + 1, row)
    return label


#: The buttons that close what a screen shows for a moment: a round's scores, a peek.
CLOSE = ("Next round (n)", "The final standings (n)", "Pass it on (Enter)", "Pass on (Enter)")


#: The rules, and the question to leave, opened by a tap that reached the footer's Help or
#: Quit as its keys moved under the finger (a footer's keys change with the moment): closed
#: by a tap, as a person would.
RULES = ": rules and keys"
LEAVING = "Leave this table?"


def close_shown(phone: Phone, screen: str, done: Counter[str]) -> bool:
    """Close a round's scores or a peek, if one is up (it comes before anything), or the
    rules or the question to leave a stray tap opened; True if one is up (a tap while it settles is
    not taken: the next look taps again)."""
    if RULES in screen:
        if phone.tap_if_shown("Back"):
            done["rules closed"] += 1
        return True
    if LEAVING in screen:
        if phone.tap_if_shown("Keep playing"):
            done["stayed"] += 1
        return True
    shown = next((button for button in CLOSE if button in screen), None)
    if shown is not None and phone.tap_if_shown(shown):
        done["summary"] += 1
    if shown is None and "rules and keys" in screen.split("\n", 1)[0]:
        # The rules, opened by a tap that landed on Help as the footer moved under it (a
        # person taps Back): nothing is played or said over them.
        return phone.tap_if_shown("Back") or True
    if shown is None and "Leave this table?" in screen:  # (a tap that landed on Quit so)
        return phone.tap_if_shown("Keep playing") or True
    return shown is not None


def answer_question(phone: Phone, screen: str, done: Counter[str]) -> bool:
    """Answer a question that is up (any game); True if it did."""
    if QUESTION in screen and options(screen):
        tap_option(phone, screen)
        done["answer"] += 1
        return True
    return False


def wait_changed(phone: Phone, screen: str, seconds: float = 5.0) -> str:
    """The screen once it is no longer `screen` (or after `seconds`)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        now = phone.screen()
        if now != screen:
            return now
        time.sleep(0.1)
    return phone.screen()


# -- crates ----------------------------------------------------------------------------------
def hand_cards(screen: str) -> list[tuple[int, int, bool]]:
    """(column, row) on each numbered card in the crates hand on screen (its number's column,
    its suit's row: a tap there picks it, however the cards overlap), and whether it looks
    playable (no × under it)."""
    lines = screen.splitlines()
    tops = [row for row, line in enumerate(lines) if "Your hand" in line]
    if not tops:
        return []
    numbered = tops[-1] + 1
    below = []
    for line in lines[numbered + 1 :]:
        if line.startswith("╰"):  # (the hand box's bottom)
            break
        below.append(line)
    suits = numbered + len(below) - 2  # (the rows below the numbers: tops, faces, bottoms)
    cards = []
    for found in re.finditer(r"\d", lines[numbered]):
        column = found.start()
        marked = any("×" in line[column - 2 : column + 3] for line in below)
        cards.append((column, suits, not marked))
    return cards


PLAYS = re.compile(r"again to play it")  # a picked card that fits: "Tap 7♣ again to play it"


def play_a_card(phone: Phone, screen: str, done: Counter[str]) -> bool:
    """Pick cards by taps (those that look playable first) until one says it plays, and tap it
    again to play it; a draw if none does."""
    cards = sorted(hand_cards(screen), key=lambda card: not card[2])
    if "Nothing fits" in status(screen):
        cards = []  # (the screen says so: a draw)
    for column, row, _ in cards:
        for _ in range(2):  # (a tap the moment the turn came is not taken: a person taps again)
            phone.tap_cell(column, row)  # picks it...
            deadline = time.monotonic() + 2  # (the hand and the line under it come apart)
            now = phone.screen()
            while not PLAYS.search(now) and time.monotonic() < deadline:
                if "your turn" not in now or QUESTION in now:
                    return True  # (the turn went on meanwhile, or the tap played it: a suit?)
                time.sleep(0.1)
                now = phone.screen()
            if PLAYS.search(now):
                phone.tap_cell(column, row)  # ...and plays it
                done["play"] += 1
                return True
            if status(now) != status(screen):  # (it was taken, and does not fit)
                break
    if phone.tap_if_shown("Draw"):
        done["draw"] += 1
    return True


def back_out(phone: Phone, done: Counter[str]) -> bool:
    """Tap the question's Back (once a game): what a stray tap opened closes, at no cost."""
    if phone.tap_if_shown(QUESTION):
        done["back"] += 1
    return True


def crates_move(phone: Phone, screen: str, done: Counter[str]) -> bool:
    if "Name a suit" in screen and QUESTION in screen and done["back"] == 0:  # (the 8 stays)
        return back_out(phone, done)
    if ("Name a suit" in screen or "yours to name" in screen) and options(screen):
        tap_option(phone, screen)
        done["name a suit"] += 1
        return True
    if "Name a suit for the turned-up" in screen:  # (its question closed: Play asks again)
        return phone.tap_if_shown("Play")
    if "Call Dope! on whom?" in screen:
        tap_option(phone, screen)
        done["dope"] += 1
        return True
    if answer_question(phone, screen, done):
        return True
    if "your turn" not in screen:
        if "Dope!" in footer(screen) and done["dope tried"] < 2:
            if phone.tap_if_shown("Dope!"):  # (a bot that forgot to say Crates!, or the refusal)
                done["dope tried"] += 1
            return True
        return False
    cards = hand_cards(screen)
    if len(cards) == 2 and done["crates"] < 3 and "Crates!" in footer(screen):
        if phone.tap_if_shown("Crates!"):  # two cards: say it with the play
            done["crates"] += 1
        screen = wait_changed(phone, screen, 2)
    return play_a_card(phone, screen, done)


# -- roach -----------------------------------------------------------------------------------
CHIP = re.compile(r"\[?(\d+) ([a-z][a-z ]*?[a-z])(?: ×\d+)?\]?(?=\s{2}|\s*│)")


def hand_chips(screen: str) -> list[tuple[int, int, str]]:
    """(column, row, card) of each kind of card in the roach hand on screen."""
    lines = screen.splitlines()
    tops = [row for row, line in enumerate(lines) if "hand (" in line and "card" in line]
    chips = []
    for row in range(tops[-1] + 1 if tops else len(lines), len(lines)):
        if lines[row].startswith(("╰", "+")):
            break
        for found in CHIP.finditer(lines[row]):
            chips.append((found.start(2), row, found.group(2)))
    return chips


def roach_move(phone: Phone, screen: str, done: Counter[str]) -> bool:
    keys = footer(screen)
    if "to whom?" in screen and QUESTION in screen and done["back"] == 0:
        return back_out(phone, done)  # (the card stays in hand)
    if "(a bluff)" in screen and QUESTION in screen:  # (the title may wrap; its options not)
        bluff = done["claim"] % 2 == 0  # a bluff, then the truth, in turn
        said = tap_option(phone, screen, lambda label: ("bluff" in label) == bluff)
        done["claim"] += 1
        done["bluff" if "bluff" in said else "true claim"] += 1
        return True
    if answer_question(phone, screen, done):
        return True
    if "Mark" in keys or "Lay out" in keys:  # (the log's "lays out" is somebody else's)
        return roach_lay_out(phone, screen, done)
    if "Pass on" in keys and done["pass"] <= done["judge"]:
        if phone.tap_if_shown("Pass on"):  # (then: look first or not, to whom, the claim)
            done["pass"] += 1
        return True
    if "True" in keys and "False" in keys:
        if phone.tap_if_shown("True" if done["judge"] % 2 else "False"):
            done["judge"] += 1
        return True
    if "Offer" in keys:
        chips = hand_chips(screen)
        if chips:  # a card of its own choosing: a tap picks it, a second offers it
            column, row, _ = chips[done["offer"] % len(chips)]
            phone.tap_cell(column, row)
            wait_changed(phone, screen, 2)
            phone.tap_cell(column, row)
        else:
            phone.tap_if_shown("Offer")
        done["offer"] += 1
        return True
    return False


MARKED = re.compile(r"Marked: (.+?)\. Press l")
TAKEN = re.compile(r"takes the (\w+) into their hand")
HAND_SIZE = re.compile(r"Your hand \((\d+) cards?\)")


def roach_lay_out(phone: Phone, screen: str, done: Counter[str]) -> bool:
    """Mark two cards with taps (any two will do; the only other one, if that is all), not the
    special card just taken, then Lay out."""
    marked = MARKED.search(screen)
    names = marked.group(1).split(" and ") if marked else []
    held = HAND_SIZE.search(screen)
    need = 1 if held and int(held.group(1)) <= 2 else 2
    if len(names) >= need:
        if phone.tap_if_shown("Lay out"):
            done["lay out"] += 1
        return True
    taken = TAKEN.findall(screen)
    chips = [chip for chip in hand_chips(screen) if not taken or chip[2] != taken[-1]]
    fresh = [chip for chip in chips if chip[2] not in names] or chips
    if not fresh:
        return False
    column, row, _ = fresh[0]
    phone.tap_cell(column, row)
    done["mark"] += 1
    return True


# -- crabs -----------------------------------------------------------------------------------
HAND_CARD = re.compile(r"│\s+([asdf]) (\S[^│]*?)\s*│")
OCEAN_CARD = re.compile(r"│\s+([jkl;]) (\S[^│]*?)\s*│")
GESTURE = re.compile(r"\b(\d) ([a-z]+)(\*?)")


def crabs_cards(screen: str, pattern: re.Pattern[str]) -> list[tuple[int, int, str]]:
    """(column, row, name) of the cards a row shows (names cut to six letters: a narrow
    screen cuts them, differently in the hand and the ocean)."""
    return [
        (found.start(2) + 1, row, found.group(2)[:6])
        for row, line in enumerate(screen.splitlines())
        for found in pattern.finditer(line)
    ]


def crabs_move(phone: Phone, screen: str, done: Counter[str]) -> bool:
    if "huddle" in screen and "Pick" in footer(screen):
        if phone.tap_if_shown("Pick"):  # agree with the team's pick
            done["signal"] += 1
        return True
    if "Double crab!" in screen and QUESTION in screen:
        tap_option(phone, screen)
        done["double crab"] += 1
        return True
    if "on whom?" in screen and QUESTION in screen:
        if done["back"] == 0:  # the stray tap on Accuse: back out of it, at no cost
            return back_out(phone, done)
        tap_option(phone, screen, lambda label: "your partner" in label)
        done["accuse"] += 1
        return True
    if answer_question(phone, screen, done):
        return True
    if "swap? y / n" in screen and "Yes (y)" in screen:
        said = "No (n)" if done["no"] < done["yes"] else "Yes (y)"
        if phone.tap_if_shown(said):
            done["no" if said.startswith("No") else "yes"] += 1
        return True
    if "made your signal!" in screen or done["back"] == 0:  # the partner shows four
        return phone.tap_if_shown("Accuse")
    hand = crabs_cards(screen, HAND_CARD)
    ocean = crabs_cards(screen, OCEAN_CARD)
    kinds = Counter(name for _, _, name in hand)
    if hand and len(kinds) == 1 and done["team signal"] <= done["swap"]:  # four: signal
        return crabs_gesture(phone, screen, done, signal=True)
    if ("Swap:" in screen or "lay your hand down" in screen) and hand and ocean:
        wanted = kinds.most_common(1)[0][0]
        take = next((card for card in ocean if card[2] == wanted), None)
        give = next((card for card in hand if card[2] != wanted), None)
        if take is not None and give is not None:
            phone.tap_cell(give[0], give[1])
            phone.tap_cell(take[0], take[1])
            done["swap"] += 1
            return True
    if done["gesture"] <= done["swap"] // 3 and crabs_gesture(phone, screen, done):
        return True
    if "Swap:" in screen or "lay your hand down" in screen:  # nothing worth taking: done
        if phone.tap_if_shown("Done"):
            done["done"] += 1
        return True
    return False


def crabs_gesture(phone: Phone, screen: str, done: Counter[str], signal: bool = False) -> bool:
    """Tap a gesture in the bar (the team's signal, marked *, when `signal`; else a decoy)."""
    for row, line in enumerate(screen.splitlines()):
        found = [g for g in GESTURE.finditer(line) if (g.group(3) == "*") == signal]
        if ("wink" in line or "knuckles" in line) and found:
            gesture = found[done["gesture"] % len(found)]
            phone.tap_cell(gesture.start(2), row)
            done["team signal" if signal else "gesture"] += 1
            return True
    return False


# -- kraken ----------------------------------------------------------------------------------
def kraken_move(phone: Phone, screen: str, done: Counter[str]) -> bool:
    talking = any(ask in screen for ask in ("Say to the table", "who is what", "about whom?"))
    if talking and QUESTION in screen and options(screen):
        tap_option(phone, screen)
        done["talk"] += 1
        return True
    if QUESTION in screen and options(screen):
        if done["back"] == 0:  # put the decision aside: the table stays in sight
            return back_out(phone, done)
        if "Raise guns" in screen and done["claim"] == 0:
            if phone.tap_if_shown("Talk"):  # say how many guns, while asked for them
                done["claim"] += 1
            return True
        tap_option(phone, screen)
        done["decision"] += 1
        return True
    if answer_question(phone, screen, done):
        return True
    if "c uses, Enter keeps" in screen and done["character"] == 0:  # a character's moment
        if phone.tap_if_shown("Character (c)"):
            done["character"] += 1
        return True
    if "Decide (Enter)" in screen and "Nothing to decide now" not in screen:
        if phone.tap_if_shown("Decide (Enter)"):
            done["decide"] += 1
        return True
    return False


MOVES: dict[str, Callable[[Phone, str, Counter[str]], bool]] = {
    "crates": crates_move,
    "roach": roach_move,
    "crabs": crabs_move,
    "kraken": kraken_move,
}
#: Every kind of move a whole game played by taps must have made.
KINDS = {
    "crates": {"play", "draw", "crates", "name a suit", "back", "chat"},
    "roach": {"offer", "claim", "judge", "back", "chat"},
    "crabs": {"signal", "swap", "gesture", "back", "accuse"},  # (no chat: gestures are its talk)
    "kraken": {"back", "decision", "talk", "claim", "chat"},
}


def chat(phone: Phone, screen: str, done: Counter[str], line: str) -> bool:
    """Say `line` to the table once, when nothing else is asked (Chat, the soft keyboard);
    True if the chat opened."""
    if done["chat"] or QUESTION in screen or "Chat" not in footer(screen):
        return False
    phone.tap("Chat", after=0)
    if "Say to" not in wait_changed(phone, screen, 3):
        return True  # (a question came first: it is answered, and the chat waits)
    phone.type_line(line)
    phone.wait_for_any(line[:20], timeout=10)  # (in the notice line, above the table)
    done["chat"] += 1
    return True


STALLED = 60.0  # seconds a game's screen may stay the same (bots are fast): longer is stuck


def play_to_the_end(phone: Phone, game: str, minutes: float) -> Counter[str]:
    """Play `game` on `phone` by taps until its end shows; what kinds of move it made."""
    done: Counter[str] = Counter()
    move = MOVES[game]
    deadline = time.monotonic() + minutes * 60
    last, changed = "", time.monotonic()
    trail: list[str] = []  # the last status lines and moves, to say how it got stuck
    while True:
        screen = phone.screen()
        assert "Traceback" not in screen, screen
        if OVER in screen:
            return done
        now = time.monotonic()
        if screen != last:
            last, changed = screen, now
            trail = [*trail[-20:], f"{status(screen).strip()} | {dict(done)}"]
        said = "\n".join(trail)
        assert now < deadline, f"{game} did not end; moves {dict(done)}:\n{screen}\n{said}"
        assert now - changed < STALLED, f"{game} is stuck; moves {dict(done)}:\n{screen}\n{said}"
        said = f"good luck from a {game} phone"
        if close_shown(phone, screen, done) or chat(phone, screen, done, said):
            continue
        if move(phone, screen, done):
            wait_changed(phone, screen, 3)
        else:
            time.sleep(0.2)
