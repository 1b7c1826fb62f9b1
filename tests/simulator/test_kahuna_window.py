"""The Kahuna window: the board geometry (pure), the clicks turned into decisions (pure), and
the real window under Xvfb played with injected mouse events, with a screenshot checked."""

from __future__ import annotations

import itertools
import os
import random

import pytest
from support.display import x_display_of

from haleakala.ai import make_bot
from haleakala.gameapi import new_game
from haleakala.games.kahuna.board import default_board
from haleakala.games.kahuna.views.window import layout as L
from haleakala.games.kahuna.views.window.table import KahunaTable, Seat
from haleakala.games.kahuna.views.window.view import view_of

try:
    import pygame
except ImportError:  # the pure tests run without it; the window tests skip
    pygame = None

BOARD = default_board()


def _crosses(p1, p2, p3, p4) -> bool:
    def side(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return side(p1, p2, p3) * side(p1, p2, p4) < 0 and side(p3, p4, p1) * side(p3, p4, p2) < 0


# -- geometry -------------------------------------------------------------------------------


def test_every_island_of_the_board_data_has_a_place_on_screen():
    assert set(BOARD.islands) == set(L.ISLANDS)
    for name, pos in L.ISLANDS.items():
        assert L.island_at(pos) == name


def test_no_line_crosses_another_or_runs_through_a_third_island():
    lines = list(BOARD.line_names)
    for a, b in itertools.combinations(lines, 2):
        assert not _crosses(*L.line_ends(a), *L.line_ends(b)), (a, b)
    for line in lines:
        for island, centre in L.ISLANDS.items():
            if island not in line.split("-"):
                gap = L.distance_to_segment(centre, *L.line_ends(line))
                assert gap > L.ISLAND_RADIUS + L.LINE_HIT, (line, island)


def test_a_click_on_a_line_picks_that_line_and_a_click_on_the_sea_none():
    lines = list(BOARD.line_names)
    for line in lines:
        assert L.line_at(L.line_middle(line), lines) == line
    assert L.line_at((790, 400), lines) is None  # open sea at the board's right edge
    assert L.line_at(L.ISLANDS["ELAI"], lines) is None  # an island is not a line


def test_panel_targets_do_not_overlap():
    rects = [L.pile_rect(), *(L.display_rect(s) for s in (1, 2, 3))]
    rects += [L.hand_rect(i) for i in range(5)] + [L.END_RECT, L.DISCARD_RECT, L.CLEAR_RECT]
    for (ax, ay, aw, ah), (bx, by, bw, bh) in itertools.combinations(rects, 2):
        assert ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay
    for x, y, w, h in rects:
        assert x >= L.PANEL_X and x + w <= L.WIDTH and y + h <= L.HEIGHT


# -- clicks → decisions (no display) -------------------------------------------------------


def human_vs_human(seed: int = 4) -> KahunaTable:
    table = KahunaTable(new_game("kahuna", seed=seed), (Seat(), Seat()))
    table.dismiss_handover()
    return table


def free_line_for(game, card: str) -> str:
    for text in game.legal_decisions():
        if text.startswith(f"play {card}>"):
            return "-".join(sorted((card, text.split(">")[1])))
    raise AssertionError(f"no free line for {card}")


def test_a_card_then_a_line_lays_a_bridge_there():
    table = human_vs_human()
    game = table.game
    me = game.decider
    hand = table.view().hand
    table.click_card(0)
    line = free_line_for(game, hand[0])
    table.click_line(line)
    other = next(i for i in line.split("-") if i != hand[0])
    assert game.format(game.history[-1]) == f"play {hand[0]}>{other}"
    assert table.view().bridges[line] == me
    assert table.selected == []


def test_a_click_the_rules_refuse_changes_nothing_and_says_why():
    table = human_vs_human()
    game = table.game
    before = game.digest()
    card = table.view().hand[0]
    far = next(line for line in BOARD.line_names if card not in line.split("-"))
    table.click_line(far)
    assert "Select a card" in table.message
    table.click_card(0)
    table.click_line(far)
    assert f"only on lines that touch {card}" in table.message
    # Two cards on a line without an opposing bridge: the rules refuse the cut (K16).
    table.click_card(1)
    a, b = sorted(table.selected_cards())
    line = free_line_for(game, a)
    table.click_line(line)
    assert table.message.startswith(f"cut {line} with {a}+{b}: ")
    assert game.digest() == before and game.history == []


def test_two_cards_then_an_opposing_bridge_cut_it_k16():
    """A position where the player to move holds a pair for an opposing bridge: clicking the
    two cards and the bridge plays ``cut LINE with A+B``."""
    rng = random.Random(1)
    for seed in range(200):
        game = new_game("kahuna", seed=seed)
        for _ in range(rng.randrange(10, 80)):
            if game.is_terminal():
                break
            cuts = [t for t in game.legal_decisions() if t.startswith("cut ")]
            if cuts:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        cuts = [] if game.is_terminal() else [t for t in game.legal_decisions() if "cut " in t]
        if cuts:
            break
    else:
        pytest.fail("no position with a cut found")
    text = cuts[0]
    line, pair = text[4:].split(" with ")
    first, second = pair.split("+")
    table = KahunaTable(game, (Seat(), Seat()))
    table.dismiss_handover()
    hand = list(table.view().hand)
    i = hand.index(first)
    j = hand.index(second, i + 1) if first == second else hand.index(second)
    owner = table.view().bridges[line]
    table.click_card(j)
    table.click_card(i)
    table.click_line(line)
    assert game.format(game.history[-1]) == text
    assert table.view().bridges.get(line) != owner


def test_between_two_people_the_hand_over_screen_hides_both_hands():
    table = human_vs_human()
    game = table.game
    first = game.decider
    assert table.view().hand == tuple(game.hand_cards(first))
    table.click_end()
    assert table.handover and table.view().hand == ()
    table.click_card(0)  # a click on a card under the hand-over screen selects nothing
    assert table.selected == []
    table.dismiss_handover()
    assert table.viewer == 1 - first
    assert table.view().hand == tuple(game.hand_cards(1 - first))


def test_against_a_bot_only_the_humans_hand_is_ever_in_the_view_k31():
    game = new_game("kahuna", seed=9)
    bot = make_bot("random", seed=1, game="kahuna")
    table = KahunaTable(game, (Seat(), Seat(bot, 0.01)))
    for _ in range(40):
        if game.is_terminal():
            break
        if game.decider == 0:
            table.decide(game.legal_decisions()[0])
        else:
            table.update()
            table.wait_for_bot()
        view = table.view()
        assert view.viewer == 0 and view.hand == tuple(game.hand_cards(0))
    assert any(entry.startswith("black:") for entry in table.log)


def test_the_view_of_nobody_holds_no_card_of_any_hand():
    game = new_game("kahuna", seed=2)
    view = view_of(game, None)
    assert view.hand == ()
    assert view.hand_sizes == (game.hand_size(0), game.hand_size(1))


# -- the real window under Xvfb -------------------------------------------------------------


@pytest.fixture(scope="module")
def x_display():
    with x_display_of(L.WIDTH, L.HEIGHT) as name:
        yield name


def click(win, pos) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    win.step()


@pytest.mark.xvfb
def test_window_plays_a_turn_with_the_mouse_and_the_bot_answers(x_display, tmp_path):
    from PIL import Image

    from haleakala.games.kahuna.views.window.window import KahunaWindow

    pygame.display.init()
    try:
        screen = pygame.display.set_mode((L.WIDTH, L.HEIGHT))
        assert pygame.display.get_driver() == "x11"
        game = new_game("kahuna", seed=4, start="white")
        bot = make_bot("ai", seed=1, game="kahuna", iterations=30)
        table = KahunaTable(game, (Seat(), Seat(bot, None)))  # deterministic: 30 iterations
        win = KahunaWindow(table, screen=screen)
        win.step()
        card = table.view().hand[0]
        line = free_line_for(game, card)
        click(win, L.centre(L.hand_rect(0)))
        assert table.selected == [0]
        click(win, tuple(round(c) for c in L.line_middle(line)))
        assert table.view().bridges[line] == 0
        click(win, L.centre(L.display_rect(2)))  # draw slot 2: the turn ends
        assert [game.format(d) for d in game.history][-1] == "draw 2"
        assert game.decider == 1
        while game.decider == 1 and not game.is_terminal():  # the bot's whole turn
            win.step()
            table.wait_for_bot()
        win.step()
        assert any(entry.startswith("black:") for entry in table.log)

        path = tmp_path / "kahuna.png"
        win.save(str(path))
        shot = Image.open(path).convert("RGB")
        assert shot.size == (L.WIDTH, L.HEIGHT)
        owner = table.view().bridges.get(line)
        x, y = (round(c) for c in L.line_middle(line))
        r, g, b = shot.getpixel((x, y))
        if owner == 0:  # white's bridge, as laid by the clicks
            assert min(r, g, b) > 200, (r, g, b)
        elif owner == 1:  # black's answer cut it and laid its own
            assert max(r, g, b) < 60, (r, g, b)
        else:  # a black stone removed it: the line shows the sea or a free-line dot
            assert b > r, (r, g, b)
        # White's hand is drawn (card faces are light), the empty fifth slot is not.
        hx, hy = L.centre(L.hand_rect(0))
        assert sum(shot.getpixel((hx, hy - 50))) > 600
    finally:
        pygame.display.quit()


@pytest.mark.xvfb
def test_sim_game_kahuna_opens_a_real_window_and_saves_a_screenshot(x_display, tmp_path):
    import subprocess
    import sys

    from PIL import Image

    out = tmp_path / "sim.png"
    env = dict(os.environ, DISPLAY=x_display)
    env.pop("SDL_VIDEODRIVER", None)
    result = subprocess.run(
        [sys.executable, "-m", "haleakala", "sim", "--game", "kahuna", "--screenshot", str(out),
         "--seed", "3", "--decisions", "12", "--opponent", "random"],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-800:]
    with Image.open(out) as image:
        assert image.size == (L.WIDTH, L.HEIGHT)
        colours = image.convert("RGB").crop((0, 0, 800, 800)).getcolors(1_000_000)
        assert colours and len(colours) > 50  # the board is drawn, not a blank sea


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--kit", "rfid"], "--kit belongs to the kit simulator"),
        (["--headless"], "no headless game"),
    ],
)
def test_sim_game_kahuna_refuses_haleakala_options_with_the_reason(extra, words, capsys):
    from haleakala.cli import main

    code = main(["sim", "--game", "kahuna", *extra])
    assert code == 2
    assert words in capsys.readouterr().err


def test_after_the_result_the_end_button_deals_the_next_game():
    game = new_game("kahuna", seed=6)
    rng = random.Random(6)
    table = KahunaTable(game, (Seat(), Seat(make_bot("random", seed=1, game="kahuna"), None)))
    table.new_game()
    assert table.game is game and "not over" in table.message
    while not game.is_terminal():
        if game.decider == 0:
            legal = game.legal_decisions()
            table.decide(legal[rng.randrange(len(legal))])
        else:
            table.update()
            table.wait_for_bot()
    assert "wins" in table.message or "Draw" in table.message
    table.new_game()
    assert table.game is not game and table.game.seed == 7 and table.game.history == []
    assert table.log == [] and table.view().hand == tuple(table.game.hand_cards(0))
