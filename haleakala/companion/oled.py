"""Game state → OLED screen (128×64, one bit per pixel), drawn with Pillow.

Two steps, both pure: ``screen(game, ui, now)`` decides *what* to say as a small value
(``Screen``: a title, text lines, card faces), and ``draw(screen)`` paints it. The
controller compares screens before drawing, and images before sending, because a full
frame costs ≥ 23 ms on the I2C bus. ``Screen.text()`` is the same content as plain lines,
for the simulator, the tests and the log.

Layout: an inverted title bar (10 px) and five text lines of 10 px; or two card faces side
by side (icon, name, printed values, slot). The font is Pillow's built-in one at 9 px with
anti-aliasing off; rendered lines are cached, so a redraw costs a few pastes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from haleakala.hal.base import DISPLAY_HEIGHT, DISPLAY_WIDTH
from haleakala.rules import PLAYERS, Game
from haleakala.rules.decision import Boat, Take, decode, encode
from haleakala.rules.game import CHOOSE_CARD, OVER, TURN

from . import ui as U

if TYPE_CHECKING:
    from PIL.Image import Image

COLUMNS = (92, 126)
"""Right edges of a table's number columns (a score breakdown: label, red, yellow)."""
LINE_H = 10
TITLE_H = 10
TITLE_X = 3
"""Where the title's text starts on the bar: no letter may touch the panel's edge."""
BODY_LINES = 5
WIDTH = DISPLAY_WIDTH
HEIGHT = DISPLAY_HEIGHT

SCORE_ROWS = (
    ("statues", "statues"),
    ("fish", "fish"),
    ("pearls", "pearls"),
    ("nautilus", "nautilus"),
    ("butterflies", "butterflies"),
    ("majority", "majority"),
    ("segment", "segment"),
    ("forest", "forest card"),
    ("mountain", "mountain card"),
    ("shells", "shells"),
)


@dataclass(frozen=True)
class CardFace:
    """What is printed on a palm-tree card, as the OLED draws it."""

    slot: str
    code: str
    name: str
    kind: str
    values: str

    @classmethod
    def of(cls, game: Game, slot: int) -> CardFace:
        card = game.deck.cards[game.slots[slot]]
        values = []
        if card.baskets:
            values.append(f"{card.baskets} basket{'s' if card.baskets > 1 else ''}")
        if card.butterflies:
            values.append(f"{card.butterflies} butterfl{'ies' if card.butterflies > 1 else 'y'}")
        short = card.name.split(":")[0].split(",")[0]
        return cls(game.board.slot_name(slot), card.code, short, card.kind, ", ".join(values))


@dataclass(frozen=True)
class Screen:
    title: str
    lines: tuple[str, ...] = ()
    cards: tuple[CardFace, ...] = ()
    selected: int | None = None  # the card under the cursor
    alert: bool = False
    offset: int = 0  # first text line on the panel (long texts scroll)

    def text(self) -> list[str]:
        """The screen's content as plain text lines (title first)."""
        out = [self.title]
        for i, card in enumerate(self.cards):
            mark = ">" if i == self.selected else " "
            values = f" ({card.values})" if card.values else ""
            out.append(f"{mark}{card.slot} {card.name}{values}")
        out.extend(line.replace("\t", "  ") for line in self.lines)
        return out


# --------------------------------------------------------------------------- fonts


@lru_cache(maxsize=1)
def _font():
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=9)
    except (OSError, ImportError, TypeError, AttributeError):  # Pillow without FreeType
        return ImageFont.load_default()


@lru_cache(maxsize=1)
def _measure():
    """A drawing context like the one lines are drawn with: without anti-aliasing the
    font's advances differ from ``getlength``'s, so measure the way we draw."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    pen = ImageDraw.Draw(PILImage.new("1", (1, 1)))
    pen.fontmode = "1"
    return pen


@lru_cache(maxsize=4096)
def text_width(text: str) -> int:
    return math.ceil(_measure().textlength(text, font=_font()))


@lru_cache(maxsize=1024)
def wrap(text: str, width: int = WIDTH - 2) -> tuple[str, ...]:
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


@lru_cache(maxsize=512)
def _line_mask(text: str) -> tuple[Image, int]:
    """One rendered line as a 1-bit mask, and where the mask starts relative to the text's
    origin (≤ 0: glyphs like Y and x reach left of their origin; cutting the mask at the
    origin lost their first column). Cached: most lines come back often."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    left, _, right, _ = _measure().textbbox((0, 0), text, font=_font())
    left = min(0, left)
    width = max(1, min(WIDTH + 2, max(text_width(text), right) - left + 1))
    mask = PILImage.new("1", (width, LINE_H), 0)
    draw = ImageDraw.Draw(mask)
    draw.fontmode = "1"
    draw.text((-left, -1), text, font=_font(), fill=1)
    return mask, left


# --------------------------------------------------------------------------- what to say


def _colour_name(p: int) -> str:
    return PLAYERS[p].upper()


def _menu_lines(chooser: U.Chooser, rows: int = BODY_LINES) -> tuple[str, ...]:
    options = chooser.options
    if not options:
        return ()
    first = min(max(0, chooser.cursor - rows // 2), max(0, len(options) - rows))
    out = []
    for i in range(first, min(len(options), first + rows)):
        mark = ">" if i == chooser.cursor else " "
        out.append(clip(f"{mark}{options[i].label}"))
    return tuple(out)


def clip(text: str, width: int = WIDTH - 2) -> str:
    """Cut a line that does not fit, with an ellipsis."""
    if text_width(text) <= width:
        return text
    while text and text_width(text + "…") > width:
        text = text[:-1]
    return text + "…"


def _fit(lines: list[str]) -> tuple[str, ...]:
    """Every line wrapped to the panel's width (the panel shows five; the encoder scrolls)."""
    wrapped: list[str] = []
    for line in lines:
        wrapped.extend(wrap(line))
    return tuple(wrapped)


def _scrolled(s: Screen, scroll: int) -> Screen:
    offset = max(0, min(scroll, len(s.lines) - BODY_LINES))
    return s if offset == s.offset else replace(s, offset=offset)


def _scores_screen(game: Game, chooser: U.Chooser) -> Screen:
    record = chooser.subject
    red, yellow = record["players"]["red"], record["players"]["yellow"]
    rows = ["\tred\tyellow"]  # tab-separated columns, right-aligned at COLUMNS
    for key, label in SCORE_ROWS:
        a, b = red["points"].get(key, 0), yellow["points"].get(key, 0)
        if a or b:
            rows.append(f"{label}\t{a}\t{b}")
    rows.append(f"total\t{red['total']}\t{yellow['total']}")
    page = chooser.cursor
    per = BODY_LINES - 1
    body = rows[1:]
    pages = max(1, (len(body) + per - 1) // per)
    page %= pages
    chunk = body[page * per : page * per + per]
    title = chooser.title + (f" {page + 1}/{pages}" if pages > 1 else "")
    return Screen(title, (rows[0], *chunk))


def _turn_lines(game: Game, ui: U.UiState) -> list[str]:
    legal = game.legal_actions()
    lines = []
    if ui.kit == "rfid":
        lines.append("Put a disc on a lit beach or take one back")
    else:
        lines.append("Press a lit beach's button")
    if encode(Boat()) in legal:
        lines.append("or select: move the boat")
    return lines


def _proposal_screen(game: Game, chooser: U.Chooser, ui: U.UiState) -> Screen:
    """Solo: the companion's decision in words (what to do about it), or that it thinks;
    then what the last decision asked the players to move."""
    if not chooser.options:
        lines = [f"{_colour_name(game.decider)} is thinking...", "(back: menu)"]
    else:
        option = chooser.options[0]
        lines = [option.detail or option.label]
        if ui.bot_at is not None:
            lines.append("goes on by itself (select: now)")
    lines += [f"* {line}" for line in ui.instructions]
    return Screen(chooser.title, _fit(lines))


def screen(game: Game, ui: U.UiState, now: float) -> Screen:
    """What the OLED says at this moment."""
    return _scrolled(_screen(game, ui, now), ui.scroll)


def _screen(game: Game, ui: U.UiState, now: float) -> Screen:
    if ui.bye:
        return Screen("HALEAKALA", ("", "      bye"))
    chooser = ui.chooser
    who = _colour_name(game.decider)
    if chooser is not None and chooser.kind in (U.MENU, U.CONFIRM_NEW):
        return Screen(chooser.title, _menu_lines(chooser))
    scores = chooser is not None and chooser.kind == U.SCORES
    if ui.mismatch is not None and (ui.mismatch.refusal or not scores):
        # The beaches the game asked to clear flash on the LEDs; a score page comes first.
        m = ui.mismatch
        title = ("! " if m.refusal else "") + m.headline
        lines = [*m.fixes, m.reason] if m.reason else list(m.fixes)  # what to do, then why
        return Screen(title, _fit(lines), alert=m.refusal)
    if ui.message is not None and now < ui.message.until:
        msg = ui.message
        title = ("! " if msg.refusal else "") + msg.title
        return Screen(title, _fit([msg.text]), alert=msg.refusal)
    if scores:
        assert chooser is not None
        return _scores_screen(game, chooser)
    if chooser is not None and chooser.kind == U.DECISION and game.phase == CHOOSE_CARD:
        takes = (decode(o.value, game.board) for o in chooser.options)
        faces = tuple(CardFace.of(game, t.slot) for t in takes if isinstance(t, Take))
        title = f"{who}: TAKE A CARD" + (" (only one)" if len(faces) == 1 else "")
        return Screen(title, cards=faces, selected=chooser.cursor)
    if chooser is not None and chooser.kind == U.PROPOSAL:
        return _proposal_screen(game, chooser, ui)
    if chooser is not None and chooser.kind in (U.DECISION, U.BEACH, U.BOAT):
        lines = list(_menu_lines(chooser, BODY_LINES - (1 if ui.auto_at else 0)))
        if ui.auto_at is not None:
            lines.append("only choice - goes on")
        return Screen(chooser.title, tuple(lines))
    if game.phase == OVER:
        result = game.result()
        assert result is not None
        red, yellow = result.scores
        lines = [f"red {red}  yellow {yellow}", f"{result.winner} wins"]
        if result.tiebreak:
            lines.append(f"(tie broken by {result.tiebreak})")
        lines.append("select: scores, back: menu")
        return Screen("GAME OVER", _fit(lines))
    title = f"{who} R{game.round}"
    if ui.solo is not None and PLAYERS[game.decider] == ui.solo:
        title += " (companion)"
    if not ui.link_ok:
        title += " RFID!"
    lines = []
    if ui.instructions:  # what to move on the board comes first: it is what players miss
        lines += [f"* {line}" for line in ui.instructions]
    if game.phase == TURN:
        lines += _turn_lines(game, ui)
    if not ui.link_ok and ui.link_detail:
        lines.append(ui.link_detail)
    lines += list(ui.notes)
    return Screen(title, _fit(lines))


# --------------------------------------------------------------------------- drawing


def _icon(draw, kind: str, code: str, x: int, y: int) -> None:
    """A 16×16 pictogram of a card: drawn from primitives, no bitmap files to ship."""
    if code == "statue":  # a moai: head, brow, long nose, body
        draw.rectangle((x + 4, y + 1, x + 11, y + 15), outline=1)
        draw.line((x + 4, y + 5, x + 11, y + 5), fill=1)
        draw.line((x + 8, y + 5, x + 8, y + 10), fill=1)
    elif code == "priestess":  # a figure under a flame
        draw.ellipse((x + 6, y + 5, x + 10, y + 9), outline=1)
        draw.polygon([(x + 4, y + 15), (x + 8, y + 9), (x + 12, y + 15)], outline=1)
        draw.polygon([(x + 8, y), (x + 10, y + 4), (x + 6, y + 4)], fill=1)
    elif kind == "shell":  # a scallop fan
        draw.pieslice((x, y + 2, x + 15, y + 17), 180, 360, outline=1)
        for dx in (4, 8, 12):
            draw.line((x + 8, y + 10, x + dx - 1, y + 3), fill=1)
    elif code.endswith("pearl"):
        filled = "black" in code
        draw.ellipse((x + 2, y + 2, x + 13, y + 13), outline=1, fill=1 if filled else 0)
    elif code == "nautilus":  # a spiral
        draw.arc((x + 1, y + 1, x + 15, y + 15), 0, 300, fill=1)
        draw.arc((x + 4, y + 4, x + 12, y + 12), 90, 360, fill=1)
        draw.arc((x + 7, y + 7, x + 10, y + 10), 0, 360, fill=1)
    elif kind == "lava":  # a volcano
        draw.polygon([(x, y + 15), (x + 6, y + 5), (x + 10, y + 5), (x + 15, y + 15)], outline=1)
        draw.line((x + 8, y + 4, x + 8, y), fill=1)
    else:  # a fish
        draw.ellipse((x + 1, y + 4, x + 11, y + 12), outline=1)
        draw.polygon([(x + 11, y + 8), (x + 15, y + 4), (x + 15, y + 12)], outline=1)
        draw.point((x + 4, y + 7), fill=1)


def _paste_line(canvas, text: str, x: int, y: int, fill: int = 1) -> None:
    if "\t" in text:  # a table row: first cell at x, the others right-aligned in columns
        first, *cells = text.split("\t")
        _paste_line(canvas, first, x, y, fill)
        for right, cell in zip(COLUMNS, cells, strict=False):
            _paste_line(canvas, cell, right - text_width(cell), y, fill)
        return
    if text:
        mask, left = _line_mask(text)
        canvas.paste(fill, (max(0, x + left), y), mask)


@lru_cache(maxsize=256)
def draw(s: Screen) -> Image:
    """Paint a screen on a 128×64 mode "1" canvas (cached: callers must not modify it)."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    canvas = PILImage.new("1", (WIDTH, HEIGHT), 0)
    pen = ImageDraw.Draw(canvas)
    pen.rectangle((0, 0, WIDTH - 1, TITLE_H - 1), fill=1)
    notch = 6 if s.alert else 0
    title = clip(s.title, WIDTH - TITLE_X - 2 - notch)
    _paste_line(canvas, title, TITLE_X, 0, fill=0)
    if s.alert:  # notches on the bar: an alert reads at a glance
        pen.rectangle((WIDTH - 4, 2, WIDTH - 2, TITLE_H - 3), fill=0)
    if s.cards:
        box_w = (WIDTH - 2) // 2
        for i, card in enumerate(s.cards):
            x0 = i * (box_w + 2)
            box = (x0, TITLE_H + 1, x0 + box_w - 1, HEIGHT - 1)
            pen.rectangle(box, outline=1)
            if i == s.selected:
                pen.rectangle((box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1), outline=1)
            _icon(pen, card.kind, card.code, x0 + 3, TITLE_H + 4)
            _paste_line(canvas, card.slot, x0 + 22, TITLE_H + 4)
            name = wrap(card.name, box_w - 6)
            values = wrap(card.values, box_w - 6) if card.values else ()
            for row, text in enumerate((*name, *values)[:3]):
                _paste_line(canvas, text, x0 + 3, TITLE_H + 22 + row * LINE_H)
        return canvas
    shown = s.lines[s.offset : s.offset + BODY_LINES]
    for row, text in enumerate(shown):
        _paste_line(canvas, text, 1, TITLE_H + 2 + row * LINE_H)
    if s.offset > 0:  # more above: a notch at the top right
        pen.polygon(
            [(WIDTH - 5, TITLE_H + 5), (WIDTH - 1, TITLE_H + 5), (WIDTH - 3, TITLE_H + 2)], fill=1
        )
    if s.offset + BODY_LINES < len(s.lines):  # more below: turn the knob
        pen.polygon(
            [(WIDTH - 5, HEIGHT - 5), (WIDTH - 1, HEIGHT - 5), (WIDTH - 3, HEIGHT - 2)], fill=1
        )
    return canvas


def bye_image() -> Image:
    return draw(Screen("HALEAKALA", ("", "      bye")))
