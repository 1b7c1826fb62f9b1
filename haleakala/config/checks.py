"""What a well-formed config means: allowed values, pins that exist and do not collide,
rings that fit, a supply that carries the peak. Works on a ``Config`` however it was made."""

from __future__ import annotations

import difflib
import math
from dataclasses import fields

from haleakala.config.build import _describe, _kind_of, _number_problem, _short_int
from haleakala.config.schema import (
    _SECTIONS,
    BAUD_RANGE,
    COLOUR_MODES,
    DRIVERS,
    HARDWARE,
    HAT_EEPROM_GPIOS,
    HEADER_GPIOS,
    I2C1_GPIOS,
    I2C_PORTS,
    KITS,
    LANGUAGES,
    MAX_HOLD_MS,
    MODELS,
    NAME_MAX,
    PIXEL_ORDERS,
    PWM_LED_GPIO,
    SPEECH_ENGINES,
    SPEECH_OUTPUTS,
    SPI0_GPIOS,
    SPI_LED_GPIO,
    VERBOSITIES,
    Config,
    DisplayConfig,
    LedsConfig,
    Problem,
    RemoteConfig,
    SpeechConfig,
    WebConfig,
)
from haleakala.games.haleakala.game import VARIANTS
from haleakala.hal.zones import SEGMENTS
from haleakala.kit.budget import budget
from haleakala.speech.settings import RATES


def _one_of(
    problems: list[Problem], key: str, value: str, allowed: tuple[str, ...], why: str
) -> None:
    if value not in allowed:
        same_but_case = [a for a in allowed if a.casefold() == value.casefold()]
        close = same_but_case or difflib.get_close_matches(value, allowed, n=1, cutoff=0.75)
        hint = f"did you mean {close[0]!r}? " if close else ""
        if same_but_case:
            hint += "(the case matters) "
        shown = _describe(value).removeprefix("string ")
        problems.append(Problem(key, f"{shown} is not one of {', '.join(allowed)}", f"{hint}{why}"))


def _check_meaning(c: Config, supply: bool = True) -> list[Problem]:
    p: list[Problem] = []
    # A Config built in code skipped the file checks: its numbers must be finite too.
    for section, cls in _SECTIONS.items():
        for f in fields(cls):
            if _kind_of(cls, f.name) == "number":
                value = getattr(getattr(c, section), f.name)
                bad = _number_problem(f"{section}.{f.name}", value, getattr(cls(), f.name))
                if bad is not None:
                    p.append(bad)
    if p:
        return p
    _one_of(p, "hardware", c.hardware, HARDWARE, "auto picks pi on a Raspberry Pi, else sim")
    _one_of(p, "model", c.model, MODELS, "the Raspberry Pi under the island")
    _one_of(p, "kit", c.kit, KITS, "buttons: one button per beach; rfid: tags read by a Pico")
    if not c.variant:
        p.append(Problem("variant", "is empty", 'use "base" for the standard rules'))
    else:
        _one_of(p, "variant", c.variant, VARIANTS, '"base" is the rulebook\'s standard game')
    _one_of(
        p,
        "language",
        c.language,
        LANGUAGES,
        "the language of the OLED and the menus: en (English), de (Deutsch), fr (français), "
        "or auto for the system locale's",
    )
    _one_of(
        p,
        "palette",
        c.palette,
        COLOUR_MODES,
        "the colours of the lights, the simulator and the live view: default, or cvd "
        "(designed for colour-vision deficiency; haleakala palette lists both)",
    )
    if not str(c.state_dir) or str(c.state_dir) == ".":
        p.append(Problem("state_dir", "is empty", "use /var/lib/haleakala"))
    elif not c.state_dir.is_absolute():
        p.append(
            Problem(
                "state_dir",
                f"{_describe(str(c.state_dir)).removeprefix('string ')} is a relative path, "
                "which depends on where the daemon happens to start",
                "write an absolute path such as /var/lib/haleakala",
            )
        )
    elif any(len(part.encode()) > NAME_MAX for part in c.state_dir.parts):
        p.append(
            Problem(
                "state_dir",
                f"has a directory name longer than {NAME_MAX} bytes, which no Linux file "
                "system stores",
                "shorten it, e.g. /var/lib/haleakala",
            )
        )
    p += _check_pins(c)
    p += _check_leds(c.leds)
    p += _check_display(c.display)
    p += _check_web(c.web)
    p += _check_remote(c.remote)
    p += _check_speech(c.speech)
    p += _check_speaker_pins(c)
    if c.rfid.baud <= 0:
        p.append(
            Problem(
                "rfid.baud",
                f"baud rate {_short_int(c.rfid.baud)} must be positive",
                "the Pico firmware talks at 115200",
            )
        )
    elif not BAUD_RANGE[0] <= c.rfid.baud <= BAUD_RANGE[1]:
        p.append(
            Problem(
                "rfid.baud",
                f"baud rate {_short_int(c.rfid.baud)} is outside {BAUD_RANGE[0]}..{BAUD_RANGE[1]}",
                "the Pico firmware talks at 115200",
            )
        )
    if not c.rfid.port:
        p.append(Problem("rfid.port", "is empty", 'use "auto" or a path like /dev/ttyACM0'))
    if not 1 <= c.inputs.bounce_ms <= 200:
        p.append(
            Problem(
                "inputs.bounce_ms",
                f"{c.inputs.bounce_ms} ms is outside 1..200",
                "20 ms suits ordinary tactile buttons",
            )
        )
    if c.inputs.hold_ms <= c.inputs.bounce_ms:
        p.append(
            Problem(
                "inputs.hold_ms",
                f"{c.inputs.hold_ms} ms is not longer than inputs.bounce_ms",
                "a long press must outlast contact bounce: 800 ms is usual",
            )
        )
    elif c.inputs.hold_ms > MAX_HOLD_MS:
        p.append(
            Problem(
                "inputs.hold_ms",
                f"{c.inputs.hold_ms:g} ms is longer than anyone holds a button "
                f"(at most {MAX_HOLD_MS} ms), so undo could never be reached",
                "800 ms is usual",
            )
        )
    if supply and not any(pr.key.startswith(("leds.", "model", "kit")) for pr in p):
        p += _check_supply(c)
    return p


def check_printed_board(c: Config, found: list[Problem]) -> list[Problem]:
    """A config that drives the printed board (as many pixels per segment as its tiles have)
    must light each zone's own pixels, or the board lights the wrong zones: the kit check's
    config half (``kit/zonecheck.py``). A ring build (another count) is not the printed
    board and is not judged here; ``haleakala kit check`` proves the geometry itself. A
    broken ``[leds]`` (a problem already ``found`` under it) is named by its own key alone."""
    if any(pr.key.startswith("leds") for pr in found):
        return []
    from haleakala.kit.geometry import default_geometry
    from haleakala.kit.zonecheck import applies_to, check_config

    g = default_geometry()
    if not applies_to(g, c.leds):
        return []
    problems = check_config(g, c.leds)
    if not problems:
        return []
    what, _, fix = problems[0].rpartition(": ")
    more = len(problems) - 1
    also = f" (and {more} more: 'haleakala kit check' lists them)"
    return [Problem("leds.zones", f"on the printed board {what}{also if more else ''}", fix)]


def _check_supply(c: Config) -> list[Problem]:
    """The 5 V supply (``leds.supply_ma``) must carry the kit's peak: the LEDs at the
    configured brightness and current limit, the Pi model, the OLED and the RFID kit. The
    figures are ``haleakala power``'s, computed by the daemon's own frame functions."""
    b = budget(c)
    fix = (
        f"fit a 5 V supply of at least {b.recommended_supply_ma / 1000:g} A and set "
        "leds.supply_ma to its rating, or lower leds.current_limit_ma / leds.brightness "
        "(details: haleakala power)"
    )
    if b.supply_ma < b.peak_ma:
        return [
            Problem(
                "leds.supply_ma",
                f"the {b.supply_ma:g} mA supply cannot carry the kit's "
                f"{math.ceil(b.peak_ma)} mA peak ({b.model} {math.ceil(b.pi_ma)}, LEDs "
                f"{math.ceil(b.led_max_ma)}, OLED {math.ceil(b.oled_ma)}"
                + (f", RFID {math.ceil(b.rfid_ma)}" if b.rfid_ma else "")
                + f", speaker {math.ceil(b.speaker_ma)} mA): the Pi would brown out",
                fix,
            )
        ]
    if b.supply_ma < b.needed_ma:
        return [
            Problem(
                "leds.supply_ma",
                f"the {b.supply_ma:g} mA supply leaves {b.headroom:.0%} headroom over the "
                f"kit's {math.ceil(b.peak_ma)} mA peak, less than 10%",
                fix,
                "warning",
            )
        ]
    return []


def _check_pins(c: Config) -> list[Problem]:
    p: list[Problem] = []
    used = c.pins_in_use()
    owner: dict[int, str] = {}
    for key, gpio in used.items():
        if gpio not in HEADER_GPIOS:
            p.append(
                Problem(
                    key,
                    f"GPIO {_short_int(gpio)} does not exist on a {c.model}",
                    "the 40-pin header has BCM GPIO 0..27",
                )
            )
            continue
        if gpio in owner:
            p.append(
                Problem(
                    key,
                    f"GPIO {gpio} is also {owner[gpio]}",
                    "every device needs its own pin: pick a free GPIO",
                )
            )
            continue
        owner[gpio] = key
        if gpio in HAT_EEPROM_GPIOS:
            p.append(
                Problem(
                    key,
                    f"GPIO {gpio} is a HAT ID EEPROM pin (ID_SD/ID_SC)",
                    "it works, but a HAT on the header would clash: prefer 4..27",
                    "warning",
                )
            )
        if gpio in I2C1_GPIOS and c.display.i2c_port == 1:
            p.append(
                Problem(
                    key,
                    f"GPIO {gpio} is I2C1 {'SDA' if gpio == 2 else 'SCL'}, which the OLED needs",
                    "move this to a free GPIO",
                )
            )
    led = c.pins.led_data
    if c.model in MODELS and c.model != "pi5" and led in HEADER_GPIOS:
        if led not in (SPI_LED_GPIO, PWM_LED_GPIO):
            p.append(
                Problem(
                    "pins.led_data",
                    f"GPIO {led} cannot drive NeoPixels on a {c.model}",
                    "use 10 (SPI0 MOSI, no root needed) or 18 (PWM, needs root)",
                )
            )
        elif led == PWM_LED_GPIO:
            p.append(
                Problem(
                    "pins.led_data",
                    "GPIO 18 drives the LEDs by PWM, which needs root and disables analogue audio",
                    "use 10 (SPI0 MOSI) so the daemon runs without root",
                    "warning",
                )
            )
        else:
            for key, gpio in used.items():
                if key != "pins.led_data" and gpio in SPI0_GPIOS and gpio != led:
                    p.append(
                        Problem(
                            key,
                            f"GPIO {gpio} is on SPI0, which the LED chain on "
                            f"GPIO {led} needs for itself on a {c.model}",
                            "keep GPIO 7, 8, 9 and 11 free: pick another GPIO",
                        )
                    )
    return p


def _check_leds(leds: LedsConfig) -> list[Problem]:
    p: list[Problem] = []
    ppr = leds.pixels_per_ring
    if not 1 <= ppr <= 256:
        p.append(
            Problem(
                "leds.pixels_per_ring",
                f"{_short_int(ppr)} is outside 1..256",
                "count the pixels of one ring (12, 16 or 24 are common)",
            )
        )
    if sorted(leds.ring_order) != list(range(SEGMENTS)):
        p.append(
            Problem(
                "leds.ring_order",
                f"{_describe(list(leds.ring_order)).removeprefix('list ')} does not list "
                "segments 0..5 once each",
                "write the segment under each ring in chain order, e.g. [0, 1, 2, 3, 4, 5]",
            )
        )
    _one_of(
        p,
        "leds.pixel_order",
        leds.pixel_order,
        PIXEL_ORDERS,
        "WS2812B rings are GRB; try RGB if red and green are swapped",
    )
    if not 0 <= leds.brightness <= 1:
        p.append(
            Problem(
                "leds.brightness",
                f"{leds.brightness} is outside 0..1",
                "0.3 is bright enough indoors",
            )
        )
    if leds.supply_ma <= 0:
        p.append(
            Problem(
                "leds.supply_ma",
                f"{leds.supply_ma} mA must be positive",
                "write the rating of the 5 V supply that feeds the rings and the Pi",
            )
        )
    if leds.current_limit_ma <= 0:
        p.append(
            Problem(
                "leds.current_limit_ma",
                f"{leds.current_limit_ma} mA must be positive",
                "e.g. 1800 (the Pi keeps the rest of the supply)",
            )
        )
    owner: dict[int, str] = {}
    for zone, indices in leds.zones.items():
        for n, i in enumerate(indices):
            key = f"leds.zones.{zone}[{n}]"
            if not 0 <= i < max(ppr, 1):
                p.append(
                    Problem(
                        key,
                        f"pixel {_short_int(i)} is past the end of a {ppr}-pixel ring",
                        f"use 0..{ppr - 1} or change leds.pixels_per_ring",
                    )
                )
            elif i in owner:
                p.append(
                    Problem(
                        key,
                        f"pixel {i} is also in leds.zones.{owner[i]}",
                        "a pixel belongs to one zone: remove it from one list",
                    )
                )
            else:
                owner[i] = zone
    return p


def _check_display(d: DisplayConfig) -> list[Problem]:
    p: list[Problem] = []
    _one_of(
        p,
        "display.driver",
        d.driver,
        DRIVERS,
        "the 0.96-inch panels are ssd1306, most 1.3-inch ones sh1106",
    )
    if d.i2c_port not in I2C_PORTS:
        p.append(
            Problem(
                "display.i2c_port",
                f"{_short_int(d.i2c_port)} is not a bus number 0..{I2C_PORTS[-1]}",
                "the header's I2C bus is 1 (/dev/i2c-1)",
            )
        )
    if not 0x03 <= d.address <= 0x77:
        p.append(
            Problem(
                "display.address",
                f"{d.address:#x} is not a 7-bit I2C address"
                if abs(d.address) < 2**32
                else f"{_short_int(d.address)} is not a 7-bit I2C address",
                "OLEDs answer at 0x3C (or 0x3D): run i2cdetect -y 1",
            )
        )
    if d.rotate not in (0, 2):
        p.append(
            Problem(
                "display.rotate",
                f"{_short_int(d.rotate)} is not 0 or 2",
                "scenes are drawn landscape 128x64: 0 upright, 2 upside down",
            )
        )
    return p


def _check_web(w: WebConfig) -> list[Problem]:
    """The live view's address: a port a server can bind, a host that is an address."""
    import ipaddress

    p: list[Problem] = []
    if not 1 <= w.port <= 65535:
        p.append(
            Problem(
                "web.port",
                f"{_short_int(w.port)} is not a TCP port 1..65535",
                "8080 is usual (ports below 1024 need root)",
            )
        )
    if w.host != "localhost":
        try:
            ipaddress.ip_address(w.host)
        except ValueError:
            p.append(
                Problem(
                    "web.host",
                    f"{_describe(w.host).removeprefix('string ')} is not an IP address",
                    'use "127.0.0.1" (this machine only) or "0.0.0.0" (phones on the LAN)',
                )
            )
    return p


def _check_remote(r: RemoteConfig) -> list[Problem]:
    """Remote play, when enabled: an address a kit can dial (without a password: that is
    ``password_file``'s), and a seat colour."""
    import re

    if not r.enabled:
        return []
    p: list[Problem] = []
    try:
        from haleakala.remote.mqtt import RemoteURLError, parse_url

        url = parse_url(r.broker)
        if url.password or url.key:
            p.append(
                Problem(
                    "remote.broker",
                    "holds a secret (a password or ?key=)",
                    "put the password in password_file and the table key in table_key_file",
                )
            )
    except RemoteURLError as exc:
        p.append(Problem("remote.broker", str(exc), 'e.g. "mqtt://broker.local:1883/ourtable"'))
    if not re.fullmatch(r"[a-z]{1,16}", r.seat):
        p.append(
            Problem(
                "remote.seat",
                f"{_describe(r.seat).removeprefix('string ')} is not a seat colour",
                'the colour played at this kit, e.g. "red"',
            )
        )
    return p


def _check_speech(s: SpeechConfig) -> list[Problem]:
    """What the companion says and where: names it knows, a volume and a pace people hear."""
    p: list[Problem] = []
    for key, value, allowed in (
        ("verbosity", s.verbosity, VERBOSITIES),
        ("engine", s.engine, SPEECH_ENGINES),
        ("output", s.output, SPEECH_OUTPUTS),
    ):
        if value not in allowed:
            p.append(
                Problem(f"speech.{key}", f"unknown value {value!r}", f"use {', '.join(allowed)}")
            )
    if not 0 <= s.volume <= 100:
        p.append(
            Problem(
                "speech.volume",
                f"{_short_int(s.volume)} is outside 0..100",
                "60 is the default (per cent)",
            )
        )
    if not RATES[0] <= s.rate <= RATES[1]:
        p.append(
            Problem(
                "speech.rate",
                f"{_short_int(s.rate)} words per minute is outside {RATES[0]}..{RATES[1]}",
                "160 is the default",
            )
        )
    if s.output == "files" and not s.directory:
        p.append(
            Problem("speech.directory", "is empty", 'output = "files" needs a folder to write to')
        )
    if s.engine == "piper" and not s.piper_voices:
        p.append(
            Problem(
                "speech.piper_voices",
                "is empty",
                'engine = "piper" needs the folder of its .onnx voices (or use "espeak-ng")',
            )
        )
    if not s.device:
        p.append(Problem("speech.device", "is empty", 'use "default" or a name from aplay -L'))
    return p


I2S_GPIOS = {18: "BCLK", 19: "LRCLK", 21: "DIN"}
"""The MAX98357A amplifier's I2S lines (``dtoverlay=max98357a``): fixed by the Pi's PCM block."""


def _check_speaker_pins(c: Config) -> list[Problem]:
    """The I2S amplifier takes GPIO 18, 19 and 21: no button or LED line of this kit may."""
    if c.speech.speaker not in ("usb", "i2s"):
        return [Problem("speech.speaker", f"unknown value {c.speech.speaker!r}", "use usb or i2s")]
    if c.speech.speaker != "i2s":
        return []
    clashes = [(key, gpio) for key, gpio in c.pins_in_use().items() if gpio in I2S_GPIOS]
    return [
        Problem(
            key,
            f'GPIO {gpio} is the I2S amplifier\'s {I2S_GPIOS[gpio]} (speech.speaker = "i2s")',
            "move it to a free GPIO such as 24 or 25 (and rewire), or use a USB speaker "
            '(speech.speaker = "usb")',
        )
        for key, gpio in clashes
    ]
