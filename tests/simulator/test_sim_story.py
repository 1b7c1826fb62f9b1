"""The window's story of the game, without a display: the log in words (coloured by who
acted), the last-move mark, the legal targets it outlines, and when the next scoring comes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala.games.haleakala import Game
from haleakala.games.haleakala.decision import Place, Return, decode
from haleakala.games.haleakala.views import layout as L
from haleakala.simulator.story import (
    Story,
    cards_before_scoring,
    legal_marks,
    mark_of,
    scoring_forecast,
    story_of,
)


def play(game: Game, n: int, seed: int) -> Game:
    rng = random.Random(seed)
    for _ in range(n):
        if game.is_terminal():
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def until_first_scoring(seed: int) -> Game:
    game = Game("base", seed)
    rng = random.Random(seed)
    while not game.scorings:
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_a_placement_that_sails_the_boat_says_where_in_the_movers_colour_R9():
    game = Game("base", 4, "red")
    for text in ("4@5", ">stay", "1@0"):  # yellow lays 1 beside the boat (beach 0)
        game.apply(text)
    story = story_of(game)
    assert [e.text for e in story.entries if "cleared" in e.text] == []  # nobody was there
    last = story.entries[-1]
    assert last.text == "Yellow places 1 on beach 0 – the boat sails to 1"
    assert last.who == "yellow" and last.kind == "move"
    assert story.entries[0].text == "Red starts: base game, deal 4"
    assert story.entries[1].text == "Red places 4 on beach 5" and story.entries[1].who == "red"
    who, mark = story.last
    assert who == "yellow" and mark is not None and mark.label == "beach 0"


def test_the_eruption_and_the_scoring_are_told_in_words_R19_R22():
    game = until_first_scoring(0)
    entries = story_of(game).entries
    erupts = [e for e in entries if e.text.startswith("The volcano erupts before scoring 1")]
    assert len(erupts) == 1 and erupts[0].who is None
    header = next(i for i, e in enumerate(entries) if e.text.startswith("Scoring 1: "))
    red, yellow = entries[header + 1], entries[header + 2]
    totals = game.scorings[0].totals
    assert red.who == "red" and red.text.endswith(f"= {totals[0]}")
    assert yellow.who == "yellow" and yellow.text.endswith(f"= {totals[1]}")
    # Statues built are told, in their builder's colour.
    built = [e for e in entries if " builds a statue on " in e.text]
    assert built and all(e.who == e.text.split()[0].lower() for e in built)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 50), st.integers(1, 120), st.integers(0, 30))
def test_after_an_undo_the_story_is_that_of_the_shorter_game(seed, n, back):
    """The window follows one game object; an undo shortens its history. The story it
    shows must be exactly the story of the game as it now is, nothing left over."""
    game = play(Game("base", seed), n, seed)
    story = Story()
    assert story.follow(game)
    shorter = Game("base", seed, ("red", "yellow")[game.start])
    for d in game.history[: max(0, len(game.history) - back)]:
        shorter.apply(d)
    story.follow(shorter)
    fresh = story_of(shorter)
    assert story.entries == fresh.entries
    assert story.last == fresh.last
    assert not story.follow(shorter)  # nothing new: nothing to redraw


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 200), st.integers(0, 160))
def test_outlined_beaches_are_exactly_where_a_disc_may_go_or_come_back_R6_R7(seed, n):
    game = play(Game("base", seed), n, seed)
    if game.phase_name != "turn":
        return
    marked = {m.index for m in legal_marks(game) if m.kind == "beach"}
    for beach in range(6):
        legal = [
            d
            for d in game.legal_actions()
            if isinstance(decode(d, game.board), Place | Return)
            and decode(d, game.board).beach == beach  # type: ignore[union-attr]
        ]
        assert (beach in marked) == bool(legal), beach
    assert all(mark_of(game, d) is not None for d in game.legal_actions())


@pytest.mark.parametrize("seed", [0, 3, 8])
def test_scoring_1_comes_when_the_cards_before_it_are_drawn_R20(seed):
    game = Game("base", seed)
    assert cards_before_scoring(game) == len(game.piles[0]) + len(game.piles[1]) == 15
    assert str(scoring_forecast(game)[0]) == "scoring 1 after 15 more cards"
    rng = random.Random(seed)
    while not game.scorings:
        before = cards_before_scoring(game)
        assert before is not None and before >= 0
        game.apply(rng.choice(game.legal_actions()))
    assert not game.piles[0] and not game.piles[1]  # every card counted was drawn first
    assert cards_before_scoring(game) == len(game.piles[2])  # round 2: the 3-tree pile (R21)
    assert str(scoring_forecast(game)[0]).startswith("scoring 2")
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
    assert cards_before_scoring(game) is None
    assert str(scoring_forecast(game)[0]) == "the game is over"


def test_space_names_sit_clear_of_the_pieces_on_them():
    """A space's name is printed where no statue or shaman on that space is drawn."""
    for space in range(18):
        lx, ly = L.space_label_position(space)
        for who in ("statue", "red", "yellow"):
            px, py = L.space_position(space, who)
            assert abs(px - lx) > 12 or abs(py - ly) > 14, (space, who)


def test_mountain_pieces_keep_clear_of_the_segment_borders():
    for segment in range(6):
        space = segment * 3 + 2
        for who in ("statue", "red", "yellow"):
            x, y = L.space_position(space, who)
            # Shift by the piece's half-width both ways: still in the same segment.
            for dx in (-9, 9):
                spot = L.locate(x + dx, y)
                assert spot is not None and spot[0] == segment, (segment, who, dx)


def test_long_lines_end_with_an_ellipsis_within_the_width():
    pygame = pytest.importorskip("pygame")
    from haleakala.simulator.palette import fit

    pygame.font.init()
    font = pygame.font.Font(None, 17)
    line = "TWO DISCS AT ONCE: One disc per turn: yellow invocation disc, yellow 2 and 4 moved"
    cut = fit(font, line, 300)
    assert cut.endswith("…") and font.size(cut)[0] <= 300
    assert line.startswith(cut[:-1].rstrip())
    assert fit(font, "Red: buy nothing", 300) == "Red: buy nothing"
