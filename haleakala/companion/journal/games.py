"""Games rebuilt from what the journal keeps: a deal and its decisions, the game log of a
finished game, and the snapshot value recovery weighs against the journal."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from haleakala.core.statefile import StateFileError, read_bounded
from haleakala.games.haleakala import PLAYERS, Game, SaveError
from haleakala.games.haleakala.log import action_record, event_records, setup_record

from .records import SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SOURCES, deal_of

MAX_SNAPSHOT = 16 << 20
"""A snapshot is a few kB (a long game's whole history is tens of kB): a larger file is not
one, and is not read (it is kept aside like a damaged one)."""


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


@dataclass
class Snapshot:
    """A snapshot that reads well and agrees with itself (not yet with the journal)."""

    game: Game
    sources: list[str]
    records: int
    game_id: str | None
    raw: bytes
    digest: str
    replays: bool | None = None  # its history leads to its position (checked when needed)
    checked: bool = True  # its check covers every field; False: an older, unchecked snapshot

    @property
    def position(self) -> tuple[int, str]:
        return len(self.game.history), self.digest


def deal_from(game: Game) -> dict[str, Any]:
    """The deal of ``game`` as a header names it."""
    return {"variant": game.variant, "seed": game.seed, "start": PLAYERS[game.start]}


LEGACY_FIELDS = frozenset(("format", "version", "game", "records", "digest", "sources", "state"))
"""The fields of a snapshot written before snapshots carried a ``check``."""


def snapshot_check(snap: dict[str, Any]) -> str:
    """CRC32 of every field of a snapshot but ``check`` itself, as written. The digest covers
    the position only (history aside): without this, a flipped bit in the history or the
    decision sources would still read as a good snapshot of a *different* game. (CRC32
    detects any three flipped bits at a snapshot's size, and most other damage.)"""
    rest = {key: value for key, value in snap.items() if key != "check"}
    return f"{zlib.crc32(json.dumps(rest, separators=(',', ':')).encode()):08x}"


def snapshot_bytes(snap: dict[str, Any]) -> bytes:
    """The file of a snapshot: its fields and, last, the check that covers them."""
    return json.dumps({**snap, "check": snapshot_check(snap)}, separators=(",", ":")).encode()


def read_snapshot(path: Path, header: dict[str, Any] | None) -> Snapshot | str | None:
    """The snapshot at ``path`` if it reads well, agrees with itself and belongs to the game
    of ``header``; else why it is unusable (None: there is none, or an older game's)."""
    why = ""
    raw = b""
    try:
        found = read_bounded(path, MAX_SNAPSHOT, "a snapshot")
    except StateFileError as exc:
        if exc.kind != "too large":
            raise  # a pipe, a device, a directory: refused, not "damaged" (nothing is moved)
        return f"not read: {exc.size:,} bytes, larger than a snapshot ever is"
    if found is None:
        return None
    try:
        raw = found
        snap = json.loads(raw)
        if not isinstance(snap, dict) or snap.get("format") != SNAPSHOT_FORMAT:
            why = "not a snapshot"
        elif snap.get("version") != SNAPSHOT_VERSION:
            why = f"version {snap.get('version')}, this program reads version {SNAPSHOT_VERSION}"
        elif set(snap) != LEGACY_FIELDS and snap.get("check") != snapshot_check(snap):
            why = "damaged (its check does not match its contents)"
        elif header is not None and snap.get("game") != header.get("game"):
            return None  # an older game's snapshot: silently stale
        else:
            game = Game.from_json(snap["state"])
            sources = [s if s in SOURCES else "player" for s in snap["sources"]]
            covered = int(snap["records"])
            digest = game.digest()
            if digest != snap.get("digest"):
                why = "its position does not match its digest"
            elif header is not None and deal_from(game) != deal_of(header):
                why = "its position disagrees with the journal (another deal)"
            elif len(sources) != len(game.history):
                why = "its decision sources do not match its history"
            elif covered < 1:
                why = f"covers {covered} records"
            else:
                checked = "check" in snap  # else a legacy snapshot: replayed before trusted
                return Snapshot(
                    game, sources, covered, snap.get("game"), raw, digest, None, checked
                )
    except SaveError as exc:
        why = f"its game does not load ({exc})"
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        why = f"unreadable ({exc.__class__.__name__}: {exc})"
    return why
