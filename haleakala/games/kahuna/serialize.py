"""Saving and loading a Kahuna game as JSON (versioned, validated), and its digest.

A save may be hand-edited, cut short or from another version, so loading checks every
field and the cross-field facts the rules keep (24 cards each in one place, at most 25
bridges and 10 stones, a stone only where its owner has the majority, hands of at most
5) and names the path of the first bad field, e.g. ``$.hands.white[2]: 'Atlantis' is not an
island``. A loaded game is always a valid game.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from haleakala.core.errors import SaveError as _BaseSaveError
from haleakala.core.jsonread import load_json

from .game import NONE, OVER, PHASE_NAMES, PLAYERS, Game, Result, use_codec
from .notation import NotationError, parse_decision

FORMAT = "kahuna-game"
VERSION = 1
REASONS = ("points", "third", "bridges", "draw", "wipeout")


class SaveError(_BaseSaveError):
    """A save that cannot be loaded; the message names the field and what is wrong."""


def to_dict(game: Game, history: bool = True) -> dict[str, Any]:
    b = game.board
    names = b.islands

    def cards(seq: list[int]) -> list[str]:
        return [names[c] for c in seq]

    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "seed": game.seed,
        "start": PLAYERS[game.start],
        "round": game.round,
        "to_move": PLAYERS[game.current],
        "phase": PHASE_NAMES[game.phase],
        "must_draw": game.must_draw,
        "last_turns": game.last_turns,
        "hands": {c: game.hand_cards(p) for p, c in enumerate(PLAYERS)},
        "known": {
            c: [names[i] for i, n in enumerate(game.known[p]) for _ in range(n)]
            for p, c in enumerate(PLAYERS)
        },
        "display": [names[c] if c != NONE else None for c in game.display],
        "pile": cards(game.pile),
        "discard": cards(game.discard),
        "buried": {c: cards(game.buried[p]) for p, c in enumerate(PLAYERS)},
        "bridges": {b.line_names[i]: PLAYERS[o] for i, o in enumerate(game.bridge) if o >= 0},
        "stones": {names[i]: PLAYERS[o] for i, o in enumerate(game.stone) if o >= 0},
        "points": [list(p) for p in game.points],
        "shuffles": game.shuffles,
        "result": game.outcome.to_dict() if game.outcome else None,
    }
    if history:
        data["history"] = [game.format(d) for d in game.history]
    return data


def to_json(game: Game) -> str:
    return json.dumps(to_dict(game), separators=(",", ":"))


def digest(game: Game) -> str:
    text = json.dumps(to_dict(game, history=False), separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _need(cond: bool, path: str, message: str) -> None:
    if not cond:
        raise SaveError(f"{path}: {message}")


def _int(value: Any, path: str, lo: int, hi: int) -> int:
    _need(
        isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi,
        path,
        f"{value!r} must be a whole number from {lo} to {hi}",
    )
    return value


def _player(value: Any, path: str) -> int:
    _need(value in PLAYERS, path, f"{value!r} must be white or black")
    return PLAYERS.index(value)


def from_dict(data: Any) -> Game:
    _need(isinstance(data, dict), "$", "a saved Kahuna game is a JSON object")
    _need(data.get("format") == FORMAT, "$.format", f"must be {FORMAT!r}")
    _need(
        data.get("version") == VERSION,
        "$.version",
        f"{data.get('version')!r} is not a version this program reads ({VERSION})",
    )
    seed = data.get("seed")
    _need(isinstance(seed, int) and not isinstance(seed, bool), "$.seed", "must be an integer")
    game = Game(seed, data.get("start") if data.get("start") in PLAYERS else None)
    _player(data.get("start"), "$.start")
    b = game.board
    names = b.islands

    def card(value: Any, path: str) -> int:
        _need(value in names, path, f"{value!r} is not an island ({' '.join(names)})")
        return names.index(value)

    def card_list(value: Any, path: str) -> list[int]:
        _need(isinstance(value, list), path, "must be a list of island names")
        return [card(v, f"{path}[{i}]") for i, v in enumerate(value)]

    def by_player(value: Any, path: str) -> dict:
        _need(
            isinstance(value, dict) and set(value) == set(PLAYERS),
            path,
            "must name white and black",
        )
        return value

    game.round = _int(data.get("round"), "$.round", 1, 3)
    game.current = game.decider = _player(data.get("to_move"), "$.to_move")
    phase = data.get("phase")
    _need(phase in PHASE_NAMES, "$.phase", f"{phase!r} must be one of {', '.join(PHASE_NAMES)}")
    game.phase = PHASE_NAMES.index(phase)
    _need(isinstance(data.get("must_draw"), bool), "$.must_draw", "must be true or false")
    game.must_draw = data["must_draw"]
    game.last_turns = _int(data.get("last_turns"), "$.last_turns", 0, 2)
    hands = by_player(data.get("hands"), "$.hands")
    known = by_player(data.get("known"), "$.known")
    buried = by_player(data.get("buried"), "$.buried")
    places: list[int] = []
    for p, c in enumerate(PLAYERS):
        counts = [0] * len(names)
        for x in card_list(hands[c], f"$.hands.{c}"):
            counts[x] += 1
        _need(sum(counts) <= b.hand_limit, f"$.hands.{c}", f"more than {b.hand_limit} cards (K22)")
        game.hands[p] = counts
        places += [i for i, n in enumerate(counts) for _ in range(n)]
        seen = [0] * len(names)
        for x in card_list(known[c], f"$.known.{c}"):
            seen[x] += 1
        _need(
            all(s <= h for s, h in zip(seen, counts, strict=True)),
            f"$.known.{c}",
            "names a card that is not in the hand",
        )
        game.known[p] = seen
        game.buried[p] = card_list(buried[c], f"$.buried.{c}")
        places += game.buried[p]
    display = data.get("display")
    _need(isinstance(display, list) and len(display) == b.display, "$.display", "3 slots")
    game.display = [
        NONE if v is None else card(v, f"$.display[{i}]") for i, v in enumerate(display)
    ]
    places += [c for c in game.display if c != NONE]
    game.pile = card_list(data.get("pile"), "$.pile")
    game.discard = card_list(data.get("discard"), "$.discard")
    places += game.pile + game.discard
    expected = sorted(i for i in range(len(names)) for _ in range(b.cards_per_island))
    _need(sorted(places) == expected, "$", "the cards must be exactly 2 of each island (K2)")
    bridges = data.get("bridges")
    _need(isinstance(bridges, dict), "$.bridges", "must map lines to players")
    game.bridge = [NONE] * len(b.lines)
    for line_name, owner in bridges.items():
        _need(line_name in b.line_names, f"$.bridges.{line_name}", "no such line (K1)")
        game.bridge[b.line_names.index(line_name)] = _player(owner, f"$.bridges.{line_name}")
    stones = data.get("stones")
    _need(isinstance(stones, dict), "$.stones", "must map islands to players")
    game.stone = [NONE] * len(names)
    for island, owner in stones.items():
        i = card(island, f"$.stones.{island}")
        game.stone[i] = p = _player(owner, f"$.stones.{island}")
        _need(game.has_majority(p, i), f"$.stones.{island}", f"{owner} lacks the majority (K5)")
    for p, c in enumerate(PLAYERS):
        _need(game.bridges_left(p) >= 0, "$.bridges", f"{c} has more than {b.bridges} (K3)")
        _need(game.stones_left(p) >= 0, "$.stones", f"{c} has more than {b.stones} (K3)")
    points = data.get("points")
    _need(isinstance(points, list) and len(points) <= 3, "$.points", "a list of scorings")
    game.points = []
    for i, pair in enumerate(points):
        _need(isinstance(pair, list) and len(pair) == 2, f"$.points[{i}]", "[white, black]")
        game.points.append(
            (_int(pair[0], f"$.points[{i}][0]", 0, 12), _int(pair[1], f"$.points[{i}][1]", 0, 12))
        )
    shuffles = data.get("shuffles")
    _need(isinstance(shuffles, list), "$.shuffles", "a list of sizes")
    game.shuffles = [_int(n, f"$.shuffles[{i}]", 0, 24) for i, n in enumerate(shuffles)]
    _need(
        len(game.shuffles) == game.round - 1,
        "$.shuffles",
        "one shuffle per round started after the first (K25)",
    )
    result = data.get("result")
    if game.phase == OVER:
        _need(isinstance(result, dict), "$.result", "a finished game needs its result")
        winner = result.get("winner")
        _need(winner is None or winner in PLAYERS, "$.result.winner", "white, black or null")
        _need(result.get("reason") in REASONS, "$.result.reason", f"one of {', '.join(REASONS)}")
        game.outcome = Result(game.totals(), winner, result["reason"])
    else:
        _need(result is None, "$.result", "only a finished game has a result")
    history = data.get("history", [])
    _need(isinstance(history, list), "$.history", "a list of decisions")
    try:
        game.history = [parse_decision(t, b) for t in history]
    except NotationError as exc:
        raise SaveError(f"$.history: {exc}") from None
    game._legal = None
    return game


def from_json(text: str) -> Game:
    try:
        data = load_json(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"not JSON ({exc.msg} at line {exc.lineno})") from None
    return from_dict(data)


# ``game`` cannot import this module (this one imports ``game``): hand it the functions
# behind ``Game.to_json``, ``digest``, ``from_json`` and ``observation``.
use_codec(to_dict=to_dict, to_json=to_json, digest=digest, from_json=from_json)
