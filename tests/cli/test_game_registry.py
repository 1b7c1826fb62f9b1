"""One description per game, one registry line: every reader (command line, bots, log,
replay, harness, front-ends) finds a game through ``haleakala.gameapi.GAMES``, and the
seats of any game are ``--players`` and ``--seat COLOUR=WHO`` (the per-colour flags of the
first games stay as aliases)."""

from __future__ import annotations

import importlib

import pytest

from haleakala.ai import bots_of
from haleakala.cli import UsageError, main
from haleakala.gameapi import (
    GAMES,
    GameDescription,
    GameState,
    UnknownGame,
    describe,
    game_of_save_format,
    hook,
    new_game,
)

HOOKS = ("state", "replay", "invariants", "all_codes", "terminal", "window", "load", "strength",
         "bench")  # fmt: skip


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_registry_line_names_its_games_description(name: str) -> None:
    description = describe(name)
    assert isinstance(description, GameDescription) and description.name == name
    game = new_game(name, seed=1)
    assert isinstance(game, GameState)
    assert game.players == description.players
    assert game_of_save_format(description.save_format) == name
    importlib.import_module(description.log)
    for field in HOOKS:
        ref = getattr(description, field)
        if ref:
            assert callable(hook(ref)), f"{name}: {field} = {ref} is not callable"
    for bot in description.bots.values():
        assert callable(hook(bot))


def test_haleakalas_bots_are_its_description_s() -> None:
    assert bots_of("haleakala") == dict(describe("haleakala").bots)


def test_an_unknown_game_or_player_count_is_refused_with_a_sentence() -> None:
    with pytest.raises(UnknownGame, match="unknown game 'chess': choose one of haleakala"):
        describe("chess")
    with pytest.raises(ValueError, match="kahuna is played by 2 players, not 3"):
        new_game("kahuna", seed=1, players=3)


def play_json(capsys, *args: str) -> str:
    capsys.readouterr()
    assert main(["play", "--json", "--seed", "4", *args]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


@pytest.mark.parametrize(
    ("game", "old", "new"),
    [
        ("haleakala", ["--red", "random", "--yellow", "greedy"],
         ["--seat", "red=random", "--seat", "yellow=greedy"]),
        ("kahuna", ["--white", "greedy", "--black", "random"],
         ["--seat", "white=greedy", "--players", "2", "--seat", "black=random"]),
    ],
)  # fmt: skip
def test_seat_flags_and_the_old_colour_flags_play_the_same_game(
    capsys, game: str, old: list[str], new: list[str]
) -> None:
    assert play_json(capsys, "--game", game, *old) == play_json(capsys, "--game", game, *new)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "3"], "--players: haleakala is played by 2 players, not 3"),
        (["--seat", "white=random"], "is not a seat in haleakala: its players are red and yellow"),
        (["--seat", "red"], "--seat red: write COLOUR=WHO, e.g. --seat red=human"),
        (["--seat", "red=ai", "--red", "greedy"], "--red: red is given twice"),
        (["--game", "kahuna", "--seat", "white=child"], "kahuna has no child bot"),
        (
            ["--game", "kahuna", "--variant", "tactical"],
            "--variant is a Haleakala option; kahuna has none",
        ),
    ],
)
def test_misused_seats_get_one_sentence(args: list[str], message: str) -> None:
    import argparse

    from haleakala.terminal.play import resolve_seats

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    from haleakala.terminal.play import register

    register(sub)
    namespace = parser.parse_args(["play", *args])
    with pytest.raises(UsageError, match=message.replace("(", r"\(")):
        resolve_seats(namespace)
