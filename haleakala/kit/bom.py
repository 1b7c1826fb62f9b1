"""``haleakala bom``: the bill of materials (hw/bom.csv → hw/BOM.md) and the board overlay
notes (the config's zone map → hw/OVERLAY.md).

The CSV is the one place parts are edited; the Markdown is generated so that the table a maker
reads and the data a test checks are the same. ``--check`` regenerates in memory and exits 1
naming the files that differ from what is committed.

CSV columns: ``kit`` (``both``, ``buttons``, ``rfid``, or ``option`` for an alternative that
replaces a counted row), ``part``, ``quantity``, ``typical price (EUR)`` (per piece),
``manufacturer part number``, ``supplier reference`` (distributor and its order code), ``note``.
A commodity item with no one maker (wire, knobs, generic modules) says ``generic (...)`` and
what to ask for, so that no line leaves a maker guessing what to order.
"""

from __future__ import annotations

import argparse
import csv
import io
from dataclasses import dataclass
from pathlib import Path

from haleakala.cli import UsageError, add_config_option
from haleakala.kit.common import REPO_ROOT, check_or_write, default_config_for_docs
from haleakala.kit.overlay import overlay_markdown

COLUMNS = (
    "kit",
    "part",
    "quantity",
    "typical price (EUR)",
    "manufacturer part number",
    "supplier reference",
    "note",
)
KITS = ("both", "buttons", "rfid", "option")
DEFAULT_HW_DIR = REPO_ROOT / "hw"
CSV_NAME = "bom.csv"
BOM_NAME = "BOM.md"
OVERLAY_NAME = "OVERLAY.md"


class BomError(ValueError):
    """A malformed BOM row: names the line and the column."""


@dataclass(frozen=True)
class BomRow:
    kit: str
    part: str
    quantity: int
    price_eur: float
    note: str
    mpn: str = ""
    """Manufacturer and part number (``generic (...)`` for commodity items)."""
    supplier: str = ""
    """Distributor and its order code, e.g. ``Mouser 595-SN74AHCT125N``."""

    @property
    def total_eur(self) -> float:
        return self.quantity * self.price_eur

    def counts_for(self, kit: str) -> bool:
        """Whether this row is bought for ``kit`` ("buttons" or "rfid"); options never are."""
        return self.kit in ("both", kit)


def parse_bom(text: str, source: str = CSV_NAME) -> list[BomRow]:
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != COLUMNS:
        raise BomError(f"{source}: header is {reader.fieldnames}, expected {', '.join(COLUMNS)}")
    rows = []
    for line, raw in enumerate(reader, start=2):
        where = f"{source} line {line}"
        if None in raw or any(v is None for v in raw.values()):
            raise BomError(f"{where}: expected {len(COLUMNS)} columns")
        if raw["kit"] not in KITS:
            raise BomError(f"{where}: kit {raw['kit']!r} is not one of {', '.join(KITS)}")
        if not raw["part"].strip():
            raise BomError(f"{where}: part is empty")
        try:
            quantity = int(raw["quantity"])
            price = float(raw["typical price (EUR)"])
        except ValueError:
            raise BomError(f"{where}: quantity must be an integer and price a number") from None
        if quantity < 1 or price < 0:
            raise BomError(f"{where}: quantity must be at least 1 and price not negative")
        for column in ("manufacturer part number", "supplier reference"):
            if not raw[column].strip():
                raise BomError(
                    f"{where}: {column} is empty; write the part number (or 'generic (what "
                    "to ask for)') and where to order it"
                )
        rows.append(
            BomRow(
                raw["kit"],
                raw["part"],
                quantity,
                price,
                raw["note"],
                raw["manufacturer part number"].strip(),
                raw["supplier reference"].strip(),
            )
        )
    return rows


def kit_total(rows: list[BomRow], kit: str) -> float:
    return sum(r.total_eur for r in rows if r.counts_for(kit))


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def bom_markdown(rows: list[BomRow]) -> str:
    lines = [
        "# Bill of materials",
        "",
        f"<!-- Generated from hw/{CSV_NAME} by `haleakala bom`: edit the CSV, not this file. -->",
        "",
        "Two kits share the Pi, the LED pixels, the OLED and the encoder; they differ in how the",
        "discs on the six beaches are sensed. *Kit* says who needs a row: **both**, **buttons**",
        "(one button per beach), **rfid** (a tag in every disc, read by a Pico), or *option*",
        "(an alternative to a counted row, not in the totals). Prices are typical single-unit",
        "prices in euros; the totals count the Raspberry Pi 4. Part numbers name one part that",
        "fits; *generic* rows are commodity items any shop sells. Check stock and the",
        "datasheet before ordering: distributors' codes change.",
        "",
        "| Kit | Part | Qty | Each (EUR) | Total (EUR) | Manufacturer part number | Supplier "
        "reference | Note |",
        "|---|---|---:|---:|---:|---|---|---|",
    ]
    for r in rows:
        kit = f"*{r.kit}*" if r.kit == "option" else f"**{r.kit}**"
        lines.append(
            f"| {kit} | {_cell(r.part)} | {r.quantity} | {r.price_eur:.2f} | "
            f"{r.total_eur:.2f} | {_cell(r.mpn)} | {_cell(r.supplier)} | {_cell(r.note)} |"
        )
    lines += [
        "",
        f"- **Buttons kit total: {kit_total(rows, 'buttons'):.2f} EUR**",
        f"- **RFID kit total: {kit_total(rows, 'rfid'):.2f} EUR**",
        "",
        "Size the supply with `haleakala power` (≈ 60 mA per pixel at full white; the daemon",
        "caps the chain at `leds.current_limit_ma`). Wiring: [wiring/PINS.md](../wiring/PINS.md)",
        "and [wiring/haleakala.svg](../wiring/haleakala.svg). Where each pixel goes and which",
        "pixel lights which zone: [OVERLAY.md](OVERLAY.md).",
        "",
    ]
    return "\n".join(lines)


def generate(hw_dir: Path, config_path: str | None) -> dict[Path, bytes]:
    """Every file this command owns, as bytes, keyed by path."""
    csv_path = hw_dir / CSV_NAME
    if not csv_path.is_file():
        raise UsageError(f"{csv_path} does not exist: point --hw at the repository's hw/")
    try:
        rows = parse_bom(csv_path.read_text(encoding="utf-8"), str(csv_path))
    except BomError as exc:
        raise UsageError(str(exc)) from None
    config, _label = default_config_for_docs(config_path)
    return {
        hw_dir / BOM_NAME: bom_markdown(rows).encode(),
        hw_dir / OVERLAY_NAME: overlay_markdown(config).encode(),
    }


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bom",
        help="regenerate hw/BOM.md (from hw/bom.csv) and hw/OVERLAY.md (from the zone map)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_config_option(parser, "the default kit")
    parser.add_argument(
        "--hw", metavar="DIR", type=Path, default=DEFAULT_HW_DIR, help="the hw/ directory"
    )
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 naming stale files"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    files = generate(args.hw, args.config)
    summary = ", ".join(str(p) for p in files)
    return check_or_write(files, args.check, "haleakala bom", summary)
