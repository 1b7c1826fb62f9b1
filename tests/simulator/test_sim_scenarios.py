"""The scenario library passes headless, and the scenario format refuses mistakes clearly."""

from __future__ import annotations

import runpy
import subprocess
import sys

import pytest
from support.paths import REPO_ROOT

from haleakala.simulator.game_scenario import load_game_scenario, names_a_game, run_game_scenario
from haleakala.simulator.scenario import run_scenario
from haleakala.simulator.scenario_format import ScenarioError, load_scenario, parse_scenario

ROOT = REPO_ROOT
LIBRARY = ROOT / "sim" / "scenarios"
SCENARIOS = sorted(p for p in LIBRARY.glob("*.toml") if not names_a_game(p))
GAME_SCENARIOS = sorted(p for p in LIBRARY.glob("*.toml") if names_a_game(p))
"""The kit's scenarios (Haleakala on the simulated board), and the games' without a kit."""


def test_the_library_has_scenarios_for_every_game():
    """Issue 39: Kahuna and Kanaloa have scenarios too, run on their rules."""
    games = {"haleakala"} | {load_game_scenario(p).game for p in GAME_SCENARIOS}
    assert games >= {"haleakala", "kahuna", "kanaloa"}


@pytest.mark.parametrize("path", GAME_SCENARIOS, ids=lambda p: p.stem)
def test_game_scenario_passes(path):
    outcome = run_game_scenario(load_game_scenario(path))
    assert outcome.passed, outcome.report()
    assert outcome.steps_run == len(outcome.scenario.steps)


def test_a_game_scenario_that_fails_says_where_and_what(tmp_path):
    path = tmp_path / "wrong.toml"
    path.write_text('game = "kanaloa"\nplayers = 2\nseed = 3\n[[step]]\n'
                    'decide = "fish HONU>KAI red"\n', encoding="utf-8")  # fmt: skip
    outcome = run_game_scenario(load_game_scenario(path))
    assert not outcome.passed
    assert "at step 1 of 1" in outcome.report() and "N13" in outcome.report()


def test_library_has_every_kind_the_issue_asks_for():
    names = {p.stem for p in SCENARIOS}
    assert {"full_base_game", "full_tactical_game", "undo", "power_cut", "eruption"} <= names
    assert any(n.startswith("refusals") for n in names)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_library_scenario_passes_headless(path):
    outcome = run_scenario(load_scenario(path))
    assert outcome.passed, outcome.report()
    assert outcome.steps_run == len(outcome.scenario.steps)


def test_generated_scenarios_are_up_to_date_with_the_rules_engine():
    """generate.py writes the expectations of the full games from the rules engine alone;
    a rules change that alters those games must regenerate them (and be looked at)."""
    generate = runpy.run_path(str(LIBRARY / "generate.py"))
    for name, text in generate["library"]().items():
        assert (LIBRARY / name).read_text(encoding="utf-8") == text, f"{name} is stale"


GOOD_HEADER = 'variant = "base"\nseed = 1\nstart = "red"\n'


def scenario(steps: str, header: str = GOOD_HEADER):
    return parse_scenario(header + steps, "t.toml")


def test_failed_expectation_reports_step_expected_and_got():
    sc = scenario(
        '[[step]]\ndecide = "3@2"\n'
        '[[step]]\nnote = "wrong on purpose"\n'
        'expect = { to_move = "yellow", last = "4@2", leds = { "2.beach" = "blue" } }\n'
    )
    outcome = run_scenario(sc)
    assert not outcome.passed
    report = outcome.report()
    assert "FAIL t.toml at step 2 of 2" in report
    assert "wrong on purpose" in report
    assert "to_move: expected 'yellow', got 'red'" in report
    assert "last decision: expected '4@2', got '3@2'" in report
    assert "LED 2.beach" in report and "expected blue" in report
    assert "OLED:" in report  # the context shows what the players saw


def test_refused_decision_step_fails_with_the_rules_reason():
    outcome = run_scenario(scenario('[[step]]\ndecide = "boat"\n'))
    assert not outcome.passed
    assert "not legal now: R6" in outcome.report()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[step]]\npres = "select"\n', "step 1: unknown action 'pres'"),
        ('[[step]]\npress = "select"\nturn = 1\n', "exactly one action, found press, turn"),
        ('[[step]]\npress = "beach9"\n', "'beach9' is not a button"),
        ("[[step]]\nturn = 0\n", "not a non-zero whole number"),
        ('[[step]]\nplace = { beach = 2, discs = ["red3"] }\n', 'needs kit = "rfid"'),
        ('[[step]]\nexpect = { whose = "red" }\n', "unknown check 'whose'"),
        ('[[step]]\nexpect = { leds = { "2.beach" = "mauve" } }\n', "colour 'mauve'"),
        ('[[step]]\nexpect = { leds = { "7.beach" = "red" } }\n', "segment must be 0..5"),
        ('[[step]]\nexpect = { leds = { "2.lagoon" = "red" } }\n', "zone must be one of"),
        ('[[step]]\nplay_bot = { until = "dawn" }\n', "until = 'dawn'"),
        ("[[step]]\nwait = -1\n", "not a number of seconds"),
        ("", "no steps"),
    ],
)
def test_scenario_mistakes_are_one_clear_line(text, message):
    with pytest.raises(ScenarioError) as info:
        scenario(text)
    assert message in str(info.value)
    assert str(info.value).startswith("t.toml")
    assert "\n" not in str(info.value)


def test_bad_header_values_are_named():
    with pytest.raises(ScenarioError, match="kit = 'usb': choose buttons or rfid"):
        parse_scenario('kit = "usb"\n[[step]]\nwait = 1\n', "t.toml")
    with pytest.raises(ScenarioError, match="not valid TOML"):
        parse_scenario("[[step]\n", "t.toml")


def run_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "haleakala", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )


def test_headless_cli_exits_0_on_pass_and_1_with_a_diff_on_failure(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text(GOOD_HEADER + '[[step]]\nexpect = { to_move = "red", decisions = 0 }\n')
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD_HEADER + '[[step]]\nexpect = { to_move = "yellow" }\n')
    ok = run_cli("sim", "--headless", "--scenario", str(good))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.startswith("ok ")
    failed = run_cli("sim", "--headless", "--scenario", str(good), str(bad))
    assert failed.returncode == 1
    assert "FAIL" in failed.stdout and "to_move: expected 'yellow', got 'red'" in failed.stdout
    assert "1 of 2 scenarios passed" in failed.stdout


def test_headless_cli_refuses_a_broken_file_in_one_line(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text('[[step]]\npress = "start"\n')
    result = run_cli("sim", "--headless", "--scenario", str(broken))
    assert result.returncode == 2
    assert "'start' is not a button" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_passing_report_counts_in_singular_and_plural():
    outcome = run_scenario(scenario('[[step]]\ndecide = "5@3"\n'))
    assert outcome.passed, outcome.report()
    assert ": 1 step, 1 decision, " in outcome.report()
