"""The host's remote-game journal: one JSON line for the setup, one per accepted decision.

Why a file of its own beside the companion's journal: the remote authority is
game-neutral and must be able to resume any registered game after a power cut or a
SIGKILL with the same game id (so the seats' mirrors stay valid) and every decision it
ever acknowledged. Each line is flushed and fsynced before the acknowledgement leaves; a
torn last line (the cut came mid-write) was never acknowledged and is dropped.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from haleakala.games.haleakala.serialize import load_json

NAME = "remote-journal.jsonl"


class JournalError(ValueError):
    """A journal that cannot be resumed; the message names the line and why."""


class RemoteJournal:
    def __init__(self, path: Path) -> None:
        self.path = path

    def start(self, setup: dict[str, Any]) -> None:
        """A new game: the file holds only ``setup`` from now on."""
        tmp = self.path.with_suffix(".tmp")
        with tmp.open("w", encoding="utf-8") as f:
            f.write(json.dumps({"setup": setup}, sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def append(self, record: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record, sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def read(self) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """(setup, decisions) or None when there is no journal; ``JournalError`` when it
        is damaged anywhere but in a torn last line."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            raise JournalError(f"{self.path}: cannot be read ({exc})") from None
        lines = text.split("\n")
        torn = lines.pop()  # "" when the file ends with a newline
        del torn  # a line without its newline was cut mid-write: never acknowledged
        records = []
        for number, line in enumerate(lines, 1):
            try:
                records.append(load_json(line))
            except ValueError as exc:
                raise JournalError(f"{self.path}, line {number}: not JSON ({exc})") from None
        if not records or not isinstance(records[0], dict) or "setup" not in records[0]:
            raise JournalError(f"{self.path}, line 1: the game's setup is missing")
        decisions = records[1:]
        for number, record in enumerate(decisions, 2):
            if (
                not isinstance(record, dict)
                or record.get("seq") != number - 1
                or not isinstance(record.get("seat"), str)
                or not isinstance(record.get("decision"), str)
            ):
                raise JournalError(f"{self.path}, line {number}: not decision {number - 1}")
        return records[0]["setup"], decisions
