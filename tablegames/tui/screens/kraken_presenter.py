"""The Feed the Kraken screen's game flow, from the table's updates alone: which local seat the
screen acts for (hot-seat rounds with everyone's eyes closed, news handed to its player), what
opens by itself, what a decision or the character key does, the claims in each log, and what
the status line says. No widgets: tested without a terminal (`KrakenScreen` draws and wires).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rich.text import Text

from ...rules.kraken.types import TYPES
from ...talk import merged_log
from . import kraken_view as show
from .dialogs import Option
from .kraken_choices import OPTION_KEYS, Pending, Question
from .kraken_talk import invitation_text, talk_events

if TYPE_CHECKING:
    from ...rules import Action, Event
    from ...rules.kraken.types import Interruption, KrakenView, Phase
    from ...table import Update

CHANGED: list[Pending] = []  # a question closed because the table changed under it
NOT_AGAIN: list[Pending] = []  # "keep it, and do not ask at these moments again this game"


@dataclass(frozen=True)
class Prompt:
    """What opens by itself for the seat at the keyboard: `keep` its character unasked (as its
    player asked), `decide` (the decision dialog), or a `notice` of `text` to pass on."""

    kind: Literal["keep", "decide", "notice"]
    text: str = ""


KEEP, DECIDE = Prompt("keep"), Prompt("decide")


def rows(lines: list[Text], room: int) -> int:
    """The rows `lines` take wrapped in `room` columns."""
    return sum(max(1, -(-line.cell_len // max(1, room))) for line in lines)


class KrakenPresenter:
    """One terminal's Feed the Kraken flow over its local seats (`humans`): the screen asks it
    whom to act for and what to open, and draws what it says. `update(seat)` is the table's
    latest update for a seat; `logs` each local seat's log, which the claims join here; `line`
    says an event in the game's words."""

    def __init__(
        self,
        humans: list[int],
        names: Callable[[], list[str]],
        update: Callable[[int], Update],
        logs: dict[int, list[Event]],
        line: Callable[[Event], str],
    ) -> None:
        self.humans, self.names, self.update = humans, names, update
        self.logs, self.line = logs, line
        self.asked: tuple[object, ...] | None = None  # the decision last opened by itself
        self.round_queue: list[int] = []  # humans still to take an eyes-closed turn
        self.round_done: set[tuple[object, ...]] = set()  # eyes-closed moments already gone round
        self.round_text = ""
        self.told: dict[int, int] = {}  # each human's log length when they last had the keyboard
        self.telling: int | None = None  # a human handed the keyboard to learn their news
        self.secret_news: set[int] = set()  # humans whose news came with everyone's eyes closed
        self.phase_seen: dict[int, Phase | Interruption] = {}  # each human's last phase seen
        self.talk_seen: dict[int, int] = {}  # talk records each seat's log holds
        self.talking_seat: int | None = None  # the seat whose claim menu is open
        self.not_asked: set[int] = set()  # seats whose character moments pass without asking
        for seat in logs:  # what was said so far, where it was said
            talk = self.view(seat).get("talk", [])
            logs[seat] = merged_log(logs[seat], talk)
            self.talk_seen[seat] = len(talk)
        for seat in humans:  # the deal's secrets show at each player's first turn
            self.told[seat] = len(logs[seat])
            self.phase_seen[seat] = self.view(seat)["phase"]

    def view(self, seat: int) -> KrakenView:
        """`seat`'s latest view, as Feed the Kraken's own type."""
        return TYPES.view(self.update(seat).view)

    # -- following the table --------------------------------------------------------------------
    def taken(self, seat: int, update: Update) -> None:
        """`update` came for `seat` (its log lines are kept): its claims join the log where
        they were made, and news that came with everyone's eyes closed is noted."""
        talk = TYPES.view(update.view).get("talk", [])
        seen = self.talk_seen.get(seat, 0)
        if len(talk) > seen:
            log = self.logs.setdefault(seat, [])
            if any(said["line"] < public_lines(log) for said in talk[seen:]):
                # (moves and claims came together: a replay moved on several steps at once)
                moves = [event for event in log if event.get("kind") != "claim"]
                self.logs[seat] = merged_log(moves, talk)
            else:
                log.extend(talk_events(talk[seen:]))
            self.talk_seen[seat] = len(talk)
        # (A character's moment hides whom it asks, not what comes after it: the cards a
        # captain draws as it ends are no secret news, and go to the captain alone.)
        if self.phase_seen.get(seat) in show.EYES_CLOSED and own_lines(update.events):
            self.secret_news.add(seat)
        self.phase_seen[seat] = TYPES.view(update.view)["phase"]

    def news(self, seat: int) -> list[Event]:
        """`seat`'s own lines since its player last had the keyboard."""
        return own_lines(self.logs.get(seat, [])[self.told.get(seat, 0) :])

    def choose_seat(self, active: int, shown: int | None, engine_waits: Collection[int]) -> int:
        """The local seat to act for now (the screen's module docstring says why), the
        keyboard last `shown` to a seat's player and the table waiting for `engine_waits`."""
        if self.round_queue:
            return self.round_queue[0]
        view = self.view(self.humans[0])
        if len(self.humans) > 1 and view["phase"] in show.SECRET_PHASES and not view["winner"]:
            humans_wait = any(seat in engine_waits for seat in self.humans)
            if moment(view) not in self.round_done and (view["phase"] != "window" or humans_wait):
                self.round_done.add(moment(view))
                self.round_text = show.phase_text(view, self.names(), [])
                return self._round()
            if view["phase"] != "window" or humans_wait:
                return active  # the round has been: nobody is handed the keyboard for this moment
        if self._news_goes_round(shown):
            return self._round()
        if self.telling is None and len(self.humans) > 1 and not view["winner"]:
            self.telling = next(
                (seat for seat in self.humans if seat != shown and self.news(seat)), None
            )
        if self.telling is not None:
            return self.telling  # at once: before anyone's next decision
        return next((seat for seat in self.humans if seat in engine_waits), active)

    def _round(self) -> int:
        """Start a round of every human at this terminal: the first of them acts."""
        self.round_queue = list(self.humans)
        return self.round_queue[0]

    def _news_goes_round(self, shown: int | None) -> bool:
        """News that came with everyone's eyes closed goes round every human (True if a round
        starts): handing it to its player alone would show who had news."""
        secret = [seat for seat in self.secret_news if seat != shown and self.news(seat)]
        self.secret_news.clear()
        if not secret or len(self.humans) < 2:
            return False
        self.round_text = "Everyone's eyes were closed."
        return True

    def handed_off(self, leaving: int | None) -> None:
        """The keyboard is handed on: what the player `leaving` saw is theirs, no news."""
        if leaving is not None:
            self.told[leaving] = len(self.logs.get(leaving, []))

    # -- what opens by itself -------------------------------------------------------------------
    def prompt(self, seat: int, my_move: bool) -> Prompt | None:
        """What opens by itself for `seat` (`my_move`: the table waits for it, and its player
        may decide here now): once per decision, and a notice to pass on when a round or news
        hands a player the keyboard with nothing to decide."""
        if self.round_queue:
            if my_move and self.keeps_unasked(seat):
                return KEEP
            if my_move:
                return self._decision_once(seat)
            news = [self.line(event) for event in self.news(seat)]
            said = ["Only you see this:", *news] if news else []
            end = "Nothing (more) for you to do in this moment."
            return Prompt("notice", "\n".join([self.round_text, *said, end]))
        if self.telling is not None:
            if not my_move:
                lines = [self.line(event) for event in self.news(seat)] or ["nothing new"]
                return Prompt("notice", "\n".join(["Only you see this:", *lines]))
            self.noticed(seat)  # a decision waits: the news shows on the table beside it
        if not my_move or self.decision_key(seat) == self.asked:
            return None
        if self.character_moment(self.view(seat)):
            # Asked on the status line, not in a dialog over the log (it came after every
            # appointment): c uses it, Enter keeps it (or stops the asking).
            self.asked = self.decision_key(seat)
            return KEEP if self.keeps_unasked(seat) else None
        return self._decision_once(seat)

    def _decision_once(self, seat: int) -> Prompt | None:
        if self.decision_key(seat) == self.asked:
            return None
        self.asked = self.decision_key(seat)
        return DECIDE

    def noticed(self, seat: int) -> None:
        """`seat`'s player read their notice: their news is told, and the round goes on."""
        self.told[seat] = len(self.logs.get(seat, []))
        if self.round_queue:
            self.round_queue.pop(0)
        else:
            self.telling = None

    def decision_key(self, seat: int) -> tuple[object, ...]:
        """Names one decision of `seat`'s (it stays the same while it is open)."""
        view = self.view(seat)
        private = view["private"]
        return (
            seat,
            view["round"],
            view["phase"],
            view["window"],
            view["captain"],
            view["lieutenant"],
            view["navigator"],
            view["pick"],
            tuple(private.get("drawn") or ()),
            tuple(private.get("logbook") or ()),
            private.get("peek"),
        )

    # -- decisions and the character --------------------------------------------------------------
    @staticmethod
    def character_moment(view: KrakenView) -> bool:
        """True if the seat is asked only whether to use its character now."""
        return view["phase"] == "window"

    def keeps_unasked(self, seat: int) -> bool:
        """True if `seat` keeps its character at this moment without being asked (its player
        said not to be asked again)."""
        return seat in self.not_asked and self.character_moment(self.view(seat))

    @staticmethod
    def facts(update: Update) -> tuple[object, ...]:
        """What an open question's options were worded from: the seat's moves and everyone's
        guns and duty (a steal while the question waits changes them: it is asked again)."""
        view = TYPES.view(update.view)
        return (repr(update.legal), tuple(view["guns"]), tuple(view["off_duty"]), view["phase"])

    def decision(self, seat: int) -> list[Action] | Prompt | str:
        """The moves the decision (Enter) asks `seat` about; or KEEP, at a character's moment
        (as the status line says: c uses, Enter keeps); or why there is nothing to decide."""
        update = self.update(seat)
        view = TYPES.view(update.view)
        if seat not in update.waiting:
            waiting = show.public_waiting(view, update.waiting)
            if waiting:
                return f"Nothing to decide now: waiting for {', '.join(self.names_of(waiting))}."
            return "Nothing to decide now."
        if self.character_moment(view) and not self.round_queue:
            return KEEP
        moves = update.legal
        if view["phase"] != "window":  # "any time" characters wait for `c`
            moves = [a for a in moves if a["type"] != "character"] or moves
        return moves

    def character(self, seat: int) -> list[Action] | str:
        """The moves the character key asks about for `seat`, or what it says instead (it asks
        again at the character's moments when they were passing unasked)."""
        update = self.update(seat)
        view = TYPES.view(update.view)
        uses = [a for a in update.legal if a["type"] == "character"]
        if uses and self.character_moment(view):  # keeping (and not being asked) is offered too
            return uses + [a for a in update.legal if a["type"] == "decline"]
        if uses:
            return uses
        if not view["private"].get("character"):
            return "You hold no character card."
        if character_used(view, seat):
            return "You have already used your character."
        if seat in self.not_asked:
            self.not_asked.discard(seat)
            return "You will be asked at your character's moments again."
        waits = view["private"].get("character_waits")
        return waits or "Your character cannot do anything right now."

    def options(self, asked: Question, seat: int) -> list[Option[list[Pending]]]:
        """A question's options, as many as there are keys; at a character's moment, one more
        to keep it and not be asked again this game."""
        options = [Option(key, label, value) for key, label, value in asked.options]
        options = options[: len(OPTION_KEYS)]
        keeps = any(p.action["type"] == "decline" for _, _, left in asked.options for p in left)
        if self.character_moment(self.view(seat)) and keeps and len(options) < len(OPTION_KEYS):
            key = next(k for k in OPTION_KEYS if k not in {option.key for option in options})
            options.append(Option(key, "Keep it, and do not ask again this game", NOT_AGAIN))
        return options

    def kept(self, seat: int, unasked: bool) -> str:
        """What the status line says once `seat` kept its character (`unasked`: as its player
        asked, without a question)."""
        name = show.character_title(str(self.view(seat)["private"].get("character")))
        if unasked:
            return f"{name} kept for later, as you asked (c: ask me again)."
        return f"{name} kept for later (c at its next moment uses it)."

    def names_of(self, seats: list[int]) -> list[str]:
        names = self.names()
        return [names[seat] for seat in seats]

    # -- words ----------------------------------------------------------------------------------
    def status(
        self,
        view: KrakenView,
        waiting: list[int],
        message: str,
        *,
        behind: bool,
        room: tuple[int, int],
        private: bool,
        may_act: bool,
        my_move: bool,
    ) -> Text:
        """The status line: what the table is doing, then what this player may do (or was
        told: `message`; `behind` a question), then the moment's invitation to talk where it
        fits, wrapped in `room` (columns, most lines: the invitation gives way first, t is in
        the footer all the while). `private`, `may_act`, `my_move`: as the screen's."""
        columns, most = room
        lines = [Text(show.phase_text(view, self.names(), waiting, columns))]
        invited = invitation_text(view, behind) if may_act and not self.round_queue else ""
        mine = Text()
        if behind and invited:
            mine.append(invited, "bold")  # answer the question, or put it aside to talk
            invited = ""
        elif message:
            mine.append(message)
        elif my_move and self.character_moment(view) and not self.round_queue:
            name = show.character_title(str(view["private"].get("character")))
            mine.append(f"{name}'s moment: c uses, Enter keeps", "bold reverse")
        elif my_move:
            mine.append("Your move: press Enter to decide.", "bold reverse")
        elif private and self.round_queue:
            mine.append("A secret moment: your turn, then pass the keyboard on.")
        if invited and mine.plain and mine.cell_len + 2 + len(invited) <= columns:
            mine.append("  " + invited, "bold")  # (beside what it says to this player)
            invited = ""
        lines += [line for line in (mine, Text(invited, "bold")) if line.plain]
        while len(lines) > 2 and rows(lines, columns) > most:
            lines.pop()
        return Text("\n").join(lines)

    def claims(self, seat: int, may_act: bool) -> bool:
        """True if a claim chosen in the menu `talking_seat` opened is made for `seat`: in
        hot-seat the keyboard may have passed on while the menu was open."""
        return self.talking_seat == seat and may_act

    def yours(self, view: KrakenView) -> list[str]:
        """The end of the voyage for each player at this terminal."""
        _, results = show.results_lines(view, self.names())
        return [
            f"{name}: {role}, {'won' if won else 'lost'}."
            for name, role, won in (results[seat] for seat in self.humans)
        ]


def character_used(view: KrakenView, seat: int) -> bool:
    """True if `seat` has used its character this game."""
    return bool(view["characters_used"][seat])


def public_lines(log: list[Event]) -> int:
    """The game's public lines in `log` (claims left out): where a claim says it was made."""
    return sum(1 for event in log if event.get("to") is None and event.get("kind") != "claim")


def own_lines(events: list[Event]) -> list[Event]:
    """The lines of `events` told to one seat alone."""
    return [event for event in events if event.get("to") is not None]


def moment(view: KrakenView) -> tuple[object, ...]:
    """Names one eyes-closed or character moment (it stays the same while it lasts)."""
    public = sum(
        1
        for event in view["log"]
        if event["to"] is None and event["kind"] in ("window", "eyes_closed")
    )
    return (view["round"], view["phase"], view["window"], public)
