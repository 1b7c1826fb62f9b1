"""``haleakala replay FILE``: check a game log or a saved game against its game's rules.

A log is evidence: a bug report, a tournament game, the output of another program. Which
game it belongs to is in the file (a log's setup record names its ``game``; a save its
``format``; a file that names none is the default game's, as the first logs were); that
game's replayer (its description's ``replay``, else the generic one of
``toolkit.generic.replay``) checks it and prints the verdict: exit 0 when everything agrees,
1 at the first difference, 2 for input that is not a log or a save at all.
"""

from __future__ import annotations

import argparse

from haleakala.cli import UsageError
from haleakala.core.jsonread import load_json, printable
from haleakala.gameapi import DEFAULT_GAME, UnknownGame, describe, game_of_save_format, hook
from haleakala.toolkit.terminal import one_line_errors
from haleakala.toolkit.textfile import MAX_LOG_BYTES, UnreadableFile, read_text

GENERIC = "haleakala.toolkit.generic.replay:replay"
"""The replayer of a game whose description names none."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(
        subparsers.add_parser(
            "replay",
            help="check a game log or saved game against the rules engine",
            description=__doc__,
        )
    )
    p.add_argument("file", metavar="FILE", help="a game log (play --json), a saved game, or -")
    p.add_argument("--seeded", action="store_true",
                   help="also demand the deal its seed gives")  # fmt: skip
    p.set_defaults(func=run)


def _read(name: str) -> str:
    try:
        return read_text(name, MAX_LOG_BYTES)
    except UnreadableFile as exc:
        raise UsageError(str(exc)) from None


def _game_named(text: str) -> str:
    """Which game a log (its setup's ``game``) or a save (its ``format``) belongs to."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    for candidate in (text, first):
        try:
            data = load_json(candidate)
        except ValueError:
            continue
        if isinstance(data, dict):
            saved = game_of_save_format(data.get("format"))
            if saved is not None:
                return saved
            if data.get("type") == "setup":
                return str(data.get("game", DEFAULT_GAME))
    return DEFAULT_GAME


def run(args: argparse.Namespace) -> int:
    name = args.file
    text = _read(name)
    label = "stdin" if name == "-" else printable(name)
    game_name = _game_named(text)
    try:
        replayer = hook(describe(game_name).replay or GENERIC)
    except UnknownGame as exc:
        raise UsageError(printable(f"{label} is not a game log or a saved game: {exc}")) from None
    return int(replayer(text, label, getattr(args, "seeded", False)))
