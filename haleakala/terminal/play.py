"""``haleakala play``: a game at the terminal (people and bots), or a game log with ``--json``.

Two bots with ``--json`` print the game log of NOTATION.md and nothing else, so another
program (or ``haleakala replay``) can read it; the same seed gives the same bytes. Without
``--json``, two bots on a terminal make a watchable demo: the island after every turn and
a short pause (``--delay``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from contextlib import suppress
from typing import TYPE_CHECKING, NoReturn, TextIO

from haleakala.ai import BOTS, make_bot
from haleakala.cli import UsageError
from haleakala.rules import PLAYERS, VARIANTS, Game, SaveError

from .gamelog import bot_seed, play_log
from .session import TerminalGame

if TYPE_CHECKING:
    from haleakala.ai import Bot

SEATS = ("human", *BOTS)
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
    p.add_argument("--red", choices=SEATS, default="human", help="who plays red (human)")
    p.add_argument("--yellow", choices=SEATS, default="greedy", help="who plays yellow (greedy)")
    p.add_argument("--variant", choices=VARIANTS, default=None, help="base (default) or tactical")
    p.add_argument("--seed", type=int, default=None, help="deals the cards (default: random)")
    p.add_argument("--start", choices=PLAYERS, default=None, help="who starts (default: by seed)")
    p.add_argument("--json", action="store_true", help="print the game log (bots only)")
    p.add_argument("--legal", action="store_true", help="with --json: list the legal decisions")
    p.add_argument("--delay", type=float, default=None, metavar="SECONDS",
                   help="pause after each turn of a bots-only game "
                        f"(default {WATCH_DELAY} on a terminal, else 0)")  # fmt: skip
    p.add_argument("--load", metavar="FILE", default=None, help="continue a saved game")
    p.add_argument("--strength", choices=("child", "easy", "normal", "strong"), default=None,
                   help="the ai seats play at this level (levels by Elo, see README)")  # fmt: skip
    p.set_defaults(func=run)


def use_color(stream: TextIO) -> bool:
    """ANSI colour only for a terminal, and never when NO_COLOR is set (no-color.org)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def new_game(args: argparse.Namespace) -> Game:
    if args.load is not None:
        given = [f"--{n}" for n in ("variant", "seed", "start") if getattr(args, n) is not None]
        if given:
            raise UsageError(f"--load continues a saved game; drop {', '.join(given)}")
        try:
            with open(args.load, encoding="utf-8") as f:
                return Game.from_json(f.read())
        except OSError as exc:
            raise UsageError(f"cannot read {args.load}: {exc.strerror or exc}") from None
        except (SaveError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot load {args.load}: {exc}") from None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    return Game(args.variant or "base", seed, args.start)


def make_seats(args: argparse.Namespace, game: Game) -> list[Bot | None]:
    seats: list[Bot | None] = []
    for p, name in enumerate((args.red, args.yellow)):
        if name == "human":
            seats.append(None)
            continue
        try:
            if name == "ai" and getattr(args, "strength", None):
                from haleakala.companion.solo import make_solo_bot

                seats.append(make_solo_bot(args.strength, bot_seed(game.seed, p)))
                continue
            seats.append(make_bot(name, seed=bot_seed(game.seed, p)))
        except ValueError as exc:
            raise UsageError(f"--{PLAYERS[p]} {name}: {exc}") from None
    return seats


def run(args: argparse.Namespace) -> int:
    if args.delay is not None and not 0 <= args.delay < 3600:
        raise UsageError(f"--delay must be 0 to 3600 seconds, not {args.delay}")
    if args.legal and not args.json:
        raise UsageError("--legal adds the legal decisions to the game log: use it with --json")
    if args.json:
        people = [c for c, s in zip(PLAYERS, (args.red, args.yellow), strict=True) if s == "human"]
        if people:
            raise UsageError(
                f"--json prints a game between bots; choose a bot for --{people[0]} "
                f"({', '.join(BOTS)})"
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
