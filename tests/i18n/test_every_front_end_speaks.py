"""Every front-end of every game in German and French (issue 39): the terminal, the window, the
live view, the phone seats and the lessons, each over whole games, and the OLED over the kit's
game. A text a player meets with an English word in it that is not notation nor a name fails
(``support.leaks.leaks``: an English message shown whole, an English function word, or a word
of the English messages that the language's catalogs never write).

The games come from the registry (``gameapi.GAMES``), so a game added there is checked too
(a game of the tests, outside the package and its catalogs, is not: its words are English).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from support import frontends
from support.leaks import leaks

from haleakala import i18n
from haleakala.gameapi import GAMES, describe

LANGUAGES = ("de", "fr")
OURS = [g for g, ref in GAMES.items() if ref.startswith("haleakala.")]
CASES = [(g, n) for g in OURS for n in frontends.counts(g)]
HEAVY_CASES = [
    (g, n) if n == min(frontends.counts(g)) else pytest.param(g, n, marks=pytest.mark.long)
    for g, n in CASES
]
"""The live view and the phone seats serve whole games through the web server, every seat a
page: the default suite plays each game at its smallest table, ``-m long`` at every size
(a four-player Kanaloa table's seats took minutes on a loaded machine)."""
PATH = re.compile(r"(?<!\S)[/~]\S*")
"""A file's path (a save's name typed by the player): as the player typed it."""


@pytest.fixture(params=LANGUAGES)
def language(request):
    i18n.use(request.param)
    yield request.param
    i18n.use("en")


def leaked(texts, language: str, game: str) -> list[str]:
    """Each text (a line at most) with its English words, once."""
    found = {}
    for text in texts:
        for line in text.splitlines():
            words = leaks(PATH.sub(" ", line), language, game)
            if words:
                found[line.strip()[:120]] = words
    return [f"{line!r}: {', '.join(words)}" for line, words in sorted(found.items())]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_the_terminal_speaks_the_players_language(language, game, players, tmp_path):
    text = frontends.terminal(game, players, tmp_path)
    assert leaked([text], language, game) == []


@pytest.mark.parametrize(("game", "players"), CASES)
def test_bots_watched_at_the_terminal_speak_the_language(language, game, players):
    text = frontends.terminal_bots(game, players)
    assert leaked([text], language, game) == []


@pytest.mark.parametrize(("game", "players"), CASES)
def test_the_window_speaks_the_players_language(language, game, players, tmp_path, monkeypatch):
    pytest.importorskip("pygame", reason="the window needs pygame (the sim extra)")
    if describe(game).window == "" and players != min(describe(game).player_counts):
        pytest.skip("the generic window is checked once")
    texts = frontends.window(game, players, tmp_path, monkeypatch)
    assert texts
    assert leaked(texts, language, game) == []


@pytest.mark.parametrize(("game", "players"), HEAVY_CASES)
def test_the_live_view_speaks_the_watchers_language(language, game, players):
    pytest.importorskip("aiohttp")
    texts = frontends.live_view(game, players)
    assert leaked(texts, language, game) == []


@pytest.mark.parametrize(("game", "players"), HEAVY_CASES)
def test_every_phone_seat_speaks_its_players_language(language, game, players):
    pytest.importorskip("aiohttp")
    texts = frontends.phone_seats(game, players)
    assert leaked(texts, language, game) == []


@pytest.mark.parametrize("game", [g for g in OURS if describe(g).lessons])
def test_the_lessons_at_the_terminal_speak_the_learners_language(language, game):
    text = frontends.lessons(game)
    assert leaked([text], language, game) == []


_screens = Path(__file__).resolve().parents[1] / "companion" / "test_companion_oled_screens.py"


def test_the_oled_speaks_the_players_language(language, oled_screens_seen):
    """The kit's OLED over a whole game (the kit plays Haleakala only): every screen's
    lines through the same check as every other front-end."""
    from support.companion_rig import Rig

    spec = importlib.util.spec_from_file_location("oled_screens_for_words", _screens)
    assert spec is not None and spec.loader is not None
    screens = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(screens)
    rig = Rig("rfid", "tactical", seed=3, solo="yellow", strength="easy")
    screens.play_and_look(rig, 3)
    texts = ["\n".join(s.text()) for s in oled_screens_seen]
    assert texts
    assert leaked(texts, language, "haleakala") == []


def test_the_acceptance_command_speaks_french_outside_the_notation(monkeypatch, capsys):
    """Issue 39's acceptance: ``printf 'help\\nquit\\n' | haleakala play --game kanaloa
    --players 2 --lang fr``: no English word outside the notation (the map's Dolphin too)."""
    from haleakala.cli import main

    typed = iter(["help", "quit"])
    monkeypatch.setattr("builtins.input", lambda _prompt="": next(typed))
    try:
        main(["play", "--game", "kanaloa", "--players", "2", "--lang", "fr", "--seed", "3"])
    finally:
        i18n.use("en")
    text = capsys.readouterr().out
    assert "aide = help" in text and "fish QUEUE>TÊTE green" in text
    assert "(Dauphin)" in text and "dolphin)" not in text
    assert leaked([text], "fr", "kanaloa") == []
