"""The OLED's lettering: the panel's text geometry, the 6×10 bitmap font, and measuring,
wrapping, clipping and rendering one line of text.

The font is X.Org's public-domain "Fixed" 6×10 bitmap (``fonts/6x10.bdf``, loaded by
FreeType at its native size): 21 columns, crisp at arm's length, and every letter English,
German and French need, with typographic quotes, dashes and the ▲▼ arrows.
``missing_glyphs`` and ``fits`` say whether a text can be shown, so a test can check every
screen (and every translation) before a player sees a box or a cut word.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from haleakala.hal.base import DISPLAY_HEIGHT, DISPLAY_WIDTH

if TYPE_CHECKING:
    from PIL.Image import Image

FONT_FILE = Path(__file__).with_name("fonts") / "6x10.bdf"
FONT_SIZE = 10
"""The font's only size (pixels): a bitmap font is crisp at its native size alone."""
COLUMNS = (84, 126)
"""Right edges of a table's number columns (a score breakdown: label, red, yellow); the
header words "red" and "yellow" stand one column apart."""
GLYPH_H = 10
"""The font's cell: 8 rows above the baseline (accents on the top one), 2 below."""
LINE_H = GLYPH_H + 1
"""A body line: one blank row, then the cell; accents never touch the descenders above."""
TITLE_H = 9
"""The title bar: the cell without its lowest row (titles are capitals; ``problems`` reports
a title whose letters reach below the bar). 9 + 5 × 11 = 64: five body lines fit."""
TITLE_X = 2
"""Where the title's text starts on the bar: no letter may touch the panel's edge."""
TEXT_X = 1
BODY_TOP = TITLE_H
BODY_LINES = 5
WIDTH = DISPLAY_WIDTH
HEIGHT = DISPLAY_HEIGHT
TEXT_W = WIDTH - 2 * TEXT_X
"""The width a body line may use (pixels)."""
GAP = 6
"""Space between the title and the list position, and between table cells (one column)."""
TITLE_GAP = 4
"""Between the title and the list position: with the glyphs' own blank column, a space."""
CARD_NAME_ROWS = 2
"""Text rows under a card's icon for its name; the printed values are pictograms below."""


@lru_cache(maxsize=1)
def font():
    """The 6×10 bitmap font. FreeType reads BDF directly; at its native size every glyph
    is the designer's pixels (no scaling, no anti-aliasing with ``fontmode = "1"``)."""
    from PIL import ImageFont

    try:
        return ImageFont.truetype(str(FONT_FILE), size=FONT_SIZE)
    except OSError as exc:
        raise OSError(
            f"cannot load the OLED font {FONT_FILE}: {exc}. Reinstall haleakala (the font "
            "ships with it) and check that Pillow was built with FreeType."
        ) from exc


@lru_cache(maxsize=1)
def _glyphs() -> frozenset[str]:
    """Every character the font draws, from the BDF's ENCODING lines (FreeType would draw
    the font's default glyph for the others without saying so)."""
    text = FONT_FILE.read_text(encoding="latin-1")
    return frozenset(chr(int(code)) for code in re.findall(r"^ENCODING (\d+)$", text, re.M))


def missing_glyphs(text: str) -> str:
    """The characters of ``text`` the font cannot draw, in order, each once ("" if none).
    Tabs and newlines are layout, not glyphs."""
    glyphs = _glyphs()
    out = ""
    for ch in text:
        if ch not in glyphs and ch not in "\t\n" and ch not in out:
            out += ch
    return out


@lru_cache(maxsize=1)
def _measure():
    """A drawing context like the one lines are drawn with."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    pen = ImageDraw.Draw(PILImage.new("1", (1, 1)))
    pen.fontmode = "1"
    return pen


@lru_cache(maxsize=4096)
def text_width(text: str) -> int:
    return round(_measure().textlength(text, font=font()))


def fits(text: str, width: int = TEXT_W) -> bool:
    """Whether ``text`` fits on one line of ``width`` pixels."""
    return text_width(text) <= width


def title_room(position: str = "") -> int:
    """The pixels a title may use beside a list position on the title bar."""
    room = WIDTH - 2 * TITLE_X
    return room - (text_width(position) + TITLE_GAP if position else 0)


@lru_cache(maxsize=1024)
def wrap(text: str, width: int = TEXT_W) -> tuple[str, ...]:
    """Greedy word wrap to ``width`` pixels; a word too long for a line is cut."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if text_width(trial) <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            while text_width(word) > width:  # hard cut
                cut = len(word)
                while cut > 1 and text_width(word[:cut]) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return tuple(lines)


def clip(text: str, width: int = TEXT_W) -> str:
    """Cut a line that does not fit, with an ellipsis (a last resort: ``problems`` reports
    every screen that needs it, so none is designed to)."""
    if text_width(text) <= width:
        return text
    while text and text_width(text + "…") > width:
        text = text[:-1]
    return text + "…"


@lru_cache(maxsize=512)
def line_mask(text: str) -> tuple[Image, int]:
    """One rendered line as a 1-bit mask, and where the mask starts relative to the text's
    origin (≤ 0: glyphs that reach left of their origin keep their first column)."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    left, _, right, _ = _measure().textbbox((0, 0), text, font=font())
    left = min(0, left)
    width = max(1, min(WIDTH + 2, max(text_width(text), right) - left + 1))
    mask = PILImage.new("1", (width, GLYPH_H), 0)
    draw = ImageDraw.Draw(mask)
    draw.fontmode = "1"
    draw.text((-left, 0), text, font=font(), fill=1)
    return mask, left
