"""The kit's current budget: what the LEDs, the Pi, the OLED and the RFID kit draw at most,
and the 5 V supply that carries it (``haleakala power`` prints it, the config check uses it).

Computed with the daemon's own frame functions (``hal.zones``) on an all-white frame. This
module reads the config through the fields it names (``KitConfig``) and imports nothing of
the config or the commands, so the config's supply check can use it without a cycle.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from haleakala.hal.zones import (
    MA_PER_CHANNEL,
    SEGMENTS,
    apply_brightness,
    estimate_current_ma,
    limit_current,
)


class LedsSection(Protocol):
    @property
    def pixels_per_ring(self) -> int: ...
    @property
    def ring_order(self) -> Sequence[int]: ...
    @property
    def brightness(self) -> float: ...
    @property
    def current_limit_ma(self) -> float: ...
    @property
    def supply_ma(self) -> float: ...


class KitConfig(Protocol):
    """What the budget reads of ``haleakala.config.Config``."""

    @property
    def model(self) -> str: ...
    @property
    def kit(self) -> str: ...
    @property
    def leds(self) -> LedsSection: ...


WHITE = (255, 255, 255)
MA_PER_PIXEL = 3 * MA_PER_CHANNEL
"""Full white: all three channels at 20 mA."""

PI_BUDGET_MA = {"zero2w": 600, "pi3": 1000, "pi4": 1300, "pi5": 2000}
"""The Pi itself under full load on every core, no USB devices (reviewers' measurements,
rounded up): Zero 2 W ≈ 0.6 A, 3 B/B+ ≈ 0.8-1.0 A, 4 B ≈ 1.3 A, 5 ≈ 1.6-2.0 A."""
OLED_MA = 25
"""A 128x64 SSD1306/SH1106 with every pixel on draws ≈ 20 mA."""
PICO_MA = 25
"""The Pico, from the Pi's USB port."""
READER_IDLE_MA = 15
"""A PN5180 module with its RF field off, from the hub's 5 V through its tile cable."""
READER_FIELD_MA = 180
"""A PN5180 module with its RF field on."""


def rfid_ma(fields: int, readers: int = SEGMENTS) -> int:
    """The RFID kit's draw: the Pico, the readers whose fields are off, and ``fields`` readers
    with their fields on together (the firmware scans two opposite beaches at once:
    ``fields_at_once`` reads its ``SCAN_GROUPS``)."""
    return PICO_MA + READER_IDLE_MA * (readers - fields) + READER_FIELD_MA * fields


RFID_MA = rfid_ma(2)
"""The default firmware's figure (two fields on at once)."""
SPEAKER_MA = 150
"""The loudspeaker saying the game at full volume (a MAX98357A into 4-8 ohm, or a USB speaker):
speech averages a tenth of its 1.5-3 W peaks, which last milliseconds and come from the
1000 uF capacitor at the amplifier (or the speaker's own); ≈ 30 mA when it is silent."""
HEADROOM = 0.10
SUPPLY_STEP_MA = 500


@dataclass(frozen=True)
class RingBudget:
    position: int
    """1-based place on the data wire."""
    segment: int
    pixels: int
    worst_ma: float
    at_brightness_ma: float


@dataclass(frozen=True)
class PowerBudget:
    model: str
    kit: str
    rings: tuple[RingBudget, ...]
    worst_ma: float
    brightness: float
    at_brightness_ma: float
    current_limit_ma: float
    led_max_ma: float
    pi_ma: float
    oled_ma: float
    rfid_ma: float
    supply_ma: float
    rfid_fields: int = 0
    """RF fields on at once (the RFID kit; 0 on the buttons kit)."""
    speaker_ma: float = SPEAKER_MA

    @property
    def pixels(self) -> int:
        return sum(r.pixels for r in self.rings)

    @property
    def limit_bites(self) -> bool:
        """True when the current limit (not brightness alone) caps the chain."""
        return self.led_max_ma < self.at_brightness_ma

    @property
    def peak_ma(self) -> float:
        return self.pi_ma + self.oled_ma + self.rfid_ma + self.speaker_ma + self.led_max_ma

    @property
    def needed_ma(self) -> float:
        return self.peak_ma * (1 + HEADROOM)

    @property
    def recommended_supply_ma(self) -> int:
        return math.ceil(self.needed_ma / SUPPLY_STEP_MA) * SUPPLY_STEP_MA

    @property
    def headroom(self) -> float:
        return self.supply_ma / self.peak_ma - 1

    def warnings(self) -> list[str]:
        """What is wrong with the supply, one line each (empty when it is big enough)."""
        supply = f"the {self.supply_ma / 1000:g} A supply (leds.supply_ma = {self.supply_ma:g})"
        fix = (
            f"fit a 5 V supply of at least {self.recommended_supply_ma / 1000:g} A, or lower "
            "leds.current_limit_ma / leds.brightness"
        )
        if self.supply_ma < self.peak_ma:
            return [
                f"{supply} is smaller than the {math.ceil(self.peak_ma)} mA peak: the Pi will "
                f"brown out and reboot when the LEDs are bright; {fix}"
            ]
        if self.supply_ma < self.needed_ma:
            return [
                f"{supply} leaves {self.headroom:.0%} headroom over the "
                f"{math.ceil(self.peak_ma)} mA peak, less than {HEADROOM:.0%}; {fix}"
            ]
        return []


def chain_current_ma(pixels: int, brightness: float, limit_ma: float = math.inf) -> float:
    """Draw of ``pixels`` full-white pixels after brightness and the current limit, computed
    with the daemon's own functions."""
    frame = apply_brightness([WHITE] * pixels, brightness)
    if limit_ma != math.inf:
        frame = limit_current(frame, limit_ma)[0]
    return estimate_current_ma(frame)


def budget(config: KitConfig, fields: int | None = None) -> PowerBudget:
    """The kit's current budget for ``config`` (a ``haleakala.config.Config``); ``fields``:
    the RF fields on at once (default: as the Pico firmware's config.py runs them)."""
    if fields is None:
        from haleakala.kit.pinout import fields_at_once

        fields = fields_at_once()
    leds = config.leds
    ppr = leds.pixels_per_ring
    rings = tuple(
        RingBudget(
            position=pos + 1,
            segment=segment,
            pixels=ppr,
            worst_ma=chain_current_ma(ppr, 1.0),
            at_brightness_ma=chain_current_ma(ppr, leds.brightness),
        )
        for pos, segment in enumerate(leds.ring_order)
    )
    total = ppr * SEGMENTS
    return PowerBudget(
        model=config.model,
        kit=config.kit,
        rings=rings,
        worst_ma=chain_current_ma(total, 1.0),
        brightness=float(leds.brightness),
        at_brightness_ma=chain_current_ma(total, leds.brightness),
        current_limit_ma=float(leds.current_limit_ma),
        led_max_ma=chain_current_ma(total, leds.brightness, leds.current_limit_ma),
        pi_ma=PI_BUDGET_MA.get(config.model, max(PI_BUDGET_MA.values())),
        oled_ma=OLED_MA,
        rfid_ma=rfid_ma(fields) if config.kit == "rfid" else 0,
        supply_ma=float(leds.supply_ma),
        rfid_fields=fields if config.kit == "rfid" else 0,
    )
