"""Haleakala Companion: the board game Haleakala as an augmented board.

Layers, each importing only those below it:
``rules`` (pure game) → ``hal`` (hardware abstraction) → ``companion`` (daemon) → ``cli``.
"""

__version__ = "0.1.0"
