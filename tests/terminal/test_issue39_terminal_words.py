"""What a player meets first at the terminal (issue 39): local command words beside the
English ones, a long line refused with its start, Kanaloa's prompts and help following its
rules, the lessons speaking the terminal, and help and messages naming games and flags."""

from __future__ import annotations

import io

import pytest

from haleakala import i18n
from haleakala.ai import make_bot
from haleakala.cli import main
from haleakala.gameapi import new_game
from haleakala.games.kanaloa.notation import KINDS
from haleakala.games.kanaloa.views.terminal import HELP, KanaloaTerminalGame
from haleakala.i18n.commands import command, local_line
from haleakala.learn.cli import Terminal
from haleakala.learn.lesson import find, load


@pytest.fixture(params=["de", "fr"])
def language(request):
    i18n.use(request.param)
    yield request.param
    i18n.use("en")


def scripted(lines):
    """A player who types ``lines`` one by one, then Ctrl-D."""
    script = iter(lines)

    def read(_prompt):
        try:
            return next(script)
        except StopIteration:
            raise EOFError from None

    return read


def kanaloa_session(lines, players=2, language="en"):
    i18n.use(language)
    read = scripted(lines)
    out = io.StringIO()
    game = new_game("kanaloa", 3, players=players)
    bots = [make_bot("random", seed=p, game="kanaloa") for p in range(1, players)]
    KanaloaTerminalGame(game, [None, *bots], read=read, out=out).run()
    return out.getvalue()


def joined(text: str) -> str:
    """The text with its wrapped lines joined (a sentence is found across them)."""
    return " ".join(text.split())


# -- item 4: local command words ----------------------------------------------------------


LOCAL = {"de": ("hilfe", "erlaubt", "beenden"), "fr": ("aide", "permis", "quitter")}


def test_local_command_words_are_accepted_beside_the_english_ones(language):
    help_word, legal_word, quit_word = LOCAL[language]
    assert command(help_word) == command("help") == "help"
    assert command(legal_word.upper()) == "legal"
    assert command(quit_word) == "quit"
    assert command("4@3") is None and command("fish") is None
    assert help_word in local_line()


def test_hilfe_at_a_german_terminal_is_the_help_not_a_refused_decision():
    text = kanaloa_session(["hilfe", "erlaubt", "beenden"], language="de")
    try:
        assert "keine Entscheidung" not in text
        assert "hilfe = help" in joined(text)  # the help lists the local words
        assert "fish HONU>KAI green" in text  # erlaubt listed the legal decisions
        assert text.rstrip().endswith(i18n._("goodbye: the game is left unfinished"))
    finally:
        i18n.use("en")


def test_english_has_no_local_line():
    assert local_line() == ""


# -- item 7: long input -------------------------------------------------------------------


@pytest.mark.parametrize("line", ["x" * 5000, "fish " + "HONU>" * 1000])
def test_a_5000_character_line_is_refused_with_its_first_60_characters(line):
    text = kanaloa_session([line])
    assert line[:60] + "…" in joined(text)
    assert line[:61] not in joined(text)
    assert f"{len(line):,}" in text  # its length, grouped as the language groups numbers
    assert max(len(t) for t in text.splitlines()) <= 80


# -- item 5: Kanaloa's prompts and help ---------------------------------------------------


def test_kanaloa_help_lists_every_decision_kind():
    words = {w.strip(",") for line in HELP.splitlines() for w in line.split()}
    missing = [k for k in KINDS if k not in words and k != "sea"]  # sea: volcano A+B+C
    assert missing == []
    assert "volcano A+B+C" in HELP


def test_the_two_player_start_prompt_offers_the_neutral_green_fish_only():
    text = kanaloa_session(["quit"], players=2)
    prompt = next(line for line in text.splitlines() if "fish TAIL>HEAD" in line)
    assert "fish TAIL>HEAD green" in prompt and "white" not in prompt and "neutral" in prompt


def test_after_the_neutral_fish_the_prompt_offers_white_or_the_players_colour():
    text = kanaloa_session(["fish HONU>KAI green", "quit"], players=2)  # a bot places one
    assert "fish TAIL>HEAD white | fish TAIL>HEAD red" in joined(text)


@pytest.mark.parametrize("players", [3, 4])
def test_with_more_players_the_first_prompt_offers_white_or_the_colour(players):
    text = kanaloa_session(["quit"], players=players)
    assert "fish TAIL>HEAD white | fish TAIL>HEAD red" in joined(text)


# -- item 3: lessons at the terminal ------------------------------------------------------


def lesson_text(lines, language="en"):
    i18n.use(language)
    read = scripted(lines)
    out = io.StringIO()
    try:
        Terminal(load(find("first-game")), read=read, out=out).run()
    finally:
        i18n.use("en")
    return out.getvalue()


def test_a_lesson_step_gives_the_notation_of_the_decision_it_asks_for():
    text = lesson_text(["", ""])  # the two steps to read, then the first decision
    assert "Type: 4@3" in text


def test_help_and_legal_are_answered_in_a_lesson():
    text = lesson_text(["help", "legal"])
    assert "Commands:" in text and "Not allowed" not in text
    assert "legal: 1@0 | " in text


def test_text_on_a_step_to_read_gets_a_clear_reply_and_a_legal_decision_too():
    text = lesson_text(["xyzzy", "3@3"])
    assert "This step asks for no decision: press Enter to go on" in text
    assert "3@3 is a legal decision, but this step is to be read" in text
    assert "» \n" not in text  # never an empty hint line


def test_ctrl_d_in_a_lesson_says_goodbye():
    text = lesson_text([])
    assert text.rstrip().endswith("Come back with: haleakala learn first-game")


def test_german_lesson_commands_and_a_single_game_title():
    text = lesson_text(["hilfe", "zurück", "beenden"], language="de")
    assert "Befehle:" in text and "Nicht erlaubt" not in text
    assert "Haleakala Basis" not in text and "Haus der Sonne" in text


# -- item 8: help and messages ------------------------------------------------------------


def test_play_help_names_every_game(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "haleakala 2 players, kahuna 2 players, kanaloa 2-4 players" in out
    assert "gameapi" not in out


def test_a_seat_is_answered_with_the_flag_it_was_given(capsys):
    assert main(["play", "--seat", "red=robot"]) != 0
    err = capsys.readouterr().err
    assert "--seat red=robot: haleakala has no robot bot" in err and "--red robot" not in err


def test_kanaloa_window_with_a_kit_option_advises_only_what_kanaloa_takes(capsys):
    assert main(["sim", "--game", "kanaloa", "--kit", "rfid"]) != 0
    err = capsys.readouterr().err
    assert "--kit belongs to the kit simulator" in err
    assert "--colour" not in err and "--players" in err


def test_the_rfid_demo_banner_names_the_readers():
    from haleakala.simulator.demo import play_demo

    out = io.StringIO()
    play_demo(seed=1, kit="rfid", decisions=0, out=out, quiet=True)
    assert "RFID readers" in out.getvalue().splitlines()[0]
