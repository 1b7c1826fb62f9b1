"""Rulings N8–N27 and N52: the deal, the start phase, the turn and its main actions, each
test named after the ruling it enforces. Positions come from the worked example's start
(three players, seed 7: green HONU, red EWA, yellow LAU; green holds Ku, red Pele, yellow
Lono) rearranged by ``support.kanaloa_positions``."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from support.kanaloa_positions import arrange, fish, island, legal, ready, turn_of

from haleakala.games.kanaloa.events import ReserveUsed
from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.state import (
    DOLPHIN,
    ENDSTEP,
    FISH,
    GIVE,
    LAND,
    MAIN,
    REMOVE,
    START,
    SUPPLY,
    TAKE,
    IllegalDecision,
    deal,
)


def test_n8_same_seed_same_deal_and_players_choices_use_their_own_generator():
    m = Game().m
    assert deal(m, 4, 11) == deal(m, 4, 11)
    assert deal(m, 4, 11) != deal(m, 4, 12)


def test_n10_gods_cards_dealt_per_player_count():
    for seed in range(20):
        four = Game(seed=seed, players=4)
        assert sorted(four.gods) == [0, 1, 2, 3] and four.prot == [-1] * 4
        three = Game(seed=seed, players=3)
        assert three.gods[0] == -1 and sorted(three.gods[1:]) == [0, 1, 2]
        two = Game(seed=seed, players=2)
        assert two.gods[1] == two.gods[3] and two.gods[0] == two.gods[2] != two.gods[1]


def test_n13_ku_holder_places_the_first_fish_and_order_is_clockwise():
    game = Game(seed=3, players=4)
    ku = game.gods[1]
    seen = []
    for _ in range(8):
        seen.append(game.decider)
        game.apply(game.legal_actions()[0])
    assert seen == [(ku + i) % 4 for i in range(4)] * 2


def test_n13_two_players_place_the_neutral_fish_first():
    game = Game(seed=3, players=2)
    ku = game.gods[1]
    for who in (ku, 1 - ku):
        assert game.decider == who
        assert {t.split()[-1] for t in game.legal_decisions()} == {"green"}  # N14, N16
        game.apply(game.legal_actions()[0])
    assert game.decider == ku
    assert {t.split()[-1] for t in game.legal_decisions()} == {"white", game.players[ku]}


def test_n14_every_current_in_play_ends_with_one_fish():
    for players in (2, 3, 4):
        game = ready(players, seed=5)
        lay = game.lay
        assert all((game.fish_tail[c] >= 0) == lay.current_in_play[c] for c in range(28))


def test_n15_last_current_of_an_island_must_point_in_when_the_others_point_out():
    game = Game(seed=7, players=3)
    for heading in ("KAI>HONU", "KAI>LAU", "KAI>NALU"):
        cur = fish(game, heading, "white")
        game.fish_owner[cur] = 0
    assert [t for t in legal(game, "fish") if "KAI" in t.split()[1] and "ONO" in t] == [
        "fish ONO>KAI green", "fish ONO>KAI white",
    ]  # fmt: skip


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_n15_any_sequence_of_offered_placements_ends_strongly_connected(seed, players):
    import random

    game = Game(seed=seed, players=players)
    rng = random.Random(seed)
    while game.phase == FISH:
        options = game.legal_actions()
        assert options, "the start phase got stuck (N15)"
        game.apply(rng.choice(options))
    assert game.phase == START and game._strong()


def test_n17_first_pieces_go_on_islands_without_a_piece_ku_first():
    game = Game(seed=7, players=3)
    from support.kanaloa_positions import EXAMPLE_FISH

    for text in EXAMPLE_FISH:
        game.apply(text)
    assert game.to_move == "green" and len(legal(game, "start")) == 10
    game.apply("start HONU")
    assert "start HONU" not in legal(game) and game.to_move == "red"


def test_n18_no_end_step_when_nothing_in_it_is_available():
    game = ready()
    game.apply("move HONU>KAI")
    game.apply("take Ku4")
    assert game.to_move == "red" and game.phase == MAIN  # green (Ku) had nothing to do


def test_n18_end_step_lasts_while_kanaloa_or_the_second_piece_is_available():
    game = ready()
    arrange(game, gods={"Kanaloa": "green"})
    game.apply("move HONU>KAI")
    game.apply("take Ku4")
    assert game.phase == ENDSTEP and "end" in legal(game)
    assert legal(game, "reverse") and legal(game, "flip")
    game.apply(legal(game, "flip")[0])
    assert game.to_move == "red"  # the change used the action: nothing left, no "end"


def test_n19_one_gods_card_action_a_turn():
    game = ready(2, seed=4)
    lono_ku = game.players[game.gods[3]]
    other = game.players[1 - game.gods[3]]
    arrange(game, pieces={lono_ku: ["HONU"], other: ["KAI"]}, hands={other: ["Kane3"]})
    fish(game, "HONU>KAI", "white")
    turn_of(game, lono_ku)
    swap = legal(game, "swap")[0]
    game.apply(swap)
    assert not legal(game, "swap")
    game.apply("move HONU>KAI")
    assert game.phase == TAKE and not legal(game, "rob")  # N19: the swap was the action


def test_n20_both_pieces_on_the_map_without_a_lono_card_remove_one():
    game = ready()
    arrange(game, pieces={"red": ["EWA", "ONO"]})
    turn_of(game, "red")
    assert game.phase == REMOVE and legal(game) == ["remove EWA", "remove ONO"]
    game.apply("remove ONO")
    assert sorted(game.loc[0]) == [SUPPLY, island(game, "EWA")] and game.phase == MAIN
    arrange(game, pieces={"yellow": ["LAU", "dolphin"]})
    turn_of(game, "yellow")  # yellow holds Lono: keeps both
    assert game.phase == LAND


def test_n21_move_turns_the_fish_over_and_keeps_its_heading():
    game = ready()
    assert legal(game, "move") == ["move HONU>KAI", "move HONU>MOKU"]
    cur = game.m.current_between(island(game, "HONU"), island(game, "KAI"))
    assert game.fish_col[cur]  # green's own colour
    game.apply("move HONU>KAI")
    assert not game.fish_col[cur] and game.fish_tail[cur] == island(game, "HONU")
    assert game.loc[2][0] == island(game, "KAI") and game.phase == TAKE


def test_n21_a_fish_of_another_colour_cannot_be_used():
    game = ready()
    turn_of(game, "yellow")
    arrange(game, pieces={"yellow": ["EWA"]})
    assert not legal(game, "move")
    assert "another player's colour" in game.why_illegal("move EWA>AKAU")


def test_n22_n23_blocked_piece_may_whiten_a_fish_of_another_colour_or_call_the_dolphin():
    game = ready()
    arrange(game, pieces={"yellow": ["EWA"]})
    turn_of(game, "yellow")
    assert legal(game, "whiten") == ["whiten EWA>AKAU"]
    assert legal(game, "dolphin") == ["dolphin EWA"]
    game.apply("whiten EWA>AKAU")
    cur = game.m.current_between(island(game, "AKAU"), island(game, "EWA"))
    assert not game.fish_col[cur] and game.fish_tail[cur] == island(game, "EWA")


def test_n22_a_piece_whose_only_fish_leads_to_the_volcano_is_blocked():
    game = ready()
    arrange(game, pieces={"red": ["AKAU"]})
    fish(game, "MOKU>AKAU", "coloured")
    game.volcano, game.placer = island(game, "ILIO"), 1
    turn_of(game, "red")
    assert not legal(game, "move") and legal(game, "dolphin") == ["dolphin AKAU"]
    assert "volcano" in game.why_illegal("move AKAU>ILIO")


def test_n24_calling_the_dolphin_then_n25_the_landing_is_the_whole_next_turn():
    game = ready()
    arrange(game, pieces={"yellow": ["EWA"]}, hands={"yellow": ["Kane3"]})
    turn_of(game, "yellow")
    game.apply("dolphin EWA")
    assert game.loc[1][0] == DOLPHIN and game.to_move == "green"
    turn_of(game, "yellow")
    assert game.phase == LAND and len(legal(game)) == 10  # any island, even where pieces are
    game.apply("land PALI")
    assert game.phase == GIVE and not legal(game, "sacrifice")
    game.bag.sort()  # the volcano tiles last: no eruption here
    before = len(game.bag)
    game.apply(legal(game)[0])
    assert game.to_move == "green" and len(game.bag) < before  # refilled, turn over


def test_n25_a_piece_on_the_dolphin_lands_before_anything_else():
    game = ready()
    arrange(game, pieces={"red": ["dolphin"]}, hands={"red": ["Pele5"]})
    turn_of(game, "red")
    assert {t.split()[0] for t in legal(game)} == {"land"}


def test_n26_the_mover_takes_one_of_the_two_tiles_and_the_island_is_refilled():
    game = ready()
    game.apply("move HONU>KAI")
    assert legal(game) == ["take Ku4", "take Pele/Lono3"]
    game.apply("take Ku4")
    assert game.hand_tiles(2) == ["Ku4"] and len(game.tiles[island(game, "KAI")]) == 2


def test_n27_the_reserve_goes_into_the_empty_bag_in_its_order():
    game = ready()
    reserve = list(game.reserve)
    game.bag = []
    game.apply("move HONU>KAI")
    events = game.apply("take Ku4")
    assert ReserveUsed(tuple(reserve)) in events and game.reserve is None


def test_n52_a_decision_from_the_wrong_player_is_refused_with_a_sentence():
    game = ready()
    reason = game.why_illegal("move HONU>KAI", "red")
    assert reason == "green decides now, not red (N52)"
    try:
        game.apply("move HONU>KAI", "red")
    except IllegalDecision as exc:
        assert str(exc) == reason
    else:
        raise AssertionError("accepted")
    assert game.phase == MAIN and game.history[-1:] != [None]


def test_n52_unknown_island_and_tile_are_refused_with_a_sentence():
    game = ready()
    assert "unknown island 'ATLANTIS'" in game.why_illegal("move ATLANTIS>KAI")
    assert "unknown tile 'Zeus9'" in game.why_illegal("take Zeus9")
    assert "does not fit now" in game.why_illegal("take Kane5")


def test_l2_remove_takes_the_stunned_piece_of_two_on_one_island():
    game = ready()
    arrange(game, pieces={"red": ["KAI", "KAI"]})
    game.stun[0] = [False, True]
    turn_of(game, "red")
    assert legal(game) == ["remove KAI"]
    game.apply("remove KAI")
    assert game.loc[0] == [island(game, "KAI"), SUPPLY] and game.stun[0] == [False, False]
    assert legal(game, "move") == ["move KAI>ONO"]
