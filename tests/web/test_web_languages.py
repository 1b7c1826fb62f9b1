"""The live view in the game's language: a German or French game's snapshots carry their
language code, the page's labels and every text the page shows (log, prompt, cards, scoring
board, piles, score table, result) in that language. As in ``tests/i18n``: a text with an
English word the language does not use is English that reached the page (``support.leaks``)."""

from __future__ import annotations

import json
import random

import pytest
from support.leaks import english_words

from haleakala import i18n
from haleakala.games.haleakala import Game
from haleakala.toolkit.live import LABELS

pytest.importorskip("aiohttp")
from haleakala.web.server import LiveView

SAID = {
    "de": {"scoring_board": "Wertungstafel", "log": "Protokoll", "red": "Rot"},
    "fr": {"scoring_board": "Plateau de score", "log": "Journal", "red": "Rouge"},
}
WINS = {"de": "gewinnt", "fr": "gagne"}
SHARED = {"de": set(), "fr": {"score", "invocation"}}
"""Labels a language writes as English does ("score {n}", "+ invocation" in French)."""


@pytest.fixture(params=["de", "fr"])
def language(request):
    i18n.use(request.param)
    yield request.param
    i18n.use("en")


def played(variant: str, seed: int) -> list[dict]:
    """Every snapshot a viewer would receive over one whole game (built as the server
    builds them, from ``LiveView.publish``), decoded from the bytes sent."""
    live = LiveView()  # never started: publish keeps the newest update for a later viewer
    game = Game(variant, seed)
    rng = random.Random(seed)
    sent = [json.loads(live.publish(game).data)]
    while not game.is_terminal():
        game = game.clone()
        game.apply(rng.choice(game.legal_actions()))
        sent.append(json.loads(live.publish(game).data))
    return sent


def shown(snap: dict) -> list[str]:
    """The texts of a snapshot the page writes as they are (not numbers nor notation)."""
    texts = [snap["variant_name"], *snap["awaited"].split("\n"), *snap["log"]]
    texts.append(snap["awaited_words"])
    texts += [item["name"] for item in snap["board"]] + [p["name"] for p in snap["piles"]]
    texts += [s["card"] for s in snap["island"]["slots"] if s["card"]]
    for player in snap["players"].values():
        texts += [c["name"] for c in player["cards"]] + player["scoring_cards"]
    for scoring in snap["scorings"]:
        texts += [*scoring["names"].values(), *scoring["words"]]
    if snap["result"]:
        texts.append(snap["result"]["text"])
    return [t.strip() for t in texts if t.strip()]


def english(texts) -> list[str]:
    language = i18n.current()
    return sorted({t for t in texts if english_words(t, language)})


@pytest.mark.parametrize("variant, seed", [("base", 4), ("tactical", 11)])
def test_a_games_snapshots_speak_its_language_from_first_to_last(language, variant, seed):
    sent = played(variant, seed)
    assert all(snap["lang"] == language for snap in sent)
    texts = [text for snap in sent for text in shown(snap)]
    assert english(texts) == []
    last = sent[-1]
    assert last["over"] and WINS[language] in last["result"]["text"]
    assert last["scorings"] and all(s["names"] for s in last["scorings"])


def test_the_pages_labels_are_all_translated(language):
    labels = played("base", 1)[0]["labels"]
    assert set(labels) == set(LABELS)
    assert english(labels.values()) == []
    for key, text in SAID[language].items():
        assert labels[key] == text
    untouched = [key for key, text in LABELS.items() if labels[key] == text]
    assert set(untouched) == SHARED[language]  # the rest has its own words in the language


def test_an_english_game_keeps_the_english_labels():
    i18n.use("en")
    snap = played("base", 2)[0]
    assert snap["lang"] == "en"
    assert snap["labels"] == LABELS


def test_the_language_chosen_mid_game_reaches_the_next_snapshot():
    """The board's menu can change the language during a game: the page follows it."""
    live = LiveView()
    game = Game("base", 5)
    i18n.use("en")
    try:
        first = json.loads(live.publish(game).data)
        i18n.use("de")
        game = game.clone()
        game.apply(game.legal_actions()[0])
        second = json.loads(live.publish(game).data)
    finally:
        i18n.use("en")
    assert first["lang"] == "en" and first["labels"]["log"] == "Log"
    assert second["lang"] == "de" and second["labels"]["log"] == "Protokoll"
    assert english(second["log"]) == []  # the older lines too, translated when sent
