"""Haleakala's bots and what they know of the game: the search bot (information-set MCTS),
its foresight, the coach and the strength levels."""
