"""What must hold in every position (the random-game harness checks it after every
decision): a box is owned only when its four lines are drawn, and every line drawn is in
the history once."""

from __future__ import annotations

from .game import NOBODY, Game
from .notation import BOXES, lines_of_box


def violations(game: Game) -> list[str]:
    found = []
    for box in range(BOXES):
        closed = all(game.drawn[c] for c in lines_of_box(box))
        if closed != (game.owner[box] != NOBODY):
            found.append(f"box {box} is {'closed' if closed else 'open'} but owned by "
                         f"{game.owner[box]}")  # fmt: skip
    if sorted(game.history) != [c for c, d in enumerate(game.drawn) if d]:
        found.append("the history is not the lines drawn")
    return found
