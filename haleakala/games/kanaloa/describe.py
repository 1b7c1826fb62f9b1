"""Kanaloa's one description for the registry (``haleakala.gameapi.GAMES``).

Why here: everything the command line, the log, the replayer, the bots, the harness and
the front-ends need to know about Kanaloa is declared once, in Kanaloa's own package; the
hooks are strings so that reading this loads no front-end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala.gameapi import GameDescription

if TYPE_CHECKING:
    from haleakala.gameapi import GameState

    from .game import Game

DESCRIPTION = GameDescription(
    name="kanaloa",
    title="Kanaloa",
    state="haleakala.games.kanaloa.game:Game",
    colours=("red", "yellow", "green", "blue"),
    player_counts=(2, 3, 4),
    log="haleakala.games.kanaloa.log",
    replay="haleakala.games.kanaloa.views.replayer:run_kanaloa",
    invariants="haleakala.games.kanaloa.invariants:violations",
    all_codes="haleakala.games.kanaloa.notation:all_codes",
    bots={
        "random": "haleakala.ai.simple:RandomBot",
        "greedy": "haleakala.ai.simple:EvaluationGreedyBot",
        "ai": "haleakala.ai.search:SearchBot",
        "ai-paranoid": "haleakala.games.kanaloa.bots:ParanoidSearchBot",
        "child": "haleakala.games.kanaloa.bots:ChildBot",
    },
    terminal="haleakala.games.kanaloa.views.terminal:open_session",
    window="haleakala.games.kanaloa.views.window.cli:window",
    window_options=("opponent", "players", "seed", "decisions", "screenshot"),  # you play red
    live_view="haleakala.games.kanaloa.views.live",
    live_script="haleakala.games.kanaloa.views:live.js",
    seat="haleakala.games.kanaloa.views.seat",
    render="haleakala.games.kanaloa.views.board:text",
    save_format="kanaloa-game",
    strength="haleakala.games.kanaloa.bots:strength",
    bench="haleakala.games.kanaloa.bench:run",
    lessons="haleakala.games.kanaloa:lessons",
    first_placement=r"^start ",
)

if TYPE_CHECKING:
    # mypy proves that the engine fits the interface every front-end relies on.
    _fits: type[GameState] = Game
