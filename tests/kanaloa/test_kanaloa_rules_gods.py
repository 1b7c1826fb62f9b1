"""Rulings N34–N50: sacrifices, the gods and protection cards, the gods' abilities, the end
and the scoring, each test named after the ruling it enforces."""

from __future__ import annotations

from support.kanaloa_positions import arrange, fish, fish_owner, island, legal, ready, turn_of

from haleakala.games.kanaloa.events import CardPassed, Ended, TempleRaised
from haleakala.games.kanaloa.state import (
    ENDSTEP,
    OVER,
    ROB,
    SACRIFICE,
    TAKE,
    VETO,
    result_of,
    score,
)


def sacrifice(game, colour: str, god: str, tiles: list[str]) -> list[tuple]:
    """``colour`` sacrifices ``tiles`` to ``god`` in a turn of his own; returns the events
    of ``done``."""
    arrange(game, hands={colour: tiles})
    turn_of(game, colour)
    game.apply(f"sacrifice {tiles[0]} to {god}")
    for t in tiles[1:]:
        game.apply(f"add {t}")
    return game.apply("done")


def test_n34_a_sacrifice_opens_with_the_god_and_adds_the_god_or_kane():
    game = ready()
    arrange(game, hands={"red": ["Pele5", "Pele/Lono2", "Kane3", "Kanaloa4"]},
            pieces={"red": ["AKAU"]})  # fmt: skip
    turn_of(game, "red")
    assert legal(game, "sacrifice") == [
        "sacrifice Kanaloa4 to Kanaloa", "sacrifice Kane3 to Kane", "sacrifice Pele/Lono2 to Lono",
        "sacrifice Pele/Lono2 to Pele", "sacrifice Pele5 to Pele",
    ]  # fmt: skip
    game.apply("sacrifice Pele5 to Pele")
    assert game.phase == SACRIFICE and legal(game) == ["add Kane3", "add Pele/Lono2", "done"]
    game.apply("add Kane3")
    events = game.apply("done")
    assert TempleRaised(0, 2, 8) in events


def test_n34_a_kane_sacrifice_takes_only_kane_tiles():
    game = ready()
    arrange(game, hands={"red": ["Kane3", "Kane2", "Pele5"]})
    turn_of(game, "red")
    game.apply("sacrifice Kane3 to Kane")
    assert legal(game) == ["add Kane2", "done"]


def test_n35_nobody_receives_a_card_of_a_god_below_his_kane_temple():
    game = ready()
    arrange(game, temples={"yellow": {"Kane": 10}})
    events = sacrifice(game, "yellow", "Pele", ["Pele5"])
    assert not [e for e in events if isinstance(e, CardPassed)]


def test_n36_the_highest_sacrifice_wins_the_gods_card_and_the_old_holder_gets_protection():
    game = ready(4, seed=2)
    red, green = game.players[0], game.players[2]
    arrange(game, gods={"Pele": green})
    events = sacrifice(game, red, "Pele", ["Pele5"])
    assert CardPassed("gods", 2, 2, 0) in events and CardPassed("protection", 2, -1, 2) in events


def test_n36_ties_never_move_a_card():
    game = ready()
    arrange(game, temples={"red": {"Pele": 5}})
    events = sacrifice(game, "yellow", "Pele", ["Pele5"])
    assert not [e for e in events if isinstance(e, CardPassed)] and game.gods[2] == 0


def test_n36_n39_winning_an_unowned_gods_card_frees_ones_own_protection_card():
    game = ready(4, seed=2)
    red = game.players[0]
    arrange(game, gods={"Pele": None}, protection={"Pele": red})
    events = sacrifice(game, red, "Pele", ["Pele5"])
    assert CardPassed("protection", 2, 0, -1) in events and game.gods[2] == 0


def test_n37_more_than_the_protection_holder_but_not_the_gods_holder_wins_protection():
    game = ready(4, seed=2)
    red, green = game.players[0], game.players[2]
    arrange(game, gods={"Pele": green}, temples={green: {"Pele": 9}})
    events = sacrifice(game, red, "Pele", ["Pele4"])
    assert CardPassed("protection", 2, -1, 0) in events and game.gods[2] == 2


def test_n38_kane_excess_passes_the_gods_card():
    game = ready(4, seed=2)
    red, yellow, green = game.players[:3]
    arrange(game, gods={"Pele": red}, protection={"Pele": yellow},
            temples={red: {"Pele": 4}, yellow: {"Pele": 3}, green: {"Pele": 2}})  # fmt: skip
    events = sacrifice(game, red, "Kane", ["Kane5"])
    assert CardPassed("gods", 2, 0, 1) in events
    assert CardPassed("protection", 2, 1, 2) in events  # next in line without red and yellow


def test_n38_without_protection_the_second_highest_takes_the_gods_card():
    game = ready()
    arrange(game, temples={"red": {"Pele": 4}, "green": {"Pele": 2}, "yellow": {"Pele": 1}})
    events = sacrifice(game, "red", "Kane", ["Kane5"])
    assert CardPassed("gods", 2, 0, 2) in events


def test_n38_a_tie_for_next_in_line_leaves_the_card_unowned():
    game = ready()
    arrange(game, temples={"red": {"Pele": 4}, "green": {"Pele": 2}, "yellow": {"Pele": 2}})
    events = sacrifice(game, "red", "Kane", ["Kane5"])
    assert CardPassed("gods", 2, 0, -1) in events and game.gods[2] == -1


def test_n40_kanaloa_reversals_keep_the_islands_strongly_connected():
    game = ready()
    arrange(game, gods={"Kanaloa": "green"})
    game.apply("move HONU>KAI")
    game.apply("take Ku4")
    assert game.phase == ENDSTEP
    offered = set(legal(game, "reverse"))
    for c in game.lay.currents:
        text = f"reverse {game.m.current_names[c]}"
        trial = game.clone()
        trial.fish_tail[c] = trial.head(c)
        if not trial._strong():
            assert text not in offered
    for text in offered:
        trial = game.clone()
        trial.apply(text)
        assert trial._strong()


def test_n41_kanaloa_may_not_take_a_pieces_last_way_off():
    game = ready()
    # KAI's only fish leaving it is KAI>ONO (white, green's): flipping it strands yellow.
    arrange(game, gods={"Kanaloa": "red"}, pieces={"yellow": ["KAI"], "red": ["AKAU"]},
            hands={"red": ["Pele5"]})  # fmt: skip
    turn_of(game, "red")
    game.apply("sacrifice Pele5 to Pele")
    game.apply("done")
    assert "flip KAI-ONO" not in legal(game, "flip")
    arrange(game, pieces={"yellow": ["PALI"], "green": ["KAI"]})
    game._legal = None
    assert "flip KAI-ONO" in game._endstep_options(0) or "flip KAI-ONO" in [
        game.format(c) for c in game._endstep_options(0)
    ]


def test_n42_the_kanaloa_protection_holder_allows_or_forbids_a_change_of_his_fish():
    game = ready(4, seed=2)
    red, yellow = game.players[:2]
    arrange(game, gods={"Kanaloa": red}, protection={"Kanaloa": yellow},
            hands={red: ["Pele5"]})  # fmt: skip
    turn_of(game, red)
    game.apply("sacrifice Pele5 to Pele")
    game.apply("done")
    flips = [t for t in legal(game, "flip")
             if game.fish_owner[game.m.current_names.index(t.split()[1])] == 1]  # fmt: skip
    assert flips, "this deal should give yellow a fish that may be flipped"
    game.apply(flips[0])
    assert game.phase == VETO and game.to_move == yellow and legal(game) == ["allow", "forbid"]
    game.apply("forbid", yellow)
    name = flips[0].split()[1]
    assert game.to_move == red and not [t for t in legal(game) if t.endswith(" " + name)]
    other = [t for t in legal(game, "flip")
             if game.fish_owner[game.m.current_names.index(t.split()[1])] == 1]  # fmt: skip
    if other:
        cur = game.m.current_names.index(other[0].split()[1])
        shown = game.fish_col[cur]
        game.apply(other[0])
        game.apply("allow", yellow)
        assert game.fish_col[cur] != shown  # the change happened, and the action is used


def test_n43_the_ku_player_robs_a_player_arriving_on_his_island_out_of_turn():
    game = ready()
    arrange(game, pieces={"green": ["KAI"], "red": ["HONU"]}, hands={"red": ["Pele5", "Kane3"]})
    fish(game, "HONU>KAI", "white")
    turn_of(game, "red")
    game.apply("move HONU>KAI")
    assert game.phase == ROB and game.to_move == "green"
    assert legal(game) == ["rob red Kane3", "rob red Pele5"]
    game.apply("rob red Pele5", "green")
    assert game.phase == TAKE and game.to_move == "red" and game.hands[2][game.m.tile_code("Pele5")]


def test_n43_a_stunned_ku_piece_or_an_empty_hand_is_no_robbery():
    game = ready()
    arrange(game, pieces={"green": ["KAI"], "red": ["HONU"]}, hands={"red": ["Pele5"]})
    fish(game, "HONU>KAI", "white")
    game.stun[2][0] = True
    turn_of(game, "red")
    game.apply("move HONU>KAI")
    assert game.phase == TAKE
    game2 = ready()
    arrange(game2, pieces={"green": ["KAI"], "red": ["HONU"]}, hands={"red": []})
    fish(game2, "HONU>KAI", "white")
    turn_of(game2, "red")
    game2.apply("move HONU>KAI")
    assert game2.phase == TAKE


def test_n43_the_ku_protection_holder_is_never_robbed():
    game = ready(4, seed=2)
    red, yellow = game.players[:2]
    arrange(game, gods={"Ku": yellow}, protection={"Ku": red},
            pieces={yellow: ["KAI"], red: ["HONU"]}, hands={red: ["Pele5"]})  # fmt: skip
    fish(game, "HONU>KAI", "white")
    turn_of(game, red)
    game.apply("move HONU>KAI")
    assert game.phase == TAKE


def test_n43_the_ku_player_moving_may_rob_instead_of_nothing_before_taking():
    game = ready()
    arrange(game, pieces={"green": ["HONU"], "red": ["KAI"]}, hands={"red": ["Pele5"]})
    turn_of(game, "green")
    game.apply("move HONU>KAI")
    assert game.phase == TAKE and "rob red Pele5" in legal(game) and legal(game, "take")
    game.apply("rob red Pele5")
    assert legal(game, "rob") == [] and game.action_used


def test_n44_lono_exchanges_two_different_tiles_of_adjacent_islands():
    game = ready()
    turn_of(game, "yellow")
    swaps = legal(game, "swap")
    assert swaps
    for text in swaps:
        (a, ta), (b, tb) = (w.split(":") for w in text.split()[1:])
        assert a < b and ta != tb
        assert game.m.current_between(island(game, a), island(game, b)) is not None
    game.apply("swap HONU:Kane3 KAI:Ku4")
    assert game.m.tile_code("Ku4") in game.tiles[island(game, "HONU")]
    assert not legal(game, "swap")


def test_n45_the_lono_holder_places_his_second_piece_after_a_lono_sacrifice():
    game = ready()
    arrange(game, hands={"yellow": ["Kane3"]})
    turn_of(game, "yellow")
    game.apply("sacrifice Kane3 to Kane")
    game.apply("done")
    assert game.to_move != "yellow"  # Lono temple 0: nothing in the end step
    game = ready()
    arrange(game, temples={"yellow": {"Lono": 5}}, hands={"yellow": ["Kane3"]})
    turn_of(game, "yellow")
    game.apply("sacrifice Kane3 to Kane")
    game.apply("done")
    assert game.phase == ENDSTEP and "place PALI" in legal(game) and "place HONU" not in legal(game)
    game.apply("place PALI")
    assert sorted(game.loc[1]) == sorted([island(game, "LAU"), island(game, "PALI")])


def test_n45_the_lono_protection_holder_places_even_in_an_eruption_turn():
    game = ready(4, seed=2)
    red = game.players[0]
    arrange(game, gods={"Lono": game.players[1]}, protection={"Lono": red}, pieces={red: ["HONU"]},
            hands={red: ["Kane3"]}, temples={red: {"Lono": 5}})  # fmt: skip
    turn_of(game, red, eruption=True)
    game.apply(legal(game)[0])
    game.apply("sacrifice Kane3 to Kane")
    game.apply("done")
    assert game.phase == ENDSTEP and legal(game, "place")


def test_n47_the_game_ends_at_once_at_the_eleventh_volcano_tile():
    game = ready()
    game.volcanoes = 10
    game.bag.insert(0, game.bag.pop(game.bag.index(game.volcano_tile)))
    game.apply("move HONU>KAI")
    events = game.apply("take Ku4")
    assert isinstance(events[-1], Ended) and game.phase == OVER and game.to_move is None
    assert len(game.tiles[island(game, "KAI")]) == 1 and game.legal_actions() == []


def test_n47_two_players_end_at_the_seventh():
    game = ready(2, seed=3)
    assert game.end_count == 7


def test_n48_scoring_follows_the_rulebooks_example():
    # Kanaloa, Ku, Pele, Lono, Kane
    assert score([16, 9, 15, 22, 16]) == 48
    assert score([16, 9, 15, 22, 15]) == 60
    assert score([30, 30, 30, 30, 0]) == 0


def test_n48_ties_go_to_the_higher_unscored_points_then_are_shared():
    r = result_of([[5, 0, 0, 0, 5], [9, 0, 0, 0, 5], [5, 0, 0, 0, 5]])
    assert r.scores == (10, 10, 10) and r.winners == (1,)
    shared = result_of([[5, 0, 0, 0, 5], [5, 0, 0, 0, 5]])
    assert shared.winners == (0, 1)


def test_n49_three_players_hand_out_no_protection_card():
    game = ready()
    events = sacrifice(game, "yellow", "Pele", ["Pele5"])
    assert CardPassed("gods", 2, 0, 1) in events and game.prot == [-1, -1, -1, -1]


def test_n50_two_player_neutral_fish_are_green_and_usable_by_nobody_while_coloured():
    game = ready(2, seed=3)
    neutral = [c for c in game.lay.currents if game.fish_owner[c] == 2]
    assert len(neutral) == 2 and all(game.fish_col[c] for c in neutral)
    fish_owner(game, game.m.current_names[neutral[0]], "green")


def test_n43_a_dolphin_landing_where_the_ku_player_stands_is_robbed_before_the_gift():
    game = ready()
    arrange(game, pieces={"green": ["KAI"], "red": ["dolphin"]}, hands={"red": ["Pele5"]})
    turn_of(game, "red")
    game.apply("land KAI")
    assert game.phase == ROB and game.to_move == "green" and legal(game) == ["rob red Pele5"]
    game.apply("rob red Pele5")
    assert game.to_move == "red" and {t.split()[0] for t in legal(game)} == {"give"}


def test_n46_pele_gives_no_other_ability_than_the_volcano():
    game = ready()  # red holds Pele only: after a move there is no end step
    arrange(game, pieces={"red": ["AKAU"]})
    turn_of(game, "red")
    game.apply("move AKAU>ILIO")
    game.apply(legal(game, "take")[0])
    assert game.current != 0
