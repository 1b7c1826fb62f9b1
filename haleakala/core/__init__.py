"""What every island game shares and no game owns: the errors a game raises, refusals and
words as values (``text``: a sentence is a catalog template and its parameters, rendered in
each viewer's language), bounded JSON reading of text from outside, the game log's reader
and writer. Pure: no I/O, no clock.

Why a package of its own: every game builds on these without loading
Haleakala's engine; a layering test (``tests/test_layers.py``) holds that ``core`` imports
nothing of the games, the front-ends or the companion.
"""
