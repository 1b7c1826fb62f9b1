"""The complete rules of Haleakala, base and tactical: pure Python, no I/O, no clock.

    >>> from haleakala.games.haleakala import Game
    >>> game = Game("base", seed=7, start="red")
    >>> game.to_move, game.legal_decisions()[:3]
    ('red', ['-1@0', ...])
    >>> events = game.apply("3@2")

Board geometry and the deck manifest are data (``data/*.toml``); rulings R1–R28 of
RULINGS.md are cited in the code and tests that enforce them.
"""

from .decision import Decision, Refusal, decode, encode
from .deck import Deck, deck_path, default_deck, load_deck
from .game import PLAYERS, VARIANTS, Game, IllegalDecision, Result, UnknownVariant
from .geometry import Board, default_board, load_board
from .notation import NotationError, format_decision, parse_decision
from .serialize import SaveError, digest, from_dict, to_dict

__all__ = [
    "PLAYERS",
    "VARIANTS",
    "Board",
    "Decision",
    "Deck",
    "Game",
    "IllegalDecision",
    "NotationError",
    "Refusal",
    "Result",
    "SaveError",
    "UnknownVariant",
    "deck_path",
    "decode",
    "default_board",
    "default_deck",
    "digest",
    "encode",
    "format_decision",
    "from_dict",
    "load_board",
    "load_deck",
    "parse_decision",
    "to_dict",
]
