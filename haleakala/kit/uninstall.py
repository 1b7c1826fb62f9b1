"""``haleakala uninstall``: undo ``haleakala install`` (see ``haleakala.kit.install``).

Stops and removes the service, the udev rules, the I2C/SPI block in config.txt and the venv;
keeps /etc/haleakala/config.toml, /var/lib/haleakala and the user unless ``--purge``.
"""

from __future__ import annotations

import argparse

from haleakala.kit.install import add_common, run_uninstall


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "uninstall",
        help="remove what 'haleakala install' set up (keeps config and state)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_common(parser)
    parser.add_argument(
        "--purge",
        action="store_true",
        help="also delete the config, the journal and saved games, and the user",
    )
    parser.set_defaults(func=run_uninstall)
