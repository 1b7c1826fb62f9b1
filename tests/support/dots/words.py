"""The position in words (its description's ``render``): the grid with each box's owner by
its initial, and the boxes each player holds; the same for every viewer (nothing is hidden).
Marked with ``N_`` and translated by the game's own catalogs (``locale/``)."""

from __future__ import annotations

from haleakala.i18n import N_, _

from .game import NOBODY, Game
from .notation import SIZE, H

HEAD = N_("Dots and Boxes: {lines} of {total} lines drawn")
HOLDS = N_("{colour}: {n} boxes")


def render(game: Game, viewer: int | None = None) -> str:
    rows = [_(HEAD).format(lines=len(game.history), total=len(game.drawn))]
    for r in range(SIZE + 1):
        top = "+".join("---" if game.drawn[r * SIZE + c] else "   " for c in range(SIZE))
        rows.append(f"   +{top}+")
        if r == SIZE:
            break
        cells = []
        for c in range(SIZE + 1):
            cells.append("|" if game.drawn[H + r * (SIZE + 1) + c] else " ")
            if c < SIZE:
                owner = game.owner[r * SIZE + c]
                cells.append(f" {game.players[owner][0].upper()} " if owner != NOBODY else "   ")
        rows.append(f" {r} " + "".join(cells))
    for p, colour in enumerate(game.players):
        rows.append(_(HOLDS).format(colour=_(colour), n=game.scores()[p]))
    return "\n".join(rows)
