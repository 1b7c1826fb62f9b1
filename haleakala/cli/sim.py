"""``haleakala sim``: the desktop simulator of the kit, and every other game's window.

    haleakala sim                                   the kit simulator (the default game)
    haleakala sim --kit rfid --variant tactical     a new game on the RFID kit
    haleakala sim --solo yellow --strength normal   play red against the companion
    haleakala sim --headless --scenario FILE...     run scenarios, exit 0/1 with a diff
    haleakala sim --screenshot out.png [--decisions 80]   save the window as a PNG
    haleakala sim --game NAME [--opponent human]    that game's window (vs its default bot)
    haleakala sim --game NAME --players 3 --web 8080   and its live view for watchers

A game's window is its description's ``window`` hook (the default game's is the kit
simulator, ``haleakala.simulator.run``); a game without one plays in the generic window
(its text and its legal decisions as buttons, ``toolkit.generic.window``).
"""

from __future__ import annotations

import argparse
from typing import Any

from haleakala.cli import UsageError, add_language_option, add_palette_option
from haleakala.gameapi import DEFAULT_GAME, GAMES, describe, hook
from haleakala.toolkit.terminal import one_line_errors

KITS = ("buttons", "rfid")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(
        subparsers.add_parser(
            "sim",
            help="desktop simulator window; scenarios with --headless --scenario",
            description=__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
    )
    p.add_argument(
        "--game",
        choices=tuple(GAMES),
        default=DEFAULT_GAME,
        help=f"which island game (default {DEFAULT_GAME}: the kit simulator; the others: "
        "their window, see --opponent, --colour, --players)",
    )
    p.add_argument(
        "--headless",
        action="store_true",
        help="no window: run --scenario files, or a demo game in the terminal",
    )
    p.add_argument("--scenario", nargs="+", metavar="FILE", help="scenario file(s) (TOML)")
    p.add_argument("--screenshot", metavar="PNG", help="save the window as a PNG and exit")
    p.add_argument("--kit", choices=KITS, default=None, help="buttons (default) or rfid")
    variants = describe(DEFAULT_GAME).option_choices.get("variant", ())
    p.add_argument("--variant", choices=variants, default=None, help="base or tactical")
    p.add_argument("--seed", type=int, default=None, help="deal of a new game")
    kit_seats = describe(DEFAULT_GAME).colours  # the kit simulator plays the default game
    p.add_argument("--start", choices=kit_seats, default=None, help="who starts a new game")
    p.add_argument(
        "--solo",
        choices=(*kit_seats, "off"),
        default=None,
        help="the companion plays this colour (off: nobody; default: as the resumed game)",
    )
    p.add_argument(
        "--strength",
        choices=("child", "easy", "normal", "strong"),
        default=None,
        help="solo: child, easy, normal or strong (levels by Elo, see docs/benchmarks.md)",
    )
    p.add_argument(
        "--state-dir",
        default=None,
        metavar="DIR",
        help="journal of the simulated kit (default: ~/.local/state/haleakala/sim-KIT)",
    )
    p.add_argument(
        "--decisions",
        type=int,
        default=0,
        metavar="N",
        help="let bots make N decisions through the inputs first",
    )
    p.add_argument("--autoplay", action="store_true", help="bots play both seats in the window")
    p.add_argument("--seconds", type=float, default=None, help="close the window after this long")
    p.add_argument(
        "--delay",
        type=float,
        default=None,
        metavar="S",
        help="pause between decisions of the terminal demo",
    )
    p.add_argument(
        "--speak",
        action="store_true",
        help="the companion says the game aloud through the desktop's sound (espeak-ng)",
    )
    add_language_option(p)
    add_palette_option(p)
    p.add_argument(
        "--web",
        default=None,
        metavar="[HOST:]PORT",
        help="also serve the live view of the window's game (web extra; a port alone: "
        "127.0.0.1 only, 0.0.0.0:PORT for the LAN)",
    )
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="scenarios: print failures only; the terminal demo: only its outcome",
    )
    # Every other game's window (its own, or the generic one): who plays against you.
    p.add_argument("--opponent", default=None, metavar="WHO",
                   help="a game's window: human (everyone at one screen) or one of its bots "
                        "(default: the game's default opponent)")  # fmt: skip
    p.add_argument(
        "--colour",
        default=None,
        metavar="COLOUR",
        help="a game's window: the colour you play (default: the first)",
    )
    p.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="a game's window: how many play (where the game allows several)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from haleakala.i18n import CatalogNotCompiled, speak

    try:
        speak(getattr(args, "lang", None))
    except CatalogNotCompiled as exc:
        raise UsageError(str(exc)) from None
    name = getattr(args, "game", DEFAULT_GAME)
    args.serve_live = lambda: serve_live(args.web)
    window = describe(name).window or "haleakala.toolkit.windowcli:generic_window"
    return int(hook(window)(args))


def serve_live(address: str) -> Any:
    """``--web [HOST:]PORT`` of a game's window: the live view started (``publish(game)``
    after each frame shows it to the watchers); a window calls it through
    ``args.serve_live``, so that no game's view imports the server."""
    from haleakala.checkout import install_hint

    try:
        from haleakala.web.server import AddressError, LiveView, parse_address
    except ImportError as exc:
        raise UsageError(f"--web needs the web extra ({exc}): {install_hint('web')}") from None
    try:
        host, port = parse_address(address)
        live = LiveView(host, port).start()
    except (AddressError, OSError) as exc:
        raise UsageError(f"--web {address}: {exc}") from None
    print(f"live view: {live.url}")
    return live
