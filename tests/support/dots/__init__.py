"""Dots and Boxes, the worked example of docs/adding-a-game.md: a real game for two to four
players that lives in the tests, registered like any other, and shown by every front-end
through the generic views (it draws nothing of its own).

    >>> from support.dots.game import Game
    >>> game = Game(seed=0, players=3)
    >>> game.players, len(game.legal_decisions())
    (('red', 'yellow', 'green'), 24)

Rules: a 3 by 3 grid of boxes between 4 by 4 dots. Players take turns drawing one line
between two neighbouring dots. Whoever draws the fourth side of a box claims it and draws
again; a line that closes no box passes the turn. When every line is drawn, most boxes
wins; a tie shares first place. Its package holds nothing else outside the registry line
the tests add (``support.dots.register``).
"""
