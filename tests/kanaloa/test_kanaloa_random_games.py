"""Random games of Kanaloa at 2, 3 and 4 players with the invariants after every decision
(300 games by default, 5,000 with ``-m long``), the interface's promises checked on the way,
and the logs of random games (``play --json --legal``) replayed by the project's replayer
with every legal list matching the notation contract."""

from __future__ import annotations

import json
import random

import pytest

from haleakala.ai import make_bot
from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.invariants import violations
from haleakala.games.kanaloa.notation import all_codes
from haleakala.games.kanaloa.replay import replay_log
from haleakala.games.kanaloa.state import ROB, VETO, VOLCANO
from haleakala.toolkit.gamelog import bot_seed, play_log

CODES = all_codes()


def check_interface(game: Game, rng: random.Random) -> None:
    """What ``haleakala.gameapi.GameState`` promises, for any seat (2 to 4 players)."""
    legal = game.legal_actions()
    texts = game.legal_decisions()
    assert texts == sorted(texts) and len(set(texts)) == len(texts)
    assert sorted(game.parse(t) for t in texts) == legal
    assert all(game.format(game.parse(t)) == t for t in texts)
    digest = game.digest()
    for d in legal:
        game.clone().apply(d)
    legal_set = set(legal)
    for d in rng.sample(CODES, 6):
        if d in legal_set:
            continue
        reason = game.why_illegal(d)
        assert reason
        with pytest.raises(ValueError) as caught:
            game.apply(d)
        assert str(caught.value) == reason
    wrong = [c for c in game.players if c != game.to_move]
    if legal and wrong:
        assert "N52" in (game.why_illegal(legal[0], wrong[0]) or "")
    assert game.digest() == digest, "a refusal changed the game"
    again = Game.from_json(game.to_json())
    assert again.digest() == digest and again.legal_actions() == legal
    for p in range(game.n):
        world = game.determinize(p, rng)
        assert world.observation(p) == game.observation(p)
        assert world.legal_actions() == legal  # the bag's order never changes a legal list
        assert 0.0 <= game.evaluate(p) <= 1.0


def play_random(seed: int, players: int, deep_every: int = 0) -> Game:
    game = Game(seed=seed, players=players)
    rng = random.Random(seed * 10 + players)
    step = 0
    while not game.is_terminal():
        if deep_every and step % deep_every == 0:
            check_interface(game, rng)
        legal = game.legal_actions()
        assert legal, "no legal decision although the game is not over (N52)"
        game.apply(legal[rng.randrange(len(legal))])
        broken = violations(game)
        assert not broken, f"seed {seed}, {players} players, decision {step}: {broken[0]}"
        step += 1
        assert step < 3000, "the game does not end"
    r = game.returns()
    assert len(r) == players and abs(sum(r) - 1.0) < 1e-9
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_the_invariants_after_every_decision(players):
    for seed in range(100):
        play_random(seed, players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_the_interface_promises(players):
    for seed in range(3):
        play_random(1000 + seed, players, deep_every=23)


@pytest.mark.long
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_long(players):
    for seed in range(5000 // 3 + 1):
        play_random(10_000 + seed, players)


def bots_log(seed: int, players: int, names=("random", "greedy")) -> list[str]:
    game = Game(seed=seed, players=players)
    bots = [
        make_bot(names[p % len(names)], seed=bot_seed(seed, p), game="kanaloa")
        for p in range(players)
    ]
    return list(play_log(game, bots, legal=True))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_game_logs_with_legal_lists_replay_cleanly(players):
    for seed in range(2):
        lines = bots_log(seed, players)
        (game,) = replay_log(lines)
        assert game.is_terminal()
        assert json.loads(lines[-1])["type"] == "result"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_lists_of_random_logs_follow_the_contract(players):
    """The notation's table, checked independently of the engine's generator: every legal
    text is canonical, the lists are sorted and unique, and each decision's decider is the
    one KANALOA-NOTATION "Who decides" names."""
    lines = bots_log(7, players, names=("random",))
    setup = json.loads(lines[0])
    game = Game(seed=7, players=players)
    for line in lines[1:]:
        record = json.loads(line)
        if record["type"] != "action":
            continue
        legal = record["legal"]
        assert legal == sorted(set(legal)) and legal
        assert record["action"] in legal
        verbs = {t.split()[0] for t in legal}
        if game.phase == ROB:
            assert verbs == {"rob"} and record["player"] == game.players[game.gods[1]]
        elif game.phase == VETO:
            assert verbs == {"allow", "forbid"}
            assert record["player"] == game.players[game.prot[0]]
        elif game.phase == VOLCANO:
            assert verbs == {"volcano"}
        else:
            assert record["player"] == game.players[game.current] or game.turn == 0
        if "end" in verbs:
            assert verbs & {"reverse", "flip", "place"}, "end only with something to do (N18)"
        if "done" in verbs:
            assert verbs <= {"add", "done"}
        for text in legal:
            assert game.format(game.parse(text)) == text
        game.apply(record["action"], record["player"])
    assert setup["players"] == list(game.players)
