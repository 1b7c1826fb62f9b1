"""``haleakala wiring``: wiring diagrams and the pin table, generated from the config's pin map.

The daemon opens its devices on the GPIOs named in ``[pins]``; the Pico firmware on the pins in
``firmware/haleakala_pico/config.py``. This module reads both and writes:

- ``haleakala.yml`` — the harness as WireViz YAML (every part, pin and wire);
- ``haleakala.svg`` / ``haleakala.png`` — WireViz's drawing of it (needs graphviz's ``dot``);
- ``PINS.md`` — the same connections as Markdown tables, header pin by header pin.

The drawing is the kit's harness between its boards (``kit.boards``): the Pi's ribbon to the
hub, the supply and the Pi's power, the lid's plugs, one 20-way ribbon per tile cut to its
length, and on every tile board the pixel chain, and the beach button (buttons kit) or the
PN5180 reader (``kit = "rfid"``, with the Pico's USB cable).

Reproducibility: the YAML and PINS.md are pure functions of the two configs, byte for byte.
The SVG and PNG are graphviz's layout of the YAML; on one machine they are byte-for-byte
reproducible (graphviz's version comment is stripped), but layout and font metrics change
between graphviz versions and installed fonts, so comparing them byte for byte across
machines would fail for reasons that have nothing to do with wiring. Instead each drawing
carries the SHA-256 of the YAML it was drawn from (an SVG comment, a PNG ``tEXt`` chunk), and
``--check`` verifies YAML and PINS.md byte for byte and that both drawings were drawn from
that very YAML. ``--check`` needs no graphviz.

The package splits by concern: ``boards`` (the Pi header, the Pico and its reader bus),
``harness`` (parts and wires built from the pin map), ``wireviz_yaml``, ``pin_table``,
``drawing`` (rendering and the source stamps); this module is the command.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from haleakala.cli import UsageError, add_config_option
from haleakala.config import Config
from haleakala.kit.common import default_config_for_docs, write_if_changed
from haleakala.kit.wiring.boards import (
    DEFAULT_OUT,
    FALLBACK_PICO,
    FIRMWARE_CONFIG,
    MODEL_NAMES,
    PI_GPIO_PIN,
    PI_HEADER,
    PI_ROLES,
    PICO_GP_PIN,
    PICO_PINS,
    PICO_USB,
    PINS_NAME,
    PNG_NAME,
    STAMP_KEY,
    STEM,
    SVG_NAME,
    YAML_NAME,
    PicoPins,
    PicoReader,
    load_pico_pins,
)
from haleakala.kit.wiring.drawing import (
    png_stamp,
    render,
    stamp_png,
    stamp_svg,
    svg_stamp,
    yaml_digest,
)
from haleakala.kit.wiring.harness import (
    BACK,
    ENCODER,
    OLED,
    PI,
    PI_POWER,
    PI_USB,
    PICO,
    SUPPLY,
    Cable,
    Harness,
    Part,
    Wire,
    beach_button,
    build,
    hub_part,
    reader,
    tile_part,
)
from haleakala.kit.wiring.pin_table import (
    _partner,
    pins_markdown,
)
from haleakala.kit.wiring.wireviz_yaml import (
    KIT_COLOUR,
    KIT_NOTE,
    harness_dict,
    harness_yaml,
    to_yaml,
)

__all__ = [
    "BACK",
    "DEFAULT_OUT",
    "ENCODER",
    "FALLBACK_PICO",
    "FIRMWARE_CONFIG",
    "KIT_COLOUR",
    "KIT_NOTE",
    "MODEL_NAMES",
    "OLED",
    "PI",
    "PICO",
    "PICO_GP_PIN",
    "PICO_PINS",
    "PICO_USB",
    "PINS_NAME",
    "PI_GPIO_PIN",
    "PI_HEADER",
    "PI_POWER",
    "PI_ROLES",
    "PI_USB",
    "PNG_NAME",
    "STAMP_KEY",
    "STEM",
    "SUPPLY",
    "SVG_NAME",
    "YAML_NAME",
    "Cable",
    "Harness",
    "Part",
    "PicoPins",
    "PicoReader",
    "UsageError",
    "Wire",
    "_partner",
    "beach_button",
    "build",
    "generate",
    "harness_dict",
    "harness_yaml",
    "hub_part",
    "load_pico_pins",
    "pins_markdown",
    "png_stamp",
    "reader",
    "register",
    "render",
    "run",
    "sources",
    "stale_files",
    "stamp_png",
    "stamp_svg",
    "svg_stamp",
    "tile_part",
    "to_yaml",
    "yaml_digest",
]


def sources(config: Config, pico_config: Path = FIRMWARE_CONFIG) -> dict[str, str]:
    """The text files, keyed by name: YAML and PINS.md (pure: no graphviz)."""
    h = build(config, load_pico_pins(pico_config))
    return {YAML_NAME: harness_yaml(h), PINS_NAME: pins_markdown(h)}


def stale_files(out: Path, texts: dict[str, str]) -> list[str]:
    """Names of the files in ``out`` that do not match ``texts`` (and drawings not drawn from
    that YAML), with the reason."""
    problems = []
    for name, text in texts.items():
        path = out / name
        if not path.is_file():
            problems.append(f"{path} is missing")
        elif path.read_bytes() != text.encode():
            problems.append(f"{path} differs from the config")
    digest = yaml_digest(texts[YAML_NAME])
    svg_path, png_path = out / SVG_NAME, out / PNG_NAME
    if not svg_path.is_file():
        problems.append(f"{svg_path} is missing")
    elif svg_stamp(svg_path.read_text(encoding="utf-8", errors="replace")) != digest:
        problems.append(f"{svg_path} was not drawn from the current {YAML_NAME}")
    if not png_path.is_file():
        problems.append(f"{png_path} is missing")
    elif png_stamp(png_path.read_bytes()) != digest:
        problems.append(f"{png_path} was not drawn from the current {YAML_NAME}")
    return problems


def generate(out: Path, config: Config, pico_config: Path = FIRMWARE_CONFIG) -> list[str]:
    """Write every file into ``out``; returns one line per file (wrote / unchanged)."""
    texts = sources(config, pico_config)
    svg, png = render(texts[YAML_NAME])
    files = {
        out / YAML_NAME: texts[YAML_NAME].encode(),
        out / SVG_NAME: svg.encode(),
        out / PNG_NAME: png,
        out / PINS_NAME: texts[PINS_NAME].encode(),
    }
    return [f"{'wrote' if write_if_changed(p, d) else 'unchanged'}: {p}" for p, d in files.items()]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "wiring",
        help="regenerate the wiring diagrams and pin table from the config's pin map",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_config_option(parser, "the default kit, hw/config.example.toml")
    parser.add_argument(
        "--out",
        metavar="DIR",
        type=Path,
        default=DEFAULT_OUT,
        help=f"output directory (default: {DEFAULT_OUT})",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="change nothing; exit 1 naming the files that are stale",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config, label = default_config_for_docs(args.config)
    if args.check:
        problems = stale_files(args.out, sources(config))
        for problem in problems:
            print(f"stale: {problem}", file=sys.stderr)
        if problems:
            print(
                f"run 'haleakala wiring{' --config ' + args.config if args.config else ''}"
                f" --out {args.out}' and commit the result",
                file=sys.stderr,
            )
            return 1
        print(f"up to date: {args.out} matches {label}")
        return 0
    for line in generate(args.out, config):
        print(line)
    return 0
