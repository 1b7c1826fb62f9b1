"""``haleakala config check|show``: find every mistake in the kit's config before wiring it.

``check`` prints ``config OK: PATH`` (warnings first, if any) or one line per problem and
exits 1. ``show`` prints the effective config (file merged over defaults) as TOML.
A file named with ``--config`` that does not exist is misuse (exit 2); no file at the default
path means the built-in defaults, and both commands say so.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from haleakala import config as cfg
from haleakala.cli import UsageError, add_config_option
from haleakala.i18n import english_ngettext


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "config", help="check or show the kit's configuration", description=__doc__
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, func, text in (
        ("check", check, "list every problem in the config (exit 1 if any error)"),
        ("show", show, "print the effective config as TOML"),
    ):
        sub = actions.add_parser(name, help=text, description=text)
        add_config_option(sub)
        sub.set_defaults(func=func)


def _target(args: argparse.Namespace) -> tuple[Path | None, str]:
    path, explicit = cfg.resolve_path(args.config)
    if not path.exists():
        if explicit:
            raise UsageError(
                f"config file {path} does not exist (check the path, or omit "
                f"--config to use {cfg.DEFAULT_PATH})"
            )
        return None, f"built-in defaults (no file at {path})"
    if not path.is_file():
        raise UsageError(f"{path} is not a file")
    return path, str(path)


def check(args: argparse.Namespace) -> int:
    path, label = _target(args)
    problems = cfg.check(cfg.Config() if path is None else path)
    for problem in problems:
        print(problem, file=sys.stdout)
    if cfg.errors(problems):
        n = len(cfg.errors(problems))
        print(f"{label}: {n} {english_ngettext('error', 'errors', n)}", file=sys.stderr)
        return 1
    kit_problems = _kit_check(cfg.Config() if path is None else cfg.load(path))
    for line in kit_problems:
        print(f"build: {line}; the figures: haleakala kit check", file=sys.stdout)
    if kit_problems:
        n = len(kit_problems)
        print(f"{label}: {n} {english_ngettext('error', 'errors', n)}", file=sys.stderr)
        return 1
    print(f"config OK: {label}")
    return 0


def _kit_check(config: cfg.Config) -> list[str]:
    """What the kit's boards, harness, power scheme and bay say about ``config``
    (``kit.kitreport``): a Pi the bay cannot hold, a tile order or pixel count the boards
    were not made for, fuses that do not fit the peak or the wires. ``config check`` refuses
    these; the daemon does not (it runs on any hardware the config describes)."""
    from haleakala.kit.geometry import default_geometry
    from haleakala.kit.kitreport import check_electrics

    return check_electrics(default_geometry(), config)


def show(args: argparse.Namespace) -> int:
    path, label = _target(args)
    try:
        config = cfg.Config() if path is None else cfg.load(path)
    except cfg.ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"# effective config from {label}")
    print(cfg.to_toml(config), end="")
    return 0
