"""Reading a save or a game log from a file or stdin, with a size cap.

The files come from anywhere (a bug report, a hand edit, ``/dev/zero`` by mistake), so
they are read in bytes up to a cap and decoded here: a file over the cap, a path that
cannot be opened and bytes that are not UTF-8 are each one sentence, never a traceback
or a process that fills its memory. The JSON inside is bounded by ``rules.serialize``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from haleakala.core.jsonread import printable
from haleakala.core.text import N_

SYSTEM_REASONS = (
    N_("No such file or directory"),
    N_("Permission denied"),
    N_("Is a directory"),
    N_("Not a directory"),
    N_("File name too long"),
    N_("No space left on device"),
    N_("Read-only file system"),
)
"""The system's commonest reasons a file cannot be read or written (``strerror`` as the C
library writes them in English): catalog entries, so a player's terminal says them in the
player's language (``_(reason)``); any other reason is shown as the system wrote it."""

# A game log with every legal list is about 60 kB and a save about 10 kB: the caps leave
# room for far longer games and stop at sizes no game reaches.
MAX_LOG_BYTES = 4 * 1024 * 1024
MAX_SAVE_BYTES = 1024 * 1024


class UnreadableFile(Exception):
    """The file cannot be read as text; the message says why, in one line, and
    ``reason`` says it without the file's name (for a caller that names it already)."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def read_text(name: str, limit: int) -> str:
    """The UTF-8 text of file ``name`` (``-`` is stdin), at most ``limit`` bytes."""
    shown = printable(name)
    try:
        if name == "-":
            raw = _read_stdin(limit)
        else:
            with open(Path(name).expanduser(), "rb") as f:
                raw = f.read(limit + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        reason = printable(getattr(exc, "strerror", None) or str(exc))
        raise UnreadableFile(f"cannot read {shown}: {reason}", reason) from None
    if len(raw) > limit:
        reason = f"it is larger than {limit // 1024} kB, more than any game log or saved game"
        raise UnreadableFile(f"cannot read {shown}: {reason}", reason)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        reason = f"line {line}: not UTF-8 text, so not a game log or a saved game"
        raise UnreadableFile(f"cannot read {shown}: {reason}", reason) from None


def _read_stdin(limit: int) -> bytes:
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is not None:
        data: bytes = buffer.read(limit + 1)
        return data
    # A text stream (a test's StringIO): its byte count is checked like a file's.
    return sys.stdin.read(limit + 1).encode("utf-8", "surrogatepass")
