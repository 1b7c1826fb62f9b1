"""The island games, one package each: its pure rules, its words, lessons and bots'
knowledge, and its views for every front-end (``views``), declared once by its
``describe.DESCRIPTION`` and named by one line of ``haleakala.gameapi.GAMES``.

Importing this package imports no game: each is loaded when it is used.
"""
