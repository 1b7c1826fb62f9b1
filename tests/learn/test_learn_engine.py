"""The lesson engine: a wrong decision gets the step's hint and changes nothing (never a dead
end: back to the step, back to the last step, or quit), the scripted replies follow the
right decision, a run saved and resumed is the same run, and the terminal front-end takes a
scripted player through every lesson in every language."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala import i18n
from haleakala.gameapi import GAMES, new_game
from haleakala.learn import lesson_paths, load
from haleakala.learn.check import play, wrong_decision
from haleakala.learn.cli import Terminal, board
from haleakala.learn.engine import DECIDE, DONE, HINT, READ, REFUSED, Run
from haleakala.learn.lesson import find

LESSONS = {load(p).name: load(p) for p in lesson_paths()}


def at_first_decision(name: str = "first-game") -> Run:
    run = Run(LESSONS[name])
    while run.screen().kind == READ:
        run.go_on()
    return run


def test_a_wrong_decision_gets_the_hint_and_pointer_and_changes_nothing():
    run = at_first_decision()
    digest, index = run.game.digest(), run.index
    outcome = run.offer("1@2")
    assert not outcome.accepted and outcome.kind == HINT
    screen = run.screen()
    assert screen.kind == HINT and screen.say == run.step.hint
    assert screen.point == run.step.shown_point
    assert (run.game.digest(), run.index) == (digest, index)


def test_an_illegal_decision_says_the_rule_and_the_hint():
    run = at_first_decision()
    run.offer("boat")  # R6: only with all five discs out
    screen = run.screen()
    assert screen.kind == REFUSED and screen.reason and screen.say == run.step.hint


def test_text_that_is_not_notation_is_refused_like_an_illegal_decision():
    run = at_first_decision()
    assert run.offer("fly to the moon").kind == REFUSED


def test_back_from_a_hint_returns_to_the_step_and_back_again_to_the_last_step():
    run = at_first_decision()
    run.offer("1@2")
    assert run.back() and run.screen().kind == DECIDE and run.index == 2
    assert run.back() and run.index == 1 and run.screen().kind == READ


def test_back_takes_the_steps_decisions_and_replies_back():
    run = at_first_decision()
    start = run.game.digest()
    run.offer("4@3")
    outcome = run.offer(">2G")
    assert outcome.accepted and outcome.replies == (("yellow", "2@3"), ("yellow", ">4G"))
    run.back()
    run.back()
    assert run.game.digest() == start and run.index == 2


def test_the_first_step_has_no_way_back_but_the_learner_may_still_quit():
    run = Run(LESSONS["first-game"])
    assert run.back() is False and run.index == 0


def test_the_right_decision_advances_and_the_other_side_replies():
    run = at_first_decision()
    run.offer("4@3")
    run.offer(">2G")
    assert run.game.to_move == "red" and run.game.legal_decisions()
    assert run.played[-2:] == ["2@3", ">4G"]


def test_a_condition_step_admits_any_decision_matching_it():
    from haleakala.learn.lesson import Allow, Step

    step = Step(1, "any", "x", allow=Allow(r"^\d@3$", "4@3"), hint="h")
    assert step.admits("2@3") and not step.admits("2@4")


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_a_scripted_player_completes_every_lesson_through_the_engine(name, any_language):
    report = play(LESSONS[name], any_language)
    assert report.ok, report.line()
    assert report.decisions >= 2 and report.screens > len(LESSONS[name].steps)
    assert report.first_placement_s is not None and report.first_placement_s < 60


@pytest.fixture(params=i18n.LANGUAGES)
def any_language(request):
    yield request.param
    i18n.use("en")


def scripted_answers(lesson) -> list[str]:
    """What a learner types: Enter on each step to read, the decision on each other, and a
    wrong decision then "back" at the first decision (the hint, and the way back)."""
    run = Run(lesson)
    answers: list[str] = []
    tried = False
    while not run.done:
        step = run.step
        if not step.decides:
            answers.append("")
            run.go_on()
            continue
        if not tried:
            wrong = wrong_decision(run)
            if wrong is not None:
                answers += [wrong, ""]
            tried = True
        answers.append(step.scripted)
        run.offer(step.scripted)
    return answers


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_a_scripted_player_completes_every_lesson_at_the_terminal(name, any_language):
    i18n.use(any_language)
    lesson = load(find(name))
    answers = iter([*scripted_answers(lesson), "quit"])

    def read(_prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    terminal = Terminal(lesson, read=read, out=out)
    assert terminal.run() == 0
    text = out.getvalue()
    assert terminal.run_.done, text[-2000:]
    assert max(map(len, text.splitlines())) <= 80  # long sentences are wrapped at spaces
    joined = " ".join(text.split())  # so a sentence is found across its wrapped lines

    def shown(key: str) -> bool:
        return " ".join(i18n.pgettext("lesson", key).split()) in joined

    assert shown(lesson.steps[0].say)
    assert shown(lesson.steps[-1].say)
    first_decision = next(s for s in lesson.steps if s.decides)
    assert shown(first_decision.hint)  # the hint was shown


def test_a_lesson_hands_over_to_its_games_own_terminal_session_for_every_seat():
    """Kanaloa's lesson (its learner is yellow, the second seat) plays on in Kanaloa's own
    terminal game, the gentlest bot in the other seat, reading the lesson's input."""
    lesson = LESSONS["kanaloa"]
    answers = iter([*scripted_answers(lesson), "map", "quit"])

    def read(_prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    assert Terminal(lesson, read=read, out=out).run() == 0
    after = out.getvalue().split("Lesson complete.")[1]
    assert "red is the child bot; yellow is a person" in after
    assert "Volcano tiles:" in after  # Kanaloa's map, drawn by Kanaloa's session


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_lesson_terminal_draws_every_games_table(name):
    """The board beside a lesson's words is the game's own terminal drawing, found through
    its description, for every registered game (no game named in the lesson front-end)."""
    game = new_game(name, seed=1)
    for seat in range(len(game.players)):
        assert board(game, seat).strip()


def test_quit_leaves_the_lesson_with_how_to_come_back():
    answers = iter(["", "quit"])
    out = io.StringIO()
    assert Terminal(LESSONS["first-game"], read=lambda _p: next(answers), out=out).run() == 0
    assert "haleakala learn first-game" in out.getvalue()


def test_a_finished_run_says_done():
    run = Run(LESSONS["kahuna"])
    for step in LESSONS["kahuna"].steps:
        run.offer(step.scripted) if step.decides else run.go_on()
    assert run.done and run.screen().kind == DONE


actions = st.lists(
    st.one_of(st.just("on"), st.just("back"), st.just("right"), st.integers(0, 40)),
    max_size=40,
)


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(LESSONS)), script=actions)
def test_a_saved_run_resumes_as_the_same_run_whatever_the_learner_did(name, script):
    """Invariant: to_dict/from_dict is the identity on what matters (step, game), and the
    run's game is always the lesson's game replayed with the decisions it played."""
    lesson = LESSONS[name]
    run = Run(lesson)
    for action in script:
        if run.done:
            break
        if action == "on":
            run.go_on()
        elif action == "back":
            run.back()
        elif action == "right" and run.step.decides:
            run.offer(run.step.scripted)
        elif isinstance(action, int):
            legal = run.game.legal_decisions()
            run.offer(legal[action % len(legal)])
        assert run.marks[-1] <= len(run.played) and len(run.marks) == run.index + 1
    again = Run.from_dict(lesson, run.to_dict())
    assert again.index == run.index and again.game.digest() == run.game.digest()


def test_a_saved_run_of_another_lesson_or_a_damaged_one_is_refused_in_one_sentence():
    saved = Run(LESSONS["kahuna"]).to_dict()
    with pytest.raises(ValueError, match="saved for lesson 'kahuna'"):
        Run.from_dict(LESSONS["first-game"], saved)
    with pytest.raises(ValueError, match="does not replay"):
        Run.from_dict(LESSONS["kahuna"], {**saved, "played": ["nonsense"], "marks": [0]})


@pytest.mark.parametrize("language", ["de", "fr"])
def test_kanaloas_lesson_says_a_refusal_of_the_rules_in_the_learners_language(language):
    """The rules make Kanaloa's refusal as a value, so the lesson shows it in German or
    French, its ruling named, with none of the English sentence the log keeps."""
    from support.leaks import english_words

    lesson = LESSONS["kanaloa"]
    run = Run(lesson)
    while not run.step.decides:
        run.go_on()
    game = run.game
    illegal = next(d for d in range(game.c.total) if game.refusal(d) is not None)
    text = game.format(illegal)
    outcome = run.offer(text)
    assert outcome.kind == REFUSED and outcome.reason == game.why_illegal(text)
    i18n.use(language)
    try:
        said = Terminal(lesson, run=run).refusal(outcome.reason)
    finally:
        i18n.use("en")
    assert said != outcome.reason and "(N" in said
    unquoted = said.replace(repr(text), "")
    assert [w for w in english_words(unquoted, language) if w not in text] == []
