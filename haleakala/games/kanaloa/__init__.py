"""Kanaloa (Günter Cornett, 2–4 players): the complete rules, pure like the other games.

    >>> from haleakala.games.kanaloa.game import Game
    >>> game = Game(seed=7, players=3)
    >>> game.players, len(game.legal_decisions())
    (('red', 'yellow', 'green'), 84)

The map, the tile mix and the colours are data (``data/map.toml``, ``data/tiles.toml``,
N1–N4), checked when loaded. Rulings N1–N52 of KANALOA-RULINGS.md, and the local ones in
docs/KANALOA-LOCAL-RULINGS.md, are cited where they are enforced. Importing this package
loads Kanaloa's own engine (``serialize`` and ``hidden`` hand their functions to ``game``,
as in Kahuna) and no other game's; the description's hooks are strings.
"""

from . import hidden, serialize  # noqa: F401  (they hand their functions to ``game``)
