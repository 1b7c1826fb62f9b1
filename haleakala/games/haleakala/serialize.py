"""Saving and loading a game as JSON, and the digest that identifies a position.

A save file may have been hand-edited, cut short or written by another version, so
loading checks every field and every cross-field fact (each card in exactly one place,
discs and statues counted, shamans apart) and names the path of the first bad field,
e.g. ``$.piles[1][3]: card 77 does not exist``. A loaded game is always a valid game.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from haleakala.core.errors import SaveError
from haleakala.core.jsonread import (  # noqa: F401  (importable from here before)
    ASCII_DIGITS,
    MAX_DEPTH,
    MAX_DIGITS,
    JSONLimitError,
    load_json,
    printable,
)

from .deck import BOARD_ITEMS
from .game import FACE_DOWN, NO_OWNER, PHASE_NAMES, PLAYERS, VARIANTS, Game, use_codec
from .notation import NotationError, code_table, parse_decision, text_table
from .scoring import PLAYER_FACTS, POINT_KEYS, Scoring

FORMAT = "haleakala-game"
VERSION = 1
# Queue steps and the range of each value: p player, s segment, o player or -1, c card,
# r round.
QUEUE_STEPS = {
    "end": "", "choose": "pso", "act": "pc", "priestess": "p", "discs_back": "s",
    "refill": "", "prescore": "p", "score": "r",
}  # fmt: skip
CONTEXTS = {"turn": "", "shaman": "", "card": "so", "priestess": "k", "shell": "c",
            "prescore": "", "over": ""}  # fmt: skip


# The JSON limits, the reader and the save error are every game's (``haleakala.core``);
# importable from here as before.


def to_dict(game: Game, history: bool = True) -> dict[str, Any]:
    b = game.board
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "variant": game.variant,
        "seed": game.seed,
        "start": PLAYERS[game.start],
        "round": game.round,
        "current": PLAYERS[game.current],
        "decider": PLAYERS[game.decider],
        "phase": PHASE_NAMES[game.phase],
        "context": list(game.context),
        "boat": game.boat,
        "discs": {
            c: {str(v): game.disc_at[p][v] for v in b.discs if game.disc_at[p][v] >= 0}
            for p, c in enumerate(PLAYERS)
        },
        "invocation": {
            c: game.invocation[p] for p, c in enumerate(PLAYERS) if game.invocation[p] != -2
        },
        "shamans": {c: b.space_name(game.shaman[p]) for p, c in enumerate(PLAYERS)},
        "statues": {b.space_name(s): PLAYERS[o] for s, o in enumerate(game.statue_owner) if o >= 0},
        "lava": game.lava,
        "piles": game.piles,
        "slots": game.slots,
        "discard": game.discard,
        "beach_cards": {c: game.beach_cards[p] for p, c in enumerate(PLAYERS)},
        "shells": {c: game.shells[p] for p, c in enumerate(PLAYERS)},
        "scoring_board": {
            code: (
                "available"
                if game.board_owner[i] == NO_OWNER
                else "face_down"
                if game.board_owner[i] == FACE_DOWN
                else PLAYERS[game.board_owner[i]]
            )
            for i, code in enumerate(BOARD_ITEMS)
        },
        "queue": [list(step) for step in game.queue],
        "scorings": [scoring.to_record() for scoring in game.scorings],
    }
    if history:
        text = text_table(b)
        data["history"] = [text[d] for d in game.history]
    return data


def to_json(game: Game) -> str:
    return json.dumps(to_dict(game), separators=(",", ":"), sort_keys=True)


def digest(game: Game) -> str:
    """SHA-256 (first 16 hex digits) of the canonical JSON of the position, history aside."""
    text = json.dumps(to_dict(game, history=False), separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# -- loading --------------------------------------------------------------------------


def _fail(path: str, why: str) -> SaveError:
    return SaveError(printable(f"{path}: {why}"), path)


def _shown(value: Any) -> str:
    """A value from the save as it reads in JSON, cut to 40 characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):  # from_dict given a non-JSON value
        text = repr(value)
    return text[:40]


def _get(data: dict, key: str, kind: type | tuple[type, ...], path: str = "$") -> Any:
    if not isinstance(data, dict):
        raise _fail(path, "expected an object")
    if key not in data:
        raise _fail(f"{path}.{key}", "missing")
    value = data[key]
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise _fail(f"{path}.{key}", f"expected {names}, got {_shown(value)}")
    return value


def _choice(data: dict, key: str, options: tuple[str, ...], path: str = "$") -> str:
    value = _get(data, key, str, path)
    if value not in options:
        raise _fail(f"{path}.{key}", f"{value!r} is not one of {', '.join(options)}")
    return value


def _int_in(value: Any, lo: int, hi: int, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _fail(path, f"expected a whole number {lo}..{hi}, got {_shown(value)}")
    return value


def from_json(text: str, check_history: bool = False) -> Game:
    """Load a save; with ``check_history``, also replay its history from the deal and
    refuse the save unless it leads to the saved position. Any problem is a one-line
    ``SaveError`` naming the field and, when the field is in the text, its line."""
    try:
        data = load_json(text)
    except JSONLimitError as exc:
        raise SaveError(f"not a saved game: line {exc.lineno}: {exc.msg}") from None
    except json.JSONDecodeError as exc:
        raise SaveError(f"not a saved game: invalid JSON at line {exc.lineno}: {exc.msg}") from None
    try:
        game = from_dict(data)
        if check_history:
            verify_history(game)
    except SaveError as exc:
        shown = printable(exc.path)
        where = f"{shown} (line {line_of(text, exc.path)})"
        message, at = str(exc), str(exc).find(shown)
        if at >= 0:
            message = message[:at] + where + message[at + len(shown) :]
        else:
            message = f"{message} ({where})"
        raise SaveError(message, exc.path) from None
    return game


def verify_history(saved: Game) -> None:
    """Replay ``saved.history`` from the saved deal (variant, seed, start player) and
    refuse the save unless every decision is legal in turn and the position reached is the
    saved one: a save whose position was edited by hand (or whose history was) is not the
    game it claims to be."""
    game = type(saved)(saved.variant, saved.seed, PLAYERS[saved.start])
    for i, decision in enumerate(saved.history):
        reason = game.why_illegal(decision)
        if reason is not None:
            raise _fail(f"$.history[{i}]", f"{game.format(decision)!r} is not legal here: {reason}")
        game.apply(decision)
    if game.digest() == saved.digest():
        return
    mine, theirs = to_dict(saved, history=False), to_dict(game, history=False)
    key = next((k for k in sorted(mine) if mine[k] != theirs.get(k)), "")
    raise _fail(
        f"$.{key}" if key else "$",
        f"the saved position is not where its history leads (the save has "
        f"{_shown(mine.get(key))}, {len(saved.history)} decisions lead to "
        f"{_shown(theirs.get(key))})",
    )


_LOCATE_TOKEN = re.compile(r'"(?:[^"\\]|\\[\s\S])*"|[\[\]{}:,]|[^\s\[\]{}:,"]+')


def _value_offsets(text: str) -> dict[str, int]:
    """Where each value of a (well-formed) JSON text starts, by its ``$.a[0].b`` path; a
    repeated key counts where json.loads takes it from, its last occurrence."""
    where: dict[str, int] = {}
    stack: list[list[Any]] = []  # [path, key or index, is an object]
    expect_key = False
    for match in _LOCATE_TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first in ",:":
            if first == "," and stack:
                if stack[-1][2]:
                    expect_key = True
                else:
                    stack[-1][1] += 1
            continue
        if first in "]}":
            if stack:
                stack.pop()
            expect_key = False
            continue
        if expect_key and first == '"':
            try:
                stack[-1][1] = json.loads(token)
            except ValueError:
                stack[-1][1] = token[1:-1]
            expect_key = False
            continue
        if not stack:
            path = "$"
        elif stack[-1][2]:
            path = f"{stack[-1][0]}.{stack[-1][1]}"
        else:
            path = f"{stack[-1][0]}[{stack[-1][1]}]"
        where[path] = match.start()
        if first == "{":
            stack.append([path, None, True])
            expect_key = True
        elif first == "[":
            stack.append([path, 0, False])
    return where


def line_of(text: str, path: str) -> int:
    """The line of the value at ``path`` in a JSON text, or of its nearest enclosing value
    when it is missing (a missing field is reported on its object's line)."""
    where = _value_offsets(text)
    while path not in where and len(path) > 1:
        cut = max(path.rfind("."), path.rfind("["))
        path = path[:cut] if cut > 0 else "$"
    return text.count("\n", 0, where.get(path, 0)) + 1


SCORING_KEYS = ("round", "players")
SCORING_FACTS = PLAYER_FACTS
MAX_POINTS = 999  # far above any real scoring; keeps hand-edited numbers printable


def _fields(record: Any, keys: tuple[str, ...], path: str) -> dict:
    """An object with exactly ``keys``: a missing or an unknown one is named."""
    if not isinstance(record, dict):
        raise _fail(path, f"expected an object with {', '.join(keys)}")
    for key in keys:
        if key not in record:
            raise _fail(f"{path}.{key}", "missing")
    for key in record:
        if key not in keys:
            raise _fail(f"{path}.{key}", f"unknown field (expected {', '.join(keys)})")
    return record


def _names(value: Any, allowed: set[str] | tuple[str, ...], what: str, path: str) -> list[str]:
    if not isinstance(value, list):
        raise _fail(path, f"expected a list of {what}")
    for i, item in enumerate(value):
        if not isinstance(item, str) or item not in allowed:
            raise _fail(f"{path}[{i}]", f"{_shown(item)} is not one of the {what}")
    return value


def _scoring(g: Game, record: Any, i: int) -> Scoring:
    """One scoring record, checked as deeply as rendering and ``result`` read it (each
    total is the previous one plus this scoring's points), as the value the game keeps."""
    path = f"$.scorings[{i}]"
    _fields(record, SCORING_KEYS, path)
    if _int_in(record["round"], 1, 2, f"{path}.round") != i + 1:
        raise _fail(f"{path}.round", f"scoring record {i + 1} is the one of round {i + 1}")
    players = _fields(record["players"], PLAYERS, f"{path}.players")
    b, deck = g.board, g.deck
    spaces = {b.space_name(s) for s in range(b.land_spaces)}
    codes = {card.code for card in deck.cards}
    for colour in PLAYERS:
        where = f"{path}.players.{colour}"
        facts = _fields(players[colour], SCORING_FACTS, where)
        points = _fields(facts["points"], POINT_KEYS, f"{where}.points")
        gained = sum(_int_in(points[k], 0, MAX_POINTS, f"{where}.points.{k}") for k in POINT_KEYS)
        before = g.scorings[-1].of(colour).total if g.scorings else 0
        total = _int_in(facts["total"], 0, 2 * MAX_POINTS, f"{where}.total")
        if total != before + gained:
            raise _fail(
                f"{where}.total", f"{total} is not {before} before plus {gained} points scored"
            )
        _names(facts["statues"], spaces, "statue spaces (like 2F)", f"{where}.statues")
        _int_in(facts["baskets"], 0, MAX_POINTS, f"{where}.baskets")
        _names(facts["cards"], codes, "card codes", f"{where}.cards")
        _int_in(facts["shells"], 0, len(deck.cards), f"{where}.shells")
        _names(facts["scoring_cards"], BOARD_ITEMS, "scoring-board items", f"{where}.scoring_cards")
    return Scoring.from_record(record)


def from_dict(data: Any) -> Game:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f"not a saved game: $.format must be {FORMAT!r}", "$.format")
    version = _get(data, "version", int)
    if version != VERSION:
        raise _fail("$.version", f"this is version {version}; this program reads version {VERSION}")
    variant = _choice(data, "variant", VARIANTS)
    seed = _get(data, "seed", int)
    start = _choice(data, "start", PLAYERS)
    g = Game(variant, seed, start)
    b, deck = g.board, g.deck
    n_seg = b.segments
    g.round = _int_in(_get(data, "round", int), 1, 2, "$.round")
    g.current = PLAYERS.index(_choice(data, "current", PLAYERS))
    g.decider = PLAYERS.index(_choice(data, "decider", PLAYERS))
    g.phase = PHASE_NAMES.index(_choice(data, "phase", PHASE_NAMES))
    g.boat = _int_in(_get(data, "boat", int), 0, n_seg - 1, "$.boat")

    discs = _get(data, "discs", dict)
    g.disc_at = [[-1] * 6, [-1] * 6]
    g.totals = [[0] * n_seg, [0] * n_seg]
    for p, colour in enumerate(PLAYERS):
        mine = _get(discs, colour, dict, "$.discs")
        for value, beach in mine.items():
            path = f"$.discs.{colour}.{value}"
            if len(value) != 1 or value not in ASCII_DIGITS or int(value) not in b.discs:
                raise _fail(path, "there is no such number disc (1..5)")
            g.disc_at[p][int(value)] = _int_in(beach, 0, n_seg - 1, path)
            g.totals[p][beach] += int(value)
    for beach in range(n_seg):
        red, yellow = g.totals[0][beach], g.totals[1][beach]
        if red == yellow and red:
            raise _fail("$.discs", f"beach {beach} has equal totals {red} (R7)")

    inv = _get(data, "invocation", dict)
    for p, colour in enumerate(PLAYERS):
        if g.tactical:
            g.invocation[p] = _int_in(
                _get(inv, colour, int, "$.invocation"), -1, n_seg - 1, f"$.invocation.{colour}"
            )
        elif colour in inv:
            raise _fail(f"$.invocation.{colour}", "there are no invocation discs in the base game")

    shamans = _get(data, "shamans", dict)
    for p, colour in enumerate(PLAYERS):
        name = _get(shamans, colour, str, "$.shamans")
        space = b.parse_space(name)
        hut = b.land_spaces + b.huts[p]
        if space is None or (space >= b.land_spaces and space != hut):
            raise _fail(f"$.shamans.{colour}", f"{name!r} is not a space a shaman can stand on")
        g.shaman[p] = space
    if g.shaman[0] == g.shaman[1]:
        raise _fail("$.shamans", "both shamans on one space (R8)")

    g.statue_owner = [NO_OWNER] * b.land_spaces
    for name, colour in _get(data, "statues", dict).items():
        space = b.parse_space(name)
        if space is None or space >= b.land_spaces:
            raise _fail(f"$.statues.{name}", "statues stand on grassland, forest or mountain")
        if colour not in PLAYERS:
            raise _fail(f"$.statues.{name}", f"{colour!r} is not red or yellow")
        g.statue_owner[space] = PLAYERS.index(colour)
    for p in (0, 1):
        built = g.statue_owner.count(p)
        if built > b.statues:
            raise _fail("$.statues", f"{PLAYERS[p]} has {built} statues; there are {b.statues}")
        g.statues_left[p] = b.statues - built

    lava = _get(data, "lava", list)
    if len(lava) != n_seg:
        raise _fail("$.lava", f"expected {n_seg} craters")
    g.lava = [_int_in(v, 0, b.lava_discs, f"$.lava[{i}]") for i, v in enumerate(lava)]
    if sum(g.lava) > b.lava_discs:
        raise _fail("$.lava", f"{sum(g.lava)} lava discs; there are {b.lava_discs}")

    n_cards = len(deck.cards)
    seen: dict[int, str] = {}

    def cards(value: Any, path: str, allow_empty: bool = False) -> list[int]:
        if not isinstance(value, list):
            raise _fail(path, "expected a list of card numbers")
        out = []
        for i, c in enumerate(value):
            if allow_empty and c == -1:
                out.append(-1)
                continue
            _int_in(c, 0, n_cards - 1, f"{path}[{i}]")
            if c in seen:
                raise _fail(f"{path}[{i}]", f"card {c} is also at {seen[c]}")
            if g.tactical and deck.cards[c].kind == "lava":
                raise _fail(f"{path}[{i}]", "lava cards are not used in the tactical variant")
            seen[c] = f"{path}[{i}]"
            out.append(c)
        return out

    piles = _get(data, "piles", list)
    if len(piles) != len(deck.piles):
        raise _fail("$.piles", f"expected {len(deck.piles)} piles")
    g.piles = [cards(pile, f"$.piles[{i}]") for i, pile in enumerate(piles)]
    for i, pile in enumerate(g.piles):
        for j, c in enumerate(pile):
            if deck.pile_of_card[c] != i:
                where = deck.pile_of_card[c]
                raise _fail(f"$.piles[{i}][{j}]", f"card {c} belongs to pile {where}")
    g.slots = cards(_get(data, "slots", list), "$.slots", allow_empty=True)
    if len(g.slots) != b.slots:
        raise _fail("$.slots", f"expected {b.slots} slots")
    g.discard = cards(_get(data, "discard", list), "$.discard")
    for p, colour in enumerate(PLAYERS):
        g.beach_cards[p] = cards(
            _get(_get(data, "beach_cards", dict), colour, list, "$.beach_cards"),
            f"$.beach_cards.{colour}",
        )
        g.shells[p] = cards(
            _get(_get(data, "shells", dict), colour, list, "$.shells"), f"$.shells.{colour}"
        )
        for c in g.beach_cards[p]:
            if deck.cards[c].kind != "beach":
                raise _fail(f"$.beach_cards.{colour}", f"card {c} is not a beach card")
        for c in g.shells[p]:
            if deck.cards[c].kind != "shell":
                raise _fail(f"$.shells.{colour}", f"card {c} is not a shell")
    expected = {n for n in range(n_cards) if not (g.tactical and deck.cards[n].kind == "lava")}
    missing = sorted(expected - set(seen))
    if missing:
        raise _fail("$", f"cards {missing[:5]} are nowhere (every card must be in one place)")

    board = _get(data, "scoring_board", dict)
    for i, code in enumerate(BOARD_ITEMS):
        state = _get(board, code, str, "$.scoring_board")
        if state == "available":
            g.board_owner[i] = NO_OWNER
        elif state == "face_down" and code == "priestess":
            g.board_owner[i] = FACE_DOWN
        elif state in PLAYERS and code != "priestess":
            g.board_owner[i] = PLAYERS.index(state)
        else:
            raise _fail(f"$.scoring_board.{code}", f"{state!r} is not a possible state")

    ranges = {"p": (0, 1), "s": (0, n_seg - 1), "o": (-1, 1), "c": (0, n_cards - 1),
              "k": (-1, n_cards - 1), "r": (1, 2)}  # fmt: skip

    def values(items: Any, kinds: str, path: str) -> tuple:
        if not isinstance(items, list) or len(items) != len(kinds):
            raise _fail(path, f"expected {len(kinds)} values")
        return tuple(
            _int_in(v, *ranges[k], f"{path}[{j}]")
            for j, (v, k) in enumerate(zip(items, kinds, strict=True))
        )

    g.queue = []
    for i, step in enumerate(_get(data, "queue", list)):
        path = f"$.queue[{i}]"
        if not isinstance(step, list) or not step or not isinstance(step[0], str):
            raise _fail(path, "not a known step")
        if step[0] not in QUEUE_STEPS:
            raise _fail(path, "not a known step")
        g.queue.append((step[0], *values(step[1:], QUEUE_STEPS[step[0]], path)))
    g.context = values(_get(data, "context", list), CONTEXTS[PHASE_NAMES[g.phase]], "$.context")
    scorings = _get(data, "scorings", list)
    done = 2 if g.phase == PHASE_NAMES.index("over") else g.round - 1
    if len(scorings) != done:
        raise _fail(
            "$.scorings", f"expected {done} scoring records in round {g.round} ({g.phase_name})"
        )
    g.scorings = []
    for i, record in enumerate(scorings):
        g.scorings.append(_scoring(g, record, i))
    g.history = []
    codes = code_table(b)
    for i, entry in enumerate(_get(data, "history", list) if "history" in data else []):
        decision = codes.get(entry) if isinstance(entry, str) else None
        if decision is None:
            try:
                decision = parse_decision(str(entry), b)
            except NotationError as exc:
                raise _fail(f"$.history[{i}]", str(exc)) from None
        g.history.append(decision)
    if g.phase != PHASE_NAMES.index("over") and not g.legal_actions():
        raise _fail("$.phase", f"{g.phase_name} has no legal decision in this position")
    if g.phase == PHASE_NAMES.index("over") and len(g.scorings) != 2:
        raise _fail("$.phase", "a finished game has two scorings")
    return g


# ``game`` cannot import this module (this one imports ``game``): hand it the functions
# behind ``Game.to_json``, ``digest``, ``from_json`` and ``observation``.
use_codec(to_dict=to_dict, to_json=to_json, digest=digest, from_json=from_json)
