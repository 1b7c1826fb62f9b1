"""Rulings R1–R9 (board, turn actions, sum rule, shaman, boat) and the rulebook's examples."""

import pytest
from support.positions import RED, YELLOW, new, place_disc, shaman_to, statue

from haleakala.games.haleakala import Game, IllegalDecision, default_board


def test_r1_six_segments_with_bands_and_two_slots_each():
    b = default_board()
    assert b.segments == 6
    assert b.slots == 12
    assert [b.slot_name(s) for s in range(12)][:4] == ["0a", "0b", "1a", "1b"]
    assert [b.space_name(s) for s in range(3)] == ["0G", "0F", "0M"]


def test_r2_boat_at_jetty_shamans_on_opposite_huts():
    g = new()
    assert g.boat == 0
    assert [g.board.space_name(s) for s in g.shaman] == ["1B", "4B"]


def test_r3_adjacency_is_the_polar_grid_without_diagonals():
    b = default_board()
    reach = {b.space_name(s) for s in b.reach[b.parse_space("2F")]}
    # One step: 1F, 3F, 2G (down), 2M (up). Never a diagonal such as 3G in one step...
    assert {"1F", "3F", "2G", "2M"} <= reach
    # ... but 3G is two steps away (2G then 3G), and 2C is never entered.
    assert "3G" in reach
    assert all(not name.endswith(("C", "B")) for name in reach)


def test_r4_r8_at_most_one_step_uphill():
    b = default_board()
    reach = {b.space_name(s) for s in b.reach[b.parse_space("2G")]}
    assert "2M" not in reach  # G→F→M is two steps uphill
    assert "2F" in reach and "1F" in reach  # G→F→F: one up, one level
    down = {b.space_name(s) for s in b.reach[b.parse_space("2M")]}
    assert "2G" in down  # two steps downhill are free


def test_r8_first_move_from_the_hut_is_grassland_only():
    g = new(start="red")
    g.apply("1@3")  # action 1a (the boat is at 0)
    assert g.phase_name == "shaman"
    assert g.legal_decisions() == [">0G", ">1G", ">2G", ">stay"]


def test_r8_shaman_may_pass_the_other_shaman_but_not_stop_on_it():
    g = new(start="red")
    shaman_to(g, RED, "2G")
    shaman_to(g, YELLOW, "3G")
    g.apply("1@3")
    legal = g.legal_decisions()
    assert ">3G" not in legal
    assert ">4G" in legal  # through 3G
    reason = g.why_illegal(">3G")
    assert "R8" in reason and "not stop" in reason


def test_r8_statues_never_block_a_shaman():
    g = new(start="red")
    shaman_to(g, RED, "2G")
    statue(g, YELLOW, "3G")
    statue(g, YELLOW, "2F")
    g.apply("1@3")
    assert {">3G", ">2F", ">4G", ">3F"} <= set(g.legal_decisions())


def test_r6_turn_actions_place_return_and_boat_only_when_all_discs_are_out():
    g = new(start="red")
    legal = g.legal_decisions()
    assert "boat" not in legal
    assert "1@0" in legal and "5@5" in legal
    assert not any(d.startswith("-") for d in legal)
    for v, beach in zip(range(1, 6), (1, 2, 3, 4, 5), strict=True):
        place_disc(g, RED, v, beach)
    legal = g.legal_decisions()
    assert "boat" in legal and "-1@1" in legal
    assert not any("@" in d and not d.startswith("-") for d in legal)


def test_r6_boat_refused_with_discs_in_supply_says_how_many():
    g = new(start="red")
    with pytest.raises(
        IllegalDecision, match=r"all 5 of your number discs.*you still have 5 number discs"
    ):
        g.apply("boat")


def test_r6_placing_away_from_the_boat_then_moving_the_shaman():
    g = new(start="red")
    g.apply("2@3")
    assert g.to_move == "red" and g.phase_name == "shaman"
    g.apply(">2G")
    assert g.board.space_name(g.shaman[RED]) == "2G"
    assert g.to_move == "yellow" and g.phase_name == "turn"


def test_r6_returning_a_disc_is_followed_by_a_shaman_move():
    g = new(start="red")
    place_disc(g, RED, 4, 2)
    g.apply("-4@2")
    assert g.disc_at[RED][4] == -1
    assert g.phase_name == "shaman"


def test_r7_rulebook_example_yellow_may_not_place_3_against_red_3_but_may_place_2():
    g = new(start="yellow")
    place_disc(g, RED, 3, 2)
    legal = g.legal_decisions()
    assert "3@2" not in legal
    assert "2@2" in legal
    reason = g.why_illegal("3@2")
    assert "R7" in reason and "you would have 3 against red's 3" in reason


def test_r7_returning_a_disc_may_not_equalise_the_totals():
    g = new(start="red")
    place_disc(g, RED, 1, 2)
    place_disc(g, RED, 3, 2)
    place_disc(g, YELLOW, 3, 2)
    before = g.digest()
    with pytest.raises(IllegalDecision, match=r"R7.*leave you 3 against yellow's 3"):
        g.apply("-1@2")
    assert g.digest() == before
    assert "-3@2" in g.legal_decisions()  # red 1 against yellow 3 is fine


def test_r7_both_totals_zero_is_allowed():
    g = new(start="red")
    place_disc(g, RED, 2, 3)
    assert "-2@3" in g.legal_decisions()


def test_r5_r9_disc_next_to_the_boat_moves_it_clockwise_by_its_value():
    g = new(start="red")  # boat at 0: beach 0 is adjacent to it
    g.apply("3@0")
    assert g.boat == 3
    assert g.disc_at[RED][3] == 0  # the disc stays where it was placed
    assert g.to_move == "yellow"  # nobody at beach 3: no cards, turn over


def test_r9_boat_wraps_around_the_island():
    g = new(start="red")
    g.boat = 4
    g.apply("5@4")
    assert g.boat == 3


def test_a_decision_by_the_wrong_player_is_refused_and_changes_nothing():
    g = new(start="red")
    before = g.digest()
    with pytest.raises(
        IllegalDecision, match="R6: players take turns, and this decision is red's, not yellow's"
    ):
        g.apply("1@3", player="yellow")
    assert g.digest() == before


def test_malformed_notation_is_refused_with_what_a_decision_looks_like():
    g = new()
    with pytest.raises(IllegalDecision, match="is not a decision; decisions look like"):
        g.apply("place three")
    assert g.why_illegal("7@2") == "there is no number disc 7 (discs are 1 to 5)"


def test_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="unknown variant 'advanced'"):
        Game("advanced")
