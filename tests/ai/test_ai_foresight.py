"""The search bot's look ahead at the next distributions of cards (R9–R12)."""

from __future__ import annotations

import pytest

from haleakala.games.haleakala import Game
from haleakala.games.haleakala.bots.foresight import _tables as tables_of
from haleakala.games.haleakala.bots.foresight import beach_value, card_value, foresight


def card(game: Game, code: str, skip: int = 0) -> int:
    found = [n for n, c in enumerate(game.deck.cards) if c.code == code]
    return found[skip]


def beach_with(game: Game, seg: int, cards: list[int], red: int, yellow: int) -> Game:
    """``game`` with exactly ``cards`` waiting on beach ``seg`` and those disc totals there."""
    k = game.board.slots_per_segment
    for i, s in enumerate(range(seg * k, seg * k + k)):
        game.slots[s] = cards[i] if i < len(cards) else -1
    game.totals[0][seg], game.totals[1][seg] = red, yellow
    return game


def test_the_higher_total_chooses_the_better_card_and_the_other_gets_the_rest_R10_R12():
    game = Game("base", seed=1)
    tables = tables_of(game.deck)
    nautilus, shell = card(game, "nautilus"), card(game, "shell")
    beach_with(game, 2, [shell, nautilus], red=4, yellow=1)
    expected = card_value(game, 0, nautilus, tables) - card_value(game, 1, shell, tables)
    assert beach_value(game, 2, tables) == pytest.approx(expected)
    assert expected > 0
    beach_with(game, 2, [shell, nautilus], red=1, yellow=4)  # yellow leads: red's loss
    assert beach_value(game, 2, tables) == pytest.approx(-expected)


def test_identical_cards_leave_the_other_player_empty_handed_R12():
    game = Game("base", seed=1)
    tables = tables_of(game.deck)
    a, b = card(game, "shell"), card(game, "shell", 1)
    beach_with(game, 3, [a, b], red=5, yellow=2)
    assert beach_value(game, 3, tables) == pytest.approx(card_value(game, 0, a, tables))


def test_a_beach_without_discs_or_without_cards_gives_nothing():
    game = Game("base", seed=1)
    tables = tables_of(game.deck)
    beach_with(game, 1, [card(game, "nautilus")], red=0, yellow=0)
    assert beach_value(game, 1, tables) == 0.0
    beach_with(game, 1, [], red=3, yellow=0)
    assert beach_value(game, 1, tables) == 0.0


def test_a_statue_card_is_worth_the_statue_the_shaman_could_build_R15():
    game = Game("base", seed=1)
    tables = tables_of(game.deck)
    statue = card(game, "statue")
    assert card_value(game, 0, statue, tables) == 0.0  # the shaman is still in its hut
    game.shaman[0] = 2  # mountain of segment 0
    on_mountain = card_value(game, 0, statue, tables)
    game.shaman[0] = 0  # grassland
    assert on_mountain > card_value(game, 0, statue, tables) > 0.0
    game.statue_owner[0] = 1
    assert card_value(game, 0, statue, tables) == 0.0  # the space is taken


def test_the_player_to_move_can_send_the_boat_to_a_beach_it_leads_R9():
    game = Game("base", seed=1, start="red")
    boat = game.boat
    target = (boat + 3) % game.board.segments
    beach_with(game, target, [card(game, "nautilus")], red=4, yellow=0)
    game.disc_at[0][4] = target
    quiet = foresight(game, 0.5, 0.0)
    with_threat = foresight(game, 0.5, 1.0)
    assert with_threat > quiet > 0  # red's disc 3 sends the boat there now
    game.disc_at[0][3] = (boat + 1) % game.board.segments  # disc 3 is out: no threat left
    assert foresight(game, 0.5, 1.0) == pytest.approx(quiet)


def test_the_fast_sum_agrees_with_the_beach_by_beach_values_on_many_positions():
    import random

    from haleakala.games.haleakala import VARIANTS

    rng = random.Random(3)
    checked = 0
    for index in range(40):
        game = Game(VARIANTS[index % 2], seed=index)
        while not game.is_terminal() and len(game.history) < rng.randrange(1, 300):
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if game.is_terminal():
            continue
        tables = tables_of(game.deck)
        expected = sum(beach_value(game, s, tables) for s in range(game.board.segments))
        assert foresight(game, 1.0, 0.0) == pytest.approx(expected)
        checked += 1
    assert checked >= 30
