"""Kanaloa's bots (issue 27 part 5): random, greedy, child and the search bot with max^n or
paranoid backup play legal decisions in any seat, in turn and out of it, finish games at
every player count, and are deterministic for a seed."""

from __future__ import annotations

import random

import pytest

from haleakala.ai import bots_of, make_bot
from haleakala.ai.kanaloa import LEVELS, ParanoidSearchBot, level_table, strength
from haleakala.ai.search import SearchBot
from haleakala.gameapi import new_game

SMALL = {"iterations": 3, "rollout_depth": 4}  # a search that is cheap but still searches


def _bot(name: str, seed: int):
    if name in ("ai", "ai-paranoid"):
        return make_bot(name, seed=seed, game="kanaloa", **SMALL)
    return make_bot(name, seed=seed, game="kanaloa")


def _positions(players: int, seed: int, every: int = 7) -> list:
    """Positions of a random game, every ``every``-th decision and every out-of-turn one."""
    game = new_game("kanaloa", seed=seed, players=players)
    rng = random.Random(seed)
    out = []
    i = 0
    while not game.is_terminal():
        if i % every == 0 or game.decider != game.current:
            out.append(game.clone())
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        i += 1
    return out


def test_kanaloa_has_random_greedy_and_both_search_bots():
    assert {"random", "greedy", "child", "ai", "ai-paranoid"} <= set(bots_of("kanaloa"))
    assert isinstance(make_bot("ai-paranoid", game="kanaloa"), ParanoidSearchBot)
    assert make_bot("ai-paranoid", game="kanaloa").paranoid
    assert not make_bot("ai", game="kanaloa").paranoid


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_decides_legally_in_any_seat_including_out_of_turn(players):
    positions = _positions(players, seed=players)
    out_of_turn = [g for g in positions if g.decider != g.current and g.phase_name != "fish"]
    assert out_of_turn, "the sample has no out-of-turn decision (robbery, veto, volcano)"
    seats = {g.decider for g in positions}
    assert seats == set(range(players)), "every seat decides somewhere in the sample"
    for name in ("random", "greedy", "child", "ai", "ai-paranoid"):
        bot = _bot(name, seed=5)
        for game in positions[::3] + out_of_turn:
            digest = game.digest()
            decision = bot.decide(game)
            assert decision in game.legal_actions(), (name, game, game.format(decision))
            assert game.digest() == digest, f"{name} changed the position it looked at"


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_search_bot_games_against_random_and_greedy_run_to_the_end(players, opponent):
    game = new_game("kanaloa", seed=40 + players, players=players)
    me = players - 1  # the last seat: never the first to place a fish
    bots = [_bot("ai" if p == me else opponent, seed=p) for p in range(players)]
    decisions = 0
    while not game.is_terminal():
        decision = bots[game.decider].decide(game)
        game.apply(decision)
        decisions += 1
        assert decisions < 5_000, "the game does not end"
    returns = game.returns()
    assert len(returns) == players and abs(sum(returns) - 1.0) < 1e-9


@pytest.mark.parametrize("name", ["random", "greedy", "child", "ai", "ai-paranoid"])
def test_bots_are_deterministic_for_a_seed(name):
    positions = _positions(3, seed=11, every=25)
    first = [_bot(name, seed=9).decide(g) for g in positions]
    again = [_bot(name, seed=9).decide(g) for g in positions]
    assert first == again


def test_search_with_an_iteration_budget_never_reads_the_bag():
    """Re-dealing the bag (the only hidden information) leaves the search unchanged: each
    iteration samples its own world, so the true order is never seen."""
    game = _positions(4, seed=3, every=40)[3]
    world = game.determinize(game.decider, random.Random(99))
    assert world.bag != game.bag or world.reserve != game.reserve
    assert SearchBot(seed=4, **SMALL).search(game) == SearchBot(seed=4, **SMALL).search(world)


def test_paranoid_and_maxn_agree_with_two_players():
    """With two players the paranoid coalition is the one opponent: the same search."""
    for game in _positions(2, seed=8, every=60)[:4]:
        if len(game.legal_actions()) > 1:
            maxn = SearchBot(seed=2, **SMALL).search(game)
            paranoid = ParanoidSearchBot(seed=2, **SMALL).search(game)
            assert maxn.keys() == paranoid.keys()
            for a, (visits, reward) in maxn.items():
                assert paranoid[a][0] == visits and paranoid[a][1] == pytest.approx(reward)


def test_levels_rise_from_child_to_strong():
    assert list(LEVELS) == ["child", "easy", "normal", "strong"]
    assert strength("child", 1).name == "child"
    assert strength("easy", 1).name == "greedy"
    normal, strong = strength("normal", 1), strength("strong", 1)
    assert normal.name == strong.name == "ai"
    assert normal.iterations < strong.iterations
    rows = level_table(100.0)
    assert rows[2] == ("normal", "ai", normal.iterations, normal.iterations / 100.0)


def test_an_unknown_level_is_refused_with_a_sentence():
    with pytest.raises(ValueError, match="unknown level 'expert': choose one of child, easy"):
        strength("expert", 0)
