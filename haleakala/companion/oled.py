"""Game state → OLED screen (128×64, one bit per pixel), drawn with Pillow.

Two steps, both pure: ``screen(game, ui, now)`` decides *what* to say as a small value
(``Screen``: a title, text lines, card faces, the row under the cursor), and
``draw(screen)`` paints it. The controller compares screens before drawing, and images
before sending, because a full frame costs ≥ 23 ms on the I2C bus. ``Screen.text()`` is
the same content as plain lines, for the simulator, the tests and the log.

The font is X.Org's public-domain "Fixed" 6×10 bitmap (``fonts/6x10.bdf``, loaded by
FreeType at its native size): 21 columns, crisp at arm's length, and every letter English,
German and French need, with typographic quotes, dashes and the ▲▼ arrows.
``missing_glyphs`` and ``fits`` say whether a text can be shown, so a test can check every
screen (and every translation) before a player sees a box or a cut word.

Layout: an inverted title bar (9 px) with the list position at its right ("3/8▼"), and
five text lines of 11 px (a blank row, then the font's 10-px cell: accents never touch the
line above); the row under the cursor is inverted. Or two card faces side by side (icon,
slot, name, printed values), the one under the cursor inverted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from haleakala import i18n
from haleakala.hal.base import DISPLAY_HEIGHT, DISPLAY_WIDTH
from haleakala.i18n import N_, ngettext
from haleakala.i18n.lookup import tr
from haleakala.i18n.terms import card_face
from haleakala.rules import PLAYERS, Game
from haleakala.rules.decision import Boat, Take, decode, encode
from haleakala.rules.game import CHOOSE_CARD, OVER, TURN

from . import ui as U

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

SCORE_ROWS = (
    ("statues", N_("statues")),
    ("fish", N_("fish")),
    ("pearls", N_("pearls")),
    ("nautilus", N_("nautilus")),
    ("butterflies", N_("butterflies")),
    ("majority", N_("majority")),
    ("segment", N_("segment")),
    ("forest", N_("forest")),
    ("mountain", N_("mountain")),
    ("shells", N_("shells")),
)
SCORE_PAGE_ROWS = BODY_LINES - 2
"""Point rows per score page: the header and the total are on every page."""


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
        above); on a long text, the arrow alone."""
        if self.cards:
            if self.selected is None or len(self.cards) < 2:
                return ""
            return f"{self.selected + 1}/{len(self.cards)}"
        below = self.offset + BODY_LINES < len(self.lines)
        arrow = "▼" if below else ("▲" if self.offset > 0 else "")
        options = len(self.lines) if self.count is None else self.count
        if self.cursor is not None and options > 1:
            return f"{self.cursor + 1}/{options}{arrow}"
        return arrow


# --------------------------------------------------------------------------- fonts


@lru_cache(maxsize=1)
def _font():
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
    return round(_measure().textlength(text, font=_font()))


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
    and values need more than its rows. Empty when the screen shows as designed."""
    out = []
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
        ink = _line_mask(text)[0].getbbox() if text else None
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


@lru_cache(maxsize=512)
def _line_mask(text: str) -> tuple[Image, int]:
    """One rendered line as a 1-bit mask, and where the mask starts relative to the text's
    origin (≤ 0: glyphs that reach left of their origin keep their first column)."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    left, _, right, _ = _measure().textbbox((0, 0), text, font=_font())
    left = min(0, left)
    width = max(1, min(WIDTH + 2, max(text_width(text), right) - left + 1))
    mask = PILImage.new("1", (width, GLYPH_H), 0)
    draw = ImageDraw.Draw(mask)
    draw.fontmode = "1"
    draw.text((-left, 0), text, font=_font(), fill=1)
    return mask, left


# --------------------------------------------------------------------------- what to say


def _colour_name(p: int) -> str:
    return PLAYERS[p].upper()


def link_words(detail: str) -> str:
    """What an RFID link problem means to a player, and what to do. The driver's detail
    (ports, temp paths, errno text) is for the log, not for the table."""
    d = detail.lower()
    reader = re.search(r"beach (\d+) reader", d)
    if reader:
        return N_("Reader under beach {beach} not working – check its cable").format(
            beach=reader.group(1)
        )
    if "lost" in d or "unplug" in d:
        return N_("RFID reader unplugged – check the USB cable")
    if "no rfid pico found" in d or "looking for" in d:
        return N_("RFID reader not found – check the USB cable")
    if "cannot open" in d:
        return N_("RFID reader busy – unplug it, plug it back in")
    if "sends nothing" in d or "quiet" in d or "waiting" in d:
        return N_("RFID reader silent – unplug it, plug it back in")
    return N_("RFID reader not working – check the USB cable")


def _window(cursor: int, count: int, rows: int = BODY_LINES) -> int:
    """The first list row shown: the cursor stays in view, near the middle."""
    return min(max(0, cursor - rows // 2), max(0, count - rows))


def _list_screen(title: str, chooser: U.Chooser, rows: int = BODY_LINES) -> Screen:
    labels = tuple(_spoken(o.label) for o in chooser.options)
    if not labels:
        return Screen(title)
    offset = _window(chooser.cursor, len(labels), rows)
    return Screen(title, labels, cursor=chooser.cursor, offset=offset, count=len(labels))


def _fit(lines: list[str]) -> tuple[str, ...]:
    """Every line wrapped to the panel's width (the panel shows five; the encoder scrolls)."""
    wrapped: list[str] = []
    for line in lines:
        wrapped.extend(wrap(_spoken(line)))
    return tuple(wrapped)


def _spoken(text: str) -> str:
    """English text of the companion's state in the language in use (``i18n.lookup``):
    each table cell on its own, a leading mark ("! ", "• ") kept."""
    if i18n.current() == i18n.DEFAULT:
        return text
    for mark in ("! ", "• ", "> "):
        if text.startswith(mark):
            return mark + _spoken(text[len(mark) :])
    return "\t".join(tr(cell) for cell in text.split("\t"))


def _spoken_screen(s: Screen) -> Screen:
    """The screen's title and cards in the language in use (its lines were translated where
    they were made: before wrapping in ``_fit``, a list's labels, a score page's cells)."""
    if i18n.current() == i18n.DEFAULT:
        return s
    cards = tuple(replace(card, name=card_face(card.name)) for card in s.cards)
    return replace(s, title=_spoken(s.title), cards=cards)


def _scrolled(s: Screen, scroll: int) -> Screen:
    if s.cursor is not None:  # a list scrolls with its cursor
        return s
    offset = max(0, min(scroll, len(s.lines) - BODY_LINES))
    return s if offset == s.offset else replace(s, offset=offset)


def _scores_screen(game: Game, chooser: U.Chooser) -> Screen:
    """A scoring's breakdown, a few rows a page; the header and the total on every page."""
    record = chooser.subject
    red, yellow = record["players"]["red"], record["players"]["yellow"]
    rows = []
    for key, label in SCORE_ROWS:
        a, b = red["points"].get(key, 0), yellow["points"].get(key, 0)
        if a or b:
            rows.append(f"{label}\t{a}\t{b}")
    pages = max(1, (len(rows) + SCORE_PAGE_ROWS - 1) // SCORE_PAGE_ROWS)
    page = chooser.cursor % pages
    chunk = rows[page * SCORE_PAGE_ROWS : (page + 1) * SCORE_PAGE_ROWS]
    total = N_("total") + f"\t{red['total']}\t{yellow['total']}"
    body = ("\tred\tyellow", *chunk, *[""] * (SCORE_PAGE_ROWS - len(chunk)), total)
    title = chooser.title + (f" {page + 1}/{pages}" if pages > 1 else "")
    return Screen(title, tuple(_spoken(row) for row in body))


def _turn_lines(game: Game, ui: U.UiState) -> list[str]:
    legal = game.legal_actions()
    lines = []
    if ui.kit == "rfid":
        lines.append(N_("Put a disc on a lit beach or take one back"))
    else:
        lines.append(N_("Press a lit beach's button"))
    if encode(Boat()) in legal:
        lines.append(N_("or select: move the boat"))
    return lines


def _proposal_screen(game: Game, chooser: U.Chooser, ui: U.UiState) -> Screen:
    """Solo: the companion's decision in words (what to do about it), or that it thinks;
    then what the last decision asked the players to move."""
    if not chooser.options:
        lines = [
            N_("{who} is thinking…").format(who=_colour_name(game.decider)),
            N_("(back: menu)"),
        ]
    else:
        option = chooser.options[0]
        lines = [option.detail or option.label]
        if ui.bot_at is not None:
            lines.append(N_("goes on by itself (select: now)"))
    lines += [f"• {line}" for line in ui.instructions]
    return Screen(chooser.title, _fit(lines))


def screen(game: Game, ui: U.UiState, now: float) -> Screen:
    """What the OLED says at this moment."""
    return _scrolled(_spoken_screen(_screen(game, ui, now)), ui.scroll)


def _screen(game: Game, ui: U.UiState, now: float) -> Screen:
    if ui.bye:
        return bye_screen()
    chooser = ui.chooser
    who = _colour_name(game.decider)
    if chooser is not None and chooser.kind in (U.MENU, U.CONFIRM_NEW):
        return _list_screen(chooser.title, chooser)
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
        title = chooser.title if len(faces) > 1 else N_("{who}: ONLY CARD").format(who=who)
        return Screen(title, cards=faces, selected=chooser.cursor)
    if chooser is not None and chooser.kind == U.PROPOSAL:
        return _proposal_screen(game, chooser, ui)
    if chooser is not None and chooser.kind in (U.DECISION, U.BEACH, U.BOAT):
        if ui.auto_at is not None:  # one choice: say it goes on by itself
            s = _list_screen(chooser.title, chooser, BODY_LINES - 1)
            return replace(s, lines=(*s.lines, _spoken(N_("only choice – goes on"))))
        return _list_screen(chooser.title, chooser)
    if game.phase == OVER:
        result = game.result()
        assert result is not None
        red, yellow = result.scores
        lines = [
            N_("red {red}, yellow {yellow}").format(red=red, yellow=yellow),
            N_("{colour} wins").format(colour=result.winner),
        ]
        if result.tiebreak:
            lines.append(N_("(tie broken by {tiebreak})").format(tiebreak=result.tiebreak))
        lines.append(N_("select: scores"))
        lines.append(N_("back: menu"))
        return Screen(N_("GAME OVER"), _fit(lines))
    title = N_("{who} ROUND {round}").format(who=who, round=game.round)
    lines = []
    if not ui.link_ok:  # nothing the players do counts until the reader is back
        lines.append(link_words(ui.link_detail))
    if ui.solo is not None and PLAYERS[game.decider] == ui.solo:
        lines.append(N_("The companion plays"))
    if ui.instructions:  # what to move on the board comes first: it is what players miss
        lines += [f"• {line}" for line in ui.instructions]
    if game.phase == TURN:
        lines += _turn_lines(game, ui)
    lines += list(ui.notes)
    return Screen(title, _fit(lines))


# --------------------------------------------------------------------------- drawing


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
        mask, left = _line_mask(text)
        canvas.paste(fill, (max(0, x + left), y), mask)


def _card_width() -> int:
    return (WIDTH - 2) // 2


@lru_cache(maxsize=256)
def draw(s: Screen) -> Image:
    """Paint a screen on a 128×64 mode "1" canvas (cached: callers must not modify it)."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

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


def bye_screen() -> Screen:
    return Screen("HALEAKALA", ("", "", "        " + N_("bye")))


def bye_image() -> Image:
    return draw(bye_screen())
