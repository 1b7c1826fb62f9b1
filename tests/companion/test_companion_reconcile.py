"""``reconcile.judge`` as a pure function: what a sensed board means, with no controller.

Random positions come from the seeded policy playing a seeded game; the sensed boards are
the game's own, the board after a player's hands carried out a legal disc decision
(``hands.laid_out``), or that board with a stranger on it.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from support.played_positions import POSITIONS, position

from haleakala.companion import reconcile as R
from haleakala.companion.hands import disc_move, laid_out
from haleakala.companion.physical import beach_discs
from haleakala.games.haleakala import Game
from haleakala.games.haleakala.decision import Place, Return, decode, encode
from haleakala.games.haleakala.game import TURN
from haleakala.hal.events import Disc, UnknownTag


def english(verdict: R.Verdict) -> R.Verdict:
    """A refusal with its words as the English sentences (the log's), to compare."""
    if isinstance(verdict, R.Refused):
        return R.Refused(str(verdict.headline), str(verdict.reason))
    return verdict


def disc_decisions(game: Game) -> list[int]:
    return [d for d in game.legal_actions() if isinstance(decode(d, game.board), Place | Return)]


@settings(max_examples=80, deadline=None)
@given(game=POSITIONS, companion=st.sampled_from([None, "red", "yellow"]), data=st.data())
def test_a_sensed_board_equal_to_the_games_is_never_refused(game, companion, data):
    legal = game.legal_actions()
    proposal = data.draw(st.sampled_from([None, *legal])) if legal else None
    verdict = R.judge(game, beach_discs(game), companion=companion, proposal=proposal)
    assert verdict == R.Agrees()


@settings(max_examples=60, deadline=None)
@given(game=POSITIONS)
def test_laying_out_any_legal_disc_decision_is_judged_exactly_that_decision(game):
    assume(game.phase == TURN and disc_decisions(game))
    for d in disc_decisions(game):
        verdict = R.judge(game, laid_out(game, d), companion=None, proposal=None)
        assert isinstance(verdict, R.Decided), (game.format(d), verdict)
        assert verdict.decision == d and verdict.by == "player"
        move = decode(d, game.board)
        may_follow = (
            isinstance(move, Place)
            and not move.invoke
            and move.beach == game.boat
            and encode(replace(move, invoke=True)) in game.legal_actions()
        )
        assert verdict.settles == (isinstance(move, Return) or may_follow)


@settings(max_examples=60, deadline=None)
@given(game=POSITIONS, data=st.data())
def test_the_companions_decision_counts_only_once_laid_out_as_it_said(game, data):
    decisions = disc_decisions(game)
    assume(game.phase == TURN and decisions)
    me = game.to_move
    d = data.draw(st.sampled_from(decisions))
    whole = laid_out(game, d)
    assert R.judge(game, whole, companion=me, proposal=d) == R.Decided(d, "bot")
    move = disc_move(game, d)
    if len(move.laid) == 2:  # the number disc first: on the way there, nothing to say
        half = laid_out(game, encode(Place(move.laid[0].value, move.beach)))
        assert R.judge(game, half, companion=me, proposal=d) == R.Wait()
    on_the_way = {encode(Place(move.laid[0].value, move.beach))} if len(move.laid) == 2 else set()
    for other in decisions:  # any other disc move is not what the companion said
        if other != d and other not in on_the_way:
            verdict = R.judge(game, laid_out(game, other), companion=me, proposal=d)
            assert isinstance(verdict, R.Refused) and str(verdict.headline) == "COMPANION'S TURN"
    thinking = R.judge(game, whole, companion=me, proposal=None)
    assert isinstance(thinking, R.Refused) and "still thinking" in str(thinking.reason)


@settings(max_examples=60, deadline=None)
@given(game=POSITIONS, beach=st.integers(0, 5), data=st.data())
def test_a_tag_that_is_no_disc_is_named_before_any_other_judgement(game, beach, data):
    board = list(beach_discs(game))
    decisions = disc_decisions(game) if game.phase == TURN else []
    if decisions:  # whatever else happened on the board
        board = list(laid_out(game, data.draw(st.sampled_from(decisions))))
    stranger = UnknownTag("E0040150DEADBEEF")
    board[beach] = board[beach] | {stranger}
    companion = data.draw(st.sampled_from([None, "red", "yellow"]))
    verdict = R.judge(game, board, companion=companion, proposal=None)
    assert english(verdict) == R.Refused(
        str(R.UNKNOWN_TAG),
        f"Beach {beach} holds tag {stranger}, no disc of this kit: take it off "
        "(or enrol it: haleakala tags enroll).",
    )


@settings(max_examples=40, deadline=None)
@given(game=POSITIONS)
def test_the_other_colours_disc_is_out_of_turn_and_never_a_decision(game):
    assume(game.phase == TURN)
    other = "yellow" if game.to_move == "red" else "red"
    board = list(beach_discs(game))
    spare = [v for v in game.board.discs if all(Disc(other, v) not in b for b in board)]
    assume(spare)
    board[0] = board[0] | {Disc(other, spare[0])}
    verdict = R.judge(game, board, companion=None, proposal=None)
    said = f"It is {game.to_move}'s turn, not {other}'s."
    assert english(verdict) == R.Refused("OUT OF TURN", said)


def test_a_disc_against_the_sum_rule_is_refused_with_its_headline_and_the_rules_words():
    """R7: the refusal's kind picks the OLED headline (never its sentence), the rules'
    sentence is the reason, and the game is not asked to decide anything."""
    for seed in range(40):
        game = position("base", seed, seed % 25)
        if game.phase != TURN:
            continue
        colour = game.to_move
        for v in game.board.discs:
            for b in range(game.board.segments):
                refusal = game.refusal(encode(Place(v, b)))
                if refusal is None or refusal.kind != "sum_rule":
                    continue
                if any(Disc(colour, v) in beach for beach in beach_discs(game)):
                    continue
                board = list(beach_discs(game))
                board[b] = board[b] | {Disc(colour, v)}
                verdict = R.judge(game, board, companion=None, proposal=None)
                assert english(verdict) == R.Refused("SUM RULE", refusal.text)
                assert refusal.ruling == "R7"
                return
    raise AssertionError("no position with a placement against the sum rule")
