"""The `tablegames` command: menu, play, list, rules and simulate."""

# Annotations are objects here, not strings (no `from __future__ import annotations`): Typer
# reads every command's signature at each start, and evaluated each string annotation twice,
# which cost `tablegames --help` a fifth of its time. Names imported only for type-checking are
# quoted.
import functools
import inspect
import itertools
import json
import sys
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .rules import GAMES, Option, load_games, shared
from .words import moment_words, plural

#: Games from elsewhere join the registry here, where the program starts: its options are
#: command-line options. What could not be loaded is said once the command runs (`main`).
PLUGIN_PROBLEMS = load_games()

# The bots, table, store and network modules are imported where a command needs them, not here:
# `tablegames --help` then starts without loading them and asyncio. The registry is loaded: the
# games' options are command-line options.
if TYPE_CHECKING:
    from rich.console import JustifyMethod

    from .net.hosting import HostedTable
    from .net.server import Server, ServerConfig
    from .store import FinishedSeat, Rating, Store

DEFAULT_PORT = 4747  # as net.launch.DEFAULT_PORT (not imported: it would load asyncio)

app = typer.Typer(
    help="Hidden-hand card and social-deduction games in your terminal: hot-seat, bots and LAN.",
    no_args_is_help=False,
    add_completion=False,
    # Plain help: typer's rich help imports markdown-it and more, and doubled `--help`'s time
    # (game options say which games take them instead of sitting in a panel).
    rich_markup_mode=None,
)


def _known_game(name: str) -> str:
    """A registered game name."""
    if name in GAMES:
        return name
    raise typer.BadParameter(f"no game called {name!r}; try: {', '.join(GAMES)}")


def say_bot_levels(game: str) -> None:
    """Tell the player (on stderr) when `game`'s bot levels do not differ: a game with neither
    bots of its own nor hooks for the generic ones to think with plays at random at every
    level, and that is said where a level is chosen rather than left to be found out."""
    from .bots import level_note
    from .rules import get_game

    note = level_note(get_game(game))
    if note is not None:
        typer.echo(note, err=True)


def _known_level(level: str) -> str:
    from .bots import LEVELS

    if level not in LEVELS:
        raise typer.BadParameter(f"bot level must be one of: {', '.join(LEVELS)}")
    return level


GameArg = Annotated[
    str,
    typer.Argument(
        metavar="GAME", help="Game to use (see `tablegames list`).", callback=_known_game
    ),
]
PlayableArg = Annotated[
    str,
    typer.Argument(
        metavar="GAME", help="Game to play (see `tablegames list`).", callback=_known_game
    ),
]
#: The bot levels, and what a game says of its own (`Game.bots_note`: crabs' signal readers).
BOTS_HELP = "Bot level: random, normal or hard" + "".join(
    f" ({game.title}: {game.bots_note})" for game in GAMES.values() if game.bots_note
)
BotsOpt = Annotated[
    str,
    typer.Option("--bots", metavar="LEVEL", help=f"{BOTS_HELP}.", callback=_known_level),
]
PlayersOpt = Annotated[int | None, typer.Option(metavar="N", help="Seats at the table.")]
PaceOpt = Annotated[
    float, typer.Option(metavar="SECONDS", help="Seconds between bot moves.", min=0.0)
]
AsciiOpt = Annotated[bool, typer.Option("--ascii", help="Cards without suit symbols.")]

# The options only some games take get a panel of their own (the help stays readable at 80 columns).
#: Keyword names of the generated game options in a command's signature (see `with_game_options`).
OPTION_PREFIX = "game_option_"
REALTIME_GAMES = [game.name for game in GAMES.values() if game.realtime]
SpeedOpt = Annotated[
    float | None,
    typer.Option(
        metavar="X",
        help=f"{', '.join(REALTIME_GAMES)}: speed of the real-time game.",
        min=0.1,
    ),
]


def game_option_parameters() -> list[inspect.Parameter]:
    """One command-line option per game option any registered game takes (see `Option`):
    `--name VALUE`, or `--name/--no-name` for a yes-or-no option, named for the games."""
    takers: dict[str, list[str]] = {}
    described: dict[str, Option] = {}
    for game in GAMES.values():
        for option in game.options:
            takers.setdefault(option.name, []).append(game.name)
            described.setdefault(option.name, option)
    parameters = []
    for name, option in described.items():
        flag = name.replace("_", "-")
        decls = [f"--{flag}/--no-{flag}"] if option.kind is bool else [f"--{flag}"]
        info = typer.Option(
            *decls,
            metavar=None if option.kind is bool else name.upper(),
            help=f"{', '.join(takers[name])}: {option.help}.",
            show_default=False,
        )
        parameters.append(
            inspect.Parameter(
                OPTION_PREFIX + name,
                inspect.Parameter.KEYWORD_ONLY,
                default=None,
                annotation=Annotated[option.kind | None, info],
            )
        )
    return parameters


def with_game_options(command: Callable[..., None]) -> Callable[..., None]:
    """`command` taking every game's options on the command line; it is given those set, by
    name, as its `options` argument."""
    signature = inspect.signature(command, eval_str=True)
    kept = [parameter for parameter in signature.parameters.values() if parameter.name != "options"]

    @functools.wraps(command)
    def run(**given: Any) -> None:
        chosen = {
            name.removeprefix(OPTION_PREFIX): given.pop(name)
            for name in list(given)
            if name.startswith(OPTION_PREFIX)
        }
        command(**given, options={k: v for k, v in chosen.items() if v is not None})

    run.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[*kept, *game_option_parameters()]
    )
    return run


def table_size(game: str, players: int | None, at_least: int = 0) -> int:
    """The seats asked for with --players (by default the game's usual table, or `at_least`),
    refused if the game is not played by that many."""
    from .rules import get_game

    info = get_game(game)
    seats = players if players is not None else max(info.default_players, at_least)
    if not info.min_players <= seats <= info.max_players:
        raise typer.BadParameter(
            f"{info.title} takes {info.min_players}–{info.max_players} players",
            param_hint="--players",
        )
    return seats


def game_options(game: str, seats: int, options: dict[str, Any]) -> dict[str, Any]:
    """The game options given on the command line, refused (in a sentence) if `game` does not
    take them or they do not make a game for `seats` players."""
    from .rules import SetupError, get_game

    info = get_game(game)
    taken = {option.name for option in info.options}
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if name not in taken:
            raise typer.BadParameter(f"{game} has no {name} option", param_hint=flag)
        try:  # what players may choose, as the party decides it (`Game.chosen`)
            info.chosen({name: value})
        except SetupError as refusal:  # a value no table takes: the option's fault alone
            raise typer.BadParameter(str(refusal), param_hint=flag) from None
    try:
        info.new(seats, 0, **options)  # what the game itself refuses, said before any screen
    except SetupError as refusal:
        hint = "/".join(f"--{name}" for name in options) or "--players"
        raise typer.BadParameter(
            str(refusal), param_hint=f"{hint} with --players {seats}"
        ) from None
    return options


def speed_for(game: str, speed: float | None) -> float:
    """The real-time speed asked for, for a game played in real time."""
    if speed is not None and not GAMES[game].realtime:
        raise typer.BadParameter(
            f"only {' and '.join(REALTIME_GAMES)} is played in real time", param_hint="--speed"
        )
    return 1.0 if speed is None else speed


@app.callback(invoke_without_command=True)
def menu(
    ctx: typer.Context,
    ascii: AsciiOpt = False,
) -> None:
    """Open the game menu when no command is given."""
    if ctx.invoked_subcommand is None:
        from .tui.app import run_menu

        run_menu(ascii=ascii)


@app.command("list")
def list_games() -> None:
    """List the games, with player counts and what plays them."""
    from rich.console import Console
    from rich.table import Table

    from .tui.catalogue import listings

    table = Table(title="tablegames", title_style="bold")
    for column in ("game", "title", "players", "status", "about"):
        table.add_column(column)
    for entry in listings():
        generic = [
            what
            for what, own in (
                ("generic screen", entry.own_screen),
                ("generic bots", entry.own_bots),
            )
            if not own
        ]
        status = "[green]playable[/]" + (f" [dim]({', '.join(generic)})[/]" if generic else "")
        table.add_row(entry.name, entry.title, entry.players, status, entry.blurb)
    Console().print(table)


@app.command()
def rules(game: GameArg) -> None:
    """Print the rules of a game."""
    from rich.console import Console
    from rich.markdown import Markdown

    from .rulebook import rules_text

    Console().print(Markdown(rules_text(game)))


@app.command()
@with_game_options
def play(
    game: PlayableArg,
    players: PlayersOpt = None,
    humans: Annotated[
        int, typer.Option(metavar="N", help="Humans sharing this terminal (hot-seat).")
    ] = 1,
    bots: BotsOpt = "normal",
    seed: Annotated[
        int | None, typer.Option(metavar="N", help="Seed for a repeatable game.")
    ] = None,
    speed: SpeedOpt = None,
    ascii: AsciiOpt = False,
    name: Annotated[
        list[str] | None,
        typer.Option("--name", metavar="NAME", help="A human's name (repeat for each)."),
    ] = None,
    pace: PaceOpt = 0.5,
    save: Annotated[
        bool, typer.Option("--save/--no-save", help="Save as you go (resume later).")
    ] = True,
    options: dict[str, Any] | None = None,
) -> None:
    """Play a game on this terminal against bots, or hot-seat with friends."""
    from .local import human_names, local_table
    from .rules import get_game

    most = get_game(game).max_players if players is None else players
    if not 1 <= humans <= most:
        raise typer.BadParameter(f"humans must be between 1 and {most}", param_hint="--humans")
    seats = table_size(game, players, at_least=humans)
    if name and len(name) > humans:
        raise typer.BadParameter(
            f"{plural(len(name), 'name')} for {plural(humans, 'human')}: one --name per "
            "human (give --humans N for more)",
            param_hint="--name",
        )
    try:
        human_names(humans, name or ())
    except ValueError as refusal:
        raise typer.BadParameter(str(refusal), param_hint="--name") from None
    options = game_options(game, seats, options or {})
    speed = speed_for(game, speed)
    from .bots import level_note
    from .rules import get_game

    # (said over the table as it opens: printed here, it stayed on the terminal after the game)
    note = (level_note(get_game(game)) or "") if seats > humans else ""
    client = local_table(
        game,
        seats,
        humans=humans,
        bot_level=bots,
        seed=seed,
        names=name or (),
        pace=pace,
        store=saving_store(save),
        speed=speed,
        **options,
    )
    from .tui.app import run_table

    run_table(client, ascii=ascii, note=note)


def saving_store(save: bool) -> "Store | None":
    """The store a game is saved in, None for a game not saved (`--no-save`: the store and
    sqlite3 are then never imported, and the table opens sooner)."""
    if not save:
        return None
    from .store import Store

    return Store()


@contextmanager
def progress_bar(what: str, total: int | None = None) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr with the time left, while the block runs; yields what to tell
    as work ends: `(done, total)` (a total not known at first comes with the steps). Only on a
    terminal: piped or captured, stderr (and stdout, where summaries go to scripts) carries no
    bar."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(file=sys.stderr)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    with Progress(
        *columns, console=console, transient=True, disable=not console.is_terminal
    ) as bar:
        task = bar.add_task(what, total=total)

        def told(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total or None)

        yield told


@app.command()
@with_game_options
def simulate(
    game: PlayableArg,
    games: Annotated[int, typer.Option(metavar="N", help="How many games to play.", min=1)] = 100,
    players: PlayersOpt = None,
    seed: Annotated[int, typer.Option(metavar="N", help="First seed; game i uses seed + i.")] = 0,
    bots: BotsOpt = "normal",
    options: dict[str, Any] | None = None,
) -> None:
    """Play bot-only games headless and print a JSON summary (a progress bar on a terminal)."""
    from .simulate import simulate_games

    seats = table_size(game, players)
    options = game_options(game, seats, options or {})
    say_bot_levels(game)
    played = itertools.count(1)
    with progress_bar(f"{game}: {bots} bots, games", games) as told:
        summary = simulate_games(
            game,
            games=games,
            players=seats,
            seed=seed,
            level=bots,
            progress=lambda: told(next(played), games),
            **options,
        )
    typer.echo(json.dumps(summary, indent=2))


@app.command()
def resume(
    game_id: Annotated[int | None, typer.Argument(help="Which saved game (see the list).")] = None,
    ascii: AsciiOpt = False,
    pace: PaceOpt = 0.5,
    speed: SpeedOpt = None,
) -> None:
    """List unfinished games saved on this machine; with an ID, continue that one."""
    from .local import describe_saved, resume_local
    from .store import Store

    store = Store()
    saved = store.open_tables("local")
    if game_id is None:  # (a list, even of one: the command says what it will continue)
        if not saved:
            first = next(iter(GAMES), "GAME")
            typer.echo(f"No unfinished games. Start one with `tablegames play {first}`.")
            return
        typer.echo(f"Unfinished games (continue one with `tablegames resume {saved[0].id}`):")
        for entry in saved:
            typer.echo(describe_saved(entry))
        return
    try:
        game = next((entry.game for entry in saved if entry.id == game_id), None)
        # (no such game: `resume_local` says so)
        chosen_speed = 1.0 if game is None else speed_for(game, speed)
        client = resume_local(store, game_id, pace=pace, speed=chosen_speed)
    except (KeyError, ValueError) as problem:
        raise typer.BadParameter(str(problem).strip("'\"")) from None
    from .tui.app import run_table

    run_table(client, ascii=ascii)


@app.command()
def history(
    limit: Annotated[int, typer.Option(help="How many games to list.", min=1)] = 20,
    as_json: Annotated[
        bool,
        typer.Option("--json", help='Print {"games": [...]}, each seat as the ratings read it.'),
    ] = False,
) -> None:
    """List finished games: id, game, date, players and winners, each seat with the player
    the ratings count it for (`stats`) when that is another, or "not rated"."""
    import logging

    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from .store import Store

    logging.basicConfig(level=logging.WARNING, format="%(message)s")  # (as `stats` says it)
    store = Store()
    store.update_ratings()  # each seat as `stats` counts it
    games = store.history(limit)
    if as_json:
        typer.echo(json.dumps({"games": games}, ensure_ascii=False))
        return
    if not games:
        typer.echo("No finished games yet.")
        return
    table = Table(title="Finished games")
    for column in ("id", "game", "finished", "players", "won"):
        table.add_column(column)
    for entry in games:
        when = moment_words(entry["finished"])
        seats = [_seat_label(seat) for seat in entry["seats"]]
        winners = [label for label, seat in zip(seats, entry["seats"], strict=True) if seat["won"]]
        table.add_row(
            str(entry["id"]),
            entry["game"],
            when,
            Text(", ".join(seats)),
            Text(", ".join(winners) or "nobody"),
        )
    Console().print(table)


def _seat_label(seat: "FinishedSeat") -> str:
    """A seat of `history`: its name, and whom the ratings count it for when another
    (`Tom as normal bot`, a bot played most of his moves) or nobody (`Tom (not rated)`)."""
    name, rated_as = seat["name"], seat["rated_as"]
    if rated_as is None:
        return f"{name} (not rated)"
    return name if rated_as == name else f"{name} as {rated_as}"


@app.command()
def stats(
    game: Annotated[
        str | None, typer.Argument(metavar="[GAME]", help="Only this game's ratings.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help='Print {"games": {GAME: [players...]}} as JSON.')
    ] = False,
    rebuild: Annotated[
        bool, typer.Option("--rebuild", help="Rate every finished game again, from the start.")
    ] = False,
) -> None:
    """Ratings per player and game (openskill's, from every finished game), with games
    played, won and the change in the last one, and what each player is proven by: a key, a
    browser's cookie or this keyboard (a name alone is rated for nobody); each bot seat at a
    table is a player of its own ("normal bot", "normal bot 2")."""
    import logging

    from .store import Store

    # A result the ratings cannot read is skipped, saying so on a line of its own.
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    store = Store()
    if rebuild:
        store.rebuild_ratings()
    rows = store.stats(game)
    if game is not None and not rows and game not in GAMES:
        raise typer.BadParameter(f"no game called {game!r}; try: {', '.join(GAMES)}")
    rated = {row["game"] for row in rows}  # in the registry's order, as `list` shows them
    games = [name for name in GAMES if name in rated] + sorted(rated - set(GAMES))
    if as_json:
        tables = {
            name: [
                {
                    "name": row["name"],
                    "identity": row["identity"],
                    "played": row["played"],
                    "won": row["won"],
                    "rating": round(row["rating"], 2),
                    "change": round(row["change"], 2),
                }
                for row in rows
                if row["game"] == name
            ]
            for name in games
        }
        typer.echo(json.dumps({"games": tables}, ensure_ascii=False))
        return
    if not rows:
        typer.echo("No finished games yet." if game is None else f"No finished {game} games yet.")
        return
    _print_ratings(games, rows)


def _print_ratings(games: list[str], rows: "list[Rating]") -> None:
    """One table per game: rating, played, won, the last change and what proves who each
    player is, best rating first."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from .ratings import proven_by

    console = Console()
    for game in games:
        title = GAMES[game].title if game in GAMES else game
        table = Table(title=f"{title}: ratings", title_justify="left")
        columns: tuple[tuple[str, JustifyMethod], ...] = (
            ("player", "left"),
            ("rating", "right"),
            ("played", "right"),
            ("won", "right"),
            ("last game", "right"),
            ("identity", "left"),
        )
        for column, justify in columns:
            table.add_column(column, justify=justify)
        for row in rows:
            if row["game"] == game:
                table.add_row(
                    Text(row["name"]),
                    f"{row['rating']:.1f}",
                    str(row["played"]),
                    str(row["won"]),
                    f"{row['change']:+.1f}",
                    proven_by(row["identity"]),
                )
        if game != games[0]:
            console.print()
        console.print(table)


@app.command()
def replay(
    game_id: Annotated[
        int, typer.Argument(metavar="ID", help="Which finished game (see `tablegames history`).")
    ],
    seat: Annotated[
        str | None,
        typer.Option(
            "--as",
            help="Whose seat to watch from: a number from 1 or a name "
            "(default: the first human player).",
            show_default=False,
        ),
    ] = None,
    everyone: Annotated[
        bool, typer.Option("--all", help="Show every hand: the table as a spectator sees it.")
    ] = False,
    ascii: AsciiOpt = False,
) -> None:
    """Step through a finished game, from one player's seat or with every hand shown."""
    from .replay import Replay, SealedRecord
    from .store import OutdatedRules, Store

    if everyone and seat is not None:
        raise typer.BadParameter("give --as SEAT or --all, not both", param_hint="--as")
    try:
        record = Replay.load(Store(), game_id)
    except KeyError:
        raise typer.BadParameter(
            f"there is no game {game_id}; `tablegames history` lists finished games",
            param_hint="ID",
        ) from None
    except SealedRecord:
        typer.echo(
            f"Game {game_id} is still being played: its record is sealed until it ends.", err=True
        )
        raise typer.Exit(1) from None
    except OutdatedRules as problem:
        typer.echo(f"Cannot replay: {problem}.", err=True)
        raise typer.Exit(1) from None
    try:
        watched = None if everyone else record.seat_named(seat)
    except ValueError as problem:
        raise typer.BadParameter(str(problem), param_hint="--as") from None
    from .tui.app import run_replay

    run_replay(record, watched, ascii=ascii)


PortOpt = Annotated[
    int, typer.Option(metavar="PORT", help="TCP port to listen on (0: any free port).")
]
LanOpt = Annotated[
    bool, typer.Option("--lan", help="Listen on every interface; a join code is required.")
]
DbOpt = Annotated[
    str | None,
    typer.Option(
        metavar="FILE", help="SQLite file to save tables in (default: your data directory)."
    ),
]
SpectatorChatOpt = Annotated[
    bool, typer.Option("--spectator-chat", help="Let spectators chat at the tables.")
]


def _forwarded(addresses: list[str] | None) -> list[str]:
    from .net.proofs import typed_endpoint

    try:
        return [typed_endpoint(address) for address in addresses or ()]
    except ValueError as refusal:
        raise typer.BadParameter(str(refusal), param_hint="--forwarded-at") from None


ForwardedOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--forwarded-at",
        metavar="IP:PORT",
        help="An address a port forward (a router's, a VM's) passes on to this server: "
        "`join` works through it too; repeat for more.",
        callback=_forwarded,
    ),
]


def _store(db: str | None) -> "Store":
    """The store a host saves in, or a one-sentence refusal (another user's file...)."""
    import sqlite3

    from .paths import UnsafeFile
    from .store import Store

    try:
        return Store(db) if db is not None else Store()
    except (UnsafeFile, sqlite3.DatabaseError, RuntimeError) as problem:
        where = db or "the default store"
        raise typer.BadParameter(f"cannot save in {where}: {problem}", param_hint="--db") from None


def _server_config(
    store: "Store",
    lan: bool,
    port: int,
    pace: float,
    takeover: float | None,
    spectator_chat: bool,
    forwarded_at: list[str] | None,
) -> "ServerConfig":
    """How `host` and `serve` listen (a join code with --lan, kept in the store); logging on."""
    from .net.admission import new_join_code
    from .net.logs import start_host_log
    from .net.server import ServerConfig

    start_host_log()  # every record escaped (nothing a guest sent acts on this terminal), summed
    return ServerConfig(
        host="0.0.0.0" if lan else "127.0.0.1",
        port=port,
        code=store.fact("join_code", new_join_code) if lan else None,
        bot_pace=pace,
        takeover_after=takeover,
        spectator_chat=spectator_chat,
        forwarded_at=tuple(forwarded_at or ()),
    )


def _run_server(
    server: Coroutine[object, object, None], cannot: str, problems: tuple[type[Exception], ...]
) -> None:
    """Run `server` until Ctrl-C, then say it stopped; one of `problems` (a port taken...)
    stops the command with `cannot` and the problem, in a sentence."""
    from .net.launch import stop_quietly

    try:
        stop_quietly(server)
    except problems as problem:
        typer.echo(f"{cannot}: {problem}.", err=True)
        raise typer.Exit(1) from None
    typer.echo("Server stopped.")


def _say_where(server: "Server", port: int, lan: bool, code: str | None) -> None:
    """Print exactly what friends type to join."""
    from .net.launch import NO_LAN_ADDRESS, address_text, lan_addresses

    code_part = f" --code {code}" if lan and code else ""
    if lan:
        addresses = lan_addresses()
        if not addresses:
            typer.echo(NO_LAN_ADDRESS)
        for address in addresses:
            where = address_text(address, port)
            typer.echo(f"Friends join with:  tablegames join {where}{code_part}")
    typer.echo(f"On this machine:    tablegames join {address_text('127.0.0.1', port)}{code_part}")
    for forward in server.config.forwarded_at:
        typer.echo(f"Through a forward:  tablegames join {forward}{code_part}")


@app.command()
@with_game_options
def host(
    game: Annotated[
        str | None,
        typer.Argument(
            metavar="[GAME]",
            help="Game to host (see `tablegames list`); leave out with --restore.",
            show_default=False,
        ),
    ] = None,
    players: PlayersOpt = None,
    port: PortOpt = DEFAULT_PORT,
    lan: LanOpt = False,
    seed: Annotated[
        int | None, typer.Option(metavar="N", hidden=True, help="Refused: see `play --seed`.")
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            metavar="LEVEL",
            help="Bots of this level take the seats still empty when the game begins.",
        ),
    ] = None,
    humans: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help="Begin by itself once N players are seated and ready (the rest: bots).",
        ),
    ] = None,
    takeover: Annotated[
        float | None,
        typer.Option(metavar="SECONDS", help="Seconds before a bot plays a dropped player's seat."),
    ] = None,
    pace: PaceOpt = 0.5,
    db: DbOpt = None,
    restore: Annotated[
        bool, typer.Option("--restore", help="Continue the unfinished tables saved in the store.")
    ] = False,
    spectator_chat: SpectatorChatOpt = False,
    forwarded_at: ForwardedOpt = None,
    options: dict[str, Any] | None = None,
) -> None:
    """Host a table for players on this machine (or the LAN with --lan) and print how to join.

    Every table is saved as it goes; a host started again with --restore picks up where it was.
    Type `help` in the host's terminal to start a game early or give a seat to a bot.
    """

    from .net.launch import HostRefused, NewTable, check_store, run_host
    from .net.server import PortUnavailable

    if game is None and not restore:
        raise typer.BadParameter("name a game to host, or give --restore to continue saved tables")
    if seed is not None:  # a seed is the whole deal: whoever chose it could know every hand
        raise typer.BadParameter(
            "--seed is for `tablegames play` on this machine: a hosted table's deal is the "
            "server's secret, from the OS's randomness",
            param_hint="--seed",
        )
    new = None
    if game is not None:
        _known_game(game)
        if bots is not None:
            _known_level(bots)
            say_bot_levels(game)
        seats = table_size(game, players)
        if humans is not None and not 1 <= humans <= seats:
            raise typer.BadParameter(f"humans must be between 1 and {seats}", param_hint="--humans")
        new = NewTable(
            game,
            seats,
            game_options(game, seats, options or {}),
            bots=bots or ("normal" if humans is not None else None),
            humans=humans,
        )
    store = _store(db)
    if restore and store.open_tables("server"):
        new = None  # continue what is there; GAME was for a store with nothing to continue
    try:
        check_store(store, new, restore, f" --db {db}" if db else "")
    except HostRefused as refusal:
        typer.echo(str(refusal), err=True)
        raise typer.Exit(1) from None
    config = _server_config(store, lan, port, pace, takeover, spectator_chat, forwarded_at)
    code = config.code

    def announce(server: "Server", tables: "list[HostedTable]", bound: int) -> None:
        if not tables:
            typer.echo(f"{store.path} holds no unfinished table to restore.")
        for hosted in tables:
            verb = "Hosting" if new is not None and hosted is tables[-1] else "Restored"
            typer.echo(
                f"{verb} {hosted.game.title} for {hosted.players} players, table {hosted.code}, "
                f"on port {bound} (saved in {store.path})."
            )
        _say_where(server, bound, lan, code)
        if new is not None and tables:
            typer.echo(tables[-1].readiness.in_words())

    hosting = run_host(config, store, new, restore=restore, announce=announce, console=True)
    _run_server(hosting, "Cannot host", (PortUnavailable,))


def _web_names(names: list[str] | None) -> list[str]:
    from .net.web_names import web_name

    try:
        return [web_name(name) for name in names or ()]
    except ValueError as refusal:
        raise typer.BadParameter(str(refusal), param_hint="--web-name") from None


@app.command()
def serve(
    ssh: Annotated[
        int, typer.Option(metavar="PORT", help="SSH port friends connect to (0: any free port).")
    ] = 2222,
    port: PortOpt = DEFAULT_PORT,
    lan: LanOpt = False,
    db: DbOpt = None,
    max_sessions: Annotated[
        int,
        typer.Option(metavar="N", help="SSH sessions at once (more are told it is full).", min=1),
    ] = 20,
    max_per_address: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help="Players at once from one address (default: 4 with --lan, for friends "
            "behind one router; else --max-sessions, as everyone on this machine shares one).",
            min=1,
        ),
    ] = None,
    takeover: Annotated[
        float | None,
        typer.Option(metavar="SECONDS", help="Seconds before a bot plays a dropped player's seat."),
    ] = 60.0,
    pace: PaceOpt = 0.5,
    spectator_chat: SpectatorChatOpt = False,
    forwarded_at: ForwardedOpt = None,
    web: Annotated[
        int | None,
        typer.Option(
            metavar="PORT",
            help="Also serve the lobby to web browsers (phones too) on this port, e.g. 8080.",
            min=0,
            max=65535,
        ),
    ] = None,
    web_name: Annotated[
        list[str] | None,
        typer.Option(
            "--web-name",
            metavar="NAME",
            help="Another name the browser page answers to, e.g. party.lan (it answers to its "
            "addresses, localhost and this machine's name already); repeat for more.",
            callback=_web_names,
        ),
    ] = None,
) -> None:
    """Run a party: friends type `ssh -p 2222 NAME@HOST` and land in the lobby of tables.

    With --web 8080, friends with only a browser (a phone) open http://HOST:8080 instead.

    Nothing to install for them and no account each: the first SSH key to sit down at a table
    under a name owns it.
    Every table is saved and comes back when the server starts again.
    """
    import logging

    from .net.launch import run_host
    from .net.server import PortUnavailable
    from .serve import announce_party, ssh_front_door

    if web_name and web is None:
        raise typer.BadParameter("names the browser page answers to need --web PORT too")
    names = tuple(web_name or ())
    store = _store(db)
    config = _server_config(store, lan, port, pace, takeover, spectator_chat, forwarded_at)
    code = config.code
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    party = run_host(
        config,
        store,
        announce=announce_party(store, lan, code, names),
        extra=ssh_front_door(
            store, lan, ssh, max_sessions, code, max_per_address, web_port=web, web_names=names
        ),
        console=True,
    )
    _run_server(party, "Cannot serve", (PortUnavailable, OSError))


@app.command()
def check(
    game: Annotated[
        str,
        typer.Argument(
            metavar="GAME",
            help="A game's name, or its import string (package.module:NAME) if not installed.",
        ),
    ],
    only: Annotated[
        list[str] | None,
        typer.Option(
            "--only",
            metavar="PART",
            help="Only this part (repeatable): contract, playouts, network, server, screens, "
            "handoffs, bots.",
        ),
    ] = None,
    jobs: Annotated[int, typer.Option(metavar="N", help="Run on N processes.", min=0)] = 0,
    test: Annotated[
        str,
        typer.Option(
            metavar="TEST",
            help="Only this test of the parts (as a failure names it, to rerun it alone).",
        ),
    ] = "",
    games: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            min=1,
            help="The bots part plays N games a matchup (a longer verdict; default: up to a "
            "minute of CPU a matchup, less once the level is surely stronger).",
        ),
    ] = None,
) -> None:
    """Run one game's whole per-game test matrix and say what failed, in sentences, and where:
    the test, the game's seed and moves, the game's own code it failed in.

    The checks every game of tablegames passes (see docs/adding-a-game.md): the rules
    contract, whole games, games over real sockets (leaks, refusals), the server core under a
    stateful test, the table screen at every size, hot-seat hand-offs. They need the test
    extras: pip install 'tablegames[test]'.
    """
    import importlib.util

    from .testing import PARTS, check_game

    missing = [name for name in ("pytest", "hypothesis") if importlib.util.find_spec(name) is None]
    if missing:
        typer.echo(
            f"`tablegames check` needs {' and '.join(missing)} (the test extras): "
            "pip install 'tablegames[test]'.",
            err=True,
        )
        raise typer.Exit(2)
    parts = tuple(only) if only else PARTS
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        raise typer.BadParameter(f"no part called {unknown[0]!r}; parts: {', '.join(PARTS)}")
    if ":" not in game:
        _known_game(game)
    else:
        from .rules.core import resolve

        try:
            resolve(game)
        except Exception as problem:  # whatever its import raised: said, never a traceback
            typer.echo(f"Cannot check {game}: {type(problem).__name__}: {problem}", err=True)
            raise typer.Exit(2) from None
    typer.echo(f"Checking {game}: {', '.join(parts)} (a few minutes)...")
    try:
        with progress_bar("checks") as progress:
            checked = check_game(
                game,
                parts,
                jobs=jobs,
                raise_on_failure=False,
                test=test,
                bot_games=games,
                progress=progress,
            )
    except (ImportError, TypeError, ValueError, KeyError) as problem:  # a game that won't load
        typer.echo(f"Cannot check {game}: {problem}", err=True)
        raise typer.Exit(2) from None
    typer.echo(checked.summary())
    raise typer.Exit(0 if checked.passed else 1)


@app.command(hidden=True)
def session(address: Annotated[str, typer.Argument(help="HOST:PORT of the party server.")]) -> None:
    """One SSH session of a party (started by `serve`, with its ticket in the environment)."""
    import os

    from .net.client import RemoteClient
    from .net.launch import parse_address
    from .tui.session import run_session

    ticket = os.environ.pop("TABLEGAMES_TICKET", None)
    if not ticket:
        typer.echo("This command is started by `tablegames serve` for each SSH session.", err=True)
        raise typer.Exit(2)
    host_name, port = parse_address(address)
    run_session(RemoteClient(host_name, port, "guest", ticket=ticket))


@app.command()
def join(
    address: Annotated[str, typer.Argument(help="HOST[:PORT] of the server.")] = "127.0.0.1",
    name: Annotated[
        str | None, typer.Option(metavar="NAME", help="Your name at the table.")
    ] = None,
    code: Annotated[
        str | None, typer.Option(metavar="CODE", help="Join code (needed for LAN servers).")
    ] = None,
    table: Annotated[
        str | None, typer.Option(metavar="CODE", help="Table code (default: the first open one).")
    ] = None,
    spectate: Annotated[bool, typer.Option("--spectate", help="Watch instead of playing.")] = False,
    bot: Annotated[
        str | None,
        typer.Option("--bot", metavar="LEVEL", help="Play headless with a bot of this level."),
    ] = None,
    ascii: AsciiOpt = False,
    pace: Annotated[
        float, typer.Option(metavar="SECONDS", help="With --bot: seconds before each move.", min=0)
    ] = 0.0,
) -> None:
    """Join a hosted table: opens the game's screen, or plays headless with --bot."""

    from .net.admission import own_name
    from .net.client import (
        RemoteClient,
        SeatTokens,
    )
    from .net.launch import parse_address
    from .net.seat_tokens import load_client_key

    try:
        host_name, port = parse_address(address)
    except ValueError as problem:
        raise typer.BadParameter(str(problem), param_hint="ADDRESS") from None
    if bot is not None:
        _known_level(bot)
        _join_as_bot(host_name, port, name, bot, code, table, pace)
        return
    client = RemoteClient(
        host_name,
        port,
        name or own_name(),
        code=code,
        table=table,
        spectate=spectate,
        tokens=SeatTokens(),
        key=load_client_key(),  # the name is this user's: owned once they sit down
    )
    from .tui.app import run_remote

    run_remote(client, ascii=ascii)


#: How a table refuses a name someone there already has (`HostedTable.check_name_free`).
NAME_TAKEN = "is already at this table"


def _join_as_bot(
    host: str,
    port: int,
    name: str | None,
    level: str,
    code: str | None,
    table: str | None,
    pace: float,
) -> None:
    """Play a seat headless with a bot of `level` until the game ends; print its seat and the
    scores. Without `name` it sits down as the first bot name free at the table (`Ada (bot)`,
    `Bruno (bot)`...): a seat once said "normal bot". Only a named bot keeps its seat's token
    on this machine, to take it back if started again (unnamed ones would take each other's)."""
    import asyncio
    import logging
    import os

    from .local import BOT_NAMES
    from .net.client import RemoteClient, SeatTokens, ServerRefused, why_not_joined
    from .net.join_bot import play_as_bot
    from .net.seat_tokens import load_client_key

    logging.basicConfig(
        level=os.environ.get("TABLEGAMES_LOG", "WARNING").upper(),
        format="%(asctime)s %(name)s %(message)s",
    )
    names = [name] if name else [f"{bot_name} (bot)" for bot_name in BOT_NAMES]
    for player in names:
        # Only a named bot is a person's: its tokens are kept, its name owned by the key.
        tokens, key = (SeatTokens(), load_client_key()) if name else (None, None)
        client = RemoteClient(host, port, player, code=code, table=table, tokens=tokens, key=key)
        try:
            view = asyncio.run(play_as_bot(client, level, pace=pace))
        except ServerRefused as problem:
            if NAME_TAKEN in str(problem) and player != names[-1]:
                continue  # another bot (or a player) has that name here: the next one
            typer.echo(why_not_joined(problem, client.host, client.port), err=True)
            raise typer.Exit(1) from None
        except OSError as problem:
            typer.echo(why_not_joined(problem, client.host, client.port), err=True)
            raise typer.Exit(1) from None
        result = shared(view)["result"]
        scores, winners = (result["scores"], result["winners"]) if result else (None, None)
        summary = {"seat": client.seat, "name": player, "scores": scores}
        typer.echo(json.dumps({**summary, "winners": winners}))
        return


def main() -> None:
    """Entry point of the `tablegames` script."""
    for problem in PLUGIN_PROBLEMS:
        print(problem, file=sys.stderr)
    app()
