"""A lesson on the kit (the daemon's controller on the sim backend): the OLED says, the LEDs
point, the buttons or discs answer; a scripted player completes every board lesson in each
language, a wrong decision gets the hint and the way back, the lesson can be left, its
progress survives a restart, and the first boot offers it."""

from __future__ import annotations

import pytest
from support.companion_rig import Rig

from haleakala import i18n, palette
from haleakala.companion import oled
from haleakala.companion.hands import events_for
from haleakala.companion.journal import Journal
from haleakala.hal.events import ButtonHeld, EncoderTurned
from haleakala.learn.board import LESSON_FILE, BoardLesson, board_lessons, install
from haleakala.learn.check import wrong_decision
from haleakala.learn.engine import DECIDE, HINT, READ

LESSONS = {lesson.name: lesson for lesson in board_lessons()}


@pytest.fixture(params=i18n.LANGUAGES)
def any_language(request):
    i18n.use(request.param)
    yield request.param
    i18n.use("en")


def screen_now(rig: Rig) -> oled.Screen:
    now = rig.c.clock()
    return oled.screen(rig.c.game, rig.c.ui_state(now), now)


def carry_out(rig: Rig, text: str) -> bool:
    """Make decision ``text`` through the kit's inputs (True: the game took it)."""
    c = rig.c
    code = c.game.parse(text)
    made = len(c.game.history)
    for _ in range(10):
        for event in events_for(c, code):
            c.handle(event)
        if len(c.game.history) > made or c.lesson is None or c.lesson.run.wrong:
            break
        rig.advance(1.0)
    return len(c.game.history) > made


def complete(rig: Rig, seen: list[oled.Screen]) -> int:
    """The scripted player: select on each lesson screen, the step's decision made through
    the inputs. Returns how many presses and decisions it took."""
    c = rig.c
    actions = 0
    while c.lesson is not None and actions < 400:
        actions += 1
        view = c.lesson.view()
        seen.append(screen_now(rig))
        if view.showing:
            rig.press("select")
            continue
        assert carry_out(rig, c.lesson.run.expected()), rig.c.prompt
    return actions


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_a_scripted_player_completes_every_board_lesson_in_each_language(name, any_language):
    rig = Rig("buttons")
    BoardLesson.start(rig.c, LESSONS[name])
    seen: list[oled.Screen] = []
    complete(rig, seen)
    assert rig.c.lesson is None  # done: handed over
    assert rig.c.seat.colour == "yellow" and rig.c.seat.strength == LESSONS[name].handover
    problems = {p for s in seen for p in oled.problems(s)}
    assert problems == set()
    first = i18n.pgettext("lesson", LESSONS[name].steps[0].say)
    assert any(" ".join(s.lines[:-1]) == " ".join(oled.wrap(first)) for s in seen)


def test_a_scripted_player_completes_the_first_game_on_the_rfid_kit():
    rig = Rig("rfid")
    BoardLesson.start(rig.c, LESSONS["first-game"])
    complete(rig, [])
    assert rig.c.lesson is None and rig.c.game.round == 2


def reach_first_decision(rig: Rig, name: str = "first-game") -> BoardLesson:
    board = BoardLesson.start(rig.c, LESSONS[name])
    while board.view().kind == READ:
        rig.press("select")
    assert board.view().kind == DECIDE and board.view().showing
    rig.press("select")  # the words read: the board's own screen, the LEDs pointing
    return board


def test_the_leds_point_at_the_steps_zones():
    rig = Rig("buttons")
    board = reach_first_decision(rig)
    frame = rig.c.screen.last_frame  # the zone frame handed to the HAL
    for zone in board.view().point:
        segment, part = zone.split(".")
        assert frame[int(segment), part] == palette.led("legal")


def test_a_wrong_decision_on_the_board_gets_the_hint_and_the_way_back():
    rig = Rig("buttons")
    board = reach_first_decision(rig)
    step = board.run.step
    digest = rig.c.game.digest()
    wrong = wrong_decision(board.run)
    assert not carry_out(rig, wrong)
    assert rig.c.game.digest() == digest and board.view().kind == HINT
    shown = screen_now(rig)
    assert " ".join(oled.wrap(step.hint)) in " ".join(shown.lines)
    assert shown.lines[-1] == "back: step before"
    rig.press("back")  # the hint read: the step again
    assert board.view().kind == DECIDE and board.run.index == step.index - 1
    rig.press("back")  # the step before
    assert board.run.index == step.index - 2 and board.view().kind == READ


def test_back_takes_a_steps_decisions_and_replies_back_on_the_board():
    rig = Rig("buttons")
    board = reach_first_decision(rig)
    start = rig.c.game.digest()
    assert carry_out(rig, "4@3")
    rig.press("select")
    assert carry_out(rig, ">2G")  # and yellow replied 2@3, >4G
    assert len(rig.c.game.history) == 4
    rig.press("back")  # on the words of the step after: back to the shaman's step
    rig.press("back")  # back to the disc's step
    assert rig.c.game.digest() == start and board.run.index == 2


def test_a_long_press_on_back_leaves_the_lesson_and_the_game_stays():
    rig = Rig("buttons")
    reach_first_decision(rig)
    carry_out(rig, "4@3")
    rig.send(ButtonHeld("back"))
    assert rig.c.lesson is None and rig.c.game.history and rig.c.seat.colour is None


def booted(tmp_path) -> Rig:
    """A companion on a state directory, taught by haleakala.learn as ``haleakala run``
    does (``teach``: first boot when the journal did not exist)."""
    first = not (tmp_path / "journal.bin").exists()
    rig = Rig("buttons", journal=Journal(tmp_path))
    install(rig.c, first and not rig.c.game.history)
    return rig


def test_the_lesson_goes_on_after_a_restart_where_it_was(tmp_path):
    rig = booted(tmp_path)
    rig.press("select")  # first boot: the lesson list
    board = rig.c.lesson
    assert board is not None and (tmp_path / LESSON_FILE).is_file()
    while board.view().kind == READ:
        rig.press("select")
    rig.press("select")
    carry_out(rig, "4@3")
    index, digest = board.run.index, rig.c.game.digest()
    rig.c.say_bye()
    again = booted(tmp_path)
    assert again.c.lesson is not None
    assert again.c.lesson.run.index == index and again.c.game.digest() == digest
    assert again.c.panel.overlay is None  # no first-boot offer over a resumed game


def test_the_first_boot_offers_the_lessons_and_a_plain_game(tmp_path):
    rig = booted(tmp_path)
    shown = screen_now(rig)
    assert shown.title == "LEARN TO PLAY?"
    assert shown.lines[0] == "first game" and shown.lines[-1] == "play a game"
    rig.press("select")
    assert rig.c.lesson is not None and rig.c.lesson.run.lesson.name == "first-game"
    assert screen_now(rig).title == "WELCOME 1/26"


def test_the_menu_offers_the_lessons_and_during_one_a_way_out():
    rig = Rig("buttons")
    install(rig.c)
    rig.press("back")
    labels = [str(o.label) for o in rig.c.shown.options]
    assert "learn to play" in labels
    rig.press("back")
    reach_first_decision(rig)
    rig.press("back")  # the board's own screen: back opens the menu
    labels = [str(o.label) for o in rig.c.shown.options]
    assert "leave the lesson" in labels


def test_the_live_view_shows_watchers_the_lesson_step_even_when_the_game_stands_still():
    import json

    from haleakala.web.server import LiveView

    rig = Rig("buttons")
    live = LiveView("127.0.0.1", 0)  # not started: observe hands its update over as latest
    BoardLesson.start(rig.c, LESSONS["first-game"])
    assert live.observe(rig.c)
    first = json.loads(live.latest.data)["lesson"]
    assert first["step"] == 1 and first["say"] == LESSONS["first-game"].steps[0].say
    assert not live.observe(rig.c)  # nothing changed: nothing published
    rig.press("select")  # a step to read: the game is the same, the lesson moved on
    assert live.observe(rig.c)
    assert json.loads(live.latest.data)["lesson"]["step"] == 2
    rig.send(ButtonHeld("back"))  # left: the page shows no lesson
    assert live.observe(rig.c) and json.loads(live.latest.data)["lesson"] is None


def test_the_daemon_teaches_only_when_told_and_the_menu_stays_as_it_was_without():
    rig = Rig("buttons")
    rig.press("back")
    labels = [str(o.label) for o in rig.c.shown.options]
    assert "learn to play" not in labels  # a companion nobody taught: the menu of before


def test_starting_a_lesson_from_the_menu(tmp_path):
    rig = booted(tmp_path)
    rig.press("back")  # close the first boot's offer: a plain game
    rig.press("back")  # the menu
    labels = [str(o.label) for o in rig.c.shown.options]
    rig.send(*[EncoderTurned(1)] * labels.index("learn to play"))
    rig.press("select")
    assert str(rig.c.shown.title) == "LESSONS"
    rig.press("select")
    assert rig.c.lesson is not None and rig.c.lesson.run.lesson.name == "first-game"


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_lesson_screenshots_in_docs_are_what_the_companion_draws_today(language):
    """docs/learn/oled-*.png come from tools/lesson_screenshots.py (the real companion, the
    real lesson); a change of a lesson's words or of the screen must redraw them."""
    import importlib.util
    import sys
    from pathlib import Path

    from PIL import Image, ImageChops

    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root / "tools"))
    try:
        spec = importlib.util.spec_from_file_location(
            "lesson_shots", root / "tools" / "lesson_screenshots.py"
        )
        assert spec is not None and spec.loader is not None
        tool = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(tool)
    finally:
        sys.path.remove(str(root / "tools"))
    i18n.use(language)
    try:
        shots = tool.screens("first-game", tool.SHOTS["first-game"])
        stale = []
        for shot, s in shots.items():
            path = root / "docs" / "learn" / f"oled-{language}-first-game-{shot}.png"
            drawn = tool.picture(s, 1)
            if (
                not path.exists()
                or ImageChops.difference(Image.open(path).convert("L"), drawn).getbbox()
            ):
                stale.append(path.name)
        assert not stale, f"redraw with: tools/lesson_screenshots.py ({stale})"
        assert {"welcome", "first-disc", "hint", "eruption"} <= set(shots)
    finally:
        i18n.use("en")
