"""``haleakala play``: a game at the terminal (people and bots), or a game log with ``--json``.

``--game`` picks the island game (haleakala, the default, or kahuna); each game names its
seats after its players (``--red/--yellow``, ``--white/--black``).

Two bots with ``--json`` print the game log of NOTATION.md and nothing else, so another
program (or ``haleakala replay``) can read it; the same seed gives the same bytes. Without
``--json``, two bots on a terminal make a watchable demo: the island after every turn and
a short pause (``--delay``).
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import sys
from contextlib import suppress
from typing import TYPE_CHECKING, NoReturn, TextIO

from haleakala.ai import BOTS, GAME_BOTS, make_bot
from haleakala.cli import UsageError, add_language_option, add_palette_option
from haleakala.gameapi import GAMES, game_class
from haleakala.rules import VARIANTS, Game, SaveError
from haleakala.rules.serialize import from_json, printable

from .gamelog import bot_seed, play_log
from .session import TerminalGame
from .textfile import MAX_SAVE_BYTES, UnreadableFile, read_text

if TYPE_CHECKING:
    from haleakala.ai import Bot

SEATS = ("human", *BOTS)
# Per game: (first seat's default, second seat's default).
SEAT_DEFAULTS = ("human", "greedy", "greedy", "greedy")
# Games with their own terminal session class ("module:Class", built as
# ``Class(game, seats, out=..., clear=...)``); Haleakala's is ``session.TerminalGame``.
SESSIONS = {
    "kahuna": "haleakala.terminal.kahuna:KahunaTerminalGame",
    "kanaloa": "haleakala.terminal.kanaloa:KanaloaTerminalGame",
}
WATCH_DELAY = 0.3  # seconds between turns when two bots play on a terminal


def one_line_errors(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """argparse prints a usage block before its error; misuse here gets one line."""

    def error(message: str) -> NoReturn:
        parser.exit(2, f"{parser.prog}: {message} (see {parser.prog} --help)\n")

    parser.error = error  # type: ignore[method-assign]
    return parser


def register(subparsers: argparse._SubParsersAction) -> None:
    p = one_line_errors(
        subparsers.add_parser(
            "play",
            help="play at the terminal (people or bots), or print a game log (--json)",
            description=__doc__,
        )
    )
    p.add_argument("--game", choices=tuple(GAMES), default="haleakala",
                   help="which island game (haleakala)")  # fmt: skip
    p.add_argument("--red", choices=SEATS, default=None, help="who plays red (human)")
    p.add_argument("--yellow", choices=SEATS, default=None, help="who plays yellow (greedy)")
    p.add_argument("--green", choices=SEATS, default=None, help="kanaloa: who plays green (greedy)")
    p.add_argument("--blue", choices=SEATS, default=None, help="kanaloa: who plays blue (greedy)")
    p.add_argument("--players", type=int, default=None, metavar="N",
                   help="kanaloa: 2, 3 or 4 players (default 4)")  # fmt: skip
    p.add_argument("--white", choices=SEATS, default=None, help="kahuna: who plays white (human)")
    p.add_argument("--black", choices=SEATS, default=None, help="kahuna: who plays black (greedy)")
    p.add_argument("--variant", choices=VARIANTS, default=None, help="base (default) or tactical")
    p.add_argument("--seed", type=int, default=None, help="deals the cards (default: random)")
    p.add_argument("--start", default=None, help="who starts (default: by seed)")
    p.add_argument("--json", action="store_true", help="print the game log (bots only)")
    p.add_argument("--legal", action="store_true", help="with --json: list the legal decisions")
    p.add_argument("--delay", type=float, default=None, metavar="SECONDS",
                   help="pause after each turn of a bots-only game "
                        f"(default {WATCH_DELAY} on a terminal, else 0)")  # fmt: skip
    p.add_argument("--load", metavar="FILE", default=None, help="continue a saved game")
    p.add_argument("--strength", choices=("child", "easy", "normal", "strong"), default=None,
                   help="the ai seats play at this level (levels by Elo: docs/benchmarks.md)")
    add_language_option(p)
    add_palette_option(p)
    p.set_defaults(func=run)


def use_color(stream: TextIO) -> bool:
    """ANSI colour only for a terminal, and never when NO_COLOR is set (no-color.org)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def resolve_seats(args: argparse.Namespace) -> None:
    """Fill ``args.seats`` (one name per player of the chosen game) from the seat flags of
    that game; a seat flag of another game's players is misuse."""
    players = seat_colours(args)
    for other in ("red", "yellow", "green", "blue", "white", "black"):
        if other not in players and getattr(args, other, None) is not None:
            raise UsageError(
                f"--{other} is not a seat in {args.game}: its players are {' and '.join(players)}"
            )
    args.seats = tuple(
        getattr(args, c) or default
        for c, default in zip(players, SEAT_DEFAULTS[: len(players)], strict=True)
    )
    bots = GAME_BOTS.get(args.game, {})
    for c, name in zip(players, args.seats, strict=True):
        if name != "human" and name not in bots:
            raise UsageError(f"--{c} {name}: {args.game} has no {name} bot ({', '.join(bots)})")
    if args.start is not None and args.start not in players:
        raise UsageError(f"--start {args.start}: choose {' or '.join(players)}")
    if args.game != "haleakala" and args.variant is not None:
        raise UsageError(f"--variant is a Haleakala option; {args.game} has none")


def seat_colours(args: argparse.Namespace) -> tuple[str, ...]:
    """The chosen game's players; Kanaloa's depend on ``--players`` (2 to 4, default 4)."""
    count = getattr(args, "players", None)
    if args.game != "kanaloa":
        if count is not None:
            raise UsageError(f"--players is a Kanaloa option; {args.game} is for two players")
        return tuple(game_class(args.game).players)
    if args.load is not None:
        if count is not None:
            raise UsageError("--load continues a saved game; drop --players")
        return ("red", "yellow", "green", "blue")[: _saved_players(args.load)]
    if count is None:
        count = args.players = 4
    if count not in (2, 3, 4):
        raise UsageError(f"--players {count}: Kanaloa is for 2, 3 or 4 players")
    return ("red", "yellow", "green", "blue")[:count]


def _saved_players(path: str) -> int:
    from haleakala.kanaloa.serialize import SaveError as KanaloaSaveError
    from haleakala.kanaloa.serialize import from_json as kanaloa_from_json

    try:
        return kanaloa_from_json(read_text(path, MAX_SAVE_BYTES)).n
    except UnreadableFile as exc:
        raise UsageError(str(exc)) from None
    except KanaloaSaveError as exc:
        raise UsageError(f"cannot load {printable(path)}: {exc}") from None


def new_game(args: argparse.Namespace) -> Game:
    if args.game != "haleakala":
        return _new_other_game(args)
    if args.load is not None:
        given = [f"--{n}" for n in ("variant", "seed", "start") if getattr(args, n) is not None]
        if given:
            raise UsageError(f"--load continues a saved game; drop {', '.join(given)}")
        # Checked down to its history: a save whose history does not lead to its position
        # is not the game it claims to be.
        try:
            return from_json(read_text(args.load, MAX_SAVE_BYTES), check_history=True)
        except UnreadableFile as exc:
            raise UsageError(str(exc)) from None
        except SaveError as exc:
            raise UsageError(f"cannot load {printable(args.load)}: {exc}") from None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    return Game(args.variant or "base", seed, args.start)


def _new_other_game(args: argparse.Namespace):
    """A game of the registry other than Haleakala (new, or ``--load``)."""
    cls = game_class(args.game)
    if args.load is not None:
        given = [f"--{n}" for n in ("seed", "start") if getattr(args, n) is not None]
        if given:
            raise UsageError(f"--load continues a saved game; drop {', '.join(given)}")
        try:
            return cls.from_json(read_text(args.load, MAX_SAVE_BYTES))
        except UnreadableFile as exc:
            raise UsageError(str(exc)) from None
        except SaveError as exc:
            raise UsageError(f"cannot load {printable(args.load)}: {exc}") from None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    if args.game == "kanaloa":
        if args.start is not None:
            raise UsageError("--start: in Kanaloa the Ku player begins (N17)")
        return cls(seed=seed, players=args.players)
    return cls(seed=seed, start=args.start)


def make_seats(args: argparse.Namespace, game) -> list[Bot | None]:
    seats: list[Bot | None] = []
    for p, name in enumerate(args.seats):
        if name == "human":
            seats.append(None)
            continue
        try:
            if name == "ai" and args.game == "haleakala" and getattr(args, "strength", None):
                from haleakala.companion.solo import make_solo_bot

                seats.append(make_solo_bot(args.strength, bot_seed(game.seed, p)))
                continue
            seats.append(make_bot(name, seed=bot_seed(game.seed, p), game=args.game))
        except ValueError as exc:
            raise UsageError(f"--{game.players[p]} {name}: {exc}") from None
    return seats


def run(args: argparse.Namespace) -> int:
    from haleakala.i18n import CatalogNotCompiled, speak

    try:
        speak(getattr(args, "lang", None))  # what the game says; --json logs stay notation
        if getattr(args, "palette", None):
            from haleakala import palette

            palette.use(args.palette)
    except CatalogNotCompiled as exc:
        raise UsageError(str(exc)) from None
    if args.delay is not None and not 0 <= args.delay < 3600:
        raise UsageError(f"--delay must be 0 to 3600 seconds, not {args.delay}")
    if args.legal and not args.json:
        raise UsageError("--legal adds the legal decisions to the game log: use it with --json")
    resolve_seats(args)
    players = seat_colours(args)
    if args.json:
        people = [c for c, s in zip(players, args.seats, strict=True) if s == "human"]
        if people:
            raise UsageError(
                f"--json prints a game between bots; choose a bot for --{people[0]} "
                f"({', '.join(GAME_BOTS.get(args.game, BOTS))})"
            )
        if args.load is not None:
            raise UsageError("--json logs a game from its start; it cannot continue --load")
    game = new_game(args)
    seats = make_seats(args, game)
    out = sys.stdout
    if args.json:
        bots = [seat for seat in seats if seat is not None]  # --json refused people above
        for line in play_log(game, bots, legal=args.legal):
            out.write(line + "\n")
        out.flush()
        return 0
    isatty = getattr(out, "isatty", None)
    tty = bool(isatty and isatty())
    if args.game in SESSIONS:
        module, cls = SESSIONS[args.game].split(":")
        session_class = getattr(importlib.import_module(module), cls)
        return session_class(game, seats, out=out, clear=tty).run()
    bots_only = all(seat is not None for seat in seats)
    delay = args.delay if args.delay is not None else (WATCH_DELAY if tty else 0.0)
    if any(seat is None for seat in seats) and sys.stdin.isatty():
        with suppress(ImportError):
            import readline  # noqa: F401  (line editing and history for input())
    session = TerminalGame(
        game,
        seats,
        out=out,
        color=use_color(out),
        watch=bots_only and (tty or args.delay is not None),
        delay=delay if bots_only else 0.0,
        clear=bots_only and tty,
    )
    return session.run()
