"""Decisions as values (``rules/decision.py``) and refusals with a kind and a ruling.

Round trips over every legal decision of random games, and one position per refusal
kind: the kind and ruling (R6, R7, R8, R10, R16, R17, R25, R26, R27) that programs match
must name the same rule as the sentence people read.
"""

import random
import typing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.positions import RED, YELLOW, give, new, place_disc, put_slot, shaman_to, touch

from haleakala.games.haleakala import IllegalDecision, NotationError, decode, encode
from haleakala.games.haleakala.decision import (
    Boat,
    Buy,
    Keep,
    Lava,
    Pass,
    Place,
    RefusalKind,
    Return,
    Shaman,
    Take,
    beach_of,
    is_placement,
    is_return,
    is_turn_action,
    parse,
    text,
    undo_of,
)
from haleakala.games.haleakala.game import PRESCORE
from haleakala.games.haleakala.notation import all_codes, format_decision, parse_decision

KINDS = set(typing.get_args(RefusalKind))


def test_decoded_values_read_as_the_notation_says():
    b = new().board
    assert decode(parse_decision("3@2")) == Place(3, 2)
    assert decode(parse_decision("3@2*")) == Place(3, 2, invoke=True)
    assert decode(parse_decision("-3@2")) == Return(3, 2)
    assert decode(parse_decision("boat")) == Boat()
    assert decode(parse_decision(">stay")) == Shaman(None)
    assert decode(parse_decision(">2G")) == Shaman(b.parse_space("2G"))
    assert decode(parse_decision("take 2b")) == Take(b.parse_slot("2b"))
    assert decode(parse_decision("lava none")) == Lava(None, None)
    assert decode(parse_decision("lava 0>5")) == Lava(0, 5)  # counter-clockwise wraps
    assert decode(parse_decision("buy forest")) == Buy("forest")
    assert decode(parse_decision("keep")) == Keep()
    assert decode(parse_decision("pass")) == Pass()


def test_every_code_of_the_board_decodes_and_encodes_back():
    board = new().board
    for code in all_codes(board):
        decision = decode(code, board)
        assert encode(decision, board) == code
        assert text(decision, board) == format_decision(code, board)
        assert parse(text(decision, board), board) == decision


def test_a_number_that_is_no_decision_is_refused_by_decode_and_encode():
    with pytest.raises(NotationError, match="not a decision code"):
        decode(299)
    with pytest.raises(NotationError, match="not a decision"):
        encode(Buy("volcano"))
    with pytest.raises(NotationError, match="not next to crater"):
        encode(Lava(0, 3))


def test_the_bots_int_questions_agree_with_the_decoded_value():
    board = new().board
    for code in all_codes(board):
        move = decode(code, board)
        assert is_turn_action(code) == isinstance(move, Place | Return | Boat)
        assert is_placement(code) == isinstance(move, Place)
        assert is_return(code) == isinstance(move, Return)
        if isinstance(move, Place | Return):
            assert beach_of(code) == move.beach
            undone = decode(undo_of(code), board)
            assert (undone.value, undone.beach) == (move.value, move.beach)
            assert isinstance(undone, Return) == isinstance(move, Place)
            assert not getattr(undone, "invoke", False)
        else:
            assert undo_of(code) is None


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    variant=st.sampled_from(["base", "tactical"]),
    steps=st.integers(0, 500),
)
def test_every_legal_decision_of_a_random_game_round_trips(seed, variant, steps):
    game = new(variant, seed=seed)
    rng = random.Random(seed)
    board = game.board
    for _ in range(steps):
        if game.is_terminal():
            break
        legal = game.legal_actions()
        for code in legal:
            decision = decode(code, board)
            assert encode(decision, board) == code
            assert parse(text(decision, board), board) == decision
        game.apply(rng.choice(legal))


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    variant=st.sampled_from(["base", "tactical"]),
    steps=st.integers(0, 400),
)
def test_every_refusal_of_a_random_position_has_a_kind_and_names_its_ruling(seed, variant, steps):
    game = new(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_terminal():
            break
        game.apply(rng.choice(game.legal_actions()))
    legal = set(game.legal_actions())
    for code in all_codes(game.board):
        refusal = game.refusal(code)
        assert (refusal is None) == (code in legal)
        if refusal is not None:
            assert refusal.kind in KINDS
            assert refusal.text == game.why_illegal(code)
            if refusal.ruling is not None:
                assert refusal.ruling in refusal.text


# -- one position per refusal kind ------------------------------------------------------


def arrive_at_1(g=None):
    """Yellow has disc 3 on beach 1; red sails the boat there: yellow chooses a card."""
    g = g or new()
    place_disc(g, YELLOW, 3, 1)
    g.apply("1@0")
    return g


def after(*decisions):
    g = new()
    for d in decisions:
        g.apply(d)
    return g


def shell_phase():
    g = new()
    put_slot(g, 2, "shell")
    arrive_at_1(g).apply("take 1a")
    return g


def priestess_phase():
    g = new()
    g.lava = [0, 0, 2, 0, 0, 0]
    put_slot(g, 2, "priestess")
    arrive_at_1(g).apply("take 1a")
    return g


def with_discs(variant="base", **changes):
    g = new(variant)
    for who, value, beach in changes.get("discs", ()):
        place_disc(g, who, value, beach)
    for name, value in changes.items():
        if name != "discs":
            setattr(g, name, value)
    touch(g)
    return g


def prescore_phase():
    g = new()
    g._await(YELLOW, PRESCORE, ())
    touch(g)
    return g


def face_down_priestess():
    g = shell_phase()
    g.board_owner[5] = 2
    touch(g)
    return g


def majority_owned():
    g = shell_phase()
    give(g, YELLOW, "shell")
    g.board_owner[2] = RED
    touch(g)
    return g


def empty_slot():
    g = new()
    g.discard.append(g.slots[3])
    g.slots[3] = -1
    return arrive_at_1(g)


def other_shaman_in_the_way():
    g = new()
    shaman_to(g, RED, "2G")
    shaman_to(g, YELLOW, "3G")
    g.apply("1@3")
    return g


def game_over():
    g = new()
    rng = random.Random(5)
    while not g.is_terminal():
        g.apply(rng.choice(g.legal_actions()))
    return g


REFUSALS = [
    # (position, decision, kind, ruling)
    (new, "7@2", "notation", None),
    (game_over, "boat", "game_over", "R21"),
    (new, ">stay", "wrong_phase", "R6"),
    (new, "-3@2", "disc_not_there", "R6"),
    (lambda: with_discs(discs=[(YELLOW, 3, 2)]), "3@2", "sum_rule", "R7"),
    (
        lambda: with_discs(discs=[(RED, 3, 2), (RED, 2, 2), (YELLOW, 2, 2)]),
        "-3@2",
        "sum_rule",
        "R7",
    ),
    (lambda: with_discs(discs=[(RED, 3, 2)]), "3@4", "disc_already_out", "R6"),
    (new, "1@0*", "invocation_tactical_only", "R25"),
    (lambda: with_discs("tactical", invocation=[3, -1]), "1@0*", "invocation_on_island", "R27"),
    (lambda: new("tactical"), "1@2*", "invocation_beach", "R26"),
    (lambda: with_discs("tactical", lava=[1, 1, 1, 1, 0, 0]), "1@0*", "lava_exhausted", "R26"),
    (new, "boat", "discs_in_supply", "R6"),
    (other_shaman_in_the_way, ">3G", "shaman_occupied", "R8"),
    (lambda: after("1@3"), ">2M", "shaman_reach", "R8"),
    (arrive_at_1, "take 2a", "card_segment", "R10"),
    (empty_slot, "take 1b", "slot_empty", "R10"),
    (priestess_phase, "lava none", "lava_must_move", "R16"),
    (priestess_phase, "lava 0>1", "no_lava_there", "R16"),
    (prescore_phase, "keep", "say_pass", "R19"),
    (shell_phase, "pass", "say_keep", "R17"),
    (face_down_priestess, "buy priestess", "priestess_face_down", "R17"),
    (majority_owned, "buy majority", "item_taken", "R17"),
    (shell_phase, "buy majority", "too_few_shells", "R17"),
]


def test_not_your_decision_is_a_refusal_kind_of_its_own():
    refusal = new().refusal("1@3", player="yellow")
    assert (refusal.kind, refusal.text, refusal.ruling) == (
        "not_your_decision",
        "R6: players take turns, and this decision is red's, not yellow's; "
        "wait until red has decided",
        "R6",
    )


@pytest.mark.parametrize(
    ("position", "decision", "kind", "ruling"),
    REFUSALS,
    ids=[f"{r[2]}-{r[3] or 'none'}" for r in REFUSALS],
)
def test_each_refusal_carries_its_kind_and_ruling(position, decision, kind, ruling):
    g = position()
    refusal = g.refusal(decision)
    assert refusal is not None, g.legal_decisions()
    assert (refusal.kind, refusal.ruling) == (kind, ruling), refusal.text
    assert g.why_illegal(decision) == refusal.text
    if ruling is not None:
        assert ruling in refusal.text  # the sentence names the same rule
    before = g.digest()
    with pytest.raises(IllegalDecision) as caught:
        g.apply(decision)
    assert caught.value.refusal == refusal
    assert (caught.value.kind, caught.value.ruling, str(caught.value)) == (
        kind,
        ruling,
        refusal.text,
    )
    assert g.digest() == before  # refused: nothing changed


def test_every_refusal_kind_has_a_position_here():
    covered = {r[2] for r in REFUSALS} | {"not_your_decision", "not_allowed"}
    assert covered == KINDS


def test_an_illegal_decision_built_from_a_sentence_is_not_allowed_without_ruling():
    exc = IllegalDecision("no such thing")
    assert (exc.kind, exc.ruling, exc.refusal.text) == ("not_allowed", None, "no such thing")
