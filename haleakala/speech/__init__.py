"""The companion speaks: what it shows on the OLED and the LEDs, said aloud in the player's
language, on a worker thread the daemon's loop never waits for.

``settings`` (verbosity and volume, journaled like the language), ``engine`` (espeak-ng, the
default; Piper where a voice model is installed), ``voice`` (the worker: a bounded queue by
priority, interruption, silence instead of failure). What is said comes from the words the
companion already has (``core.text.Text`` values): the narrators render them in the language
in use (``companion.narrator`` for the kit, ``terminal.speaking`` for the terminal games).
"""

from .settings import ENGINES, VERBOSITIES, VOLUMES, Settings

__all__ = ["ENGINES", "VERBOSITIES", "VOLUMES", "Settings"]
