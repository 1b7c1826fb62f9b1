"""The remote-play options of ``haleakala run`` (issue 28), in a module of their own so that
the run command's own options and the seat options of other games grow without a clash.

``--remote mqtt://HOST:PORT/TABLE --seat COLOUR [--host]``: this kit plays one seat of a
game at two tables over an MQTT broker that both kits dial out to (docs/REMOTE-PROTOCOL.md).
``--players N`` and ``--seat COLOUR=WHO`` (at the host) make a table of three or four: a
game for that many whose other seats are kits (``kit``, the default) or bots played at the
host.
"""

from __future__ import annotations

import argparse


def _has(parser: argparse.ArgumentParser, flag: str) -> bool:
    return any(flag in action.option_strings for action in parser._actions)


def add_remote_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("remote play (needs the remote extra)")
    g.add_argument(
        "--remote",
        default=None,
        metavar="mqtt://HOST:PORT/TABLE",
        help="play at two tables over an MQTT broker (mqtts:// for TLS; user:password@ before "
        "the host if the broker asks); both kits dial out, none listens",
    )
    if not _has(p, "--seat"):  # another game's seat option may define it first
        g.add_argument(
            "--seat",
            action="append",
            default=None,
            metavar="COLOUR[=WHO]",
            help="the seat played here (COLOUR); at the host, COLOUR=WHO says who plays another "
            "seat: kit (a kit over the broker, the default) or a bot of the game played at the "
            "host (random, greedy, ...); repeat for each seat",
        )
    if not _has(p, "--players"):  # another command's count option may define it first
        g.add_argument(
            "--players",
            type=int,
            default=None,
            metavar="N",
            help="(with --remote --host) how many seats the table has (default: the game's "
            "smallest count)",
        )
    if not _has(p, "--game"):  # another command's game option may define it first
        from haleakala.gameapi import GAMES

        g.add_argument(
            "--game",
            choices=tuple(GAMES),
            default=None,
            help="(with --remote --host) which island game the table plays (default haleakala;"
            " a seat learns it from the host)",
        )
    g.add_argument(
        "--host",
        action="store_true",
        help="this kit is the table's authority: it deals, checks and journals",
    )
    g.add_argument(
        "--table-key",
        default=None,
        metavar="SECRET",
        help="secret shared by the kits of the table: messages are signed with it and forged "
        "ones refused (default: ?key= in the address, $HALEAKALA_TABLE_KEY, the config's "
        "table_key_file; a host without one makes one and prints how to join)",
    )
    g.add_argument(
        "--no-table-key",
        action="store_true",
        help="play without a table key (warned about): only on a broker whose accounts and "
        "ACLs keep strangers out",
    )
    g.add_argument(
        "--allow-hints",
        action="store_true",
        help="this seat allows hints and the coach (used only if every seat allows them)",
    )
    g.add_argument(
        "--autoplay-until",
        type=int,
        default=None,
        metavar="N",
        help="(tests) with --autoplay, hold before this seat's first decision after the Nth "
        "until SIGUSR1 arrives, so that a test can disturb a game at a known point",
    )
    g.add_argument("--ca-file", default=None, help="CA certificate of an mqtts:// broker")
    g.add_argument(
        "--typed",
        action="store_true",
        help="this seat's decisions are typed on standard input, one per line in notation, "
        "instead of made on the board (a Haleakala game's default is the board: the companion "
        "daemon on --hardware; other games are always typed)",
    )
