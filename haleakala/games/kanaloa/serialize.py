"""Saving and loading a Kanaloa game as JSON, and its digest.

A save holds the deal (N8's outcome, as the log's setup record) and the decisions in
canonical text; loading deals again and replays every decision through the rules, so a
hand-edited, truncated or tampered save is refused with the first decision that is not
legal, and a loaded game is always a valid game. The digest is a hash of the full state
(bag order included), equal for equal positions.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from haleakala.core.errors import SaveError as _BaseSaveError
from haleakala.core.jsonread import load_json

from .game import Game, use_codec
from .log import setup_record
from .notation import NotationError

FORMAT = "kanaloa-game"
VERSION = 1


# The last games loaded, by setup: a save whose history extends one of them is replayed from
# there (the random-game checks load a save after every decision). Only positions reached by
# legal decisions are kept, so a shortcut never accepts what a full replay would refuse.
_REPLAYED: dict[str, Game] = {}


class SaveError(_BaseSaveError):
    """A save that cannot be loaded; the message names the field and what is wrong."""


def to_dict(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "setup": setup_record(game),
        "history": [game.format(d) for d in game.history],
    }


def to_json(game: Game) -> str:
    return json.dumps(to_dict(game), separators=(",", ":"))


def from_dict(data: Any) -> Game:
    from .replay import Inconsistent, game_from_setup

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f"$.format: not a saved Kanaloa game (format {FORMAT!r})")
    if data.get("version") != VERSION:
        raise SaveError(f"$.version: {data.get('version')!r} is not version {VERSION}")
    history = data.get("history")
    if not isinstance(history, list) or not all(isinstance(t, str) for t in history):
        raise SaveError("$.history: must be a list of decision texts")
    key = json.dumps(data.get("setup"), sort_keys=True)
    known = _REPLAYED.get(key)
    start = 0
    if (
        known is not None
        and len(known.history) <= len(history)
        and all(known.format(d) == t for d, t in zip(known.history, history, strict=False))
    ):
        game, start = known.clone(), len(known.history)
    else:
        try:
            game = game_from_setup(data.get("setup"))
        except Inconsistent as exc:
            raise SaveError(f"$.setup: {exc}") from None
    for n, text in enumerate(history[start:], start):
        try:
            code = game.parse(text)
        except NotationError as exc:
            raise SaveError(f"$.history[{n}]: {exc}") from None
        reason = game.why_illegal(code)
        if reason is not None:
            raise SaveError(f"$.history[{n}]: {reason}")
        game.apply(code)
    _REPLAYED[key] = game.clone()
    if len(_REPLAYED) > 8:
        del _REPLAYED[next(iter(_REPLAYED))]
    return game


def from_json(text: str) -> Game:
    try:
        data = load_json(text)
    except ValueError as exc:
        raise SaveError(f"not JSON: {exc}") from None
    return from_dict(data)


def state_dict(game: Game) -> dict[str, Any]:
    """Everything that decides the game's future (the history only as its length)."""
    keep = (
        "n", "seed", "tiles", "reserve", "bag", "gods", "prot", "hands", "temples", "spent",
        "fish_tail", "fish_owner", "fish_col", "loc", "stun", "volcanoes", "volcano",
        "placer", "volcano_turns", "eruption_due", "erupt_count", "turn", "current",
        "decider", "eruption_turn", "action_used", "forbidden", "pending", "sac_god",
        "sac_tiles", "arrive", "victim", "after_rob", "placed", "phase",
    )  # fmt: skip
    out = {k: getattr(game, k) for k in keep}
    # Two pieces of one player are alike: their order is no part of the position.
    out["loc"] = [sorted(zip(game.loc[p], game.stun[p], strict=True)) for p in range(game.n)]
    del out["stun"]
    return out


def digest(game: Game) -> str:
    text = json.dumps(state_dict(game), separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


use_codec(digest=digest, to_json=to_json, from_json=from_json)
