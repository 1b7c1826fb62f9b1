"""The coach: a legal recommendation in words with a reason, blind to the hidden pile
order, judged against the decision made; hints are ``hint`` records the replay skips."""

from __future__ import annotations

import io
import json
import random
from contextlib import redirect_stdout

from test_ai_ismcts import POSITIONS, with_pile_order_permuted

from haleakala.cli import main
from haleakala.games.haleakala import Game
from haleakala.games.haleakala.bots.coach import advise, explain, judge
from haleakala.games.haleakala.views.replayer import replay_log
from haleakala.games.haleakala.views.terminal import TerminalGame
from haleakala.games.haleakala.words.labels import decision_words


def test_the_hint_is_a_legal_decision_with_words_and_a_reason():
    for game in POSITIONS:
        hint = advise(game, iterations=80)
        assert hint.decision in game.legal_actions()
        assert hint.notation == game.format(hint.decision)
        assert hint.player == game.to_move and hint.ply == len(game.history)
        assert hint.words and hint.reason
        assert hint.decision in hint.chances
        assert 0.0 <= hint.chances[hint.decision] <= 1.0


def test_the_hint_does_not_depend_on_the_true_hidden_pile_order():
    for game in POSITIONS:
        hint = advise(game, iterations=80, seed=4)
        for k in range(2):
            other = advise(with_pile_order_permuted(game, k), iterations=80, seed=4)
            assert (other.decision, other.reason, other.chances) == (
                hint.decision,
                hint.reason,
                hint.chances,
            )


def test_the_reason_names_the_statue_a_card_builds():
    """Taking a Build a Statue card with the shaman on an empty mountain builds there."""
    for seed in range(200):
        game = Game("base", seed)
        rng = random.Random(seed)
        while not game.is_terminal() and game.phase_name != "card":
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if game.is_terminal():
            continue
        me = game.decider
        space = game.shaman[me]
        if space >= game.board.land_spaces or game.statue_owner[space] >= 0:
            continue
        for d in game.legal_actions():
            card = game.deck.cards[game.slots[d - 500]]
            if card.code == "statue":
                reason = str(explain(game, d))  # the English sentence
                assert f"builds a statue on {game.board.space_name(space)}" in reason
                return
    raise AssertionError("no position where a statue card could be taken was found")


def test_judging_says_followed_or_how_many_points_better():
    game = POSITIONS[0]
    hint = advise(game, iterations=200)
    assert "followed the hint" in str(judge(hint, hint.decision))
    others = [a for a in hint.chances if a != hint.decision]
    if others:
        words = str(judge(hint, others[0]))
        assert "point" in words and hint.notation in words


def test_decision_words_are_plain():
    game = Game("base", 3, "red")
    assert str(decision_words(game, 32)) == "place disc 3 on beach 2"
    assert str(decision_words(game, 300)).startswith("move the boat")


def test_hint_in_the_terminal_game_says_it_and_keeps_a_log_record():
    out = io.StringIO()
    lines = iter(["hint", "3@2", "quit"])
    tg = TerminalGame(Game("base", 3, "red"), [None, None], read=lambda p: next(lines), out=out)
    tg.run()
    text = out.getvalue()
    assert "hint for red: " in text
    assert "followed the hint" in text or "better" in text or "worse" in text
    assert len(tg.hints) == 1
    record = tg.hints[0]
    assert record["type"] == "hint" and record["ply"] == 0 and record["player"] == "red"
    assert Game("base", 3, "red").why_illegal(record["hint"]) is None


def test_replay_skips_hint_records():
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        assert main(["play", "--red", "random", "--yellow", "random", "--json", "--seed", "5"]) == 0
    lines = buffer.getvalue().splitlines()
    hint = {"type": "hint", "ply": 0, "player": "red", "hint": "3@2", "chance": 0.5,
            "reason": "test"}  # fmt: skip
    lines.insert(1, json.dumps(hint))
    assert replay_log(lines).is_terminal()


def test_the_board_menu_gives_a_hint_and_judges_the_next_decision():
    from support.companion_rig import Rig

    from haleakala.hal.events import ButtonPressed, EncoderTurned

    rig = Rig("buttons", seed=3)
    rig.press("back")
    labels = [str(o.label) for o in rig.c.shown.options]
    assert "hint" in labels
    rig.send(EncoderTurned(labels.index("hint")), ButtonPressed("select"))
    hint = rig.c.menus.given
    assert hint is not None and hint.ply == 0
    assert f"HINT: {hint.notation}" in rig.text()
    rig.c.decide(hint.decision, "player")
    assert "followed the hint" in rig.text()


def test_the_simulator_key_c_notes_the_hint_for_the_player_to_move():
    import pytest

    pytest.importorskip("pygame", reason="the simulator window needs pygame (the sim extra)")
    from types import SimpleNamespace

    from haleakala.simulator.window import SimWindow

    notes: list[str] = []
    game = Game("base", 3, "red")
    fake = SimpleNamespace(session=SimpleNamespace(game=game, note=notes.append))
    SimWindow._coach(fake)  # type: ignore[arg-type]
    assert len(notes) == 1 and str(notes[0]).startswith("coach: hint for red: ")
    assert game.history == []  # the game itself is untouched
