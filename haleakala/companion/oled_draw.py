"""The OLED's screens as values and their painting: ``Screen`` (a title, text lines, card
faces, the row under the cursor), ``problems`` (what would read badly: a missing glyph, a
line too wide, a title below its bar) and ``draw`` (a screen → a 128×64 one-bit image).

Layout: an inverted title bar (9 px) with the list position at its right ("3/8▼"), and
five text lines of 11 px (a blank row, then the font's 10-px cell: accents never touch the
line above); the row under the cursor is inverted. Or two card faces side by side (icon,
slot, name, printed values), the one under the cursor inverted.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from haleakala.games.haleakala import Game
from haleakala.i18n import ngettext

if TYPE_CHECKING:
    from PIL.Image import Image

from .oled_font import (
    BODY_LINES,
    BODY_TOP,
    CARD_NAME_ROWS,
    COLUMNS,
    GAP,
    GLYPH_H,
    HEIGHT,
    LINE_H,
    TEXT_W,
    TEXT_X,
    TITLE_H,
    TITLE_X,
    WIDTH,
    clip,
    fits,
    line_mask,
    missing_glyphs,
    text_width,
    title_room,
    wrap,
)


@dataclass(frozen=True)
class CardFace:
    """What is printed on a palm-tree card, as the OLED draws it."""

    slot: str
    code: str
    name: str
    kind: str
    values: str
    baskets: int = 0
    butterflies: int = 0

    @classmethod
    def of(cls, game: Game, slot: int) -> CardFace:
        card = game.deck.cards[game.slots[slot]]
        values = []
        if card.baskets:
            values.append(
                ngettext("{n} basket", "{n} baskets", card.baskets).format(n=card.baskets)
            )
        if card.butterflies:
            values.append(
                ngettext("{n} butterfly", "{n} butterflies", card.butterflies).format(
                    n=card.butterflies
                )
            )
        short = card.name.split(":")[0].split(",")[0]
        return cls(
            game.board.slot_name(slot),
            card.code,
            short,
            card.kind,
            ", ".join(values),
            card.baskets,
            card.butterflies,
        )


@dataclass(frozen=True)
class Screen:
    title: str
    lines: tuple[str, ...] = ()
    cards: tuple[CardFace, ...] = ()
    selected: int | None = None  # the card under the cursor
    alert: bool = False
    offset: int = 0  # first text line on the panel (long texts and lists scroll)
    cursor: int | None = None  # the line under the cursor (a list: drawn inverted)
    count: int | None = None  # a list's options are the first ``count`` lines (then notes)
    picture: bytes | None = None
    """A ready 128×64 one-bit image (``Image.tobytes()``) shown as it is, instead of the
    title and lines (the live view's QR code); the text is then what the log and tests read."""

    def text(self) -> list[str]:
        """The screen's content as plain text lines (title first); ``>`` marks the cursor."""
        out = [self.title]
        for i, card in enumerate(self.cards):
            mark = ">" if i == self.selected else " "
            values = f" ({card.values})" if card.values else ""
            out.append(f"{mark}{card.slot} {card.name}{values}")
        for i, line in enumerate(self.lines):
            line = line.replace("\t", "  ")
            if self.cursor is not None:
                line = (">" if i == self.cursor else " ") + line
            out.append(line)
        return out

    def position(self) -> str:
        """The list position for the title bar's right end: "3/8▼" (▼ more below, ▲ more
        above); on a long text, the arrow alone. A title too long to sit beside "10/10▲"
        keeps the cursor's number and the arrow ("10▲"): the count is the first thing a
        player can spare, the title (whose beach, which decision) is not."""
        if self.cards:
            if self.selected is None or len(self.cards) < 2:
                return ""
            return f"{self.selected + 1}/{len(self.cards)}"
        below = self.offset + BODY_LINES < len(self.lines)
        arrow = "▼" if below else ("▲" if self.offset > 0 else "")
        options = len(self.lines) if self.count is None else self.count
        if self.cursor is not None and options > 1:
            full = f"{self.cursor + 1}/{options}{arrow}"
            if fits(self.title, title_room(full)):
                return full
            return f"{self.cursor + 1}{arrow}"
        return arrow


def _table_problems(row: str) -> list[str]:
    first, *cells = row.split("\t")
    left_end = TEXT_X + text_width(first)
    out = []
    for right, cell in zip(COLUMNS, cells, strict=False):
        start = right - text_width(cell)
        if start - left_end < GAP - 2:
            out.append(f"table row {row!r}: {cell!r} runs into the cell before it")
        left_end = right
    if len(cells) > len(COLUMNS):
        out.append(f"table row {row!r}: more cells than columns")
    return out


def problems(s: Screen) -> list[str]:
    """What would read badly on the panel: a character the font lacks, a title that does
    not fit beside its list position, a line wider than the panel, a card face whose name
    and values need more than its rows, a picture that is not the panel's size. Empty when
    the screen shows as designed."""
    out = []
    if s.picture is not None and len(s.picture) != WIDTH * HEIGHT // 8:
        out.append(
            f"picture of {len(s.picture)} bytes: a {WIDTH}×{HEIGHT} one-bit image is "
            f"{WIDTH * HEIGHT // 8}"
        )
    texts = [s.title, *s.lines]
    for card in s.cards:
        texts += [card.slot, card.name, card.values]
    for text in texts:
        missing = missing_glyphs(text)
        if missing:
            out.append(f"{text!r}: the font has no glyph for {missing!r}")
    position = s.position()
    if not fits(s.title, title_room(position)):
        out.append(
            f"title {s.title!r} ({text_width(s.title)} px) does not fit beside "
            f"{position!r} ({title_room(position)} px)"
        )
    for text in (s.title, position):
        ink = line_mask(text)[0].getbbox() if text else None
        if ink is not None and ink[3] > TITLE_H:
            out.append(f"title {text!r} reaches below the title bar (use capitals)")
    for line in s.lines:
        if "\t" in line:
            out += _table_problems(line)
        elif not fits(line):
            out.append(f"line {line!r} ({text_width(line)} px) is wider than {TEXT_W} px")
    box_w = _card_width() - 6
    for card in s.cards:
        long = [w for w in card.name.split() if not fits(w, box_w)]
        rows = len(wrap(card.name, box_w))
        if long or rows > CARD_NAME_ROWS:
            out.append(f"card {card.name!r} needs {rows} rows of {CARD_NAME_ROWS}")
        if _values_width(card) > box_w:
            out.append(f"card {card.name!r}: its values are wider than the card")
        if not fits(card.slot, _card_width() - 24):
            out.append(f"card slot {card.slot!r} does not fit beside the icon")
    return out


def _icon(draw, kind: str, code: str, x: int, y: int, ink: int = 1) -> None:
    """A 16×16 pictogram of a card: drawn from primitives, no bitmap files to ship."""
    paper = 1 - ink
    if code == "statue":  # a moai: head, brow, long nose, body
        draw.rectangle((x + 4, y + 1, x + 11, y + 15), outline=ink)
        draw.line((x + 4, y + 5, x + 11, y + 5), fill=ink)
        draw.line((x + 8, y + 5, x + 8, y + 10), fill=ink)
    elif code == "priestess":  # a figure under a flame
        draw.ellipse((x + 6, y + 5, x + 10, y + 9), outline=ink)
        draw.polygon([(x + 4, y + 15), (x + 8, y + 9), (x + 12, y + 15)], outline=ink)
        draw.polygon([(x + 8, y), (x + 10, y + 4), (x + 6, y + 4)], fill=ink)
    elif kind == "shell":  # a scallop fan
        draw.pieslice((x, y + 2, x + 15, y + 17), 180, 360, outline=ink)
        for dx in (4, 8, 12):
            draw.line((x + 8, y + 10, x + dx - 1, y + 3), fill=ink)
    elif code.endswith("pearl"):
        filled = "black" in code
        draw.ellipse((x + 2, y + 2, x + 13, y + 13), outline=ink, fill=ink if filled else paper)
    elif code == "nautilus":  # a spiral
        draw.arc((x + 1, y + 1, x + 15, y + 15), 0, 300, fill=ink)
        draw.arc((x + 4, y + 4, x + 12, y + 12), 90, 360, fill=ink)
        draw.arc((x + 7, y + 7, x + 10, y + 10), 0, 360, fill=ink)
    elif kind == "lava":  # a volcano
        draw.polygon([(x, y + 15), (x + 6, y + 5), (x + 10, y + 5), (x + 15, y + 15)], outline=ink)
        draw.line((x + 8, y + 4, x + 8, y), fill=ink)
    else:  # a fish
        draw.ellipse((x + 1, y + 4, x + 11, y + 12), outline=ink)
        draw.polygon([(x + 11, y + 8), (x + 15, y + 4), (x + 15, y + 12)], outline=ink)
        draw.point((x + 4, y + 7), fill=ink)


VALUE_ICON_W = 8


def _values_width(card: CardFace) -> int:
    counts = [n for n in (card.baskets, card.butterflies) if n]
    return sum(text_width(str(n)) + 1 + VALUE_ICON_W for n in counts) + 4 * (len(counts) - 1)


def _values(draw, canvas, card: CardFace, x: int, y: int, ink: int) -> None:
    """The card's printed values as on the real card: a count and a basket, a count and a
    butterfly (in words they need two rows the card does not have)."""
    for count, icon in ((card.baskets, "basket"), (card.butterflies, "butterfly")):
        if not count:
            continue
        _paste_line(canvas, str(count), x, y, ink)
        x += text_width(str(count)) + 1
        top = y + 1
        if icon == "basket":  # a handle over a tapering basket
            draw.arc((x + 1, top, x + 6, top + 5), 180, 360, fill=ink)
            draw.polygon(
                [(x, top + 3), (x + 7, top + 3), (x + 6, top + 7), (x + 1, top + 7)], fill=ink
            )
        else:  # two wings either side of a body
            draw.polygon([(x + 3, top + 4), (x, top + 1), (x, top + 7)], fill=ink)
            draw.polygon([(x + 4, top + 4), (x + 7, top + 1), (x + 7, top + 7)], fill=ink)
            draw.line((x + 3, top + 2, x + 3, top + 6), fill=ink)
            draw.line((x + 4, top + 2, x + 4, top + 6), fill=ink)
        x += VALUE_ICON_W + 4


def _paste_line(canvas, text: str, x: int, y: int, fill: int = 1) -> None:
    if "\t" in text:  # a table row: first cell at x, the others right-aligned in columns
        first, *cells = text.split("\t")
        _paste_line(canvas, first, x, y, fill)
        for right, cell in zip(COLUMNS, cells, strict=False):
            _paste_line(canvas, cell, right - text_width(cell), y, fill)
        return
    if text:
        mask, left = line_mask(text)
        canvas.paste(fill, (max(0, x + left), y), mask)


def _card_width() -> int:
    return (WIDTH - 2) // 2


@lru_cache(maxsize=256)
def draw(s: Screen) -> Image:
    """Paint a screen on a 128×64 mode "1" canvas (cached: callers must not modify it)."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    if s.picture is not None:
        return PILImage.frombytes("1", (WIDTH, HEIGHT), s.picture)
    canvas = PILImage.new("1", (WIDTH, HEIGHT), 0)
    pen = ImageDraw.Draw(canvas)
    pen.rectangle((0, 0, WIDTH - 1, TITLE_H - 1), fill=1)
    position = s.position()
    _paste_line(canvas, clip(s.title, title_room(position)), TITLE_X, 0, fill=0)
    if position:
        _paste_line(canvas, position, WIDTH - TITLE_X - text_width(position), 0, fill=0)
    if s.alert:  # a refusal: the bar's corners cut (with the "!" it reads as a warning)
        for x, y in ((0, 0), (WIDTH - 1, 0), (0, TITLE_H - 1), (WIDTH - 1, TITLE_H - 1)):
            pen.point((x, y), fill=0)
    if s.cards:
        box_w = _card_width()
        for i, card in enumerate(s.cards):
            x0 = i * (box_w + 2)
            box = (x0, TITLE_H + 1, x0 + box_w - 1, HEIGHT - 1)
            chosen = i == s.selected
            ink = 0 if chosen else 1
            pen.rectangle(box, outline=1, fill=1 if chosen else 0)
            _icon(pen, card.kind, card.code, x0 + 3, TITLE_H + 3, ink)
            _paste_line(canvas, clip(card.slot, box_w - 24), x0 + 22, TITLE_H + 6, ink)
            name = wrap(card.name, box_w - 6)
            for row, text in enumerate(name[:CARD_NAME_ROWS]):
                _paste_line(canvas, text, x0 + 3, TITLE_H + 20 + row * LINE_H, ink)
            _values(pen, canvas, card, x0 + 3, TITLE_H + 20 + CARD_NAME_ROWS * LINE_H, ink)
        return canvas
    shown = s.lines[s.offset : s.offset + BODY_LINES]
    for row, text in enumerate(shown):
        y = BODY_TOP + row * LINE_H + 1  # under the line's blank row
        if s.cursor is not None and s.offset + row == s.cursor:
            pen.rectangle((0, y, WIDTH - 1, y + GLYPH_H - 1), fill=1)
            _paste_line(canvas, clip(text), TEXT_X, y, fill=0)
        else:
            _paste_line(canvas, clip(text) if "\t" not in text else text, TEXT_X, y)
    return canvas
