"""Kahuna's drawing, as plain values (``live.js`` draws them): the twelve islands where the
window has them (``views/window/layout``: no line crosses another), the lines and bridges,
the Kahuna stones, the display, the pile, the discards and the viewer's own hand.

Everything drawn comes from ``window.view.view_of``, the window's one filtered view (K31):
the public table and the hand of ``viewer`` alone, no hand at all for a watcher (None).
A phone seat draws it and plays on it (``seat.tap_board``); the watchers' page draws it
for nobody's seat (``snapshot``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from haleakala import i18n, palette
from haleakala.games.kahuna.notation import decode
from haleakala.games.kahuna.views.terminal import describe_events
from haleakala.games.kahuna.views.window import layout as L
from haleakala.games.kahuna.views.window.view import view_of
from haleakala.games.kahuna.words import colour
from haleakala.i18n import N_, _
from haleakala.toolkit.live import continued
from haleakala.toolkit.live import labels as live_labels

if TYPE_CHECKING:
    from haleakala.games.kahuna import Game

EVENT_INDENT = "  "
LOG_LINES = 40

LABELS = {
    "h_board": N_("the islands"),
    "h_round": N_("round {n} of 3"),
    "h_pile": N_("pile: {n}"),
    "h_discards": N_("discards: {n}"),
    "h_display": N_("display"),
    "h_hand": N_("your hand"),
    "h_cards": N_("{n} cards"),
    "h_empty": N_("empty"),
    "h_island": N_("island {island}"),
    "h_card": N_("card {island}"),
    "h_slot": N_("display {n}: {island}"),
    "h_draw_pile": N_("the pile"),
    "h_legend": N_(
        "Dotted: a free line; solid: a bridge with its owner's initial; K: a Kahuna stone; "
        "3/5 under a name: 3 of its 5 lines win the island."
    ),
    "white": N_("white"),
    "black": N_("black"),
}
"""The drawing's texts, by key (``live.js`` looks them up)."""


def labels() -> dict[str, str]:
    return {key: _(text) for key, text in LABELS.items()}


def board(game: Game, viewer: int | None) -> dict:
    """What the board's drawing shows ``viewer`` (None: a watcher): islands, lines and
    bridges, stones, the display, the pile's and the discards' sizes, every hand's size,
    and the viewer's own hand only."""
    v = view_of(game, viewer)
    lines_of = {name: sum(1 for line in v.lines if name in line.split("-")) for name in v.islands}
    last = _last_line(game)
    return {
        "view": list(L.BOARD_RECT),
        "radius": L.ISLAND_RADIUS,
        "islands": [
            {
                "name": name,
                "x": L.ISLANDS[name][0],
                "y": L.ISLANDS[name][1],
                "need": v.majority_need.get(name, 0),
                "lines": lines_of[name],
                "stone": v.players[v.stones[name]] if name in v.stones else None,
            }
            for name in v.islands
        ],
        "lines": [
            {
                "name": line,
                "a": _point(L.line_ends(line)[0]),
                "b": _point(L.line_ends(line)[1]),
                "bridge": v.players[v.bridges[line]] if line in v.bridges else None,
                "last": line == last,
            }
            for line in v.lines
        ],
        "display": list(v.display),
        "pile": v.pile,
        "discard": {"top": v.discard_top, "count": v.discard_count},
        "hand": list(v.hand) if viewer is not None else None,
        "players": {
            c: {"name": colour(c), "score": v.totals[p], "hand": v.hand_sizes[p]}
            for p, c in enumerate(v.players)
        },
        "round": v.round,
    }


def _point(xy: tuple[float, float]) -> list[int]:
    return [round(xy[0]), round(xy[1])]


def _last_line(game: Game) -> str | None:
    """The line the last decision bridged or cut (public: a discard names none)."""
    if not game.history:
        return None
    d = decode(game.history[-1], game.board)
    return game.board.line_names[d.line] if d.line >= 0 else None


WATCH_LABELS = {
    "h_title": N_("Kahuna — live view"),
    "h_cards": N_("{n} cards"),
}


def snapshot(game: Game, *, log: Sequence[str] = (), seq: int = 0, digest: str = "") -> dict:
    """Everything the watchers' page shows about a Kahuna game: the board's drawing for
    nobody's seat (no hand: every hand's size only), whose turn, the log."""
    over = game.is_terminal()
    words = live_labels()
    words.update(labels())
    words.update({key: _(text) for key, text in WATCH_LABELS.items()})
    return {
        "v": 1,
        "game": "kahuna",
        "lang": i18n.current(),
        "palette": palette.current(),
        "labels": words,
        "seq": seq,
        "digest": digest or game.digest(),
        "decisions": len(game.history),
        "over": over,
        "to_move": game.to_move,
        "to_move_name": colour(game.to_move) if game.to_move else None,
        "result": {"text": view_of(game, None).result} if over else None,
        "board": board(game, None),
        "log": list(log[-LOG_LINES:]),
    }


def log_lines(before: Game | None, after: Game) -> tuple[list[str], bool]:
    """What happened between two published positions as a watcher may know it (a
    face-down discard names no card, a card drawn from the pile is not named), and
    whether the log starts over."""
    replay = continued(before, after)
    if replay is not None:
        lines = []
        for d in after.history[len(replay.history) :]:
            who, text = replay.to_move or "", replay.format(d)
            if replay.seen_decision(text, replay.decider, None) != text:
                text = _("discards a card face down")
            events = replay.apply(d)
            lines.append(f"{colour(who)}: {text}")
            lines += [EVENT_INDENT + line for line in describe_events(replay, events, None)]
        return lines, False
    start = _("Kahuna, seed {seed}, decision {d}").format(seed=after.seed, d=len(after.history))
    return [start], True
