"""A whole game at the terminal in German and in French (issue 14's acceptance): typed by a
scripted player who also makes mistakes and asks for help, and watched between two bots.
Every line printed is in the language asked for: a line with an English word the language
does not use is English that leaked through (``support.leaks``)."""

from __future__ import annotations

import io
import random

import pytest
from support.leaks import english_words

from haleakala import i18n
from haleakala.cli import main
from haleakala.companion.autoplay import choose
from haleakala.games.haleakala import Game
from haleakala.games.haleakala.views.terminal import TerminalGame

WINS = {"de": "gewinnt", "fr": "gagne"}
MISTAKES = ("boat", "9@9", "take 0a", ">2G", "buy forest", "lava 3>0", "legal", "hint", "help")


@pytest.fixture(params=["de", "fr"])
def language(request):
    i18n.use(request.param)
    yield request.param
    i18n.use("en")


NOTATION = {"lava", "take", "buy", "boat", "keep", "pass", "none", "legal:", "erlaubt:"}
"""Words of the notation a player types (``lava 3>4``, ``take 2a``): the same in every
language, like the decisions themselves."""


def notation(line: str) -> bool:
    return all(w in NOTATION or any(c.isdigit() for c in w) for w in line.split())


def leaked(text: str, language: str) -> list[str]:
    """Lines with English words: English that reached the player."""
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not notation(line) and english_words(line, language)]


def test_a_whole_game_typed_at_the_terminal_speaks_the_language(language):
    rng = random.Random(5)
    prompts: list[str] = []
    out = io.StringIO()

    def typing(prompt: str) -> str:
        prompts.append(prompt)
        if session.game.is_terminal():
            raise EOFError
        if rng.random() < 0.08:
            return rng.choice(MISTAKES)
        return session.game.format(choose(session.game, 1))

    session = TerminalGame(Game("base", seed=5, start="red"), (None, None), read=typing, out=out)
    session.run()
    assert session.game.is_terminal()
    text = out.getvalue() + "\n".join(prompts)
    assert WINS[language] in text
    assert leaked(text, language) == []


def test_two_bots_play_a_whole_game_at_the_terminal_in_the_language(language, capsys):
    status = main(
        ["play", "--lang", language, "--red", "greedy", "--yellow", "greedy", "--seed", "3"]
    )
    assert status == 0
    text = capsys.readouterr().out
    assert WINS[language] in text
    assert leaked(text, language) == []
