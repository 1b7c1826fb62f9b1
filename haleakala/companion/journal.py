"""The journal: a game that survives being unplugged.

Every accepted decision is appended to ``journal.bin`` as one record and fsynced before it
is acknowledged. A record is ``length (4 bytes, big-endian) · CRC32 of the payload (4 bytes)
· payload`` where the payload is UTF-8 JSON. The first record is the header (variant, seed,
starting player: enough to rebuild the deal); then one record per decision
(``{"type": "decision", "ply": 12, "player": "red", "decision": "3@2", "by": "player",
"digest": "…"}``, the digest of the position *after* it) and one per undo
(``{"type": "undo", "count": 2, "ply": 10, "digest": "…"}``). Solo mode is part of the game
on the table, so its setting is kept too: in the header (``"solo": "yellow", "strength":
"normal"``) and as a ``{"type": "solo", …}`` record whenever the menu changes it; a daemon
restarted without ``--solo`` resumes the companion's seat as it was.

Every ``snapshot_every`` decisions ``snapshot.json`` is replaced atomically (write a temp
file, fsync, rename, fsync the directory) with ``Game.to_json`` and the number of journal
records it covers, so a restart replays only the tail.

Recovery on start: read the records; a torn tail (partial record, bad CRC, bad JSON) is cut
off and logged; load the snapshot unless it is corrupt, of another version or of another
game (then the whole journal is replayed from its header, and that is logged); replay the
records after it, checking each digest. A power cut can therefore lose nothing that was
acknowledged. Finished games are kept as game logs (NOTATION.md) under ``games/``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import struct
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from haleakala.rules import PLAYERS, Game, SaveError
from haleakala.rules.log import action_record, event_records, setup_record

log = logging.getLogger("haleakala.journal")

JOURNAL_NAME = "journal.bin"
SNAPSHOT_NAME = "snapshot.json"
GAMES_DIR = "games"
FORMAT = "haleakala-journal"
VERSION = 1
SNAPSHOT_FORMAT = "haleakala-snapshot"
SNAPSHOT_VERSION = 1
FRAME = struct.Struct(">II")
MAX_PAYLOAD = 1 << 20
"""No record is anywhere near 1 MiB; a larger length field means a damaged record."""
DEFAULT_SNAPSHOT_EVERY = 20

SOURCES = ("player", "auto", "bot")
"""Who made a decision: a player, the forced-decision timer, or the solo bot. Undo takes
back the last player decision together with the automatic ones after it."""


class JournalError(OSError):
    """The journal could not be written (disk full, read-only, removed)."""


# --------------------------------------------------------------------------- records


def encode_record(payload: dict[str, Any]) -> bytes:
    body = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    return FRAME.pack(len(body), zlib.crc32(body)) + body


@dataclass
class RecordScan:
    """The readable records of a journal and where the good part ends."""

    records: list[tuple[int, dict[str, Any]]]  # (byte offset, payload)
    end: int  # bytes that hold whole, valid records
    problem: str | None = None  # why reading stopped before the end of the data


def scan_records(data: bytes) -> RecordScan:
    records: list[tuple[int, dict[str, Any]]] = []
    pos = 0
    while pos < len(data):
        if len(data) - pos < FRAME.size:
            return RecordScan(records, pos, "partial record header")
        length, crc = FRAME.unpack_from(data, pos)
        if length > MAX_PAYLOAD:
            return RecordScan(records, pos, f"impossible record length {length}")
        body = data[pos + FRAME.size : pos + FRAME.size + length]
        if len(body) < length:
            return RecordScan(records, pos, "partial record")
        if zlib.crc32(body) != crc:
            return RecordScan(records, pos, "record CRC mismatch")
        try:
            payload = json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError):
            return RecordScan(records, pos, "record is not JSON")
        if not isinstance(payload, dict):
            return RecordScan(records, pos, "record is not a JSON object")
        records.append((pos, payload))
        pos += FRAME.size + length
    return RecordScan(records, pos)


def new_game_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(3)


def replay(variant: str, seed: int, start: str, history: list[int] | list[str]) -> Game:
    """The game rebuilt from its deal and decisions (raises IllegalDecision if one is not
    legal under the current rules)."""
    game = Game(variant, seed, start)
    for decision in history:
        game.apply(decision)
    return game


def game_log_lines(game: Game) -> list[dict[str, Any]]:
    """The NOTATION.md game log of ``game``, rebuilt from its history."""
    fresh = Game(game.variant, game.seed, PLAYERS[game.start])
    lines = [setup_record(fresh)]
    for d in game.history:
        lines.append(action_record(fresh, d))
        lines.extend(event_records(fresh, fresh.apply(d)))
    return lines


def _settings(
    record: dict[str, Any], solo: str | None, strength: str | None
) -> tuple[str | None, str | None]:
    """Solo settings from a header or solo record (a value that names nothing is ignored)."""
    if "solo" in record and (record["solo"] is None or record["solo"] in PLAYERS):
        solo = record["solo"]
    if isinstance(record.get("strength"), str):
        strength = record["strength"]
    return solo, strength


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomically(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Replace ``path`` with ``data`` so that a reader sees the old or the new file, never a
    mix: temp file, fsync, rename, fsync the directory."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        if sync:
            os.fsync(f.fileno())
    os.replace(tmp, path)
    if sync:
        _fsync_dir(path.parent)


# --------------------------------------------------------------------------- the journal


@dataclass
class Journal:
    """The journal of the game in progress in ``state_dir``.

    ``recover()`` returns the game found there (or None); ``start(game)`` begins a new one;
    ``append_decision`` / ``append_undo`` record what the controller accepted.
    """

    state_dir: Path
    snapshot_every: int = DEFAULT_SNAPSHOT_EVERY
    sync: bool = True
    header: dict[str, Any] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    """Who made each decision of the history (parallel to ``game.history``)."""
    notes: list[str] = field(default_factory=list)
    """What recovery had to repair, for the log and the OLED."""
    record_count: int = 0
    since_snapshot: int = 0
    digest_mismatches: int = 0
    solo: str | None = None
    """The colour the companion plays in this game (None: nobody), as last recorded."""
    strength: str | None = None
    """The solo bot's strength as last recorded (None: never recorded)."""

    def __post_init__(self) -> None:
        self.state_dir = Path(self.state_dir)
        self.path = self.state_dir / JOURNAL_NAME
        self.snapshot_path = self.state_dir / SNAPSHOT_NAME
        self.games_dir = self.state_dir / GAMES_DIR
        self._fd: int | None = None
        self.archived: Path | None = None

    # -- paths and file handle ------------------------------------------------------

    @property
    def game_id(self) -> str | None:
        return self.header.get("game")

    def _open_append(self) -> int:
        if self._fd is None:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        return self._fd

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def _note(self, level: int, text: str) -> None:
        self.notes.append(text)
        log.log(level, "%s", text)

    # -- recovery ---------------------------------------------------------------------

    def recover(self) -> Game | None:
        """The game of this journal, exactly as last acknowledged; None if there is none."""
        self.notes = []
        self.state_dir.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            return None
        data = self.path.read_bytes()
        scan = scan_records(data)
        if scan.problem:
            self._note(
                logging.WARNING,
                f"journal: {scan.problem} at byte {scan.end}; cut the torn tail "
                f"({len(data) - scan.end} bytes, {len(scan.records)} records kept)",
            )
            self._truncate(scan.end)
        records = scan.records
        header = records[0][1] if records else {}
        if header.get("type") != "header" or header.get("format") != FORMAT:
            self._set_aside("has no valid header")
            return None
        if header.get("version") != VERSION:
            self._set_aside(
                f"is version {header.get('version')}; this program writes version {VERSION}"
            )
            return None
        try:
            base = Game(header["variant"], int(header["seed"]), header["start"])
        except (KeyError, TypeError, ValueError) as exc:
            self._set_aside(f"has a header that names no game ({exc})")
            return None
        self.header = header
        self.solo, self.strength = _settings(header, None, None)
        game, sources, start = base, [], 1
        loaded = self._load_snapshot(records)
        if loaded is not None:
            game, sources, start = loaded
        for index in range(start, len(records)):
            offset, record = records[index]
            try:
                game, sources = self._apply(game, sources, record)
            except Exception as exc:  # an illegal or unreadable record: keep what is good
                backup = self._backup()
                self._note(
                    logging.ERROR,
                    f"journal: record {index} ({record.get('decision', record.get('type'))}) "
                    f"cannot be replayed ({exc}); kept {index} records, the rest is in "
                    f"{backup.name}",
                )
                self._truncate(offset)
                records = records[:index]
                break
            want = record.get("digest")
            if want is not None and want != game.digest():
                self.digest_mismatches += 1
                self._note(
                    logging.ERROR,
                    f"journal: digest after record {index} is {game.digest()}, the journal "
                    f"says {want} (were the rules changed?)",
                )
        for _, record in records[1:]:  # before the snapshot too: settings are not in it
            if record.get("type") == "solo":
                self.solo, self.strength = _settings(record, self.solo, self.strength)
        self.record_count = len(records)
        self.sources = sources
        kept = self.games_dir / f"{self.game_id}.jsonl"
        self.archived = kept if kept.exists() else None
        self.since_snapshot = self.record_count - (start if loaded else 1)
        return game

    def _apply(
        self, game: Game, sources: list[str], record: dict[str, Any]
    ) -> tuple[Game, list[str]]:
        kind = record.get("type")
        if kind == "decision":
            game.apply(record["decision"])
            by = record.get("by", "player")
            return game, [*sources, by if by in SOURCES else "player"]
        if kind == "undo":
            count = int(record["count"])
            if not 0 < count <= len(game.history):
                raise ValueError(f"undo of {count} decisions, {len(game.history)} made")
            keep = game.history[: len(game.history) - count]
            return self._rebuild(keep), sources[: len(keep)]
        if kind == "solo":  # a setting, not a move: the position stays
            return game, sources
        raise ValueError(f"unknown record type {kind!r}")

    def _rebuild(self, history: list[int]) -> Game:
        h = self.header
        return replay(h["variant"], int(h["seed"]), h["start"], history)

    def _load_snapshot(
        self, records: list[tuple[int, dict[str, Any]]]
    ) -> tuple[Game, list[str], int] | None:
        if not self.snapshot_path.exists():
            return None
        why = None
        try:
            snap = json.loads(self.snapshot_path.read_bytes())
            if not isinstance(snap, dict) or snap.get("format") != SNAPSHOT_FORMAT:
                why = "not a snapshot"
            elif snap.get("version") != SNAPSHOT_VERSION:
                why = (
                    f"version {snap.get('version')}, this program reads version {SNAPSHOT_VERSION}"
                )
            elif snap.get("game") != self.game_id:
                why = None  # an older game's snapshot: silently stale
                return None
            else:
                covered = int(snap["records"])
                if not 1 <= covered <= len(records):
                    why = f"covers {covered} records, the journal has {len(records)}"
                else:
                    game = Game.from_json(snap["state"])
                    last = records[covered - 1][1]
                    expected = last.get("digest") or Game(**self._deal()).digest()
                    if game.digest() != snap.get("digest") or game.digest() != expected:
                        why = "its position disagrees with the journal"
                    else:
                        sources = [s if s in SOURCES else "player" for s in snap["sources"]]
                        if len(sources) != len(game.history):
                            why = "its decision sources do not match its history"
                        else:
                            return game, sources, covered
        except SaveError as exc:
            why = f"its game does not load ({exc})"
        except (OSError, ValueError, KeyError, TypeError) as exc:
            why = f"unreadable ({exc.__class__.__name__}: {exc})"
        self._note(logging.WARNING, f"snapshot: {why}; replaying the whole journal instead")
        return None

    def _deal(self) -> dict[str, Any]:
        h = self.header
        return {"variant": h["variant"], "seed": int(h["seed"]), "start": h["start"]}

    def _truncate(self, size: int) -> None:
        self.close()
        with open(self.path, "r+b") as f:
            f.truncate(size)
            f.flush()
            if self.sync:
                os.fsync(f.fileno())

    def _backup(self) -> Path:
        target = self.path.with_name(f"{JOURNAL_NAME}.bad-{time.strftime('%Y%m%d-%H%M%S')}")
        target.write_bytes(self.path.read_bytes())
        return target

    def _set_aside(self, why: str) -> None:
        self.close()
        target = self.path.with_name(f"{JOURNAL_NAME}.bad-{time.strftime('%Y%m%d-%H%M%S')}")
        os.replace(self.path, target)
        self._note(logging.ERROR, f"journal {why}; moved to {target.name}, starting afresh")

    # -- writing ----------------------------------------------------------------------

    def start(
        self,
        game: Game,
        game_id: str | None = None,
        *,
        solo: str | None = None,
        strength: str | None = None,
    ) -> None:
        """Begin the journal of a new game (atomically replacing the previous one)."""
        self.close()
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.header = {
            "type": "header",
            "format": FORMAT,
            "version": VERSION,
            "game": game_id or new_game_id(),
            "variant": game.variant,
            "seed": game.seed,
            "start": PLAYERS[game.start],
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        if solo is not None or strength is not None:
            self.header.update(solo=solo, strength=strength)
        self.solo, self.strength = solo, strength
        try:
            write_atomically(self.path, encode_record(self.header), sync=self.sync)
            with contextlib.suppress(FileNotFoundError):
                self.snapshot_path.unlink()
        except OSError as exc:
            raise JournalError(
                exc.errno, f"cannot start the journal in {self.state_dir}: {exc}"
            ) from exc
        self.sources = []
        self.record_count = 1
        self.since_snapshot = 0
        self.archived = None
        if game.history:  # a game started from a position: journal the way there
            again = Game(**self._deal())
            for d in game.history:
                again.apply(d)
                self.append_decision(again)

    def _append(self, payload: dict[str, Any]) -> None:
        record = encode_record(payload)
        try:
            fd = self._open_append()
            written = os.write(fd, record)
            if written != len(record):
                raise OSError(f"short write ({written} of {len(record)} bytes)")
            if self.sync:
                os.fsync(fd)
        except OSError as exc:
            self.close()
            raise JournalError(exc.errno or 0, f"journal write failed: {exc}") from exc
        self.record_count += 1

    def append_decision(self, game: Game, by: str = "player", digest: str | None = None) -> None:
        """Record the last decision of ``game`` (already applied); durable on return."""
        d = game.history[-1]
        self._append(
            {
                "type": "decision",
                "ply": len(game.history),
                "decision": game.format(d),
                "by": by,
                "digest": digest or game.digest(),
            }
        )
        self.sources.append(by)
        self.since_snapshot += 1

    def append_solo(self, solo: str | None, strength: str | None) -> None:
        """Record a change of solo mode (who the companion plays, how strongly)."""
        self._append({"type": "solo", "solo": solo, "strength": strength})
        self.solo, self.strength = solo, strength

    def append_undo(self, game: Game, count: int) -> None:
        """Record that the last ``count`` decisions were taken back (``game`` is after)."""
        self._append(
            {"type": "undo", "count": count, "ply": len(game.history), "digest": game.digest()}
        )
        del self.sources[len(game.history) :]
        self.since_snapshot += 1

    @property
    def snapshot_due(self) -> bool:
        return self.snapshot_every > 0 and self.since_snapshot >= self.snapshot_every

    def write_snapshot(self, game: Game) -> None:
        """Replace the snapshot with ``game`` (covering every record written so far)."""
        snap = {
            "format": SNAPSHOT_FORMAT,
            "version": SNAPSHOT_VERSION,
            "game": self.game_id,
            "records": self.record_count,
            "digest": game.digest(),
            "sources": self.sources,
            "state": game.to_json(),
        }
        write_atomically(
            self.snapshot_path, json.dumps(snap, separators=(",", ":")).encode(), sync=self.sync
        )
        self.since_snapshot = 0

    def archive(self, game: Game) -> Path:
        """Keep ``game`` as a game log (one JSON record per line) under ``games/``."""
        self.games_dir.mkdir(parents=True, exist_ok=True)
        name = f"{self.game_id or new_game_id()}.jsonl"
        lines = game_log_lines(game)
        data = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
        target = self.games_dir / name
        write_atomically(target, data.encode(), sync=self.sync)
        self.archived = target
        return target
