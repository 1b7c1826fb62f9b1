"""Rulings R19–R27: purchases before scoring, eruption, points, rounds, winner, variants."""

import pytest
from support.positions import RED, YELLOW, give, new, place_disc, put_slot, shaman_to, statue

from haleakala.games.haleakala import Game
from haleakala.games.haleakala.events import LavaPlaced, Revealed, Scored
from haleakala.games.haleakala.scoring import PlayerScoring, Points, Scoring, erupt, score_round


def points(g, player, rnd=1):
    return score_round(g, rnd).players[player].points


def own(g, player, item):
    from haleakala.games.haleakala.deck import BOARD_ITEMS

    g.board_owner[BOARD_ITEMS.index(item)] = player


def test_r19_rulebook_example_yellow_scores_9_after_losing_a_mountain_and_a_grassland_statue():
    g = new()
    for space in ("0M", "1G", "2M", "3M", "4F", "5G"):
        statue(g, YELLOW, space)
    g.lava = [1, 3, 0, 0, 0, 0]  # 1 disc reaches 0M; 3 discs reach 1M, 1F and 1G
    destroyed = erupt(g)
    assert destroyed == ["0M", "1G"]
    assert g.statues_left[YELLOW] == 8 - 4
    assert points(g, YELLOW).statues == 3 + 3 + 2 + 1 == 9
    assert g.lava == [0] * 6


def test_r19_eruption_by_lava_count_and_the_fourth_disc_does_nothing():
    g = new()
    for seg in range(4):
        for band in "GFM":
            statue(g, RED, f"{seg}{band}")
    g.lava = [0, 1, 2, 3, 0, 0]
    g.lava[0] = 0
    destroyed = erupt(g)
    assert destroyed == sorted(["1M", "2M", "2F", "3M", "3F", "3G"])
    g2 = new()
    for band in "GFM":
        statue(g2, RED, f"4{band}")
    g2.lava = [0, 0, 0, 0, 4, 0]
    assert erupt(g2) == ["4F", "4G", "4M"]


def test_r19_shamans_dodge_the_lava():
    g = new()
    shaman_to(g, RED, "2M")
    g.lava = [0, 0, 1, 0, 0, 0]
    erupt(g)
    assert g.board.space_name(g.shaman[RED]) == "2M"


def first_scoring_position(variant="base"):
    """Red's turn; the next refill draws the last 2-tree card."""
    g = new(variant, start="red")
    put_slot(g, 2, "fish1b")
    put_slot(g, 3, "whitepearl")
    g.piles[0] = []
    g.piles[1] = [c for c in g.piles[1] if g.deck.cards[c].kind != "lava"][:1]
    return g


def test_r19_r20_first_scoring_buy_in_turn_order_then_erupt_and_score():
    g = first_scoring_position()
    give(g, RED, "shell")
    give(g, YELLOW, "shell")
    give(g, YELLOW, "shell")
    place_disc(g, YELLOW, 3, 1)
    g.apply("1@0")  # red's turn triggers the scoring
    g.apply("take 1a")  # yellow takes the fish; the refill empties the 2-tree pile
    assert g.phase_name == "prescore" and g.to_move == "red"  # the triggering player first
    assert g.legal_decisions() == ["buy butterflies", "buy forest", "buy priestess", "pass"]
    g.apply("buy forest")
    assert g.to_move == "yellow" and g.phase_name == "prescore"
    assert "buy forest" not in g.legal_decisions()
    events = g.apply("buy majority")
    scoring = next(e.scoring for e in events if isinstance(e, Scored))
    assert scoring.round == 1
    assert scoring.of("red").scoring_cards == ("forest",)
    assert scoring.of("yellow").scoring_cards == ("majority",)
    assert g.round == 2


def test_r20_refill_finishes_from_the_3_tree_pile_after_the_first_scoring():
    g = first_scoring_position("tactical")
    place_disc(g, YELLOW, 3, 1)
    place_disc(g, RED, 2, 1)
    g.apply("1@0")  # red 3 against yellow 3? no: red 2+1 is on beach 0, red has 2 on beach 1
    events = g.apply("take 1a")  # two slots empty: the last 2-tree card fills one
    kinds = [e.kind for e in events]
    assert kinds.index("scoring") < len(kinds) - 1
    reveals_after = [e for e in events[kinds.index("scoring") :] if isinstance(e, Revealed)]
    assert reveals_after, "the slot emptied before the scoring is filled afterwards"
    assert all(g.deck.pile_of_card[e.card] == 2 for e in reveals_after)
    assert all(s >= 0 for s in g.slots)


def test_r20_a_lava_card_as_last_2_tree_card_triggers_the_scoring_once_its_disc_is_placed():
    g = new("base", start="red")
    put_slot(g, 2, "fish1b")
    g.piles[0] = []
    g.piles[1] = [c for c in g.piles[1] if g.deck.cards[c].kind == "lava"][:1]
    place_disc(g, YELLOW, 3, 1)
    g.apply("1@0")
    events = g.apply("take 1a")
    assert LavaPlaced(1, "card") in events
    assert g.phase_name == "prescore"


def test_r21_second_scoring_when_piles_are_empty_and_boat_stops_at_an_empty_segment():
    g = new("tactical", start="red")
    g.round = 2
    g.piles = [[], [], []]
    g.slots[2] = g.slots[3] = -1
    g.discard += [
        c for c in range(len(g.deck.cards)) if c not in g.slots and g.deck.cards[c].kind != "lava"
    ]
    statue(g, RED, "5M")
    events = g.apply("1@0")
    assert g.is_terminal()
    result = g.result()
    assert result.winner == "red"
    assert [e.kind for e in events][-3:] == ["eruption", "scoring", "result"]


def test_r22_fish_goes_to_strictly_more_baskets():
    g = new()
    give(g, RED, "fish2")
    give(g, YELLOW, "fish1b")
    assert points(g, RED).fish == 3 and points(g, YELLOW).fish == 0
    give(g, YELLOW, "fish1b")
    assert points(g, RED).fish == 0 and points(g, YELLOW).fish == 0


def test_r22_pearls_white_1_black_2_both_4():
    g = new()
    give(g, RED, "whitepearl")
    assert points(g, RED).pearls == 1
    give(g, YELLOW, "blackpearl")
    assert points(g, YELLOW).pearls == 2
    give(g, RED, "blackpearl") if False else None
    g2 = new()
    give(g2, RED, "whitepearl")
    give(g2, RED, "blackpearl")
    assert points(g2, RED).pearls == 4


def test_r22_nautilus_3_and_shells_1_each_in_the_second_scoring_only():
    g = new()
    give(g, RED, "nautilus")
    give(g, RED, "shell")
    give(g, RED, "shell")
    assert points(g, RED, rnd=2).nautilus == 3
    assert points(g, RED, rnd=2).shells == 2
    assert points(g, RED, rnd=1).shells == 0


def test_r22_scoring_cards():
    g = new()
    for space in ("0G", "0F", "0M", "1F", "2F", "3M"):
        statue(g, RED, space)
    statue(g, YELLOW, "4G")
    statue(g, YELLOW, "5G")
    give(g, RED, "fish1b")  # 1 butterfly
    give(g, RED, "nautilus")  # 2 butterflies
    for item in ("butterflies", "majority", "segment", "forest", "mountain"):
        own(g, RED, item)
    p = points(g, RED)
    assert p.butterflies == 3
    assert p.majority == 2 * 2  # forest and mountain; grassland 1 vs 2 is yellow's
    assert p.segment == 4  # segment 0 complete
    assert p.forest == 2 * 3
    assert p.mountain == 3 * 2
    assert p.statues == 1 + 2 * 3 + 3 * 2
    assert points(g, YELLOW).majority == 0  # yellow owns no scoring card


def test_r22_without_the_card_no_card_points():
    g = new()
    statue(g, RED, "0F")
    give(g, RED, "fish1b")
    p = points(g, RED)
    assert p.forest == p.butterflies == p.majority == 0


def test_r23_between_rounds_cards_return_priestess_turns_up_lava_goes_statues_stay():
    g = new()
    own(g, RED, "forest")
    g.board_owner[5] = 2  # priestess face down
    statue(g, RED, "2G")
    give(g, RED, "shell")
    g.lava = [0, 0, 0, 1, 0, 0]
    g._score(1, [])
    assert g.board_owner == [-1] * 6
    assert g.lava == [0] * 6
    assert g.statue_owner[g.board.parse_space("2G")] == RED
    assert len(g.shells[RED]) == 1
    assert g.round == 2


def finish(g, red_total, yellow_total):
    parts = (
        PlayerScoring("red", Points(), red_total, (), 0, (), 0, ()),
        PlayerScoring("yellow", Points(), yellow_total, (), 0, (), 0, ()),
    )
    g.scorings = [Scoring(2, parts)]
    g.phase = 6
    return g.result()


def test_r24_most_points_wins():
    r = finish(new(start="red"), 30, 28)
    assert (r.winner, r.tiebreak) == ("red", None)


def test_r24_tie_broken_by_statues_then_by_not_starting():
    g = new(start="red")
    statue(g, YELLOW, "1G")
    r = finish(g, 20, 20)
    assert (r.winner, r.tiebreak) == ("yellow", "statues")
    r = finish(new(start="yellow"), 20, 20)
    assert (r.winner, r.tiebreak) == ("red", "start")


def test_r25_tactical_has_no_lava_cards_and_piles_of_15_8_11():
    g = Game("tactical", 3)
    sizes = [len(p) for p in g.piles]
    assert sizes == [3, 8, 11]  # 12 of the 15 one-tree cards are in the slots
    every = [*g.piles[0], *g.piles[1], *g.piles[2], *g.slots]
    assert not any(g.deck.cards[c].kind == "lava" for c in every)
    assert Game("base", 3).invocation == [-2, -2]
    assert g.invocation == [-1, -1]


def test_r25_tactical_no_purchase_before_scoring():
    g = first_scoring_position("tactical")
    give(g, RED, "shell")
    place_disc(g, YELLOW, 3, 1)
    g.apply("1@0")
    events = g.apply("take 1a")
    assert any(isinstance(e, Scored) for e in events)
    assert g.phase_name == "turn"


def test_r26_invocation_goes_with_a_disc_next_to_the_boat_and_lava_lands_where_boat_stops():
    g = new("tactical", start="red")
    legal = g.legal_decisions()
    assert "2@0*" in legal and "2@3*" not in legal
    assert "R26" in g.why_illegal("2@3*")
    events = g.apply("2@0*")
    assert g.boat == 2
    assert g.lava[2] == 1
    assert LavaPlaced(2, "invocation") in events
    assert g.invocation[RED] == 0


def test_r26_lava_is_placed_before_cards_are_distributed():
    g = new("tactical", start="red")
    put_slot(g, 4, "priestess")
    place_disc(g, RED, 4, 2)
    g.apply("2@0*")  # boat to 2; lava lands on crater 2 first; red takes the priestess
    g.apply("take 2a")
    assert g.legal_decisions() == ["lava 2>1", "lava 2>3"]


def test_r26_no_invocation_when_four_lava_discs_are_out():
    g = new("tactical", start="red")
    g.lava = [1, 1, 1, 1, 0, 0]
    assert not any(d.endswith("*") for d in g.legal_decisions())
    assert "all 4 lava discs" in g.why_illegal("2@0*")


def test_r27_rulebook_invocation_disc_returns_when_the_boat_stops_at_its_beach():
    g = new("tactical", start="red")
    g.invocation[YELLOW] = 3
    g.apply("3@0")
    assert g.invocation[YELLOW] == -1


def test_r27_invocation_disc_cannot_be_taken_back_as_an_action():
    g = new("tactical", start="red")
    g.invocation[RED] = 3
    assert "R27" in g.why_illegal("-0@3")
    assert "R27" in g.why_illegal("-1@3*")
    assert not any(d.endswith("*") for d in g.legal_decisions())
    assert "R27" in g.why_illegal("1@0*")


@pytest.mark.parametrize("variant", ["base", "tactical"])
def test_scoring_breakdown_adds_up_to_the_total(variant):
    import random

    g = Game(variant, 11)
    rng = random.Random(11)
    while not g.is_terminal():
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    first, second = g.scorings
    for colour in ("red", "yellow"):
        a, b = first.of(colour), second.of(colour)
        assert a.total == sum(a.points.to_record().values())
        assert b.total == a.total + sum(b.points.to_record().values())
    assert g.result().scores == second.totals
