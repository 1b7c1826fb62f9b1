"""Dots and Boxes' one description: what the program needs to know about it. Only the
required hooks and ``render``; every front-end shows it through the generic views."""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala.gameapi import GameDescription

if TYPE_CHECKING:
    from haleakala.gameapi import GameState

    from .game import Game

DESCRIPTION = GameDescription(
    name="dots",
    title="Dots and Boxes",
    state="support.dots.game:Game",
    colours=("red", "yellow", "green", "blue"),
    player_counts=(2, 3, 4),
    log="support.dots.log",
    invariants="support.dots.invariants:violations",
    all_codes="support.dots.notation:all_codes",
    bots={
        "random": "haleakala.ai.simple:RandomBot",
        "greedy": "haleakala.ai.simple:EvaluationGreedyBot",
        "ai": "haleakala.ai.search:SearchBot",
    },
    save_format="dots-game",
    render="support.dots.words:render",
)

if TYPE_CHECKING:
    _fits: type[GameState] = Game
