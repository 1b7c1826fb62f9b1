"""Events and words as values (issue 26, parts 4 and 5): what ``apply`` returns is a frozen
value per event whose ``to_record`` is the log's record, and every refusal of a random
position of either game is a ``Text`` that renders in English, German and French with no
English word left on a German or French screen."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.leaks import english_words

from haleakala import i18n
from haleakala.core.refusal import Refusal
from haleakala.core.text import Term, Text, join
from haleakala.games.haleakala import Game
from haleakala.games.haleakala import log as rules_log
from haleakala.games.haleakala.events import LOGGED
from haleakala.games.haleakala.notation import all_codes
from haleakala.games.kahuna import Game as KahunaGame
from haleakala.games.kahuna import log as kahuna_log
from haleakala.games.kahuna.notation import all_codes as kahuna_codes
from haleakala.i18n.refusals import say

NOT_DECISIONS = ("hallo", "9@9", "lava 0>3", "buy gold", "play x>y", "")


def random_game(game, seed: int, steps: int):
    """``game`` after ``steps`` random decisions (fewer when it ends), and the events of
    every decision applied."""
    rng = random.Random(seed)
    events = []
    for _ in range(steps):
        if game.is_terminal():
            break
        events += game.apply(rng.choice(game.legal_actions()))
    return game, events


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), kahuna=st.booleans())
def test_every_event_is_a_frozen_value_whose_record_is_plain_json(seed, kahuna):
    game = KahunaGame(seed) if kahuna else Game("tactical" if seed % 2 else "base", seed)
    _, events = random_game(game, seed, 2_000)
    for event in events:
        assert dataclasses.is_dataclass(event)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(event, dataclasses.fields(event)[0].name, None)
        record = event.to_record(game)
        assert record["type"] == event.kind
        assert json.loads(json.dumps(record)) == record  # the log's and the wire's form


def test_the_log_writes_exactly_the_kinds_it_documents_from_the_events_to_record():
    game, _ = random_game(Game("base", 5), 0, 0)
    rng = random.Random(5)
    while not game.is_terminal():
        events = game.apply(rng.choice(game.legal_actions()))
        written = rules_log.event_records(game, events)
        assert written == [e.to_record(game) for e in events if e.kind in LOGGED]
    kahuna = KahunaGame(5)
    while not kahuna.is_terminal():
        events = kahuna.apply(rng.choice(kahuna.legal_actions()))
        assert kahuna_log.event_records(kahuna, events) == [e.to_record(kahuna) for e in events]


def test_a_text_is_english_as_str_and_nests_terms_counts_and_texts():
    said = Text.of(
        "{who}: {what}",
        who=Term("red"),
        what=join([Text.count("{n} shell", "{n} shells", 2, n=2), "3@2", Term("forest")]),
    )
    assert str(said) == "red: 2 shells, 3@2 or forest"
    assert said == Text.of(
        "{who}: {what}",
        what=join([Text.count("{n} shell", "{n} shells", 2, n=2), "3@2", Term("forest")]),
        who=Term("red"),
    )  # a value: equal parameters, equal text, whatever their order


def test_a_refusal_is_its_kind_ruling_and_words_and_reads_as_english():
    refusal = Refusal.of("not_allowed", "{player} on the {land}", "R1", player=Term("red"),
                         land=Term("beach"))  # fmt: skip
    assert (refusal.kind, refusal.ruling, refusal.text) == ("not_allowed", "R1", "red on the beach")
    assert refusal == Refusal("not_allowed", refusal.words, "R1")


def refusals_of(game) -> list[Refusal]:
    codes = kahuna_codes(game.board) if isinstance(game, KahunaGame) else all_codes(game.board)
    found = [game.refusal(code) for code in codes]
    found += [game.refusal(text) for text in NOT_DECISIONS]
    if not game.is_terminal():
        other = next(c for c in game.players if c != game.to_move)
        found.append(game.refusal(game.legal_actions()[0], other))
    return [r for r in found if r is not None]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 300), kahuna=st.booleans())
def test_every_refusal_of_a_random_position_renders_without_english_in_de_and_fr(
    seed, steps, kahuna
):
    start = KahunaGame(seed) if kahuna else Game("tactical" if seed % 2 else "base", seed)
    game, _ = random_game(start, seed, steps)
    refusals = refusals_of(game)
    assert refusals
    try:
        for language in ("de", "fr"):
            i18n.use(language)
            for refusal in refusals:
                shown = say(refusal)
                assert english_words(shown, language) == [], (refusal.text, shown)
                assert "{" not in shown, shown
    finally:
        i18n.use("en")


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 300), kahuna=st.booleans())
def test_every_refusal_renders_in_english_as_its_text(seed, steps, kahuna):
    start = KahunaGame(seed) if kahuna else Game("base", seed)
    game, _ = random_game(start, seed, steps)
    for refusal in refusals_of(game):
        assert say(refusal) == refusal.text


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_every_sentence_of_a_random_game_renders_without_english_in_de_and_fr(seed):
    """The words layer's sentences (decisions, events, scorings, the result) are values that
    render in the viewer's language: no English word is left, no placeholder unfilled."""
    from haleakala.games.haleakala.words import moves

    game = Game("tactical" if seed % 2 else "base", seed)
    rng = random.Random(seed)
    said = []
    while not game.is_terminal():
        mover, code = game.decider, rng.choice(game.legal_actions())
        said += moves.describe_move(game, mover, code, game.apply(code))
    said.append(moves.result_sentence(game.result()))
    try:
        for language in ("de", "fr"):
            i18n.use(language)
            for text in said:
                shown = i18n.render(text)
                assert english_words(shown, language) == [], (str(text), shown)
                assert "{" not in shown and shown != str(text), shown
    finally:
        i18n.use("en")
    assert [i18n.render(text) for text in said] == [str(text) for text in said]
