"""The start of ``haleakala run --remote``: the command line's options turned into a kit
(``kit.RemoteKit``), which then plays on this kit's board (``table.run_board``), with
``--autoplay``, or with decisions typed on standard input.

Why a module of its own: the kit is the protocol loop; reading options, the config and the
state directory, and choosing how this seat's decisions are made, is start-up.
"""

from __future__ import annotations

import secrets
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from haleakala.gameapi import DEFAULT_GAME

from .access import AccessError, access, phone_options, serve_phones, show_join
from .journal import JournalError
from .kit import EXIT_CONFIG, EXIT_FAILURE, RemoteKit, stdin_reader
from .mqtt import RemoteURLError, parse_url
from .wire import table_key


def seat_options(specs: Any) -> tuple[str, dict[str, str], str]:
    """``--seat`` as given (one COLOUR, and at the host COLOUR=WHO for other seats) ->
    (this kit's seat, {colour: bot} of the seats the host plays with a bot, a problem's
    sentence or ""). ``kit`` (a kit over the broker) is every other seat's default."""
    if isinstance(specs, str):
        specs = [specs]
    here = [s.strip().lower() for s in specs or () if "=" not in s]
    bots: dict[str, str] = {}
    for spec in specs or ():
        colour, sep, who = spec.partition("=")
        if not sep:
            continue
        colour, who = colour.strip().lower(), who.strip().lower()
        if not colour or not who:
            return "", {}, f"--seat {spec!r}: write COLOUR=WHO (WHO: kit or a bot of the game)"
        if who != "kit":
            bots[colour] = who
    if len(here) != 1:
        return "", {}, (
            "--remote needs --seat COLOUR (the seat played here)" if not here
            else f"--seat: one seat is played here, not {len(here)} ({', '.join(here)})"
        )  # fmt: skip
    return here[0], bots, ""


def main(args: Any) -> int:
    """The ``--remote`` branch of ``haleakala run``."""
    try:
        url = parse_url(args.remote)
    except RemoteURLError as exc:
        print(f"haleakala run: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    problem = phone_options(args)
    if problem:
        print(f"haleakala run: {problem}", file=sys.stderr)
        return EXIT_CONFIG
    seat, bots, problem = seat_options(getattr(args, "seat", None))
    if problem:
        print(f"haleakala run: {problem}", file=sys.stderr)
        return EXIT_CONFIG
    if bots and not args.host:
        print("haleakala run: --seat COLOUR=WHO is the host's to say (add --host, or give "
              "this kit's own --seat COLOUR only)", file=sys.stderr)  # fmt: skip
        return EXIT_CONFIG
    try:
        import paho.mqtt  # noqa: F401
    except ImportError:
        from haleakala.checkout import install_hint

        print(
            f"haleakala run: remote play needs paho-mqtt: {install_hint('remote')}",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    from haleakala.config import ConfigError, load

    try:
        config = load(getattr(args, "config", None))
    except (ConfigError, OSError) as exc:
        print(f"haleakala run: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    state_dir = Path(getattr(args, "state_dir", None) or config.state_dir) / "remote"
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"haleakala run: state directory {state_dir} is not usable: {exc}", file=sys.stderr)
        return EXIT_FAILURE

    def new_game() -> Any:
        from haleakala.gameapi import new_game as deal
        from haleakala.games.haleakala import Game

        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        name = getattr(args, "game", None) or DEFAULT_GAME
        players = getattr(args, "players", None)
        if name != DEFAULT_GAME or players not in (None, 2):  # any game of gameapi.GAMES
            try:
                return deal(name, seed=seed, players=players)
            except ValueError as exc:  # the game's sentence names the counts it allows
                raise JournalError(f"--players {players}: {exc}") from None
        return Game(args.variant or config.variant, seed, args.start)

    try:
        url, secret, said = access(args, url, config, state_dir)
    except AccessError as exc:
        print(f"haleakala run: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    for line in said:
        print(line, file=sys.stderr)
    try:
        kit = RemoteKit(
            url, seat, host=bool(args.host), state_dir=state_dir, new_game=new_game, bots=bots,
            autoplay=args.autoplay, autoplay_until=getattr(args, "autoplay_until", None),
            hints=bool(getattr(args, "allow_hints", False)),
            key=table_key(secret), ca_file=getattr(args, "ca_file", None),
            typed=bool(getattr(args, "typed", False)),
        )  # fmt: skip
    except JournalError as exc:
        print(f"haleakala run: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if kit.authority is not None:
        remote = [s for s in kit.authority.players if s not in (seat, *kit.bots, *kit.phones)]
        show_join(url, secret, remote, sys.stdout)
    if kit.phones:
        try:
            serve_phones(kit, args.web)
        except ValueError as exc:
            print(f"haleakala run: {exc}", file=sys.stderr)
            return EXIT_CONFIG
    if args.autoplay is None and not getattr(args, "typed", False):
        from .table import run_board

        if kit.authority is None or kit.authority.name == DEFAULT_GAME:
            return run_board(args, kit)  # the companion daemon on this kit's board
    if args.autoplay is None:
        kit.typed = True  # a prompt, the legal decisions, the hand, local commands
        threading.Thread(target=stdin_reader, args=(kit.events,), daemon=True).start()
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    signal.signal(signal.SIGUSR1, lambda *_: kit.events.put(("release",)))
    return kit.run(stop)
