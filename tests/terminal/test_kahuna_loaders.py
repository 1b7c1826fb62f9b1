"""Kahuna's saves are read as Haleakala's are (issue 22, part 4): in the game (``load``,
``save``) and on the command line (``play --game kahuna --load``, ``replay``), a file that is
endless, not text or not a save, and a name no file can have (a NUL), are each one sentence;
the running game goes on and nothing is read without a limit."""

from __future__ import annotations

import io
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from haleakala.cli import main
from haleakala.games.kahuna import Game
from haleakala.games.kahuna.views.terminal import KahunaTerminalGame
from haleakala.toolkit.textfile import MAX_SAVE_BYTES

REPO = Path(__file__).resolve().parents[2]
MEMORY_CAP = 1024 * 1024 * 1024
"""Address space for the real-process check: far more than a game needs, far less than an
endless file would take if it were read without a limit."""


def in_game(*commands: str) -> tuple[KahunaTerminalGame, Game, str]:
    """Two people at one keyboard (no bot moves in between): ``commands``, then quit."""
    running = Game(5, "white")
    feed = iter([*commands, "quit"])
    out = io.StringIO()
    tg = KahunaTerminalGame(running, [None, None], read=lambda _: next(feed), out=out, clear=False)
    for command in commands:
        tg.command(command)
    return tg, running, out.getvalue()


def lines_with(text: str, needle: str) -> list[str]:
    return [line for line in text.splitlines() if needle in line]


def test_loading_an_endless_file_in_the_game_is_one_sentence_and_the_game_goes_on():
    tg, running, out = in_game("load /dev/zero")
    assert lines_with(out, "cannot load /dev/zero") == [
        f"cannot load /dev/zero: it is larger than {MAX_SAVE_BYTES // 1024} kB, more than any "
        "game log or saved game; the game goes on"
    ]
    assert tg.game is running


@pytest.mark.parametrize("command", ["load bad\x00name.json", "save bad\x00name.json"])
def test_a_nul_in_the_file_name_is_one_sentence_not_a_traceback(command, tmp_path):
    tg, running, out = in_game(command)
    word = command.split()[0]
    (line,) = lines_with(out, "cannot ")
    assert line.startswith(f"cannot {word} ") and "bad\\x00name.json" in line
    assert "\x00" not in out and "Traceback" not in out
    assert tg.game is running


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\xff\xfe not text", "line 1: not UTF-8 text, so not a game log or a saved game"),
        (b'{"format": "kahuna-game"', "not JSON"),
        (b"[" * 5000 + b"]" * 5000, "not JSON"),
    ],
    ids=["not-utf8", "cut-short", "too-deep"],
)
def test_a_file_that_is_not_a_save_is_one_sentence_in_the_game(tmp_path, content, reason):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    tg, running, out = in_game(f"load {path}")
    (line,) = lines_with(out, "cannot load")
    assert reason in line and line.endswith("the game goes on")
    assert tg.game is running


def test_a_save_round_trips_through_the_bounded_reader(tmp_path):
    path = tmp_path / "k.json"
    tg, running, out = in_game(f"save {path}", f"load {path}")
    assert f"loaded {path}: seed 5" in out
    assert tg.game is not running and tg.game.digest() == running.digest()


@pytest.mark.parametrize("name", ["/dev/zero", "bad\x00name.json"], ids=["endless", "nul"])
def test_the_command_line_loader_refuses_the_same_files_in_one_line(capsys, name):
    assert main(["play", "--game", "kahuna", "--load", name]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("haleakala play: cannot read ")


def test_replaying_an_endless_file_is_one_line(capsys):
    assert main(["replay", "/dev/zero"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "larger than" in err


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_load_dev_zero_in_a_real_game_under_a_memory_cap_ends_in_a_sentence():
    done = subprocess.run(
        [sys.executable, "-m", "haleakala", "play", "--game", "kahuna", "--white", "human",
         "--black", "greedy", "--seed", "5"],
        input="load /dev/zero\nquit\n", capture_output=True, text=True, cwd=REPO,
        env={**os.environ, "NO_COLOR": "1"}, timeout=120, preexec_fn=_cap_memory,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    assert "cannot load /dev/zero: it is larger than" in done.stdout
