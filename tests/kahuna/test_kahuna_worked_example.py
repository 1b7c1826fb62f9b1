"""The rulebook's worked example (page 5), played decision by decision (K9, K12, K13, K16,
K18): white lays BARI-DUDA and ALOA-BARI, black cuts ELAI-HUNA and lays it again."""

from support.kahuna_positions import position, records

# The starting situation, traced from the example's text: black marks ALOA and HUNA,
# white marks DUDA; every bridge the example names is where the text says it is.
START_BRIDGES = {
    "ALOA-BARI": "black", "ALOA-HUNA": "black", "ALOA-DUDA": "white",
    "BARI-COCO": "white", "BARI-ELAI": "white",
    "DUDA-ELAI": "white", "DUDA-HUNA": "white", "ELAI-HUNA": "white",
    "HUNA-IFFI": "black", "HUNA-LALE": "black",
    "ELAI-FAAA": "black", "ELAI-IFFI": "black", "ELAI-JOJO": "black",
}  # fmt: skip
START_STONES = {"ALOA": "black", "HUNA": "black", "DUDA": "white"}


def example():
    return position(
        {"white": ["ALOA", "BARI", "KAHU"], "black": ["ELAI", "HUNA", "HUNA"]},
        START_BRIDGES,
        START_STONES,
        to_move="white",
        display=["COCO", "GOLA", "JOJO"],
    )


def effects(game, events):
    return [
        (r["type"], r["player"], r.get("island") or r.get("line"), r["event"])
        for r in records(game, events)
        if r["type"] in ("stone", "bridge")
    ]


def test_worked_example_white_turn_bari_then_aloa():
    game = example()
    # Step 1-3: white lays BARI-DUDA, marks BARI, removes black ALOA-BARI; black loses ALOA.
    events = game.apply("play BARI>DUDA", "white")
    assert effects(game, events) == [
        ("stone", "white", "BARI", "placed"),
        ("bridge", "black", "ALOA-BARI", "removed"),
        ("stone", "black", "ALOA", "removed"),
    ]
    # Step 4-5 (K18): white re-takes the freed ALOA-BARI, marks ALOA, removes ALOA-HUNA;
    # black loses HUNA.
    events = game.apply("play ALOA>BARI", "white")
    assert effects(game, events) == [
        ("stone", "white", "ALOA", "placed"),
        ("bridge", "black", "ALOA-HUNA", "removed"),
        ("stone", "black", "HUNA", "removed"),
    ]
    game.apply("draw 1", "white")
    assert game.to_move == "black"
    assert game.stone[game.board.islands.index("BARI")] == 0


def test_worked_example_black_turn_cut_and_relay_marks_huna_and_elai():
    game = example()
    for text in ("play BARI>DUDA", "play ALOA>BARI", "draw 1"):
        game.apply(text)
    # Step 9 (K16, K17): two HUNA cards remove the white bridge ELAI-HUNA.
    events = game.apply("cut ELAI-HUNA with HUNA+HUNA", "black")
    assert effects(game, events) == [("bridge", "white", "ELAI-HUNA", "removed")]
    # Steps 10-13 (K12, K13, K18): black lays ELAI-HUNA and gains both islands; the card's
    # island ELAI first, then HUNA; white's DUDA stone goes when DUDA-HUNA goes.
    events = game.apply("play ELAI>HUNA", "black")
    assert effects(game, events) == [
        ("stone", "black", "ELAI", "placed"),
        ("bridge", "white", "BARI-ELAI", "removed"),
        ("bridge", "white", "DUDA-ELAI", "removed"),
        ("stone", "black", "HUNA", "placed"),
        ("bridge", "white", "DUDA-HUNA", "removed"),
        ("stone", "white", "DUDA", "removed"),
    ]
    game.apply("draw pile", "black")
    names = game.board.islands
    marked = {names[i]: ("white", "black")[o] for i, o in enumerate(game.stone) if o >= 0}
    assert marked == {"ALOA": "white", "BARI": "white", "ELAI": "black", "HUNA": "black"}
    # "Situation après les deux tours": white keeps ALOA-DUDA and BARI-DUDA only at DUDA.
    assert game.held(0, names.index("DUDA")) == 2
