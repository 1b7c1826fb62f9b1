"""The host's remote-game journal: one JSON line for the setup, one per accepted decision.

Why a file of its own beside the companion's journal: the remote authority is
game-neutral and must be able to resume any registered game after a power cut or a
SIGKILL with the same game id (so the seats' mirrors stay valid) and every decision it
ever acknowledged. Each line is flushed and fsynced before the acknowledgement leaves; a
torn last line (the cut came mid-write) was never acknowledged and is dropped.

On the kit's card (``ahead``, as the host kit opens it) the file is written ahead with zeros,
as the companion's journal is (``Journal.on_card``): each line is written over them and
synced with ``fdatasync``, so an acknowledgement costs the card one page and a flush and no
file-system metadata. The zeros are not lines. A cut before the sync returned can leave the
last line torn anywhere (zeros where its first sectors did not arrive, or no newline): such
a line holds a zero byte or has no end, was never acknowledged, and is dropped; the first
line written after it goes over it, once the file as found is kept in a ``.bad-`` copy.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from pathlib import Path
from typing import Any

from haleakala.rules.serialize import load_json

NAME = "remote-journal.jsonl"


class JournalError(ValueError):
    """A journal that cannot be resumed; the message names the line and why."""


class RemoteJournal:
    def __init__(self, path: Path, ahead: int = 0) -> None:
        """``ahead``: zeros written ahead of the lines, in stretches of this many bytes (0:
        none, the file grows with each line)."""
        self.path = path
        self.ahead = ahead
        self.end: int | None = None  # where the next line goes (ahead: None until known)
        self.size = 0  # bytes in the file, lines and zeros
        self.torn = b""  # what a cut left after the last whole line (kept before overwriting)

    def _zeros_to(self, end: int) -> int:
        """The end of the stretch of zeros that follows a line ending at ``end``."""
        return (end // self.ahead + 1) * self.ahead

    def start(self, setup: dict[str, Any]) -> None:
        """A new game: the file holds only ``setup`` from now on."""
        line = (json.dumps({"setup": setup}, sort_keys=True) + "\n").encode()
        data = line + bytes(self._zeros_to(len(line)) - len(line)) if self.ahead else line
        tmp = self.path.with_suffix(".tmp")
        with tmp.open("wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        fd = os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)  # the name too: a new game's first acknowledgement needs its file
        finally:
            os.close(fd)
        self.end, self.size, self.torn = len(line), len(data), b""

    def append(self, record: dict[str, Any]) -> None:
        line = (json.dumps(record, sort_keys=True) + "\n").encode()
        if not self.ahead:
            with self.path.open("r+b" if self.torn else "ab") as f:
                if self.torn and self.end is not None:  # kept, then cut: never acknowledged
                    self._keep_as_found()
                    f.truncate(self.end)
                    f.seek(self.end)
                    self.torn = b""
                f.write(line)
                f.flush()
                os.fsync(f.fileno())
            return
        if self.end is None:  # appending to a journal this object has not read
            self.read()
            assert self.end is not None
        if self.torn:  # the bytes a cut left are overwritten: kept first
            self._keep_as_found()
        end = self.end + len(line)
        data = line
        if end >= self.size:
            data += bytes(self._zeros_to(end) - end)
        elif self.torn:  # the rest of what the cut left goes too
            data += bytes(max(0, self.end + len(self.torn) - end))
        fd = os.open(self.path, os.O_WRONLY)
        try:
            at, view = self.end, memoryview(data)
            while view:
                written = os.pwrite(fd, view, at)
                view, at = view[written:], at + written
            os.fdatasync(fd)
        finally:
            os.close(fd)
        self.end, self.size, self.torn = end, max(self.size, at), b""

    def _keep_as_found(self) -> None:
        """A copy of the file as found beside it (``.bad-`` and a unique stamp), synced."""
        raw = self.path.read_bytes()
        while True:
            name = f"{self.path.name}.bad-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"
            try:
                with open(self.path.with_name(name), "xb") as f:
                    f.write(raw)
                    f.flush()
                    os.fsync(f.fileno())
                break
            except FileExistsError:
                continue
        fd = os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def read(self) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """(setup, decisions) or None when there is no journal; ``JournalError`` when it
        is damaged anywhere but in a torn last line."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot be read ({exc})") from None
        data = raw.rstrip(b"\0")  # the zeros written ahead are not lines
        cut = data.rfind(b"\n") + 1  # after it: a line without its newline, cut mid-write
        last = data.rfind(b"\n", 0, cut - 1) + 1 if cut else 0  # the last whole line's start
        if b"\0" in data[last:cut]:  # zeros where its first sectors did not arrive: torn too
            cut = last
        self.end, self.size, self.torn = cut, len(raw), data[cut:]
        try:
            text = data[:cut].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JournalError(f"{self.path}: cannot be read ({exc})") from None
        lines = text.split("\n")
        lines.pop()  # "" after the last newline
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

    def resume(self, table: str) -> tuple[Any, str, list[tuple[str, str]]] | None:
        """The game this journal holds for ``table``, every decision checked as it is
        replayed: (game, game id, [(seat, decision), ...]); None when it holds no game of
        that table. What the host resumes after a power cut (and what the virtual Pi's crash
        states check on every disk state: tools/crash_check.py)."""
        from haleakala.gameapi import game_class

        saved = self.read()
        if saved is None or saved[0].get("table") != table:
            return None
        setup, records = saved
        try:
            game = game_class(setup["name"]).from_json(setup["start"])
            game_id = str(setup["game"])
        except (KeyError, TypeError, ValueError) as exc:
            raise JournalError(f"{self.path}: its setup cannot be resumed ({exc})") from None
        history = []
        for r in records:
            why = game.why_illegal(r["decision"], r["seat"])
            if why:
                raise JournalError(f"{self.path}: decision {r['seq']}: {why}")
            game.apply(r["decision"], r["seat"])
            history.append((r["seat"], r["decision"]))
        return game, game_id, history
