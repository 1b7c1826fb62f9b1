"""Kanaloa at the terminal: the map in 80 columns in every language, a whole hot-seat game
from a script, refusals that name their ruling, hint, undo against a bot, and the command
line that starts it."""

from __future__ import annotations

import io
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.kanaloa_positions import advanced

from haleakala import i18n
from haleakala.ai import make_bot
from haleakala.cli import main
from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.notation import all_codes
from haleakala.games.kanaloa.views.terminal import (
    KanaloaTerminalGame,
    island_lines,
    map_lines,
    render,
)

RULING = re.compile(r"\((?:[^()]*[ ,])?[NL]\d+")


@pytest.fixture(params=["en", "de", "fr"])
def any_language(request):
    i18n.use(request.param)
    yield request.param
    i18n.use("en")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3, 4]),
    steps=st.integers(0, 400),
    language=st.sampled_from(["en", "de", "fr"]),
)
def test_the_kanaloa_map_fits_80_columns_in_every_language(seed, players, steps, language):
    game = advanced(seed, players, steps)
    i18n.use(language)
    try:
        text = render(game)
        drawn = map_lines(game) + island_lines(game)[1:]  # in the same language (the Dolphin)
    finally:
        i18n.use("en")
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    # The map and the island table are drawn to fit, never wrapped (a wrapped map is broken).
    for line in drawn:
        assert len(line) <= 80 and line in lines


def test_the_map_shows_every_fish_piece_and_the_volcano():
    game = advanced(7, 4, 200)
    text = "\n".join(map_lines(game))
    fish = sum(1 for c in game.lay.currents if game.fish_tail[c] >= 0)
    assert len(re.findall(r"[rygbw][<>^v]", text)) == fish
    pieces = sum(1 for p in range(game.n) for x in game.loc[p] if x >= 0 or x == -2)
    assert len(re.findall(r"[RYGB]", text.replace("(Dolphin", ""))) == pieces
    if game.volcano >= 0:
        assert "^^^" in text


def scripted_session(players: int, people: tuple[int, ...], seed: int, mistakes: float = 0.1):
    """People at ``people`` typing random legal decisions (and some mistakes and commands),
    bots at the other seats; returns the session, its output and the prompts read."""
    rng = random.Random(seed)
    prompts: list[str] = []
    out = io.StringIO()
    game = Game(seed=seed, players=players)
    codes = all_codes(game.m)

    def typing(prompt: str) -> str:
        prompts.append(prompt)
        g = session.game
        if not prompt.endswith("> "):
            return ""  # the pass-the-device screen
        if rng.random() < mistakes:
            return rng.choice(["legal", "map", "hint", "help", "undo", "fish X>Y red",
                               g.format(rng.choice(codes))])  # fmt: skip
        return g.format(rng.choice(g.legal_actions()))

    seats = [None if p in people else make_bot("random", seed + p, game="kanaloa")
             for p in range(players)]  # fmt: skip
    session = KanaloaTerminalGame(game, seats, read=typing, out=out)
    assert session.run() == 0
    return session, out.getvalue(), prompts


def test_a_whole_three_player_game_from_a_script_against_two_bots():
    session, text, prompts = scripted_session(3, (0,), seed=5)
    assert session.game.is_terminal()
    assert "Game over (N48)" in text and "Winner:" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    assert all(p.startswith("red") for p in prompts)


def test_hot_seat_passes_the_device_between_people_and_never_to_a_bot():
    session, text, prompts = scripted_session(3, (0, 1), seed=8, mistakes=0.0)
    assert session.game.is_terminal()
    passes = [p for p in prompts if "press Enter" in p]
    assert passes and {p.split(",")[0] for p in passes} == {"red", "yellow"}
    assert "Pass the device to yellow" in text and "Pass the device to green" not in text


def refusals(text: str) -> list[str]:
    """Each refusal with its wrapped continuation lines (indented) joined back."""
    out: list[str] = []
    for line in text.splitlines():
        if line.startswith("refused:"):
            out.append(line)
        elif out and line.startswith("  ") and not out[-1].endswith("\n"):
            out[-1] += " " + line.strip()
        elif out:
            out[-1] += "\n"
    return [r.strip() for r in out]


def test_every_refusal_names_its_ruling():
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        _session, text, _prompts = scripted_session(players, (0,), seed=seed, mistakes=0.3)
        said = refusals(text)
        assert len(said) > 5
        assert [r for r in said if not RULING.search(r)] == []


def test_undo_against_a_bot_takes_back_the_persons_decision_and_the_bots_after_it():
    game = Game(seed=4, players=2)
    typed = iter([game.legal_decisions()[0], "undo", "quit"])
    out = io.StringIO()
    first = game.players[game.decider]
    seats = [None if c == first else make_bot("random", 1, game="kanaloa") for c in game.players]
    session = KanaloaTerminalGame(game, seats, read=lambda _p: next(typed), out=out)
    session.run()
    assert "undone" in out.getvalue()
    assert session.game.history == [] and session.game.decider == game.decider


def test_undo_is_refused_between_two_people():
    typed = iter(["", "fish HONU>KAI white", "", "undo", "quit"])
    out = io.StringIO()
    session = KanaloaTerminalGame(Game(seed=4, players=2), [None, None],
                                  read=lambda _p: next(typed), out=out)  # fmt: skip
    session.run()
    assert "undo works when one person plays against bots" in out.getvalue()


def test_hint_names_a_legal_decision():
    from haleakala.games.kanaloa.views.terminal import hint_line

    game = advanced(3, 3, 60)
    line = hint_line(game)
    assert any(text in line for text in game.legal_decisions())


def test_play_game_kanaloa_starts_the_terminal_game(capsys, monkeypatch):
    typed = iter(["quit"])
    monkeypatch.setattr("builtins.input", lambda _p="": next(typed))
    args = ["play", "--game", "kanaloa", "--players", "3", "--red", "human",
            "--yellow", "random", "--green", "random", "--seed", "7"]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Kanaloa, seed 7" in out and "goodbye" in out


KANALOA_NOTATION = {
    "fish", "start", "volcano", "remove", "land", "give", "swap", "move", "whiten", "dolphin",
    "sacrifice", "add", "done", "rob", "take", "reverse", "flip", "allow", "forbid", "place",
    "end", "white", "green", "blue", "map", "Kanaloa", "Kane", "Pele", "Lono",
}  # fmt: skip
"""Words of the Kanaloa notation (decisions a player types, god names): the same in every
language, like the islands' names."""


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_terminal_speaks_german_and_french(language):
    from support.leaks import english_words

    i18n.use(language)
    try:
        session, text, prompts = scripted_session(2, (0,), seed=2, mistakes=0.0)
    finally:
        i18n.use("en")
    assert session.game.is_terminal()
    leaked = {
        line: words
        for line in [*text.splitlines(), *prompts]
        if (words := [w for w in english_words(line, language) if w not in KANALOA_NOTATION])
    }
    assert leaked == {}


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_refusal_of_the_rules_is_said_in_german_and_french_with_its_ruling(language):
    from support.leaks import english_words

    from haleakala.games.kanaloa.refusals import shown

    refusals = []
    for seed in range(6):
        game = advanced(seed, 2 + seed % 3, 40 + 30 * seed)
        rng = random.Random(seed)
        for code in rng.sample(all_codes(game.m), 60):
            refused = game.refusal(code)
            if refused is not None:
                refusals.append(refused)
    i18n.use(language)
    try:
        said = {i18n.render(shown(refused)) for refused in refusals}
    finally:
        i18n.use("en")
    assert all(RULING.search(f"({text}") for text in said), said
    assert len(said) > 10

    # The decision quoted in a refusal is notation; the words around it must not be English.
    def english(text: str) -> list[str]:
        return [w for w in english_words(re.sub(r"'[^']*'", "", text), language)
                if w not in KANALOA_NOTATION]  # fmt: skip

    leaked = {t: words for t in said if (words := english(t))}
    assert leaked == {}


BAD_LINES = ["XYZ", "", "fish HONU>KAI pink", "move Q>KAI", "move HONUKAI", "rob purple Kane3",
             "swap HONU:Kane3 HONU:Ku4", "swap HONU KAI", "start", "take Kane9",
             "sacrifice Pele5", "sacrifice Pele5 to Zeus", "volcano AKAU+EWA+QQQ",
             "reverse HONUKAI"]  # fmt: skip


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_line_that_is_no_decision_is_said_in_german_and_french_with_its_ruling(language):
    """N52: text that is not notation is refused, in the player's language (the notation's
    own words carry a template and its parameters, never parsed back from English)."""
    from support.leaks import english_words

    from haleakala.games.kanaloa.refusals import shown
    from haleakala.i18n import render

    game = Game(seed=3, players=3)
    i18n.use(language)
    try:
        said = {line: render(shown(game.refusal(line))) for line in BAD_LINES}
    finally:
        i18n.use("en")
    assert all(text is not None and RULING.search(f"({text}") for text in said.values()), said

    def english(text: str) -> list[str]:
        return [w for w in english_words(re.sub(r"'[^']*'", "", text), language)
                if w not in KANALOA_NOTATION]  # fmt: skip

    leaked = {line: words for line, text in said.items() if (words := english(text or ""))}
    assert leaked == {}
