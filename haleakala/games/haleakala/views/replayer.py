"""Haleakala's replayer (its ``GameDescription.replay``, run by ``haleakala replay FILE``):
play a game log (or a saved game) again and check every line.

A log is evidence: a bug report, a tournament game, the output of another program. The
replay re-creates the game from the setup line, applies each action (checking who made
it and, when listed, the legal decisions), and compares every record the log carries with
the one the engine produces at that point. The first difference is reported with its line
number (exit 1); input that is not a log at all is misuse (exit 2). A saved game is
checked by replaying its history from its seed: the position reached must be the saved one.
"""

from __future__ import annotations

import json
import re
import sys
from typing import TYPE_CHECKING, Any

from haleakala.core.errors import UsageError
from haleakala.games.haleakala import PLAYERS, VARIANTS, Game, NotationError, SaveError
from haleakala.games.haleakala.log import event_records, setup_record
from haleakala.games.haleakala.serialize import (
    FORMAT,
    JSONLimitError,
    from_json,
    line_of,
    load_json,
    printable,
    to_dict,
)
from haleakala.i18n import english_ngettext
from haleakala.toolkit.textfile import MAX_LOG_BYTES, UnreadableFile, read_text

from .render import describe_result

if TYPE_CHECKING:
    from collections.abc import Iterable

EVENT_TYPES = ("reveal", "lava", "eruption", "scoring", "result")
# Each game's replayer ``(text, label, seeded) -> exit status`` and the ``format`` of its
# saves are in its description (``haleakala.gameapi.GameDescription``); a log names its
# game in its setup record.


class Inconsistent(Exception):
    """The log (or save) disagrees with the engine; the message says where and how, on
    one printable line even when it quotes text from the log (newlines, lone surrogates)."""

    def __init__(self, message: str) -> None:
        super().__init__(printable(message))


class NotALog(Exception):
    """The input is neither a game log nor a saved game."""

    def __init__(self, message: str) -> None:
        super().__init__(printable(message))


def _show(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def difference(logged: Any, engine: Any, path: str = "") -> str | None:
    """The first place where two JSON values differ, as ``path: log X, engine Y``."""
    if isinstance(logged, dict) and isinstance(engine, dict):
        for key in engine:
            where = f"{path}.{key}" if path else key
            if key not in logged:
                return f"{where}: missing in the log (the engine has {_show(engine[key])})"
            found = difference(logged[key], engine[key], where)
            if found:
                return found
        for key in logged:
            if key not in engine:
                where = f"{path}.{key}" if path else key
                return f"{where}: in the log but not produced by the engine"
        return None
    if isinstance(logged, list) and isinstance(engine, list) and len(logged) == len(engine):
        for i, (a, b) in enumerate(zip(logged, engine, strict=True)):
            found = difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    if logged == engine and type(logged) is type(engine):
        return None
    return f"{path or 'record'}: the log has {_show(logged)}, the engine {_show(engine)}"


def _describe(record: dict) -> str:
    kind, get = record.get("type"), record.get
    if kind == "reveal":
        return f"a reveal of {_show(get('card'))} in slot {_show(get('slot'))}"
    if kind == "lava":
        return f"a lava disc on crater {_show(get('segment'))} ({_show(get('cause'))})"
    if kind in ("eruption", "scoring"):
        return f"the {kind} of round {_show(get('round'))}"
    if kind == "result":
        return "the result"
    return _show(record)


def _game_from_setup(setup: dict) -> Game:
    """The game the setup record names (variant, seed, start), checked against its deal."""
    variant, seed, start = setup.get("variant"), setup.get("seed"), setup.get("start")
    if variant not in VARIANTS:
        raise Inconsistent(f"line 1: variant {_show(variant)} is not base or tactical")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise Inconsistent(f"line 1: seed {_show(seed)} is not a whole number")
    if start not in PLAYERS:
        raise Inconsistent(f"line 1: start {_show(start)} is not red or yellow")
    game = Game(variant, seed, start)
    found = difference(setup, setup_record(game))
    if found is not None:
        raise Inconsistent(f"line 1: setup differs: {found}")
    return game


def _legal_difference(logged: Any, engine: list[str]) -> str:
    if not isinstance(logged, list):
        return "it is not a list"
    listed = {str(text) for text in logged}
    missing, extra = sorted(set(engine) - listed), sorted(listed - set(engine))
    parts = []
    if missing:
        parts.append(f"the engine also allows {' '.join(missing[:5])}")
    if extra:
        parts.append(f"the log lists {' '.join(extra[:5])}, which is not legal")
    return "; ".join(parts) or "not the engine's list in sorted order"


def _check_action(game: Game, record: dict, n: int) -> list[dict]:
    """Apply one action record; return the records the engine produced for it."""
    if game.is_terminal():
        raise Inconsistent(f"line {n}: an action after the end of the game")
    text, player = record.get("action"), record.get("player")
    if not isinstance(text, str):
        raise Inconsistent(f"line {n}: an action record needs an action text, like 3@2")
    if player != game.to_move:
        raise Inconsistent(
            f"line {n}: the log says {_show(player)} decides, but it is {game.to_move}'s decision"
        )
    if "legal" in record:
        logged, engine = record["legal"], game.legal_decisions()
        if logged != engine:
            raise Inconsistent(
                f"line {n}: the legal list differs: {_legal_difference(logged, engine)}"
            )
    extra_keys = set(record) - {"type", "player", "action", "legal"}
    if extra_keys:
        raise Inconsistent(f"line {n}: unknown field {sorted(extra_keys)[0]!r} in an action")
    try:
        decision = game.parse(text)
    except NotationError as exc:
        raise Inconsistent(f"line {n}: {text!r} is not a decision: {exc}") from None
    reason = game.why_illegal(decision)
    if reason is not None:
        raise Inconsistent(f"line {n}: {player}'s {text!r} is not legal here: {reason}")
    if game.format(decision) != text:
        raise Inconsistent(
            f"line {n}: {text!r} is not written in notation (it is {game.format(decision)!r})"
        )
    return event_records(game, game.apply(decision))


def replay_log(lines: Iterable[str]) -> Game:
    """Check a game log line by line; return the finished game or raise ``Inconsistent``
    (with the line number) or ``NotALog``."""
    numbered = [(n, raw) for n, raw in enumerate(lines, 1) if raw.strip()]
    if not numbered:
        raise NotALog("line 1: it is empty")
    n, first = numbered[0]
    try:
        setup = load_json(first)
    except json.JSONDecodeError as exc:
        raise NotALog(f"line {n} is not JSON ({exc.msg})") from None
    if not isinstance(setup, dict) or setup.get("type") != "setup":
        raise NotALog(f"line {n} is not a setup record; a game log starts with one")
    if n != 1:
        raise NotALog("a game log starts with its setup record on line 1")
    return _replay_records(_game_from_setup(setup), numbered[1:])


def _replay_records(game: Game, numbered: list[tuple[int, str]]) -> Game:
    pending: list[dict] = []
    n = 1
    for n, raw in numbered:
        try:
            record = load_json(raw)
        except json.JSONDecodeError as exc:
            raise Inconsistent(f"line {n}: not a JSON record ({exc.msg})") from None
        kind = record.get("type") if isinstance(record, dict) else None
        if kind == "action":
            if pending:
                raise Inconsistent(
                    f"line {n}: the log is missing a record before this action: the engine "
                    f"produced {_describe(pending[0])}"
                )
            pending = _check_action(game, record, n)
        elif kind in EVENT_TYPES:
            if not pending:
                raise Inconsistent(f"line {n}: {_describe(record)} that the engine did not produce")
            expected = pending.pop(0)
            found = difference(record, expected)
            if found:
                raise Inconsistent(f"line {n}: {kind} differs: {found}")
        elif kind == "hint":
            continue  # the coach's advice (NOTATION.md): changes nothing in the game
        elif kind == "setup":
            raise Inconsistent(f"line {n}: a second setup record")
        else:
            raise Inconsistent(f"line {n}: unknown record type {_show(kind)}")
    if pending:
        raise Inconsistent(
            f"line {n + 1}: the log ends early: the engine produced {_describe(pending[0])}"
        )
    if not game.is_terminal():
        raise Inconsistent(
            f"line {n + 1}: the log ends before the game is over ({game.to_move} to decide)"
        )
    return game


def replay_save(text: str) -> tuple[Game, Game]:
    """Replay a saved game's history from its seed; return (saved, replayed) or raise."""
    try:
        saved = from_json(text)
    except SaveError as exc:
        why = str(exc)
        raise NotALog(
            why if why.startswith("not a saved game") else f"not a valid saved game: {why}"
        ) from None
    replayed = _replay_history(Game(saved.variant, saved.seed, PLAYERS[saved.start]), saved, text)
    return saved, replayed


def _replay_history(replayed: Game, saved: Game, text: str = "") -> Game:
    for i, decision in enumerate(saved.history):
        reason = replayed.why_illegal(decision)
        if reason is not None:
            raise Inconsistent(
                f"history[{i}] (line {line_of(text, f'$.history[{i}]')}): "
                f"{replayed.format(decision)!r} is not legal here: {reason}"
            )
        replayed.apply(decision)
    if replayed.digest() != saved.digest():
        found = difference(to_dict(saved, history=False), to_dict(replayed, history=False)) or ""
        field = re.split(r"[:.\[]", found, maxsplit=1)[0]
        raise Inconsistent(
            f"line {line_of(text, f'$.{field}')}: "
            f"the saved position is not where its history leads "
            f"(digest {saved.digest()}, replayed {replayed.digest()}): "
            f"{found.replace('the log has', 'the save has')}",
        )
    return replayed


def _read(name: str) -> str:
    try:
        return read_text(name, MAX_LOG_BYTES)
    except UnreadableFile as exc:
        raise UsageError(str(exc)) from None


_SAVE_MARK = re.compile(r'"format"\s*:\s*"' + FORMAT + '"')


def _is_save(text: str) -> bool:
    """A save is one JSON object with the save format; a log is one object per line, so
    the whole text of a log does not parse. Text beyond the JSON limits is judged by its
    format field, so a save gets the save's error message (with the right line)."""
    try:
        data = load_json(text)
    except JSONLimitError:
        return bool(_SAVE_MARK.search(text))
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


def result_lines(game: Game) -> list[str]:
    result = game.result()
    if result is None:
        return [f"game not over: {game.to_move} to decide ({game.phase_name}), round {game.round}"]
    red, yellow = result.scores
    return [
        f"result: red {red}, yellow {yellow}, winner {result.winner}, "
        f"tiebreak {result.tiebreak or 'none'}",
        describe_result(result),
    ]


def _decisions(game: Game) -> str:
    """``1 decision``, ``80 decisions`` (the replay check speaks English to developers)."""
    n = len(game.history)
    return f"{n} {english_ngettext('decision', 'decisions', n)}"


def replay_haleakala(text: str, label: str, seeded: bool = False) -> int:
    """Haleakala's replayer (its ``GameDescription.replay``): check a log or a save and
    print the result; 1 at the first difference, misuse when the text is neither."""
    try:
        if _is_save(text):
            _, game = replay_save(text)
            print(f"replay OK: saved game {label}, {_decisions(game)}, position matches")
        else:
            game = replay_log(text.splitlines())
            print(f"replay OK: game log {label}, {_decisions(game)}")
    except NotALog as exc:
        raise UsageError(printable(f"{label} is not a game log or a saved game: {exc}")) from None
    except Inconsistent as exc:
        print(printable(str(exc)), file=sys.stdout)
        return 1
    for line in result_lines(game):
        print(line)
    return 0
