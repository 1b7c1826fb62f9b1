"""Kanaloa refuses with values (issue 26, words as values): a ``Refusal`` with a kind, the
ruling it names and words (a ``Text``) made in the rules, so every front-end renders them in
its viewer's language and none parses English back. Their English is the sentence the rules
gave before (``support.kanaloa_old_refusals``, the old code kept as the oracle)."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.kanaloa_old_refusals import old_why_illegal
from support.kanaloa_positions import advanced
from support.leaks import english_words

from haleakala import i18n
from haleakala.core.errors import IllegalDecision as CoreIllegalDecision
from haleakala.core.refusal import Refusal
from haleakala.core.text import Text
from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.refusals import RULING, shown
from haleakala.games.kanaloa.state import IllegalDecision

KANALOA_NOTATION = {
    "fish", "start", "volcano", "remove", "land", "give", "swap", "move", "whiten", "dolphin",
    "sacrifice", "add", "done", "rob", "take", "reverse", "flip", "allow", "forbid", "place",
    "end", "white", "green", "blue", "map", "Kanaloa", "Kane", "Pele", "Lono",
}  # fmt: skip
"""Words of the Kanaloa notation (what a player types, the gods' names): the same in every
language, like the islands' names."""

BAD_TEXTS = ["XYZ", "", "fish HONU>KAI pink", "move Q>KAI", "move HONUKAI", "rob purple Kane3",
             "swap HONU:Kane3 HONU:Ku4", "swap HONU KAI", "start", "take Kane9",
             "sacrifice Pele5 to Zeus", "volcano AKAU+EWA+QQQ", "reverse HONUKAI"]  # fmt: skip
"""Lines that are no decision at all (N52): refused with the notation's own words."""


def refused_here(game: Game, rng: random.Random) -> list[tuple[int | str, str | None]]:
    """Decisions to try in ``game``: random codes (most are refused), as the one who decides
    and as someone else (N52), and the lines that are no decision."""
    tries: list[tuple[int | str, str | None]] = []
    someone = [*game.players, "purple"]
    for code in rng.sample(range(game.c.total), 40):
        tries.append((code, None))
        tries.append((code, rng.choice(someone)))
    tries += [(text, None) for text in BAD_TEXTS]
    return tries


def in_language(values: list[Text], language: str) -> list[str]:
    """Each value rendered in ``language`` (switched once: loading a catalog is slow)."""
    i18n.use(language)
    try:
        return [i18n.render(value) for value in values]
    finally:
        i18n.use("en")


def leaked(text: str, language: str) -> list[str]:
    """English words in ``text`` apart from the quoted decision and the notation."""
    unquoted = re.sub(r"'[^']*'", "", text)
    return [w for w in english_words(unquoted, language) if w not in KANALOA_NOTATION]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]),
       steps=st.integers(0, 500))  # fmt: skip
def test_every_kanaloa_refusal_renders_in_german_and_french_and_its_english_is_the_old(
    seed, players, steps
):
    game = advanced(seed, players, steps)
    rng = random.Random(seed)
    digest = game.digest()
    refusals = []
    for decision, player in refused_here(game, rng):
        refused = game.refusal(decision, player)
        old = old_why_illegal(game, decision, player)
        if refused is None:
            assert old is None
            continue
        assert isinstance(refused, Refusal)
        assert refused.text == old == game.why_illegal(decision, player)
        assert refused.ruling is not None and RULING.fullmatch(refused.ruling)
        refusals.append(refused)
    english = in_language([refused.words for refused in refusals], "en")
    assert english == [refused.text for refused in refusals]
    for language in ("de", "fr"):
        for said in in_language([shown(refused) for refused in refusals], language):
            assert "{" not in said and "}" not in said, said
            assert leaked(said, language) == [], said
            assert RULING.search(said), said
    assert game.digest() == digest, "a refusal changed the game"


def test_a_refused_decision_raises_the_cores_illegal_decision_with_its_refusal():
    game = Game(seed=3, players=3)
    with pytest.raises(IllegalDecision) as caught:
        game.apply("start HONU")  # the fish phase: no piece is placed yet (N13)
    assert isinstance(caught.value, CoreIllegalDecision)
    assert caught.value.kind == "does_not_fit"
    assert caught.value.ruling == "N13"
    assert str(caught.value) == caught.value.refusal.text == game.why_illegal("start HONU")


def test_a_decision_by_someone_who_does_not_decide_now_names_n52():
    game = Game(seed=3, players=3)
    other = next(c for c in game.players if c != game.to_move)
    refused = game.refusal(game.legal_actions()[0], other)
    assert refused is not None
    assert (refused.kind, refused.ruling) == ("not_your_decision", "N52")
    assert refused.text == f"{game.to_move} decides now, not {other} (N52)"
    german, *colours = in_language([refused.words, Text.of(game.to_move), Text.of(other)], "de")
    assert all(colour in german for colour in colours)  # "Rot", "Gelb": the colours' words


def test_a_line_that_is_no_decision_is_refused_under_n52_in_the_notations_words():
    game = Game(seed=3, players=3)
    for text in BAD_TEXTS:
        refused = game.refusal(text)
        assert refused is not None and refused.kind == "notation"
        assert refused.ruling is not None
        assert RULING.search(str(shown(refused)))
