"""``haleakala selftest --tile N``: the bench test of one finished tile, before the other five
are printed and closed: every pixel of segment N's tile lit one at a time in chain order (a
dead pixel, a cold joint or a swapped DIN/DOUT shows as the first one that stays dark), then
its beach's button or reader. The same steps and operators as the whole self-test
(``kit.selftest``, which calls ``run_tile``); on the bench a lone tile is plugged straight
into the bay, where the first tile on the wire goes, and tested as segment
``leds.ring_order[0]`` (0 by default).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from haleakala.config import Config
from haleakala.hal.base import Hardware, Pixel
from haleakala.kit.selftest_steps import (
    LedFrameCheck,
    Operator,
    PartResult,
    Report,
    VisualCheck,
)

WHITE: Pixel = (255, 255, 255)


class SelfTest(Protocol):
    """What a tile's test uses of ``kit.selftest.SelfTest`` (named here, not imported: that
    module calls this one)."""

    config: Config
    hw: Hardware
    op: Operator
    report: Report
    pause: Callable[[float], None]

    @property
    def extra_inputs(self) -> Sequence[Any]: ...

    def post(self, event: Any) -> None: ...
    def add(self, result: PartResult) -> None: ...
    def check_zone_map(self) -> None: ...
    def _send(self, pixels: list[Pixel]) -> None: ...
    def check_button(self, part: str, button: str, gpio: int, what: str) -> None: ...
    def check_link(self) -> bool: ...
    def check_reader(self, beach: int, link_ok: bool) -> None: ...


def run_tile(test: SelfTest, segment: int) -> Report:
    """The self-test of one tile on ``test``'s hardware: its pixels one by one, then its
    beach's sensor."""
    try:
        test.hw.inputs.start(test.post)
    except Exception as exc:
        test.add(PartResult("inputs", False, f"cannot start: {exc}", "the GPIO wiring"))
    for source in test.extra_inputs:
        source.start(test.post)
    try:
        test.check_zone_map()
        check_tile_pixels(test, segment)
        check_beach(test, segment)
    finally:
        for source in test.extra_inputs:
            source.close()
    return test.report


def check_tile_pixels(test: SelfTest, segment: int) -> None:
    zm = test.hw.zone_map
    position = list(zm.ring_order).index(segment)
    start = position * zm.pixels_per_ring
    part = f"tile {segment}'s pixels"
    owner = {i: z for z, indices in zm.zones.items() for i in indices}
    frames: list[LedFrameCheck] = []
    try:
        for i in range(zm.pixels_per_ring):
            pixels: list[Pixel] = [(0, 0, 0)] * zm.pixel_count
            pixels[start + i] = WHITE
            test._send(pixels)
            frames.append(
                LedFrameCheck(f"pixel {i} ({owner.get(i, 'no zone')})", frozenset({start + i}))
            )
            test.pause(0.4)
    except Exception as exc:
        test.add(PartResult(part, False, f"the LED chain refused a frame: {exc}", ""))
        return
    hint = (
        "the first pixel that stayed dark: its DIN from the pixel before (or, for pixel 0, "
        "the chain's wire in through the crater's hole), its 5 V and GND joints; a pixel "
        "lit in the wrong place: hw/assembly/tile.png gives the order"
    )
    ok, remark = test.op.confirm(
        VisualCheck(
            part,
            f"Did tile {segment}'s {zm.pixels_per_ring} pixels light one at a time in chain "
            "order, crater first, slot b last, each in its own cell?",
            frames=tuple(frames),
        )
    )
    test.hw.leds.off()
    if ok:
        test.add(PartResult(part, True, f"{len(frames)} pixels, one by one"))
    else:
        test.add(PartResult(part, False, remark, hint))


def check_beach(test: SelfTest, beach: int) -> None:
    if test.config.kit == "buttons":
        test.check_button(
            f"beach {beach} button",
            f"beach{beach}",
            test.config.pins.beach(beach),
            f"the button of tile {beach}'s beach",
        )
    else:
        test.check_reader(beach, test.check_link())
