"""One contract over every registered game and every player count its rules allow (as
OpenSpiel runs its API and random-play tests over every game in one place): the protocol,
the random-game harness, log -> replay, save -> ``--load`` -> the same position, a scripted
terminal session, the live view's snapshot and the phone seats' views with per-seat hiding,
the window's smoke test, and catalogs for the package's messages in every language.

The cases are ``gameapi.GAMES`` x ``player_counts``: a game added to the registry (the worked
example of docs/adding-a-game.md, Dots and Boxes in ``tests/support/dots``, is added by the
test session's conftest) is checked here without editing this module. Front-ends are reached
the way a player reaches them: the command line (``haleakala.cli.main``) and the hooks of the
description, so the generic views stand in for a game that draws nothing of its own.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from support.harness import play_checked

from haleakala import i18n
from haleakala.ai import make_bot
from haleakala.cli import main
from haleakala.gameapi import (
    DEFAULT_GAME,
    GAMES,
    GameState,
    describe,
    game_of,
    hook,
    load_game,
    log_module,
    new_game,
)
from haleakala.toolkit.gamelog import play_log

CASES = [(name, n) for name in GAMES for n in describe(name).player_counts]
IDS = [f"{name}-{n}p" for name, n in CASES]
GENERIC_LIVE = "haleakala.toolkit.generic.live"


def advanced(name: str, players: int, seed: int = 5, decisions: int = 12) -> GameState:
    """A game a few random decisions in (hidden information dealt, a turn or two past)."""
    game = new_game(name, seed=seed, players=players)
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.is_terminal():
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


# -- the protocol ------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_the_game_keeps_the_protocol_the_front_ends_rely_on(name: str, players: int) -> None:
    description = describe(name)
    game = new_game(name, seed=3, players=players)
    assert isinstance(game, GameState) and game_of(game) == name
    assert game.players == description.colours[:players] == description.seats(players)
    assert isinstance(game.seed, int) and game.history == []
    assert game.result() is None and not game.is_terminal()
    assert description.default_opponent in description.bots
    assert description.players == description.seats(None)
    assert len(game.returns()) == players and abs(sum(game.returns()) - 1) < 1e-9
    legal = game.legal_actions()
    assert legal == sorted(legal) and game.legal_decisions() == sorted(map(game.format, legal))
    assert all(game.parse(game.format(code)) == code for code in legal)
    text = game.format(legal[0])
    assert game.seen_decision(text, game.decider, game.decider) == text
    setup = log_module(name).setup_record(game)
    assert setup["type"] == "setup"
    if name != DEFAULT_GAME:  # a log without "game" is the default game's (the first logs)
        assert setup["game"] == name
    rendered = hook(description.render)(game, None) if description.render else ""
    assert isinstance(rendered, str) and (rendered or not description.render)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_a_finished_game_has_a_result_with_its_reason(name: str, players: int) -> None:
    game = play_checked(name, 11, deep_every=25, players=players)
    result = game.result()
    assert game.is_terminal() and result is not None
    assert isinstance(result.reason, str) and result.reason
    assert max(game.returns()) > 0 and len(game.history) > 0


# -- log -> replay, save -> --load ---------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_a_log_replays_and_a_save_reaches_its_position(
    name: str, players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = new_game(name, seed=7, players=players)
    bots = [make_bot("random", seed=p, game=name) for p in range(players)]
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(play_log(game, bots)) + "\n")
    assert main(["replay", str(log)]) == 0, capsys.readouterr()
    assert "replay OK" in capsys.readouterr().out
    save = tmp_path / "game.json"
    save.write_text(advanced(name, players).to_json() + "\n")
    assert main(["replay", str(save)]) == 0, capsys.readouterr()
    tampered = tmp_path / "tampered.jsonl"
    lines = log.read_text().splitlines()
    tampered.write_text("\n".join(lines[:1] + lines[2:]) + "\n")  # a decision left out
    assert main(["replay", str(tampered)]) in (1, 2)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_load_resumes_the_same_position_with_every_seat(
    name: str, players: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``play --load`` of a save of any player count: the seats are the save's, the game
    goes on where it was (saved again at once, the same digest)."""
    saved = advanced(name, players)
    first, again = tmp_path / "saved.json", tmp_path / "again.json"
    first.write_text(saved.to_json() + "\n")
    script = iter(["", f"save {again}", "quit", "quit", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(script))
    seats = [f"--seat={c}=human" for c in saved.players]
    assert main(["play", "--game", name, "--load", str(first), *seats]) == 0
    resumed = load_game(name, again.read_text())
    assert resumed.digest() == saved.digest() and resumed.players == saved.players


# -- the terminal --------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_a_scripted_terminal_session_plays_refuses_and_quits(
    name: str, players: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every seat a person: help, the legal list, a refusal with a sentence, a decision,
    then quit; the session's own view or the generic one, in plain text."""
    fresh = new_game(name, seed=1, players=players)
    script = iter(["", "help", "legal", "board", "no such decision", fresh.legal_decisions()[0],
                   "", "quit", "quit", "quit"])  # fmt: skip
    monkeypatch.setattr("builtins.input", lambda prompt="": next(script))
    seats = [f"--seat={c}=human" for c in fresh.players]
    args = ["play", "--game", name, "--seed", "1", *seats]
    if len(describe(name).player_counts) > 1:
        args += ["--players", str(players)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "refused" in out and "Traceback" not in out
    assert max(len(line) for line in out.splitlines()) <= 80 or name == DEFAULT_GAME


# -- the live view and the phone seats ------------------------------------------------------


def _public(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot without what names the exact state (its digest) rather than what it
    shows."""
    shown = copy.deepcopy(snapshot)
    shown.pop("digest", None)
    return shown


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_the_live_view_shows_only_what_everyone_may_see(name: str, players: int) -> None:
    """The snapshot of the game's own live view, or the generic one (never another game's
    picture): plain JSON, naming the game, and the same for every re-deal of what a seat
    cannot see (``determinize``), so nothing hidden reaches a watcher."""
    pictured = __import__(
        describe(name).live_view or GENERIC_VIEW, fromlist=["snapshot"]
    )  # the page's module, as the server picks it
    game = advanced(name, players)
    snapshot = pictured.snapshot(game, log=(), seq=1, digest="")
    json.dumps(snapshot)
    assert snapshot["game"] == name if name != DEFAULT_GAME else snapshot.get("game", name)
    rng = random.Random(1)
    for seat in range(players):
        other = game.determinize(seat, rng)
        assert _public(pictured.snapshot(other, log=(), seq=1, digest="")) == _public(snapshot)
    lines, fresh = pictured.log_lines(None, game)
    assert fresh and lines


GENERIC_VIEW = GENERIC_LIVE


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_a_phone_seat_sees_what_its_seat_may_see(name: str, players: int) -> None:
    """The phone seats' hooks (the game's own or the generic ones): each seat's view is the
    same whatever the hidden information it cannot see, and its buttons are words."""
    from haleakala.web.seats import hooks_for

    game = advanced(name, players)
    hooks = hooks_for(game)
    rng = random.Random(2)
    for seat in range(players):
        seen = hooks.sections(game, seat)
        json.dumps(seen)
        assert hooks.sections(game.determinize(seat, rng), seat) == seen
    if not game.is_terminal():
        assert all(hooks.decision_words(game, c) for c in game.legal_actions())


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_a_phone_seats_drawing_shows_what_its_seat_may_see(name: str, players: int) -> None:
    """The drawing a phone seat plays on (the hook ``tap_board``, issue 43), with the same
    check as the snapshot's and the seat's words: whatever a seat cannot see re-dealt
    (``determinize``), its drawing, the taps of its decisions, their words and the rules'
    refusals are the same, so nothing hidden reaches the seat's page."""
    from haleakala.web.seats import hooks_for, tap_board

    game = advanced(name, players)
    hooks = hooks_for(game)
    rng = random.Random(3)
    for seat in range(players):
        mine = not game.is_terminal() and game.decider == seat
        codes = sorted(game.legal_actions()) if mine else []

        def board(position: Any, codes: list[int] = codes, seat: int = seat) -> dict[str, Any]:
            legal = [{"text": position.format(c), "words": hooks.decision_words(position, c)}
                     for c in codes]  # fmt: skip
            drawn = tap_board(hooks, position, seat, codes, legal)
            return {"board": drawn, "legal": legal}

        seen = board(game)
        json.dumps(seen)
        assert board(game.determinize(seat, rng)) == seen


# -- the window -------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_the_window_draws_the_game(
    name: str, players: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``haleakala sim --game NAME`` draws its window offscreen (its own, or the generic
    one with its text and buttons): a PNG of the window, not a blank canvas."""
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    png = tmp_path / "window.png"
    args = ["sim", "--game", name, "--headless", "--screenshot", str(png), "--seed", "2"]
    if len(describe(name).player_counts) > 1:
        args += ["--players", str(players)]
    if name == DEFAULT_GAME:
        args += ["--state-dir", str(tmp_path / "kit")]
    assert main(args) == 0
    import pygame

    image = pygame.image.load(str(png))
    colours = {image.get_at((x, y))[:3] for x in range(0, image.get_width(), 37)
               for y in range(0, image.get_height(), 29)}  # fmt: skip
    assert len(colours) > 2


# -- the catalogs ------------------------------------------------------------------------------


def _catalogs(name: str, language: str) -> list[Any]:
    """The program's catalog and the game's own (its package's ``locale/``), as read."""
    found = []
    paths = [i18n.LOCALE_DIR / language / "LC_MESSAGES" / "haleakala.po"]
    paths += [d / language / "LC_MESSAGES" / f"{domain}.po" for domain, d in i18n.game_catalogs()
              if domain == name]  # fmt: skip
    for path in paths:
        with path.open("rb") as fp:
            found.append(read_po(fp, locale=language))
    return found


def _package_dir(name: str) -> Path:
    import importlib.util

    package = GAMES[name].partition(":")[0].rpartition(".")[0]
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations)))


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != "en"])
def test_every_message_of_the_game_is_translated(name: str, language: str) -> None:
    """Each message its package marks (``_``, ``ngettext``, ``N_``, ``pgettext``) has a
    translation, not fuzzy, in a catalog the game is spoken with: its own catalogs beside it
    (``locale/<game>.pot`` and its ``.po`` files, the program's i18n loads them) or the
    program's."""
    catalogs = _catalogs(name, language)
    missing = []
    for _file, _line, message, _comments, context in extract_from_dir(
        str(_package_dir(name)), method_map=[("**.py", "python")]
    ):
        key = message if isinstance(message, str) else message[0]
        entry = next((c.get(key, context=context) for c in catalogs
                      if c.get(key, context=context) is not None), None)  # fmt: skip
        if entry is None or entry.fuzzy or not entry.string or not all(entry.string):
            missing.append(key)
    assert missing == []


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_the_host_plays_a_journalled_game_of_bots_to_its_end(
    name: str, players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``haleakala host`` seats every count of every game (bots at each seat here, phones
    take the same seats): the game is played to its end and its journal kept."""
    pytest.importorskip("aiohttp")
    journal = tmp_path / "host.jsonl"
    colours = describe(name).seats(players)
    args = ["host", "--game", name, "--web", "127.0.0.1:0", "--seed", "6",
            "--journal", str(journal), "--exit-when-over"]  # fmt: skip
    args += [f"--seat={c}=random" for c in colours]
    if len(describe(name).player_counts) > 1:
        args += ["--players", str(players)]
    assert main(args) == 0, capsys.readouterr()
    assert list(tmp_path.iterdir()), "the journal is kept"
