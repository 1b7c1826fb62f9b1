"""``hw/placement.json``: the physical truth a program can read, written from the geometry
(mm, island frame): every zone's polygon, every pixel in chain order, each beach's sensor, its
reader's antenna square and the overlay's landing mark, and every part file with its size."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from haleakala.kit.geometry import ZONES, KitGeometry
from haleakala.kit.shapes import rotate


def _pt(p: Sequence[float]) -> list[float]:
    return [round(p[0], 2) + 0.0, round(p[1], 2) + 0.0]


def placement(g: KitGeometry, kit: str = "buttons") -> dict[str, Any]:
    def turned(polygon: Sequence[Sequence[float]], segment: int) -> list[list[float]]:
        return [_pt(rotate((p[0], p[1]), segment)) for p in polygon]

    return {
        "units": "mm",
        "frame": (
            "island centre at [0, 0] seen from above; +y along segment 0's centre line, "
            "segments numbered clockwise"
        ),
        "kit": kit,
        "bed": [g.bed[0], g.bed[1]],
        "zones": [
            {
                "segment": s,
                "zone": z,
                "polygon": [_pt(p) for p in g.zone_polygon(s, z)],
            }
            for s in range(g.segments)
            for z in ZONES
        ],
        "pixels": [
            {
                "index": p.index,
                "segment": p.segment,
                "zone": p.zone,
                "x": round(p.x, 2) + 0.0,
                "y": round(p.y, 2) + 0.0,
            }
            for p in g.pixels()
        ],
        "beach_sensors": [
            {
                "segment": b.segment,
                "kind": b.kind,
                "x": round(b.x, 2) + 0.0,
                "y": round(b.y, 2) + 0.0,
                "antenna": turned(g.antenna_rect(), b.segment),
                "landing_mark": turned(g.landing_mark(), b.segment),
            }
            for b in g.beach_sensors(kit)
        ],
        "parts": [
            {
                "file": p.file,
                "copies": p.copies,
                "printed": p.printed,
                "what": p.what,
                "bbox": [
                    [round(v, 2) + 0.0 for v in p.bbox[0]],
                    [round(v, 2) + 0.0 for v in p.bbox[1]],
                ],
            }
            for p in g.parts()
        ],
    }


def placement_json(g: KitGeometry, kit: str = "buttons") -> str:
    return json.dumps(placement(g, kit), indent=1, ensure_ascii=False) + "\n"
