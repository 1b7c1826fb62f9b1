"""The island as text: every fact of the position appears where a player looks for it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala.ai import make_bot
from haleakala.games.haleakala import PLAYERS, Game
from haleakala.games.haleakala.deck import BOARD_ITEMS
from haleakala.games.haleakala.views import render


def play_until(game: Game, condition, seed: int = 1, limit: int = 2000) -> Game:
    bot = make_bot("random", seed)
    for _ in range(limit):
        if condition(game) or game.is_terminal():
            break
        game.apply(bot.decide(game))
    assert condition(game), "no position found for this test"
    return game


def busy_position() -> Game:
    """A tactical position with discs, invocation discs, statues, lava and shells around."""

    def busy(g: Game) -> bool:
        return (
            sum(g.lava) >= 2
            and g.statue_owner.count(0) >= 1
            and g.statue_owner.count(1) >= 1
            and any(g.totals[0])
            and any(g.totals[1])
            and any(inv >= 0 for inv in g.invocation)
        )

    for seed in range(50):
        game = Game("tactical", seed)
        bot = make_bot("random", seed)
        while not game.is_terminal() and not busy(game):
            game.apply(bot.decide(game))
        if busy(game):
            return game
    raise AssertionError("no busy position in 50 games")


def island_columns(text: str) -> tuple[dict[str, int], list[str]]:
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("seg "))
    header = lines[head]
    names = ["boat", "red discs", "yellow discs", "B", "G", "F", "M", "lava"]
    starts = {}
    at = 0
    for name in names:
        at = header.index(name if len(name) > 1 else f" {name} ", at) + (len(name) == 1)
        starts[name] = at
    return starts, lines[head + 1 : head + 7]


def cell(row: str, starts: dict[str, int], name: str) -> str:
    keys = list(starts)
    i = keys.index(name)
    end = starts[keys[i + 1]] if i + 1 < len(keys) else len(row) + 1
    return row[starts[name] : end].strip()


def test_island_rows_show_boat_discs_per_colour_shamans_statues_and_lava():
    game = busy_position()
    starts, rows = island_columns(render.render(game))
    b = game.board
    for seg, row in enumerate(rows):
        assert (cell(row, starts, "boat") == "BOAT>") == (game.boat == seg)
        for p, column in ((0, "red discs"), (1, "yellow discs")):
            shown = cell(row, starts, column)
            values = [v for v in b.discs if game.disc_at[p][v] == seg]
            assert [int(t) for t in shown.split("=")[0].replace("*", "").split("+") if t] == values
            assert ("*" in shown) == (game.invocation[p] == seg)
        assert cell(row, starts, "lava").count("o") == game.lava[seg]
        for band, column in enumerate("GFM"):
            space = seg * 3 + band
            shown = cell(row, starts, column)
            owner = game.statue_owner[space]
            for p, colour in enumerate(PLAYERS):
                assert (f"[{colour[0].upper()}]" in shown) == (owner == p)
                assert (f"({colour[0]})" in shown) == (game.shaman[p] == space)
            assert ("~" in shown) == (game.lava[seg] >= 3 - band)


def test_shamans_on_their_huts_are_drawn_on_the_beach():
    game = Game("base", seed=3, start="red")
    starts, rows = island_columns(render.render(game))
    for p, colour in enumerate(PLAYERS):
        hut = game.board.huts[p]
        assert cell(rows[hut], starts, "B") == f"({colour[0]})"


def test_card_slots_are_listed_by_slot_name_with_the_card_name():
    game = busy_position()
    text = render.render(game)
    for slot, card in enumerate(game.slots):
        name = game.deck.cards[card].name if card >= 0 else "-"
        assert f"{game.board.slot_name(slot)} {name}" in text


def test_pile_sizes_and_discard_are_shown():
    game = busy_position()
    line = next(line for line in render.render(game).splitlines() if line.startswith("piles"))
    for (back, _), pile in zip(game.deck.piles, game.piles, strict=True):
        assert f"{back} palm tree{'s' * (back > 1)}: {len(pile)}" in line
    assert f"discard: {len(game.discard)}" in line


def test_scoring_board_shows_each_item_cost_and_owner():
    game = busy_position()
    game.board_owner[BOARD_ITEMS.index("forest")] = 1
    game.board_owner[BOARD_ITEMS.index("priestess")] = 2
    text = render.render(game)
    for code in BOARD_ITEMS:
        name, cost = game.deck.board_items[code]
        state = {"forest": "yellow", "priestess": "face down"}.get(code, "available")
        assert f"{name} ({cost}): {state}" in text


def test_each_player_line_shows_score_supply_statues_shells_and_cards():
    game = play_until(Game("base", 11), lambda g: len(g.scorings) == 1 and any(g.shells))
    text = render.render(game)
    for p, colour in enumerate(PLAYERS):
        line = next(line for line in text.splitlines() if line.startswith(colour + " "))
        total = game.scorings[-1].of(colour).total
        assert f"score {total}" in line
        assert f"statues left: {game.statues_left[p]}" in line
        assert f"shells: {len(game.shells[p])}" in line
        supply = " ".join(str(v) for v in game.board.discs if game.disc_at[p][v] < 0)
        assert f"discs in supply: {supply or 'none'}" in line
        for card in game.beach_cards[p]:
            assert game.deck.cards[card].name in text


def test_status_line_names_variant_seed_round_decider_and_running_score():
    game = play_until(Game("base", 11), lambda g: g.round == 2)
    first = " ".join(render.render(game).splitlines()[:2])  # the score wraps at 80 columns
    red, yellow = game.scorings[-1].totals
    assert "base" in first and f"seed {game.seed}" in first and "round 2 of 2" in first
    assert f"{game.to_move} to decide ({game.phase_name})" in first
    assert f"red {red}  yellow {yellow}" in first


def test_colour_only_when_asked_and_columns_survive_it():
    game = busy_position()
    plain, coloured = render.render(game), render.render(game, color=True)
    assert "\x1b[" not in plain
    assert "\x1b[31m" in coloured and "\x1b[33m" in coloured
    strip = __import__("re").compile(r"\x1b\[[0-9;]*m")
    assert strip.sub("", coloured) == plain


def test_prompt_names_the_offered_cards_when_choosing():
    game = play_until(Game("base", 2), lambda g: g.phase_name == "card")
    seg = game.context[0]
    line = " ".join(render.prompt(game).split())  # wrapped at 80 columns
    assert line.startswith(f"{game.to_move}: choose a card in segment {seg}")
    for slot in (2 * seg, 2 * seg + 1):
        if game.slots[slot] >= 0:
            assert f"take {game.board.slot_name(slot)}" in line


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 600), tactical=st.booleans())
def test_any_position_renders_within_100_columns(seed, steps, tactical):
    game = Game("tactical" if tactical else "base", seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_terminal():
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    text = render.render(game)
    assert max(len(line) for line in text.splitlines()) <= 100
    assert render.prompt(game)
