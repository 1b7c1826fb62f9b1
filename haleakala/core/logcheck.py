"""The checks every game's replayer makes of one action record of a game log, once for all
games: the decider, the legal list, canonical notation and legality (NOTATION.md and each
game's own notation document: a log proves itself decision by decision)."""

from __future__ import annotations

import json
from typing import Any

from .errors import NotationError
from .jsonread import load_json


def show(value: Any) -> str:
    """A logged value as JSON, cut to 60 characters, for a sentence about the log."""
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_action(
    game: Any, record: dict, where: str, *, refused: type[Exception], not_theirs: str
) -> int:
    """The decision code of ``record`` (an action record) in ``game``; else ``refused``
    with a sentence naming the record (``where``). ``not_theirs`` is the game's sentence for
    a record made by the wrong player, with ``{where}``, ``{logged}`` and ``{decider}``."""
    text, player = record.get("action"), record.get("player")
    if game.is_terminal():
        raise refused(f"{where}: an action after the end of the game")
    if player != game.to_move:
        raise refused(not_theirs.format(where=where, logged=show(player), decider=game.to_move))
    if "legal" in record and record["legal"] != game.legal_decisions():
        logged = set(map(str, record["legal"])) if isinstance(record["legal"], list) else set()
        engine = set(game.legal_decisions())
        raise refused(
            f"{where}: the legal list differs: missing {sorted(engine - logged)[:5]}, "
            f"extra {sorted(logged - engine)[:5]}"
        )
    if not isinstance(text, str):
        raise refused(f"{where}: an action record needs an action text")
    try:
        decision = game.parse(text)
    except NotationError as exc:
        raise refused(f"{where}: {text!r} is not a decision: {exc}") from None
    if game.format(decision) != text:
        raise refused(f"{where}: {text!r} is not canonical (it is {game.format(decision)!r})")
    reason = game.why_illegal(decision)
    if reason is not None:
        raise refused(f"{where}: {player}'s {text!r} is not legal here: {reason}")
    return int(decision)


def split_games(lines: list[str], *, refused: type[Exception]) -> list[list[dict]]:
    """The records of each game in a log file (a game starts with its setup record; blank
    lines are skipped); else ``refused`` with a sentence naming the line."""
    games: list[list[dict]] = []
    for n, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            record = load_json(raw)
        except json.JSONDecodeError as exc:
            raise refused(f"line {n}: not a JSON record ({exc.msg})") from None
        if not isinstance(record, dict):
            raise refused(f"line {n}: not a JSON object")
        if record.get("type") == "setup":
            games.append([record])
        elif not games:
            raise refused(f"line {n}: a game log starts with a setup record")
        else:
            games[-1].append(record)
    return games
