"""The terminal game driven by a script: refusals, undo, save/load, help, end of input."""

from __future__ import annotations

import io
import json
import random

from haleakala.ai import make_bot
from haleakala.games.haleakala import Game
from haleakala.games.haleakala.views import render
from haleakala.games.haleakala.views.terminal import CLEAR_SCREEN, TerminalGame
from haleakala.terminal.play import use_color


class Script:
    """A person at the keyboard: returns the scripted lines, then the end of input."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def flat(text: str) -> str:
    """The output with its 80-column line breaks undone (words joined by single spaces)."""
    return " ".join(text.split())


def session(*lines: str, seats=(None, None), game: Game | None = None, **options):
    out = io.StringIO()
    tg = TerminalGame(
        game or Game("base", seed=3, start="red"), seats, read=Script(*lines), out=out, **options
    )
    return tg, out


def test_a_refused_decision_gives_the_engines_reason_and_changes_nothing():
    tg, out = session("3@2", ">stay", "3@2")
    status = tg.run()
    assert status == 0
    assert len(tg.game.history) == 2  # the third decision was refused
    reason = tg.game.why_illegal("3@2")
    assert reason and reason.startswith("R7 sum rule")
    assert flat(f"refused: {reason}") in flat(out.getvalue())


def test_refusal_leaves_the_position_identical():
    game = Game("base", seed=3, start="red")
    tg, out = session("boat", "9@9", "take 0a", ">2G", "buy forest", game=game)
    before = game.digest()
    tg.run()
    assert tg.game.digest() == before and tg.game.history == []
    refusals = [line for line in out.getvalue().splitlines() if line.startswith("refused: ")]
    assert len(refusals) == 5
    assert flat("refused: " + game.why_illegal("boat")) in flat(out.getvalue())
    assert "there is no number disc 9" in refusals[1]


def test_a_decision_for_the_wrong_player_is_refused():
    tg, out = session("yellow 3@2", "red: 3@2")
    tg.run()
    assert "refused: R6: players take turns, and this decision is red's, not yellow's" in flat(
        out.getvalue()
    )
    assert [tg.game.format(d) for d in tg.game.history] == ["3@2"]


def test_malformed_notation_says_what_a_decision_looks_like():
    tg, out = session("place three on two")
    tg.run()
    line = next(x for x in out.getvalue().splitlines() if x.startswith("refused:"))
    assert "is not a decision" in line and "3@2" in line
    assert tg.game.history == []


def legal_blocks(text: str) -> list[list[str]]:
    """The decisions listed after each prompt (``  legal: ...`` and its wrapped lines)."""
    blocks: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("  legal: "):
            blocks.append(line.split()[1:])
            inside = True
        elif inside and line.startswith(" " * 9):
            blocks[-1] += line.split()
        else:
            inside = False
    return blocks


def test_legal_lists_every_decision_and_the_prompt_a_compact_form():
    tg, out = session("legal", "1@2", "legal")
    tg.run()
    game = Game("base", seed=3, start="red")
    # prompt, legal, prompt again; then the shaman's prompt, legal, prompt again
    compact, full, again, shaman, shaman_full, _ = legal_blocks(out.getvalue())
    assert again == compact
    assert " ".join(compact) == "30 placements of disc 1/2/3/4/5 (like 1@0) – type legal for all"
    assert full == game.legal_decisions()
    game.apply("1@2")
    assert shaman == shaman_full == game.legal_decisions()  # short lists are shown whole


def test_undo_takes_back_the_persons_decision_and_the_bot_decisions_after_it():
    bot = make_bot("random", 5)
    game = Game("base", seed=3, start="red")
    tg, out = session("3@2", ">stay", "undo", seats=(None, bot), game=game)
    after_place = game.clone()
    after_place.apply("3@2")
    tg.run()
    assert tg.game.digest() == after_place.digest()
    assert tg.game.history == after_place.history
    undone = next(x for x in out.getvalue().splitlines() if x.startswith("undone:"))
    assert undone.startswith("undone: >stay and ") and "bot decision" in undone


def test_undo_all_the_way_back_then_nothing_to_undo():
    tg, out = session("3@2", ">stay", "undo", "undo", "undo")
    start = Game("base", seed=3, start="red").digest()
    tg.run()
    assert tg.game.digest() == start
    assert "nothing to undo" in out.getvalue()


def test_save_and_load_round_trip(tmp_path):
    path = tmp_path / "game.json"
    tg, out = session("3@2", ">stay", f"save {path}", "1@4", ">stay", f"load {path}")
    tg.run()
    saved = Game.from_json(path.read_text())
    assert [saved.format(d) for d in saved.history] == ["3@2", ">stay"]
    assert tg.game.digest() == saved.digest()
    assert tg.game.history == saved.history
    assert f"loaded {path}" in out.getvalue()


def test_a_corrupt_save_is_refused_in_one_line_and_the_game_goes_on(tmp_path):
    good = Game("base", seed=3, start="red")
    data = json.loads(good.to_json())
    data["boat"] = 9  # hand-edited: there is no segment 9
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    tg, out = session(
        "3@2", f"load {edited}", f"load {garbage}", f"load {tmp_path / 'missing.json'}", ">stay"
    )
    tg.run()
    lines = [x for x in out.getvalue().splitlines() if x.startswith("cannot load")]
    assert len(lines) == 3  # one line each, however long the path: never wrapped
    assert "$.boat" in lines[0] and "the game goes on" in lines[0]
    assert "not a saved game" in lines[1]
    assert "No such file" in lines[2]
    assert [tg.game.format(d) for d in tg.game.history] == ["3@2", ">stay"]


def test_save_to_an_impossible_place_says_so_and_the_game_goes_on(tmp_path):
    tg, out = session(f"save {tmp_path / 'no' / 'such' / 'dir.json'}", "save", "1@2")
    tg.run()
    text = out.getvalue()
    assert "cannot save to" in text and "save needs a file name" in text
    assert len(tg.game.history) == 1


def test_help_lists_the_notation_and_the_commands():
    tg, out = session("help")
    tg.run()
    text = out.getvalue()
    for needle in ("3@2*", "-3@2", ">2G", "take 2a", "lava 3>4", "buy forest", "keep", "pass",
                   "undo", "save FILE", "load FILE", "quit"):  # fmt: skip
        assert needle in text


def test_end_of_input_and_quit_end_cleanly():
    tg, out = session()
    assert tg.run() == 0
    assert "end of input" in out.getvalue()
    tg, out = session("quit", "3@2")
    assert tg.run() == 0
    assert tg.game.history == []


def test_bot_decisions_are_printed_as_they_happen():
    bot = make_bot("greedy", 1)
    tg, out = session("3@2", ">stay", seats=(None, bot))
    tg.run()
    game = tg.game
    bot_lines = [x for x in out.getvalue().splitlines() if x.startswith("yellow (greedy) ")]
    yellow_turn = [game.format(d) for d in game.history[2:]]
    # notation, then the same decision in words
    assert [x.split(" ", 2)[2].split(": ", 1)[0] for x in bot_lines] == yellow_turn
    assert bot_lines[0].split(": ", 1)[1].startswith("Yellow ")


def test_two_people_can_play_a_whole_game_to_the_result():
    rng = random.Random(4)
    holder: dict = {}

    def person(prompt: str) -> str:
        game = holder["tg"].game
        if rng.random() < 0.05:
            return "5@9"  # a typo now and then: refused, game unchanged
        return rng.choice(game.legal_decisions())

    tg = TerminalGame(Game("tactical", seed=8), (None, None), read=person, out=io.StringIO())
    holder["tg"] = tg
    assert tg.run() == 0
    assert tg.game.is_terminal()
    last = tg.out.getvalue().rstrip().splitlines()[-1]
    assert last == render.describe_result(tg.game.result())


def test_watching_two_bots_draws_the_board_after_every_turn_and_pauses():
    pauses: list[float] = []
    bots = (make_bot("random", 1), make_bot("random", 2))
    tg, out = session(seats=bots, watch=True, delay=0.25, sleep=pauses.append, clear=True)
    tg.run()
    text = out.getvalue()
    boards = text.count("\nseg boat")
    # One board per turn: every time the turn passes to the other player, and at the end.
    replay = Game("base", seed=3, start="red")
    turns = 0
    for decision in tg.game.history:
        before = replay.current
        replay.apply(decision)
        turns += replay.is_terminal() or replay.current != before
    assert boards == turns == len(pauses) == text.count(CLEAR_SCREEN)
    assert set(pauses) == {0.25}
    assert text.rstrip().splitlines()[-1].startswith("game over:")


def test_bots_without_watching_print_decisions_and_one_final_board():
    bots = (make_bot("random", 1), make_bot("random", 2))
    tg, out = session(seats=bots)
    tg.run()
    text = out.getvalue()
    assert text.count("\nseg boat") == 1
    decisions = [
        x for x in text.splitlines() if x.startswith(("red (random) ", "yellow (random) "))
    ]
    assert len(decisions) == len(tg.game.history)


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    assert use_color(FakeTTY()) is True
    assert use_color(io.StringIO()) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_color(FakeTTY()) is False


def test_a_person_is_never_asked_to_type_their_only_legal_decision():
    """A pass with nothing to buy, a boat that must move: made for them, as the OLED goes
    on by itself (issue 23: the terminal made a player type 'pass')."""
    out = io.StringIO()
    rng = random.Random(5)
    asked_with_one_choice = []
    forced_seen = []

    def person(prompt: str) -> str:
        legal = tg.game.legal_actions()
        if len(legal) == 1:
            asked_with_one_choice.append(tg.game.format(legal[0]))
        return tg.game.format(rng.choice(legal))

    tg = TerminalGame(Game("base", seed=3, start="red"), (None, None), read=person, out=out)
    original = tg.forced
    tg.forced = lambda d: (forced_seen.append(tg.game.format(d)), original(d))[1]
    assert tg.run() == 0
    assert tg.game.is_terminal()
    assert asked_with_one_choice == []
    assert "pass" in forced_seen
    assert ": only choice – goes on" in out.getvalue()


def test_undo_after_a_forced_decision_takes_it_back_without_calling_it_a_bot_decision():
    game = Game("base", seed=3, start="red")
    rng = random.Random(1)
    tg, out = session(seats=(None, None), game=game)
    while True:  # play until a forced decision has just been made for the person to move
        legal = tg.game.legal_actions()
        if len(legal) == 1:
            break
        tg.decide(tg.game.format(rng.choice(legal)))
    before = len(tg.game.history)
    tg.forced(tg.game.legal_actions()[0])
    tg.command("undo")
    assert len(tg.game.history) == before - 1
    said = out.getvalue().splitlines()[-1]
    assert said.startswith("undone: ") and "bot" not in said
