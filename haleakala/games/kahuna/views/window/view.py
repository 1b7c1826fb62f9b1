"""What the Kahuna window may show to one viewer: the public table and the viewer's hand.

Why a separate step: the window must never draw the opponent's hand or the pile's order
(K31). Everything it draws comes from a ``View`` built here, which copies the public state
and the hand of ``viewer`` alone (no hand at all when ``viewer`` is None, as on the
hand-over screen), so hidden cards cannot leak into a frame by accident.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from haleakala.core.text import Term, Text
from haleakala.i18n import N_, render

NONE = -1


@dataclass(frozen=True)
class View:
    players: tuple[str, str]
    islands: tuple[str, ...]
    lines: tuple[str, ...]
    bridges: dict[str, int]  # line name → owner index, only lines that carry a bridge
    stones: dict[str, int]  # island → owner index
    majority_need: dict[str, int]  # island → bridges needed for a majority (K5)
    display: tuple[str | None, ...]  # slots 1..3, None when empty
    pile: int
    discard_top: str | None
    discard_count: int
    viewer: int | None
    hand: tuple[str, ...]  # the viewer's cards, sorted; () without a viewer
    hand_sizes: tuple[int, int]
    bridges_left: tuple[int, int]
    stones_left: tuple[int, int]
    round: int
    points: tuple[tuple[int, int], ...]  # per scoring held
    totals: tuple[int, int]
    decider: int | None  # None once the game is over
    phase: str
    must_draw: bool
    last_turns: int
    result: str  # "" while playing, else who won and why (in the language in use)

    def held(self, player: int, island: str) -> int:
        return sum(
            1 for line, who in self.bridges.items() if who == player and island in line.split("-")
        )


REASONS = {
    "points": N_("more points"),
    "third": N_("tie on points, better third scoring"),
    "bridges": N_("tie on points and third scoring, more bridges"),
    "wipeout": N_("every opposing bridge removed"),
}


def view_of(game: Any, viewer: int | None) -> View:
    """The table as ``viewer`` sees it (None: nobody's hand)."""
    board = game.board
    names = board.islands
    result = game.result()
    if result is None:
        text = ""
    elif result.winner is None:
        text = render(
            Text.of(
                N_("Draw: {white}-{black}, nothing breaks the tie."),
                white=result.totals[0],
                black=result.totals[1],
            )
        )
    else:
        why = REASONS.get(result.reason)
        text = render(
            Text.of(
                N_("{colour} wins {white}-{black} ({why})."),
                colour=Term(result.winner),
                white=result.totals[0],
                black=result.totals[1],
                why=Text(why) if why else str(result.reason),
            )
        )
    return View(
        players=tuple(game.players),
        islands=tuple(names),
        lines=tuple(board.line_names),
        bridges={board.line_names[i]: o for i, o in enumerate(game.bridge) if o != NONE},
        stones={names[i]: o for i, o in enumerate(game.stone) if o != NONE},
        majority_need=dict(zip(names, board.need, strict=True)),
        display=tuple(names[c] if c != NONE else None for c in game.display),
        pile=len(game.pile),
        discard_top=names[game.discard[-1]] if game.discard else None,
        discard_count=len(game.discard) + sum(len(b) for b in game.buried),
        viewer=viewer,
        hand=tuple(game.hand_cards(viewer)) if viewer is not None else (),
        hand_sizes=(game.hand_size(0), game.hand_size(1)),
        bridges_left=(game.bridges_left(0), game.bridges_left(1)),
        stones_left=(game.stones_left(0), game.stones_left(1)),
        round=game.round,
        points=tuple(tuple(p) for p in game.points),
        totals=tuple(game.totals()),
        decider=None if game.is_terminal() else game.decider,
        phase=game.phase_name,
        must_draw=bool(game.must_draw),
        last_turns=game.last_turns,
        result=text,
    )
