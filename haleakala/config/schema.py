"""The config's shape: the dataclass tree with the kit's defaults, the allowed values and
limits, and ``Problem``, the one sentence every check speaks in (where, what, how to fix)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from haleakala.hal.audio import OUTPUTS
from haleakala.hal.events import BEACHES, Disc
from haleakala.hal.zones import DEFAULT_PIXELS_PER_SEGMENT, DEFAULT_ZONES, SEGMENTS
from haleakala.i18n import LANGUAGES as CATALOG_LANGUAGES
from haleakala.i18n import english_ngettext
from haleakala.palette import MODES as COLOUR_MODE_NAMES
from haleakala.speech.settings import DEFAULT_VERBOSITY, DEFAULT_VOLUME, ENGINES
from haleakala.speech.settings import VERBOSITIES as SPEECH_VERBOSITIES

HARDWARE = ("auto", "sim", "pi")
MODELS = ("pi3", "pi4", "pi5", "zero2w")
KITS = ("buttons", "rfid")
DRIVERS = ("ssd1306", "sh1106")
PIXEL_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
LANGUAGES = ("auto", *CATALOG_LANGUAGES)
"""What the OLED speaks: a language with a catalog, or auto (the locale's, else English)."""
COLOUR_MODES = COLOUR_MODE_NAMES
VERBOSITIES = SPEECH_VERBOSITIES
"""How much the companion says aloud (``haleakala.speech``): off, events or everything."""
SPEECH_ENGINES = ENGINES
SPEECH_OUTPUTS = OUTPUTS
"""How the lights and screens are coloured (``haleakala.palette``): default, or cvd, designed
for colour-vision deficiency."""

MAX_FILE_BYTES = 64 * 1024
"""A config is a few kilobytes (the commented example is 6 KiB); anything bigger is the wrong
file (``--config /dev/zero``, a log, an image) and is refused before it is read whole."""
MAX_DEPTH = 8
"""Tables and arrays nest at most 4 deep in a real config ([leds.zones] lists); deeper input is
refused with this limit instead of exhausting the parser's recursion."""
MAX_TEXT = 1024
"""Longest string value (a path or a port); PATH_MAX is 4096, a real one is far shorter."""
NAME_MAX = 255
"""Longest file name (one path component) Linux file systems store, in bytes."""
MAX_HOLD_MS = 5000
"""A long press nobody can make would leave undo unreachable."""
BAUD_RANGE = (300, 4_000_000)
I2C_PORTS = range(0, 256)
UID_BYTES = (4, 10)
"""Tag UIDs the Pico reports: ISO 15693 (8 bytes), NTAG (7), MIFARE (4 or 10)."""

HEADER_GPIOS = range(0, 28)
"""BCM GPIOs on the 40-pin header of every supported model."""
HAT_EEPROM_GPIOS = (0, 1)
I2C1_GPIOS = (2, 3)
SPI0_GPIOS = (7, 8, 9, 10, 11)
SPI_LED_GPIO = 10
PWM_LED_GPIO = 18


# --------------------------------------------------------------------------- the tree


@dataclass(frozen=True)
class PinsConfig:
    """BCM GPIO numbers of everything wired to the Pi."""

    encoder_a: int = 17
    encoder_b: int = 27
    encoder_push: int = 22
    back: int = 23
    beach0: int = 5
    beach1: int = 6
    beach2: int = 13
    beach3: int = 19
    beach4: int = 26
    beach5: int = 21
    led_data: int = 10

    def beach(self, index: int) -> int:
        return int(getattr(self, f"beach{index}"))


@dataclass(frozen=True)
class LedsConfig:
    pixels_per_ring: int = DEFAULT_PIXELS_PER_SEGMENT
    ring_order: tuple[int, ...] = tuple(range(SEGMENTS))
    pixel_order: str = "GRB"
    brightness: float = 0.3
    current_limit_ma: float = 1800
    supply_ma: float = 5000
    """Rating of the one 5 V supply that feeds the rings, the Pi, the OLED and the RFID Pico."""
    zones: dict[str, tuple[int, ...]] = field(default_factory=lambda: dict(DEFAULT_ZONES))


@dataclass(frozen=True)
class DisplayConfig:
    driver: str = "ssd1306"
    i2c_port: int = 1
    address: int = 0x3C
    rotate: int = 0


@dataclass(frozen=True)
class RfidConfig:
    port: str = "auto"
    baud: int = 115200


@dataclass(frozen=True)
class InputsConfig:
    bounce_ms: float = 20
    hold_ms: float = 800


@dataclass(frozen=True)
class WebConfig:
    """The live view (``haleakala.web``): off unless asked; loopback unless a host is given."""

    enabled: bool = False
    host: str = "127.0.0.1"
    """Where to listen: 127.0.0.1 (this machine only), 0.0.0.0 (every phone on the LAN)."""
    port: int = 8080


@dataclass(frozen=True)
class RemoteConfig:
    """Remote play (``haleakala.remote``, the remote extra): off unless asked. With
    ``enabled`` the daemon plays one seat of the game at the table ``broker`` names
    (as ``haleakala run --remote BROKER --seat SEAT [--host]``); the installer then adds the
    unit drop-in that lets it reach the network (systemd/remote.conf). Secrets live in files
    of their own (the daemon's user reads them), never in this file or on a command line."""

    enabled: bool = False
    broker: str = ""
    """mqtt://HOST:PORT/TABLE (mqtts:// for TLS), without a password."""
    seat: str = ""
    """The colour played at this kit."""
    host: bool = False
    """This kit deals, checks and journals (one kit per table)."""
    password_file: str = ""
    """A file holding the broker password (or $HALEAKALA_MQTT_PASSWORD)."""
    table_key_file: str = ""
    """A file holding the table key (a host without one makes it and keeps it)."""
    ca_file: str = ""
    """The CA certificate of an mqtts:// broker with a private CA."""


@dataclass(frozen=True)
class SpeechConfig:
    """What the companion says aloud (``haleakala.speech``) and where it is heard."""

    verbosity: str = DEFAULT_VERBOSITY
    """off, events (the game as it happens) or everything (and every line the OLED shows)."""
    volume: int = DEFAULT_VOLUME
    """Per cent; the menu cycles 20, 40, 60, 80, 100."""
    engine: str = "espeak-ng"
    """espeak-ng (Debian, every language) or piper (neural voices from ``piper_voices``)."""
    output: str = "auto"
    """auto (the kit: ALSA; the simulator window: the desktop), alsa, desktop, files, none."""
    device: str = "auto"
    """The ALSA device: auto (the I2S amplifier's or USB speaker's card, else default), or a
    name ``aplay -L`` lists, e.g. plughw:CARD=MAX98357A,DEV=0."""
    speaker: str = "usb"
    """usb (a USB speaker: any kit) or i2s (the MAX98357A amplifier on GPIO 18, 19 and 21:
    ``haleakala install`` adds its overlay; the buttons kit must move beach3 and beach5)."""
    directory: str = ""
    """Where ``output = "files"`` writes one WAV per utterance (and spoken.jsonl)."""
    rate: int = 160
    """Words per minute."""
    piper_voices: str = ""
    """A folder of Piper models (``de_DE-thorsten-medium.onnx`` with its .onnx.json)."""


@dataclass(frozen=True)
class Config:
    hardware: str = "auto"
    model: str = "pi4"
    kit: str = "buttons"
    state_dir: Path = Path("/var/lib/haleakala")
    variant: str = "base"
    language: str = "auto"
    palette: str = "default"
    pins: PinsConfig = field(default_factory=PinsConfig)
    leds: LedsConfig = field(default_factory=LedsConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    rfid: RfidConfig = field(default_factory=RfidConfig)
    inputs: InputsConfig = field(default_factory=InputsConfig)
    web: WebConfig = field(default_factory=WebConfig)
    remote: RemoteConfig = field(default_factory=RemoteConfig)
    speech: SpeechConfig = field(default_factory=SpeechConfig)
    tags: dict[str, Disc] = field(default_factory=dict)
    """Normalised tag UID (upper-case hex, no separators) -> the disc it is glued into."""
    source: Path | None = field(default=None, compare=False)
    """The file this came from; None when built-in defaults were used."""
    note: str = field(default="", compare=False)
    """Why the defaults were used (no file at the default path), for the daemon's log."""

    def buttons_in_use(self) -> dict[str, int]:
        """Button name -> GPIO for the buttons this kit has."""
        used = {"select": self.pins.encoder_push, "back": self.pins.back}
        if self.kit == "buttons":
            used.update({f"beach{b}": self.pins.beach(b) for b in range(BEACHES)})
        return used

    def pins_in_use(self) -> dict[str, int]:
        """Config key -> GPIO for every pin this kit wires (beach pins only on the buttons kit)."""
        names = ["encoder_a", "encoder_b", "encoder_push", "back"]
        if self.kit == "buttons":
            names += [f"beach{b}" for b in range(BEACHES)]
        names.append("led_data")
        return {f"pins.{n}": getattr(self.pins, n) for n in names}


# --------------------------------------------------------------------------- problems


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a config: where (key path), what, and how to fix it."""

    key: str
    message: str
    hint: str
    severity: str = "error"  # or "warning": worth knowing, does not stop the daemon

    def __str__(self) -> str:
        prefix = "warning: " if self.severity == "warning" else ""
        where = f"{self.key}: " if self.key else ""
        # One problem, one line, whatever a parser's message or a quoted key held.
        return " ".join(f"{prefix}{where}{self.message}; {self.hint}".splitlines())


class ConfigError(Exception):
    """A config with mistakes: every problem, one line each."""

    def __init__(self, problems: list[Problem], source: Path | None = None) -> None:
        self.problems = problems
        self.source = source
        where = str(source) if source else "config"
        counted = english_ngettext("problem", "problems", len(problems))
        lines = [f"{where}: {len(problems)} {counted}:", *(f"  {p}" for p in problems)]
        super().__init__("\n".join(lines))


# The file's top level: the scalar keys, the section tables and their classes, [tags].
_SECTIONS: dict[str, type] = {
    "pins": PinsConfig,
    "leds": LedsConfig,
    "display": DisplayConfig,
    "rfid": RfidConfig,
    "inputs": InputsConfig,
    "web": WebConfig,
    "remote": RemoteConfig,
    "speech": SpeechConfig,
}
_TOP_SCALARS = ("hardware", "model", "kit", "state_dir", "variant", "language", "palette")
_TOP_KEYS = (*_TOP_SCALARS, *_SECTIONS, "tags")


def errors(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if p.severity == "error"]
