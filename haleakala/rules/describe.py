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
    state="haleakala.rules.game:Game",
    colours=("red", "yellow"),
    player_counts=(2,),
    log="haleakala.rules.log",
    replay="haleakala.terminal.replay:replay_haleakala",
    invariants="haleakala.rules.invariants:violations",
    all_codes="haleakala.rules.invariants:all_codes",
    bots={
        "random": "haleakala.ai.simple:RandomBot",
        "greedy": "haleakala.ai.simple:GreedyBot",
        "child": "haleakala.ai.simple:ChildBot",
        "ai": "haleakala.ai.ismcts:SearchBot",
        "ai-v1": "haleakala.ai.ismcts_v1:SearchBotV1",
    },
    terminal="haleakala.terminal.session:open_session",
    window="haleakala.cli.sim:haleakala_window",
    save_format="haleakala-game",
    options={"variant": "base (default) or tactical"},
    load="haleakala.rules.describe:load",
    strength="haleakala.companion.solo:make_solo_bot",
    bench="haleakala.bench.ai:run_haleakala",
)


def load(text: str) -> Game:
    """A save checked down to its history: a save whose history does not lead to its
    position is not the game it claims to be (``SaveError`` says where)."""
    from .serialize import from_json

    return from_json(text, check_history=True)


if TYPE_CHECKING:
    # mypy proves that the engine fits the interface every front-end relies on.
    _fits: type[GameState] = Game
