"""The host's remote-game journal: one JSON line for the setup, one per accepted decision.

Why a file of its own beside the companion's journal: the remote authority is
game-neutral and must be able to resume any registered game after a power cut or a
SIGKILL with the same game id (so the seats' mirrors stay valid) and every decision it
ever acknowledged. Each line is flushed and fsynced before the acknowledgement leaves.

On the kit's card (``ahead``, as the host kit opens it) the file is written ahead with zeros,
as the companion's journal is (``Journal.on_card``): each line is written over them and
synced with ``fdatasync``, so an acknowledgement costs the card one page and a flush and no
file-system metadata. The zeros are not lines. A cut before the sync returned can leave the
last line torn anywhere (zeros where its first sectors did not arrive, or no newline): such
a line holds a zero byte or has no end, was never acknowledged, and is torn like any other.

It keeps the companion journal's rules (``companion.journal``): a torn last line (the cut
came mid-write: never acknowledged) is cut off at the next start and its bytes are kept in
a backup beside the journal, so every later start reads a whole file; damage anywhere else
is refused with a sentence naming the line, and nothing is changed; a journal is never
replaced without a backup of what it held; and another table's unfinished game in the
state directory is refused, never overwritten. Any content, however broken, ends in a
``JournalError`` with a sentence, never a traceback.
"""

from __future__ import annotations

import errno
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from haleakala.companion.journal.storage import Disk, keep_copy, write_atomically
from haleakala.core.statefile import StateFileError, read_bounded
from haleakala.games.haleakala.serialize import load_json

NAME = "remote-journal.jsonl"
MAX_BYTES = 64 * 1024 * 1024
"""A remote journal is a few dozen kilobytes; a bigger file is refused, not read."""


class JournalError(ValueError):
    """A journal that cannot be resumed; the message names the line and why."""


def _setup_problem(setup: Any) -> str:
    if not isinstance(setup, dict):
        return "it is not an object"
    for key in ("table", "game", "name", "start"):
        if not isinstance(setup.get(key), str) or not setup[key]:
            return f"its {key!r} is missing or not text"
    if not re.fullmatch(r"[0-9a-f]{1,32}", setup["game"]):
        return "its game id is not a game id"
    return ""


class RemoteJournal:
    def __init__(self, path: Path, *, sync: bool = True, ahead: int = 0) -> None:
        """``ahead``: zeros written ahead of the lines, in stretches of this many bytes (0:
        none, the file grows with each line)."""
        self.path = path
        self.sync = sync
        self.ahead = ahead
        self.notes: list[str] = []
        """What reading it changed (a torn line cut off, and where its bytes are kept)."""
        self.end: int | None = None  # where the next line goes (None: not read yet)
        self.size = 0  # bytes in the file, lines and zeros
        self.torn = b""  # a torn last line read but not cut off (``read(repair=False)``)

    def _with_zeros(self, data: bytes) -> bytes:
        """``data`` and the zeros after it to the end of its stretch (none without ``ahead``)."""
        if not self.ahead:
            return data
        return data + bytes((len(data) // self.ahead + 1) * self.ahead - len(data))

    def start(self, setup: dict[str, Any]) -> None:
        """A new game: the file holds only ``setup`` from now on (a journal that was there
        is kept first in a backup beside it: nothing is ever overwritten unkept)."""
        if self.path.exists():
            kept = keep_copy(self.path, self.path.read_bytes(), sync=self.sync)
            self.notes.append(f"{self.path.name}: the journal that was there is kept in {kept}")
        line = (json.dumps({"setup": setup}, sort_keys=True) + "\n").encode()
        data = self._with_zeros(line)
        write_atomically(self.path, data, sync=self.sync)
        self.end, self.size = len(line), len(data)

    def append(self, record: dict[str, Any]) -> None:
        """One line, durable on return (what an acknowledgement waits for)."""
        line = (json.dumps(record, sort_keys=True) + "\n").encode()
        if not self.ahead:
            with self.path.open("ab") as f:
                f.write(line)
                f.flush()
                if self.sync:
                    Disk().sync(f.fileno())
            return
        if self.end is None or self.torn:  # not read yet, or read without its repair
            self.read()
            assert self.end is not None
        end = self.end + len(line)
        data = line
        if end >= self.size:  # past the zeros: the next stretch comes with this line
            data = line + bytes((end // self.ahead + 1) * self.ahead - end)
        fd = os.open(self.path, os.O_WRONLY)
        try:
            at, view = self.end, memoryview(data)
            while view:
                written = os.pwrite(fd, view, at)
                if written <= 0:
                    raise OSError(errno.EIO, "the write wrote nothing")
                view, at = view[written:], at + written
            if self.sync:
                Disk().sync(fd, data_only=True)
        finally:
            os.close(fd)
        self.end, self.size = end, max(self.size, at)

    def read(self, *, repair: bool = True) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """(setup, decisions) or None when there is no journal; ``JournalError`` when it
        is damaged anywhere but in a torn last line. A torn last line is cut off (its bytes
        kept in a backup, said in ``notes``) unless ``repair`` is False."""
        try:  # a regular file of a bounded size only: never a pipe that hangs the start
            raw = read_bounded(self.path, MAX_BYTES, "a remote game's journal")
            if raw is None:
                return None
        except StateFileError as exc:
            raise JournalError(str(exc)) from None
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot be read ({exc})") from None
        data = raw.rstrip(b"\0")  # the zeros written ahead are not lines
        cut = data.rfind(b"\n") + 1  # after it: a line without its newline, cut mid-write
        last = data.rfind(b"\n", 0, cut - 1) + 1 if cut else 0  # the last whole line's start
        if b"\0" in data[last:cut]:  # zeros where its first sectors did not arrive: torn too
            cut = last
        whole, torn = data[:cut], data[cut:]
        self.end, self.size, self.torn = len(whole), len(raw), torn
        if torn and repair:
            kept = keep_copy(self.path, raw, sync=self.sync)
            rewritten = self._with_zeros(whole)
            write_atomically(self.path, rewritten, sync=self.sync)
            self.size, self.torn = len(rewritten), b""
            self.notes.append(
                f"{self.path.name}: a torn last line ({len(torn)} bytes, never acknowledged) "
                f"was cut off; the file as it was is kept in {kept.name}"
            )
        return self._parse(whole)

    def resume(self, table: str) -> tuple[Any, str, list[tuple[str, str]]] | None:
        """The game this journal holds for ``table``, every decision checked as it is
        replayed: (game, game id, [(seat, decision), ...]); None when it holds no game of
        that table. What the virtual Pi's crash states check on every disk state
        (tools/crash_check.py); the host itself goes through ``open_host_game``."""
        saved = self.read()
        if saved is None or saved[0].get("table") != table:
            return None
        setup, records = saved
        game, history = resume(setup, records, self.path)
        return game, setup["game"], history

    def _parse(self, whole: bytes) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        try:
            text = whole.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JournalError(f"{self.path}: not UTF-8 text ({exc.reason})") from None
        records = []
        for number, line in enumerate(text.split("\n")[:-1], 1):
            try:
                records.append(load_json(line))
            except (ValueError, RecursionError) as exc:
                why = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
                raise JournalError(f"{self.path}, line {number}: not JSON ({why})") from None
        if not records or not isinstance(records[0], dict) or "setup" not in records[0]:
            raise JournalError(f"{self.path}, line 1: the game's setup is missing")
        problem = _setup_problem(records[0]["setup"])
        if problem:
            raise JournalError(f"{self.path}, line 1: the game's setup is damaged: {problem}")
        decisions = records[1:]
        for number, record in enumerate(decisions, 2):
            if (
                not isinstance(record, dict)
                or type(record.get("seq")) is not int
                or record.get("seq") != number - 1
                or not isinstance(record.get("seat"), str)
                or not isinstance(record.get("decision"), str)
            ):
                raise JournalError(f"{self.path}, line {number}: not decision {number - 1}")
        return records[0]["setup"], decisions


def resume(
    setup: dict[str, Any], records: list[dict[str, Any]], where: Path
) -> tuple[Any, list[tuple[str, str]]]:
    """The game of ``setup`` with every journalled decision replayed and checked, and its
    history; ``JournalError`` with a sentence for anything that does not replay."""
    from haleakala.gameapi import game_class

    try:
        game = game_class(setup["name"]).from_json(setup["start"])
    except Exception as exc:  # any content: a sentence, never a traceback
        raise JournalError(f"{where}: its setup cannot be resumed ({_short(exc)})") from None
    history = []
    for r in records:
        try:
            why = game.why_illegal(r["decision"], r["seat"])
            if not why:
                game.apply(r["decision"], r["seat"])
        except Exception as exc:
            why = _short(exc)
        if why:
            raise JournalError(f"{where}: decision {r['seq']} does not replay: {why}")
        history.append((r["seat"], r["decision"]))
    return game, history


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0][:160] if str(exc) else ""
    return text or type(exc).__name__


def open_host_game(
    journal: RemoteJournal, table: str, new_game: Callable[[], Any] | None
) -> tuple[Any, str, list[tuple[str, str]], bool]:
    """The host's game at ``table``: (game, game id, history, resumed). The journal's game
    if it is this table's; a new one (``new_game``) if there is none. A journal of another
    table's unfinished game is refused with a sentence (it can still be played there), and
    so is a damaged one: nothing is overwritten."""
    saved = journal.read()
    if saved is not None:
        setup, records = saved
        if setup["table"] != table:
            raise JournalError(
                f"{journal.path} holds table {setup['table']}'s unfinished game "
                f"{setup['game']} ({len(records)} decisions): go on with it "
                f"(--remote …/{setup['table']} --host), or give table {table} a state "
                "directory of its own (--state-dir); nothing was changed"
            )
        game, history = resume(setup, records, journal.path)
        return game, setup["game"], history, True
    if new_game is None:
        raise JournalError("no game to resume and none to start")
    from .wire import nonce

    return new_game(), nonce(), [], False
