"""Every screen the companion can show reads on the 128×64 OLED (issue 13, Build 1).

A screen reads when its font has every character (no boxes), its title fits beside the list
position, every line fits the panel, and a card's name and values fit the card. Checked on
every screen the real controller computes while whole games are played through the inputs
(each list swept with the knob, menus, hints, score pages, the end), on random input
sequences (refusals of every kind), and on the scene functions called directly with every
headline, phase title and hardware problem.

``check_strings`` takes any list of strings: the languages work runs it per catalogue.
"""

from __future__ import annotations

import errno
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.companion_rig import Rig

from haleakala.companion import oled
from haleakala.companion import ui as U
from haleakala.companion.autoplay import AutoPlayer, choose
from haleakala.companion.hands import events_for
from haleakala.companion.journal.storage import storage_error
from haleakala.companion.menu import SCORE_PAGES
from haleakala.games.haleakala import PLAYERS, Game
from haleakala.games.haleakala.game import CHOOSE_CARD, TURN
from haleakala.games.haleakala.scoring import PlayerScoring, Points, Scoring
from haleakala.games.haleakala.words.board import HEADLINES, UNKNOWN_TAG
from haleakala.games.haleakala.words.labels import PHASE_TITLES
from haleakala.hal.base import BUTTONS
from haleakala.hal.events import (
    ALL_DISCS,
    BeachContents,
    ButtonPressed,
    EncoderTurned,
    LinkHealth,
)

LETTERS = (
    "äöüÄÖÜß éèêëàâçîïôûùœŒÉÈÀÇ ‘’“”„«» –—… ▲▼ "
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz 0123456789 !?.,:;'\"()/-+*•>"
)
"""Every glyph English, German and French text on the OLED needs (issue 14 builds on it)."""


def check_strings(strings, width: int = oled.TEXT_W) -> list[str]:
    """What is wrong with showing each string on one line of ``width`` pixels: a glyph the
    font lacks, or too wide. Empty when every string can be shown."""
    out = []
    for text in strings:
        missing = oled.missing_glyphs(text)
        if missing:
            out.append(f"{text!r}: no glyph for {missing!r}")
        if not oled.fits(text, width):
            out.append(f"{text!r} is {oled.text_width(text)} px, wider than {width} px")
    return out


def assert_readable(screens) -> None:
    bad = {}
    for s in screens:
        image = oled.draw(s)
        assert image.size == (oled.WIDTH, oled.HEIGHT) and image.mode == "1"
        found = oled.problems(s)
        if found:
            bad[" / ".join(s.text())] = found
    assert not bad, "\n".join(f"{k}\n  {v}" for k, v in bad.items())


# --------------------------------------------------------------------------- the font


def test_the_font_draws_every_letter_english_german_and_french_need():
    assert oled.missing_glyphs(LETTERS) == ""
    assert oled.missing_glyphs("ok 漢\U0010ffff ok") == "漢\U0010ffff"


def test_the_font_is_a_6_by_10_bitmap_with_21_columns():
    assert oled.text_width("M" * 21) == 126 <= oled.TEXT_W
    assert not oled.fits("M" * 22)
    assert oled.text_width("i") == oled.text_width("W")  # fixed width: columns line up


def test_problems_names_a_title_too_long_a_line_too_wide_and_a_missing_glyph():
    assert oled.problems(oled.Screen("MENU", ("resume",))) == []
    assert oled.problems(oled.Screen("BEFORE THE SCORING STARTS", ("a", "b"), cursor=0, count=2))
    assert oled.problems(oled.Screen("X", ("a" * 22,)))
    assert oled.problems(oled.Screen("X", ("漢",)))
    assert oled.problems(oled.Screen("X", ("statues and more\t12\t3",)))  # runs into red


def test_a_title_too_long_for_the_whole_count_keeps_the_cursor_number_and_the_arrow():
    # found by hypothesis: the buttons kit's beach chooser at its tenth option, scrolled
    options = tuple(f"place {v}" for v in range(1, 11))
    beach = oled.Screen("YELLOW: BEACH 0", options, cursor=9, offset=5)
    assert beach.position() == "10▲"
    assert oled.problems(beach) == []
    short = oled.Screen("BEACH 0", options, cursor=9, offset=5)
    assert short.position() == "10/10▲"  # the count stays wherever the title leaves room


def test_every_fixed_string_fits_with_the_longest_colour_and_list_position():
    """Phase titles come after "YELLOW: " and beside a list position of two-digit counts;
    headlines after "! " (a refusal) beside a scroll arrow."""
    longest = max(PLAYERS, key=len).upper()
    titles = [f"{longest}: {t}" for k, t in PHASE_TITLES.items() if k != CHOOSE_CARD]
    assert check_strings(titles, oled.title_room("18/18▼")) == []
    cards = f"{longest}: {PHASE_TITLES[CHOOSE_CARD]}"  # two cards: "1/2"
    assert check_strings([cards], oled.title_room("1/2")) == []
    headlines = [f"! {h}" for h in (*HEADLINES.values(), UNKNOWN_TAG)]
    assert check_strings(headlines, oled.title_room("▼")) == []
    labels = [label for _, label in oled.SCORE_ROWS]
    assert check_strings(labels, oled.COLUMNS[0] - oled.text_width("99") - oled.GAP) == []


# --------------------------------------------------------------------------- layout


def test_the_cursor_row_is_inverted_and_the_title_shows_the_position_in_the_list():
    chooser = U.Chooser(U.DECISION, "YELLOW: SHAMAN", tuple(U.Option(f"{i}G", i) for i in range(8)))
    game = Game("base", 1)
    s = oled.screen(game, U.UiState(chooser=chooser.moved(2)), 0.0)
    assert s.position() == "3/8▼" and s.cursor == 2
    image = oled.draw(s)
    lit = [
        sum(image.getpixel((x, y)) for x in range(oled.WIDTH) for y in range(top, top + 10))
        for top in range(oled.BODY_TOP + 1, oled.BODY_TOP + 5 * oled.LINE_H, oled.LINE_H)
    ]
    assert lit[2] > 0.7 * oled.WIDTH * oled.GLYPH_H  # the cursor row: dark letters on light
    assert all(n < 0.3 * oled.WIDTH * oled.GLYPH_H for i, n in enumerate(lit) if i != 2)
    last = oled.screen(game, U.UiState(chooser=chooser.moved(-1)), 0.0)
    assert last.position() == "8/8▲" and last.offset == 3  # all eight reachable


def test_every_score_page_has_the_header_the_scorings_sum_and_the_games_total():
    """The rows are one scoring's points, the total the whole game's (issue 23: the final
    page mixed them): the sum of the rows is named "scoring" apart from the total."""
    points = Points(**{key: i + 1 for i, (key, _) in enumerate(oled.SCORE_ROWS)})
    record = Scoring(
        1,
        tuple(
            PlayerScoring(colour, points, total, (), 0, (), 0, ())
            for colour, total in (("red", 70), ("yellow", 60))
        ),
    )
    game = Game("base", 1)
    pages = set()
    for page in range(SCORE_PAGES):
        options = (U.Option("page", "page"),) * SCORE_PAGES
        chooser = U.Chooser(U.SCORES, "SCORING 1", options, page, record)
        s = oled.screen(game, U.UiState(chooser=chooser), 0.0)
        assert s.lines[0] == "\tred\tyellow"
        assert s.lines[-2:] == ("scoring\t+55\t+55", "total\t70\t60")
        assert len(s.lines) == oled.BODY_LINES
        pages.add(s.lines)
    shown = {row.split("\t")[0] for lines in pages for row in lines[1:-2] if row}
    assert shown == {label for _, label in oled.SCORE_ROWS}
    assert_readable(
        oled.screen(game, U.UiState(chooser=U.Chooser(U.SCORES, t, (), 0, record)), 0.0)
        for t in ("SCORING 2", "FINAL SCORES")
    )


# --------------------------------------------------------------------------- hardware


LINK_DETAILS = (
    "lost the RFID Pico on /tmp/tmpk2x9w1/pty: [Errno 5] Input/output error",
    "no RFID Pico found (looked for /dev/serial/by-id/usb-MicroPython*)",
    "cannot open RFID Pico port /dev/ttyACM0: [Errno 13] Permission denied",
    "RFID Pico on /dev/ttyACM0 sends nothing: is the firmware running?",
    "RFID Pico on /dev/ttyACM0 went quiet (no frame for 2 s)",
    "beach 3 reader timeout; beach 5 reader crc (bad frame)",
    "unplugged",
    "something nobody foresaw: Traceback (most recent call last)",
)


@pytest.mark.parametrize("detail", LINK_DETAILS)
def test_an_rfid_link_problem_reads_as_advice_not_as_a_python_error(detail):
    rig = Rig("rfid")
    rig.send(LinkHealth(False, detail))
    shown = oled.screen(rig.game, rig.c.ui_state(), rig.clock())
    text = " ".join(shown.text())
    assert "RFID reader" in text or "Reader under beach" in text
    assert "check" in text or "plug it back" in text
    assert "/" not in text.replace("ROUND", "") and "Errno" not in text and "Pico" not in text
    assert_readable([shown])
    rig.send(LinkHealth(True, "RFID Pico on /dev/ttyACM0"))
    assert "RFID" not in rig.text()


def test_the_reader_unplugged_in_the_middle_of_a_game_says_check_the_usb_cable():
    rig = Rig("buttons")
    rig.send(LinkHealth(False, "lost the RFID Pico on /tmp/tmpabc/pty: [Errno 5] I/O error"))
    assert rig.c.prompt[1:3] == ["RFID reader unplugged", "– check the USB cable"]


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES, errno.EIO])
def test_a_storage_problem_screen_fits(code, tmp_path):
    exc = storage_error(OSError(code, "boom"), tmp_path / "journal.bin")
    # what ``daemon.wait_for_storage`` and the controller's pause show
    assert_readable([oled.Screen(f"! {exc.title}", oled.wrap(str(exc.short)), alert=True)])


# --------------------------------------------------------------------------- direct scenes


def test_every_refusal_headline_and_message_screen_fits():
    game = Game("base", 1)
    reason = "Sum rule (R6): beach 2 would hold 7, more than 6; take a disc back."
    screens = []
    for headline in (*HEADLINES.values(), UNKNOWN_TAG, "BOARD DIFFERS", "TWO DISCS AT ONCE"):
        mismatch = U.Mismatch((2,), headline, reason, ("take red 3 off beach 2",))
        screens.append(oled.screen(game, U.UiState(kit="rfid", mismatch=mismatch), 0.0))
        message = U.Message(headline, reason, refusal=True, until=10.0)
        screens.append(oled.screen(game, U.UiState(message=message), 0.0))
    for headline in ("CLEAR THE BOARD", "UNDO: FIX THE BOARD", "TAKE DISCS BACK"):
        mismatch = U.Mismatch((), headline, "", ("put red 3 back in the supply",), refusal=False)
        screens.append(oled.screen(game, U.UiState(kit="rfid", mismatch=mismatch), 0.0))
    assert_readable(screens)


def test_the_bye_screen_and_a_long_text_scrolled_to_its_end_fit():
    game = Game("base", 1)
    message = U.Message("NOT NOW", "word " * 60, refusal=True, until=10.0)
    end = oled.screen(game, U.UiState(message=message, scroll=99), 0.0)
    assert end.position() == "▲" and end.offset == len(end.lines) - oled.BODY_LINES
    assert_readable([oled.bye_screen(), end])


# --------------------------------------------------------------------------- whole games


def _sweep(rig: Rig, swept: set) -> None:
    """Turn the knob once round the list on the OLED (back where it was): every row is
    seen under the cursor."""
    shown = rig.c.shown
    if shown is None or len(shown.options) < 2:
        return
    key = (shown.kind, shown.title, tuple(str(o.label) for o in shown.options))
    if key in swept:
        return
    swept.add(key)
    for _ in range(len(shown.options)):
        rig.send(EncoderTurned(1))


def _menu_tour(rig: Rig, swept: set) -> None:
    """Back at a turn start: the menu, every row, the new-game question, the live view's
    joining page (when it runs), a hint."""
    rig.press("back")
    if rig.c.shown is None or rig.c.shown.kind != U.MENU:
        return
    _sweep(rig, swept)
    values = [o.value for o in rig.c.shown.options]
    rig.send(EncoderTurned(values.index("new")), ButtonPressed("select"))
    _sweep(rig, swept)  # NEW GAME? no / yes
    rig.press("select")  # "no, go back": the menu again
    if "live" in values:  # the QR code page, then select: the menu again
        rig.send(EncoderTurned(values.index("live") - rig.c.shown.cursor))
        rig.press("select")
        assert rig.c.shown.kind == U.JOIN
        rig.press("select")
    if "hint" in values:
        rig.send(EncoderTurned(values.index("hint") - rig.c.shown.cursor))
        rig.press("select")
    else:
        rig.send(EncoderTurned(-rig.c.shown.cursor), ButtonPressed("select"))  # resume


def play_and_look(rig: Rig, seed: int) -> None:
    """A whole game through the inputs, every list swept, the menu visited, the end shown."""
    player = AutoPlayer(seed)
    swept: set = set()
    toured = set()
    for _ in range(3000):
        if rig.game.is_terminal():
            break
        _sweep(rig, swept)
        if (
            rig.game.phase == TURN
            and rig.c.shown is None
            and rig.game.round not in toured
            and len(rig.game.history) > 3
            and not rig.c.thinking
            and rig.c.panel.mismatch is None
        ):
            toured.add(rig.game.round)
            _menu_tour(rig, swept)
            continue
        events = player.next_events(rig.c)
        if not events:
            rig.await_bot()
            continue
        rig.send(*events)
    assert rig.game.is_terminal()
    _sweep(rig, swept)  # the final scores
    rig.press("select")  # closes them: GAME OVER
    rig.advance(1)
    rig.press("back")
    _sweep(rig, swept)  # the menu after the game


def test_the_live_views_joining_page_reads_on_the_oled(oled_screens_seen):
    """Issue 15: with the live view running, the menu tour opens its QR code page too."""
    pytest.importorskip("aiohttp")
    from haleakala.web.start import start_live_view

    rig = Rig("buttons", "base", seed=5)
    live = start_live_view("127.0.0.1:0", rig.c)
    assert live is not None
    try:
        rig.play_until(lambda g: len(g.history) > 3 and g.phase == TURN)
        _menu_tour(rig, set())
    finally:
        live.close()
    assert {"MENU", "LIVE VIEW"} <= {s.title for s in oled_screens_seen}
    assert any(s.picture is not None for s in oled_screens_seen)
    assert_readable(oled_screens_seen)


@pytest.mark.parametrize(
    ("kit", "variant", "solo", "seed"),
    [
        ("buttons", "base", None, 1),
        ("rfid", "tactical", None, 2),
        ("buttons", "tactical", "yellow", 3),
        ("rfid", "base", "red", 4),
    ],
)
def test_every_screen_of_a_whole_game_reads_on_the_oled(
    oled_screens_seen, kit, variant, solo, seed
):
    options = {"solo": solo, "strength": "easy"} if solo else {}
    rig = Rig(kit, variant, seed=seed, **options)
    play_and_look(rig, seed)
    titles = {s.title for s in oled_screens_seen}
    assert {"MENU", "NEW GAME?", "GAME OVER"} <= titles
    assert any(t.startswith("FINAL SCORES") for t in titles)
    assert any(t.endswith(": SHAMAN") for t in titles)
    assert any(t.endswith(": TAKE ONE") or t.endswith(": ONLY CARD") for t in titles)
    assert any(t.startswith("SCORING 1") for t in titles)
    assert any(t.endswith("ROUND 2") for t in titles)
    # lists that scroll
    assert any(s.cursor is not None and s.offset > 0 for s in oled_screens_seen)
    if solo is None:
        assert any(t.startswith("HINT") for t in titles)
    assert_readable(oled_screens_seen)


# --------------------------------------------------------------------------- random inputs


def _positions(variant: str) -> list[Game]:
    game, out = Game(variant, 7), []
    while not game.is_terminal():
        out.append(game.clone())
        game.apply(choose(game, 7))
    return out[:: max(1, len(out) // 25)]


POSITIONS = {v: _positions(v) for v in ("base", "tactical")}
discs = st.frozensets(st.sampled_from(ALL_DISCS), max_size=3)
inputs = st.one_of(
    st.builds(ButtonPressed, st.sampled_from((*BUTTONS, "beach6", "nonsense"))),
    st.builds(EncoderTurned, st.integers(-9, 9).filter(bool)),
    st.builds(BeachContents, st.integers(0, 6), discs),
    st.builds(LinkHealth, st.booleans(), st.sampled_from(LINK_DETAILS)),
    st.integers(0, 30),  # carry out the k-th legal decision
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kit=st.sampled_from(("buttons", "rfid")),
    variant=st.sampled_from(("base", "tactical")),
    start=st.integers(0, 24),
    events=st.lists(inputs, max_size=12),
)
def test_random_inputs_from_anywhere_in_a_game_show_only_screens_that_read(
    kit, variant, start, events
):
    """Refusals of every kind (wrong beach, sum rule, out of turn, unknown buttons, beaches
    that do not exist), link problems and decisions in any order: every screen reads."""
    positions = POSITIONS[variant]
    game = positions[start % len(positions)].clone()
    screens: set[oled.Screen] = set()
    rig = Rig(kit, variant, game=game)
    original = oled.screen

    def recording(g, ui, now):
        shown = original(g, ui, now)
        screens.add(shown)
        return shown

    oled.screen = recording  # hypothesis and function-scoped fixtures do not mix
    try:
        for event in events:
            if isinstance(event, int):
                legal = rig.game.legal_actions()
                if legal and not rig.game.is_terminal():
                    rig.send(*events_for(rig.c, legal[event % len(legal)]))
            else:
                rig.send(event)
            rig.advance(random.Random(len(screens)).choice((0.0, 0.3, 6.0)))
    finally:
        oled.screen = original
    assert_readable(screens)


# --------------------------------------------------------------------------- docs


ROOT = Path(__file__).resolve().parents[2]


def screenshot_tool():
    """``tools/oled_screenshots.py``, loaded as a module (tools/ is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("shots", ROOT / "tools" / "oled_screenshots.py")
    assert spec is not None and spec.loader is not None
    shots = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(shots)
    return shots


def stale_pictures(shots, screens: dict, file_name) -> list[str]:
    """The docs/ pictures (``file_name(name)``) missing or not what ``screens`` draw now."""
    from PIL import Image, ImageChops

    stale = []
    for name, s in screens.items():
        path = ROOT / "docs" / file_name(name)
        drawn = shots.picture(s)
        if (
            not path.exists()
            or ImageChops.difference(Image.open(path).convert("L"), drawn).getbbox()
        ):
            stale.append(path.name)
    return stale


def test_the_oled_screenshots_in_docs_are_what_the_companion_draws_today():
    """docs/oled-*.png (linked from the README) are drawn by tools/oled_screenshots.py from
    seeded games; a change of font, layout or words must refresh them (run the tool)."""
    shots = screenshot_tool()
    screens = shots.screens()
    assert {"menu", "refusal", "scoring", "shaman", "priestess", "cards"} <= set(screens)
    assert screens["shaman"].position() == "3/8▼"  # the list of eight the issue names
    assert_readable(screens.values())
    stale = stale_pictures(shots, screens, lambda name: f"oled-{name}.png")
    assert not stale, f"redraw with: .venv/bin/python tools/oled_screenshots.py ({stale})"
