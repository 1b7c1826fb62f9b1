"""Haleakala's one description for the registry (``haleakala.gameapi.GAMES``).

Why here: everything the command line, the log, the replayer, the bots, the harness and
the front-ends need to know about Haleakala is declared once, in Haleakala's own package;
the hooks are strings so that reading this loads no front-end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala.gameapi import GameDescription

if TYPE_CHECKING:
    from haleakala.gameapi import GameState

    from .game import Game

DESCRIPTION = GameDescription(
    name="haleakala",
    title="Haleakala",
    state="haleakala.games.haleakala.game:Game",
    colours=("red", "yellow"),
    player_counts=(2,),
    log="haleakala.games.haleakala.log",
    replay="haleakala.games.haleakala.views.replayer:replay_haleakala",
    invariants="haleakala.games.haleakala.invariants:violations",
    all_codes="haleakala.games.haleakala.invariants:all_codes",
    bots={
        "random": "haleakala.ai.simple:RandomBot",
        "greedy": "haleakala.games.haleakala.bots.greedy:GreedyBot",
        "child": "haleakala.games.haleakala.bots.greedy:ChildBot",
        "ai": "haleakala.games.haleakala.bots.ismcts:SearchBot",
        "ai-v1": "haleakala.games.haleakala.bots.ismcts_v1:SearchBotV1",
    },
    terminal="haleakala.games.haleakala.views.terminal:open_session",
    # The kit simulator: the board's companion on simulated hardware, in a window.
    window="haleakala.simulator.run:haleakala_window",
    save_format="haleakala-game",
    options={"variant": "base (default) or tactical"},
    option_choices={"variant": ("base", "tactical")},
    load="haleakala.games.haleakala.describe:load",
    strength="haleakala.companion.solo:make_solo_bot",
    bench="haleakala.games.haleakala.bench:run_haleakala",
    live_view="haleakala.games.haleakala.views.live",
    live_script="haleakala.games.haleakala.views:live.js",
    render="haleakala.games.haleakala.views.render:text",
    seat="haleakala.games.haleakala.views.seat",
    lessons="haleakala.games.haleakala:lessons",
    lesson_zones="haleakala.games.haleakala.views.lessons:zones",
    first_placement=r"^\d@\d\*?$",
)


def load(text: str) -> Game:
    """A save checked down to its history: a save whose history does not lead to its
    position is not the game it claims to be (``SaveError`` says where)."""
    from .serialize import from_json

    return from_json(text, check_history=True)


if TYPE_CHECKING:
    # mypy proves that the engine fits the interface every front-end relies on.
    _fits: type[GameState] = Game
