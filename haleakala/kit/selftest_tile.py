"""``haleakala selftest --tile N``: the bench test of one finished tile, before the other five
are printed and closed: every pixel of segment N's tile lit one at a time in chain order (a
dead pixel, a cold joint or a swapped DIN/DOUT shows as the first one that stays dark), then
its beach's button or reader. The same steps and operators as the whole self-test
(``kit.selftest``); on the bench a lone tile is plugged straight into the bay, where the first
tile on the wire goes, and tested as segment ``leds.ring_order[0]`` (0 by default).
"""

from __future__ import annotations

from typing import Any

from haleakala.hal.base import Pixel
from haleakala.kit.selftest import WHITE, SelfTest
from haleakala.kit.selftest_steps import LedFrameCheck, PartResult, Report, VisualCheck


class TileTest(SelfTest):
    """The self-test of one tile: its pixels one by one, then its beach's sensor."""

    def __init__(self, *args: Any, segment: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.segment = segment

    def run(self) -> Report:
        try:
            self.hw.inputs.start(self.post)
        except Exception as exc:
            self.add(PartResult("inputs", False, f"cannot start: {exc}", "the GPIO wiring"))
        for source in self.extra_inputs:
            source.start(self.post)
        try:
            self.check_zone_map()
            self.check_tile_pixels()
            self.check_beach()
        finally:
            for source in self.extra_inputs:
                source.close()
        return self.report

    def check_tile_pixels(self) -> None:
        zm = self.hw.zone_map
        position = list(zm.ring_order).index(self.segment)
        start = position * zm.pixels_per_ring
        part = f"tile {self.segment}'s pixels"
        owner = {i: z for z, indices in zm.zones.items() for i in indices}
        frames: list[LedFrameCheck] = []
        try:
            for i in range(zm.pixels_per_ring):
                pixels: list[Pixel] = [(0, 0, 0)] * zm.pixel_count
                pixels[start + i] = WHITE
                self._send(pixels)
                frames.append(
                    LedFrameCheck(f"pixel {i} ({owner.get(i, 'no zone')})", frozenset({start + i}))
                )
                self.pause(0.4)
        except Exception as exc:
            self.add(PartResult(part, False, f"the LED chain refused a frame: {exc}", ""))
            return
        hint = (
            "the first pixel that stayed dark: its DIN from the pixel before (or, for pixel 0, "
            "the chain's wire in through the crater's hole), its 5 V and GND joints; a pixel "
            "lit in the wrong place: hw/assembly/tile.png gives the order"
        )
        ok, remark = self.op.confirm(
            VisualCheck(
                part,
                f"Did tile {self.segment}'s {zm.pixels_per_ring} pixels light one at a time in "
                "chain order, crater first, slot b last, each in its own cell?",
                frames=tuple(frames),
            )
        )
        self.hw.leds.off()
        if ok:
            self.add(PartResult(part, True, f"{len(frames)} pixels, one by one"))
        else:
            self.add(PartResult(part, False, remark, hint))

    def check_beach(self) -> None:
        beach = self.segment
        if self.config.kit == "buttons":
            self.check_button(
                f"beach {beach} button",
                f"beach{beach}",
                self.config.pins.beach(beach),
                f"the button of tile {beach}'s beach",
            )
        else:
            self.check_reader(beach, self.check_link())
