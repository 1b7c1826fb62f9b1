"""``haleakala palette``: every colour mode's roles, their screen and LED colours.

``--json`` prints one entry per mode and role (``"mode"``, ``"role"``, ``"screen"``, ``"led"``
as RGB lists, None where a role is not shown on that surface; also ``"led_looks"``, the LED's
appearance, its ``"group"`` and ``"meaning"``) for tools and for checking a kit's LEDs by eye;
without it, a table a maker reads.
"""

from __future__ import annotations

import argparse
import json

from haleakala import palette as P


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "palette",
        help="the colour modes: each role's screen and LED colour",
        description="List every colour mode's roles (players, lava, legal target, warning, "
        "card kinds, zones) with their screen colour and the LED drive value sent to the "
        "WS2812s (gamma and per-channel correction applied). Choose a mode with "
        "palette = \"cvd\" in the config, --palette, the board's menu, the simulator's v key "
        "or the live view's selector.",
    )
    p.add_argument("--json", action="store_true", help="one JSON list of entries")
    p.add_argument("--mode", choices=P.MODES, default=None, help="only this mode")
    p.set_defaults(func=run)


def _hex(rgb: list[int] | None) -> str:
    return "-" if rgb is None else P.hex_colour((rgb[0], rgb[1], rgb[2]))


def run(args: argparse.Namespace) -> int:
    entries = [e for e in P.entries() if args.mode in (None, e["mode"])]
    if args.json:
        print(json.dumps(entries, indent=1))
        return 0
    print(f"{'mode':8} {'role':15} {'screen':8} {'led':8} {'led looks':9} meaning")
    for e in entries:
        print(
            f"{e['mode']:8} {e['role']:15} {_hex(e['screen']):8} {_hex(e['led']):8} "
            f"{_hex(e['led_looks']):9} {e['meaning']}"
        )
    return 0
