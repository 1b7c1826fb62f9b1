"""The power scheme: where 5 V enters, what each run is made of, what protects it, and the
voltage the last pixel of the worst tile gets, at full white and at the daemon's default cap.

5 V enters at the hub's screw terminal J1 from the supply's lead. The Pi's USB pigtail leaves
from J2 beside it (the Pi has its own input protection, and the supply's current limit is
below what the pigtail carries); the main fuse F1 protects the LED and reader rail: the hub's
copper and the tile fuses; each tile's ribbon has its own resettable fuse (F2...).

The voltage is the supply's less every drop on the way, each from the geometry and the
boards: the lead (shared by everything), the terminal's contacts, F1, the hub's copper, the
tile's fuse, the IDC contacts and the ribbon (its cut length, ``kit.cables``), the tile
board, the pixel wire to the first pixel and along the chain. Currents come from the
daemon's own frame functions (``kit.budget``) and, for the readers, the RF fields the
firmware has on at once.

Pure arithmetic on the standard library: ``kit check`` and ``config check`` use it on a Pi.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from haleakala.hal.zones import MA_PER_CHANNEL
from haleakala.kit.boards.hub import FIRST_TILE_HEADER, POWER_WIDTH, TILE_HEADER_PITCH
from haleakala.kit.boards.model import conductors
from haleakala.kit.boards.tile import TILE_POWER_WIDTH
from haleakala.kit.budget import (
    PI_BUDGET_MA,
    PICO_MA,
    READER_FIELD_MA,
    READER_IDLE_MA,
    KitConfig,
    PowerBudget,
    budget,
    chain_current_ma,
)
from haleakala.kit.cables import tile_cables
from haleakala.kit.geometry import KitGeometry

COPPER_RESISTIVITY = 1.72e-8
"""Ohm metres, copper at 20 °C."""
AWG_OHM_PER_M = {16: 0.0132, 18: 0.0210, 20: 0.0333, 22: 0.0530, 24: 0.0842, 26: 0.134, 28: 0.213}
AWG_AMPS = {16: 22.0, 18: 16.0, 20: 11.0, 22: 7.0, 24: 3.5, 26: 2.2, 28: 1.4}
"""Ampacity of one stranded copper conductor in free air (chassis wiring), amps."""
TRACE_RISE_K = 20.0
"""The temperature rise a board's power track may take at the fuse's rating (IPC-2221)."""
J1_AT = (6.35, 22.86)
"""The supply terminal's pin 1 on the hub (``boards.hub``)."""
TILE_BOARD_TRACE_MM = 30.0
"""Longest 5 V or ground track on a tile board, J1 to J4."""
FUSE_STEPS = (1.0, 1.6, 2.0, 2.5, 3.15, 4.0, 5.0, 6.3, 8.0, 10.0)
"""IEC 60127 ratings of a 5 x 20 mm fuse, amps."""


def trace_amps(width_mm: float, copper_um: float, rise_k: float = TRACE_RISE_K) -> float:
    """IPC-2221 for an outer-layer track: I = 0.048 dT^0.44 A^0.725 (A in square mils)."""
    area = (width_mm / 0.0254) * (copper_um / 25.4)
    return 0.048 * rise_k**0.44 * area**0.725


def trace_ohms(length_mm: float, width_mm: float, copper_um: float) -> float:
    return COPPER_RESISTIVITY * (length_mm / 1000) / (width_mm / 1000 * copper_um / 1e6)


@dataclass(frozen=True)
class Case:
    """One load case: the currents and the voltage at the worst tile's last pixel."""

    name: str
    total_a: float
    tile_a: float
    worst_tile: int
    last_pixel_v: float
    drops: dict[str, float]


@dataclass(frozen=True)
class Scheme:
    supply_v: float
    main_fuse_a: float
    tile_fuse: tuple[float, float, float]
    runs: list[dict[str, Any]]
    full_white: Case
    at_cap: Case
    peak_ma: float
    problems: list[str]
    uncapped_a: float = 0.0
    """Every pixel at full white with no limit at all (what F1 and the tile fuses cut)."""

    def uncapped_words(self) -> str:
        """What happens to the pixels' draw with no software limit at all."""
        if self.uncapped_a > self.main_fuse_a:
            return f"F1 (T{self.main_fuse_a:g}A) cuts that"
        return f"below F1's {self.main_fuse_a:g} A, and the wiring carries it"

    def as_dict(self) -> dict[str, Any]:
        def case(c: Case) -> dict[str, Any]:
            return {
                "total_a": round(c.total_a, 3),
                "tile_a": round(c.tile_a, 3),
                "worst_tile": c.worst_tile,
                "last_pixel_v": round(c.last_pixel_v, 3),
                "drops_v": {k: round(v, 4) for k, v in c.drops.items()},
            }

        return {
            "enters": "hub J1 (screw terminal); J2 beside it feeds the Pi, F1 the LED and "
            "reader rail",
            "supply_v": self.supply_v,
            "main_fuse_a": self.main_fuse_a,
            "tile_fuse": {
                "hold_a": self.tile_fuse[0],
                "trip_a": self.tile_fuse[1],
                "max_ohm": self.tile_fuse[2],
            },
            "rail_peak_ma": math.ceil(self.peak_ma),
            "pixels_uncapped_a": round(self.uncapped_a, 2),
            "runs": self.runs,
            "full_white": case(self.full_white),
            "default_cap": case(self.at_cap),
            "problems": self.problems,
        }


def _p(g: KitGeometry, key: str) -> Any:
    return g.power[key]


def _hub_path_mm(g: KitGeometry, segment: int) -> float:
    """J1 to tile ``segment``'s header along the hub's rail: Manhattan distance, half again."""
    x0, y0 = FIRST_TILE_HEADER
    hx, hy = x0 + segment * TILE_HEADER_PITCH, y0
    return 1.5 * (abs(hx - J1_AT[0]) + abs(hy - J1_AT[1]))


def _chain_ohm_amps(g: KitGeometry, tile_pixel_a: float) -> float:
    """The drop (volts, both rails) from the tile board to the last pixel, with every pixel
    drawing ``tile_pixel_a / n``: the wire to the first pixel carries them all, each link on
    the chain one fewer."""
    awg = int(g.harness["pixel_wire_awg"])
    per_m = AWG_OHM_PER_M[awg]
    board = tuple(float(v) for v in g.boards["tile_at"])
    pixels = [(x, y) for _zone, x, y in g.tile_pixels]
    n = len(pixels)
    each = tile_pixel_a / n
    points = [board, *pixels]
    drop = 0.0
    for k in range(n):
        (ax, ay), (bx, by) = points[k], points[k + 1]
        metres = math.hypot(bx - ax, by - ay) * g.routing_factor / 1000
        drop += 2 * per_m * metres * each * (n - k)
    return drop


def _case(g: KitGeometry, name: str, pixel_a_per_tile: float, pi_a: float, fields: int,
          rfid: bool) -> Case:  # fmt: skip
    """The voltage at the last pixel of every tile; the worst one."""
    n = g.segments
    contact = float(_p(g, "contact_ohm"))
    supply_v = float(_p(g, "supply_v"))
    lead_m, lead_awg = _p(g, "supply_lead")
    r_lead = 2 * float(lead_m) * AWG_OHM_PER_M[int(lead_awg)]
    copper = float(g.boards["copper_um"])
    fuse_ohm = float(_p(g, "tile_fuse")[2])
    cables = {c.segment: c for c in tile_cables(g)}
    plus, ground = conductors("+5V"), conductors("GND")
    per_m = float(g.harness["conductor_ohm_per_m"])
    reader_idle = READER_IDLE_MA / 1000 if rfid else 0.0
    reader_field = READER_FIELD_MA / 1000 if rfid else 0.0
    # Fields on at the tiles with the longest cables: the worst case for the voltage.
    longest = sorted(range(n), key=lambda s: -cables[s].cut_mm)[: fields if rfid else 0]
    tile_a = {
        s: pixel_a_per_tile + (reader_field if s in longest else reader_idle) for s in range(n)
    }
    tiles_a = sum(tile_a.values())
    total = tiles_a + pi_a
    best: tuple[float, int, dict[str, float]] | None = None
    for s in range(n):
        i = tile_a[s]
        hub_mm = _hub_path_mm(g, s)
        hub = 2 * trace_ohms(hub_mm / 2, POWER_WIDTH, copper) * (tiles_a + i)
        ribbon_m = cables[s].cut_mm / 1000
        drops = {
            "supply lead and J1": total * (r_lead + float(_p(g, "entry_ohm"))),
            "main fuse F1": tiles_a * float(_p(g, "main_fuse")[1]),
            "hub copper": hub,
            "tile fuse": i * fuse_ohm,
            "IDC contacts": i * 2 * (contact / plus + contact / ground),
            "ribbon": i * ribbon_m * (per_m / plus + per_m / ground),
            "tile board": 2
            * i
            * (trace_ohms(TILE_BOARD_TRACE_MM, TILE_POWER_WIDTH, copper) + contact),
            "pixel wire and chain": _chain_ohm_amps(g, pixel_a_per_tile),
        }
        v = supply_v - sum(drops.values())
        if best is None or v < best[0]:
            best = (v, s, drops)
    assert best is not None
    return Case(name, total, tile_a[best[1]], best[1], best[0], best[2])


def scheme(g: KitGeometry, config: KitConfig, fields: int | None = None) -> Scheme:
    b: PowerBudget = budget(config, fields)
    rfid = config.kit == "rfid"
    fields_on = b.rfid_fields
    pi_ma = PI_BUDGET_MA.get(config.model, max(PI_BUDGET_MA.values()))
    pi_a = (pi_ma + b.oled_ma + b.speaker_ma) / 1000  # the Pi's side: OLED and speaker too
    if rfid:
        pi_a += PICO_MA / 1000
    n = g.segments
    per_tile = g.pixels_per_tile
    leds = config.leds
    # Full white: every pixel at 255, 255, 255 and brightness 1, as the daemon sends it (held
    # to leds.current_limit_ma); uncapped, the pixels alone would draw `uncapped`, which F1
    # and the tile fuses cut.
    uncapped_tile = per_tile * 3 * MA_PER_CHANNEL / 1000
    full = chain_current_ma(per_tile * n, 1.0, leds.current_limit_ma) / 1000 / n
    capped = chain_current_ma(per_tile * n, leds.brightness, leds.current_limit_ma) / 1000 / n
    one_tile = min(uncapped_tile, leds.current_limit_ma / 1000)
    """The most one tile's pixels draw: the rest dark, the limit still holding."""
    tile_max = one_tile + (READER_FIELD_MA / 1000 if rfid else 0.0)
    white = _case(g, "full white", full, pi_a, fields_on, rfid)
    cap = _case(g, "default cap", capped, pi_a, fields_on, rfid)
    main_a, _main_ohm = (float(v) for v in _p(g, "main_fuse"))
    hold, trip, fuse_ohm = (float(v) for v in _p(g, "tile_fuse"))
    lead_m, lead_awg = (float(v) for v in _p(g, "supply_lead"))
    pi_m, pi_awg = (float(v) for v in _p(g, "pi_lead"))
    copper = float(g.boards["copper_um"])
    plus = conductors("+5V")
    ribbon_a = plus * float(g.harness["conductor_amps"])
    pixel_awg = int(g.harness["pixel_wire_awg"])
    runs = [
        {"run": "supply lead to hub J1", "made_of": f"{lead_awg:g} AWG, {lead_m:g} m",
         "carries_a": round(white.total_a, 2), "rated_a": AWG_AMPS[int(lead_awg)],
         "protected_by": "the supply's own limit"},
        {"run": "hub 5 V rail and ground", "made_of": f"{POWER_WIDTH:g} mm track, {copper:g} um",
         "carries_a": round(white.total_a - pi_a, 2),
         "rated_a": round(trace_amps(POWER_WIDTH, copper), 2), "protected_by": f"F1 {main_a:g} A"},
        {"run": "hub J2 to the Pi", "made_of": f"{pi_awg:g} AWG USB pigtail, {pi_m:g} m",
         "carries_a": round(pi_a, 2), "rated_a": AWG_AMPS[int(pi_awg)],
         "protected_by": f"the supply's own limit ({config.leds.supply_ma / 1000:g} A)"},
        {"run": "tile ribbon (each)", "made_of": f"{plus} x 28 AWG ribbon conductors each way",
         "carries_a": round(tile_max, 3), "rated_a": ribbon_a,
         "protected_by": f"tile fuse, trips at {trip:g} A"},
        {"run": "tile board to pixels", "made_of": f"{pixel_awg} AWG 3-core LED wire",
         "carries_a": round(one_tile, 3), "rated_a": AWG_AMPS[pixel_awg],
         "protected_by": f"tile fuse, trips at {trip:g} A"},
    ]  # fmt: skip
    # the speaker (USB or the I2S amplifier) is fed from the Pi side, not the fused rail
    rail_peak = b.peak_ma - b.pi_ma - b.oled_ma - b.speaker_ma - (PICO_MA if rfid else 0)
    problems = check_fuses(g, b, rail_peak, white, tile_max, main_a, (hold, trip), runs)
    if config.leds.supply_ma / 1000 > AWG_AMPS[int(pi_awg)]:
        problems.append(
            f"the {config.leds.supply_ma / 1000:g} A supply can push more than the Pi's "
            f"{pi_awg:g} AWG pigtail carries ({AWG_AMPS[int(pi_awg)]:g} A): use a thicker "
            "pigtail (power.pi_lead) or a smaller supply"
        )
    return Scheme(float(_p(g, "supply_v")), main_a, (hold, trip, fuse_ohm), runs, white, cap,
                  rail_peak, problems, uncapped_tile * n)  # fmt: skip


def _next_fuse(amps: float) -> float:
    return next((f for f in FUSE_STEPS if f >= amps), FUSE_STEPS[-1])


def check_fuses(g: KitGeometry, b: PowerBudget, rail_peak_ma: float, white: Case,
                tile_max: float, main_a: float, tile: tuple[float, float],
                runs: list[dict[str, Any]]) -> list[str]:  # fmt: skip
    """The fuses against the peak they must carry and the wires they must protect."""
    problems = []
    hold, trip = tile
    if main_a * 1000 < rail_peak_ma:
        problems.append(
            f"the main fuse F1 ({main_a:g} A, power.main_fuse) is smaller than the "
            f"{math.ceil(rail_peak_ma)} mA peak of the LED and reader rail ({b.kit} kit): fit "
            f"a {_next_fuse(rail_peak_ma / 1000):g} A slow-blow fuse and set power.main_fuse, "
            "or lower leds.current_limit_ma"
        )
    guarded = [r for r in runs if r["protected_by"].startswith("F1")]
    thinnest = min(guarded, key=lambda r: r["rated_a"])
    if main_a > thinnest["rated_a"]:
        problems.append(
            f"the main fuse F1 ({main_a:g} A) is larger than the {thinnest['run']} "
            f"({thinnest['made_of']}) can carry ({thinnest['rated_a']:g} A): a short there would "
            f"burn it before F1 blows; use a thicker run or a fuse of at most "
            f"{thinnest['rated_a']:g} A"
        )
    if hold < tile_max:
        problems.append(
            f"a tile's fuse holds {hold:g} A (power.tile_fuse) but one tile lit white can draw "
            f"{tile_max:.2f} A under the current limit: it would trip; fit one that holds more "
            "or lower leds.current_limit_ma"
        )
    tiled = [r for r in runs if r["protected_by"].startswith("tile fuse")]
    weakest = min(tiled, key=lambda r: r["rated_a"])
    if trip > weakest["rated_a"]:
        problems.append(
            f"a tile's fuse trips at {trip:g} A (power.tile_fuse) but the {weakest['run']} "
            f"({weakest['made_of']}) carries only {weakest['rated_a']:g} A: fit a fuse that "
            "trips lower or thicker wire"
        )
    floor = float(g.power["min_pixel_v"])
    if white.last_pixel_v < floor:
        problems.append(
            f"at full white the last pixel of tile {white.worst_tile} gets "
            f"{white.last_pixel_v:.2f} V, under the {floor:g} V the kit must keep "
            "(power.min_pixel_v): shorten or thicken the largest drop "
            f"({max(white.drops, key=white.drops.__getitem__)})"
        )
    return problems
