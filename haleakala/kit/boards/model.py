"""What is on a carrier board and which net every pin is on: the one electrical truth the
schematic, the PCB, the harness drawing, the pin table and the BOM are all views of.

A ``Part`` is one component: its reference, its KiCad symbol and footprint (roles in
``library``), its value, the BOM row it is bought under, where it sits on the board (mm from
the board's top-left corner, KiCad's frame: y down) and the net of every pin (``None``: not
connected, a no-connect flag in the schematic). Nets are named by what they carry.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

NC = None
NAMESPACE = uuid.UUID("6f3a1c2e-5d4b-4e8a-9c1f-0a7b3d2e1f40")


def uid(*names: object) -> str:
    """A UUID derived from names: the generated files stay the same bytes every time."""
    return str(uuid.uuid5(NAMESPACE, "/".join(str(n) for n in names)))


@dataclass
class Part:
    ref: str
    symbol: str
    footprint: str
    value: str
    what: str
    at: tuple[float, float] = (0.0, 0.0)
    rotation: int = 0
    pins: dict[str, str | None] = field(default_factory=dict)
    bom: str = ""
    """What the part is bought as (a BOM count name); empty for parts of the board itself."""
    kit: str = "both"
    """Which kit fits it: ``both``, ``buttons`` or ``rfid`` (the Pico is the RFID kit's)."""


@dataclass
class Board:
    name: str
    title: str
    size: tuple[float, float]
    parts: list[Part] = field(default_factory=list)
    widths: dict[str, float] = field(default_factory=dict)
    """Track width per net (mm); nets not named use ``SIGNAL_WIDTH``."""
    notes: list[str] = field(default_factory=list)

    def add(self, part: Part) -> Part:
        if any(p.ref == part.ref for p in self.parts):
            raise ValueError(f"{self.name}: reference {part.ref} used twice")
        self.parts.append(part)
        return part

    def part(self, ref: str) -> Part:
        for p in self.parts:
            if p.ref == ref:
                return p
        raise KeyError(ref)

    def nets(self) -> dict[str, list[tuple[str, str]]]:
        """Net → its (reference, pin) nodes, nets and nodes sorted."""
        out: dict[str, list[tuple[str, str]]] = {}
        for p in self.parts:
            for pin, net in p.pins.items():
                if net is not None:
                    out.setdefault(net, []).append((p.ref, pin))
        return {n: sorted(nodes, key=_node_key) for n, nodes in sorted(out.items())}

    def width(self, net: str) -> float:
        return self.widths.get(net, SIGNAL_WIDTH)


SIGNAL_WIDTH = 0.25
CLEARANCE = 0.2


def _node_key(node: tuple[str, str]) -> tuple[str, int, str]:
    ref, pin = node
    digits = "".join(c for c in pin if c.isdigit())
    return ref, int(digits) if digits else 0, pin


def pin_map(numbers: Iterable[int | str], nets: Mapping[Any, str | None]) -> dict[str, str | None]:
    """Every pin of ``numbers`` with its net from ``nets`` (the rest not connected)."""
    return {str(n): nets.get(n, nets.get(str(n), NC)) for n in numbers}


# --------------------------------------------------------------------------- the tile cable

TILE_PINS = 20
"""The tile cable: a 20-way ribbon between two 2x10 box headers (keyed by their notch)."""
TILE_PINOUT: dict[int, str] = {
    1: "+5V", 2: "+5V", 3: "+5V", 4: "+5V",
    5: "GND", 6: "GND", 7: "GND", 8: "GND",
    9: "DIN", 10: "GND", 11: "DOUT", 12: "BTN", 13: "+3V3", 14: "GND",
    15: "SCK", 16: "MOSI", 17: "MISO", 18: "NSS", 19: "BUSY", 20: "RST",
}  # fmt: skip
"""Conductor n of the ribbon carries this (the tile board's names). Four conductors each way
for the tile's pixel and reader current, a ground beside the data and the SPI clock."""
TILE_SIGNAL = {v: k for k, v in TILE_PINOUT.items() if v not in ("+5V", "GND")}


def conductors(role: str) -> int:
    """How many of the tile cable's conductors carry ``role`` (``+5V``, ``GND``, ...)."""
    return sum(1 for v in TILE_PINOUT.values() if v == role)
