"""How much the companion says and how loud: the two settings a player changes at the board.

``verbosity``: ``off`` (silent), ``events`` (decisions, refusals, whose turn, eruptions and
scorings, lessons: the game as it happens, frequent events in their short form) or
``everything`` (those in full, and every line the OLED shows as the encoder reaches it: a
player who cannot see the screen hears the menu and the choosers). ``volume`` in percent, in
the steps the menu cycles through. The config gives the defaults (``[speech]``); a change at
the board is journaled like the language, so a restart keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

VERBOSITIES = ("off", "events", "everything")
VOLUMES = (20, 40, 60, 80, 100)
DEFAULT_VERBOSITY = "events"
DEFAULT_VOLUME = 60
ENGINES = ("espeak-ng", "piper")
"""``[speech] engine``: espeak-ng (the default, every language) or piper (``speech.engine``)."""
RATES = (80, 400)
"""Words per minute a player can follow, slowest to fastest."""


@dataclass(frozen=True)
class Settings:
    verbosity: str = DEFAULT_VERBOSITY
    volume: int = DEFAULT_VOLUME

    def __post_init__(self) -> None:
        if self.verbosity not in VERBOSITIES:
            raise ValueError(f"verbosity {self.verbosity!r}: choose {', '.join(VERBOSITIES)}")
        if not 0 <= self.volume <= 100:
            raise ValueError(f"volume {self.volume}: choose 0 to 100 (per cent)")

    @property
    def silent(self) -> bool:
        return self.verbosity == "off" or self.volume == 0

    def says(self, level: str) -> bool:
        """Is an utterance of ``level`` ("events" or "everything") said at this verbosity?"""
        return not self.silent and VERBOSITIES.index(level) <= VERBOSITIES.index(self.verbosity)

    def next_verbosity(self) -> Settings:
        """The menu's next step: off → events → everything → off."""
        i = VERBOSITIES.index(self.verbosity)
        return replace(self, verbosity=VERBOSITIES[(i + 1) % len(VERBOSITIES)])

    def next_volume(self) -> Settings:
        """The menu's next step: 20 → 40 → … → 100 → 20 (a volume between two steps goes to
        the next one up)."""
        louder = [v for v in VOLUMES if v > self.volume]
        return replace(self, volume=louder[0] if louder else VOLUMES[0])

    def to_record(self) -> dict[str, Any]:
        return {"verbosity": self.verbosity, "volume": self.volume}

    @classmethod
    def of_record(cls, record: Any, default: Settings | None = None) -> Settings | None:
        """The settings a journal record holds; ``default`` when it holds none or nonsense
        (a record cannot make the daemon fail to start)."""
        if not isinstance(record, dict):
            return default
        verbosity, volume = record.get("verbosity"), record.get("volume")
        if verbosity not in VERBOSITIES or type(volume) is not int or not 0 <= volume <= 100:
            return default
        return cls(str(verbosity), volume)
