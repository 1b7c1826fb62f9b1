"""The simulator window's look: colours, card labels, the help text, cached fonts and the
small drawing helpers the Haleakala and Kahuna windows share.

Apart from ``window`` so that the window's behaviour (layers, input) reads without a page of
constants, and the Kahuna window borrows the fonts without the Haleakala window.
"""

from __future__ import annotations

import pygame

BAND_COLOURS = {
    "sea": (24, 64, 104),
    "water": (40, 104, 150),
    "beach": (222, 200, 148),
    "grassland": (118, 168, 78),
    "forest": (48, 112, 60),
    "mountain": (122, 112, 104),
    "crater": (64, 44, 40),
}
BACKGROUND = (14, 30, 52)
PANEL = (26, 28, 34)
PANEL_EDGE = (70, 74, 86)
TEXT = (226, 228, 232)
DIM = (140, 146, 158)
PLAYER = {"red": (214, 48, 40), "yellow": (238, 196, 30)}
PLAYER_INDEX = {"red": 0, "yellow": 1}
PLAYER_TEXT = {"red": (255, 255, 255), "yellow": (30, 24, 0)}
OLED_ON = (190, 228, 255)
LAVA = (255, 90, 20)
CARD_KIND = {
    "action": (170, 110, 60),
    "shell": (222, 150, 170),
    "beach": (70, 140, 200),
    "lava": (200, 60, 30),
}
SHORT_CARD = {
    "statue": ("Build a", "Statue"),
    "priestess": ("Lava", "Priestess"),
    "shell": ("Shell", ""),
    "fish1b": ("Fish 1", "+ butterfly"),
    "fish2": ("Fish 2", ""),
    "fish2b": ("Fish 2", "+ butterfly"),
    "whitepearl": ("White", "Pearl"),
    "blackpearl": ("Black", "Pearl"),
    "nautilus": ("Nautilus", ""),
    "lava": ("Lava", ""),
}
HOLD_HINT_S = 0.8
GLOW = 0.45
"""How much of an LED's colour lights up its zone of the board (additive)."""

HELP = (
    ("Encoder", ""),
    ("Left / Right arrow, mouse wheel", "turn the encoder (or click turn - / turn +)"),
    ("Enter / Space, click the knob", "select (encoder push)"),
    ("Backspace, click BACK", "back; hold it 0.8 s: undo"),
    ("Buttons kit", ""),
    ("1-6, click a beach", "press the button of beach 0-5"),
    ("RFID kit", ""),
    ("drag a disc", "from a tray onto a beach, between beaches, or back to its tray"),
    ("Tab, then 1-6 or 0", "take the next free disc in hand; lay it on beach 0-5, or 0: back"),
    ("Table", ""),
    ("m", "misplace mode: each instructed move puts one piece in the wrong place"),
    ("f", "fix the table: every piece where the companion expects it"),
    ("b / a", "one bot decision through the inputs / autoplay on-off"),
    ("c", "coach: the bot's decision for the player to move, and why"),
    ("p", "power cut: the daemon dies and restarts on the same state dir"),
    ("s, F12", "save a screenshot"),
    ("h, ?", "this help (Esc closes it)       q: quit"),
)


class Fonts:
    """Cached text rendering: a label costs a dict lookup after its first frame."""

    def __init__(self) -> None:
        pygame.font.init()
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._cache: dict[tuple, pygame.Surface] = {}

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        key = (size, bold)
        if key not in self._fonts:
            font = pygame.font.Font(None, size)
            font.set_bold(bold)
            self._fonts[key] = font
        return self._fonts[key]

    def render(
        self, text: str, size: int = 20, colour: tuple[int, int, int] = TEXT, bold: bool = False
    ) -> pygame.Surface:
        key = (text, size, colour, bold)
        surface = self._cache.get(key)
        if surface is None:
            if len(self._cache) > 2000:
                self._cache.clear()
            surface = self.font(size, bold).render(text, True, colour)
            self._cache[key] = surface
        return surface


def blit_centred(target: pygame.Surface, surface: pygame.Surface, centre: tuple[float, float]):
    rect = surface.get_rect(center=(round(centre[0]), round(centre[1])))
    target.blit(surface, rect)
    return rect


def led_display_colour(pixel: tuple[int, int, int], brightness: float) -> tuple[int, int, int]:
    """The colour a lit LED looks to the eye: the sent value with the kit's brightness taken
    back out (a NeoPixel at 30 % still reads as a bright dot under the board)."""
    scale = 1.0 / max(brightness, 0.05)
    return tuple(min(255, round(c * scale)) for c in pixel)  # type: ignore[return-value]


def wrap(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = "  " + word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines
