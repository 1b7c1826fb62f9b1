"""``haleakala power``: how much current the kit can draw, and the 5 V supply it needs.

A WS2812 pixel draws up to 20 mA per colour channel, so ≈ 60 mA at full white: six 12-pixel
rings would pull 4.3 A, more than a Pi's supply gives. The daemon never lets that happen: it
scales every frame by ``leds.brightness`` and then, if the estimate still exceeds
``leds.current_limit_ma``, scales the whole frame down uniformly (``haleakala.hal.base``).
The figures here are computed by those same functions on an all-white frame, so the "expected
maximum" is what the daemon will really send, not a separate estimate that could disagree.

The supply feeds the rings and the Pi (and, on the RFID kit, the Pico and its readers through
the Pi's USB port). Both big terms are already worst cases that do not meet in play (every
pixel white while all four CPU cores are flat out), so 10 % headroom on their sum is enough;
the recommended supply is that, rounded up to the next 0.5 A.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

from haleakala.cli import INSTALLED_CONFIG, add_config_option
from haleakala.config import Config
from haleakala.hal.base import (
    MA_PER_CHANNEL,
    SEGMENTS,
    apply_brightness,
    estimate_current_ma,
    limit_current,
)
from haleakala.kit.common import load_for_kit

WHITE = (255, 255, 255)
MA_PER_PIXEL = 3 * MA_PER_CHANNEL
"""Full white: all three channels at 20 mA."""

PI_BUDGET_MA = {"zero2w": 600, "pi3": 1000, "pi4": 1300, "pi5": 2000}
"""The Pi itself under full load on every core, no USB devices (reviewers' measurements,
rounded up): Zero 2 W ≈ 0.6 A, 3 B/B+ ≈ 0.8-1.0 A, 4 B ≈ 1.3 A, 5 ≈ 1.6-2.0 A."""
OLED_MA = 25
"""A 128x64 SSD1306/SH1106 with every pixel on draws ≈ 20 mA."""
RFID_MA = 300
"""RFID kit over the Pi's USB: Pico ≈ 25 mA, six idle readers ≈ 15 mA each, and one RF field
(≈ 180 mA) — the firmware switches on one reader's field at a time."""
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

    @property
    def pixels(self) -> int:
        return sum(r.pixels for r in self.rings)

    @property
    def limit_bites(self) -> bool:
        """True when the current limit (not brightness alone) caps the chain."""
        return self.led_max_ma < self.at_brightness_ma

    @property
    def peak_ma(self) -> float:
        return self.pi_ma + self.oled_ma + self.rfid_ma + self.led_max_ma

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


def budget(config: Config) -> PowerBudget:
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
        rfid_ma=RFID_MA if config.kit == "rfid" else 0,
        supply_ma=float(leds.supply_ma),
    )


def _ma(value: float) -> int:
    """Whole milliamps, rounded up: a budget errs on the safe side."""
    return math.ceil(value - 1e-9)


def report(b: PowerBudget, label: str) -> list[str]:
    lines = [
        f"Power budget: {b.model}, {b.kit} kit (config: {label})",
        f"LED chain: {len(b.rings)} rings x {b.rings[0].pixels} pixels = {b.pixels} pixels; "
        f"a pixel draws ~{MA_PER_PIXEL:g} mA at full white ({MA_PER_CHANNEL:g} mA per channel)",
    ]
    lines += [
        f"  ring {r.position} (segment {r.segment}): {r.pixels} pixels, worst {_ma(r.worst_ma)} "
        f"mA, at brightness {b.brightness:g}: {_ma(r.at_brightness_ma)} mA"
        for r in b.rings
    ]
    limit = "the limit caps it" if b.limit_bites else "the limit does not bite"
    lines += [
        f"leds_worst_case_ma: {_ma(b.worst_ma)}  (every pixel full white, brightness 1)",
        f"leds_brightness: {b.brightness:g}",
        f"leds_at_brightness_ma: {_ma(b.at_brightness_ma)}  (every pixel full white at "
        f"brightness {b.brightness:g})",
        f"leds_current_limit_ma: {b.current_limit_ma:g}",
        f"leds_expected_max_ma: {_ma(b.led_max_ma)}  (the most the daemon sends: brightness, "
        f"then the current limit; {limit})",
        f"pi_budget_ma: {_ma(b.pi_ma)}  ({b.model} under full CPU load, no USB devices)",
        f"oled_ma: {_ma(b.oled_ma)}",
        f"rfid_ma: {_ma(b.rfid_ma)}  "
        + ("(Pico and six readers, one RF field on)" if b.rfid_ma else "(buttons kit: none)"),
        f"peak_ma: {_ma(b.peak_ma)}",
        f"supply_needed_ma: {_ma(b.needed_ma)}  (peak + {HEADROOM:.0%} headroom): a 5 V supply "
        f"of at least {b.recommended_supply_ma / 1000:g} A",
        f"supply_configured_ma: {b.supply_ma:g}  (leds.supply_ma)",
    ]
    if b.model == "pi5":
        lines.append(
            "note: a Pi 5 not fed by its 5 A USB-C PD supply limits its USB ports to 600 mA "
            "(enough for the RFID Pico)"
        )
    warnings = b.warnings()
    lines += [f"warning: {w}" for w in warnings]
    if not warnings:
        lines.append(
            f"OK: the {b.supply_ma / 1000:g} A supply covers the peak with "
            f"{b.headroom:.0%} headroom"
        )
    return lines


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "power",
        help="LED and Pi current budget, and the 5 V supply the kit needs",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_config_option(parser, INSTALLED_CONFIG + ", else the built-in defaults")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the budget; exit 1 when the configured supply is too small."""
    config, label = load_for_kit(args.config, supply=False)
    b = budget(config)
    print("\n".join(report(b, label)))
    return 1 if b.warnings() else 0
