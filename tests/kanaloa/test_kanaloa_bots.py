"""Kanaloa's bots (issue 27 part 5): random, greedy, child and the search bot with max^n or
paranoid backup play legal decisions in any seat, in turn and out of it, finish games at
every player count, and are deterministic for a seed."""

from __future__ import annotations

import random

import pytest

from haleakala.ai import bots_of, make_bot
from haleakala.ai.search import SearchBot
from haleakala.gameapi import new_game
from haleakala.games.kanaloa.bots import LEVELS, ParanoidSearchBot, level_table, strength

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


def _out_of_turn(players: int, seeds: range = range(4), each: int = 3) -> dict[str, list]:
    """Positions where someone decides out of turn (not ``current``), by phase: Ku's
    robbery (N43) at every count, the protection's allow/forbid (N42) with four players;
    at most ``each`` of a phase from random games of ``seeds``."""
    found: dict[str, list] = {}
    for seed in seeds:
        game = new_game("kanaloa", seed=seed, players=players)
        rng = random.Random(seed)
        while not game.is_terminal():
            if game.decider != game.current and game.phase_name not in ("fish", "start"):
                kept = found.setdefault(game.phase_name, [])
                if len(kept) < each:
                    kept.append(game.clone())
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_decides_legally_in_any_seat_including_out_of_turn(players):
    positions = _positions(players, seed=players)
    assert {g.decider for g in positions} == set(range(players)), "every seat decides"
    out_of_turn = _out_of_turn(players)
    assert "rob" in out_of_turn, "Ku's robbery (N43) is decided out of turn"
    if players == 4:
        assert "veto" in out_of_turn, "the protection's allow/forbid (N42) is out of turn"
    sample = positions[::3] + [g for kept in out_of_turn.values() for g in kept]
    for name in ("random", "greedy", "child", "ai", "ai-paranoid"):
        bot = _bot(name, seed=5)
        for game in sample:
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


def test_any_bot_takes_any_seat_from_the_command_line():
    from haleakala.ai.simple import EvaluationGreedyBot, RandomBot
    from haleakala.cli import build_parser
    from haleakala.terminal.play import make_seats, resolve_seats
    from haleakala.terminal.play import new_game as play_game

    args = build_parser().parse_args(
        ["play", "--game", "kanaloa", "--players", "4", "--seat", "red=random",
         "--seat", "yellow=ai", "--seat", "green=ai-paranoid", "--blue", "greedy",
         "--seed", "3", "--json"]
    )  # fmt: skip
    resolve_seats(args)
    seats = make_seats(args, play_game(args))
    assert [type(s) for s in seats] == [RandomBot, SearchBot, ParanoidSearchBot,
                                        EvaluationGreedyBot]  # fmt: skip


def test_strength_levels_reach_the_search_seat_from_the_command_line():
    from haleakala.cli import build_parser
    from haleakala.terminal.play import make_seats, resolve_seats
    from haleakala.terminal.play import new_game as play_game

    args = build_parser().parse_args(
        ["play", "--game", "kanaloa", "--players", "3", "--seat", "red=ai",
         "--strength", "strong", "--seed", "3", "--json"]
    )  # fmt: skip
    resolve_seats(args)
    seats = make_seats(args, play_game(args))
    assert isinstance(seats[0], SearchBot) and seats[0].iterations == LEVELS["strong"].iterations


def test_bench_ai_kanaloa_prints_wilson_intervals_for_each_pairing(capsys):
    from haleakala.cli import main

    argv = ["bench", "ai", "--game", "kanaloa", "--players", "2", "--games", "1",
            "--iterations", "1", "--jobs", "1"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "ai-vs-random (2p)" in out and "ai-vs-greedy (2p)" in out
    assert "unfinished_games: 0" in out and "95% CI" in out


@pytest.mark.parametrize(
    ("argv", "sentence"),
    [
        (["--players", "5"], "--players 5: Kanaloa is for 2, 3 or 4 players"),
        (["--vs", "ai-v1"], "--vs ai-v1: Kanaloa's search bot is measured against ai-paranoid"),
        (["--vs", "ai-paranoid", "--players", "4"], "compared at 3 players"),
        (["--iterations", "0"], "--iterations must be at least 1"),
    ],
)
def test_bench_ai_kanaloa_refuses_bad_options_with_a_sentence(argv, sentence, capsys):
    from haleakala.cli import main

    assert main(["bench", "ai", "--game", "kanaloa", *argv]) == 2
    assert sentence in capsys.readouterr().err
