"""The play, replay and deck commands from the command line: output and misuse."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import REPO_ROOT

from haleakala.cli import main
from haleakala.games.haleakala import Game, deck_path

REPO = REPO_ROOT


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "haleakala", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
    )


# -- deck ---------------------------------------------------------------------------------


def test_deck_names_its_data_file_and_lists_every_pile(capsys):
    assert main(["deck"]) == 0
    out = capsys.readouterr().out
    game = Game()
    assert out.splitlines()[0] == f"deck data file: {game.deck.source}"
    assert Path(game.deck.source) == deck_path() and deck_path().exists()
    for back, counts in game.deck.piles:
        assert f"{back} palm tree{'s' * (back > 1)}: {sum(counts.values())} cards" in out
        for code, count in counts.items():
            assert f"{count:>2} x {code:<11} {game.deck.types[code].name}" in out


def test_deck_shows_costs_printed_values_and_the_tactical_difference(capsys):
    main(["deck"])
    out = capsys.readouterr().out
    game = Game("tactical")
    for code, (name, cost) in game.deck.board_items.items():
        assert f"  {code:<11} {name:<30} {cost}" in out
    assert "2 baskets, 1 butterfly" in out
    lava = sum(1 for card in game.deck.cards if card.kind == "lava")
    size = sum(len(pile) for pile in Game("tactical").piles) + 12
    assert f"tactical  {size} cards" in out and f"no lava cards ({lava} removed)" in out


# -- misuse: one line, exit 2, no traceback ------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play", "--variant", "chess"], "invalid choice: 'chess'"),
        (["play", "--red", "wizard"], "invalid choice: 'wizard'"),
        (["play", "--seed", "lots"], "invalid int value"),
        (["play", "--legal"], "use it with --json"),
        (["play", "--json"], "choose a bot for --red"),
        (["play", "--red", "random", "--delay", "-1"], "--delay must be"),
        (["play", "--load", "/nonexistent/save.json"], "cannot read"),
        (["play", "--load", "x.json", "--seed", "3"], "drop --seed"),
    ],
)
def test_command_line_misuse_exits_2_with_one_line(capsys, args, needle):
    try:
        status = main(args)
    except SystemExit as exc:  # argparse's own errors leave through SystemExit
        status = exc.code
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert needle in captured.err


def test_loading_a_corrupt_save_from_the_command_line_is_misuse(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "haleakala-game", "version": 1, "variant": "chess"}))
    assert main(["play", "--load", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("haleakala play: cannot load") and "$.variant" in err


def test_misuse_in_a_real_process_has_no_traceback():
    for args in (
        ["play", "--json"],
        ["play", "--variant", "chess"],
        ["replay", "/nonexistent.jsonl"],
    ):
        done = run_cli(*args)
        assert done.returncode == 2, args
        assert "Traceback" not in done.stderr and done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_person_at_a_real_terminal_gets_refusals_and_a_clean_end_of_input():
    done = run_cli("play", "--seed", "3", "--start", "red", stdin="3@2\n>stay\nboat\n")
    assert done.returncode == 0 and done.stderr == ""
    assert "refused: R6" in done.stdout
    assert re.search(r"yellow \(greedy\) \S+: Yellow ", done.stdout)  # notation, then words
    assert done.stdout.rstrip().endswith("(save FILE keeps a game)")
    assert "\x1b[" not in done.stdout  # not a terminal: no colour


def test_a_game_saved_in_the_terminal_can_be_continued_and_replayed(tmp_path):
    path = tmp_path / "g.json"
    done = run_cli("play", "--seed", "3", "--start", "red", stdin=f"3@2\n>stay\nsave {path}\n")
    assert done.returncode == 0 and path.exists()
    again = run_cli("play", "--load", str(path), stdin="quit\n")
    assert again.returncode == 0 and "seed 3" in again.stdout
    checked = run_cli("replay", str(path))
    assert checked.returncode == 0 and "position matches" in checked.stdout


# -- the demo -----------------------------------------------------------------------------


def test_plain_haleakala_is_the_daemon_on_a_pi_and_the_simulator_elsewhere(monkeypatch):
    from haleakala import cli
    from haleakala.hal import factory

    monkeypatch.setattr(factory, "is_raspberry_pi", lambda *a: True)
    assert cli.default_command() == ["run"]
    monkeypatch.setattr(factory, "is_raspberry_pi", lambda *a: False)
    assert cli.default_command() == ["sim"]
