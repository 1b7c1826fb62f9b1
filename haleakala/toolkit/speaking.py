"""The terminal game aloud (``haleakala play --speak``): what the table is told, said.

Every game's session speaks through the same loop (``toolkit.terminal``), so this knows no game:
it is handed lines the session has already put in the player's language and says them, keyed
by the number of decisions made, so a line is said once. Bots wait for the voice before
their next decision (a game between bots is heard, not skipped), which the terminal may do:
it has no watchdog and nothing else to serve.

What is said at ``events``: every decision with what it caused, refusals (first, cutting
off what was being said), whose turn it is, the result. At ``everything`` the introduction and
the legal decisions at a turn's start too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from haleakala import i18n
from haleakala.speech.voice import ALERT, EVENT, Utterance

if TYPE_CHECKING:
    from haleakala.speech.voice import Voice

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
WAIT_S = 60.0
"""The longest a bot waits for the voice (a voice that hangs is killed long before)."""


def plain(text: str) -> str:
    """A printed line as it is said: no colour codes, no board-drawing characters, one line."""
    text = _ANSI.sub("", text)
    return " ".join(text.replace("|", ",").split())


class SessionVoice:
    """A session's voice: ``say`` a line of the table's, ``refuse`` one the person typed."""

    def __init__(self, voice: Voice, game: str = "") -> None:
        self.voice = voice
        self.game = game
        self.loads = 0  # a loaded save numbers its decisions from its own start
        self.serial = 0

    def key(self, ply: int, what: str) -> str:
        return f"{self.game}/{self.loads}/{ply}/{what}"

    def say(self, ply: int, what: str, *lines: str, level: str = "events") -> None:
        text = " ".join(_sentence(plain(line)) for line in lines if plain(line))
        if text:
            self.voice.say(Utterance(self.key(ply, what), text, i18n.current(), EVENT, level))

    def refuse(self, ply: int, line: str) -> None:
        self.serial += 1
        text = _sentence(plain(line))
        self.voice.say(Utterance(self.key(ply, f"refused{self.serial}"), text, i18n.current(),
                                 ALERT))  # fmt: skip

    def before_bot(self) -> None:
        """A bot decides only once everything before it was said."""
        self.voice.wait_idle(WAIT_S)

    def finish(self) -> None:
        """The end of the session: what is queued is said before the program ends."""
        self.voice.wait_idle(WAIT_S)
        self.voice.close()


def _sentence(text: str) -> str:
    return text if not text or text[-1] in ".!?:;" else text + "."
