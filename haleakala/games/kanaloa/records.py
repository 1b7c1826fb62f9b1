"""The parts of Kanaloa's log records that name the engine's indices (tiles, the volcano's
place, players), the result record and the optional state record: what the events' own
``to_record`` (``events``) and the log (``log``) both write.

Pure, and below the rules: it reads a position (``core.Core``) and imports no rule module,
so that the rules can make events whose records it writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .material import GODS
from .state import DOLPHIN, NOBODY, SEA, Result

if TYPE_CHECKING:
    from .core import Core


def tile_name(game: Core, t: int) -> str:
    """A tile as the log names it (the volcano tile has no code of its own)."""
    return "volcano" if t == game.volcano_tile else game.m.tiles[t]


def where(game: Core, v: int) -> str:
    """The volcano's place as the log names it: an island or a sea space."""
    return game.m.sea_names[v - SEA] if v >= SEA else game.m.islands[v]


def who(game: Core, p: int) -> str | None:
    """A player by colour, None for nobody (a card in the supply)."""
    return None if p == NOBODY else game.players[p]


def result_record(game: Core, r: Result) -> dict:
    players = game.players
    return {
        "type": "result",
        "temples": {players[p]: dict(zip(GODS, t, strict=True)) for p, t in enumerate(r.temples)},
        "scores": dict(zip(players, r.scores, strict=True)),
        "unscored": dict(zip(players, r.unscored, strict=True)),
        "winners": [players[p] for p in r.winners],
    }


def state_record(game: Core) -> dict[str, Any]:
    """The optional ``state`` record of the current position (KANALOA-NOTATION)."""
    m, players = game.m, game.players

    def place(x: int) -> str:
        return "dolphin" if x == DOLPHIN else m.islands[x]

    record: dict[str, Any] = {
        "type": "state",
        "turn": game.turn,
        "hands": {players[p]: sorted(game.hand_tiles(p)) for p in range(game.n)},
        "temples": {
            players[p]: dict(zip(GODS, t, strict=True)) for p, t in enumerate(game.temples)
        },
        "gods": {GODS[g]: who(game, game.gods[g]) for g in range(4)},
        "pieces": {
            players[p]: sorted(place(x) for x in game.loc[p] if x != -1) for p in range(game.n)
        },
        "stunned": {
            players[p]: sorted(
                m.islands[x] for k, x in enumerate(game.loc[p]) if x >= 0 and game.stun[p][k]
            )
            for p in range(game.n)
        },
        "tiles": {
            m.islands[i]: sorted(m.tiles[t] for t in game.tiles[i]) for i in game.lay.islands
        },
        "volcanoes": game.volcanoes,
        "volcano": None if game.volcano < 0 else where(game, game.volcano),
        "bag": len(game.bag),
    }
    if game.n == 4:
        record["protection"] = {GODS[g]: who(game, game.prot[g]) for g in range(4)}
    return record
