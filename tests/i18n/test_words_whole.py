"""Every word in the player's language, fitting and shown whole (issue 23): refusals of
text that is no decision, Kahuna at the terminal and its refusals, the OLED's long texts.
English is found by its words (``support.leaks``), not only by whole lines the catalog
knows, so a sentence never marked for translation is caught too."""

from __future__ import annotations

import io
import random
import re

import pytest
from support.companion_rig import Rig
from support.leaks import english_words

from haleakala import i18n
from haleakala.companion import oled
from haleakala.games.haleakala import Game
from haleakala.games.haleakala.views.terminal import TerminalGame
from haleakala.games.kahuna import Game as KahunaGame
from haleakala.games.kahuna.notation import all_codes
from haleakala.games.kahuna.views.terminal import KahunaTerminalGame
from haleakala.hal.events import BeachContents, Disc
from haleakala.i18n.refusals import say

NOT_DECISIONS = ("hallo", "9@9", "3@9", ">9Z", "take 9z", "lava 0>3", "lava 0>9", "buy gold",
                 "-3@2*", "3²@2")  # fmt: skip
KAHUNA_MISTAKES = ("hallo", "play d>k", "play x>y", "draw 7", "cut a-b with c+d", "discard Q",
                   "hint", "legal", "hand", "help", "board", "undo")  # fmt: skip


@pytest.fixture(params=["de", "fr"])
def language(request):
    i18n.use(request.param)
    yield request.param
    i18n.use("en")


@pytest.fixture(params=["en", "de", "fr"])
def any_language(request):
    i18n.use(request.param)
    yield request.param
    i18n.use("en")


def test_a_refusal_of_text_that_is_no_decision_is_in_the_players_language(language):
    game = Game("tactical", seed=1)
    for text in NOT_DECISIONS:
        refusal = game.refusal(text)
        assert refusal is not None and refusal.kind == "notation"
        assert english_words(say(refusal), language) == [], (text, say(refusal))


def test_the_terminal_refuses_a_mistyped_decision_in_the_players_language(language):
    typed = iter([*NOT_DECISIONS, "quit"])
    out = io.StringIO()
    TerminalGame(Game("base", seed=3), (None, None), read=lambda _p: next(typed), out=out).run()
    refused = [line for line in out.getvalue().splitlines() if "@" in line or "'" in line]
    assert refused and english_words("\n".join(refused), language) == []


def kahuna_positions(seed: int, count: int = 12) -> list[KahunaGame]:
    """Positions along a random Kahuna game (hands full, bridges to cut, empty display)."""
    rng = random.Random(seed)
    game, seen = KahunaGame(seed, "white"), []
    while not game.is_terminal() and len(seen) < count:
        seen.append(game.clone())
        for _ in range(rng.randrange(1, 9)):
            if game.is_terminal():
                break
            game.apply(rng.choice(game.legal_actions()))
    return seen


def test_every_kahuna_refusal_is_in_the_players_language(language):
    sentences = set()
    for game in kahuna_positions(4):
        for code in all_codes(game.board):
            refusal = game.refusal(code)
            if refusal is not None:
                sentences.add(say(refusal))
        for text in KAHUNA_MISTAKES:
            refusal = game.refusal(text)
            if refusal is not None:
                sentences.add(say(refusal))
        other = "black" if game.to_move == "white" else "white"
        sentences.add(say(game.refusal(0, other)))
    assert len(sentences) > 10
    assert [s for s in sentences if english_words(s, language)] == []


def kahuna_session(seed: int, language_mistakes: float = 0.15):
    """A person (white) against the greedy bot, typing decisions, mistakes and commands."""
    from haleakala.ai import make_bot

    rng = random.Random(seed)
    prompts: list[str] = []
    out = io.StringIO()

    def typing(prompt: str) -> str:
        prompts.append(prompt)
        game = session.game
        if game.is_terminal():
            raise EOFError
        if rng.random() < language_mistakes:
            return rng.choice(KAHUNA_MISTAKES)
        return game.format(rng.choice(game.legal_actions()))

    session = KahunaTerminalGame(
        KahunaGame(seed, "white"), [None, make_bot("greedy", seed, game="kahuna")],
        read=typing, out=out,
    )  # fmt: skip
    session.run()
    return session, out.getvalue(), prompts


def test_a_kahuna_game_at_the_terminal_fits_80_columns_and_says_plurals_right(any_language):
    session, text, _prompts = kahuna_session(7)
    assert session.game.is_terminal()
    assert max(len(line) for line in text.splitlines()) <= 80, max(text.splitlines(), key=len)
    if any_language == "en":
        assert not re.search(r"(?<![\d,])1 (stones|bridges|cards|points)\b", text)


def test_a_kahuna_game_at_the_terminal_speaks_the_language(language):
    session, text, prompts = kahuna_session(11)
    assert session.game.is_terminal()
    leaked = {line for line in [*text.splitlines(), *prompts] if english_words(line, language)}
    assert leaked == set()


def test_the_kahuna_board_is_drawn_once_before_the_first_person_turn():
    typed = iter(["quit"])
    out = io.StringIO()
    from haleakala.ai import make_bot

    KahunaTerminalGame(KahunaGame(3, "black"), [None, make_bot("greedy", 1, game="kahuna")],
                       read=lambda _p: next(typed), out=out).run()  # fmt: skip
    assert out.getvalue().count("Kahuna, round 1 of 3") == 1


def test_the_kahuna_legal_list_is_shown_once_a_turn_and_on_request():
    typed = iter(["hallo", "help", "legal", "quit"])
    out = io.StringIO()
    KahunaTerminalGame(KahunaGame(3, "white"), [None, None], read=lambda _p: next(typed),
                       out=out, clear=False).run()  # fmt: skip
    text = out.getvalue()
    assert text.count("legal: ") == 2  # at the turn's start, and when asked
    assert "legal lists them" in text  # the other prompts count them in one line


def test_kahuna_hint_is_the_search_bots_legal_choice_and_the_same_each_time():
    from haleakala.games.kahuna.views.terminal import hint_line

    game = KahunaGame(3, "white")
    line = hint_line(game, iterations=60)
    assert line.startswith("hint for white: ")
    decision = line.removeprefix("hint for white: ").split(" (")[0]
    assert decision in game.legal_decisions()
    assert hint_line(game, iterations=60) == line
    typed = iter(["", "hint", "quit"])  # Enter at the hand-over screen first
    out = io.StringIO()
    KahunaTerminalGame(game, [None, None], read=lambda _p: next(typed), out=out).run()
    assert "cannot read" not in out.getvalue() and "hint for white: " in out.getvalue()


def test_a_long_refusal_on_the_oled_turns_its_pages_until_every_line_was_shown(any_language):
    rig = Rig("rfid", "tactical")
    rig.send(BeachContents(3, frozenset({Disc("red", 3), Disc("red", 0)})))
    start = rig.clock()
    s = oled.screen(rig.game, rig.c.ui_state(start), start)
    assert len(s.lines) > oled.BODY_LINES  # longer than the panel
    seen: set[int] = set()
    for _ in range(int(4 * oled.PAGE_S * len(s.lines))):
        now = rig.clock()
        shown = oled.screen(rig.game, rig.c.ui_state(now), now)
        if shown.lines != s.lines:
            break
        seen.update(range(shown.offset, shown.offset + oled.BODY_LINES))
        rig.advance(0.25)
    assert seen >= set(range(len(s.lines))), "a line of the refusal was never on the panel"


@pytest.mark.parametrize("game", ["haleakala", "kahuna"])
def test_the_help_page_fits_80_columns_in_every_language_so_nothing_wraps(any_language, game):
    """A two-column help wrapped by the terminal falls apart: each translated line fits."""
    from haleakala.games.haleakala.views import terminal as session
    from haleakala.games.kahuna.views import terminal as kahuna

    text = i18n._(kahuna.HELP if game == "kahuna" else session.HELP)
    assert [line for line in text.splitlines() if len(line) > 80] == []
