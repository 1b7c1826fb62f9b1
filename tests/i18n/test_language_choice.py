"""Which language the companion speaks: --lang, then the config, then the locale, then
English; unknown languages are refused by name; plurals and numbers follow the language."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from haleakala import i18n
from haleakala.cli import main
from haleakala.config import ConfigError, check_text, loads
from haleakala.games.haleakala.decision import Refusal, Term
from haleakala.i18n.refusals import say
from haleakala.i18n.terms import points, shells


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "fr_CH.UTF-8@euro"}, "fr"),
        ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": "en_GB.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8", "LANGUAGE": "es:fr:de"}, "fr"),
        ({"LANG": "C.UTF-8", "LANGUAGE": "de"}, None),  # a C locale is untranslated
        ({"LANG": "POSIX"}, None),
        ({"LANG": "es_ES.UTF-8"}, None),
        ({}, None),
    ],
)
def test_the_locale_names_the_language_as_gettext_reads_it(environ, language):
    assert i18n.from_environment(environ) == language


def test_lang_beats_the_config_which_beats_the_locale_which_beats_english():
    german = {"LANG": "de_DE.UTF-8"}
    assert i18n.choose("fr", "de", german) == "fr"
    assert i18n.choose(None, "fr", german) == "fr"
    assert i18n.choose(None, "auto", german) == "de"
    assert i18n.choose(None, "auto", {"LANG": "ja_JP.UTF-8"}) == "en"


def test_an_unknown_language_asked_for_by_name_is_refused_with_the_choices():
    with pytest.raises(i18n.UnknownLanguage) as unknown:
        i18n.choose("es")
    assert str(unknown.value) == "unknown language 'es': choose one of en, de, fr"
    with pytest.raises(i18n.UnknownLanguage, match="did you mean 'de'"):
        i18n.use("DE")


@given(st.dictionaries(st.sampled_from(["LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"]), st.text()))
def test_any_environment_gives_a_language_we_have(environ):
    assert i18n.choose(None, "auto", environ) in i18n.LANGUAGES


def test_the_config_refuses_an_unknown_language_and_says_what_to_write():
    with pytest.raises(ConfigError) as error:
        loads('language = "es"\n')
    assert [p.key for p in error.value.problems] == ["language"]
    assert "'es' is not one of auto, en, de, fr" in str(error.value)
    assert "did you mean 'de'? (the case matters)" in str(check_text('language = "DE"\n')[0])
    assert loads('language = "fr"\n').language == "fr"
    assert loads("").language == "auto"


@pytest.mark.parametrize("command", ["sim", "run", "play"])
def test_lang_is_an_option_of_the_player_commands(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--lang", "xx"])
    assert exit_.value.code == 2
    assert "invalid choice: 'xx' (choose from 'en', 'de', 'fr')" in capsys.readouterr().err


def test_a_language_without_its_compiled_catalog_says_how_to_build_it(monkeypatch, tmp_path):
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    with pytest.raises(i18n.CatalogNotCompiled, match=r"run tools/bootstrap\.sh"):
        i18n.use("de")
    assert i18n.current() == "en"
    warnings: list[str] = []
    assert i18n.speak("fr", warn=warnings.append) == "en"
    assert warnings and warnings[0].endswith("speaking English")
    assert i18n.use("en") == "en"  # English needs no catalog: the source text is English


def test_plurals_follow_each_languages_rule():
    said = {}
    for language in i18n.LANGUAGES:
        i18n.use(language)
        said[language] = [shells(0), shells(1), shells(2), points(1)]
    assert said["en"] == ["0 shells", "1 shell", "2 shells", "1 point"]
    assert said["de"] == ["0 Muscheln", "1 Muschel", "2 Muscheln", "1 Punkt"]
    assert said["fr"] == ["0 coquillage", "1 coquillage", "2 coquillages", "1 point"]


def test_numbers_are_written_the_languages_way():
    written = {}
    for language in i18n.LANGUAGES:
        i18n.use(language)
        written[language] = i18n.number(1234.5)
    assert written == {"en": "1,234.5", "de": "1.234,5", "fr": "1\u202f234,5"}


def test_a_refusal_reads_in_the_language_with_its_terms_translated(monkeypatch):
    refusal = Refusal.of(
        "not_allowed", "{player} on the {land}", None, player=Term("red"), land=Term("beach")
    )
    assert refusal.text == "red on the beach"
    i18n.use("de")
    # The template is no catalog entry (only the terms are): it stays English, terms not.
    assert say(refusal) == "Rot on the Strand"
    i18n.use("en")
    assert say(refusal) == "red on the beach"
    assert say(Refusal("not_allowed", "a bare sentence")) == "a bare sentence"
