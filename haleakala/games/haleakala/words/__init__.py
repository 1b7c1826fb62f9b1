"""Words: every decision, refusal and event of the game as the players read them.

One place for the player-facing text, so that the languages issue translates this package
and nothing else. It sits below ``companion``, ``terminal`` and ``simulator`` and imports only
``rules`` and ``gameapi``.
"""
