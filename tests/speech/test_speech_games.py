"""Whole games said aloud through the real espeak-ng into WAV files (issue 40's acceptance):
Haleakala on the kit (the companion's narrator, played through its buttons by the scripted
player), Kahuna and Kanaloa at the terminal (``play --speak``'s session voice, bots at every
seat); in English, German and French.

Each file must be heard (its RMS well above silence), the decisions said in the order they
were made, each exactly once, none left out, and the game's end said last. The whole games
(about 2,000 utterances, a few minutes) run with ``-m long``; the default suite speaks the
start and the end of each game (every kind of event: the first decisions, an eruption, the
scorings with their breakdown, the result) in each language."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from support.companion_rig import Rig
from support.speech import wav_rms

from haleakala import i18n
from haleakala.ai import make_bot
from haleakala.companion.autoplay import choose
from haleakala.companion.narrator import Narrator
from haleakala.gameapi import describe, hook, new_game
from haleakala.games.haleakala import Game
from haleakala.hal.audio import MANIFEST, FileAudio
from haleakala.speech.engine import Espeak
from haleakala.speech.settings import Settings
from haleakala.speech.voice import Voice
from haleakala.toolkit.speaking import SessionVoice

pytestmark = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (./test installs it)"
)

LANGUAGES = ("en", "de", "fr")
SILENCE_RMS = 300.0
"""Speech at 60 % is heard at an RMS of 1,500–3,000 (of 32,768); an empty file is 0."""
START, END = 8, 24
"""The default suite's part of each game: the first decisions and the last ones."""


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


def manifest(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / MANIFEST).read_text().splitlines()]


def check_heard(folder: Path, language: str) -> list[dict]:
    lines = manifest(folder)
    assert lines, "nothing was said"
    for line in lines:
        assert line["done"] and line["language"] == language
        assert wav_rms(folder / line["file"]) > SILENCE_RMS, f"silent: {line}"
    keys = [line["key"] for line in lines]
    assert len(keys) == len(set(keys)), "something was said twice"
    return lines


def decision_plies(lines: list[dict]) -> list[int]:
    return [int(line["key"].split("/")[-2]) for line in lines if line["key"].endswith("/decision")]


# -- Haleakala on the kit --------------------------------------------------------------------


def haleakala_game(seed: int) -> Game:
    """The scripted player's whole game (what ``--autoplay`` plays on the kit)."""
    game = Game("base", seed, "red")
    while not game.is_terminal():
        game.apply(choose(game, seed))
    return game


def speak_on_the_kit(folder: Path, language: str, seed: int, first: int, last: int) -> Game:
    """The companion says decisions ``first``..``last`` (a position replayed to ``first``)."""
    i18n.use(language)
    whole = haleakala_game(seed)
    position = Game("base", seed, "red")
    for d in whole.history[:first]:
        position.apply(d)
    rig = Rig(game=position, seed=seed)
    audio = FileAudio(folder)
    voice = Voice(Espeak(), audio, Settings("events")).start()
    rig.c.narrator = Narrator(rig.c, voice)
    rig.c.tick()
    while not rig.game.is_terminal() and len(rig.game.history) < last:
        rig.carry_out(choose(rig.game, seed))
        rig.advance(3)
        assert voice.wait_idle(30)
    voice.close()
    assert not voice.troubles and voice.dropped == 0
    return rig.game


def check_kit_game(folder: Path, language: str, game: Game, first: int) -> None:
    lines = check_heard(folder, language)
    plies = decision_plies(lines)
    assert plies == list(range(first + 1, len(game.history) + 1))  # each once, in order
    if game.is_terminal():
        assert lines[-1]["key"].endswith("/result")
        result = game.result()
        assert result is not None
        winner = i18n._(result.winner)
        assert winner.lower() in lines[-1]["text"].lower()


def in_the_default_suite(*kept: tuple):
    """Every combination; those not in ``kept`` run with ``-m long`` (the machine is shared:
    one language per game keeps the default suite short, every game and language is heard)."""

    def mark(params: tuple) -> object:
        marks = () if params in kept else (pytest.mark.long,)
        return pytest.param(*params, marks=marks)

    return mark


KIT_PART = in_the_default_suite(("en",))


@pytest.mark.parametrize("language", [KIT_PART((lang,)) for lang in LANGUAGES])
def test_the_kit_says_the_start_and_the_end_of_a_game(tmp_path, language):
    seed = 4
    length = len(haleakala_game(seed).history)
    game = speak_on_the_kit(tmp_path / "start", language, seed, 0, START)
    check_kit_game(tmp_path / "start", language, game, 0)
    game = speak_on_the_kit(tmp_path / "end", language, seed, length - END, length)
    check_kit_game(tmp_path / "end", language, game, length - END)
    said = " ".join(line["text"] for line in manifest(tmp_path / "end"))
    scoring = {"en": "Scoring", "de": "Wertung", "fr": "Décompte"}[language]
    assert said.count(scoring) >= 1 and "+" in said  # the breakdown: "+9 (statues 2, …)"


@pytest.mark.long
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_kit_says_a_whole_game(tmp_path, language):
    seed = 4
    length = len(haleakala_game(seed).history)
    game = speak_on_the_kit(tmp_path, language, seed, 0, length)
    assert game.is_terminal()
    check_kit_game(tmp_path, language, game, 0)


# -- Kahuna and Kanaloa at the terminal ----------------------------------------------------


def speak_at_the_terminal(
    folder: Path, name: str, language: str, seed: int, skip: int | None, players: int | None = None
) -> tuple[object, int]:
    """Bots at every seat; the first ``skip`` decisions are played silently (None: all but
    ``END``), then the session says the rest."""
    i18n.use(language)
    game = new_game(name, seed=seed, players=players)
    count = len(game.players)  # type: ignore[attr-defined]
    seats = [make_bot("greedy", seed=seed + p, game=name) for p in range(count)]
    if skip is None:
        trial = game.clone()
        while not trial.is_terminal():
            trial.apply(seats[trial.decider].decide(trial))
        skip = max(0, len(trial.history) - END)  # type: ignore[attr-defined]
        seats = [make_bot("greedy", seed=seed + p, game=name) for p in range(count)]
    while len(game.history) < skip and not game.is_terminal():  # type: ignore[attr-defined]
        game.apply(seats[game.decider].decide(game))
    session = hook(describe(name).terminal)(game, seats, out=io.StringIO(), tty=False, delay=0)
    voice = Voice(Espeak(), FileAudio(folder), Settings("events")).start()
    session.voice = SessionVoice(voice, name)
    assert session.run() == 0
    assert not voice.troubles and voice.dropped == 0
    return session.game, skip


def check_terminal_game(folder: Path, language: str, game, first: int) -> None:
    lines = check_heard(folder, language)
    assert decision_plies(lines) == list(range(first + 1, len(game.history) + 1))
    assert game.is_terminal() and lines[-1]["key"].endswith("/result")


TERMINAL_GAMES = [("kahuna", None), ("kanaloa", 3)]
TERMINAL_PART = in_the_default_suite(("kahuna", None, "de"), ("kanaloa", 3, "fr"))


@pytest.mark.parametrize(
    "name,players,language",
    [TERMINAL_PART((n, players, lang)) for n, players in TERMINAL_GAMES for lang in LANGUAGES],
)
def test_the_terminal_says_the_end_of_a_game(tmp_path, name, players, language):
    game, first = speak_at_the_terminal(tmp_path, name, language, 5, None, players)
    check_terminal_game(tmp_path, language, game, first)


@pytest.mark.long
@pytest.mark.parametrize("name,players", TERMINAL_GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_terminal_says_a_whole_game(tmp_path, name, players, language):
    game, first = speak_at_the_terminal(tmp_path, name, language, 5, 0, players)
    check_terminal_game(tmp_path, language, game, first)
