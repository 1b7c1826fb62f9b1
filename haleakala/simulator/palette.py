"""The simulator window's look: colours, card labels, the help text, cached fonts and the
small drawing helpers of the kit simulator's window.

Apart from ``window`` so that the window's behaviour (layers, input) reads without a page of
constants (the fonts every window shares are the toolkit's, ``toolkit.window``).
"""

from __future__ import annotations

import functools

import pygame

from haleakala import i18n, palette
from haleakala.core.text import Param
from haleakala.i18n import N_
from haleakala.toolkit.window import Fonts, blit_centred  # noqa: F401  (the windows' helpers)

BANDS = ("sea", "water", "beach", "grassland", "forest", "mountain", "crater")
BAND_COLOURS: dict[str, tuple[int, int, int]] = {}
"""The zones' backgrounds in the colour mode in use (``recolour`` fills it in place)."""
BACKGROUND = palette.screen("ui.background", palette.DEFAULT)
PANEL = palette.screen("ui.panel", palette.DEFAULT)
PANEL_EDGE = (70, 74, 86)
TEXT = palette.screen("ui.text", palette.DEFAULT)
DIM = palette.screen("ui.dim", palette.DEFAULT)
PLAYER: dict[str, tuple[int, int, int]] = {}
"""Each player's colour in the colour mode in use (``recolour`` fills it in place)."""
PLAYER_INDEX = {"red": 0, "yellow": 1}
PLAYER_TEXT: dict[str, tuple[int, int, int]] = {}
"""Text that reads on each player's colour."""
PLAYER_LETTER = {"red": "R", "yellow": "Y"}
"""Each player's initial, drawn on its shamans and statues: colour is never the only sign."""
OLED_ON = (190, 228, 255)
ROLE: dict[str, tuple[int, int, int]] = {}
"""Other roles' screen colours in the mode in use (lava, legal, warning)."""


def recolour() -> str:
    """Fill the tables above for the colour mode in use, in place (every module that imported
    them sees the change); returns the mode. The window calls it when the mode changes."""
    mode = palette.current()
    BAND_COLOURS.update({band: palette.screen(f"zone.{band}") for band in BANDS})
    for colour in PLAYER_INDEX:
        PLAYER[colour] = palette.screen(f"player.{colour}")
        PLAYER_TEXT[colour] = palette.ink_on(PLAYER[colour])
    ROLE.update({role: palette.screen(role) for role in ("lava", "legal", "warning")})
    return mode


recolour()
CARD_KIND = {
    "action": (170, 110, 60),
    "shell": (222, 150, 170),
    "beach": (70, 140, 200),
    "lava": (200, 60, 30),
}
SHORT_CARD = {
    "statue": N_("Build a\nStatue"),
    "priestess": N_("Lava\nPriestess"),
    "shell": N_("Shell"),
    "fish1b": N_("Fish 1\n+ butterfly"),
    "fish2": N_("Fish 2\nbaskets"),
    "fish2b": N_("Fish 2\n+ butterfly"),
    "whitepearl": N_("White\nPearl"),
    "blackpearl": N_("Black\nPearl"),
    "nautilus": N_("Nautilus\n2 butterflies"),
    "lava": N_("Lava"),
}
"""A card's face in two short lines that fit its 88-px frame ("Fish 1": one basket). One message for
both lines: ``face_lines`` splits it after translation."""


def face_lines(face: str) -> tuple[str, str]:
    """A card face's two lines in the language in use (``face``: a catalog message, or a
    card's printed name, itself a catalog entry)."""
    top, _, bottom = i18n._(face).partition("\n")
    return top, bottom


TRAY_CARD = {
    "fish1b": N_("Fish (1 basket, butterfly)"),
    "fish2": N_("Fish (2 baskets)"),
    "fish2b": N_("Fish (2 baskets, butterfly)"),
    "whitepearl": N_("White Pearl"),
    "blackpearl": N_("Black Pearl"),
    "nautilus": N_("Nautilus"),
}
"""A kept card as a player names it in a tray."""

PHASE_HINT = {
    "turn": N_("place a disc, take one back, or sail"),
    "shaman": N_("move your shaman, or leave it"),
    "card": N_("take a card beside the boat"),
    "priestess": N_("Priestess: move a lava disc, or none"),
    "shell": N_("shell: buy a scoring card, or keep it"),
    "prescore": N_("before scoring: buy a card, or pass"),
}
"""What the player to move does now, for the whose-turn banner."""


HOLD_HINT_S = 0.8
GLOW = 0.45
"""How much of an LED's colour lights up its zone of the board (additive)."""

HELP = (
    (N_("Encoder"), ""),
    (N_("Left / Right, mouse wheel"), N_("turn the encoder (or click turn - / turn +)")),
    (N_("Enter / Space, click the knob"), N_("select (push the encoder)")),
    (N_("Backspace, click BACK"), N_("back; hold it 0.8 s to undo")),
    (N_("Buttons kit"), ""),
    (N_("1-6, click a beach"), N_("press the button of beach 0-5")),
    (N_("RFID kit"), ""),
    (N_("drag a disc"), N_("from a tray onto a beach, or back to its tray")),
    (N_("Tab, then 1-6 or 0"), N_("take a free disc in hand; lay it on beach 0-5 (0: back)")),
    (N_("Table"), ""),
    (N_("m / f"), N_("misplace mode (pieces end up wrong) / fix the table")),
    (N_("b / a / c"), N_("one bot move / autoplay on-off / coach's hint")),
    (N_("v"), N_("the next colour mode (colour-blind safe colours)")),
    (N_("p"), N_("power cut: the companion restarts and resumes the game")),
    (N_("s, F12 / F11"), N_("save a screenshot / full screen")),
    (N_("h, ? / q"), N_("this page (Esc closes it) / quit")),
)

LEGEND = (
    (N_("Lights under the board"), ""),
    (N_("water in a colour"), N_("that player decides now; the boat is white")),
    (N_("beach in a colour"), N_("that player may place or take back a disc there")),
    (N_("bright beach"), N_("the beach being chosen (buttons kit)")),
    (N_("flashing white"), N_("a beach that does not match the game: fix it")),
    (N_("grey / white land"), N_("where the shaman may go; blinking: the cursor")),
    (N_("orange blink"), N_("a statue the next eruption will burn")),
    (N_("card lights"), N_("statue white, Priestess magenta, shell cyan, fish blue")),
    (N_("Marks drawn by the simulator"), ""),
    (N_("pulsing outline"), N_("a legal target for the player to move")),
    (N_("dashed ring"), N_("the last move, in the mover's colour")),
    (N_("=7 in the water"), N_("that player's sum on the beach (sums must differ)")),
    (N_("white ring, !"), N_("a piece that is not where the game has it")),
    (N_("the log"), N_("every move in words; refusals and notes in grey")),
)
LEGEND_CVD = {
    N_("orange blink"): N_("violet blink"),
    N_("grey / white land"): N_("sky-blue land"),
    N_("statue white, Priestess magenta, shell cyan, fish blue"): N_(
        "statue white, Priestess pink, shell green, fish blue"
    ),
}
"""The legend's colour words that the colour-blind mode changes (its LEDs' colours)."""


def legend() -> tuple[tuple[str, str], ...]:
    """The legend in the colour mode in use."""
    if palette.current() == palette.DEFAULT:
        return LEGEND
    return tuple((LEGEND_CVD.get(k, k), LEGEND_CVD.get(v, v)) for k, v in LEGEND)


RULES = (
    (
        N_("Your turn"),
        N_(
            "Do one thing: put a number disc on a beach, take one of yours back, or (with all "
            "five discs out) sail the boat one beach on. On a beach, red's and yellow's sums must"
            " never be equal (unless both are 0). A disc on the beach beside the boat sails it "
            "that many beaches on; otherwise move your shaman up to 2 steps over the land, at "
            "most one of them uphill."
        ),
    ),
    (
        N_("Cards"),
        N_(
            "Where the boat stops, the higher sum on that beach chooses one of the two cards, the"
            " other player gets the other one; then the discs there go home. Statue: built where "
            "your shaman stands. Priestess: move a lava disc. Shell: buy a scoring card (1 or 2 "
            "shells) or keep it. Fish, pearls, nautilus: points."
        ),
    ),
    (
        N_("Scoring"),
        N_(
            "Scoring 1 comes when the 2-tree pile runs out; scoring 2 when the 3-tree pile is "
            "gone and the boat stops beside no cards. First the volcano erupts: lava burns the "
            "statues above it. Statues score 1/2/3 (grass/forest/mountain); most fish baskets 3; "
            "pearls 1, 2 or both 4; nautilus 3; plus what your scoring cards give."
        ),
    ),
)
"""The rules on one page, in the words players use: a heading and its paragraph, wrapped
to the column when drawn (so that a translation wraps too)."""


def led_display_colour(pixel: tuple[int, int, int], brightness: float) -> tuple[int, int, int]:
    """The colour a lit LED looks to the eye: the sent value with the kit's brightness taken
    back out (a NeoPixel at 30 % still reads as a bright dot under the board), and its hue as
    the palette's LED model says it looks (a WS2812's green outshines its red: 255/150/0 is
    yellow), its level kept (a dim statue stays dim)."""
    scale = 1.0 / max(brightness, 0.05)
    sent = tuple(min(255, round(c * scale)) for c in pixel)
    look = palette.led_appearance(sent)  # type: ignore[arg-type]
    level = max(sent) / 255.0
    return tuple(round(c * level) for c in look)  # type: ignore[return-value]


def fit(font: pygame.font.Font, text: Param, width: int) -> str:
    """``text`` in the language in use, cut with an ellipsis so it renders within ``width``
    pixels (whole if it fits). Rendered before it is cut; the cache is keyed by the rendered
    text, so a change of language is never stale."""
    return _fit(font, i18n.render(text), width)


@functools.lru_cache(maxsize=4096)
def _fit(font: pygame.font.Font, text: str, width: int) -> str:
    """Cached: the panel asks the same lines again at every redraw."""
    if font.size(text)[0] <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        mid = (low + high + 1) // 2
        if font.size(text[:mid].rstrip() + "…")[0] <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"


def wrap_pixels(font: pygame.font.Font, text: Param, width: int) -> list[str]:
    """``text`` in lines that each render within ``width`` pixels, broken between words."""
    text = i18n.render(text)
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and font.size(trial)[0] > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return [*lines, line] if line else lines


def wrap(text: Param, width: int) -> list[str]:
    text = i18n.render(text)
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = "  " + word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines
