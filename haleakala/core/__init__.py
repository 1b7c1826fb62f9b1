"""What every island game shares and no game owns: the errors a game raises, bounded
JSON reading of text from outside, the game log's reader and writer, and the marks that
let a sentence of the rules be translated later.

Why a package of its own: Kahuna (and every later game) builds on these without loading
Haleakala's engine; a layering test (``tests/test_layers.py``) holds that ``core`` imports
nothing of the games, the front-ends or the companion.
"""
