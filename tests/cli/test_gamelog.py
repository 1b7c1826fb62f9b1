"""The game log (``play --json``) and its replay: the log is evidence the engine can check."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala.cli import main
from haleakala.games.haleakala import Game
from haleakala.games.haleakala.views.replayer import replay_log
from haleakala.toolkit.gamelog import play_log


def play_json(capsys, *args: str) -> str:
    capsys.readouterr()
    assert main(["play", "--red", "random", "--yellow", "random", "--json", *args]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


@pytest.fixture(scope="module")
def log_seed_7() -> str:
    """One logged game (with legal lists) shared by the tamper tests; built without capsys."""
    from contextlib import redirect_stdout

    buffer = io.StringIO()
    with redirect_stdout(buffer):
        main(["play", "--red", "random", "--yellow", "greedy", "--seed", "7", "--json", "--legal"])
    return buffer.getvalue()


def replay(capsys, tmp_path, text: str) -> tuple[int, str]:
    path = tmp_path / "game.jsonl"
    path.write_text(text)
    capsys.readouterr()
    status = main(["replay", str(path)])
    out = capsys.readouterr()
    return status, out.out + out.err


def lines_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


# -- the log ------------------------------------------------------------------------------


def test_every_line_is_compact_json_setup_first_result_last(capsys):
    text = play_json(capsys, "--seed", "3")
    records = lines_of(text)
    assert records[0]["type"] == "setup" and records[-1]["type"] == "result"
    assert [r["type"] for r in records].count("result") == 1
    for line, record in zip(text.splitlines(), records, strict=True):
        assert line == json.dumps(record, separators=(",", ":"))
        assert next(iter(record)) == "type"  # keys in the order of NOTATION.md
    assert records[0]["seed"] == 3 and records[0]["variant"] == "base"
    assert {r["type"] for r in records} <= {
        "setup", "action", "reveal", "lava", "eruption", "scoring", "result"
    }  # fmt: skip
    assert [r["round"] for r in records if r["type"] == "scoring"] == [1, 2]


def test_the_result_line_is_the_engines_result_for_the_logged_decisions(capsys):
    records = lines_of(play_json(capsys, "--seed", "4", "--variant", "tactical"))
    setup = records[0]
    game = Game(setup["variant"], setup["seed"])
    assert game.start == ("red", "yellow").index(setup["start"])
    for record in records:
        if record["type"] == "action":
            assert record["player"] == game.to_move
            game.apply(record["action"])
    result = game.result()
    assert records[-1] == {"type": "result", **result.to_dict()}
    assert all(r["type"] != "lava" or r["cause"] == "invocation" for r in records)


def test_same_seed_same_log_byte_for_byte(capsys):
    first = play_json(capsys, "--seed", "12", "--legal")
    second = play_json(capsys, "--seed", "12", "--legal")
    other = play_json(capsys, "--seed", "13", "--legal")
    assert first == second
    assert first != other


class Recorded:
    """A 'bot' that makes the decisions of a log again, in order."""

    name = "recorded"

    def __init__(self, decisions: list[str]) -> None:
        self.decisions = iter(decisions)

    def decide(self, game: Game, budget: float | None = None) -> int:
        return game.parse(next(self.decisions))


def test_same_seed_and_decisions_give_the_same_log_byte_for_byte(capsys):
    text = play_json(capsys, "--seed", "21", "--variant", "tactical", "--legal")
    actions = [r["action"] for r in lines_of(text) if r["type"] == "action"]
    recorded = Recorded(actions)
    again = play_log(Game("tactical", 21), (recorded, recorded), legal=True)
    assert "".join(line + "\n" for line in again) == text


def test_legal_lists_are_the_engines_sorted_legal_decisions(capsys):
    records = lines_of(play_json(capsys, "--seed", "5", "--legal", "--start", "red"))
    game = Game("base", 5, "red")
    for record in records:
        if record["type"] == "action":
            assert record["legal"] == sorted(game.legal_decisions())
            assert record["action"] in record["legal"]
            game.apply(record["action"])
    assert game.is_terminal()


def test_people_cannot_play_while_the_log_is_printed(capsys):
    status = main(["play", "--yellow", "random", "--json"])
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1 and "--red" in captured.err


# -- replay -------------------------------------------------------------------------------


def test_a_log_round_trips_through_replay(capsys, tmp_path, log_seed_7):
    status, out = replay(capsys, tmp_path, log_seed_7)
    result = lines_of(log_seed_7)[-1]
    assert status == 0, out
    red, yellow = result["scores"]["red"], result["scores"]["yellow"]
    assert f"result: red {red}, yellow {yellow}, winner {result['winner']}" in out


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(["base", "tactical"]))
def test_any_random_game_log_replays(seed, variant):
    from contextlib import redirect_stdout

    buffer = io.StringIO()
    with redirect_stdout(buffer):
        assert main(["play", "--red", "random", "--yellow", "random", "--json",
                     "--seed", str(seed), "--variant", variant, "--legal"]) == 0  # fmt: skip
    game = replay_log(buffer.getvalue().splitlines())
    assert game.is_terminal()


def test_a_log_with_an_explicit_start_replays(capsys, tmp_path):
    for start in ("red", "yellow"):
        text = play_json(capsys, "--seed", "5", "--start", start)
        assert replay(capsys, tmp_path, text)[0] == 0


def line_numbers(text: str, kind: str) -> list[int]:
    return [n for n, r in enumerate(lines_of(text), 1) if r["type"] == kind]


def edit_line(text: str, n: int, change) -> str:
    lines = text.splitlines()
    record = json.loads(lines[n - 1])
    change(record)
    lines[n - 1] = json.dumps(record, separators=(",", ":"))
    return "\n".join(lines) + "\n"


def test_a_changed_reveal_card_is_caught_on_its_line(capsys, tmp_path, log_seed_7):
    n = line_numbers(log_seed_7, "reveal")[3]

    def swap(record):
        record["card"] = "shell" if record["card"] != "shell" else "statue"

    status, out = replay(capsys, tmp_path, edit_line(log_seed_7, n, swap))
    assert status == 1
    assert out.startswith(f"line {n}: reveal differs: card: ")


def test_an_illegal_action_is_caught_on_its_line(capsys, tmp_path, log_seed_7):
    records = lines_of(log_seed_7)
    n = next(
        i for i, r in enumerate(records, 1) if r["type"] == "action" and "boat" not in r["legal"]
    )
    status, out = replay(
        capsys, tmp_path, edit_line(log_seed_7, n, lambda r: r.update(action="boat"))
    )
    assert status == 1
    assert out.startswith(f"line {n}: {records[n - 1]['player']}'s 'boat' is not legal here: R6")


def test_a_different_legal_action_is_caught_where_the_game_diverges(capsys, tmp_path, log_seed_7):
    records = lines_of(log_seed_7)
    n = line_numbers(log_seed_7, "action")[10]
    other = next(d for d in records[n - 1]["legal"] if d != records[n - 1]["action"])
    status, out = replay(
        capsys, tmp_path, edit_line(log_seed_7, n, lambda r: r.update(action=other))
    )
    assert status == 1
    reported = int(out.split(":")[0].removeprefix("line "))
    assert reported > n


def test_an_action_by_the_wrong_player_is_caught(capsys, tmp_path, log_seed_7):
    n = line_numbers(log_seed_7, "action")[0]
    flip = {"red": "yellow", "yellow": "red"}
    status, out = replay(
        capsys, tmp_path, edit_line(log_seed_7, n, lambda r: r.update(player=flip[r["player"]]))
    )
    assert status == 1 and out.startswith(f"line {n}: the log says")


def test_a_doctored_legal_list_is_caught(capsys, tmp_path, log_seed_7):
    n = line_numbers(log_seed_7, "action")[0]
    status, out = replay(capsys, tmp_path, edit_line(log_seed_7, n, lambda r: r["legal"].pop(0)))
    assert status == 1 and out.startswith(f"line {n}: the legal list differs: the engine also")


def test_a_changed_score_is_caught(capsys, tmp_path, log_seed_7):
    n = line_numbers(log_seed_7, "scoring")[0]

    def inflate(record):
        record["players"]["red"]["total"] += 1

    status, out = replay(capsys, tmp_path, edit_line(log_seed_7, n, inflate))
    assert status == 1 and out.startswith(f"line {n}: scoring differs: players.red.total")


def test_a_missing_or_extra_record_is_caught(capsys, tmp_path, log_seed_7):
    lines = log_seed_7.splitlines()
    n = line_numbers(log_seed_7, "reveal")[0]
    removed = "\n".join(lines[: n - 1] + lines[n:]) + "\n"
    status, out = replay(capsys, tmp_path, removed)
    assert status == 1 and out.startswith(f"line {n}: ")
    doubled = "\n".join(lines[:n] + lines[n - 1 :]) + "\n"
    status, out = replay(capsys, tmp_path, doubled)
    assert status == 1 and out.startswith(f"line {n + 1}: ")


def test_a_log_cut_short_is_caught(capsys, tmp_path, log_seed_7):
    lines = log_seed_7.splitlines()
    status, out = replay(capsys, tmp_path, "\n".join(lines[:-1]) + "\n")
    assert status == 1 and out.startswith(f"line {len(lines)}: the log ends early")
    cut = line_numbers(log_seed_7, "action")[20]
    status, out = replay(capsys, tmp_path, "\n".join(lines[:cut]) + "\n")
    assert status == 1 and "the log ends" in out


def test_a_changed_setup_is_caught_on_line_1(capsys, tmp_path, log_seed_7):
    text = edit_line(log_seed_7, 1, lambda r: r["slots"].update({"0a": "nautilus"}))
    status, out = replay(capsys, tmp_path, text)
    assert status == 1 and out.startswith("line 1: setup differs: slots.0a")


def test_replay_reads_stdin(capsys, monkeypatch, log_seed_7):
    monkeypatch.setattr("sys.stdin", io.StringIO(log_seed_7))
    assert main(["replay", "-"]) == 0
    assert "replay OK" in capsys.readouterr().out


@pytest.mark.parametrize(
    "content",
    ["", "hello\n", '{"type": "action", "player": "red", "action": "3@2"}\n', "[1, 2]\n"],
)
def test_input_that_is_not_a_log_is_misuse(capsys, tmp_path, content):
    status, out = replay(capsys, tmp_path, content)
    assert status == 2
    assert len(out.strip().splitlines()) == 1 and "is not a game log or a saved game" in out


def test_an_unreadable_file_is_misuse(capsys, tmp_path):
    status = main(["replay", str(tmp_path / "nope.jsonl")])
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("haleakala replay: cannot read")


# -- saved games --------------------------------------------------------------------------


def saved_game(tmp_path, start: str | None) -> tuple[Game, str]:
    game = Game("base", seed=5, start=start)
    bots = (__import__("haleakala.ai", fromlist=["make_bot"]).make_bot("random", 9),)
    for _ in range(120):
        game.apply(bots[0].decide(game))
    path = tmp_path / "save.json"
    path.write_text(game.to_json())
    return game, str(path)


@pytest.mark.parametrize("start", [None, "yellow"])
def test_a_saved_game_replays_its_history_to_the_saved_position(capsys, tmp_path, start):
    game, path = saved_game(tmp_path, start)
    assert main(["replay", path]) == 0
    out = capsys.readouterr().out
    assert "position matches" in out and f"{len(game.history)} decisions" in out
    assert f"game not over: {game.to_move} to decide" in out


def test_a_saved_game_that_its_history_does_not_reach_is_caught(capsys, tmp_path):
    game, path = saved_game(tmp_path, None)
    data = json.loads(game.to_json())
    data["history"] = data["history"][:-1]
    with open(path, "w") as f:
        json.dump(data, f)
    assert main(["replay", path]) == 1
    assert "the saved position is not where its history leads" in capsys.readouterr().out


def test_a_corrupt_saved_game_is_misuse(capsys, tmp_path):
    game, path = saved_game(tmp_path, None)
    data = json.loads(game.to_json())
    data["lava"] = [9, 9, 9, 9, 9, 9]
    with open(path, "w") as f:
        json.dump(data, f)
    assert main(["replay", path]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "$.lava[0]" in err
