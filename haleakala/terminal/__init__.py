"""Haleakala in a terminal: the island drawn as text, people and bots at one keyboard,
the game log of NOTATION.md, and the commands that replay a log and show the deck.

``render`` is pure (game → str); ``session`` owns the conversation with the players;
``gamelog`` writes the log and ``replay`` checks one against the engine. The sub-commands
``play``, ``replay`` and ``deck`` are registered by ``haleakala.cli``.
"""
