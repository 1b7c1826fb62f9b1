"""``haleakala replay`` for a game whose package checks its own logs and saves: reading
the file, the verdict line, the results and the exit status, once for
every such game; each game hands over its hooks (a ``Replayer``).

The checks themselves are the game's (``haleakala.<game>.replay``, with the action checks
shared in ``core.logcheck``); this module only reads, prints and sets the exit status: 0 when
everything agrees, 1 at the first disagreement (printed with the game, its seed and the record
number), 2 (a ``UsageError``) for input that is neither a log nor a save of the game. The
replay check speaks English to developers, like the logs it checks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from haleakala.core.errors import UsageError
from haleakala.core.jsonread import load_json
from haleakala.i18n import english_ngettext


@dataclass(frozen=True)
class Replayer:
    """One game's hooks for the shared replayer."""

    title: str
    """The game's name in a sentence: ``Dots and Boxes``."""
    save_format: str
    """The ``format`` field of the game's saves: ``dots-game``."""
    replay_save: Callable[[str], Any]
    """A save's text to the game its history leads to, replayed through the rules; raises
    ``save_error`` for a save that cannot be read, ``inconsistent`` for one that disagrees."""
    save_verdict: str
    """What a good save proved: ``position matches`` (compared with the saved position) or
    ``position reached`` (the save is its history)."""
    replay_log: Callable[[list[str], bool], Sequence[Any]]
    """The lines of a log (``seeded``: the deal must be the seed's) to its finished games;
    raises ``inconsistent`` at the first disagreement."""
    describe_result: Callable[[Any], str]
    """One line for a replayed game's result, in English."""
    inconsistent: type[Exception]
    save_error: type[Exception]

    def run(self, text: str, label: str, seeded: bool) -> int:
        """Check the log or save ``text`` (named ``label``); print the verdict and results."""
        try:
            data = load_json(text)
        except ValueError:
            data = None
        try:
            if isinstance(data, dict) and data.get("format") == self.save_format:
                game = self.replay_save(text)
                print(f"replay OK: saved {self.title} game {label}, "
                      f"{count(len(game.history), 'decision', 'decisions')}, "
                      f"{self.save_verdict}")  # fmt: skip
                games: Sequence[Any] = [game]
            else:
                games = self.replay_log(text.splitlines(), seeded)
                total = sum(len(g.history) for g in games)
                print(f"replay OK: {self.title} game log {label}, "
                      f"{count(len(games), 'game', 'games')}, "
                      f"{count(total, 'decision', 'decisions')}")  # fmt: skip
        except self.save_error as exc:
            raise UsageError(f"{label} is not a valid saved {self.title} game: {exc}") from None
        except self.inconsistent as exc:
            print(f"{label}: {exc}")
            return 1
        for game in games:
            print(self.describe_result(game))
        return 0


def count(n: int, singular: str, plural: str) -> str:
    """``1 decision``, ``80 decisions``."""
    return f"{n} {english_ngettext(singular, plural, n)}"
