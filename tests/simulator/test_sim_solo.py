"""Solo mode in the simulator: the companion plays one colour; the simulated players carry
out its decisions (scenarios, the window's autoplay, the command line)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from support.paths import REPO_ROOT
from support.waiting import wait_for

from haleakala import i18n
from haleakala.ai import make_bot
from haleakala.companion.solo import bot_seed, make_solo_bot
from haleakala.games.haleakala import Game
from haleakala.simulator.scenario import run_scenario
from haleakala.simulator.scenario_format import ScenarioError, parse_scenario
from haleakala.simulator.session import PerformError, SimSession

ROOT = REPO_ROOT
HEADER = 'variant = "base"\nseed = 15\nstart = "red"\n'


def test_a_scenario_may_name_the_companions_colour_and_strength():
    sc = parse_scenario(HEADER + 'solo = "yellow"\nstrength = "normal"\n[[step]]\nwait = 1\n')
    assert (sc.solo, sc.strength) == ("yellow", "normal")
    assert parse_scenario(HEADER + 'solo = "red"\n[[step]]\nwait = 1\n').strength == "easy"
    with pytest.raises(ScenarioError, match='strength needs solo = "red" or "yellow"'):
        parse_scenario(HEADER + 'strength = "easy"\n[[step]]\nwait = 1\n', "t.toml")
    with pytest.raises(ScenarioError, match="solo = 'blue': choose red or yellow"):
        parse_scenario(HEADER + 'solo = "blue"\n[[step]]\nwait = 1\n', "t.toml")


def test_follow_companion_outside_solo_mode_fails_with_the_reason():
    outcome = run_scenario(parse_scenario(HEADER + "[[step]]\nfollow_companion = true\n"))
    assert not outcome.passed
    assert "follow_companion: it is not the companion's turn (solo mode is off)" in (
        outcome.report()
    )


def test_a_decision_for_the_companion_is_refused_in_a_scenario():
    text = HEADER + 'solo = "red"\n[[step]]\ndecide = "3@2"\n'
    outcome = run_scenario(parse_scenario(text))
    assert not outcome.passed and "it is the companion's (red) turn" in outcome.report()


def test_the_window_autoplay_plays_a_solo_game_on_live_time_without_blocking(tmp_path):
    """The window's loop (``update`` every frame, real time) never waits for the bot: the
    companion thinks on its thread while frames go on, and its card choices go on by
    themselves."""
    with SimSession(kit="buttons", seed=17, start="red", state_dir=tmp_path, solo="red",
                    strength="easy") as session:  # fmt: skip
        session.companion.seat.show_s = 0.02
        session.autoplay, session.autoplay_interval = True, 0.0
        # Frames go on while the bot thinks; the game reaching its end proves nothing waited
        # for a decision that never came. (Frame times: ``haleakala bench sim``.)
        wait_for(
            lambda: (session.update(), session.game.is_terminal())[1],
            "the solo game to end",
            timeout=120.0,
        )
        game = session.game
        shown = [i18n.render(t) for t, _ in session.status_lines()]
        assert "solo: companion plays red (easy)" in shown
        sources = session.companion.sources
    # The same game from the rules alone: the companion's easy bot for red, the session's
    # greedy bot (seed 1) for the players' yellow.
    reference = Game("base", 17, "red")
    human = make_bot("greedy", seed=1)
    while not reference.is_terminal():
        if reference.to_move == "red":
            reference.apply(make_solo_bot("easy", bot_seed(reference)).decide(reference.clone()))
        else:
            reference.apply(human.decide(reference.clone()))
    assert game.history == reference.history
    assert sources.count("bot") > 20 and "player" in sources


def test_perform_on_the_companions_turn_says_whose_turn_it_is(tmp_path):
    with SimSession(seed=15, start="red", state_dir=tmp_path, solo="red",
                    strength="easy") as session:  # fmt: skip
        with pytest.raises(PerformError, match=r"it is the companion's \(red\) turn"):
            session.perform(32)
        assert session.follow_companion() is not None
        assert session.companion.sources == ["bot"]


def test_sim_command_preplays_a_solo_game_and_draws_it(tmp_path):
    pytest.importorskip("pygame")
    out = tmp_path / "shot.png"
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-m", "haleakala", "sim", "--headless", "--screenshot", str(out),
         "--seed", "2", "--solo", "yellow", "--strength", "easy", "--decisions", "20"],
        capture_output=True, text=True, timeout=180, cwd=ROOT, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-800:]
    assert out.exists() and out.stat().st_size > 10_000
