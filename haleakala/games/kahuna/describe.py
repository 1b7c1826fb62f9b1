"""Kahuna's one description for the registry (``haleakala.gameapi.GAMES``).

Why here: everything the command line, the log, the replayer, the bots, the harness and
the front-ends need to know about Kahuna is declared once, in Kahuna's own package; the
hooks are strings so that reading this loads no front-end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala.gameapi import GameDescription

if TYPE_CHECKING:
    from haleakala.gameapi import GameState

    from .game import Game

DESCRIPTION = GameDescription(
    name="kahuna",
    title="Kahuna",
    state="haleakala.games.kahuna.game:Game",
    colours=("white", "black"),
    player_counts=(2,),
    log="haleakala.games.kahuna.log",
    replay="haleakala.games.kahuna.views.replayer:run_kahuna",
    invariants="haleakala.games.kahuna.invariants:violations",
    all_codes="haleakala.games.kahuna.describe:all_codes",
    bots={
        "random": "haleakala.ai.simple:RandomBot",
        "greedy": "haleakala.ai.simple:EvaluationGreedyBot",
        "ai": "haleakala.ai.search:SearchBot",
    },
    terminal="haleakala.games.kahuna.views.terminal:open_session",
    window="haleakala.games.kahuna.views.window.cli:window",
    save_format="kahuna-game",
    render="haleakala.games.kahuna.views.terminal:render",
    seat="haleakala.games.kahuna.views.seat",
    live_view="haleakala.games.kahuna.views.live",
    live_script="haleakala.games.kahuna.views:live.js",
    lessons="haleakala.games.kahuna:lessons",
    lesson_zones="haleakala.games.kahuna.describe:lesson_zones",
    first_placement=r"^play ",
)


def lesson_zones() -> frozenset[str]:
    """What a lesson may point at: the islands by name (the window and terminal show
    them)."""
    from .board import default_board

    return frozenset(default_board().islands)


def all_codes() -> list[int]:
    """Every well-formed decision code on the printed board (the harness samples refusals
    from those not legal)."""
    from .board import default_board
    from .notation import all_codes as codes

    return codes(default_board())


if TYPE_CHECKING:
    # mypy proves that the engine fits the interface every front-end relies on.
    _fits: type[GameState] = Game
