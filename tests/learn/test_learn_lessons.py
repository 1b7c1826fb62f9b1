"""Lessons as data: every shipped lesson passes its load checks, a bad lesson is refused at
load with its step named (illegal decision, missing translation, text too long), and
``haleakala learn --check`` (which CI runs through this test) passes."""

from __future__ import annotations

import textwrap

import pytest

from haleakala import i18n
from haleakala.cli import main
from haleakala.learn import LessonError, lesson_paths, load
from haleakala.learn.lesson import po_catalogs

HEADER = """\
name = "tiny"
title = "FIRST GAME"
game = "haleakala"
options = { variant = "base" }
seed = 5
start = "red"
player = "red"
"""

STEP_OK = """
[[step]]
id = "first-disc"
title = "DISCS"
say = "Put your disc 4 on beach 3, the lit one."
point = ["3.beach"]
do = "4@3"
hint = "Not that one: disc 4 goes on beach 3."
"""


def write(tmp_path, body: str, header: str = HEADER):
    path = tmp_path / "tiny.toml"
    path.write_text(header + textwrap.dedent(body), encoding="utf-8")
    return path


def catalogs_with(extra: dict[str, str] | None = None, missing_in: str | None = None):
    """The package's lesson catalogs, with ``extra`` texts translated as themselves and one
    language losing every ``extra`` text (a translation that was never written)."""
    base = po_catalogs()
    out = {lang: dict(texts) for lang, texts in base.items()}
    for text in extra or {}:
        for lang in out:
            if lang != missing_in:
                out[lang][text] = (extra[text] if lang != "en" else text, False)
    return lambda: out


@pytest.mark.parametrize("path", lesson_paths(), ids=lambda p: p.stem)
def test_every_shipped_lesson_passes_its_load_checks(path):
    lesson = load(path)
    assert lesson.steps and lesson.title


def test_the_lessons_cover_haleakala_its_tactical_variant_and_kahuna():
    lessons = {load(p).name: load(p) for p in lesson_paths()}
    assert {"first-game", "tactical", "kahuna"} <= set(lessons)
    assert lessons["first-game"].handover in ("child", "random")
    assert lessons["tactical"].options == {"variant": "tactical"}


def test_a_lesson_that_loads_is_refused_with_its_step_named_when_a_decision_is_illegal(tmp_path):
    path = write(tmp_path, STEP_OK.replace('do = "4@3"', 'do = "4@0*"'))
    with pytest.raises(
        LessonError, match=r'tiny.toml: step 1 "first-disc": do \'4@0\*\' is not legal'
    ):
        load(path)


def test_a_reply_by_the_learner_is_refused_naming_the_step(tmp_path):
    body = STEP_OK.replace('hint = "Not', 'reply = [">2G"]\nhint = "Not')
    with pytest.raises(LessonError, match=r'step 1 "first-disc": reply .>2G.: it is red'):
        load(write(tmp_path, body))


def test_a_decision_of_the_other_side_without_a_reply_is_refused(tmp_path):
    shaman = STEP_OK.replace("first-disc", "shaman").replace('"4@3"', '">2G"')
    again = STEP_OK.replace("first-disc", "again").replace('"4@3"', '"5@2"')
    with pytest.raises(LessonError, match=r'step 3 "again": yellow decides here, not red'):
        load(write(tmp_path, STEP_OK + shaman + again))


def test_a_text_without_a_translation_is_refused_naming_the_step_and_language(tmp_path):
    new = "A brand new sentence."
    body = STEP_OK.replace("Put your disc 4 on beach 3, the lit one.", new)
    with pytest.raises(LessonError, match=r'step 1 "first-disc": say .A brand new sentence.* fr'):
        load(write(tmp_path, body), catalogs=catalogs_with({new: "Neu."}, missing_in="fr"))


def test_a_text_that_is_not_a_catalog_key_at_all_is_refused(tmp_path):
    body = STEP_OK.replace("Put your disc 4 on beach 3, the lit one.", "Nobody wrote this.")
    with pytest.raises(LessonError, match=r"step 1 .*not in the en catalog"):
        load(write(tmp_path, body))


def test_a_text_too_long_for_the_oled_is_refused_naming_the_step(tmp_path):
    long = "This sentence goes on and on " * 4
    body = STEP_OK.replace("Put your disc 4 on beach 3, the lit one.", long)
    with pytest.raises(LessonError, match=r'step 1 "first-disc": say in en .* OLED lines'):
        load(write(tmp_path, body), catalogs=catalogs_with({long: long}))


def test_a_translation_too_long_for_the_oled_is_refused_naming_its_language(tmp_path):
    short = "Short."
    body = STEP_OK.replace("Put your disc 4 on beach 3, the lit one.", short)
    with pytest.raises(LessonError, match=r"say in de"):
        load(write(tmp_path, body), catalogs=catalogs_with({short: "Lang " * 30}))


def test_a_title_wider_than_the_title_bar_is_refused(tmp_path):
    title = "A VERY LONG TITLE INDEED"
    body = STEP_OK.replace('title = "DISCS"', f'title = "{title}"')
    with pytest.raises(LessonError, match=r"title in en .*title bar"):
        load(write(tmp_path, body), catalogs=catalogs_with({title: title}))


def test_a_zone_the_board_does_not_have_is_refused(tmp_path):
    body = STEP_OK.replace('point = ["3.beach"]', 'point = ["7.beach"]')
    with pytest.raises(LessonError, match=r"step 1 .*point '7.beach' is not a zone"):
        load(write(tmp_path, body))


def test_a_decision_step_without_a_hint_is_refused_so_no_wrong_move_is_a_dead_end(tmp_path):
    body = STEP_OK.replace('hint = "Not that one: disc 4 goes on beach 3."\n', "")
    with pytest.raises(LessonError, match=r'step 1 "first-disc": .*needs hint'):
        load(write(tmp_path, body))


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("name = [", "not valid TOML"),
        (HEADER, "at least one"),
        (HEADER.replace('game = "haleakala"', 'game = "chess"') + STEP_OK, "unknown game"),
        (HEADER + STEP_OK.replace("say =", "sai ="), "unknown key"),
        (HEADER.replace("\nseed = 5", '\nseed = "five"') + STEP_OK, "whole number"),
    ],
)
def test_a_malformed_lesson_gets_one_sentence_never_a_traceback(tmp_path, text, said):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LessonError, match=said):
        load(path)


def test_learn_check_passes_every_lesson_in_every_language(capsys):
    assert main(["learn", "--check"]) == 0
    out = capsys.readouterr().out
    for path in lesson_paths():
        name = load(path).name
        for language in i18n.LANGUAGES:
            assert f"{name} [{language}]:" in out
    assert "all lessons pass" in out
    i18n.use("en")


def test_learn_list_prints_one_lesson_a_line(capsys):
    assert main(["learn", "--list", "--lang", "en"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(lesson_paths())
    assert any(line.startswith("first-game\tFIRST GAME") for line in lines)


def test_learn_an_unknown_lesson_is_one_line_and_exit_2(capsys):
    assert main(["learn", "no-such-lesson"]) == 2
    err = capsys.readouterr().err
    assert "no lesson called 'no-such-lesson'" in err and "first-game" in err
