"""``haleakala run``: the companion daemon (see ``daemon``).

Registering the command imports nothing heavy: the daemon's modules load only when it runs.
"""

from __future__ import annotations

import argparse
from typing import Any

from haleakala.cli import add_config_option, add_language_option, add_palette_option


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run",
        help="run the companion daemon (the Pi under the island, or simulated)",
        description=(
            "Run the companion: read the board, referee the game, drive the LEDs and the OLED, "
            "keep a journal so that a power cut loses nothing. Under systemd it notifies "
            "READY/STATUS/WATCHDOG; SIGTERM ends it cleanly."
        ),
    )
    p.add_argument(
        "--hardware",
        choices=("sim", "pi"),
        default=None,
        help="hardware backend (default: $HALEAKALA_HARDWARE, the config, then auto-detect)",
    )
    p.add_argument("--headless", action="store_true", help="sim backend without a window")
    add_config_option(p)
    p.add_argument("--state-dir", default=None, help="journal directory (default: the config's)")
    p.add_argument(
        "--variant",
        choices=("base", "tactical"),
        default=None,
        help="variant of a new game (default: the config's)",
    )
    p.add_argument(
        "--seed", type=int, default=None, help="deal of the first new game (default: random)"
    )
    p.add_argument(
        "--start",
        choices=("red", "yellow"),
        default=None,
        help="starting player of the first new game (default: from the seed)",
    )
    p.add_argument(
        "--solo",
        choices=("red", "yellow", "off"),
        default=None,
        help="the companion plays this colour itself (off: nobody; default: as the resumed "
        "game had it, set from the menu)",
    )
    p.add_argument(
        "--strength",
        choices=("child", "easy", "normal", "strong"),
        default=None,
        help="how well it plays: child, easy, normal or strong (levels by Elo, see "
        "docs/benchmarks.md); default: as before, else normal",
    )
    p.add_argument(
        "--snapshot-every",
        type=int,
        default=20,
        metavar="N",
        help="write a snapshot every N decisions (default: 20)",
    )
    p.add_argument(
        "--autoplay",
        type=int,
        default=None,
        metavar="SEED",
        help="(tests, demos; sim only) a scripted player plays both colours "
        "through the simulated inputs; exit when the game is over",
    )
    p.add_argument(
        "--autoplay-pace",
        type=float,
        default=0.0,
        metavar="S",
        help="with --autoplay: S seconds between its decisions (default 0: at once)",
    )
    add_language_option(p)
    add_palette_option(p)
    p.add_argument(
        "--web",
        default=None,
        metavar="[HOST:]PORT",
        help="serve the live view (the game in a browser; needs the web extra): a port alone "
        "listens on 127.0.0.1 only, 0.0.0.0:PORT for the phones on the LAN; default: [web] "
        "in the config, off",
    )
    p.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    from haleakala.cli.remote import add_remote_options

    add_remote_options(p)
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from haleakala.remote.access import from_config

    if getattr(args, "remote", None) or from_config(args):
        from haleakala.remote.start import main as remote_main

        return remote_main(args)
    from haleakala.companion.daemon import main
    from haleakala.learn.board import install

    def start_live_view(address: str, companion: Any) -> Any:
        """The web live view, imported only when one is asked for (the web extra)."""
        from haleakala.web.start import start_live_view as start

        return start(address, companion)

    return main(args, start_live_view, teach=install)
