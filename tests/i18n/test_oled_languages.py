"""The OLED in German and French: the screen-rendering test of the player-experience issue
(every screen of whole games, every refusal headline, every fixed title) run per language;
no glyph the font lacks, nothing wider than the panel (issue 14's acceptance)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from support.companion_rig import Rig
from support.leaks import english_words

from haleakala import i18n
from haleakala.companion import oled
from haleakala.i18n import catalogs

_path = Path(__file__).resolve().parents[1] / "companion" / "test_companion_oled_screens.py"
_spec = importlib.util.spec_from_file_location("oled_screens_per_language", _path)
assert _spec is not None and _spec.loader is not None
S = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(S)  # the rendering test's helpers: play_and_look, assert_readable

SPOKEN = {"de": {"MENÜ", "SPIELENDE"}, "fr": {"MENU", "FIN DE LA PARTIE"}}
"""Titles each language's whole game must show: proof that the screens were translated."""


@pytest.fixture(params=["de", "fr"])
def language(request):
    i18n.use(request.param)
    yield request.param
    i18n.use("en")


@pytest.mark.parametrize(
    ("kit", "variant", "solo", "seed"),
    [("buttons", "base", None, 1), ("rfid", "tactical", "yellow", 3)],
)
def test_every_screen_of_a_whole_game_reads_on_the_oled_in_each_language(
    language, oled_screens_seen, kit, variant, solo, seed
):
    options = {"solo": solo, "strength": "easy"} if solo else {}
    rig = Rig(kit, variant, seed=seed, **options)
    S.play_and_look(rig, seed)
    assert SPOKEN[language] <= {s.title for s in oled_screens_seen}
    S.assert_readable(oled_screens_seen)
    assert leaked(oled_screens_seen, language) == []


def leaked(screens, language: str) -> list[str]:
    """Lines on a screen with an English word the language does not use: English that
    reached the OLED (``support.leaks``), with the words found."""
    found = set()
    for s in screens:
        for line in s.text():
            words = english_words(line, language)
            if words:
                found.add(f"{line!r}: {', '.join(words)}")
    return sorted(found)


def test_every_headline_refusal_and_fixed_title_fits_in_each_language(language):
    S.test_every_refusal_headline_and_message_screen_fits()
    S.test_the_bye_screen_and_a_long_text_scrolled_to_its_end_fit()


def test_every_translation_uses_only_glyphs_the_oled_font_has(language):
    missing = {}
    for m in catalogs.read(catalogs.po_path(language), language):
        for text in [m.string] if isinstance(m.string, str) else list(m.string):
            if text and oled.missing_glyphs(text):
                missing[text] = oled.missing_glyphs(text)
    assert not missing, missing


def test_the_german_and_french_oled_screenshots_in_docs_are_what_the_companion_draws(language):
    """docs/oled-de-*.png and docs/oled-fr-*.png, drawn by ``tools/oled_screenshots.py
    --lang``: a change of words or layout must refresh them."""
    shots = S.screenshot_tool()
    screens = shots.screens()
    S.assert_readable(screens.values())
    stale = S.stale_pictures(shots, screens, lambda name: shots.file_name(name, language))
    assert not stale, f"redraw: .venv/bin/python tools/oled_screenshots.py --lang {language}"
