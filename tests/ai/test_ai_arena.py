"""Head-to-head games at fixed iteration budgets, and the Elo ladder's statistics."""

from __future__ import annotations

import argparse
import math
import random
import re

import pytest

from haleakala.ai import make_bot
from haleakala.cli import UsageError
from haleakala.games.haleakala import Game, bench
from haleakala.games.haleakala.bots import arena
from haleakala.games.haleakala.bots.ismcts_v1 import SearchBotV1


def test_ai_v1_is_registered_and_built_with_an_iteration_budget():
    bot = make_bot("ai-v1", seed=3, iterations=5)
    assert isinstance(bot, SearchBotV1) and bot.name == "ai-v1"
    game = Game("base", 1)
    assert bot.decide(game) in game.legal_actions()


def test_pairings_cover_variant_colour_and_start_in_every_block_of_eight():
    a, b = arena.Entrant("ai", 1), arena.Entrant("ai-v1", 4)
    combos = {
        (p.variant, p.first_player, p.start) for p in (arena.Pairing(a, b, i) for i in range(8))
    }
    assert len(combos) == 8


def test_entrants_parse_and_refuse_nonsense():
    assert arena.Entrant.parse("ai@100") == arena.Entrant("ai", 100)
    assert arena.Entrant.parse("greedy").label == "greedy"
    with pytest.raises(ValueError, match="unknown bot"):
        arena.Entrant.parse("deep-blue@3")
    with pytest.raises(ValueError, match="whole number"):
        arena.Entrant.parse("ai@zero")


def test_bradley_terry_recovers_known_strengths():
    """Games drawn from known Elo differences come back within a few points."""
    truth = {"a": 1000.0, "b": 1200.0, "c": 1400.0}
    rng = random.Random(1)
    results = {}
    for x, y in (("a", "b"), ("a", "c"), ("b", "c")):
        p = 1 / (1 + 10 ** ((truth[y] - truth[x]) / 400))
        n = 20000
        results[(x, y)] = (sum(rng.random() < p for _ in range(n)), n)
    elo = arena.elo(arena.bradley_terry(list(truth), results, prior_draws=0.0), anchor="a")
    for name, value in truth.items():
        assert elo[name] == pytest.approx(value, abs=15)


def test_an_unbeaten_entrant_keeps_a_finite_rating():
    results = {("a", "b"): (10.0, 10), ("b", "c"): (5.0, 10)}
    elo = arena.elo(arena.bradley_terry(["a", "b", "c"], results), anchor="b")
    assert all(math.isfinite(v) for v in elo.values())
    assert elo["a"] > elo["b"] == 1000.0


def test_bootstrap_interval_contains_the_estimate_and_anchor_is_fixed():
    scores = {("x", "greedy"): [1.0] * 7 + [0.0] * 3, ("greedy", "y"): [1.0] * 6 + [0.0] * 4}
    ratings = arena.ladder_ratings(["x", "greedy", "y"], scores, samples=100)
    assert ratings["greedy"] == (1000.0, 1000.0, 1000.0)
    for value, lo, hi in ratings.values():
        assert lo <= value <= hi
    assert ratings["x"][0] > 1000.0 > ratings["y"][0]


def test_fit_iterations_is_the_least_squares_line_in_log2():
    ratings = {"ai@25": (1100.0, 0, 0), "ai@100": (1200.0, 0, 0), "greedy": (1000.0, 0, 0)}
    line = arena.fit_iterations(ratings)
    assert line(25) == pytest.approx(1100.0)
    assert line(400) == pytest.approx(1300.0)


def args(**given) -> argparse.Namespace:
    values = dict.fromkeys(
        ("games", "budget", "seconds", "vs", "iterations", "budgets", "first_game")
    )
    values.update(jobs=1, opponent_iterations=None, ladder=False)
    values.update(given)
    return argparse.Namespace(**values)


def test_bench_vs_prints_the_score_with_its_interval_and_both_speeds(capsys):
    assert bench.run_haleakala(args(vs="ai-v1", iterations=2, games=2)) == 0
    out = capsys.readouterr().out
    assert re.search(r"^score_vs_v1_4x: [01]\.\d{3} \[[01]\.\d{3}, [01]\.\d{3}\]$", out, re.M)
    assert re.search(r"^iterations_per_s_ai: \d+$", out, re.M)
    assert re.search(r"^iterations_per_s_ai-v1: \d+$", out, re.M)


def test_bench_vs_from_a_first_game_plays_those_games(capsys, monkeypatch):
    """``--first-game K``: the pairings K … K+games-1, fresh games for checking a setting
    chosen on the bench's own games 0 … games-1."""
    seen = []
    monkeypatch.setattr(
        arena, "play_all", lambda pairings, jobs: seen.extend(pairings) or [arena.play(pairings[0])]
    )
    bench.run_haleakala(args(vs="ai-v1", iterations=1, games=1, first_game=7))
    assert [p.index for p in seen] == [7]
    assert "numbers 7–7" in capsys.readouterr().out


def test_bench_ladder_prints_every_entrant_anchored_at_greedy(capsys):
    assert bench.run_haleakala(args(ladder=True, games=1, budgets="1,2")) == 0
    out = capsys.readouterr().out
    for label in ("random", "child", "greedy", "ai-v1@1", "ai-v1@2", "ai@1", "ai@2"):
        assert re.search(rf"^elo_{re.escape(label)}: -?\d+$", out, re.M), label
    assert "elo_greedy: 1000" in out


@pytest.mark.parametrize(
    ("given", "word"),
    [
        ({"vs": "ai-v1", "games": 0}, "--games"),
        ({"vs": "nobody"}, "--vs"),
        ({"vs": "ai-v1", "first_game": -1}, "--first-game"),
        ({"ladder": True, "budgets": "5"}, "--budgets"),
    ],
)
def test_bench_vs_and_ladder_refuse_nonsense(given, word):
    with pytest.raises(UsageError, match=word):
        bench.run_haleakala(args(**given))
