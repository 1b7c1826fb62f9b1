"""The Kanaloa game log of KANALOA-NOTATION: one JSON-able record per event, in order.

Pure: it turns a game and the events ``Game.apply`` returned into dicts; printing them is
the caller's job (``haleakala.terminal.gamelog``). The log is the full-information record
(N12): it holds the bag order. The same three functions as the other games' log modules
(setup, action, events), so the generic log writer works unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .material import GODS
from .state import DOLPHIN, NOBODY, SEA, Result

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .game import Game


def _tile(game: Game, t: int) -> str:
    return "volcano" if t == game.volcano_tile else game.m.tiles[t]


def setup_record(game: Game) -> dict:
    """The first line of a game (N8's outcome), from the deal the game was made with."""
    m, d = game.m, game.dealt
    lay = game.lay
    return {
        "type": "setup",
        "game": "kanaloa",
        "seed": game.seed,
        "players": list(game.players),
        "neutral": m.colours[2] if game.n == 2 else None,
        "islands": [m.islands[i] for i in lay.islands],
        "currents": [m.current_names[c] for c in lay.currents],
        "gods": {game.players[p]: [GODS[g] for g in sorted(gs)] for p, gs in enumerate(d.gods)},
        "tiles": {m.islands[i]: sorted(_tile(game, t) for t in d.tiles[i]) for i in lay.islands},
        "reserve": [_tile(game, t) for t in d.reserve],
        "bag": [_tile(game, t) for t in d.bag],
    }


def action_record(game: Game, decision: int, legal: Iterable[int] | None = None) -> dict:
    """The record of a decision, built from the state *before* it is applied."""
    record: dict = {"type": "action", "player": game.to_move, "action": game.format(decision)}
    if legal is not None:
        record["legal"] = sorted(game.format(d) for d in legal)
    return record


def where(game: Game, v: int) -> str:
    return game.m.sea_names[v - SEA] if v >= SEA else game.m.islands[v]


def _who(game: Game, p: int) -> str | None:
    return None if p == NOBODY else game.players[p]


def event_records(game: Game, events: Iterable[tuple]) -> list[dict]:
    """Log records for the events of one ``apply``, in the order the notation gives."""
    m = game.m
    out: list[dict] = []
    for e in events:
        kind = e[0]
        if kind == "turn":
            out.append({"type": "turn", "number": e[1], "player": game.players[e[2]],
                        "eruption": e[3]})  # fmt: skip
        elif kind == "draw":
            out.append({"type": "draw", "tile": m.tiles[e[1]], "island": m.islands[e[2]]})
        elif kind == "volcano tile":
            out.append({"type": "draw", "tile": "volcano", "count": e[1]})
        elif kind == "reserve":
            out.append({"type": "reserve", "tiles": [_tile(game, t) for t in e[1]]})
        elif kind == "eruption":
            out.append({"type": "eruption", "count": e[1], "pele": game.players[e[2]]})
        elif kind == "stun":
            out.append({"type": "stun", "player": game.players[e[1]], "island": m.islands[e[2]]})
        elif kind == "lost":
            out.append({"type": "lost", "player": game.players[e[1]]})
        elif kind == "removed":
            out.append({"type": "volcano", "event": "removed", "where": where(game, e[1])})
        elif kind == "temple":
            out.append({"type": "temple", "player": game.players[e[1]], "god": GODS[e[2]],
                        "value": e[3]})  # fmt: skip
        elif kind == "card":
            out.append({"type": "card", "kind": e[1], "god": GODS[e[2]],
                        "from": _who(game, e[3]), "to": _who(game, e[4])})  # fmt: skip
        elif kind == "state":
            out.append(state_record(e[1]))
        elif kind == "result":
            out.append(result_record(game, e[1]))
    return out


def result_record(game: Game, r: Result) -> dict:
    players = game.players
    return {
        "type": "result",
        "temples": {players[p]: dict(zip(GODS, t, strict=True)) for p, t in enumerate(r.temples)},
        "scores": dict(zip(players, r.scores, strict=True)),
        "unscored": dict(zip(players, r.unscored, strict=True)),
        "winners": [players[p] for p in r.winners],
    }


def state_record(game: Game) -> dict[str, Any]:
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
        "gods": {GODS[g]: _who(game, game.gods[g]) for g in range(4)},
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
        record["protection"] = {GODS[g]: _who(game, game.prot[g]) for g in range(4)}
    return record
