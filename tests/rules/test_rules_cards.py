"""Rulings R10–R18: distributing cards, the card actions, refills and lava cards."""

import pytest
from support.positions import (
    RED,
    YELLOW,
    give,
    new,
    place_disc,
    put_slot,
    shaman_to,
    statue,
)

from haleakala.games.haleakala import IllegalDecision
from haleakala.games.haleakala.events import LavaPlaced, Received, StatueBuilt


def arrive_at_1(g, red=0, yellow=0):
    """Lay discs on beach 1, then red sails the boat from 0 to 1 with disc 1."""
    if red:
        place_disc(g, RED, red, 1)
    if yellow:
        place_disc(g, YELLOW, yellow, 1)
    return g.apply("1@0")


def codes(g, cards):
    return [g.deck.cards[c].code for c in cards]


def test_r10_case1_higher_total_chooses_other_gets_the_remaining_card():
    g = new(start="red")
    fish, pearl = put_slot(g, 2, "fish1b"), put_slot(g, 3, "whitepearl")
    arrive_at_1(g, red=2, yellow=4)
    assert g.to_move == "yellow" and g.phase_name == "card"
    assert g.legal_decisions() == ["take 1a", "take 1b"]
    g.apply("take 1b")
    assert g.beach_cards[YELLOW] == [pearl]
    assert g.beach_cards[RED] == [fish]
    assert g.disc_at[RED][2] == -1 and g.disc_at[YELLOW][4] == -1  # discs back (R13)


def test_r10_case2_only_one_player_there_chooses_one_card():
    g = new(start="red")
    put_slot(g, 2, "fish1b")
    pearl = put_slot(g, 3, "whitepearl")
    arrive_at_1(g, yellow=3)
    g.apply("take 1b")
    assert g.beach_cards[YELLOW] == [pearl]
    assert g.beach_cards[RED] == []
    assert g.deck.cards[g.slots[2]].code == "fish1b" or g.slots[2] >= 0


def test_r10_case3_nobody_there_nobody_receives_and_cards_stay():
    g = new(start="red")
    before = g.slots[:]
    events = arrive_at_1(g)
    assert g.slots == before
    assert not any(isinstance(e, Received) for e in events)
    assert g.to_move == "yellow" and g.phase_name == "turn"


def test_r10_invocation_discs_do_not_count_for_distribution():
    g = new("tactical", start="red")
    put_slot(g, 2, "fish1b")
    put_slot(g, 3, "whitepearl")
    g.invocation[YELLOW] = 1  # yellow's invocation disc lies on beach 1, no number discs
    events = arrive_at_1(g)
    assert not any(isinstance(e, Received) for e in events)
    assert g.invocation[YELLOW] == -1  # R27: it returns as the boat stops there


def test_r11_no_declining_a_statue_that_cannot_be_built_is_discarded():
    g = new(start="red")
    card = put_slot(g, 2, "statue")
    put_slot(g, 3, "fish1b")
    # Yellow's shaman is still on the hut (a beach): the statue cannot be built.
    arrive_at_1(g, yellow=2)
    g.apply("take 1a")
    assert card in g.discard
    assert g.statues_left[YELLOW] == 8
    with pytest.raises(IllegalDecision):
        g.apply("take 1b")  # the turn is over


def test_r12_identical_cards_only_the_winner_receives():
    g = new(start="red")
    put_slot(g, 2, "fish1b")
    other = put_slot(g, 3, "fish1b")
    arrive_at_1(g, red=5, yellow=3)
    g.apply("take 1a")
    assert codes(g, g.beach_cards[RED]) == ["fish1b"]
    assert g.beach_cards[YELLOW] == []
    assert g.slots[3] == other  # the identical card stays in its slot


def test_r13_card_actions_resolve_in_the_order_taken_then_discs_return_then_refill():
    g = new(start="red")
    put_slot(g, 2, "shell")
    put_slot(g, 3, "priestess")
    arrive_at_1(g, red=4, yellow=2)
    g.apply("take 1a")
    # Red chose first, so red decides about the shell first; yellow's priestess waits.
    assert g.to_move == "red" and g.phase_name == "shell"
    assert g.disc_at[RED][4] == 1  # discs return only after the card actions
    g.apply("keep")
    assert g.to_move == "yellow" and g.phase_name == "priestess"
    g.apply("lava none")
    assert g.disc_at[RED][4] == -1 and g.disc_at[YELLOW][2] == -1
    assert g.slots[2] >= 0 and g.slots[3] >= 0  # refilled
    assert g.to_move == "yellow" and g.phase_name == "turn"


def test_r14_refill_draws_1_then_2_then_3_tree_piles():
    g = new(start="red")
    put_slot(g, 2, "fish1b")
    put_slot(g, 3, "whitepearl")
    g.piles[0] = g.piles[0][-1:]  # one 1-tree card left
    g.piles[1] = [c for c in g.piles[1] if g.deck.cards[c].kind != "lava"]
    top1, top2 = g.piles[0][-1], g.piles[1][-1]
    arrive_at_1(g, red=2, yellow=4)
    g.apply("take 1a")
    assert g.slots[2] == top1
    assert g.slots[3] == top2


def test_r14_lava_card_puts_a_lava_disc_on_the_boats_crater_and_is_replaced():
    g = new(start="red")
    put_slot(g, 2, "fish1b")
    g.piles[0] = []
    lava = next(c for c in g.piles[1] if g.deck.cards[c].kind == "lava")
    fish = next(c for c in g.piles[1] if g.deck.cards[c].kind != "lava")
    g.piles[1] = [c for c in g.piles[1] if c not in (lava, fish)] + [fish, lava]
    arrive_at_1(g, yellow=4)
    events = g.apply("take 1a")
    assert g.lava[1] == 1
    assert LavaPlaced(1, "card") in events
    assert lava in g.discard
    assert g.slots[2] == fish


def test_r14_lava_card_with_all_four_discs_out_has_no_effect():
    g = new(start="red")
    g.piles[0] = []
    g.lava = [1, 1, 1, 1, 0, 0]
    lava = next(c for c in g.piles[1] if g.deck.cards[c].kind == "lava")
    g.piles[1].remove(lava)
    g.piles[1].append(lava)
    put_slot(g, 2, "fish1b")
    arrive_at_1(g, yellow=4)
    g.apply("take 1a")
    assert sum(g.lava) == 4
    assert lava in g.discard


def test_r15_statue_is_built_automatically_on_the_shamans_space():
    g = new(start="red")
    shaman_to(g, YELLOW, "3F")
    put_slot(g, 2, "statue")
    put_slot(g, 3, "fish1b")
    arrive_at_1(g, yellow=3)
    events = g.apply("take 1a")
    assert g.statue_owner[g.board.parse_space("3F")] == YELLOW
    assert g.statues_left[YELLOW] == 7
    assert StatueBuilt(YELLOW, g.board.parse_space("3F")) in events


def test_r15_no_statue_on_a_space_that_has_one():
    g = new(start="red")
    shaman_to(g, YELLOW, "3F")
    statue(g, RED, "3F")
    put_slot(g, 2, "statue")
    arrive_at_1(g, yellow=3)
    g.apply("take 1a")
    assert g.statue_owner[g.board.parse_space("3F")] == RED
    assert g.statues_left[YELLOW] == 8


def test_r15_no_statue_when_all_eight_are_built():
    g = new(start="red")
    for space in ("0G", "0F", "0M", "2G", "2F", "2M", "4G", "4F"):
        statue(g, YELLOW, space)
    shaman_to(g, YELLOW, "3F")
    put_slot(g, 2, "statue")
    arrive_at_1(g, yellow=3)
    g.apply("take 1a")
    assert g.statue_owner[g.board.parse_space("3F")] == -1
    assert g.statue_owner.count(YELLOW) == 8


def test_r16_lava_priestess_moves_one_disc_to_a_neighbouring_crater():
    g = new(start="red")
    g.lava = [0, 0, 2, 0, 0, 0]
    put_slot(g, 2, "priestess")
    arrive_at_1(g, yellow=3)
    g.apply("take 1a")
    assert g.phase_name == "priestess"
    assert g.legal_decisions() == ["lava 2>1", "lava 2>3"]
    assert "R16" in g.why_illegal("lava none")
    g.apply("lava 2>3")
    assert g.lava == [0, 0, 1, 1, 0, 0]


def test_r16_lava_priestess_with_no_lava_does_nothing():
    g = new(start="red")
    put_slot(g, 2, "priestess")
    arrive_at_1(g, yellow=3)
    g.apply("take 1a")
    assert g.legal_decisions() == ["lava none"]
    g.apply("lava none")
    assert g.phase_name == "turn"


def test_r16_r27_tactical_priestess_card_returns_the_invocation_disc():
    g = new("tactical", start="red")
    g.invocation[YELLOW] = 4
    put_slot(g, 2, "priestess")
    arrive_at_1(g, yellow=3)
    g.apply("take 1a")
    g.apply("lava none")
    assert g.invocation[YELLOW] == -1


def test_r17_shell_buys_one_item_paying_with_saved_shells():
    g = new(start="red")
    give(g, YELLOW, "shell")  # saved from an earlier turn
    put_slot(g, 2, "shell")
    arrive_at_1(g, yellow=3)
    g.apply("take 1a")
    assert g.phase_name == "shell"
    legal = g.legal_decisions()
    assert {"buy majority", "buy forest", "buy priestess", "keep"} <= set(legal)
    g.apply("buy majority")
    assert g.board_owner[2] == YELLOW
    assert g.shells[YELLOW] == []
    assert g.why_illegal("buy majority") is not None


def test_r17_two_shell_item_needs_a_saved_shell():
    g = new(start="red")
    put_slot(g, 2, "shell")
    arrive_at_1(g, yellow=3)
    g.apply("take 1a")
    assert "buy majority" not in g.legal_decisions()
    assert g.why_illegal("buy majority") == (
        "R17: the Statue Majority card costs 2 shells and you have 1 shell; buy what you can "
        "pay for (Butterflies, Forest Statues or Lava Priestess) or keep the shell (keep)"
    )
    g.apply("keep")
    assert len(g.shells[YELLOW]) == 1


def test_r17_board_priestess_is_used_at_once_then_face_down():
    g = new(start="red")
    g.lava = [0, 0, 0, 1, 0, 0]
    put_slot(g, 2, "shell")
    arrive_at_1(g, yellow=3)
    g.apply("take 1a")
    g.apply("buy priestess")
    assert g.phase_name == "priestess" and g.to_move == "yellow"
    g.apply("lava 3>4")
    assert g.lava[4] == 1
    assert g.board_owner[5] == 2  # face down
    give(g, RED, "shell")
    assert "R17" in g.why_illegal("buy priestess") or g.phase_name == "turn"


def test_r18_beach_cards_stay_with_their_owner_through_the_first_scoring():
    g = new(start="red")
    pearl = give(g, RED, "whitepearl")
    from support.positions import touch

    g.round = 1
    touch(g)
    g._score(1, [])
    assert pearl in g.beach_cards[RED]
