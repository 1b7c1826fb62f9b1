"""``haleakala host``: host a game whose seats are phones (and bots), on a laptop or a Pi.

    haleakala host --web 0.0.0.0:8080 --seat black=ai          the hosted game by default
    haleakala host --game NAME --players 3 --web 8080 --seat red=phone --seat blue=greedy

Each phone seat gets its own link with its own token, printed here with its QR code (and
listed on the host's page, ``/`` with the host's link): a phone that opens it plays that
seat and sees only what that seat may see. The host alone holds the game, checks every
decision and drives the bots. Nothing listens unless ``--web`` says where: a port alone is
this machine only; ``0.0.0.0:PORT`` is the LAN. Seats not named with ``--seat`` are phones.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
import threading
from typing import Any

from haleakala.cli import UsageError, add_language_option
from haleakala.toolkit.terminal import one_line_errors

log = logging.getLogger("haleakala.host")


def register(subparsers: argparse._SubParsersAction) -> None:
    from haleakala.gameapi import DEFAULT_HOSTED_GAME, GAMES

    p = one_line_errors(
        subparsers.add_parser(
            "host",
            help="host a game for phones (and bots) over the live view",
            description=__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
    )
    p.add_argument("--game", choices=tuple(GAMES), default=DEFAULT_HOSTED_GAME,
                   help=f"which island game (default {DEFAULT_HOSTED_GAME})")  # fmt: skip
    p.add_argument("--players", type=int, default=None, metavar="N",
                   help="how many seats (default: the game's usual number)")  # fmt: skip
    p.add_argument(
        "--web",
        metavar="[HOST:]PORT",
        default=None,
        help="where to listen (required): a port alone is this machine only, 0.0.0.0:PORT "
        "the phones on the LAN",
    )
    p.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="COLOUR=WHO",
        help="who plays a seat: phone (default) or a bot of the game (random, greedy, ai); "
        "repeat for each seat",
    )
    p.add_argument("--seed", type=int, default=None, help="the deal (default: random)")
    p.add_argument(
        "--journal",
        metavar="PATH",
        default=None,
        help="keep every decision in PATH (fsynced before it is acknowledged) and resume the "
        "game it holds after a restart (new seat links are printed); renamed *.done at the end",
    )
    p.add_argument("--exit-when-over", action="store_true",
                   help="stop serving once the game is over (default: until Ctrl-C)")  # fmt: skip
    add_language_option(p)
    p.set_defaults(func=run)


def parse_seats(specs: list[str], players: tuple[str, ...], bots: dict[str, str]) -> dict:
    """``["black=ai"]`` -> ``{"white": "phone", "black": "ai"}``; misuse says what to write."""
    from haleakala.web.seats import PHONE

    seats = dict.fromkeys(players, PHONE)
    for spec in specs:
        colour, sep, who = spec.partition("=")
        colour, who = colour.strip().lower(), who.strip().lower()
        if not sep or colour not in players:
            raise UsageError(
                f"--seat {spec!r}: write COLOUR=WHO with COLOUR one of {', '.join(players)}"
            )
        if who != PHONE and who not in bots:
            raise UsageError(f"--seat {spec!r}: WHO is phone or a bot: {', '.join(sorted(bots))}")
        seats[colour] = who
    return seats


def new_hosted_game(name: str, seed: int, count: int | None) -> Any:
    from haleakala.gameapi import new_game

    game = new_game(name, seed=seed)
    if count is None or count == len(game.players):
        return game
    try:
        return new_game(name, seed=seed, players=count)
    except ValueError as exc:  # the game's sentence names every count its rules support
        raise UsageError(f"--players {count}: {exc}") from None
    except TypeError:
        raise UsageError(
            f"--players {count}: {name} is played here by {len(game.players)} players"
        ) from None


def run(args: argparse.Namespace) -> int:
    import random

    from haleakala import i18n

    i18n.speak(args.lang, warn=lambda text: print(f"haleakala host: {text}", file=sys.stderr))
    if args.web is None:
        raise UsageError(
            "--web [HOST:]PORT is required: 8080 for this machine only, 0.0.0.0:8080 for "
            "the phones on the LAN"
        )
    try:
        from haleakala.web.host import HostView
        from haleakala.web.seats import BotDriver
        from haleakala.web.server import AddressError, parse_address
    except ImportError as exc:
        from haleakala.web.start import INSTALL_HINT

        raise UsageError(f"{exc.name or 'aiohttp'} is missing: {INSTALL_HINT}") from None
    from haleakala.ai import bots_of, make_bot

    try:
        host, port = parse_address(args.web)
    except AddressError as exc:
        raise UsageError(f"--web {exc}") from None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    game = new_hosted_game(args.game, seed, args.players)
    seats = parse_seats(args.seat, tuple(game.players), bots_of(args.game))
    bots = {
        colour: make_bot(who, seed + i, game=args.game)
        for i, (colour, who) in enumerate(seats.items())
        if who != "phone"
    }
    table, journal = open_table(args, game, seats)
    resumed = table.seq
    view = HostView(table, host, port)
    try:
        view.start()
    except OSError as exc:
        raise UsageError(
            f"cannot listen on {host}:{port} ({exc.strerror or exc}): choose another port, "
            "or stop the program that holds it"
        ) from None
    driver = BotDriver(table, bots).start()
    if resumed:
        print(f"resumed game {table.game_id} at decision {resumed} from {args.journal}")
    else:
        print(f"{args.game}, seed {seed}: host page {view.base()}/?token={view.token}")
    for colour in table.phone_seats():
        url = view.seat_url(colour)
        print(f"\n{colour}: {url}")
        print_qr(url)
    sys.stdout.flush()
    over = threading.Event()
    try:
        while not over.is_set():
            table.wait_for_change(table.seq, 1.0)
            if driver.error is not None:
                print(f"haleakala host: a bot failed: {driver.error}", file=sys.stderr)
                return 1
            if table.game.is_terminal():
                print(f"game over: {table.view(table.players[0])['result']}")
                if journal is not None and journal.path.exists():
                    journal.path.replace(journal.path.with_suffix(".done"))
                sys.stdout.flush()
                if args.exit_when_over:
                    over.set()
                else:
                    threading.Event().wait()  # serve the final view until Ctrl-C
    finally:
        driver.close()
        view.close()
    return 0


def open_table(args: argparse.Namespace, game: Any, seats: dict) -> tuple[Any, Any]:
    """The table, and its journal with ``--journal``: the game it holds resumed (same game
    id, every decision replayed and checked), else ``game`` started in it."""
    from haleakala.gameapi import game_class
    from haleakala.remote.journal import JournalError, RemoteJournal
    from haleakala.web.seats import TABLE, Table

    if args.journal is None:
        return Table(game, seats), None
    from pathlib import Path

    journal = RemoteJournal(Path(args.journal))
    try:
        saved = journal.read()
        if saved is not None:
            setup, records = saved
            if setup.get("name") != args.game:
                raise JournalError(f"{args.journal} holds a game of {setup.get('name')!r}")
            start = game_class(setup["name"]).from_json(setup["start"])
            history = [(r["seat"], r["decision"]) for r in records]
            table = Table(start, seats, journal=journal.append, game_id=setup["game"],
                          history=history)  # fmt: skip
            return table, journal
    except (JournalError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"--journal {args.journal}: {exc}") from None
    table = Table(game, seats, journal=journal.append)
    journal.start({"table": TABLE, "game": table.game_id, "name": args.game,
                   "start": game.to_json()})  # fmt: skip
    return table, journal


def print_qr(url: str) -> None:
    """The seat's QR code in the terminal (half-block characters), for a phone to scan."""
    import segno

    # A terminal without the block characters keeps the link printed above.
    with contextlib.suppress(UnicodeEncodeError):
        segno.make_qr(url, error="l").terminal(out=sys.stdout, compact=True)
