"""Kahuna at the terminal: the game log (play --json), its replay, people and bots, and
hidden hands (K31) when two people share the keyboard."""

from __future__ import annotations

import io
import json

import pytest

from haleakala.ai import make_bot
from haleakala.cli import main
from haleakala.games.kahuna import Game
from haleakala.games.kahuna.replay import Inconsistent, replay_log
from haleakala.games.kahuna.views.terminal import KahunaTerminalGame
from haleakala.toolkit.gamelog import play_log


def play_json(capsys, *extra: str) -> str:
    args = ["play", "--game", "kahuna", "--white", "random", "--black", "greedy", *extra]
    assert main([*args, "--json", "--legal"]) == 0
    return capsys.readouterr().out


def test_play_json_writes_the_full_information_log_of_the_notation(capsys):
    text = play_json(capsys, "--seed", "3")
    records = [json.loads(line) for line in text.splitlines()]
    setup = records[0]
    assert setup == {
        "type": "setup", "game": "kahuna", "seed": 3, "start": "black",
        "hands": {"white": ["DUDA", "IFFI", "KAHU"], "black": ["ALOA", "COCO", "HUNA"]},
        "display": ["JOJO", "FAAA", "ELAI"], "pile": setup["pile"], "effects": True,
    }  # fmt: skip
    assert setup["pile"][:3] == ["GOLA", "LALE", "GOLA"]
    assert records[1]["legal"][:3] == ["discard ALOA", "discard COCO", "discard HUNA"]
    assert records[-1]["type"] == "result"
    assert [r["round"] for r in records if r["type"] == "scoring"][:3] == [1, 2, 3][
        : sum(r["type"] == "scoring" for r in records)
    ]
    assert play_json(capsys, "--seed", "3") == text  # same seed, same bytes


def test_replay_accepts_the_log_and_names_the_first_tampered_record(capsys, tmp_path):
    text = play_json(capsys, "--seed", "12")
    path = tmp_path / "k.jsonl"
    path.write_text(text)
    assert main(["replay", "--seeded", str(path)]) == 0
    assert "replay OK: Kahuna game log" in capsys.readouterr().out
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines) if '"type":"draw"' in line)
    record = json.loads(lines[n])
    record["card"] = "LALE" if record["card"] != "LALE" else "ALOA"
    lines[n] = json.dumps(record)
    path.write_text("\n".join(lines))
    assert main(["replay", str(path)]) == 1
    assert f"record {n}: draw differs" in capsys.readouterr().out


def test_k35_replay_reads_several_games_and_another_programs_shuffle_order():
    logs = []
    for seed in (1, 2):
        bots = [make_bot("random", seed, game="kahuna"), make_bot("random", 9, game="kahuna")]
        logs.append(list(play_log(Game(seed), bots)))
    lines = [*logs[0], "", *logs[1]]
    assert [len(g.history) for g in replay_log(lines)] == [
        sum('"action"' in x for x in log) for log in logs
    ]
    # A fair shuffle in another order is accepted, but not with --seeded (K4).
    n = next(i for i, x in enumerate(logs[0]) if '"shuffle"' in x)
    record = json.loads(logs[0][n])
    record["display"], record["pile"] = record["pile"][:3], record["display"] + record["pile"][3:]
    changed = [*logs[0][:n], json.dumps(record), *logs[0][n + 1 :]]
    with pytest.raises(Inconsistent, match="record"):
        replay_log(changed, seeded=True)


def test_k7_kahuna_is_the_base_game_without_variants(capsys):
    assert main(["play", "--game", "kahuna", "--variant", "tactical", "--white", "random",
                 "--black", "random", "--json"]) == 2  # fmt: skip
    assert "--variant is a Haleakala option; kahuna has none" in capsys.readouterr().err


def test_a_kahuna_seat_flag_of_the_other_game_is_refused(capsys):
    assert main(["play", "--game", "kahuna", "--red", "random", "--json"]) == 2
    assert "--red is not a seat in kahuna" in capsys.readouterr().err
    assert main(["play", "--game", "kahuna", "--json"]) == 2
    assert "choose a bot for --white" in capsys.readouterr().err


def scripted(lines: list[str]):
    feed = iter(lines)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read, prompts


def test_two_people_see_only_their_own_hand_after_a_look_away_screen():
    game = Game(3, "white")  # white DUDA IFFI KAHU, black ALOA COCO HUNA
    read, prompts = scripted(["", "play DUDA>ALOA", "draw pile", "", "board"])
    out = io.StringIO()
    KahunaTerminalGame(game, [None, None], read=read, out=out, clear=True).run()
    text = out.getvalue()
    white_part, black_part = text.split("white: look away now")
    assert "black: look away now" in white_part
    assert "Your hand (white): DUDA IFFI KAHU" in white_part
    assert "ALOA COCO HUNA" not in white_part  # black's hand never shown to white
    assert "Your hand (black): ALOA COCO HUNA" in black_part
    drawn = game.board.islands[Game(3).pile[0]]
    assert f"white draws {drawn} from the pile" in white_part
    assert "IFFI KAHU" not in black_part and "draws " + drawn not in black_part
    assert "\x1b[H\x1b[2J" in white_part.split("Your hand (white)")[-1]  # cleared on hand-over
    assert prompts[0].startswith("white, press Enter") and prompts[3].startswith("black, press")


def test_a_bots_face_down_discard_and_pile_draw_stay_hidden_from_the_person():
    class Discarder:
        name = "scripted"

        def __init__(self):
            self.moves = iter(["discard COCO", "draw pile"])

        def decide(self, game, budget=None):
            return game.parse(next(self.moves))

    game = Game(3, "black")
    read, _ = scripted(["quit"])
    out = io.StringIO()
    KahunaTerminalGame(game, [None, Discarder()], read=read, out=out).run()
    text = out.getvalue()
    assert "black (scripted): discards a card face down" in text
    assert "discard COCO" not in text and "black draws COCO" not in text
    assert "black draws a card from the pile" in text


def test_a_person_is_refused_with_the_rule_and_can_save_and_load(tmp_path):
    game = Game(3, "white")
    path = tmp_path / "k.json"
    read, _ = scripted(["play DUDA>KAHU", "play DUDA>ALOA", f"save {path}", "quit"])
    out = io.StringIO()
    KahunaTerminalGame(game, [None, make_bot("greedy", 1, game="kahuna")], read=read,
                       out=out).run()  # fmt: skip
    text = out.getvalue()
    assert "refused: there is no line between DUDA and KAHU" in text
    saved = Game.from_json(path.read_text())
    assert saved.format(saved.history[0]) == "play DUDA>ALOA"
    assert main(["replay", str(path)]) == 0


def test_greedy_beats_random_in_most_games():
    wins = 0.0
    for seed in range(20):
        game = Game(seed)
        bots = [make_bot("greedy", seed, game="kahuna"), make_bot("random", seed, game="kahuna")]
        while not game.is_terminal():
            game.apply(bots[game.decider].decide(game))
        wins += game.returns()[0]
    assert wins >= 16


def test_make_bot_ai_gives_the_search_bot_for_kahuna_when_it_is_installed():
    pytest.importorskip("haleakala.ai.search")
    bot = make_bot("ai", seed=1, game="kahuna", iterations=5)
    game = Game(2)
    assert bot.decide(game) in game.legal_actions()


def test_make_bot_refuses_an_unknown_game_or_bot():
    with pytest.raises(ValueError, match="no bots for game 'chess'"):
        make_bot("random", game="chess")
    with pytest.raises(ValueError, match="unknown bot 'wizard'"):
        make_bot("wizard", game="kahuna")
