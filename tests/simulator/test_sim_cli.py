"""``haleakala sim`` and plain ``haleakala``: a window where there is a display, otherwise a
clear note and a demo game in the terminal (through the real companion)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import REPO_ROOT

ROOT = REPO_ROOT


def headless_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    env.pop("SDL_VIDEODRIVER", None)
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "haleakala", *args],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
        env=env,
    )


def test_plain_haleakala_without_a_display_says_so_and_plays_a_demo_game(tmp_path):
    result = run([], headless_env(tmp_path))
    assert result.returncode == 0, result.stderr[-500:]
    assert "no display (DISPLAY and WAYLAND_DISPLAY are unset)" in result.stderr
    assert "playing a demo game in the terminal" in result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("demo: base game")
    decisions = [line for line in lines if re.match(r"\s*\d+\. (red|yellow) ", line)]
    final = re.search(r"^(\d+) decisions, final digest [0-9a-f]+$", result.stdout, re.M)
    assert final and len(decisions) == int(final.group(1)) > 100
    assert re.search(r"^game over: red \d+, yellow \d+: (red|yellow) wins", result.stdout, re.M)
    assert "Scoring 1:" in result.stdout and "OLED:" in decisions[0]


def test_demo_game_is_the_seeded_rules_game(tmp_path):
    """The demo's moves are made by the companion; they match the rules engine's own game
    with the same bots and seed."""
    from haleakala.ai import make_bot
    from haleakala.games.haleakala import Game

    result = run(["sim", "--headless", "--seed", "5", "--delay", "0"], headless_env(tmp_path))
    assert result.returncode == 0, result.stderr[-500:]
    played = re.findall(r"^\s*\d+\. (?:red|yellow)\s+(\S+(?: \S+)?)\s+OLED:", result.stdout, re.M)
    game = Game("base", 5)
    bots = [make_bot("greedy", seed=10), make_bot("greedy", seed=11)]
    expected = []
    while not game.is_terminal():
        d = bots[game.decider].decide(game.clone())
        expected.append(game.format(d))
        game.apply(d)
    assert played == expected
    assert f"final digest {game.digest()}" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sim", "--scenario", "x.toml", "--seed", "3"], "drop --seed"),
        (["sim", "--scenario", "x.toml", "--solo", "yellow"], "drop --solo"),
        (["sim", "--solo", "blue"], "invalid choice: 'blue'"),
        (["sim", "--headless", "--scenario", "nowhere.toml"], "nowhere.toml: cannot read it"),
        (["sim", "--decisions", "-1"], "--decisions must be 0 or more"),
    ],
)
def test_misuse_is_one_line_and_exit_2(tmp_path, args, message):
    result = run(args, headless_env(tmp_path))
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_headless_screenshot_draws_the_window_offscreen(tmp_path):
    pytest.importorskip("pygame")
    from PIL import Image

    out = tmp_path / "shot.png"
    args = ["sim", "--headless", "--screenshot", str(out), "--seed", "2", "--decisions", "12"]
    result = run(args, headless_env(tmp_path))
    assert result.returncode == 0, result.stderr[-500:]
    assert result.stderr == "", "pygame's 'no fast renderer' warning leaked"
    with Image.open(out) as image:
        assert image.size == (1280, 800)


def test_quiet_passing_scenarios_print_nothing_even_when_they_unplug_the_pico(tmp_path):
    """refusals_rfid unplugs the Pico on purpose: its "RFID link down" stays in the
    companion's log (shown only if the scenario fails)."""
    library = ROOT / "sim" / "scenarios"
    args = ["sim", "--headless", "-q", "--scenario"]
    args += [str(library / "refusals_rfid.toml"), str(library / "undo.toml")]
    result = run(args, headless_env(tmp_path))
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_quiet_demo_stops_after_the_decisions_asked_and_says_only_where_it_stands(tmp_path):
    args = ["sim", "--headless", "-q", "--kit", "rfid", "--seed", "3", "--decisions", "30"]
    result = run(args, headless_env(tmp_path))
    assert result.returncode == 0, result.stderr[-500:]
    opening, outcome = result.stdout.splitlines()
    assert opening.startswith("demo: base game, seed 3, rfid kit")
    assert outcome.startswith("after 30 decisions: round ")
    assert "decision 30," in outcome
