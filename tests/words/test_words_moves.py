"""Sentences of what happened (``haleakala.games.haleakala.words.moves``): one per decision, in
player words, with the boat's sail, cards, statues burnt and scorings said the same way
everywhere."""

from __future__ import annotations

import random

from support.positions import RED, YELLOW, new, place_disc, put_slot, statue

from haleakala.games.haleakala import Game
from haleakala.games.haleakala.events import Erupted
from haleakala.games.haleakala.scoring import PlayerScoring, Points, Scoring
from haleakala.games.haleakala.words import moves


def said(game: Game, decision: str) -> list[str]:
    player = game.decider
    code = game.parse(decision)
    return [str(line) for line in moves.describe_move(game, player, code, game.apply(code))]


def test_a_placement_beside_the_boat_says_where_the_boat_sails():
    g = new(start="yellow")
    assert said(g, "2@0")[0] == "Yellow places 2 on beach 0 – the boat sails to 2"


def test_a_placement_away_from_the_boat_and_the_shaman_move():
    g = new(start="red")
    assert said(g, "3@2") == ["Red places 3 on beach 2"]
    assert said(g, ">2G") == ["Red's shaman goes to grassland 2G"]


def test_taking_a_card_names_the_card_and_the_slot():
    g = new(start="red")
    put_slot(g, 2, "shell")
    place_disc(g, YELLOW, 3, 1)
    g.apply("1@0")  # red sails the boat to 1, where only yellow has discs
    lines = said(g, "take 1a")
    assert lines[0] == "Yellow takes Shell from 1a"


def test_a_burnt_statue_is_named_with_its_owner():
    g = new(start="red")
    statue(g, RED, "3M")
    g.lava = [0, 0, 0, 1, 0, 0]
    event = Erupted(1, ("3M",), ("red",))
    assert [str(line) for line in moves.eruption_lines(g, event)] == [
        "the volcano erupts before scoring 1",
        "Red's statue on mountain 3M burns",
    ]


def test_eruption_events_of_a_real_game_carry_the_owners_of_burnt_statues():
    rng = random.Random(3)
    for seed in range(40):
        g = Game("base", seed=seed)
        while not g.is_terminal():
            owners = {g.board.space_name(s): o for s, o in enumerate(g.statue_owner) if o >= 0}
            for event in g.apply(rng.choice(g.legal_actions())):
                if isinstance(event, Erupted) and event.destroyed:
                    burnt = event.destroyed
                    assert event.owners == tuple(["red", "yellow"][owners[n]] for n in burnt)
                    lines = [str(line) for line in moves.event_lines(g, [event])]
                    assert all(" burns" in line for line in lines[1:])
                    return
    raise AssertionError("no eruption burnt a statue in 40 random games")


def test_scoring_sentence_puts_the_leader_first():
    parts = tuple(
        PlayerScoring(colour, Points(), total, (), 0, (), 0, ())
        for colour, total in (("red", 9), ("yellow", 12))
    )
    assert str(moves.scoring_sentence(Scoring(1, parts))) == "Scoring 1: yellow 12, red 9"


def test_every_decision_of_random_games_has_a_sentence_starting_with_its_player():
    for seed in range(3):
        g = Game("tactical" if seed % 2 else "base", seed=seed)
        rng = random.Random(seed)
        while not g.is_terminal():
            player = g.decider
            code = rng.choice(g.legal_actions())
            first = str(moves.describe_move(g, player, code, g.apply(code))[0])
            assert first.startswith(("Red", "Yellow")), first
            assert "@" not in first and ">" not in first  # words, not notation
