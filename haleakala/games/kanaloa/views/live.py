"""A Kanaloa game as the live view shows it: pure functions from a Kanaloa ``Game`` to a
JSON-able snapshot, beside ``snapshot.py`` (Haleakala's).

Kanaloa hides only the bag's order (N12), so a watcher sees everything a player does: the map
(islands with their two tiles, the fish on the currents with the side they show and where they
swim, the pieces, the Dolphin, the volcano and its track), and per player the gods and
protection cards, the five temples, the tiles held and the score. The map's drawing travels in
each snapshot (the same coordinates as the simulator's window, ``simulator/kanaloa/layout``):
it is small, and the page's ``geometry.json`` is Haleakala's island. Translated here, at the
edge, like the other front-ends: names through ``_``, sentences from the terminal's words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from haleakala import i18n, palette
from haleakala.games.kanaloa.material import GODS
from haleakala.games.kanaloa.state import DOLPHIN, SEA
from haleakala.games.kanaloa.views.board import describe_events, describe_result, phase_prompt
from haleakala.games.kanaloa.views.window import layout as L
from haleakala.games.kanaloa.words import colour
from haleakala.i18n import N_, _
from haleakala.toolkit.live import continued, labels

if TYPE_CHECKING:
    from haleakala.games.kanaloa.game import Game

EVENT_INDENT = "  "
LOG_LINES = 40

LABELS = {
    "k_title": N_("Kanaloa — live view"),
    "k_players": N_("{n} players, turn {turn}"),
    "k_map": N_("the map"),
    "k_temples": N_("temples"),
    "k_tiles": N_("tiles held: {tiles}"),
    "k_cards": N_("gods cards: {cards}"),
    "k_protection": N_("protection cards: {cards}"),
    "k_volcano": N_("volcano tiles {drawn} of {end}"),
    "k_dolphin": N_("Dolphin"),
    "k_out": N_("out of play"),
    "k_temples_of": N_("temples of {colour}"),
    "k_legend": N_(
        "Fish: the colour they show (white, or a player's), head towards the island they swim "
        "to. Circles with a letter: pieces (crossed: stunned). Cone: the volcano."
    ),
    "green": N_("green"),
    "blue": N_("blue"),
}
"""The page's Kanaloa texts, by key (``static/kanaloa.js`` looks them up)."""


def snapshot(game: Game, *, log: Sequence[str] = (), seq: int = 0, digest: str = "") -> dict:
    """Everything the page shows about a Kanaloa game: a fresh dict of plain values."""
    over = game.is_terminal()
    words = labels()
    words.update({key: _(text) for key, text in LABELS.items()})
    return {
        "v": 1,
        "game": "kanaloa",
        "lang": i18n.current(),
        "palette": palette.current(),
        "labels": words,
        "seq": seq,
        "digest": digest or game.digest(),
        "seed": game.seed,
        "players_count": game.n,
        "turn": game.turn,
        "decisions": len(game.history),
        "over": over,
        "to_move": game.to_move,
        "current": None if over else game.players[game.current],
        "phase": game.phase_name,
        "awaited": "" if over else _awaited(game),
        "legal": [] if over else game.legal_decisions()[:12],
        "map": map_state(game),
        "players": {c: player_state(game, p) for p, c in enumerate(game.players)},
        "result": {"text": describe_result(game)} if over else None,
        "log": list(log[-LOG_LINES:]),
    }


def _awaited(game: Game) -> str:
    what = phase_prompt(game) or game.phase_name
    return _("{colour}: {phase}.").format(colour=colour(game.to_move or ""), phase=what)


def map_state(game: Game) -> dict:
    """The map in the window's coordinates, with everything on it."""
    m, lay = game.m, game.lay
    barred = game.barred()
    islands = []
    for i, name in enumerate(m.islands):
        x, y = L.island_centre(m, i)
        pieces = [
            {"colour": game.players[p], "stunned": game.stun[p][k]}
            for p in range(game.n)
            for k, at in enumerate(game.loc[p])
            if at == i
        ]
        islands.append({
            "name": name, "x": x, "y": y, "in_play": lay.in_play[i],
            "tiles": [m.tiles[t] for t in game.tiles[i]], "pieces": pieces,
            "volcano": game.volcano == i, "barred": barred[i],
        })  # fmt: skip
    currents = []
    for c in lay.currents:
        a, b = L.current_ends(m, c)
        fish = None
        if game.fish_tail[c] >= 0:
            shows = game.shows(c)
            tail, head = game.fish_tail[c], game.head(c)
            (tx, ty), (hx, hy) = L.island_centre(m, tail), L.island_centre(m, head)
            fx, fy = L.fish_centre(m, c)
            fish = {
                "tail": m.islands[tail], "head": m.islands[head],
                "shows": "white" if shows < 0 else m.colours[shows],
                "at": [round(fx), round(fy)], "towards": [hx - tx, hy - ty],
            }  # fmt: skip
        currents.append({"name": m.current_names[c], "a": [round(a[0]), round(a[1])],
                         "b": [round(b[0]), round(b[1])], "fish": fish})  # fmt: skip
    dx, dy = L.dolphin_centre(m)
    sea = None
    if game.volcano >= SEA:
        hit = m.sea[game.volcano - SEA]
        points = [L.island_centre(m, i) for i in hit]
        sea = [round(sum(p[0] for p in points) / len(points)),
               round(sum(p[1] for p in points) / len(points))]  # fmt: skip
    return {
        "view": [0, 0, L.MAP_RECT[2], L.TRACK_Y + 40],
        "radius": L.ISLAND_RADIUS,
        "islands": islands,
        "currents": currents,
        "dolphin": {"x": dx, "y": dy, "pieces": [game.players[p] for p in range(game.n)
                                                 for at in game.loc[p] if at == DOLPHIN]},
        "sea_volcano": sea,
        "track": {"drawn": game.volcanoes, "end": game.end_count, "y": L.TRACK_Y},
    }  # fmt: skip


def player_state(game: Game, p: int) -> dict:
    """One player as the page draws it: gods and protection cards, temples, tiles, score."""
    return {
        "name": colour(game.players[p]),
        "cards": [GODS[g] for g in range(4) if game.gods[g] == p],
        "protection": [GODS[g] for g in range(4) if game.prot[g] == p],
        "temples": {god: game.temples[p][g] for g, god in enumerate(GODS)},
        "tiles": game.hand_tiles(p),
        "score": game.scores()[p],
    }


def log_lines(before: Game | None, after: Game) -> tuple[list[str], bool]:
    """What happened between two published positions, in words, and whether the log starts
    over (another game, or a jump the page cannot tell decision by decision)."""
    replay = continued(before, after)
    if replay is not None:
        lines = []
        for d in after.history[len(replay.history) :]:
            who = colour(replay.to_move or "")
            text = replay.format(d)
            events = replay.apply(d)
            lines.append(f"{who}: {text}")
            lines += [EVENT_INDENT + line for line in describe_events(replay, events)]
        return lines, False
    start = _("Kanaloa, {n} players, seed {seed}, decision {d}").format(
        n=after.n, seed=after.seed, d=len(after.history)
    )
    return [start], True
