"""Kahuna (Günter Cornett, 2 players): the complete base game, pure like Haleakala's rules.

    >>> from haleakala.games.kahuna import Game
    >>> game = Game(seed=3)
    >>> game.players, len(game.legal_decisions()) > 0
    (('white', 'black'), True)

The board is data (``data/board.toml``, K1); rulings K1–K32 of KAHUNA-RULINGS.md and
the local ones in docs/KAHUNA-RULINGS-LOCAL.md are cited where they are enforced.
"""

from .board import Board, BoardError, default_board, load_board
from .game import PLAYERS, Game, IllegalDecision, Result
from .notation import NotationError, format_decision, parse_decision
from .serialize import SaveError

__all__ = [
    "PLAYERS",
    "Board",
    "BoardError",
    "Game",
    "IllegalDecision",
    "NotationError",
    "Result",
    "SaveError",
    "default_board",
    "format_decision",
    "load_board",
    "parse_decision",
]
