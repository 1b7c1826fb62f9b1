"""The kit's parts list, one source: ``data/bom.toml``. Every row names a part, who needs it
(both kits, one kit, or an option), its price and where to order it, and its quantity — a
fixed number, or a count derived from the geometry and the boards (``per``), so six tiles or
nine pixels per tile change the order with them. ``haleakala bom`` writes ``hw/bom.csv``,
``hw/BOM.md`` and the totals in ``hw/MAKER.md`` from it, so the three always agree.

A row's quantity: ``quantity = N`` (fixed), or ``per = "COUNT"`` with optional ``each``
(how many per counted thing, default 1), ``spare`` (added once) and ``pack`` (the part is
sold in packs of this many: the quantity is the packs to buy). ``COUNT`` is a name from
``counts()``. A note may quote a count as ``{name}`` (and ``{need}``, the pieces needed).

Pure standard library: the suite and ``config check`` read it without the CAD extra.
"""

from __future__ import annotations

import math
import string
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from haleakala.kit.geometry import KitGeometry, default_geometry

KITS = ("both", "buttons", "rfid", "option")
SOURCE_NAME = "haleakala/kit/data/bom.toml"
DISCS_TAGGED = 12
"""Discs that carry an RFID tag: five number discs and one invocation disc per player."""


class BomError(ValueError):
    """A malformed BOM row: names the row and the key."""


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
    per: str = ""
    """The count the quantity follows (empty: a fixed quantity)."""
    need: int = 0
    """Pieces the kit uses (before packs); equals ``quantity`` for a row sold by the piece."""

    @property
    def total_eur(self) -> float:
        return self.quantity * self.price_eur

    def counts_for(self, kit: str) -> bool:
        """Whether this row is bought for ``kit`` ("buttons" or "rfid"); options never are."""
        return self.kit in ("both", kit)


def counts(g: KitGeometry) -> dict[str, int | float]:
    """Every count a row's quantity may follow, from the geometry (and the registered
    derivers). Names are nouns in the singular: what one is of."""
    out: dict[str, int | float] = {
        "kit": 1,
        "tile": g.segments,
        "pixel": len(g.pixels()),
        "pixel_per_tile": g.pixels_per_tile,
        "riser_joint": g.segments,
        "joint_bolt": g.segments * len(g.bolt_radii),
        "joint_dowel": g.segments * len(g.dowel_radii),
        "disc_tagged": DISCS_TAGGED,
    }
    from haleakala.kit.bomcounts import derived

    for name, value in derived(g).items():
        if name in out:
            raise BomError(f"count {name!r} is derived twice")
        out[name] = value
    return out


def _text(row: dict[str, Any], key: str, where: str, required: bool = True) -> str:
    value = row.get(key, "")
    if not isinstance(value, str):
        raise BomError(f"{where}: {key} must be text, got {value!r}")
    if required and not value.strip():
        hint = (
            "; write the part number (or 'generic (what to ask for)') and where to order it"
            if key in ("mpn", "supplier")
            else ""
        )
        raise BomError(f"{where}: {key} is empty{hint}")
    return value.strip()


def _int(row: dict[str, Any], key: str, where: str, default: int) -> int:
    value = row.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BomError(f"{where}: {key} must be a whole number of at least 0, got {value!r}")
    return value


def _quantity(row: dict[str, Any], where: str, have: Mapping[str, int | float]) -> tuple[int, int]:
    """(quantity to buy, pieces needed) of one source row."""
    per = row.get("per")
    if per is None:
        if "quantity" not in row:
            raise BomError(f"{where}: give quantity = N or per = one of {', '.join(sorted(have))}")
        quantity = _int(row, "quantity", where, 0)
        if quantity < 1:
            raise BomError(f"{where}: quantity must be at least 1")
        return quantity, quantity
    if "quantity" in row:
        raise BomError(f"{where}: give quantity or per, not both")
    if per not in have:
        raise BomError(
            f"{where}: per = {per!r} is not a count; use one of {', '.join(sorted(have))}"
        )
    each = row.get("each", 1)
    if isinstance(each, bool) or not isinstance(each, int | float) or each <= 0:
        raise BomError(f"{where}: each must be a positive number, got {each!r}")
    need = math.ceil(each * have[per] - 1e-9) + _int(row, "spare", where, 0)
    pack = _int(row, "pack", where, 1)
    if pack < 1:
        raise BomError(f"{where}: pack must be at least 1")
    if need < 1:
        raise BomError(f"{where}: the kit needs none of it ({per} = {have[per]:g}); drop the row")
    return math.ceil(need / pack), need


_FIELDS = {"kit", "part", "quantity", "per", "each", "spare", "pack", "price", "mpn", "supplier",
           "note", "id"}  # fmt: skip


def _note(row: dict[str, Any], where: str, values: Mapping[str, int | float]) -> str:
    note = _text(row, "note", where, required=False)
    names = [f for _, f, _, _ in string.Formatter().parse(note) if f]
    unknown = sorted({n for n in names if n not in values})
    if unknown:
        raise BomError(f"{where}: note quotes {{{unknown[0]}}}, which is not a count")
    return note.format_map({k: f"{v:g}" for k, v in values.items()})


def load_rows(
    text: str | None = None, g: KitGeometry | None = None, name: str = SOURCE_NAME
) -> list[BomRow]:
    """The BOM's rows with their quantities worked out (the packaged source unless ``text``
    is given; the kit's geometry unless ``g``). A malformed row raises ``BomError``."""
    if text is None:
        text = resources.files("haleakala.kit").joinpath("data/bom.toml").read_text("utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BomError(f"{name}: not TOML ({exc})") from None
    raw_rows = data.get("row")
    if not isinstance(raw_rows, list) or not raw_rows:
        raise BomError(f"{name}: no [[row]] tables")
    have = counts(g or default_geometry())
    rows = []
    for n, row in enumerate(raw_rows, start=1):
        part = row.get("part") if isinstance(row, dict) else None
        where = f"{name} row {n}" + (f" ({part})" if isinstance(part, str) else "")
        if not isinstance(row, dict):
            raise BomError(f"{where}: must be a table")
        extra = sorted(set(row) - _FIELDS)
        if extra:
            raise BomError(f"{where}: unknown key {extra[0]!r}; keys: {', '.join(sorted(_FIELDS))}")
        kit = row.get("kit")
        if kit not in KITS:
            raise BomError(f"{where}: kit {kit!r} is not one of {', '.join(KITS)}")
        price = row.get("price")
        if isinstance(price, bool) or not isinstance(price, int | float) or price < 0:
            raise BomError(f"{where}: price must be a number of euros, not negative")
        quantity, need = _quantity(row, where, have)
        rows.append(
            BomRow(
                kit=kit,
                part=_text(row, "part", where),
                quantity=quantity,
                price_eur=float(price),
                note=_note(row, where, {**have, "need": need}),
                mpn=_text(row, "mpn", where),
                supplier=_text(row, "supplier", where),
                per=str(row.get("per", "")),
                need=need,
            )
        )
    return rows


def kit_total(rows: list[BomRow], kit: str) -> float:
    return sum(r.total_eur for r in rows if r.counts_for(kit))


def kit_pieces(rows: list[BomRow], kit: str) -> int:
    """How many things a maker orders for ``kit`` (packs count once)."""
    return sum(r.quantity for r in rows if r.counts_for(kit))


def kit_lines(rows: list[BomRow], kit: str) -> int:
    return sum(1 for r in rows if r.counts_for(kit))
