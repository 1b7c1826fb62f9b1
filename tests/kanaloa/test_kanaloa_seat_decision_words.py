"""A Kanaloa phone seat's buttons and confirm line say each decision as a sentence (issue 39
item 6, issue 43), read back from the notation's grammar: every kind of decision a random
game offers, in every language, with every place filled in and no English in German or
French."""

from __future__ import annotations

import random
import re

import pytest
from support.leaks import leaks

from haleakala import i18n
from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.views.seat import DECISION_WORDS, decision_words


def offered(seeds: range, players: int):
    for seed in seeds:
        game, rng = Game(seed, players), random.Random(seed)
        while not game.is_terminal():
            legal = game.legal_actions()
            yield from ((game, code) for code in legal[:: max(1, len(legal) // 12)])
            game.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_every_kind_of_decision_is_a_sentence_with_its_places(language):
    i18n.use(language)
    try:
        kinds, bad = set(), []
        for players in (2, 4):
            for game, code in offered(range(3), players):
                text, words = game.format(code), decision_words(game, code)
                kinds.add(text.split(" ")[0])
                names = [w for w in re.split(r"[ >:+]", text)[1:] if w.isupper()]
                if "{" in words or any(n not in words for n in names):
                    bad.append((text, words))
                elif language != "en" and leaks(words, language, "kanaloa"):
                    bad.append((text, words, leaks(words, language, "kanaloa")))
        assert bad == []
        assert len(kinds) >= 18  # the kinds a few random games reach (of 22)
        assert kinds <= {k.split(" ")[0] for k in DECISION_WORDS}
    finally:
        i18n.use("en")


def test_the_volcano_in_the_sea_and_the_dolphin_read_as_their_own_sentences():
    i18n.use("de")
    try:
        game = Game(3, 2)
        seen = {}
        rng = random.Random(1)
        for _ in range(400):
            if game.is_terminal():
                break
            for code in game.legal_actions():
                seen.setdefault(game.format(code), decision_words(game, code))
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        sea = [w for t, w in seen.items() if t.startswith("volcano ") and "+" in t]
        assert all("ins Meer zwischen" in w for w in sea)
    finally:
        i18n.use("en")
