"""The replay check of any game without one of its own: its log and its saves checked with
nothing but the game interface, its log module and its registry line.

A log's games are checked one by one: the setup record must be the one a new game dealt
by its ``seed`` for its ``players`` writes (so this replayer serves a game whose deal is its
seed and player count), every action is checked (``core.logcheck``: its player decides now,
its decision is legal, a listed ``legal`` is the engine's), and the records after it must
be the ones the log module writes for the decision's events. A save is checked by playing
its history from a new game of its seed and player count: the position reached must be the
saved one (equal digests).
"""

from __future__ import annotations

from collections.abc import Sequence

from haleakala.core.logcheck import check_action, show, split_games
from haleakala.gameapi import GameState, describe, load_game, log_module, new_game

from ..replayer import Replayer
from .text import result_sentence


class Inconsistent(Exception):
    """The log or save disagrees with the rules; the message says where and how."""


class NotASave(Exception):
    """A file with the game's save format that does not load."""


NOT_THEIRS = "{where}: the log says {logged} decides, but {decider} decides"


def _dealt(name: str, setup: object, where: str) -> GameState:
    if not isinstance(setup, dict) or setup.get("type") != "setup":
        raise Inconsistent(f"{where}: a game starts with its setup record")
    seed, players = setup.get("seed"), setup.get("players")
    if isinstance(seed, bool) or not isinstance(seed, int) or not isinstance(players, list):
        raise Inconsistent(f"{where}: the setup needs a whole-number seed and its players")
    try:
        game = new_game(name, seed=seed, players=len(players))
    except ValueError as exc:
        raise Inconsistent(f"{where}: {exc}") from None
    engine = log_module(name).setup_record(game)
    if engine != setup:
        raise Inconsistent(f"{where}: the setup {show(setup)} is not the deal of seed "
                           f"{seed} for {len(players)} players: {show(engine)}")  # fmt: skip
    return game


def replay_log(name: str, lines: list[str]) -> list[GameState]:
    """The finished games of a log; ``Inconsistent`` at the first disagreement."""
    log = log_module(name)
    games = []
    for number, records in enumerate(split_games(lines, refused=Inconsistent)):
        label = f"game {number} (seed {records[0].get('seed')})"
        game = _dealt(name, records[0], f"{label} record 0")
        at = 1
        while at < len(records):
            record = records[at]
            where = f"{label} record {at}"
            if record.get("type") != "action":
                raise Inconsistent(f"{where}: {show(record.get('type'))} where an action was due")
            decision = check_action(game, record, where, refused=Inconsistent,
                                    not_theirs=NOT_THEIRS)  # fmt: skip
            expected = list(log.event_records(game, game.apply(decision)))
            logged = records[at + 1 : at + 1 + len(expected)]
            if logged != expected:
                raise Inconsistent(f"{where}: the records after it are {show(logged)}, the "
                                   f"engine writes {show(expected)}")  # fmt: skip
            at += 1 + len(expected)
        if not game.is_terminal():
            raise Inconsistent(f"{label}: the log ends before the game does")
        games.append(game)
    return games


def replay_save(name: str, text: str) -> GameState:
    """A save's position, checked by playing its history from its seed."""
    try:
        saved = load_game(name, text)
    except ValueError as exc:
        raise NotASave(str(exc)) from None
    game = new_game(name, seed=saved.seed, players=len(saved.players))
    for n, decision in enumerate(saved.history, 1):
        if decision not in game.legal_actions():
            raise Inconsistent(f"decision {n} of the save's history, {decision}, is not legal")
        game.apply(decision)
    if game.digest() != saved.digest():
        raise Inconsistent("the save's history does not lead to its position")
    return saved


def replayer(name: str) -> Replayer:
    description = describe(name)

    def replay_lines(lines: list[str], seeded: bool) -> Sequence[GameState]:
        return replay_log(name, lines)

    return Replayer(
        title=description.title,
        save_format=description.save_format,
        replay_save=lambda text: replay_save(name, text),
        save_verdict="position reached",
        replay_log=replay_lines,
        describe_result=result_sentence,
        inconsistent=Inconsistent,
        save_error=NotASave,
    )


def replay(text: str, label: str, seeded: bool = False) -> int:
    """The ``haleakala replay`` hook of a game without its own: which game is found in the
    text by the command (its setup's ``game``, its save's ``format``)."""
    from haleakala.core.jsonread import load_json
    from haleakala.gameapi import DEFAULT_GAME, game_of_save_format

    first = next((line for line in text.splitlines() if line.strip()), "")
    name = DEFAULT_GAME
    for candidate in (text, first):
        try:
            data = load_json(candidate)
        except ValueError:
            continue
        if isinstance(data, dict):
            name = game_of_save_format(data.get("format")) or str(data.get("game", name))
            break
    return replayer(name).run(text, label, seeded)
