"""The bought parts' real sizes (``data/envelopes.toml``): the tactile switch with its legs
and cap, the pixel board, the PN5180 reader with its header and plug, every Pi model's board
with its holes and ports, the Pico with its USB plug, the OLED, the harness connectors, the
screws, dowels and standoffs, each with the document its figures come from.

The geometry places these parts; ``kit.fits`` proves each one in its pocket, hole or bay with
the clearance the data asks for. Other tools read the same figures (the carrier boards of
issue 36): ``load_envelopes()`` returns plain frozen values and imports only the standard
library, so a Pi's ``config check`` can read it too.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

Size2 = tuple[float, float]
Size3 = tuple[float, float, float]
EDGES = ("+x", "-x", "+y", "-y")
PI_MODELS = ("zero2w", "pi3", "pi4", "pi5")


class EnvelopeError(ValueError):
    """The envelope data is malformed: one sentence naming the key."""


@dataclass(frozen=True)
class Port:
    """A connector on a board's edge and the plug that goes into it."""

    name: str
    edge: str
    at: float
    """Centre along the edge, from the board's origin corner."""
    size: Size2
    """[along the edge, height above the board's top]."""
    overhang: float
    plug: Size3
    """The mating plug's body with its strain relief: [length, width, height]; zeros when
    nothing is plugged in the kit."""
    bend: float

    @property
    def used(self) -> bool:
        return self.plug[0] > 0

    @property
    def reach(self) -> float:
        """How far beyond the board's edge the plugged cable needs room."""
        return self.overhang + self.plug[0] + self.bend if self.used else self.overhang


@dataclass(frozen=True)
class Board:
    key: str
    what: str
    source: str
    board: Size3
    holes: tuple[tuple[float, float], ...]
    hole_diameter: float
    screw: str
    height: float
    ports: tuple[Port, ...]
    assumed: bool

    @property
    def hole_span(self) -> Size2:
        xs = [h[0] for h in self.holes]
        ys = [h[1] for h in self.holes]
        return max(xs) - min(xs), max(ys) - min(ys)


@dataclass(frozen=True)
class Screw:
    name: str
    clearance: Size2
    """[least, most] diameter of a hole the screw passes through."""
    pilot: Size2
    """[least, most] diameter of a hole the screw cuts its thread in (FDM plastic)."""
    head: Size2
    nut: Size2 | None


@dataclass(frozen=True)
class Envelopes:
    raw: dict[str, Any]
    boards: dict[str, Board]
    screws: dict[str, Screw]
    clearance: dict[str, float]

    def part(self, key: str) -> dict[str, Any]:
        """A single part's table (``switch``, ``cap``, ``pixel``, ``reader``, ``tag``,
        ``dowel``, ``standoff``)."""
        value = self.raw.get(key)
        if not isinstance(value, dict):
            raise EnvelopeError(f"envelopes: the [{key}] table is missing")
        return value

    def number(self, key: str, field: str) -> float:
        value = self.part(key).get(field)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise EnvelopeError(f"envelopes: {key}.{field} must be a number, got {value!r}")
        return float(value)

    def numbers(self, key: str, field: str, n: int) -> tuple[float, ...]:
        value = self.part(key).get(field)
        if not (
            isinstance(value, list)
            and len(value) == n
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        ):
            raise EnvelopeError(f"envelopes: {key}.{field} must be {n} numbers, got {value!r}")
        return tuple(float(v) for v in value)

    def connector(self, key: str) -> tuple[Size3, float]:
        table = self.raw.get("connectors", {}).get(key)
        if not isinstance(table, dict):
            raise EnvelopeError(f"envelopes: [connectors.{key}] is missing")
        size = _floats(table.get("size"), 3, f"connectors.{key}.size")
        return (size[0], size[1], size[2]), float(table.get("bend", 0.0))


def _floats(value: object, n: int, where: str) -> tuple[float, ...]:
    if not (
        isinstance(value, list)
        and len(value) == n
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise EnvelopeError(f"envelopes: {where} must be {n} numbers, got {value!r}")
    return tuple(float(v) for v in value)


def _board(key: str, t: dict[str, Any]) -> Board:
    where = f"boards.{key}"
    size = _floats(t.get("board"), 3, f"{where}.board")
    holes = t.get("holes")
    if not isinstance(holes, list):
        raise EnvelopeError(f"envelopes: {where}.holes must list [x, y]")
    ports = []
    for i, p in enumerate(t.get("ports", [])):
        if not isinstance(p, dict) or p.get("edge") not in EDGES:
            raise EnvelopeError(f"envelopes: {where}.ports[{i}] needs an edge of {EDGES}")
        plug = _floats(p.get("plug"), 3, f"{where}.ports[{i}].plug")
        ports.append(
            Port(
                str(p.get("name", f"port {i}")),
                str(p["edge"]),
                float(p["at"]),
                (float(p["size"][0]), float(p["size"][1])),
                float(p.get("overhang", 0.0)),
                (plug[0], plug[1], plug[2]),
                float(p.get("bend", 0.0)),
            )
        )
    return Board(
        key,
        str(t.get("what", key)),
        str(t.get("source", "")),
        (size[0], size[1], size[2]),
        tuple((float(h[0]), float(h[1])) for h in (_floats(h, 2, f"{where}.holes") for h in holes)),
        float(t.get("hole_diameter", 0.0)),
        str(t.get("screw", "")),
        float(t.get("height", 0.0)),
        tuple(ports),
        bool(t.get("assumed", False)),
    )


def load_envelopes(text: str | None = None) -> Envelopes:
    """Parse the envelope data (the packaged file unless ``text`` is given)."""
    if text is None:
        text = resources.files("haleakala.kit").joinpath("data/envelopes.toml").read_text("utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise EnvelopeError(f"envelopes: not TOML ({exc})") from None
    if data.get("units") != "mm":
        raise EnvelopeError('envelopes: units must be "mm"')
    boards = {k: _board(k, v) for k, v in data.get("boards", {}).items()}
    for model in PI_MODELS:
        if model not in boards:
            raise EnvelopeError(f"envelopes: [boards.{model}] is missing")
    screws = {}
    for name, t in data.get("screws", {}).items():
        nice = name.replace("_", ".")
        clearance = _floats(t.get("clearance"), 2, f"screws.{name}.clearance")
        pilot = _floats(t.get("pilot"), 2, f"screws.{name}.pilot")
        head = _floats(t.get("head"), 2, f"screws.{name}.head")
        nut = _floats(t["nut"], 2, f"screws.{name}.nut") if "nut" in t else None
        screws[nice] = Screw(
            nice,
            (clearance[0], clearance[1]),
            (pilot[0], pilot[1]),
            (head[0], head[1]),
            (nut[0], nut[1]) if nut else None,
        )
    gaps = {k: float(v) for k, v in data.get("clearance", {}).items()}
    return Envelopes(data, boards, screws, gaps)


@cache
def default_envelopes() -> Envelopes:
    return load_envelopes()
