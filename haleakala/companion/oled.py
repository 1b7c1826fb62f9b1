"""Game state → OLED screen (128×64, one bit per pixel): what to say.

Two steps, both pure: ``screen(game, ui, now)`` decides *what* to say as a small value
(``Screen``: a title, text lines, card faces, the row under the cursor), and
``draw(screen)`` (in ``oled_draw``) paints it. The controller compares screens before
drawing, and images before sending, because a full frame costs ≥ 23 ms on the I2C bus.
``Screen.text()`` is the same content as plain lines, for the simulator, the tests and the
log. The lettering (font, measuring, wrapping) is in ``oled_font``; this module re-exports
what its callers use of both, so they keep saying ``oled.draw`` and ``oled.problems``.

The controller's state holds words as values (``ui.Words``: ``core.text.Text``); this is
where they meet the panel's language (``i18n.render``), each one where the screen is made.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from haleakala import i18n
from haleakala.core.text import Term, Text, Upper
from haleakala.games.haleakala import PLAYERS, Game
from haleakala.games.haleakala.decision import Boat, Take, decode, encode
from haleakala.games.haleakala.game import CHOOSE_CARD, OVER, TURN
from haleakala.games.haleakala.scoring import Scoring
from haleakala.i18n import N_
from haleakala.i18n.terms import card_face

from . import ui as U
from .oled_draw import CardFace, Screen, draw, problems
from .oled_font import (
    BODY_LINES,
    BODY_TOP,
    COLUMNS,
    GAP,
    GLYPH_H,
    HEIGHT,
    LINE_H,
    TEXT_W,
    TITLE_H,
    WIDTH,
    fits,
    missing_glyphs,
    text_width,
    title_room,
    wrap,
)

if TYPE_CHECKING:
    from PIL.Image import Image


__all__ = [
    "BODY_LINES",
    "BODY_TOP",
    "COLUMNS",
    "GAP",
    "GLYPH_H",
    "HEIGHT",
    "LINE_H",
    "SCORE_ROWS",
    "TEXT_W",
    "TITLE_H",
    "WIDTH",
    "CardFace",
    "Screen",
    "bye_image",
    "bye_screen",
    "draw",
    "fits",
    "link_words",
    "missing_glyphs",
    "problems",
    "screen",
    "text_width",
    "title_room",
    "wrap",
]

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
SCORE_PAGE_ROWS = BODY_LINES - 3
"""Point rows per score page: the header, the scoring's sum and the game's total are on
every page."""


def _colour_name(p: int) -> Upper:
    return Upper(Term(PLAYERS[p]))


def link_words(detail: str) -> Text:
    """What an RFID link problem means to a player, and what to do. The driver's detail
    (ports, temp paths, errno text) is for the log, not for the table."""
    d = detail.lower()
    reader = re.search(r"beach (\d+) reader", d)
    if reader:
        return Text.of(
            N_("Reader under beach {beach} not working – check its cable"),
            beach=int(reader.group(1)),
        )
    if "lost" in d or "unplug" in d:
        return Text(N_("RFID reader unplugged – check the USB cable"))
    if "no rfid pico found" in d or "looking for" in d:
        return Text(N_("RFID reader not found – check the USB cable"))
    if "cannot open" in d:
        return Text(N_("RFID reader busy – unplug it, plug it back in"))
    if "sends nothing" in d or "quiet" in d or "waiting" in d:
        return Text(N_("RFID reader silent – unplug it, plug it back in"))
    return Text(N_("RFID reader not working – check the USB cable"))


def _window(cursor: int, count: int, rows: int = BODY_LINES) -> int:
    """The first list row shown: the cursor stays in view, near the middle."""
    return min(max(0, cursor - rows // 2), max(0, count - rows))


def _list_screen(title: U.Words, chooser: U.Chooser, rows: int = BODY_LINES) -> Screen:
    labels = tuple(_spoken(o.label) for o in chooser.options)
    if not labels:
        return Screen(_spoken(title))
    offset = _window(chooser.cursor, len(labels), rows)
    return Screen(_spoken(title), labels, cursor=chooser.cursor, offset=offset, count=len(labels))


def _fit(lines: list[U.Words]) -> tuple[str, ...]:
    """Every line in the panel's language, wrapped to its width (the panel shows five; the
    encoder scrolls)."""
    wrapped: list[str] = []
    for line in lines:
        wrapped.extend(wrap(_spoken(line)))
    return tuple(wrapped)


def _spoken(text: U.Words) -> str:
    """A value of the companion's state in the language in use (``i18n.render``); a plain
    str is what no catalog holds (notation, a URL, a journal's repair note): as it is."""
    return i18n.render(text)


def _marked(mark: str, text: U.Words) -> str:
    """``text`` rendered after a mark ("! " of an alert, "• " of an instruction)."""
    return mark + _spoken(text)


def _spoken_screen(s: Screen) -> Screen:
    """The screen's card faces in the language in use (its words were rendered where the
    screen was made)."""
    if i18n.current() == i18n.DEFAULT or not s.cards:
        return s
    cards = tuple(replace(card, name=card_face(card.name)) for card in s.cards)
    return replace(s, cards=cards)


PAGE_S = 4.0
"""Seconds a page of a text longer than the panel stays before the next one: a player at
the board reads a refusal without touching anything (the encoder can still scroll it)."""


def pages(lines: int) -> int:
    """How many pages of ``BODY_LINES`` a text of ``lines`` lines takes."""
    return max(1, -(-lines // BODY_LINES))


def _scrolled(s: Screen, scroll: int, now: float = 0.0, since: float = 0.0) -> Screen:
    """A text screen at the lines the encoder scrolled to; unscrolled, a text longer than
    the panel turns its pages by itself, ``PAGE_S`` each from ``since`` (a message's
    start) and round again, so every word is shown whole in time."""
    if s.cursor is not None:  # a list scrolls with its cursor
        return s
    last = max(0, len(s.lines) - BODY_LINES)
    if scroll == 0 and last > 0:
        page = int(max(0.0, now - since) // PAGE_S) % pages(len(s.lines))
        return replace(s, offset=min(page * BODY_LINES, last))
    offset = max(0, min(scroll, last))
    return s if offset == s.offset else replace(s, offset=offset)


def each_page(s: Screen) -> list[Screen]:
    """Every page of a text screen, first to last, as the panel turns them (a list or a
    screen that fits is its one page): what a screenshot of the whole text shows."""
    if s.cursor is not None or len(s.lines) <= BODY_LINES:
        return [s]
    last = len(s.lines) - BODY_LINES
    return [replace(s, offset=min(k * BODY_LINES, last)) for k in range(pages(len(s.lines)))]


def message_seconds(text: U.Words, least: float) -> float:
    """How long a message must stay for all its pages to show once (at least ``least``)."""
    return max(least, pages(len(_fit([text]))) * PAGE_S)


def next_page_at(game: Game, ui: U.UiState, now: float) -> float | None:
    """When the screen turns its next page by itself (None: it has one page, or the
    encoder holds it): the controller's next deadline, so the panel is redrawn then."""
    if ui.scroll:
        return None
    s = _screen(game, ui, now)
    if s.cursor is not None or len(s.lines) <= BODY_LINES:
        return None
    since = _since(ui, now)
    return now + PAGE_S - (max(0.0, now - since) % PAGE_S)


def _since(ui: U.UiState, now: float) -> float:
    message = ui.message
    if message is not None and now < message.until and ui.mismatch is None:
        return message.since
    return 0.0


def _row_label(label: str) -> str:
    """A score row's label as the panel's narrow first column shows it: the log and the
    window say "Schmetterlinge", the OLED's 21 columns only have room for "Schmetterl."."""
    if label == "butterflies":
        return i18n.pgettext("score row", "butterflies")
    return i18n._(label)


def _scores_screen(game: Game, chooser: U.Chooser) -> Screen:
    """A scoring's breakdown, a few rows a page; on every page the header, what this
    scoring added (the sum of its rows) and the game's total after it, each named: the rows
    are one scoring's, the total is the whole game's, and the page says which is which."""
    scoring: Scoring = chooser.subject
    red, yellow = scoring.of("red"), scoring.of("yellow")
    rows = []
    for key, label in SCORE_ROWS:
        a, b = getattr(red.points, key), getattr(yellow.points, key)
        if a or b:
            rows.append(f"{_row_label(label)}\t{a}\t{b}")
    pages = max(1, (len(rows) + SCORE_PAGE_ROWS - 1) // SCORE_PAGE_ROWS)
    page = chooser.cursor % pages
    chunk = rows[page * SCORE_PAGE_ROWS : (page + 1) * SCORE_PAGE_ROWS]
    added = i18n._(N_("scoring")) + f"\t+{red.points.gained}\t+{yellow.points.gained}"
    total = i18n._(N_("total")) + f"\t{red.total}\t{yellow.total}"
    red_name, yellow_name = i18n._(N_("red")), i18n._(N_("yellow"))
    head = f"\t{red_name}\t{yellow_name}"
    body = (head, *chunk, *[""] * (SCORE_PAGE_ROWS - len(chunk)), added, total)
    title = _spoken(chooser.title) + (f" {page + 1}/{pages}" if pages > 1 else "")
    return Screen(title, body)


def _turn_lines(game: Game, ui: U.UiState) -> list[U.Words]:
    legal = game.legal_actions()
    lines: list[U.Words] = []
    if ui.kit == "rfid":
        lines.append(Text(N_("Put a disc on a lit beach or take one back")))
    else:
        lines.append(Text(N_("Press a lit beach's button")))
    if encode(Boat()) in legal:
        lines.append(Text(N_("or select: move the boat")))
    return lines


def _proposal_screen(game: Game, chooser: U.Chooser, ui: U.UiState) -> Screen:
    """Solo: the companion's decision in words (what to do about it), or that it thinks;
    then what the last decision asked the players to move."""
    lines: list[U.Words]
    if not chooser.options:  # a remote player's seat says what it waits for (subject)
        lines = [
            chooser.subject or Text.of(N_("{who} is thinking…"), who=_colour_name(game.decider)),
            Text(N_("(back: menu)")),
        ]
    else:
        option = chooser.options[0]
        lines = [option.detail or option.label]
        if ui.bot_at is not None:
            lines.append(Text(N_("goes on by itself (select: now)")))
    lines += [_marked("• ", line) for line in ui.instructions]
    return Screen(_spoken(chooser.title), _fit(lines))


def screen(game: Game, ui: U.UiState, now: float) -> Screen:
    """What the OLED says at this moment."""
    return _scrolled(_spoken_screen(_screen(game, ui, now)), ui.scroll, now, _since(ui, now))


def whole(game: Game, ui: U.UiState, now: float) -> Screen:
    """What the OLED says at this moment, every line of it (not the page on the panel): what
    the narrator reads aloud at the ``everything`` verbosity."""
    return _spoken_screen(_screen(game, ui, now))


def _screen(game: Game, ui: U.UiState, now: float) -> Screen:
    if ui.bye:
        return bye_screen()
    chooser = ui.chooser
    who = _colour_name(game.decider)
    lines: list[U.Words]
    if chooser is not None and chooser.kind in (U.MENU, U.CONFIRM_NEW):
        return _list_screen(chooser.title, chooser)
    if chooser is not None and chooser.kind == U.JOIN:  # the QR code and URL, drawn ready
        url = chooser.options[0].label
        body = _fit([url, Text(N_("(select or back: menu)"))])
        return Screen(_spoken(chooser.title), body, picture=chooser.subject)
    scores = chooser is not None and chooser.kind == U.SCORES
    if ui.mismatch is not None and (ui.mismatch.refusal or not scores):
        # The beaches the game asked to clear flash on the LEDs; a score page comes first.
        m = ui.mismatch
        lines = [*m.fixes, m.reason] if m.reason else list(m.fixes)  # what to do, then why
        return Screen(_marked("! " if m.refusal else "", m.headline), _fit(lines), alert=m.refusal)
    if ui.message is not None and now < ui.message.until:
        msg = ui.message
        shown = _marked("! " if msg.refusal else "", msg.title)
        return Screen(shown, _fit([msg.text]), alert=msg.refusal)
    if ui.lesson is not None and ui.lesson.showing and not scores:
        return lesson_screen(ui.lesson)
    if scores:
        assert chooser is not None
        return _scores_screen(game, chooser)
    if chooser is not None and chooser.kind == U.DECISION and game.phase == CHOOSE_CARD:
        takes = (decode(o.value, game.board) for o in chooser.options)
        faces = tuple(CardFace.of(game, t.slot) for t in takes if isinstance(t, Take))
        only = Text.of(N_("{who}: ONLY CARD"), who=who)
        return Screen(_spoken(chooser.title if len(faces) > 1 else only), cards=faces,
                      selected=chooser.cursor)  # fmt: skip
    if chooser is not None and chooser.kind == U.PROPOSAL:
        return _proposal_screen(game, chooser, ui)
    if chooser is not None and chooser.kind in (U.DECISION, U.BEACH, U.BOAT):
        if ui.auto_at is not None:  # one choice: say it goes on by itself
            s = _list_screen(chooser.title, chooser, BODY_LINES - 1)
            return replace(s, lines=(*s.lines, i18n._(N_("only choice – goes on"))))
        return _list_screen(chooser.title, chooser)
    if game.phase == OVER:
        result = game.result()
        assert result is not None
        red, yellow = result.scores
        lines = [
            Text.of(N_("red {red}, yellow {yellow}"), red=red, yellow=yellow),
            Text.of(N_("{colour} wins"), colour=Term(result.winner)),
        ]
        if result.tiebreak == "start":
            lines.append(Text(N_("(tie: the player who did not start wins)")))
        elif result.tiebreak:
            lines.append(Text.of(N_("(tie broken by {tiebreak})"), tiebreak=Term(result.tiebreak)))
        lines.append(Text(N_("select: scores")))
        lines.append(Text(N_("back: menu")))
        return Screen(i18n._(N_("GAME OVER")), _fit(lines))
    title = Text.of(N_("{who} ROUND {round}"), who=who, round=game.round)
    lines = []
    if not ui.link_ok:  # nothing the players do counts until the reader is back
        lines.append(link_words(ui.link_detail))
    if ui.solo is not None and PLAYERS[game.decider] == ui.solo:
        lines.append(Text(N_("The companion plays")))
    if ui.instructions:  # what to move on the board comes first: it is what players miss
        lines += [_marked("• ", line) for line in ui.instructions]
    if game.phase == TURN:
        lines += _turn_lines(game, ui)
    lines += list(ui.notes)
    return Screen(_spoken(title), _fit(lines))


LESSON_FOOTERS = {
    "read": N_("select: go on"),
    "decide": N_("select: go on"),
    "hint": N_("back: step before"),
    "refused": N_("back: step before"),
}
"""The last line of a lesson's screen: what the buttons do (a hint also goes back to its
step with select; a long press on back leaves the lesson)."""


def lesson_screen(view: Any) -> Screen:
    """A lesson's words (``haleakala.learn.board.LessonView``: catalog keys of its gettext
    context, checked to fit 4 lines when the lesson was loaded) and the footer, the step
    counter in the title."""
    title = f"{i18n.pgettext(view.context, view.title)} {view.number}/{view.steps}"
    lines = wrap(i18n.pgettext(view.context, view.say))
    footer = i18n._(LESSON_FOOTERS.get(view.kind, LESSON_FOOTERS["read"]))
    return Screen(title, (*lines, footer), alert=view.kind in ("hint", "refused"))


def bye_screen() -> Screen:
    return Screen("HALEAKALA", ("", "", "        " + i18n._(N_("bye"))))


def bye_image() -> Image:
    return draw(bye_screen())
