"""``haleakala power``: how much current the kit can draw, and the 5 V supply it needs.

A WS2812 pixel draws up to 20 mA per colour channel, so ≈ 60 mA at full white: six 12-pixel
rings would pull 4.3 A, more than a Pi's supply gives. The daemon never lets that happen: it
scales every frame by ``leds.brightness`` and then, if the estimate still exceeds
``leds.current_limit_ma``, scales the whole frame down uniformly (``haleakala.hal.zones``).
The figures here are computed by those same functions on an all-white frame, so the "expected
maximum" is what the daemon will really send, not a separate estimate that could disagree.

The supply feeds the rings and the Pi (and, on the RFID kit, the Pico and its readers through
the Pi's USB port). Both big terms are already worst cases that do not meet in play (every
pixel white while all four CPU cores are flat out), so 10 % headroom on their sum is enough;
the recommended supply is that, rounded up to the next 0.5 A. The figures are computed in
``haleakala.kit.budget``; this module is the command that prints them.
"""

from __future__ import annotations

import argparse
import math

from haleakala.cli import INSTALLED_CONFIG, add_config_option
from haleakala.hal.zones import MA_PER_CHANNEL
from haleakala.kit.budget import HEADROOM, MA_PER_PIXEL, KitConfig, PowerBudget, budget
from haleakala.kit.common import load_for_kit
from haleakala.kit.geometry import default_geometry
from haleakala.kit.power_scheme import scheme


def _ma(value: float) -> int:
    """Whole milliamps, rounded up: a budget errs on the safe side."""
    return math.ceil(value - 1e-9)


def scheme_lines(config: KitConfig) -> list[str]:
    """The power scheme (``kit.power_scheme``): where 5 V enters, each run, the fuses, the
    voltage at the last pixel."""
    s = scheme(default_geometry(), config)
    hold, trip, _ohm = s.tile_fuse
    lines = [
        f"power scheme: 5 V enters at the hub's J1 ({s.supply_v:g} V supply); J2 beside it "
        f"feeds the Pi; F1 (T{s.main_fuse_a:g}A slow-blow) protects the LED and reader rail "
        f"({math.ceil(s.peak_ma)} mA peak at the cap); each tile's ribbon has its own PTC "
        f"(holds {hold:g} A, trips at {trip:g} A)",
    ]
    for run in s.runs:
        lines.append(
            f"  {run['run']}: {run['made_of']}, {run['carries_a']:g} A at full white, rated "
            f"{run['rated_a']:g} A, protected by {run['protected_by']}"
        )
    white, cap = s.full_white, s.at_cap
    lines += [
        f"last_pixel_v_full_white: {white.last_pixel_v:.2f}  (tile {white.worst_tile}'s last "
        f"pixel, every pixel white at brightness 1 held to the current limit: "
        f"{white.total_a:.2f} A from the supply; uncapped the pixels alone would draw "
        f"{s.uncapped_a:.2f} A, {s.uncapped_words()})",
        f"last_pixel_v_default_cap: {cap.last_pixel_v:.2f}  (brightness "
        f"{config.leds.brightness:g}, limit {config.leds.current_limit_ma:g} mA: "
        f"{cap.total_a:.2f} A)",
    ]
    return lines


def report(b: PowerBudget, label: str, config: KitConfig | None = None) -> list[str]:
    lines = [
        f"Power budget: {b.model}, {b.kit} kit (config: {label})",
        f"LED chain: {len(b.rings)} tiles x {b.rings[0].pixels} pixels = {b.pixels} pixels; "
        f"a pixel draws ~{MA_PER_PIXEL:g} mA at full white ({MA_PER_CHANNEL:g} mA per channel)",
    ]
    lines += [
        f"  tile {r.position} (segment {r.segment}): {r.pixels} pixels, worst {_ma(r.worst_ma)} "
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
        + (
            f"(the Pico and six readers, {b.rfid_fields} RF fields on at once as the firmware "
            "scans them)"
            if b.rfid_ma
            else "(buttons kit: none)"
        ),
        f"speaker_ma: {_ma(b.speaker_ma)}  (the voice at full volume, averaged over speech)",
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
    if config is not None:
        lines += scheme_lines(config)
        warnings += scheme(default_geometry(), config).problems
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
    print("\n".join(report(b, label, config)))
    return 1 if b.warnings() or scheme(default_geometry(), config).problems else 0
