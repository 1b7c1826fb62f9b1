"""Checking a Kahuna game log against the engine (KAHUNA-NOTATION "What a replayer checks").

Pure: lines in, finished games out, or ``Inconsistent`` naming the game (its seed) and
the record number, counted from 0 at the game's setup. The setup's own deal is used, so
a log written by another program replays too; ``seeded=True`` also demands K4's deal
and K4's reshuffles for the seed. The invariants are checked after every decision.
"""

from __future__ import annotations

from collections import Counter

from haleakala.core.logcheck import check_action, show
from haleakala.core.logcheck import split_games as _split_games

from .game import NONE, PLAYERS, Game
from .invariants import violations
from .log import event_records, setup_record

EFFECTS = ("stone", "bridge")
CHECKED = ("draw", "reveal", "scoring", "shuffle", "result")


class Inconsistent(Exception):
    """The log disagrees with the rules; the message says where and how."""


def game_from_setup(setup: dict, seeded: bool = False) -> Game:
    """The game a setup record deals (its own cards), checked for the right material."""
    seed, start = setup.get("seed", 0), setup.get("start")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise Inconsistent(f"seed {show(seed)} is not a whole number")
    if start not in PLAYERS:
        raise Inconsistent(f"start {show(start)} is not white or black")
    game = Game(seed, start)
    if seeded:
        engine = setup_record(game)
        for key in ("hands", "display", "pile"):
            if setup.get(key) != engine[key]:
                raise Inconsistent(
                    f"{key} is not K4's deal for seed {seed}: {show(setup.get(key))}, "
                    f"K4 gives {show(engine[key])}"
                )
        return game
    names = game.board.islands
    try:
        hands = [[names.index(c) for c in setup["hands"][p]] for p in PLAYERS]
        display = [NONE if c is None else names.index(c) for c in setup["display"]]
        pile = [names.index(c) for c in setup["pile"]]
    except (KeyError, TypeError, ValueError):
        raise Inconsistent("hands, display or pile missing or naming an unknown island") from None
    b = game.board
    if any(len(h) != b.deal for h in hands) or len(display) != b.display:
        raise Inconsistent(f"the deal is {b.deal} cards a hand and {b.display} display cards")
    everything = sorted([*hands[0], *hands[1], *(c for c in display if c != NONE), *pile])
    if everything != sorted(i for i in range(len(names)) for _ in range(b.cards_per_island)):
        raise Inconsistent("the cards are not exactly 2 of each island (K2)")
    for p in (0, 1):
        game.hands[p] = [hands[p].count(i) for i in range(len(names))]
    game.display, game.pile = display, pile
    game._legal = None
    return game


NOT_THEIRS = "{where}: the log says {logged} decides, but it is {decider}'s turn"


def _check_action(game: Game, record: dict, where: str) -> int:
    return check_action(game, record, where, refused=Inconsistent, not_theirs=NOT_THEIRS)


def replay_game(records: list[dict], seeded: bool = False) -> Game:
    """One game: its setup record first. Returns the finished game."""
    setup = records[0]
    label = f"game seed {setup.get('seed')}"
    try:
        game = game_from_setup(setup, seeded)
    except Inconsistent as exc:
        raise Inconsistent(f"{label}, record 0: {exc}") from None
    effects = setup.get("effects") is True
    pending: list[dict] = []
    for n, record in enumerate(records[1:], 1):
        where = f"{label}, record {n}"
        kind = record.get("type")
        if kind == "action":
            _pending_done(pending, effects, where)
            decision = _check_action(game, record, where)
            pending = event_records(game, game.apply(decision))
            broken = violations(game)
            if broken:
                raise Inconsistent(f"{where}: invariant broken: {broken[0]}")
        elif kind in EFFECTS:
            if not effects:
                raise Inconsistent(f"{where}: a {kind} record although the setup has no effects")
            match = next((r for r in pending if r == record), None)
            if match is None:
                raise Inconsistent(f"{where}: {show(record)} that the engine did not produce")
            pending.remove(match)
        elif kind in CHECKED:
            ahead = [r for r in pending if r["type"] in CHECKED]
            if not ahead:
                raise Inconsistent(f"{where}: {show(record)} that the engine did not produce")
            expected = ahead[0]
            if kind == "shuffle" and not seeded:
                _take_shuffle(game, record, expected, where)
            elif record != expected:
                raise Inconsistent(f"{where}: {kind} differs: log {show(record)}, "
                                   f"engine {show(expected)}")  # fmt: skip
            pending.remove(expected)
        elif kind == "setup":
            raise Inconsistent(f"{where}: a second setup record without a blank line")
        # Any other type is informational (KAHUNA-NOTATION) and ignored.
    _pending_done(pending, effects, f"{label}, end")
    if not game.is_terminal():
        raise Inconsistent(f"{label}: the log ends before the game is over ({game.to_move})")
    return game


def _pending_done(pending: list[dict], effects: bool, where: str) -> None:
    left = [r for r in pending if effects or r["type"] not in EFFECTS]
    if left:
        raise Inconsistent(f"{where}: the log is missing {show(left[0])}")


def _take_shuffle(game: Game, record: dict, expected: dict, where: str) -> None:
    """Without ``seeded`` any order of the old discard pile is a fair shuffle: the log's
    order is used for the rest of the game."""
    logged = [*record.get("display", []), *record.get("pile", [])]
    engine = [*expected["display"], *expected["pile"]]
    if record.get("round") != expected["round"] or Counter(logged) != Counter(engine):
        raise Inconsistent(f"{where}: the shuffle must hold exactly the discard pile (K25)")
    names = game.board.islands
    if len(record["display"]) != game.board.display:
        raise Inconsistent(f"{where}: the shuffle must put {game.board.display} cards face up")
    game.display = [names.index(c) for c in record["display"]]
    game.pile = [names.index(c) for c in record["pile"]]
    game._legal = None


def split_games(lines: list[str]) -> list[list[dict]]:
    """The records of each game in a log file (``core.logcheck``, shared by the games)."""
    return _split_games(lines, refused=Inconsistent)


def replay_log(lines: list[str], seeded: bool = False) -> list[Game]:
    games = split_games(lines)
    if not games:
        raise Inconsistent("no game in the log")
    return [replay_game(records, seeded) for records in games]
