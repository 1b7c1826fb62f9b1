"""``haleakala play --game kanaloa --players N --json --legal`` and ``replay``: the log is
evidence; a truncated or tampered log, or a decision by the wrong player, is refused with a
sentence naming the game, its seed and the record; saves load only when their history is
legal."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import pytest

from haleakala.cli import main
from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.serialize import SaveError, from_json

SEATS = ["--red", "random", "--yellow", "greedy", "--green", "random", "--blue", "random"]


def play(players: int, seed: int) -> str:
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        status = main(
            ["play", "--game", "kanaloa", "--players", str(players), *SEATS[: 2 * players],
             "--seed", str(seed), "--json", "--legal"]
        )  # fmt: skip
    assert status == 0
    return buffer.getvalue()


@pytest.fixture(scope="module")
def log3() -> str:
    return play(3, 11)


def replay(capsys, tmp_path, text: str) -> tuple[int, str]:
    path = tmp_path / "game.jsonl"
    path.write_text(text)
    capsys.readouterr()
    status = main(["replay", str(path)])
    out = capsys.readouterr()
    return status, out.out + out.err


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_json_legal_logs_replay_cleanly_at_every_player_count(capsys, tmp_path, players):
    text = play(players, 5)
    first = json.loads(text.splitlines()[0])
    assert first["type"] == "setup" and len(first["players"]) == players
    assert json.loads(text.splitlines()[-1])["type"] == "result"
    status, out = replay(capsys, tmp_path, text)
    assert status == 0 and "replay OK: Kanaloa game log" in out


def test_same_seed_same_log_byte_for_byte():
    assert play(2, 9) == play(2, 9) != play(2, 10)


def test_replay_seeded_demands_n8s_deal(capsys, tmp_path, log3):
    records = [json.loads(line) for line in log3.splitlines()]
    records[0]["bag"][0], records[0]["bag"][1] = records[0]["bag"][1], records[0]["bag"][0]
    text = "\n".join(json.dumps(r) for r in records)
    path = tmp_path / "g.jsonl"
    path.write_text(text)
    assert main(["replay", "--seeded", str(path)]) == 1
    assert "N8" in capsys.readouterr().out


def test_truncated_log_is_refused_with_the_game_and_record(capsys, tmp_path, log3):
    lines = log3.splitlines()
    status, out = replay(capsys, tmp_path, "\n".join(lines[: len(lines) // 2]))
    assert status == 1 and "game 0 (seed 11)" in out
    assert "ends before the game is over" in out or "missing" in out


def test_tampered_action_is_refused(capsys, tmp_path, log3):
    lines = log3.splitlines()
    k = next(i for i, line in enumerate(lines) if '"action":"move ' in line)
    record = json.loads(lines[k])
    record["action"] = "move HONU>WAI"
    lines[k] = json.dumps(record)
    status, out = replay(capsys, tmp_path, "\n".join(lines))
    assert status == 1 and f"record {k}" in out and "not legal" in out


def test_decision_logged_for_the_wrong_player_is_refused(capsys, tmp_path, log3):
    lines = log3.splitlines()
    k = next(i for i, line in enumerate(lines) if '"type":"action"' in line)
    record = json.loads(lines[k])
    record["player"] = "blue" if record["player"] != "blue" else "red"
    lines[k] = json.dumps(record)
    status, out = replay(capsys, tmp_path, "\n".join(lines))
    assert status == 1 and "decides (N52)" in out


def test_tampered_draw_and_legal_list_are_refused(capsys, tmp_path, log3):
    lines = log3.splitlines()
    k = next(i for i, line in enumerate(lines) if '"type":"draw","tile":"Kane' in line)
    lines[k] = lines[k].replace('"tile":"Kane', '"tile":"Pele', 1)
    status, out = replay(capsys, tmp_path, "\n".join(lines))
    assert status == 1 and "draw differs" in out
    lines = log3.splitlines()
    k = next(i for i, line in enumerate(lines) if '"legal":[' in line)
    record = json.loads(lines[k])
    record["legal"] = record["legal"][1:]
    lines[k] = json.dumps(record)
    status, out = replay(capsys, tmp_path, "\n".join(lines))
    assert status == 1 and "legal list differs" in out


def test_setup_with_an_unknown_tile_or_a_broken_mix_is_refused(capsys, tmp_path, log3):
    records = [json.loads(line) for line in log3.splitlines()]
    records[0]["bag"][3] = "Zeus4"
    status, out = replay(capsys, tmp_path, "\n".join(json.dumps(r) for r in records))
    assert status == 1 and "unknown tile" in out
    records[0]["bag"][3] = "Kane2"
    records[0]["bag"][4] = "Kane2"
    status, out = replay(capsys, tmp_path, "\n".join(json.dumps(r) for r in records))
    assert status == 1 and "not exactly the tiles" in out


def test_setup_with_another_map_is_refused(capsys, tmp_path, log3):
    records = [json.loads(line) for line in log3.splitlines()]
    records[0]["currents"] = records[0]["currents"][1:]
    status, out = replay(capsys, tmp_path, "\n".join(json.dumps(r) for r in records))
    assert status == 1 and "record 0" in out and "N1" in out


def test_log_that_is_not_json_is_refused(capsys, tmp_path, log3):
    lines = log3.splitlines()
    lines[5] = lines[5][:20]
    status, out = replay(capsys, tmp_path, "\n".join(lines))
    assert status == 1 and "not a JSON record" in out


def test_save_round_trips_and_a_tampered_save_is_refused():
    game = Game(seed=3, players=3)
    for _ in range(60):
        game.apply(game.legal_actions()[0])
    again = Game.from_json(game.to_json())
    assert again.digest() == game.digest()
    data = json.loads(game.to_json())
    data["history"][40] = "move HONU>WAI"
    with pytest.raises(SaveError, match=r"\$\.history\[40\]"):
        from_json(json.dumps(data))
    with pytest.raises(SaveError, match="not a saved Kanaloa game"):
        from_json("{}")


def test_play_refuses_a_player_count_kanaloa_does_not_have(capsys):
    assert main(["play", "--game", "kanaloa", "--players", "5", "--json"]) == 2
    assert "2, 3 or 4" in capsys.readouterr().err
    assert main(["play", "--game", "kahuna", "--players", "3", "--json"]) == 2
    assert "kahuna is played by 2 players" in capsys.readouterr().err


def test_bench_engine_plays_kanaloa_through_the_game_interface(capsys):
    assert main(["bench", "engine", "--game", "kanaloa", "--players", "2", "--seconds", "0.1"]) == 0
    out = capsys.readouterr().out
    assert "game: kanaloa, 2 players" in out and "games_per_s:" in out
    assert main(["bench", "engine", "--game", "kanaloa", "--players", "5"]) == 2
