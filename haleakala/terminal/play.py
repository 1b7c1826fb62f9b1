"""``haleakala play``: a game at the terminal (people and bots), or a game log with ``--json``.

``--game`` picks the island game (haleakala, the default, or kahuna); ``--players N`` how
many play (where the game allows several counts), and ``--seat COLOUR=WHO`` (repeatable)
who sits at each colour. The older per-colour flags (``--red/--yellow``, ``--white/--black``)
stay as aliases of ``--seat``.

Two bots with ``--json`` print the game log of NOTATION.md and nothing else, so another
program (or ``haleakala replay``) can read it; the same seed gives the same bytes. Without
``--json``, two bots on a terminal make a watchable demo: the island after every turn and
a short pause (``--delay``).
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import TYPE_CHECKING, Any, NoReturn

from haleakala.ai import BOTS, bots_of, make_bot
from haleakala.cli import UsageError, add_language_option, add_palette_option
from haleakala.gameapi import DEFAULT_GAME, GAMES, describe, hook, load_game
from haleakala.gameapi import new_game as new_state
from haleakala.rules import VARIANTS
from haleakala.rules.serialize import printable

from .gamelog import bot_seed, play_log
from .session import WATCH_DELAY, use_color  # noqa: F401  (importable from here before)
from .textfile import MAX_SAVE_BYTES, UnreadableFile, read_text

if TYPE_CHECKING:
    from haleakala.ai import Bot
    from haleakala.gameapi import GameState

SEATS = ("human", *BOTS)
# The first seat's default; every other seat's is ``OTHER_SEAT_DEFAULT``.
SEAT_DEFAULTS = ("human", "greedy")
OTHER_SEAT_DEFAULT = "greedy"
# The per-colour flags of the first games, kept as aliases of ``--seat COLOUR=WHO``.
COLOUR_FLAGS = ("red", "yellow", "green", "blue", "white", "black")


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
    p.add_argument("--game", choices=tuple(GAMES), default=DEFAULT_GAME,
                   help="which island game (haleakala)")  # fmt: skip
    p.add_argument("--players", type=int, default=None, metavar="N",
                   help="how many play (default: the fewest the game allows)")  # fmt: skip
    p.add_argument("--seat", action="append", default=[], metavar="COLOUR=WHO",
                   help="who plays a colour: human or a bot of the game (repeatable; "
                        "default: the first colour human, the others greedy)")  # fmt: skip
    p.add_argument("--red", choices=SEATS, default=None, help="as --seat red=WHO (human)")
    p.add_argument("--yellow", choices=SEATS, default=None, help="as --seat yellow=WHO (greedy)")
    p.add_argument("--green", choices=SEATS, default=None, help="as --seat green=WHO (kanaloa)")
    p.add_argument("--blue", choices=SEATS, default=None, help="as --seat blue=WHO (kanaloa)")
    p.add_argument("--white", choices=SEATS, default=None, help="as --seat white=WHO (kahuna)")
    p.add_argument("--black", choices=SEATS, default=None, help="as --seat black=WHO (kahuna)")
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
    p.add_argument("--speak", nargs="?", const="events", default=None,
                   choices=("events", "everything"),
                   help="say the game aloud (espeak-ng): events (default) or everything")
    p.add_argument("--speak-to", metavar="DIR", default=None,
                   help="with --speak: write each utterance as a WAV file into DIR instead "
                        "of the desktop's sound")  # fmt: skip
    p.add_argument("--volume", type=int, default=None, metavar="PERCENT",
                   help="with --speak: 0 to 100 (default 60)")
    add_language_option(p)
    add_palette_option(p)
    p.set_defaults(func=run)


def resolve_seats(args: argparse.Namespace) -> None:
    """Fill ``args.colours`` (the seat colours of the chosen game and player count) and
    ``args.seats`` (one name per player) from ``--players``, ``--seat`` and the per-colour
    aliases; a seat of another game's colours, a colour given twice or a bot the game does
    not have is misuse."""
    description = describe(args.game)
    try:
        players = description.seats(getattr(args, "players", None))
    except ValueError as exc:
        raise UsageError(f"--players: {exc}") from None
    args.colours = players
    chosen: dict[str, str] = {}

    def choose(colour: str, who: str, flag: str) -> None:
        if colour not in players:
            raise UsageError(
                f"{flag} is not a seat in {args.game}: its players are {' and '.join(players)}"
            )
        if colour in chosen:
            raise UsageError(f"{flag}: {colour} is given twice")
        chosen[colour] = who

    for text in getattr(args, "seat", None) or []:
        colour, sep, who = text.partition("=")
        if not sep or not colour or not who:
            raise UsageError(f"--seat {printable(text)}: write COLOUR=WHO, e.g. --seat "
                             f"{players[0]}=human")  # fmt: skip
        choose(colour.strip().lower(), who.strip(), f"--seat {printable(text)}")
    for colour in COLOUR_FLAGS:
        if getattr(args, colour, None) is not None:
            choose(colour, getattr(args, colour), f"--{colour}")
    args.seats = tuple(
        chosen.get(c, SEAT_DEFAULTS[0] if i == 0 else OTHER_SEAT_DEFAULT)
        for i, c in enumerate(players)
    )
    bots = bots_of(args.game)
    for c, name in zip(players, args.seats, strict=True):
        if name != "human" and name not in bots:
            raise UsageError(f"--{c} {name}: {args.game} has no {name} bot ({', '.join(bots)})")
    if args.start is not None and args.start not in players:
        raise UsageError(f"--start {args.start}: choose {' or '.join(players)}")
    if args.variant is not None and "variant" not in description.options:
        owners = [describe(g).title for g in GAMES if "variant" in describe(g).options]
        raise UsageError(f"--variant is a {' or '.join(owners)} option; {args.game} has none")


def new_game(args: argparse.Namespace) -> GameState:
    """The game of ``args``: ``--load``ed (checked as the game checks its saves) or new."""
    if args.load is not None:
        fresh = ("variant", "seed", "start", "players")
        given = [f"--{n}" for n in fresh if getattr(args, n, None) is not None]
        if given:
            raise UsageError(f"--load continues a saved game; drop {', '.join(given)}")
        try:
            return load_game(args.game, read_text(args.load, MAX_SAVE_BYTES))
        except UnreadableFile as exc:
            raise UsageError(str(exc)) from None
        except ValueError as exc:
            raise UsageError(f"cannot load {printable(args.load)}: {exc}") from None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    options = {"variant": args.variant} if args.variant is not None else {}
    players = getattr(args, "players", None)
    try:
        return new_state(args.game, seed, players=players, start=args.start, **options)
    except ValueError as exc:  # e.g. Kanaloa's --start: the Ku player begins (N13, N17)
        raise UsageError(str(exc)) from None


def make_seats(args: argparse.Namespace, game: GameState) -> list[Bot | None]:
    strength_of = describe(args.game).strength
    seats: list[Bot | None] = []
    for p, name in enumerate(args.seats):
        if name == "human":
            seats.append(None)
            continue
        seed = bot_seed(game.seed, p)  # type: ignore[attr-defined]
        try:
            if name == "ai" and strength_of and getattr(args, "strength", None):
                seats.append(hook(strength_of)(args.strength, seed))
                continue
            seats.append(make_bot(name, seed=seed, game=args.game))
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
    players = args.colours
    if args.json:
        people = [c for c, s in zip(players, args.seats, strict=True) if s == "human"]
        if people:
            raise UsageError(
                f"--json prints a game between bots; choose a bot for --{people[0]} "
                f"({', '.join(bots_of(args.game))})"
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
    if not describe(args.game).terminal:
        raise UsageError(f"{describe(args.game).title} has no terminal game yet: play bots "
                         "with --json")  # fmt: skip
    open_session = hook(describe(args.game).terminal)
    session = open_session(game, seats, out=out, tty=tty, delay=args.delay)
    if args.speak is not None:
        session.voice = session_voice(args)
    return int(session.run())


def session_voice(args: argparse.Namespace) -> Any:
    """``--speak``: espeak-ng through the desktop's sound, or WAV files (``--speak-to``); a
    missing engine or sound device is said once on stderr and the game goes on silently."""
    from haleakala.hal.audio import DesktopAudio, FileAudio
    from haleakala.speech.engine import Espeak
    from haleakala.speech.settings import DEFAULT_VOLUME, Settings
    from haleakala.speech.voice import Voice

    from .speaking import SessionVoice

    volume = DEFAULT_VOLUME if args.volume is None else args.volume
    if not 0 <= volume <= 100:
        raise UsageError(f"--volume must be 0 to 100 (per cent), not {volume}")
    audio = FileAudio(args.speak_to) if args.speak_to else DesktopAudio()
    voice = Voice(Espeak(), audio, Settings(args.speak, volume)).start()
    for trouble in voice.troubles:
        print(f"haleakala play: speech off: {trouble.detail}", file=sys.stderr)
    return SessionVoice(voice, args.game)
