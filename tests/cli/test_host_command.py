"""``haleakala host``: off unless ``--web`` says where, misuse in one line, a game of bots
played to the end with ``--exit-when-over``, and each phone seat's link and QR code printed."""

from __future__ import annotations

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


def test_a_wrong_number_of_players_is_refused(capsys):
    assert cli.main(["host", "--game", "kahuna", "--players", "3", "--web", "0"]) == 2
    assert "played here by 2 players" in capsys.readouterr().err


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
