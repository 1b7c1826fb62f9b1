"""The Kanaloa window: it draws random positions at 2, 3 and 4 players, and a click on an
island, a current or a tile forms the decision the rules expect (pure table logic, and the
window's hit tests on real pixels of the layout)."""

from __future__ import annotations

import os
import random

import pytest
from support.kanaloa_positions import advanced

from haleakala.ai import make_bot
from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.views.window import layout as L
from haleakala.games.kanaloa.views.window.table import KanaloaTable, Seat

pygame = pytest.importorskip("pygame")


@pytest.fixture(scope="module")
def screen():
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()
    yield pygame.display.set_mode((L.WIDTH, L.HEIGHT))
    pygame.display.quit()


def people(game: Game) -> KanaloaTable:
    return KanaloaTable(game, [Seat() for _ in game.players])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_window_draws_random_positions_without_error(screen, players):
    from haleakala.games.kanaloa.views.window.window import KanaloaWindow

    for seed in range(6):
        game = advanced(seed, players, random.Random(seed).randrange(0, 600))
        win = KanaloaWindow(people(game), screen=screen)
        assert win.draw()
        # Something of every player's colour is on the screen (a piece, a fish or the box).
        colours = {tuple(screen.get_at((x, y)))[:3] for x in range(0, 1280, 4)
                   for y in range(0, 800, 4)}  # fmt: skip
        from haleakala.games.kanaloa.views.window.window import PLAYER

        assert all(PLAYER[c] in colours for c in game.players)


def island_pixel(game: Game, name: str) -> tuple[int, int]:
    """A point of the island's disc away from its tiles (its name, at the top)."""
    x, y = L.island_centre(game.m, game.m.islands.index(name))
    return x, y - 24


def test_a_click_on_an_island_places_the_first_piece_there(screen):
    from haleakala.games.kanaloa.views.window.window import KanaloaWindow

    game = Game(seed=7, players=3)
    while game.phase_name == "fish":
        game.apply(game.legal_actions()[0])
    win = KanaloaWindow(people(game), screen=screen)
    assert win.click(island_pixel(game, "HONU")) == "start HONU"
    assert game.history[-1] == game.parse("start HONU")


def test_a_click_on_an_island_moves_the_piece_there_when_one_move_leads_there(screen):
    from haleakala.games.kanaloa.views.window.window import KanaloaWindow

    for seed in range(40):
        game = advanced(seed, 4, 140)
        if game.is_terminal() or game.phase_name != "main":
            continue
        moves = [t for t in game.legal_decisions() if t.startswith("move ")]
        heads = [t.split(">")[1] for t in moves]
        unique = [t for t, h in zip(moves, heads, strict=True) if heads.count(h) == 1]
        if not unique:
            continue
        head = unique[0].split(">")[1]
        win = KanaloaWindow(people(game), screen=screen)
        assert win.click(island_pixel(game, head)) == unique[0]
        assert game.format(game.history[-1]) == unique[0]
        return
    pytest.fail("no position with a single move to an island")


def test_a_click_on_a_current_in_the_start_phase_offers_its_fish_headings_and_sides(screen):
    from haleakala.games.kanaloa.views.window.window import KanaloaWindow

    game = Game(seed=7, players=3)
    table = people(game)
    win = KanaloaWindow(table, screen=screen)
    cur = game.m.current_names.index("HONU-KAI")
    (ax, ay), (bx, by) = L.current_ends(game.m, cur)
    assert win.click(((ax + bx) / 2, (ay + by) / 2)) is None
    assert table.offered() == ["fish HONU>KAI green", "fish HONU>KAI white",
                               "fish KAI>HONU green", "fish KAI>HONU white"]  # fmt: skip
    x, y = L.centre(L.choice_rect(0))
    assert win.click((x, y)) == "fish HONU>KAI green"


def test_a_click_on_an_island_tile_takes_it_after_a_move():
    game = Game(seed=7, players=3)
    for text in ["fish HONU>KAI green"]:
        game.apply(text)
    rng = random.Random(0)
    while game.phase_name != "take":
        game.apply(rng.choice(game.legal_actions()))
    table = people(game)
    island = game.arrive
    tile = game.m.tiles[game.tiles[island][0]]
    assert table.click_island_tile(island, tile) == f"take {tile}"


def test_a_click_that_fits_nothing_says_so_and_offers_the_legal_list():
    game = Game(seed=7, players=3)
    table = people(game)
    assert table.click_island(0) is None
    assert "no legal decision" in table.message
    assert table.offered() == game.legal_decisions()


def test_bots_decide_in_update_and_people_wait_for_a_click():
    game = Game(seed=3, players=2)
    seats = [Seat(), Seat(make_bot("random", 1, game="kanaloa"))]
    table = KanaloaTable(game, seats)
    if game.decider == 0:
        assert not table.update()
        table.click_choice(0)
    assert table.update() and len(game.history) >= 1
