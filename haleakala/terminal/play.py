"""``haleakala play``: a game at the terminal (people and bots), or a game log with ``--json``.

``--game`` picks the island game (the default game when none is named); ``--players N`` how
many play (where the game allows several counts), and ``--seat COLOUR=WHO``
(repeatable) who sits at each colour. The per-colour flags (``--red``, one for every colour
of every registered game) stay as aliases of ``--seat``.

Two bots with ``--json`` print the game log of NOTATION.md and nothing else, so another
program (or ``haleakala replay``) can read it; the same seed gives the same bytes. Without
``--json``, two bots on a terminal make a watchable demo: the island after every turn and
a short pause (``--delay``).
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import TYPE_CHECKING, Any

from haleakala.ai import bots_of, make_bot
from haleakala.cli import UsageError, add_language_option, add_palette_option
from haleakala.core.jsonread import printable
from haleakala.gameapi import DEFAULT_GAME, GAMES, describe, hook, load_game
from haleakala.gameapi import new_game as new_state
from haleakala.toolkit.gamelog import bot_seed, play_log
from haleakala.toolkit.terminal import (  # noqa: F401  (importable from here before)
    WATCH_DELAY,
    one_line_errors,
    use_color,
)
from haleakala.toolkit.textfile import MAX_SAVE_BYTES, UnreadableFile, read_text

if TYPE_CHECKING:
    from haleakala.ai import Bot
    from haleakala.gameapi import GameState

SEATS = ("human", *dict.fromkeys(bot for name in GAMES for bot in describe(name).bots))
"""Who may sit at a colour: a person, or a bot of some game (``resolve_seats`` checks that
the chosen game has it)."""
FIRST_SEAT_DEFAULT = "human"
"""The first seat's default; every other seat's is its game's ``default_opponent``."""


def colour_flags() -> dict[str, list[str]]:
    """Every seat colour of every registered game, in registry and seat order, with the
    titles of the games that have it: each is a ``--COLOUR WHO`` flag, an alias of
    ``--seat COLOUR=WHO`` kept from the first games (``--red``, ``--white``)."""
    flags: dict[str, list[str]] = {}
    for name in GAMES:
        description = describe(name)
        for colour in description.colours:
            flags.setdefault(colour, []).append(description.title)
    return flags


def option_choices() -> dict[str, tuple[list[str], str]]:
    """Every game's own option (``--variant``): its choices over every game that has it,
    and its help."""
    found: dict[str, tuple[list[str], str]] = {}
    for name in GAMES:
        description = describe(name)
        for option, help_text in description.options.items():
            choices, _ = found.setdefault(option, ([], help_text))
            choices.extend(
                c for c in description.option_choices.get(option, ()) if c not in choices
            )
    return found


def _doc_body() -> str:
    return (__doc__ or "").split("\n\n", 1)[1]


def games_line() -> str:
    """Every registered game with its player counts ("NAME 2 players, NAME 2-4 players"):
    the help names each game the registry has, never a list written by hand."""
    parts = []
    for name in GAMES:
        counts = describe(name).player_counts
        n = str(counts[0]) if len(counts) == 1 else f"{min(counts)}-{max(counts)}"
        parts.append(f"{name} {n} players")
    return ", ".join(parts)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(
        subparsers.add_parser(
            "play",
            help="play at the terminal (people or bots), or print a game log (--json)",
            description=f"Play an island game at the terminal, people and bots: {games_line()}. "
            + _doc_body().replace("``", ""),
        )
    )
    p.add_argument("--game", choices=tuple(GAMES), default=DEFAULT_GAME,
                   help=f"which island game: {', '.join(GAMES)} "
                        f"(default {DEFAULT_GAME})")  # fmt: skip
    p.add_argument("--players", type=int, default=None, metavar="N",
                   help=f"how many play ({games_line()}; default: the fewest the game "
                        "allows)")  # fmt: skip
    p.add_argument("--seat", action="append", default=[], metavar="COLOUR=WHO",
                   help="who plays a colour: human or a bot of the game (repeatable; "
                        "default: the first colour human, the others greedy)")  # fmt: skip
    for colour, titles in colour_flags().items():
        p.add_argument(f"--{colour}", choices=SEATS, default=None,
                       help=f"as --seat {colour}=WHO ({', '.join(titles)})")  # fmt: skip
    for option, (choices, help_text) in option_choices().items():
        p.add_argument(f"--{option}", choices=choices or None, default=None, help=help_text)
    p.add_argument("--seed", type=int, default=None, help="deals the cards (default: random)")
    p.add_argument("--start", default=None, help="who starts (default: by seed)")
    p.add_argument("--json", action="store_true", help="print the game log (bots only)")
    p.add_argument("--legal", action="store_true", help="with --json: list the legal decisions")
    p.add_argument("--delay", type=float, default=None, metavar="SECONDS",
                   help="pause after each turn of a bots-only game "
                        f"(default {WATCH_DELAY} on a terminal, else 0)")  # fmt: skip
    p.add_argument("--load", metavar="FILE", default=None, help="continue a saved game")
    p.add_argument(
        "--strength",
        choices=("child", "easy", "normal", "strong"),
        default=None,
        help="the ai seats play at this level (levels by Elo: docs/benchmarks.md)",
    )
    p.add_argument(
        "--speak",
        nargs="?",
        const="events",
        default=None,
        choices=("events", "everything"),
        help="say the game aloud (espeak-ng): events (default) or everything",
    )
    p.add_argument("--speak-to", metavar="DIR", default=None,
                   help="with --speak: write each utterance as a WAV file into DIR instead "
                        "of the desktop's sound")  # fmt: skip
    p.add_argument(
        "--volume",
        type=int,
        default=None,
        metavar="PERCENT",
        help="with --speak: 0 to 100 (default 60)",
    )
    add_language_option(p)
    add_palette_option(p)
    p.set_defaults(func=run)


def resolve_seats(args: argparse.Namespace, count: int | None = None) -> None:
    """Fill ``args.colours`` (the seat colours of the chosen game and player count) and
    ``args.seats`` (one name per player) from ``--players`` (or ``count``: the players of a
    ``--load``ed save), ``--seat`` and the per-colour aliases; a seat of another game's
    colours, a colour given twice or a bot the game does not have is misuse."""
    description = describe(args.game)
    try:
        players = description.seats(count or getattr(args, "players", None))
    except ValueError as exc:
        raise UsageError(f"--players: {exc}") from None
    args.colours = players
    chosen: dict[str, str] = {}

    flags: dict[str, str] = {}  # colour -> how the person named it ("--seat red=", "--red ")

    def choose(colour: str, who: str, flag: str) -> None:
        if colour not in players:
            raise UsageError(
                f"{flag} is not a seat in {args.game}: its players are {' and '.join(players)}"
            )
        if colour in chosen:
            raise UsageError(f"{flag}: {colour} is given twice")
        chosen[colour] = who
        flags[colour] = flag.partition("=")[0] + ("=" if "=" in flag else " ")

    for text in getattr(args, "seat", None) or []:
        colour, sep, who = text.partition("=")
        if not sep or not colour or not who:
            raise UsageError(f"--seat {printable(text)}: write COLOUR=WHO, e.g. --seat "
                             f"{players[0]}=human")  # fmt: skip
        choose(colour.strip().lower(), who.strip(), f"--seat {printable(text)}")
    for colour in colour_flags():
        if getattr(args, colour, None) is not None:
            choose(colour, getattr(args, colour), f"--{colour}")
    args.seats = tuple(
        chosen.get(c, FIRST_SEAT_DEFAULT if i == 0 else description.default_opponent)
        for i, c in enumerate(players)
    )
    bots = bots_of(args.game)
    for c, name in zip(players, args.seats, strict=True):
        if name != "human" and name not in bots:
            said = flags.get(c, f"--{c} ") + printable(name)  # as typed: --seat red=robot
            raise UsageError(f"{said}: {args.game} has no {printable(name)} bot; WHO is human "
                             f"or one of {', '.join(bots)}")  # fmt: skip
    if args.start is not None and args.start not in players:
        raise UsageError(f"--start {args.start}: choose {' or '.join(players)}")
    for option in option_choices():
        if getattr(args, option, None) is not None and option not in description.options:
            owners = [describe(g).title for g in GAMES if option in describe(g).options]
            raise UsageError(f"--{option} is a {' or '.join(owners)} option; "
                             f"{args.game} has none")  # fmt: skip


def new_game(args: argparse.Namespace) -> GameState:
    """The game of ``args``: ``--load``ed (checked as the game checks its saves) or new."""
    if args.load is not None:
        fresh = (*option_choices(), "seed", "start", "players")
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
    options = {o: getattr(args, o) for o in option_choices() if getattr(args, o, None) is not None}
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
        seed = bot_seed(game.seed, p)
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
    # A save says how many play: its seats are worked out after it is read (a game of
    # three or four resumes with its own seats, not the default count's).
    loaded = new_game(args) if args.load is not None else None
    resolve_seats(args, len(loaded.players) if loaded is not None else None)
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
    game = loaded if loaded is not None else new_game(args)
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
    # The game's own session, else the generic one (its text and its notation).
    own = describe(args.game).terminal
    open_session = hook(own or "haleakala.toolkit.generic.terminal:open_session")
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
    from haleakala.toolkit.speaking import SessionVoice

    volume = DEFAULT_VOLUME if args.volume is None else args.volume
    if not 0 <= volume <= 100:
        raise UsageError(f"--volume must be 0 to 100 (per cent), not {volume}")
    audio = FileAudio(args.speak_to) if args.speak_to else DesktopAudio()
    voice = Voice(Espeak(), audio, Settings(args.speak, volume)).start()
    for trouble in voice.troubles:
        print(f"haleakala play: speech off: {trouble.detail}", file=sys.stderr)
    return SessionVoice(voice, args.game)
