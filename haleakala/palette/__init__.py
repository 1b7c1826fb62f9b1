"""Colours by role: what every surface of the companion paints, in each colour mode.

A surface never names a colour ("red", ``(255, 0, 0)``); it names a role ("the red player",
"lava", "a legal target", "a warning") and asks the palette for the colour of that role in the
mode in use. One table per mode holds each role's screen colour (the simulator window, the live
view, the terminal) and its LED colour (what the WS2812s under the board are sent), so that a
mode is one place to change and one place to check (``tests/palette``).

Modes:
- ``default``: the look the companion always had (a red, a yellow, an orange lava). Chosen for
  normal colour vision and checked under it; under simulated colour-vision deficiency its red
  player and its lava run together, which is why the second mode exists.
- ``cvd``: designed for colour-vision deficiency, after Okabe and Ito's palette (2008): the red
  player is vermilion, the yellow player yellow, lava violet, legal targets sky blue. These four
  stay apart by CIEDE2000 ≥ 20 under normal vision and simulated protanopia, deuteranopia
  (Machado 2009) and tritanopia (Brettel 1997) — checked by ``tests/palette``.

Colour is never the only sign: every role the game depends on is also said another way (a
letter or shape in the window and the live view, a blink or a place on the LEDs, a word on the
OLED); ``SIGNS`` lists them and the README says what was checked.

One mode is in use at a time, like the language (``i18n``): the companion has one set of lights
and one window per process, so a module-level choice is the whole state. The rules never import
this package: colour is the business of the layers that show things.

LEDs are not screens. A WS2812's channels are linear in light (PWM), its green is far brighter
than its red and blue, and in a dark room half the drive looks much brighter than half. An LED
colour is therefore written here as the colour it should *look* (an sRGB appearance) and turned
into a drive value by ``to_led``: a gamma of 2.8 (Adafruit's NeoPixel gamma table; perceived half
brightness ≈ 36/255) and a per-channel correction (FastLED's ``TypicalLEDStrip`` 255/176/240).
``led_appearance`` is the inverse the simulator and the checks use. The default mode keeps the
drive values the kit always sent, so its appearance is computed from them the other way round.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

Rgb = tuple[int, int, int]

MODES: tuple[str, ...] = ("default", "cvd")
"""The colour modes, the default first (the order the menus cycle through)."""
DEFAULT = "default"


def N_(message: str) -> str:
    """Marks a name for the message extractor; shown through ``i18n`` by whoever shows it."""
    return message


NAMES: dict[str, str] = {"default": N_("standard"), "cvd": N_("colour-blind")}
"""Each mode as a player reads it (menus, the window, the live view)."""

GAMMA = 2.8
"""LED gamma: drive = 255 · (appearance/255) ** GAMMA (Adafruit's NeoPixel gamma table)."""
LED_GAIN: tuple[float, float, float] = (1.0, 176 / 255, 240 / 255)
"""Per-channel correction of a WS2812 (FastLED's TypicalLEDStrip, 0xFFB0F0): its green and,
less, its blue outshine its red at the same drive."""


@dataclass(frozen=True)
class Role:
    """One thing the companion shows in colour, and where it is shown."""

    name: str
    meaning: str
    group: str
    """``game`` (carries the game: players, lava, legal target), ``sign`` (boat, warning,
    card kinds), ``zone`` (the island's backgrounds) or ``ui`` (the window's frame and text)."""
    screen: bool = True
    led: bool = False
    game: str = "haleakala"
    """The game whose surfaces show the role: game roles are checked against the roles of
    the same game (one game's window never shows another game's roles beside its own)."""


ROLES: tuple[Role, ...] = (
    Role("player.red", "the red player's pieces, turn and sums", "game", led=True),
    Role("player.yellow", "the yellow player's pieces, turn and sums", "game", led=True),
    Role("lava", "lava on a crater; a statue the next eruption burns", "game", led=True),
    Role("legal", "a legal target for the player to move", "game", led=True),
    Role("warning", "a piece or beach that does not match the game", "sign", led=True),
    Role("boat", "the boat on the water", "sign", led=True),
    Role("eruption", "the eruption's flash", "sign", screen=False, led=True),
    Role("card.statue", "a Build-a-Statue card in its slot", "sign", screen=False, led=True),
    Role("card.priestess", "a Lava-Priestess card in its slot", "sign", screen=False, led=True),
    Role("card.shell", "a shell card in its slot", "sign", screen=False, led=True),
    Role("card.beach", "a beach (fish, pearl, nautilus) card in its slot", "sign", False, True),
    Role("zone.sea", "the sea around the island", "zone"),
    Role("zone.water", "a segment's water", "zone"),
    Role("zone.beach", "a beach", "zone"),
    Role("zone.grassland", "grassland", "zone"),
    Role("zone.forest", "forest", "zone"),
    Role("zone.mountain", "mountain", "zone"),
    Role("zone.crater", "a crater", "zone"),
    Role("ui.background", "behind the island", "ui"),
    Role("ui.panel", "the side panel", "ui"),
    Role("ui.text", "text", "ui"),
    Role("ui.dim", "secondary text", "ui"),
)
ROLE = {r.name: r for r in ROLES}

GAME_THRESHOLD = 20.0
"""Least CIEDE2000 between two game roles (players, lava, legal target) under every vision a
mode is designed for. ΔE00 ≈ 2.3 is a just-noticeable difference side by side in a lab; the
board is read at a glance, across a table, from small glowing dots and thin outlines: 20 is a
difference of kind, not of shade (Okabe–Ito's best four colours reach 20.7)."""
SIGN_THRESHOLD = 10.0
"""Least CIEDE2000 between a sign (boat, warning, card kinds) and anything it can be seen
with. Lower than the game's because each sign also has a place of its own (the boat on the
water, card lights in the slots) or a word on the OLED; 10 still reads as two colours at a
glance (Okabe–Ito's best five colours reach 11.8)."""

DESIGNED_FOR: dict[str, tuple[str, ...]] = {
    "default": ("normal",),
    "cvd": ("normal", "protanopia", "deuteranopia", "tritanopia"),
}
"""The visions each mode is designed (and checked) for; the default mode's numbers under the
simulated deficiencies are reported, not required."""

PLACES: dict[str, dict[str, tuple[str, ...]]] = {
    "led": {
        "water": ("player.red", "player.yellow", "boat"),
        "beach": ("player.red", "player.yellow", "warning"),
        "land": ("player.red", "player.yellow", "legal", "lava", "eruption"),
        "crater": ("player.red", "player.yellow", "lava", "eruption"),
        "slots": ("card.statue", "card.priestess", "card.shell", "card.beach"),
    },
    "screen": {
        "water": ("player.red", "player.yellow", "boat", "zone.water"),
        "beach": ("player.red", "player.yellow", "legal", "warning", "zone.beach"),
        "grassland": ("player.red", "player.yellow", "legal", "warning", "zone.grassland"),
        "forest": ("player.red", "player.yellow", "legal", "warning", "zone.forest"),
        "mountain": ("player.red", "player.yellow", "legal", "warning", "zone.mountain"),
        "crater": ("lava", "zone.crater"),
    },
}
"""Where on each surface roles are seen together: two roles that share a place could be taken
for one another there. (Two roles in different places, such as the white boat on the water and
a white warning on a beach, are told apart by where they are.)"""


def game_roles(game: str) -> list[Role]:
    """The roles that carry ``game`` (its players and what its rules depend on), checked
    among themselves at ``GAME_THRESHOLD``."""
    return [r for r in ROLES if r.group == "game" and r.game == game]


def checked_pairs(surface: str) -> list[tuple[str, str, float]]:
    """Every pair of roles that can be seen at the same time on ``surface`` ("screen" or
    "led"), with the least CIEDE2000 it must keep: the game roles among themselves everywhere
    (``GAME_THRESHOLD``), any other two roles sharing a place ``SIGN_THRESHOLD``."""
    pairs: dict[tuple[str, str], float] = {}
    for name in GAME_NAMES:
        game = [r.name for r in game_roles(name) if getattr(r, surface)]
        for i, a in enumerate(game):
            for b in game[i + 1 :]:
                pairs[a, b] = GAME_THRESHOLD
    for roles in PLACES[surface].values():
        for i, a in enumerate(roles):
            for b in roles[i + 1 :]:
                key = (a, b) if (a, b) in pairs or (b, a) not in pairs else (b, a)
                pairs.setdefault(key, SIGN_THRESHOLD)
    return [(a, b, t) for (a, b), t in pairs.items()]


_SCREEN: dict[str, dict[str, Rgb]] = {
    "default": {
        "player.red": (214, 48, 40),
        "player.yellow": (238, 196, 30),
        "lava": (255, 120, 0),
        "legal": (120, 220, 255),
        "warning": (255, 255, 255),
        "boat": (120, 72, 36),
        "zone.sea": (24, 64, 104),
        "zone.water": (40, 104, 150),
        "zone.beach": (222, 200, 148),
        "zone.grassland": (118, 168, 78),
        "zone.forest": (48, 112, 60),
        "zone.mountain": (122, 112, 104),
        "zone.crater": (64, 44, 40),
        "ui.background": (14, 30, 52),
        "ui.panel": (26, 28, 34),
        "ui.text": (226, 228, 232),
        "ui.dim": (140, 146, 158),
    },
    "cvd": {
        "player.red": (213, 94, 0),  # Okabe–Ito vermilion
        "player.yellow": (240, 228, 66),  # Okabe–Ito yellow
        "lava": (136, 17, 221),  # a violet: apart from vermilion and yellow under every vision
        "legal": (86, 180, 233),  # Okabe–Ito sky blue
        "warning": (255, 255, 255),
        "boat": (120, 72, 36),
        "zone.sea": (24, 64, 104),
        "zone.water": (40, 104, 150),
        "zone.beach": (50, 44, 38),  # black sand: the pale yellow discs stand out by lightness
        "zone.grassland": (0, 158, 115),  # Okabe–Ito bluish green
        "zone.forest": (0, 100, 80),
        "zone.mountain": (122, 112, 104),
        "zone.crater": (30, 24, 22),  # darker: the violet lava keeps its contrast (tritanopia)
        "ui.background": (14, 30, 52),
        "ui.panel": (26, 28, 34),
        "ui.text": (226, 228, 232),
        "ui.dim": (140, 146, 158),
    },
}
"""Screen colours (sRGB) by mode and role."""

_LED_DRIVE_DEFAULT: dict[str, Rgb] = {
    "player.red": (255, 0, 0),
    "player.yellow": (255, 150, 0),
    "lava": (255, 50, 0),
    "legal": (90, 90, 90),
    "warning": (255, 255, 255),
    "boat": (255, 255, 255),
    "eruption": (255, 80, 0),
    "card.statue": (200, 200, 200),
    "card.priestess": (200, 0, 200),
    "card.shell": (0, 200, 200),
    "card.beach": (0, 60, 255),
}
"""The default mode's LED drive values: what the kit always sent (scenarios name these)."""

_LED_LOOK_CVD: dict[str, Rgb] = {
    "player.red": (255, 0, 0),  # an LED's own red: vermilion's lighter orange runs into yellow
    "player.yellow": (240, 228, 66),
    "lava": (136, 17, 221),
    "legal": (86, 180, 233),
    "warning": (255, 255, 255),
    "boat": (255, 255, 255),
    "eruption": (255, 255, 255),  # the eruption flashes white over the burnt spaces
    "card.statue": (255, 255, 255),
    "card.priestess": (204, 121, 167),  # Okabe–Ito reddish purple
    "card.shell": (0, 158, 115),  # Okabe–Ito bluish green
    "card.beach": (0, 114, 178),  # Okabe–Ito blue
}
"""The cvd mode's LEDs as they should look (sRGB appearance); ``to_led`` makes drive values."""


def to_led(look: Rgb) -> Rgb:
    """The WS2812 drive value that looks like ``look`` (sRGB): gamma, then per-channel
    correction, then scaled so that the brightest channel is 255 (scenes dim it themselves,
    and the HAL applies the kit's brightness and current limit)."""
    linear = [(c / 255.0) ** GAMMA * g for c, g in zip(look, LED_GAIN, strict=True)]
    top = max(linear)
    if top <= 0:
        return (0, 0, 0)
    r, g, b = (round(255 * v / top) for v in linear)
    return (r, g, b)


def led_appearance(drive: Rgb) -> Rgb:
    """What an LED sent ``drive`` looks like, as an sRGB colour (``to_led`` undone; the
    brightest channel shown full, as a lit dot under a diffuser reads)."""
    linear = [(c / 255.0) / g for c, g in zip(drive, LED_GAIN, strict=True)]
    top = max(linear)
    if top <= 0:
        return (0, 0, 0)
    r, g, b = (round(255 * (v / top) ** (1 / GAMMA)) for v in linear)
    return (r, g, b)


_LED: dict[str, dict[str, Rgb]] = {
    "default": dict(_LED_DRIVE_DEFAULT),
    "cvd": {role: to_led(look) for role, look in _LED_LOOK_CVD.items()},
}

_mode = DEFAULT


class UnknownMode(ValueError):
    """A colour mode the companion does not have, named with the ones it has."""

    def __init__(self, mode: object) -> None:
        self.mode = mode
        super().__init__(f"unknown colour mode {mode!r}: choose one of {', '.join(MODES)}")


def check(mode: str) -> str:
    """``mode`` if it is one (case and spaces forgiven), else ``UnknownMode``."""
    key = str(mode).strip().casefold()
    if key not in MODES:
        raise UnknownMode(mode)
    return key


def use(mode: str) -> str:
    """Make ``mode`` the one in use; returns it."""
    global _mode
    _mode = check(mode)
    return _mode


def current() -> str:
    return _mode


def next_mode(mode: str | None = None) -> str:
    """The mode after ``mode`` (default: the one in use), as the menus cycle."""
    mode = _mode if mode is None else mode
    return MODES[(MODES.index(mode) + 1) % len(MODES)]


def screen(role: str, mode: str | None = None) -> Rgb:
    """The screen colour of ``role`` in ``mode`` (default: the mode in use)."""
    return _SCREEN[mode or _mode][role]


def led(role: str, mode: str | None = None) -> Rgb:
    """The LED drive value of ``role`` in ``mode`` (default: the mode in use)."""
    return _LED[mode or _mode][role]


def ink_on(rgb: Rgb) -> Rgb:
    """Dark or light text that reads on ``rgb`` (by its relative luminance, WCAG's
    threshold between black and white text)."""

    def linear(c: int) -> float:
        v = c / 255.0
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return (30, 24, 0) if luminance > 0.179 else (255, 255, 255)


def hex_colour(rgb: Rgb) -> str:
    return f"#{rgb[0]:02x}{rgb[1]:02x}{rgb[2]:02x}"


def entries() -> list[dict]:
    """Every mode's roles: ``mode``, ``role``, ``screen`` and ``led`` (RGB lists; None where a
    role is not shown on that surface), plus the LED's appearance and the role's meaning."""
    out = []
    for mode in MODES:
        for role in ROLES:
            drive = _LED[mode].get(role.name) if role.led else None
            shown = _SCREEN[mode].get(role.name) if role.screen else None
            out.append(
                {
                    "mode": mode,
                    "role": role.name,
                    "screen": list(shown) if shown else None,
                    "led": list(drive) if drive else None,
                    "led_looks": list(led_appearance(drive)) if drive else None,
                    "group": role.group,
                    "game": role.game,
                    "meaning": role.meaning,
                }
            )
    return out


CSS_NAMES: dict[str, str] = {
    "player.red": "--red",
    "player.yellow": "--yellow",
    "lava": "--lava",
    "legal": "--legal",
    "warning": "--warning",
    "zone.sea": "--sea",
    "zone.water": "--water",
    "zone.beach": "--beach",
    "zone.grassland": "--grassland",
    "zone.forest": "--forest",
    "zone.mountain": "--mountain",
    "zone.crater": "--crater",
}
"""Each role the live view paints and its CSS custom property (a game adds its own)."""


def css(selector_of: dict[str, str] | None = None) -> str:
    """The live view's colours as CSS custom properties, one rule per mode
    (``:root`` for the default, ``:root[data-palette="cvd"]`` for the others)."""
    rules = []
    for mode in MODES:
        selector = ":root" if mode == DEFAULT else f':root[data-palette="{mode}"]'
        body = " ".join(
            f"{var}: {hex_colour(screen(role, mode))};" for role, var in CSS_NAMES.items()
        )
        body += f" --red-ink: {hex_colour(ink_on(screen('player.red', mode)))};"
        body += f" --yellow-ink: {hex_colour(ink_on(screen('player.yellow', mode)))};"
        rules.append(f"{selector} {{ {body} }}")
    return "\n".join(rules) + "\n"


SIGNS: dict[str, dict[str, str]] = {
    "player.red": {
        "led": "its shaman lit full and its statues dim, on their own spaces; the water lit "
        "dim says whose decision it is",
        "screen": "an R on its shamans and statues; its discs in its own row of each beach; "
        "the window's banner and the live view's status name the colour in words",
        "oled": "RED in the title line",
    },
    "player.yellow": {
        "led": "as red, on its own pieces' spaces",
        "screen": "a Y on its shamans and statues; its own row of discs; the colour named",
        "oled": "YELLOW in the title line",
    },
    "lava": {
        "led": "only craters hold lava, brighter with each disc; a statue the next eruption "
        "burns blinks slowly (0.5 s)",
        "screen": "round discs on the craters, nowhere else",
        "oled": "the log and the scoring pages name the eruption and what it burns",
    },
    "legal": {
        "led": "the candidates lit, the one under the cursor blinking fast (0.25 s)",
        "screen": "a pulsing outline round each target (window; the live view shows none)",
        "oled": "the chooser lists the legal choices in words",
    },
    "warning": {
        "led": "the beach that disagrees flashes fast, on and off",
        "screen": "a ring with an exclamation mark by the piece (window)",
        "oled": "a sentence saying what to put right",
    },
}
"""What each game role and the warning say without colour, surface by surface (the README's
table; ``tests/palette`` checks each role has one)."""


GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
"""Where each game keeps its own colours, ``<game>/data/palette.toml`` (the default game's are
the tables above): read as data, so that the palette still imports no layer of the program."""


def _add_game_palettes() -> tuple[Role, ...]:
    """Every game's own colours added to the tables above, so that each game is one more set
    of roles checked the same way; the roles of all games, the default game's first."""
    roles = list(ROLES)
    for path in sorted(GAMES_DIR.glob("*/data/palette.toml")):
        game = path.parent.parent.name
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for name, role in data["roles"].items():
            roles.append(Role(name, role["meaning"], role["group"], game=game))
            for mode in MODES:
                r, g, b = role[mode]
                _SCREEN[mode][name] = (r, g, b)
            if "css" in role:
                CSS_NAMES[name] = role["css"]
            if "sign" in role:
                SIGNS[name] = {"screen": role["sign"]}
        PLACES["screen"].update({k: tuple(v) for k, v in data.get("places", {}).items()})
    return tuple(roles)


ROLES = _add_game_palettes()
ROLE = {r.name: r for r in ROLES}
GAME_NAMES: tuple[str, ...] = tuple(dict.fromkeys(r.game for r in ROLES))
"""The games whose roles the palette holds (the registry's names)."""
