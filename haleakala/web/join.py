"""Joining the live view from the OLED: the URL as a QR code beside it, on one 128×64 image.

On a 0.96-inch OLED a pixel is about 0.17 mm, so a LAN URL's code (version 3, 29 modules at
two pixels each) is about 10 mm square: a phone held 10-15 cm from the panel should read it,
at arm's length it will not (worked out and decoded in software from the image, not yet tried
with a real phone on a real panel). So the code takes the screen's full height and the URL
(with the token) goes beside it in text, broken wherever it must, for typing it in by hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from haleakala.core.text import Text
from haleakala.i18n import N_

if TYPE_CHECKING:
    from haleakala.web.server import LiveView

WIDTH, HEIGHT = 128, 64
MENU_LABEL = Text(N_("live view"))
"""The OLED menu entry that shows ``join_image`` (see ``menu_option``)."""


def qr_matrix(url: str) -> list[list[bool]]:
    """The QR code's modules (True: dark), quiet zone excluded; error correction L keeps the
    code small enough (version <= 4 for a 60-character URL) to fit 64 pixels at 2 px."""
    import segno

    code = segno.make_qr(url, error="l", boost_error=False)
    return [[bool(m) for m in row] for row in code.matrix]


def join_image(url: str) -> Image.Image:
    """A 128×64 one-bit image: the QR code of ``url`` on the left, the URL on the right."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    matrix = qr_matrix(url)
    size = len(matrix)
    scale = max(1, (HEIGHT - 4) // size)
    side = size * scale + 4  # two-pixel light border: the quiet zone the camera needs
    top = (HEIGHT - side) // 2
    draw.rectangle((0, top, side - 1, top + side - 1), fill=1)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = 2 + x * scale, top + 2 + y * scale
                draw.rectangle((x0, y0, x0 + scale - 1, y0 + scale - 1), fill=0)
    text = url.removeprefix("http://")
    left = side + 3
    per_line = max(1, (WIDTH - left) // 6)
    lines = [text[i : i + per_line] for i in range(0, len(text), per_line)][:6]
    for i, line in enumerate(lines):
        draw.text((left, 1 + i * 10), line, fill=1)
    return image


def menu_option(live: LiveView | None) -> tuple[Text, str] | None:
    """(label, action) of the OLED menu's live-view entry, None when no server runs: the
    menu lists it only when ``haleakala run --web`` (or ``[web]``) started one."""
    if live is None:
        return None
    return MENU_LABEL, "live"
