"""Levels are Elo targets; their budgets follow the speed measured on this machine."""

from __future__ import annotations

import json

import pytest

from haleakala.companion import solo
from haleakala.games.haleakala.bots import levels


def test_levels_rise_in_elo_and_in_iterations():
    order = ["child", "easy", "normal", "strong"]
    elos = [levels.LEVELS[name].elo for name in order]
    assert elos == sorted(elos) and elos[0] < 1000.0 == elos[1]  # child is below greedy
    budgets = [levels.LEVELS[name].iterations() for name in order[2:]]
    assert budgets == sorted(budgets) and budgets[0] < budgets[-1]
    assert levels.LEVELS["child"].iterations() is None
    assert levels.LEVELS["easy"].bot == "greedy"


def test_a_level_takes_the_same_iterations_on_a_slow_and_a_fast_machine():
    level = levels.LEVELS["normal"]
    slow, fast = level.seconds(2_000.0), level.seconds(20_000.0)
    assert slow == level.iterations() / 2_000.0
    assert slow == pytest.approx(10 * fast)


def test_calibration_is_measured_once_then_read_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(levels, "_cached", None)
    calls = []
    monkeypatch.setattr(levels, "measure", lambda seconds: calls.append(seconds) or 1234.0)
    assert levels.calibrate() == 1234.0
    monkeypatch.setattr(levels, "_cached", None)
    assert levels.calibrate() == 1234.0
    assert len(calls) == 1
    data = json.loads(levels.cache_file().read_text())
    assert data["iterations_per_second"] == 1234.0


def test_a_cache_from_another_machine_is_measured_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    levels.cache_file().parent.mkdir(parents=True)
    levels.cache_file().write_text(json.dumps({"key": "other", "iterations_per_second": 9.0}))
    monkeypatch.setattr(levels, "_cached", None)
    monkeypatch.setattr(levels, "measure", lambda seconds: 4321.0)
    assert levels.calibrate() == 4321.0


def test_measure_counts_real_iterations():
    assert levels.measure(0.05) > 10


def test_solo_strengths_are_the_levels(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(levels, "_cached", 5000.0)
    assert set(solo.STRENGTHS) == set(levels.LEVELS)
    assert solo.make_solo_bot("child", 1).name == "child"
    assert solo.make_solo_bot("easy", 1).name == "greedy"
    for name in ("normal", "strong"):
        bot = solo.make_solo_bot(name, 1)
        assert bot.name == "ai"
        assert bot.budget == levels.LEVELS[name].iterations() / 5000.0


def test_terminal_play_seats_the_ai_at_the_level_asked_for(tmp_path, monkeypatch):
    import argparse

    from haleakala.games.haleakala import Game
    from haleakala.terminal.play import make_seats

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(levels, "_cached", 5000.0)
    game = Game("base", 1)
    seats = make_seats(
        argparse.Namespace(seats=["ai", "human"], game="haleakala", strength="child"), game
    )
    assert seats[0].name == "child" and seats[1] is None
    seats = make_seats(
        argparse.Namespace(seats=["ai", "ai"], game="haleakala", strength="strong"), game
    )
    assert [s.budget for s in seats] == [levels.LEVELS["strong"].iterations() / 5000.0] * 2
    plain = make_seats(
        argparse.Namespace(seats=["ai", "greedy"], game="haleakala", strength=None), game
    )
    assert plain[0].name == "ai" and plain[1].name == "greedy"
