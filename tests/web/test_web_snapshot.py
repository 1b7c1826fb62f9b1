"""``snapshot()`` on random positions: plain JSON, and every figure agrees with the game."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala.games.haleakala import PLAYERS, Game
from haleakala.games.haleakala.deck import BOARD_ITEMS
from haleakala.games.haleakala.views.live import LOG_LINES, geometry, log_lines, snapshot
from haleakala.web.join import HEIGHT, WIDTH, join_image, qr_matrix


def random_position(variant: str, seed: int, steps: int, policy: int) -> Game:
    game = Game(variant, seed)
    rng = random.Random(policy)
    for _ in range(steps):
        if game.is_terminal():
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(["base", "tactical"]),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 400),
    policy=st.integers(0, 1000),
)
def test_a_snapshot_is_plain_json_that_agrees_with_the_game(variant, seed, steps, policy):
    game = random_position(variant, seed, steps, policy)
    before = game.clone()
    snap = snapshot(game, log=[f"line {i}" for i in range(60)], seq=7)
    assert json.loads(json.dumps(snap, allow_nan=False)) == snap
    assert game.digest() == before.digest()  # pure: the game is untouched
    assert snap["digest"] == game.digest() and snap["seq"] == 7
    assert snap["decisions"] == len(game.history) and snap["over"] == game.is_terminal()
    assert snap["to_move"] == game.to_move and snap["phase"] == game.phase_name
    assert snap["log"] == [f"line {i}" for i in range(60 - LOG_LINES, 60)]
    island = snap["island"]
    assert island["boat"] == game.boat and island["lava"] == game.lava
    for p, colour in enumerate(PLAYERS):
        on_island = [v for beach in island["beaches"] for v in beach[colour]]
        assert sorted(on_island + snap["players"][colour]["supply"]) == list(game.board.discs)
        for beach in island["beaches"]:
            assert beach[colour + "_sum"] == game.totals[p][beach["segment"]]
            for v in beach[colour]:
                assert game.disc_at[p][v] == beach["segment"]
        assert island["shamans"][colour] == game.shaman[p]
        statues = [s for s in island["statues"] if s["owner"] == colour]
        assert len(statues) == sum(1 for o in game.statue_owner if o == p)
        assert snap["players"][colour]["statues_left"] == game.statues_left[p]
        assert snap["players"][colour]["shells"] == len(game.shells[p])
        cards = sum(c["count"] for c in snap["players"][colour]["cards"])
        assert cards == len(game.beach_cards[p])
    dealt = sum(1 for s in island["slots"] if s["card"] is not None)
    assert dealt == sum(1 for c in game.slots if c >= 0)
    assert [p["count"] for p in snap["piles"]] == [len(p) for p in game.piles]
    assert [b["item"] for b in snap["board"]] == list(BOARD_ITEMS)
    if game.is_terminal():
        result = game.result()
        assert snap["result"]["winner"] == result.winner
        assert len(snap["scorings"]) == len(game.scorings)
    else:
        assert snap["result"] is None
    if game.history:
        assert snap["last"]["text"] == game.format(game.history[-1])


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(1, 300), policy=st.integers(0, 1000))
def test_the_log_tells_one_decision_an_undo_and_a_new_game(seed, steps, policy):
    after = random_position("base", seed, steps, policy)
    if not after.history:
        return
    before = Game("base", seed)
    for d in after.history[:-1]:
        before.apply(d)
    lines, fresh = english(log_lines(before, after))
    who = PLAYERS[before.decider].capitalize()
    said = lines[0]  # the decision in words, its notation in brackets
    assert (
        not fresh
        and said.startswith(who)
        and said.endswith(f"({before.format(after.history[-1])})")
    )
    lines, fresh = english(log_lines(after, before))
    assert lines == [f"undo: back to decision {len(before.history)}"] and not fresh
    assert log_lines(after, after) == ([], False)
    other = Game("base", seed + 1)
    lines, fresh = english(log_lines(after, other))
    assert fresh and lines == [f"game base, seed {seed + 1}, decision 0"]


def english(made: tuple[list, bool]) -> tuple[list[str], bool]:
    """The log's lines (values) as the English sentences they render to."""
    lines, fresh = made
    return [str(line) for line in lines], fresh


def test_the_geometry_is_the_simulators_and_places_every_piece():
    from haleakala.games.haleakala.views import layout

    geo = geometry()
    assert json.loads(json.dumps(geo)) == geo
    assert geo["centre"] == [round(c) for c in layout.CENTRE]
    assert geo["boat"][2] == list(layout.boat_position(2))
    assert geo["discs"]["red"][4][1] == list(layout.disc_position(4, "red", 1))
    assert len(geo["spaces"]["statue"]) == 24 and len(geo["cards"]) == 12
    assert set(geo["bands"]) == set(layout.BANDS)


def test_the_join_screen_is_a_readable_qr_code_beside_the_url():
    url = "http://192.168.100.200:65535/?token=" + "A" * 16
    image = join_image(url)
    assert image.size == (WIDTH, HEIGHT) and image.mode == "1"
    matrix = qr_matrix(url)
    scale = (HEIGHT - 4) // len(matrix)
    assert scale >= 2, "each module needs two pixels for a phone's camera"
    top = (HEIGHT - (len(matrix) * scale + 4)) // 2 + 2
    # The drawn modules are the code's modules (dark = 0 on the OLED's lit background).
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            pixel = image.getpixel((2 + x * scale, top + y * scale))
            assert (pixel == 0) == dark, (x, y)
    # The URL is beside the code: something lit right of it.
    right = image.crop((len(matrix) * scale + 6, 0, WIDTH, HEIGHT))
    assert right.getbbox() is not None


def test_a_game_joined_under_way_starts_its_log_with_the_recent_moves():
    """A resume (or a viewer of a restarted daemon): not only "decision 80"."""
    game = random_position("base", 11, 80, 2)
    lines, fresh = english(log_lines(None, game))
    assert fresh and lines[0] == f"game base, seed 11, decision {len(game.history)}"
    decisions = [line for line in lines[1:] if not line.startswith("  ")]
    recent = game.history[-len(decisions) :]
    assert len(decisions) == min(8, len(game.history))
    assert [d.rsplit("(", 1)[1].rstrip(")") for d in decisions] == [game.format(d) for d in recent]


def test_the_header_has_the_prompt_in_words_and_its_notation_apart():
    snap = snapshot(Game("base", 3, "red"))
    assert snap["awaited"] == (
        "red: place a number disc (3@2), take one back (-3@2), or move the boat (boat)"
    )
    assert snap["awaited_words"] == "red: place a number disc, take one back, or move the boat"
    assert snap["notation"] == ["3@2", "-3@2", "boat"]
