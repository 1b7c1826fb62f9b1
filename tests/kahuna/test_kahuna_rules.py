"""One test per Kahuna rule and ruling (K1..K32 of KAHUNA-RULINGS.md, K33.. of
docs/KAHUNA-RULINGS-LOCAL.md), named after it. The worked example is in
test_kahuna_worked_example.py."""

import json
import random
from importlib import resources

import pytest
from support.kahuna_positions import position, records

from haleakala.games.kahuna import Game, IllegalDecision, NotationError, SaveError
from haleakala.games.kahuna.board import BoardError, default_board, load_board
from haleakala.games.kahuna.game import deal_deck

B = default_board()
I = {name: i for i, name in enumerate(B.islands)}  # noqa: E741


def line(name: str) -> int:
    return B.line_names.index(name)


def bridges_of(game, player):
    return sorted(B.line_names[i] for i, o in enumerate(game.bridge) if o == player)


def test_k1_board_has_the_27_lines_and_the_card_counts():
    assert len(B.islands) == 12 and len(B.lines) == 27
    counts = {n: len(B.lines_of[i]) for n, i in I.items()}
    assert counts == {"ALOA": 3, "BARI": 5, "COCO": 4, "DUDA": 4, "ELAI": 6, "FAAA": 5,
                      "GOLA": 4, "HUNA": 5, "IFFI": 5, "JOJO": 5, "KAHU": 5, "LALE": 3}  # fmt: skip
    assert "ELAI-HUNA" in B.line_names and "HUNA-KAHU" not in B.line_names


def test_k1_a_board_file_that_contradicts_the_cards_is_refused(tmp_path):
    text = resources.files("haleakala.games.kahuna").joinpath("data/board.toml").read_text("utf-8")
    bad = tmp_path / "board.toml"
    bad.write_text(text.replace('"KAHU-LALE",', ""), encoding="utf-8")
    with pytest.raises(BoardError, match="KAHU has 4 lines but its card prints 5"):
        load_board(bad)


def test_k2_24_cards_two_per_island():
    deck, _, _ = deal_deck(B, 11)
    assert sorted(deck) == sorted(list(range(12)) * 2)


def test_k3_a_cut_bridge_returns_to_its_owners_supply():
    game = position({"white": ["ELAI", "HUNA"]}, {"ELAI-HUNA": "black"})
    assert game.bridges_left(1) == 24
    game.apply("cut ELAI-HUNA with ELAI+HUNA")
    assert game.bridges_left(1) == 25 and game.bridge[line("ELAI-HUNA")] == -1


def test_k4_seed_3_deals_the_notation_example():
    game = Game(3)
    assert game.start == 1
    assert game.hand_cards(0) == ["DUDA", "IFFI", "KAHU"]
    assert game.hand_cards(1) == ["ALOA", "COCO", "HUNA"]
    assert [B.islands[c] for c in game.display] == ["JOJO", "FAAA", "ELAI"]
    assert [B.islands[c] for c in game.pile][:4] == ["GOLA", "LALE", "GOLA", "BARI"]


def test_k4_k6_a_given_start_keeps_the_same_deal():
    a, b = Game(8, "white"), Game(8, "black")
    assert a.hands == b.hands and a.pile == b.pile and (a.start, b.start) == (0, 1)


def test_k4_the_reshuffle_is_the_seeded_recipe_on_the_sorted_discard():
    game = Game(5)
    rng = random.Random(0)
    while game.round == 1:
        game.apply(game.legal_actions()[rng.randrange(len(game.legal_actions()))])
    _, _, gen = deal_deck(B, 5)
    expected = sorted(game.display + game.pile)
    gen.shuffle(expected)
    assert game.display + game.pile == expected


def test_k5_majority_is_strictly_more_than_half_of_all_lines():
    game = position({}, {"ALOA-BARI": "white", "ALOA-DUDA": "white", "COCO-GOLA": "white",
                         "COCO-KAHU": "white", "BARI-ELAI": "black", "DUDA-ELAI": "black",
                         "ELAI-FAAA": "black"}, {"ALOA": "white"})  # fmt: skip
    assert game.has_majority(0, I["ALOA"])  # 2 of 3
    assert not game.has_majority(0, I["COCO"])  # 2 of 4 is half
    assert not game.has_majority(1, I["ELAI"])  # 3 of 6 is half
    assert B.need[I["ELAI"]] == 4 and B.need[I["BARI"]] == 3 and B.need[I["LALE"]] == 2


def test_k8_a_turn_is_plays_then_one_closing_decision():
    game = position({"white": ["HUNA", "LALE"]}, to_move="white")
    game.apply("play HUNA>LALE")
    assert game.to_move == "white" and game.phase_name == "played"
    game.apply("draw pile")
    assert game.to_move == "black" and game.phase_name == "open"


def test_k9_a_single_card_lays_a_bridge_on_a_free_line_of_its_island():
    game = position({"white": ["ALOA"]}, {"ALOA-BARI": "black", "ALOA-DUDA": "black"},
                    {"ALOA": "black"})  # fmt: skip
    assert [t for t in game.legal_decisions() if t.startswith("play")] == ["play ALOA>HUNA"]
    game.apply("play ALOA>HUNA")
    assert game.bridge[line("ALOA-HUNA")] == 0
    full = position({"white": ["ALOA"]}, {"ALOA-BARI": "black", "ALOA-DUDA": "black",
                                          "ALOA-HUNA": "black"}, {"ALOA": "black"})  # fmt: skip
    assert not [t for t in full.legal_decisions() if t.startswith("play")]
    assert "K9" in full.why_illegal("play ALOA>HUNA")


def test_k10_a_bridge_may_touch_an_island_marked_by_the_opponent():
    game = position({"white": ["BARI"]}, {"ALOA-DUDA": "black", "ALOA-HUNA": "black"},
                    {"ALOA": "black"})  # fmt: skip
    game.apply("play BARI>ALOA")
    assert game.bridge[line("ALOA-BARI")] == 0 and game.stone[I["ALOA"]] == 1


@pytest.mark.parametrize(
    ("decision", "order"),
    [("play HUNA>LALE", ["HUNA", "LALE"]), ("play LALE>HUNA", ["LALE", "HUNA"])],
)
def test_k11_k12_one_bridge_marks_both_its_islands_card_island_first(decision, order):
    game = position({"white": ["HUNA", "LALE"]}, {"KAHU-LALE": "white", "ALOA-HUNA": "white",
                    "DUDA-HUNA": "white"})  # fmt: skip
    events = game.apply(decision)
    assert [r["island"] for r in records(game, events) if r["type"] == "stone"] == order


def test_k12_the_stone_removes_every_opposing_bridge_of_the_island():
    game = position({"white": ["LALE"]}, {"HUNA-LALE": "white", "IFFI-LALE": "black",
                                          "IFFI-KAHU": "black"})  # fmt: skip
    game.apply("play LALE>KAHU")
    assert game.stone[I["LALE"]] == 0
    assert bridges_of(game, 1) == ["IFFI-KAHU"]


def test_k13_stone_loss_after_removal_and_the_chain_stops_there():
    # Black marks IFFI with exactly 3 of 5; white's stone on LALE removes IFFI-LALE.
    game = position({"white": ["LALE"]}, {"HUNA-LALE": "white", "IFFI-LALE": "black",
                    "ELAI-IFFI": "black", "IFFI-JOJO": "black", "JOJO-KAHU": "black",
                    "GOLA-JOJO": "black", "FAAA-JOJO": "black"},
                    {"IFFI": "black", "JOJO": "black"})  # fmt: skip
    events = game.apply("play LALE>KAHU")
    assert [(r["type"], r.get("island") or r.get("line")) for r in records(game, events)] == [
        ("stone", "LALE"), ("bridge", "IFFI-LALE"), ("stone", "IFFI")]  # fmt: skip
    assert game.stone[I["JOJO"]] == 1  # JOJO keeps its 4 of 5: no further chain


def test_k14_no_stone_left_nothing_happens_and_the_island_is_marked_later():
    marked = ["ALOA", "BARI", "COCO", "DUDA", "ELAI", "FAAA", "GOLA", "HUNA", "IFFI", "JOJO"]
    bridges = {n: "white" for n in B.line_names if not n.endswith("LALE") and "KAHU" not in n}
    game = position({"white": ["LALE", "KAHU"]}, {**bridges, "IFFI-LALE": "white",
                    "KAHU-LALE": "black"}, {n: "white" for n in marked})  # fmt: skip
    assert game.stones_left(0) == 0
    game.apply("play LALE>HUNA")  # 2 of 3 on LALE, no stone in supply
    assert game.stone[I["LALE"]] == -1 and game.bridge[line("KAHU-LALE")] == 1
    # A stone comes back to the supply (as a K13 loss would bring it): JOJO loses it.
    game.bridge[line("ELAI-JOJO")] = game.bridge[line("FAAA-JOJO")] = -1
    game.stone[I["JOJO"]] = -1
    game._legal = None
    game.apply("play KAHU>COCO")
    assert game.stone[I["LALE"]] == 0 and game.bridge[line("KAHU-LALE")] == -1


def test_k15_a_returned_stone_is_not_used_during_the_opponents_turn():
    marked = ["ALOA", "BARI", "COCO", "DUDA", "ELAI", "FAAA", "GOLA", "HUNA", "IFFI", "JOJO"]
    bridges = {n: "black" for n in B.line_names if not n.endswith("LALE") and "KAHU" not in n}
    game = position({"white": ["COCO", "GOLA"], "black": ["KAHU"]}, {**bridges,
                    "IFFI-LALE": "black", "HUNA-LALE": "black"},
                    {n: "black" for n in marked}, to_move="white")  # fmt: skip
    assert game.stones_left(1) == 0 and game.has_majority(1, I["LALE"])
    game.apply("cut COCO-GOLA with COCO+GOLA")  # black loses the COCO and GOLA stones
    assert game.stones_left(1) == 2 and game.stone[I["LALE"]] == -1
    game.apply("draw pile")
    assert game.stone[I["LALE"]] == -1
    game.apply("play KAHU>JOJO")  # black's own bridge: now LALE is marked (K14)
    assert game.stone[I["LALE"]] == 1


def test_k16_only_an_opposing_bridge_can_be_cut_and_needs_no_supply():
    game = position({"white": ["HUNA", "HUNA"]}, {"ELAI-HUNA": "white", "DUDA-HUNA": "black"})
    assert "K16" in game.why_illegal("cut ELAI-HUNA with HUNA+HUNA")
    assert "cut DUDA-HUNA with HUNA+HUNA" in game.legal_decisions()
    game.bridge = [0 if o == -1 else o for o in game.bridge]  # all of white's lines
    game.bridge[line("DUDA-HUNA")] = 1
    game._legal = None
    assert "cut DUDA-HUNA with HUNA+HUNA" in game.legal_decisions()


def test_k17_only_the_cards_of_the_two_islands_cut_a_bridge():
    game = position({"white": ["HUNA", "IFFI"]}, {"ELAI-HUNA": "black"})
    with pytest.raises(NotationError, match="K17"):
        game.parse("cut ELAI-HUNA with HUNA+IFFI")
    assert game.parse("cut HUNA-ELAI with HUNA+ELAI") == game.parse("cut ELAI-HUNA with ELAI+HUNA")


def test_k18_a_line_freed_this_turn_can_be_taken_again():
    game = position({"white": ["HUNA", "HUNA", "ELAI"]}, {"ELAI-HUNA": "black"})
    game.apply("cut ELAI-HUNA with HUNA+HUNA")
    game.apply("play ELAI>HUNA")
    assert game.bridge[line("ELAI-HUNA")] == 0


def test_k19_discarding_and_playing_exclude_each_other():
    game = position({"white": ["HUNA", "LALE", "ALOA"]})
    game.apply("play HUNA>LALE")
    assert not any(t.startswith("discard") for t in game.legal_decisions())
    assert "K19" in game.why_illegal("discard ALOA")
    other = position({"white": ["HUNA", "LALE", "ALOA"]})
    other.apply("discard ALOA")
    assert not any(t.startswith(("play", "cut")) for t in other.legal_decisions())
    assert other.buried[0] == [I["ALOA"]] and other.discard == []
    assert other.observation(1)["buried"]["white"] == 1


def test_k20_a_display_card_is_replaced_in_its_slot_from_the_pile():
    game = position({"white": ["HUNA"]}, display=["ALOA", "BARI", "COCO"])
    top = game.pile[0]
    events = game.apply("draw 2")
    assert game.display[1] == top
    assert records(game, events)[1] == {"type": "reveal", "slot": 2, "card": B.islands[top]}


def test_k21_an_empty_pile_leaves_the_slot_empty_and_draw_pile_illegal():
    game = position({"white": ["HUNA"]}, display=["ALOA", "BARI", "COCO"], pile=[])
    assert "draw pile" not in game.legal_decisions()
    assert "K21" in game.why_illegal("draw pile")
    game.apply("draw 1")
    assert game.display[0] == -1 and game.round == 1


def test_k22_a_hand_of_five_cannot_draw():
    game = position({"white": ["ALOA", "ALOA", "BARI", "COCO", "DUDA"]})
    assert not any(t.startswith("draw") for t in game.legal_decisions())
    assert "K22" in game.why_illegal("draw pile")


def test_k23_declining_forces_the_opponent_to_draw_even_with_five_cards():
    game = position({"white": ["ALOA"], "black": ["ALOA", "BARI", "BARI", "COCO", "COCO"]})
    game.apply("end")  # white declines
    assert game.must_draw and "end" not in game.legal_decisions()
    assert "K23" in game.why_illegal("end")
    game.apply("discard ALOA")  # make room, then draw
    game.apply("draw pile")
    assert "end" in game.legal_decisions()  # white may decline again


def test_k24_k25_the_round_ends_on_the_last_draw_and_the_other_player_starts():
    game = position({"white": ["HUNA"], "black": ["IFFI"]}, {"HUNA-LALE": "white"},
                    display=["ALOA", None, None], pile=[])  # fmt: skip
    events = game.apply("draw 1")
    kinds = [r["type"] for r in records(game, events)]
    assert kinds == ["draw", "scoring", "shuffle"]
    assert game.round == 2 and game.to_move == "black" and not game.must_draw
    assert game.hand_cards(0) == ["ALOA", "HUNA"] and game.hand_cards(1) == ["IFFI"]
    assert game.bridge[line("HUNA-LALE")] == 0  # the board stays (K25)
    assert len(game.pile) + 3 == 21 and game.discard == []


def test_k26_after_round_three_each_player_has_one_last_turn():
    game = position({"white": ["HUNA"], "black": ["IFFI", "LALE"]}, rnd=3, points=[[1, 0], [0, 2]],
                    display=["ALOA", None, None], pile=[])  # fmt: skip
    game.apply("draw 1")
    assert game.to_move == "black" and game.legal_decisions()[-1] == "play LALE>KAHU"
    assert not any(t.startswith("draw") for t in game.legal_decisions())
    game.apply("play LALE>KAHU")
    game.apply("end")
    assert game.to_move == "white" and not game.is_terminal()
    events = game.apply("end")
    assert game.is_terminal()
    assert [r["type"] for r in records(game, events)] == ["scoring", "result"]


def test_k27_scorings_pay_1_then_2_then_the_difference():
    def scored(rnd, stones):
        game = position({}, {"ALOA-BARI": "white", "ALOA-DUDA": "white", "HUNA-LALE": "black",
                             "KAHU-LALE": "black", "IFFI-LALE": "black"},
                        stones, rnd=rnd, display=["COCO", None, None], pile=[],
                        points=[[0, 0]] * (rnd - 1))  # fmt: skip
        events = game.apply("draw 1")
        return next(r for r in records(game, events) if r["type"] == "scoring")["points"]

    assert scored(1, {"ALOA": "white"}) == {"white": 1, "black": 0}
    assert scored(2, {"ALOA": "white"}) == {"white": 2, "black": 0}
    assert scored(1, {"ALOA": "white", "LALE": "black"}) == {"white": 0, "black": 0}


def test_k27_the_third_scoring_pays_the_difference():
    bridges = {"ALOA-BARI": "white", "ALOA-DUDA": "white", "HUNA-LALE": "white",
               "KAHU-LALE": "white", "GOLA-JOJO": "black", "JOJO-KAHU": "black",
               "IFFI-JOJO": "black"}  # fmt: skip
    stones = {"ALOA": "white", "LALE": "white", "JOJO": "black"}
    last = {"rnd": 3, "display": ["COCO", None, None], "pile": [], "points": [[0, 0], [0, 0]]}
    game = position({}, bridges, stones, **last)
    game.apply("draw 1")
    game.apply("end")
    events = game.apply("end")
    assert records(game, events)[0]["points"] == {"white": 1, "black": 0}
    three = position({}, {**bridges, "JOJO-KAHU": "white"}, {"ALOA": "white", "LALE": "white"},
                     **last)  # fmt: skip
    three.apply("draw 1")
    three.apply("end")
    assert records(three, three.apply("end"))[0]["points"] == {"white": 2, "black": 0}


@pytest.mark.parametrize(
    ("points", "bridges", "stones", "winner", "reason"),
    [
        ([[1, 0], [0, 2]], {}, {}, "black", "points"),
        ([[1, 0], [0, 0]], {"HUNA-LALE": "black", "KAHU-LALE": "black"}, {"LALE": "black"},
         "black", "third"),
        ([[1, 0], [0, 1]], {"ALOA-BARI": "white"}, {}, "white", "bridges"),
        ([[1, 0], [0, 1]], {}, {}, None, "draw"),
    ],
)  # fmt: skip
def test_k28_totals_then_third_scoring_then_bridges_else_a_draw(
    points, bridges, stones, winner, reason
):
    game = position({}, bridges, stones, rnd=3, display=["COCO", None, None], pile=[],
                    points=points)  # fmt: skip
    game.apply("draw 1")
    game.apply("end")
    game.apply("end")
    assert (game.result().winner, game.result().reason) == (winner, reason)


def test_k29_removing_every_opposing_bridge_in_round_two_wins_at_once():
    game = position({"white": ["HUNA", "HUNA"]}, {"ELAI-HUNA": "black"}, rnd=2,
                    points=[[0, 1]])  # fmt: skip
    events = game.apply("cut ELAI-HUNA with HUNA+HUNA")
    assert game.is_terminal()
    assert records(game, events)[-1] == {"type": "result", "totals": {"white": 0, "black": 1},
                                         "winner": "white", "reason": "wipeout"}  # fmt: skip
    first = position({"white": ["HUNA", "HUNA"]}, {"ELAI-HUNA": "black"}, rnd=1)
    first.apply("cut ELAI-HUNA with HUNA+HUNA")
    assert not first.is_terminal()


def test_k30_with_every_bridge_on_the_board_only_pairs_remain():
    lines = {n: "white" for n in B.line_names[:25]}
    game = position({"white": ["KAHU", "KAHU"]}, {**lines, "KAHU-LALE": "black"},
                    {n: "white" for n in ("ALOA", "BARI", "COCO", "DUDA", "ELAI", "FAAA",
                                         "GOLA", "HUNA", "IFFI", "JOJO")})  # fmt: skip
    assert game.bridges_left(0) == 0
    assert not any(t.startswith("play") for t in game.legal_decisions())
    assert "cut KAHU-LALE with KAHU+KAHU" in game.legal_decisions()
    assert "K30" in game.why_illegal("play KAHU>JOJO") or "taken" in game.why_illegal(
        "play KAHU>JOJO"
    )


def test_k31_a_player_sees_no_hidden_card_and_determinize_keeps_the_view():
    game = Game(4)
    view = game.observation(0)
    assert view["hand"] == game.hand_cards(0)
    assert view["opponent_hand"] == {"size": 3, "known": []}
    assert view["pile"] == len(game.pile) and "seed" not in view
    world = game.determinize(0, random.Random(1))
    assert world.observation(0) == view and world.hands[0] == game.hands[0]
    assert sorted(world.pile + [c for c in range(12) for _ in range(world.hands[1][c])]) == sorted(
        game.pile + [c for c in range(12) for _ in range(game.hands[1][c])]
    )


def test_k31_a_card_taken_from_the_display_stays_known_in_determinized_worlds():
    game = Game(4)
    taken = game.display[0]
    game.apply("draw 1")
    for s in range(5):
        world = game.determinize(1, random.Random(s))
        assert world.hands[game.start][taken] >= 1


def test_k32_the_legal_list_is_sorted_unique_canonical_and_never_empty():
    game = Game(9)
    rng = random.Random(9)
    while not game.is_terminal():
        texts = game.legal_decisions()
        assert texts and texts == sorted(set(texts))
        assert all(game.format(game.parse(t)) == t for t in texts)
        game.apply(game.legal_actions()[rng.randrange(len(game.legal_actions()))])


def test_illegal_decisions_are_refused_with_a_reason_and_change_nothing():
    game = Game(2)
    before = game.digest()
    with pytest.raises(IllegalDecision, match=r"not (white|black)'s"):
        game.apply("end", player=("white", "black")[1 - game.decider])
    with pytest.raises(IllegalDecision, match="no line between"):
        game.apply("play HUNA>KAHU")
    assert game.digest() == before


def test_a_save_that_breaks_a_rule_is_refused_with_its_path():
    data = json.loads(Game(1).to_json())
    data["stones"] = {"ALOA": "white"}
    with pytest.raises(SaveError, match=r"\$\.stones\.ALOA: white lacks the majority"):
        Game.from_json(json.dumps(data))
    data["stones"] = {}
    data["hands"]["white"].append("ZZZZ")
    with pytest.raises(SaveError, match=r"\$\.hands\.white\[3\]"):
        Game.from_json(json.dumps(data))


def test_k34_a_wipeout_by_a_stone_is_declared_after_the_whole_decision():
    game = position({"white": ["LALE"]}, {"HUNA-LALE": "white", "IFFI-LALE": "black",
                    "GOLA-KAHU": "white", "JOJO-KAHU": "white"}, rnd=2,
                    points=[[1, 0]])  # fmt: skip
    events = game.apply("play LALE>KAHU")
    seen = [(r["type"], r.get("island") or r.get("line") or r.get("reason"))
            for r in records(game, events)]  # fmt: skip
    assert seen == [
        ("stone", "LALE"),
        ("bridge", "IFFI-LALE"),
        ("stone", "KAHU"),
        ("result", "wipeout"),
    ]
    assert game.stone[I["KAHU"]] == 0 and game.result().totals == (1, 0)


def test_k33_a_display_card_stays_known_until_that_island_is_played():
    game = position({"white": ["HUNA"], "black": ["LALE"]}, display=["HUNA", "IFFI", "JOJO"])
    game.apply("draw 1")
    assert game.observation(1)["opponent_hand"] == {"size": 2, "known": ["HUNA"]}
    game.apply("end")
    game.apply("play HUNA>LALE")  # one HUNA played: which copy is unknown, so none stays known
    assert game.observation(1)["opponent_hand"] == {"size": 1, "known": []}


def test_k33_a_face_down_discard_does_not_tell_which_known_card_went():
    white = position({"white": ["HUNA", "KAHU"]}, display=["IFFI", "JOJO", "LALE"])
    white.apply("draw 1")  # black saw white take IFFI
    white.apply("draw pile")
    assert white.observation(1)["opponent_hand"] == {"size": 3, "known": ["IFFI"]}
    views = []
    for card in ("IFFI", "KAHU"):
        trial = white.clone()
        trial.apply(f"discard {card}")
        views.append(trial.observation(1))
    assert views[0] == views[1]
    assert views[0]["opponent_hand"] == {"size": 2, "known": []}
