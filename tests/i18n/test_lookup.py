"""English text translated at a front-end's edge by catalog lookup (``i18n.lookup.tr``):
the template that made it is found, translated, and filled with its values translated."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from haleakala import i18n
from haleakala.i18n import lookup
from haleakala.i18n.lookup import tr

ENTRIES = {
    "red": "Rot",
    "yellow": "Gelb",
    "Shell": "Muschel",
    "Forest Statues": "Waldstatuen",
    "FINAL SCORES": "ENDWERTUNG",
    "{colour} takes {slot} ({card})": "{colour} nimmt {slot} ({card})",
    "{who} PLACES {v} ON BEACH {beach}": "{who} LEGT {v} AUF STRAND {beach}",
    "{headline} - {how}": "{headline} – {how}",
    "put the disc there": "leg die Scheibe dorthin",
    "{a}: {b}": "{a}\u00a0: {b}",
    "move the boat to {beach}": "zieh das Boot nach {beach}",
    "the hint {notation} is good": "der Tipp {notation} ist gut",
}


@pytest.fixture
def german(tmp_path, monkeypatch):
    catalog = Catalog(locale="de")
    for msgid, msgstr in ENTRIES.items():
        catalog.add(msgid, msgstr)
    catalog.add(("{n} shell", "{n} shells"), ("{n} Muschel", "{n} Muscheln"))
    mo = tmp_path / "de" / "LC_MESSAGES" / "haleakala.mo"
    mo.parent.mkdir(parents=True)
    with mo.open("wb") as fp:
        write_mo(fp, catalog)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    lookup.forget()
    i18n.use("de")
    yield
    i18n.use("en")
    lookup.forget()


def test_a_filled_template_is_translated_with_its_values(german):
    assert tr("red takes 2a (Shell)") == "Rot nimmt 2a (Muschel)"
    assert tr("move the boat to 4") == "zieh das Boot nach 4"


def test_capitals_are_translated_and_kept(german):
    assert tr("YELLOW PLACES 3 ON BEACH 2") == "GELB LEGT 3 AUF STRAND 2"
    assert tr("FINAL SCORES") == "ENDWERTUNG"
    assert tr("FOREST STATUES") == "WALDSTATUEN"


def test_values_inside_values_are_translated(german):
    assert (
        tr("YELLOW PLACES 3 ON BEACH 2 - put the disc there")
        == "GELB LEGT 3 AUF STRAND 2 – leg die Scheibe dorthin"
    )


def test_the_specific_template_wins_over_a_generic_one(german):
    assert tr("red: Shell") == "Rot\u00a0: Muschel"  # only the generic one matches
    assert tr("red takes 1b (Shell)").startswith("Rot nimmt")


def test_plurals_pick_their_form_by_the_count(german):
    assert tr("1 shell") == "1 Muschel"
    assert tr("3 shells") == "3 Muscheln"


def test_known_words_beside_numbers_and_notation_are_translated_word_by_word(german):
    assert tr("red 3") == "Rot 3"
    assert tr("1a Shell") == "1a Muschel"
    assert tr("red 3 please") == "red 3 please"  # a word no message has: left alone
    assert tr("FINAL SCORES 1/2") == "ENDWERTUNG 1/2"


def test_translated_text_is_never_translated_again(german):
    once = tr("red: Shell")
    assert tr(once) == once  # "Rot\u00a0: Muschel" does not match "{a}: {b}" again
    assert tr("ENDWERTUNG") == "ENDWERTUNG"


def test_notation_inside_a_sentence_stays_notation(german):
    assert tr("the hint buy forest is good") == "der Tipp buy forest ist gut"


def test_a_generic_template_never_mixes_languages(german):
    # "{a}: {b}" has one character of its own: it fills only with values the catalog knows
    assert tr("the hint: wins by far") == "the hint: wins by far"


def test_text_no_template_matches_is_shown_as_it_is(german):
    assert tr("3@2") == "3@2"
    assert tr("something nobody marked") == "something nobody marked"


def test_english_is_never_looked_up():
    i18n.use("en")
    assert tr("red takes 2a (Shell)") == "red takes 2a (Shell)"
