"""KANALOA-NOTATION's worked example (three players, seed 7) replayed exactly: the deal of
N8, the fish placements with their shrinking legal lists, and every record of the log
excerpt (actions with their decider and legal list, then the automatic records)."""

from __future__ import annotations

import json
from pathlib import Path

from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.log import event_records, setup_record

FISH = [
    ("fish HONU>KAI green", "fish EWA>AKAU red", "fish LAU>HONU yellow"),
    ("fish KAI>ONO white", "fish AKAU>ILIO white", "fish ONO>LAU white"),
    ("fish NALU>KAI white", "fish ILIO>ONO red", "fish LAU>PALI yellow"),
    ("fish ONO>NALU green", "fish PALI>EWA white", "fish ONO>PALI white"),
    ("fish LAU>KAI white", "fish MOKU>AKAU red", "fish HONU>MOKU white"),
    ("fish MOKU>NALU green", "fish ILIO>EWA white", "fish NALU>ILIO yellow"),
    ("fish NALU>HONU white", "fish ILIO>MOKU white", "fish PALI>ILIO white"),
]
LOG = (Path(__file__).parent / "data" / "worked_example.jsonl").read_text().splitlines()


def test_n8_seed_7_deals_the_worked_example():
    setup = setup_record(Game(seed=7, players=3))
    assert setup["gods"] == {"red": ["Pele"], "yellow": ["Lono"], "green": ["Ku"]}
    assert setup["bag"][:8] == ["Kane3", "volcano", "volcano", "Kane5", "Kane2", "volcano",
                                "Kanaloa/Lono2", "Kane3"]  # fmt: skip
    assert setup["tiles"]["AKAU"] == ["Kane3", "Pele5"]
    assert setup["tiles"]["PALI"] == ["Kanaloa/Lono2", "Ku5"]
    assert "UKU" not in setup["tiles"] and "WAI" not in setup["tiles"]


def test_worked_example_fish_phase_lists_shrink_by_four():
    game = Game(seed=7, players=3)
    size = 84
    for row in FISH:
        for colour, text in zip(("green", "red", "yellow"), row, strict=True):
            assert game.to_move == colour
            assert len(game.legal_decisions()) == size
            game.apply(text, colour)
            size -= 4
    assert game.phase_name == "start"


def test_worked_example_log_replays_record_by_record():
    game = Game(seed=7, players=3)
    for row in FISH:
        for text in row:
            game.apply(text)
    produced: list[dict] = []
    for line in LOG:
        record = json.loads(line)
        if record["type"] == "action":
            assert not produced, f"engine records not in the log: {produced}"
            assert record["player"] == game.to_move
            assert record["legal"] == game.legal_decisions()
            produced = event_records(game, game.apply(record["action"]))
        else:
            assert produced, f"the log has {record} that the engine did not produce"
            assert produced.pop(0) == record
    assert not produced
    # The position at the start of turn 7, as the example states it.
    assert game.hand_tiles(2) == ["Kanaloa5", "Ku4", "Pele5"]
    assert game.hand_tiles(0) == ["Kanaloa/Ku2", "Kanaloa/Lono2"]
    assert game.hand_tiles(1) == []
    assert all(v == 0 for t in game.temples for v in t)
    assert game.volcanoes == 3
    assert len(game.bag) == 69
    assert game.to_move == "yellow"
