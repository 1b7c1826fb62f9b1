"""Checking a Kanaloa game log against the engine (KANALOA-NOTATION "What a replayer checks").

Pure: lines in, finished games out, or ``Inconsistent`` naming the game (counted from 0),
its seed and the record number (counted from 0 at the game's setup). The setup's own deal is
used, so a log written by another program replays too; ``seeded=True`` also demands N8's
deal for the seed. The invariants are checked after every decision.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from haleakala.core.logcheck import check_action, show
from haleakala.core.logcheck import split_games as _split_games

from .game import Game
from .invariants import violations
from .log import event_records, setup_record
from .material import GODS, Material, default_material
from .state import Deal


class Inconsistent(Exception):
    """The log disagrees with the rules; the message says where and how."""


def game_from_setup(setup: Any, seeded: bool = False, material: Material | None = None) -> Game:
    """The game a setup record deals, checked for the right material (N9, N10, N11)."""
    m = material or default_material()
    if not isinstance(setup, dict) or setup.get("type") != "setup":
        raise Inconsistent("a game starts with its setup record")
    if setup.get("game") != "kanaloa":
        raise Inconsistent(f"game {show(setup.get('game'))} is not kanaloa")
    seed = setup.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise Inconsistent(f"seed {show(seed)} is not a whole number")
    players = setup.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise Inconsistent("players must list 2 to 4 colours (N7)")
    n = len(players)
    if players != list(m.colours[:n]):
        raise Inconsistent(f"players must be {', '.join(m.colours[:n])} in seat order (N7)")
    engine = setup_record(Game(seed, n, m))
    for key in ("neutral", "islands", "currents"):
        if setup.get(key) != engine[key]:
            raise Inconsistent(f"{key} {show(setup.get(key))} differ from this map's "
                               f"{show(engine[key])} (N1, N9)")  # fmt: skip
    if seeded:
        for key in ("gods", "tiles", "reserve", "bag"):
            if setup.get(key) != engine[key]:
                raise Inconsistent(
                    f"{key} is not N8's deal for seed {seed}: "
                    f"{show(setup.get(key))}, N8 gives {show(engine[key])}"
                )
        return Game(seed, n, m)
    volcano = len(m.tiles)

    def code(t: Any) -> int:
        if t == "volcano":
            return volcano
        if not isinstance(t, str) or t not in m.tiles:
            raise Inconsistent(f"unknown tile {show(t)} (N5)")
        return m.tile_code(t)

    tiles_rec, gods_rec = setup.get("tiles"), setup.get("gods")
    reserve, bag = setup.get("reserve"), setup.get("bag")
    if not (isinstance(tiles_rec, dict) and isinstance(gods_rec, dict)
            and isinstance(reserve, list) and isinstance(bag, list)):  # fmt: skip
        raise Inconsistent("the setup needs tiles, gods, reserve and bag")
    if sorted(tiles_rec) != engine["islands"]:
        raise Inconsistent("tiles must name exactly the islands in play (N11)")
    tiles: dict[int, list[int]] = {}
    for name, pair in tiles_rec.items():
        if not isinstance(pair, list) or len(pair) != 2:
            raise Inconsistent(f"{name} must hold 2 tiles (N11)")
        tiles[m.islands.index(name)] = sorted(code(t) for t in pair)
        if volcano in tiles[m.islands.index(name)]:
            raise Inconsistent(f"{name} holds a volcano tile face up (N11)")
    res, bg = [code(t) for t in reserve], [code(t) for t in bag]
    if len(res) != 7 or res.count(volcano) != 1:
        raise Inconsistent("the reserve must be 6 offerings and 1 volcano tile (N11)")
    everything = Counter(res + bg)
    for pair in tiles.values():
        everything.update(pair)
    want = Counter(m.tile_code(t) for t in m.offerings(n))
    want[volcano] = m.volcano_tiles(n)
    if everything != want:
        raise Inconsistent("tiles, reserve and bag are not exactly the tiles of the game "
                           "(N4, N9)")  # fmt: skip
    gods: list[list[int]] = []
    for colour in players:
        held = gods_rec.get(colour)
        if not isinstance(held, list) or any(g not in GODS[:4] for g in held):
            raise Inconsistent(f"gods of {colour} must list gods cards (N10)")
        gods.append(sorted(GODS.index(g) for g in held))
    dealt = sorted(tuple(g) for g in gods)
    allowed = {
        4: sorted([(0,), (1,), (2,), (3,)]),
        3: sorted([(1,), (2,), (3,)]),
        2: sorted([(0, 2), (1, 3)]),
    }[n]
    if dealt != allowed:
        raise Inconsistent("the gods cards are not a deal N10 allows")
    return Game(seed, n, m, dealt=Deal(tiles, res, bg, gods))


NOT_THEIRS = "{where}: the log says {logged} decides, but {decider} decides (N52)"


def _check_action(game: Game, record: dict, where: str) -> int:
    return check_action(game, record, where, refused=Inconsistent, not_theirs=NOT_THEIRS)


def replay_game(records: list[dict], seeded: bool = False, number: int = 0) -> Game:
    """One game: its setup record first. Returns the finished game."""
    setup = records[0]
    label = f"game {number} (seed {setup.get('seed')})"
    try:
        game = game_from_setup(setup, seeded)
    except Inconsistent as exc:
        raise Inconsistent(f"{label}, record 0: {exc}") from None
    game.snapshots = True
    pending: list[dict] = []
    for k, record in enumerate(records[1:], 1):
        where = f"{label}, record {k}"
        kind = record.get("type")
        if kind == "action":
            _pending_done(pending, where)
            decision = _check_action(game, record, where)
            pending = event_records(game, game.apply(decision))
            broken = violations(game)
            if broken:
                raise Inconsistent(f"{where}: invariant broken: {broken[0]}")
        elif kind == "state":
            if not pending or pending[0].get("type") != "state":
                raise Inconsistent(f"{where}: a state record must follow a turn record")
            expected = pending.pop(0)
            for key, value in record.items():
                if key in expected and expected[key] != value:
                    raise Inconsistent(f"{where}: state {key} differs: log {show(value)}, "
                                       f"engine {show(expected[key])}")  # fmt: skip
        elif kind in ("turn", "draw", "reserve", "eruption", "stun", "lost", "volcano",
                      "temple", "card", "result"):  # fmt: skip
            while pending and pending[0].get("type") == "state":
                pending.pop(0)  # the state record is optional
            if not pending:
                raise Inconsistent(f"{where}: {show(record)} that the engine did not produce")
            expected = pending.pop(0)
            if record != expected:
                raise Inconsistent(f"{where}: {kind} differs: log {show(record)}, "
                                   f"engine {show(expected)}")  # fmt: skip
        elif kind == "setup":
            raise Inconsistent(f"{where}: a second setup record without a blank line")
        # Any other type is informational (KANALOA-NOTATION) and ignored.
    _pending_done(pending, f"{label}, end")
    if not game.is_terminal():
        raise Inconsistent(f"{label}: the log ends before the game is over ({game.to_move} "
                           f"decides next)")  # fmt: skip
    return game


def _pending_done(pending: list[dict], where: str) -> None:
    left = [r for r in pending if r.get("type") != "state"]
    if left:
        raise Inconsistent(f"{where}: the log is missing {show(left[0])}")


def split_games(lines: list[str]) -> list[list[dict]]:
    """The records of each game in a log file (``core.logcheck``, shared by the games)."""
    return _split_games(lines, refused=Inconsistent)


def replay_log(lines: list[str], seeded: bool = False) -> list[Game]:
    games = split_games(lines)
    if not games:
        raise Inconsistent("no game in the log")
    return [replay_game(records, seeded, k) for k, records in enumerate(games)]
