"""The ``haleakala`` command: one entry point, one module per sub-command.

``COMMANDS`` is the index of every command. Commands that are only a command line live in
this package (``cli.config``, ``cli.journal``, ``cli.tags``, ``cli.run``, ``cli.sim``,
``cli.bench``); the maker tools and the terminal games keep their ``register`` beside the
code they drive.
Sub-command modules import their heavy parts only when run, so ``haleakala play`` never pays
for pygame or the hardware libraries. Each module listed in ``COMMANDS`` provides
``register(subparsers)`` (adds its parser, sets ``func``) and its ``func(args) -> int``.
Command-line misuse (``UsageError``, defined here for every command) exits with status 2
and a one-line message, never a traceback; options shared by commands (``--config``) are
defined here once.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn

from haleakala.core.errors import UsageError

__all__ = ["COMMANDS", "UsageError", "build_parser", "main"]

# name → module providing register(subparsers). Keep sorted by name.
COMMANDS: dict[str, str] = {
    "bench": "haleakala.cli.bench",
    "bom": "haleakala.kit.bom",
    "config": "haleakala.cli.config",
    "deck": "haleakala.games.haleakala.views.deck",
    "host": "haleakala.cli.host",
    "install": "haleakala.kit.install",
    "palette": "haleakala.cli.palette",
    "journal": "haleakala.cli.journal",
    "learn": "haleakala.learn.cli",
    "kit": "haleakala.kit.kitcheck",
    "play": "haleakala.terminal.play",
    "power": "haleakala.kit.power",
    "replay": "haleakala.terminal.replay",
    "run": "haleakala.cli.run",
    "selftest": "haleakala.kit.selftest",
    "sim": "haleakala.cli.sim",
    "tags": "haleakala.cli.tags",
    "uninstall": "haleakala.kit.uninstall",
    "update": "haleakala.kit.update",
    "wiring": "haleakala.kit.wiring",
}


INSTALLED_CONFIG = "$HALEAKALA_CONFIG, else /etc/haleakala/config.toml"
"""What a command reads without ``--config`` (``haleakala.config.resolve_path``)."""


def add_config_option(parser: argparse.ArgumentParser, default: str = INSTALLED_CONFIG) -> None:
    """``--config PATH``, the same option for every command that reads the kit's config;
    ``default`` says in the help what the command reads without it."""
    parser.add_argument(
        "--config", metavar="PATH", default=None, help=f"config file (default: {default})"
    )


def add_language_option(parser: argparse.ArgumentParser) -> None:
    """``--lang``, the same option for every command a player reads (``play``, ``sim``,
    ``run``): what the game says, not what the logs say (they stay English)."""
    from haleakala.i18n import LANGUAGES

    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help="language of the game: en, de or fr (default: the config's, else the locale's "
        "LANG/LC_ALL/LC_MESSAGES, else English)",
    )


def add_palette_option(parser: argparse.ArgumentParser) -> None:
    """``--palette``, the colour mode of the lights and the screens (``run``, ``sim``): wins
    over the journal's (chosen in the board's menu) and the config's."""
    from haleakala.palette import MODES

    parser.add_argument(
        "--palette",
        choices=MODES,
        default=None,
        help="colours: default, or cvd (designed for colour-vision deficiency); without it, "
        "the one chosen in the board's menu, else the config's, else default "
        "(haleakala palette lists them)",
    )


class OneLineParser(argparse.ArgumentParser):
    """argparse prints a usage block before its error; misuse here gets one line."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with ``only`` the one command about to run: importing the
    other sixteen modules (the kit's tables, the terminal games) is most of the daemon's
    Python start-up, paid at every boot and every restart after a power cut."""
    parser = OneLineParser(
        prog="haleakala",
        description="Haleakala Companion: rules engine, daemon, simulator and maker tools.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    chosen = {only: COMMANDS[only]} if only in COMMANDS else COMMANDS
    for name, module in chosen.items():
        try:
            importlib.import_module(module).register(sub)
        except ImportError as exc:  # a command whose optional extra is missing
            p = sub.add_parser(name, help=f"(unavailable: {exc})")
            p.set_defaults(func=lambda _args, exc=exc: _unavailable(exc))
    return parser


def _unavailable(exc: ImportError) -> int:
    print(f"haleakala: this command needs a missing package: {exc}", file=sys.stderr)
    return 2


def default_command() -> list[str]:
    """What plain ``haleakala`` (and ``./run``) does: on a Raspberry Pi the companion
    daemon on the real hardware; elsewhere the simulator, which plays a demo game in the
    terminal when no window can open."""
    from haleakala.hal.factory import is_raspberry_pi

    return ["run"] if is_raspberry_pi() else ["sim"]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        argv = default_command()
    parser = build_parser(argv[0])  # a command's name: only its module is imported
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UsageError as exc:
        print(f"haleakala {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
