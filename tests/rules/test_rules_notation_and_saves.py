"""NOTATION.md round trips, saved games that were corrupted or hand-edited, deck data."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala.games.haleakala import (
    Game,
    NotationError,
    SaveError,
    default_board,
    format_decision,
    load_deck,
    parse_decision,
)
from haleakala.games.haleakala.deck import deck_path
from haleakala.games.haleakala.notation import all_codes

CODES = all_codes(default_board())


@given(st.sampled_from(CODES))
def test_every_decision_has_one_text_form_that_round_trips(code):
    text = format_decision(code)
    assert parse_decision(text) == code
    assert parse_decision(f"  {text.upper() if text[0] != '>' else text}  ") == code


def test_text_forms_are_unique():
    texts = [format_decision(c) for c in CODES]
    assert len(set(texts)) == len(texts)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("3@2", 32), ("3@2*", 132), ("-3@2", 232), ("boat", 300), (">stay", 301),
        (">2G", 406), ("take 2a", 504), ("lava 3>4", 607), ("lava 3>2", 608),
        ("lava none", 600), ("buy forest", 701), ("keep", 710), ("pass", 711),
    ],
)  # fmt: skip
def test_notation_examples_of_notation_md(text, expected):
    assert parse_decision(text) == expected
    assert format_decision(expected) == text


@pytest.mark.parametrize(
    "text,message",
    [
        ("3@9", "there is no beach 9"),
        (">2C", "not a space a shaman can go to"),
        ("take 7c", "not a card slot"),
        ("lava 1>4", "crater 4 is not next to crater 1"),
        ("buy lunch", "not on the scoring board"),
        ("hello", "is not a decision; decisions look like"),
    ],
)
def test_malformed_notation_says_what_is_wrong(text, message):
    with pytest.raises(NotationError, match=message):
        parse_decision(text)


def played(variant="base", seed=3, decisions=60):
    g = Game(variant, seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    return g


@pytest.mark.parametrize("variant", ["base", "tactical"])
def test_saved_game_loads_to_the_same_position_and_plays_on(variant):
    g = played(variant)
    again = Game.from_json(g.to_json())
    assert again.digest() == g.digest()
    assert again.history == g.history
    d = g.legal_actions()[0]
    assert again.apply(d) == g.apply(d)


@pytest.mark.parametrize(
    "edit,path",
    [
        (lambda d: d.__setitem__("boat", 9), "$.boat"),
        (lambda d: d.__setitem__("variant", "expert"), "$.variant"),
        (lambda d: d["piles"][2].__setitem__(0, 999), "$.piles[2][0]"),
        (lambda d: d["slots"].__setitem__(0, d["slots"][1]), "$.slots[1]"),
        (lambda d: d["shamans"].__setitem__("red", "2C"), "$.shamans.red"),
        (lambda d: d["lava"].__setitem__(0, 7), "$.lava[0]"),
        (lambda d: d.pop("discard"), "$.discard"),
        (lambda d: d["discs"]["red"].__setitem__("7", 1), "$.discs.red.7"),
        (lambda d: d.__setitem__("version", 99), "$.version"),
        (lambda d: d["scoring_board"].__setitem__("forest", "green"), "$.scoring_board.forest"),
        (lambda d: d["history"].append("dance"), "$.history["),
    ],
)
def test_hand_edited_save_is_refused_naming_the_field(edit, path):
    data = json.loads(played().to_json())
    edit(data)
    with pytest.raises(SaveError) as exc:
        Game.from_json(json.dumps(data))
    assert str(exc.value).startswith(path)


def test_save_with_a_card_missing_is_refused():
    data = json.loads(played().to_json())
    data["discard"] = data["discard"][1:] if data["discard"] else data["discard"]
    data["piles"][2] = data["piles"][2][1:]
    with pytest.raises(SaveError, match="nowhere"):
        Game.from_json(json.dumps(data))


def test_truncated_or_non_json_save_is_refused_with_a_sentence():
    text = played().to_json()
    with pytest.raises(SaveError, match="not a saved game: invalid JSON"):
        Game.from_json(text[: len(text) // 2])
    with pytest.raises(SaveError, match="not a saved game"):
        Game.from_json('{"hello": 1}')


@given(st.data())
@settings(max_examples=40, deadline=None)
def test_random_corruption_of_a_save_is_refused_or_loads_a_valid_game(data):
    """Whatever a hand edit does, loading either refuses it or yields a playable game."""
    from support.invariants import check_invariants

    g = played(seed=data.draw(st.integers(0, 50)))
    doc = json.loads(g.to_json())
    key = data.draw(st.sampled_from(sorted(doc)))
    doc[key] = data.draw(
        st.one_of(st.none(), st.integers(-3, 99), st.text(max_size=3), st.just([]), st.just({}))
    )
    try:
        loaded = Game.from_json(json.dumps(doc))
    except SaveError:
        return
    check_invariants(loaded)


def test_deck_data_has_the_rulebook_counts():
    deck = load_deck()
    assert [sum(c.values()) for _, c in deck.piles] == [15, 12, 15]
    lava = [sum(n for code, n in c.items() if code == "lava") for _, c in deck.piles]
    assert lava == [0, 4, 4]
    assert deck.board_items["majority"] == ("Statue Majority", 2)
    assert deck_path().name == "deck.toml"


def test_deck_is_data_a_corrected_manifest_changes_the_game():
    text = (
        deck_path()
        .read_text()
        .replace(
            "cards = { statue = 6, shell = 3, fish1b = 3, whitepearl = 1, priestess = 2 }",
            "cards = { statue = 9, shell = 3, fish1b = 1, whitepearl = 1, priestess = 1 }",
        )
    )
    deck = load_deck(text)
    g = Game("base", 1, deck=deck)
    codes = [deck.cards[c].code for c in [*g.slots, *g.piles[0]]]
    assert codes.count("statue") == 9
