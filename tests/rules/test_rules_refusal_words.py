"""Refusal wording (issue 13, Build 4): every refusal names its rule by number, says what the
rule means, and offers a decision that is legal now; the cases players tripped over are named
tests. The kinds and rulings programs match are pinned in ``test_rules_decision``."""

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.positions import RED, YELLOW, give, new, place_disc, shaman_to, touch
from test_rules_decision import REFUSALS, empty_slot

from haleakala.games.haleakala.game import PRESCORE
from haleakala.games.haleakala.notation import all_codes
from haleakala.games.haleakala.refusals import discs_left_in_supply, ngettext, shells_too_few

RULE_NUMBER = re.compile(r"\bR\d+\b")
# A refusal without a legal decision to offer says what to do in words instead.
WORDED = ("start a new game", "wait until")


def offers_a_legal_decision(text: str, legal: list[str]) -> bool:
    """Does the sentence name a decision legal now? Word-like decisions (boat, keep, pass,
    lava none) count only where offered as one: in brackets or after "say"."""
    for decision in legal:
        if decision in ("boat", "keep", "pass", "lava none"):
            if f"({decision})" in text or f"say {decision}" in text:
                return True
        elif decision in text:
            return True
    return False


def says_what_to_do(text: str, legal: list[str]) -> bool:
    return offers_a_legal_decision(text, legal) or any(w in text for w in WORDED)


@pytest.mark.parametrize(
    ("position", "decision", "kind", "ruling"),
    [r for r in REFUSALS if r[2] != "notation"],
    ids=[f"{r[2]}-{r[3]}" for r in REFUSALS if r[2] != "notation"],
)
def test_each_refusal_kind_names_a_rule_number_and_what_to_do_instead(
    position, decision, kind, ruling
):
    g = position()
    refusal = g.refusal(decision)
    assert refusal.kind == kind
    assert refusal.ruling is not None
    assert refusal.text.startswith((f"{refusal.ruling}:", f"{refusal.ruling} sum rule:"))
    assert says_what_to_do(refusal.text, g.legal_decisions()), refusal.text


def test_not_your_decision_names_r6_and_says_to_wait():
    refusal = new(start="red").refusal("1@3", player="yellow")
    assert refusal.ruling == "R6" and "wait until red has decided" in refusal.text


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    variant=st.sampled_from(["base", "tactical"]),
    steps=st.integers(0, 400),
)
def test_every_refusal_of_a_random_position_names_a_rule_and_a_legal_alternative(
    seed, variant, steps
):
    game = new(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_terminal():
            break
        game.apply(rng.choice(game.legal_actions()))
    legal = game.legal_decisions()
    for code in all_codes(game.board):
        refusal = game.refusal(code)
        if refusal is None:
            continue
        assert refusal.ruling is not None, refusal.text
        assert RULE_NUMBER.search(refusal.text), refusal.text
        assert says_what_to_do(refusal.text, legal), refusal.text


# -- the cases of issue 13 -----------------------------------------------------------------


def test_r8_shaman_sent_to_its_own_space_is_told_to_stay():
    g = new(start="red")
    shaman_to(g, RED, "0F")
    g.apply("1@3")
    reason = g.why_illegal(">0F")
    assert reason == "R8: your shaman is already on forest 0F; to leave it there say >stay"


def test_r10_card_from_another_segment_offers_only_the_slot_that_holds_a_card():
    g = empty_slot()  # the boat is at 1, slot 1b is empty
    reason = g.why_illegal("take 0a")
    assert reason.startswith("R10: the cards go out in segment 1, where the boat is; take 1a (")
    assert "1b" not in reason
    assert "1b" not in g.why_illegal("lava none")  # the awaited-decision text offers it neither


def test_r10_empty_slot_names_the_card_that_can_be_taken():
    reason = empty_slot().why_illegal("take 1b")
    assert reason.startswith("R10: slot 1b is empty, so there is no card to take; take 1a (")


def test_r6_disc_not_there_speaks_to_the_player_in_one_person():
    reason = new(start="red").why_illegal("-3@2")
    assert reason.startswith("R6: your disc 3 is in your supply, not on beach 2")
    assert "red" not in reason  # no "red's disc ... your supply" mix
    assert reason.endswith("instead place it (3@2)")


def test_r6_disc_already_out_offers_one_action_not_two():
    g = new(start="red")
    place_disc(g, RED, 5, 3)
    reason = g.why_illegal("5@1")
    assert "first" not in reason  # no "take it back first", which would be two actions
    assert "a turn is one action" in reason
    assert "take 5 back this turn (-5@3) and place it on a later turn" in reason
    assert "place a disc from your supply (1@0)" in reason


def test_r19_item_too_dear_before_a_scoring_names_the_card_with_a_correct_plural():
    g = new()
    g._await(YELLOW, PRESCORE, ())
    touch(g)
    refusal = g.refusal("buy forest")
    assert refusal.ruling == "R19"
    assert refusal.text == (
        "R19: the Forest Statues card costs 1 shell and you have none; buy nothing (pass)"
    )
    give(g, YELLOW, "shell")
    touch(g)
    assert g.why_illegal("buy majority").startswith(
        "R19: the Statue Majority card costs 2 shells and you have 1 shell; buy what you can "
        "pay for (Butterflies, Forest Statues"
    )


def test_r16_lava_across_the_centre_is_named_as_such():
    g = new()
    refusal = g.refusal("lava 3>0")
    assert (refusal.kind, refusal.ruling) == ("notation", "R16")
    assert "never across the centre" in refusal.text
    assert refusal.text.endswith("instead lava 3>2 or lava 3>4")
    assert "further round" in g.why_illegal("lava 3>5")


def test_r1_and_r8_notation_errors_that_are_rules_name_them():
    g = new()
    assert g.refusal("3@9").ruling == "R1"
    assert g.refusal(">2B").ruling == "R8"
    assert g.refusal("-0@3").ruling == "R27"


def test_plurals_are_chosen_by_count_in_one_function_per_message():
    assert str(ngettext("{n} shell", "{n} shells", 1, n=1)) == "1 shell"
    assert str(ngettext("{n} shell", "{n} shells", 0, n=0)) == "0 shells"
    one = str(shells_too_few("Forest Statues", 1, 0, "R17", "keep"))
    assert "costs 1 shell and you have none" in one
    two = str(shells_too_few("Statue Majority", 2, 1, "R17", "keep"))
    assert "costs 2 shells and you have 1 shell;" in two
    assert "you still have 1 number disc in your supply" in str(discs_left_in_supply(1, ""))
    assert "you still have 4 number discs in your supply" in str(discs_left_in_supply(4, ""))
