"""Rulings N28–N33 and N46: which volcano tiles erupt, whose turn follows, where the volcano
goes, what it bars, who is stunned and when it leaves."""

from __future__ import annotations

from support.kanaloa_positions import arrange, island, legal, ready, turn_of

from haleakala.games.kanaloa.events import (
    Drew,
    Erupted,
    LostTurn,
    Stunned,
    VolcanoDrawn,
    VolcanoRemoved,
)
from haleakala.games.kanaloa.state import SEA, VOLCANO


def drawing(game, tiles: list[str]) -> None:
    """The bag starts with these tiles (volcano tiles by name)."""
    codes = [game.volcano_tile if t == "volcano" else game.m.tile_code(t) for t in tiles]
    for c in codes:
        game.bag.remove(c)
    game.bag[:0] = codes


def test_n28_the_second_volcano_tile_erupts_after_the_refill():
    game = ready()
    drawing(game, ["volcano", "volcano", "Kane2"])
    game.apply("move HONU>KAI")
    events = game.apply("take Ku4")
    kinds = [type(e) for e in events]
    assert kinds[:4] == [VolcanoDrawn, VolcanoDrawn, Drew, Erupted]


def test_n28_no_eruption_while_the_volcano_is_on_the_map():
    game = ready()
    game.volcano, game.placer = island(game, "PALI"), 0
    drawing(game, ["volcano", "volcano", "Kane2"])
    game.apply("move HONU>KAI")
    events = game.apply("take Ku4")
    assert not [e for e in events if isinstance(e, Erupted)] and game.volcanoes == 2


def test_n28_an_odd_tile_causes_nothing_and_a_lost_chance_is_not_made_up():
    game = ready()
    game.volcanoes = 2
    drawing(game, ["volcano", "Kane2"])
    game.apply("move HONU>KAI")
    assert not [e for e in game.apply("take Ku4") if isinstance(e, Erupted)]


def test_n29_turn_passes_to_the_pele_player_and_players_between_are_passed_over():
    game = ready(4, seed=2)
    drawer = game.current
    pele = (drawer + 2) % 4
    arrange(game, gods={"Pele": game.players[pele]})
    drawing(game, ["volcano", "volcano", "Kane2"])
    game.apply(legal(game, "move")[0])
    game.apply(legal(game, "take")[0])
    assert game.current == pele and game.eruption_turn and game.phase == VOLCANO


def test_n29_without_a_pele_holder_the_drawer_plays_the_eruption_turn():
    game = ready()
    arrange(game, gods={"Pele": None})
    drawing(game, ["volcano", "volcano", "Kane2"])
    game.apply("move HONU>KAI")
    game.apply("take Ku4")
    assert game.to_move == "green" and game.eruption_turn and game.phase == VOLCANO


def test_n30_the_volcano_goes_on_a_vacant_island_with_three_or_four_players():
    game = ready()
    turn_of(game, "red", eruption=True)
    assert legal(game) == [f"volcano {x}" for x in
                           ("AKAU", "ILIO", "KAI", "MOKU", "NALU", "ONO", "PALI")]  # fmt: skip


def test_n30_the_two_player_volcano_goes_on_a_sea_space():
    game = ready(2, seed=3)
    turn_of(game, game.players[0], eruption=True)
    assert len(legal(game)) == 14 and all("+" in t for t in legal(game))


def test_n31_nobody_enters_the_volcano_island():
    game = ready()
    game.volcano, game.placer = island(game, "KAI"), 0
    game._legal = None
    assert legal(game, "move") == ["move HONU>MOKU"]
    assert "N31" in game.why_illegal("move HONU>KAI")


def test_n31_two_player_volcano_bars_its_islands_and_their_special_actions():
    game = ready(2, seed=3)
    lay = game.lay
    space = lay.sea[0]
    game.volcano, game.placer = SEA + space, 0
    barred = set(lay.affected[space])
    lono = game.gods[3]
    turn_of(game, game.players[lono])
    for text in legal(game, "swap"):
        a, b = (w.split(":")[0] for w in text.split()[1:])
        assert island(game, a) not in barred and island(game, b) not in barred


def test_n32_pieces_next_to_the_volcano_are_stunned_and_lose_their_turn():
    game = ready()
    arrange(game, pieces={"red": ["AKAU"]})
    turn_of(game, "red", eruption=True)
    events = game.apply("volcano PALI")
    assert Stunned(1, island(game, "LAU")) in events
    game.apply("move AKAU>ILIO")
    game.apply(legal(game, "take")[0])
    if game.current == 1:
        raise AssertionError("yellow's turn was not lost")
    assert game.stun[1] == [False, False]  # the lost turn ended the stun


def test_n32_four_players_exempt_the_pele_protection_and_a_pele_holder_with_a_temple():
    game = ready(4, seed=2)
    names = game.players
    arrange(
        game,
        pieces={names[0]: ["HONU"], names[1]: ["LAU"], names[2]: ["NALU"], names[3]: ["MOKU"]},
        gods={"Pele": names[0]},
        protection={"Pele": names[1]},
        temples={names[0]: {"Pele": 4}},
    )
    turn_of(game, names[0], eruption=True)
    events = game.apply("volcano KAI")  # next to HONU, LAU and NALU
    stunned = {e.player for e in events if isinstance(e, Stunned)}
    assert stunned == {2}


def test_n33_the_volcano_leaves_at_the_end_of_the_placers_second_turn():
    game = ready()
    arrange(game, pieces={"red": ["AKAU"]})
    turn_of(game, "red", eruption=True)
    game.apply("volcano PALI")
    game.apply("move AKAU>ILIO")
    game.bag.sort()  # no more volcano tiles for now
    game.apply(legal(game, "take")[0])
    assert game.volcano == island(game, "PALI")
    while game.current != 0:
        game.apply(legal(game)[0])
    assert game.volcano == island(game, "PALI")
    while game.current == 0:
        events = game.apply(legal(game)[0])
    assert VolcanoRemoved(island(game, "PALI")) in events and game.volcano == -1


def test_l1_the_placer_stunned_by_his_own_volcano_loses_the_eruption_turn():
    game = ready()  # red stands on EWA, next to PALI
    turn_of(game, "red", eruption=True)
    events = game.apply("volcano PALI")
    assert Stunned(0, island(game, "EWA")) in events and LostTurn(0) in events
    assert game.stun[0] == [False, False]
    assert LostTurn(1) in events and game.to_move == "green"  # yellow on LAU was stunned too
