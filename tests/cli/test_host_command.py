"""``haleakala host``: off unless ``--web`` says where, misuse in one line, a game of bots
played to the end with ``--exit-when-over``, and each phone seat's link and QR code printed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("aiohttp")
from support.paths import REPO_ROOT

from haleakala import cli


def test_without_web_nothing_listens_and_the_command_says_what_to_write(capsys):
    assert cli.main(["host", "--game", "kahuna"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--web [HOST:]PORT is required" in err


@pytest.mark.parametrize(
    ("seat", "said"),
    [("green=phone", "COLOUR one of white, black"), ("black=wizard", "WHO is phone or a bot"),
     ("black", "write COLOUR=WHO")],
)  # fmt: skip
def test_a_wrong_seat_is_one_line_that_names_the_choices(capsys, seat, said):
    assert cli.main(["host", "--game", "kahuna", "--web", "0", "--seat", seat]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err


@pytest.mark.parametrize(
    ("game", "count", "said"),
    [("kahuna", "3", "kahuna is played by 2 players, not 3"),
     ("kanaloa", "5", "kanaloa is played by 2, 3 or 4 players, not 5")],
)  # fmt: skip
def test_a_wrong_number_of_players_is_refused_naming_the_counts_the_rules_allow(
    capsys, game, count, said
):
    assert cli.main(["host", "--game", game, "--players", count, "--web", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err


@pytest.mark.parametrize(
    ("seat", "said"),
    [("blue=random", "COLOUR one of red, yellow, green"), ("green=wizard", "WHO is phone")],
)
def test_a_three_seat_kanaloa_host_refuses_a_seat_it_does_not_have(capsys, seat, said):
    args = ["host", "--game", "kanaloa", "--players", "3", "--web", "0", "--seat", seat]
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err


def test_a_three_seat_kanaloa_table_of_bots_plays_to_the_end(capsys):
    seats = ["--seat", "red=random", "--seat", "yellow=random", "--seat", "green=random"]
    args = ["host", "--game", "kanaloa", "--players", "3", "--web", "127.0.0.1:0", "--seed", "7"]
    assert cli.main([*args, *seats, "--exit-when-over"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("kanaloa, seed 7: host page http://127.0.0.1:")
    assert "game over: " in out and "/seat/" not in out


def test_a_table_of_bots_plays_to_the_end(capsys):
    seats = ["--seat", "white=random", "--seat", "black=greedy"]
    code = cli.main(
        [
            "host",
            "--game",
            "kahuna",
            "--web",
            "127.0.0.1:0",
            "--seed",
            "4",
            *seats,
            "--exit-when-over",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("kahuna, seed 4: host page http://127.0.0.1:")
    assert "game over: " in out and "/seat/" not in out  # no phone seat, no seat link


def test_each_phone_seat_gets_its_link_and_qr_code():
    """The real command in a process of its own, stopped once it has printed white's link."""
    process = subprocess.Popen(
        [sys.executable, "-m", "haleakala", "host", "--game", "kahuna", "--web", "127.0.0.1:0",
         "--seat", "black=greedy"],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        encoding="utf-8", env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )  # fmt: skip
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(3)]
        qr = [process.stdout.readline() for _ in range(4)]
    finally:
        process.terminate()
        process.wait(30)
    assert lines[1] == "\n"
    assert re.fullmatch(r"white: http://127\.0\.0\.1:\d+/seat/white/\?token=[\w-]{16}\n", lines[2])
    assert all(set(line.strip()) <= set("█▀▄ ") for line in qr)


def test_a_journalled_game_is_resumed_after_a_restart_and_renamed_when_over(tmp_path, capsys):
    """The first run is stopped by a failing bot half-way (as a power cut would stop it);
    the second resumes the journal at the same decision and plays on to the end."""
    from haleakala.ai import simple

    journal = tmp_path / "host.jsonl"
    argv = ["host", "--game", "kahuna", "--web", "127.0.0.1:0", "--seed", "6", "--seat",
            "white=random", "--seat", "black=random", "--journal", str(journal),
            "--exit-when-over"]  # fmt: skip
    calls = {"n": 0}
    decide = simple.RandomBot.decide

    def stop_half_way(self, game, budget=None):
        calls["n"] += 1
        if calls["n"] > 20:
            raise RuntimeError("the power went")
        return decide(self, game, budget)

    simple.RandomBot.decide = stop_half_way  # type: ignore[method-assign]
    try:
        assert cli.main(argv) == 1
    finally:
        simple.RandomBot.decide = decide  # type: ignore[method-assign]
    capsys.readouterr()
    lines = journal.read_text().splitlines()
    assert len(lines) == 21  # the setup and 20 decisions, each fsynced when made
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"resumed game {json.loads(lines[0])['setup']['game']} at decision 20")
    assert "game over: " in out
    done = journal.with_suffix(".done").read_text().splitlines()
    assert done[:21] == lines and len(done) > 21 and not journal.exists()


def test_a_three_seat_kanaloa_host_starts_with_one_phone_link_beside_two_bots():
    process = subprocess.Popen(
        [sys.executable, "-m", "haleakala", "host", "--game", "kanaloa", "--players", "3",
         "--web", "127.0.0.1:0", "--seat", "yellow=random", "--seat", "green=random"],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        encoding="utf-8", env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )  # fmt: skip
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(3)]
    finally:
        process.terminate()
        process.wait(30)
    assert re.fullmatch(r"kanaloa, seed \d+: host page http://127\.0\.0\.1:\d+/\?token=\S+\n",
                        lines[0])  # fmt: skip
    assert re.fullmatch(r"red: http://127\.0\.0\.1:\d+/seat/red/\?token=[\w-]{16}\n", lines[2])
