"""The message catalogs: complete in every language, placeholders intact, in step with the
source, compiled as they read, and faithful to the glossaries (issue 14)."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from haleakala import i18n
from haleakala.i18n import catalogs
from haleakala.i18n.terms import GLOSSARY

REPO = Path(__file__).resolve().parents[2]


def test_every_message_has_a_translation_in_every_language_and_keeps_its_placeholders():
    found = catalogs.check_all()
    assert not found, "\n".join(map(str, found))


def test_the_template_holds_exactly_what_the_source_marks(tmp_path):
    """A catalog out of date with the source: run python -m haleakala.i18n.catalogs update."""
    fresh = catalogs.message_ids(catalogs.read(catalogs.extract(tmp_path / "now.pot")))
    committed = catalogs.message_ids(catalogs.read(catalogs.TEMPLATE))
    assert fresh - committed == set(), "marked in the source, missing from the .pot"
    assert committed - fresh == set(), "in the .pot, no longer in the source"
    for language in catalogs.LANGUAGES:
        po = catalogs.message_ids(catalogs.read(catalogs.po_path(language), language))
        assert po == committed, f"{language}.po is not updated from the template"


def test_compiled_catalogs_say_what_the_po_files_say():
    """The set-up compiled them (tools/bootstrap.sh), and not from an older .po."""
    for language in catalogs.LANGUAGES:
        mo = catalogs.mo_path(language)
        assert mo.is_file(), f"{mo} missing: run tools/bootstrap.sh"
        with mo.open("rb") as fp:
            compiled = gettext.GNUTranslations(fp)
        for m in catalogs.read(catalogs.po_path(language), language):
            if not m.id:
                continue
            if m.context:
                assert compiled.pgettext(m.context, m.id) == m.string, (language, m.id)
            elif isinstance(m.id, str):
                assert compiled.gettext(m.id) == m.string, (language, m.id)
            else:
                assert compiled.ngettext(m.id[0], m.id[1], 1) in m.string, (language, m.id)


def _catalog(language: str, *entries: tuple[object, object]) -> Catalog:
    catalog = Catalog(locale=language)
    for msgid, msgstr in entries:
        catalog.add(msgid, msgstr)
    return catalog


def test_the_check_catches_a_dropped_an_added_and_a_missing_translation():
    catalog = _catalog(
        "de",
        ("R7: {player} would have {own} on beach {beach}", "R7: {player} hätte {own}"),
        ("take {slot}", "nimm {slot} von {beach}"),
        ("statue", ""),
        ("fine {x}", "gut {x}"),
    )
    problems = {f.msgid: f.problem for f in catalogs.problems(catalog, "de")}
    assert problems["R7: {player} would have {own} on beach {beach}"].endswith("drops {beach}")
    assert problems["take {slot}"].endswith("adds {beach}")
    assert problems["statue"] == "no translation"
    assert "fine {x}" not in problems


def test_a_plural_form_may_leave_out_the_count_but_nothing_else():
    catalog = _catalog(
        "de",
        (("{n} shell of {player}", "{n} shells of {player}"), ("eine Muschel", "{n} Muscheln")),
        (("{n} card", "{n} cards"), ("eine Karte", "{n} Karten")),
    )
    problems = {f.msgid: f.problem for f in catalogs.problems(catalog, "de")}
    assert "drops {player}" in problems["{n} shell of {player}"]
    assert "{n} card" not in problems


def test_a_fuzzy_translation_counts_as_missing():
    catalog = _catalog("fr", ("beach", "plage"))
    catalog["beach"].flags.add("fuzzy")
    assert next(catalogs.problems(catalog, "fr")).problem.startswith("fuzzy")


@pytest.mark.parametrize("text", ["{beach", "}", "{a{b}"])
def test_a_broken_format_string_never_matches(text):
    assert catalogs.placeholders(text) == {"<broken>"}


def _glossary(language: str) -> dict[str, str]:
    rows = (REPO / "docs" / f"glossary-{language}.md").read_text(encoding="utf-8").splitlines()
    table = {}
    for row in rows:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) >= 3 and row.startswith("| ") and cells[0] not in ("English", "---"):
            table[cells[0]] = cells[1]
    return table


@pytest.mark.parametrize("language", ["de", "fr"])
def test_game_terms_are_translated_as_the_glossary_gives_them(language):
    glossary = _glossary(language)
    assert set(GLOSSARY) <= set(glossary), "a game term without a glossary row"
    i18n.use(language)
    try:
        wrong = {t: (i18n._(t), glossary[t]) for t in GLOSSARY if i18n._(t) != glossary[t]}
    finally:
        i18n.use("en")
    assert not wrong, wrong


def test_french_quotes_and_spaces_follow_french_typography():
    """« » with a no-break space inside, and a (narrow) no-break space before : ; ! ?"""
    bad = []
    for m in catalogs.read(catalogs.po_path("fr"), "fr"):
        if not m.id:
            continue
        for s in [m.string] if isinstance(m.string, str) else list(m.string):
            if '"' in s or "“" in s or re.search(r"(?<=\S)[;!?]|\S:(?!\S)| [:;!?]", s):
                bad.append(s)
    assert not bad, bad


def test_every_card_and_scoring_board_name_of_the_deck_data_is_in_the_catalog():
    from haleakala.games.haleakala.deck import default_deck
    from haleakala.i18n.terms import CARD_NAMES, SCORING_CARDS

    deck = default_deck()
    names = {c.name for c in deck.types.values()} | {n for n, _ in deck.board_items.values()}
    assert names <= set(CARD_NAMES.values()) | set(SCORING_CARDS.values())
