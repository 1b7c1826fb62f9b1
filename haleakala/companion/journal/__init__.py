"""The journal: a game that survives being unplugged, a full disk and damaged storage.

Every accepted decision is appended to ``journal.bin`` as one record and fsynced before it
is acknowledged. A record is ``length (4 bytes, big-endian) · CRC32 of the payload (4 bytes)
· payload`` where the payload is UTF-8 JSON. The first record is the header (variant, seed,
starting player: enough to rebuild the deal); then one record per decision
(``{"type": "decision", "ply": 12, "player": "red", "decision": "3@2", "by": "player",
"digest": "…"}``, the digest of the position *after* it) and one per undo
(``{"type": "undo", "count": 2, "ply": 10, "digest": "…"}``). Solo mode is part of the game
on the table, so its setting is kept too: in the header (``"solo": "yellow", "strength":
"normal"``) and as a ``{"type": "solo", …}`` record whenever the menu changes it; a daemon
restarted without ``--solo`` resumes the companion's seat as it was. The language chosen in
the board's menu is kept the same way (``"language"`` in the header, a ``{"type":
"language", …}`` record on a change), so a restart without ``--lang`` speaks it again; so is
the colour mode (``"palette": "cvd"`` in the header, a ``{"type": "palette", "palette":
"cvd"}`` record on a change), so a restart lights the board in it again; and the speech
settings (``"speech": {"verbosity": "events", "volume": 60}`` in the header, a ``{"type":
"speech", "speech": {…}}`` record on a change), so a restart speaks as the players chose.
The daemon's journal ends with zeros written ahead of the records (``Journal.on_card``):
each record overwrites some of them and is synced with ``fdatasync``, so acknowledging a
decision costs the card one page and no file-system metadata. The zeros are not records; a
program that reads the format stops at them.

Every ``snapshot_every`` decisions ``snapshot.json`` is replaced atomically (write a temp
file, fsync, rename, fsync the directory) with ``Game.to_json`` and the number of journal
records it covers, so a restart replays only the tail. Its ``check`` (CRC32 of every other
field) is what makes its history and decision sources trustworthy: the digest covers the
position only. A snapshot that fails it is reported, kept aside and written again from the
journal; one written before the check existed is trusted only if its history replays.

A failed append (disk full, I/O error, a file that belongs to another user) cuts the file back
to its last good size at once, and no later record is written until that cut has succeeded:
acknowledged records are never followed by a partial one. The error says what happened in a
few words for the OLED (``short``) and in full for the log, with the ``chown`` that fixes a
file of the wrong owner.

Recovery on start never destroys anything: it reads every record it can, including those
behind a damaged one (it finds the next intact frame), mends a record with one flipped bit
(CRC32 locates it) or a damaged length field, and picks the longest history it can *verify*:
the journal replayed from its header, the snapshot, and journal records after the snapshot's
position whose digests prove they follow it. If the files must change, the old journal and
snapshot are first copied to uniquely named backups (``journal.bin.bad-…``,
``snapshot.json.bad-…``), then the journal is replaced atomically with the records kept and a
fresh snapshot is written. Every decision and undo must prove itself: it is accepted only when
its digest is the position the history accepted before it leads to (position, not place in
the file), so whole valid records copied, moved or spliced in cannot make a game that never
happened; copies of proven records are skipped, and intact records that cannot be connected
pause the game at the last decision recovery can prove (``resume``: nothing is rewritten
until ``haleakala journal resume --at N``). Finished games are kept as game logs
(NOTATION.md) under ``games/``.

The package, by concern: ``records`` (the format, framing and mending of damaged records),
``storage`` (errors players can act on, atomic replacement, backups), ``games`` (a game
rebuilt from a deal, the game log, the snapshot value), ``recovery`` (reading it all back),
``repairs`` (the files recovery changes), ``resume`` (waiting at the proven decision,
resuming there by hand) and ``writer`` (``Journal``: appending, pausing on a failed write,
snapshots, archives).
"""

from .games import Snapshot, game_log_lines, replay
from .records import (
    CARD_AHEAD,
    DEFAULT_SNAPSHOT_EVERY,
    FORMAT,
    FRAME,
    GAMES_DIR,
    JOURNAL_NAME,
    MAX_PAYLOAD,
    SNAPSHOT_FORMAT,
    SNAPSHOT_NAME,
    SNAPSHOT_VERSION,
    SOURCES,
    VERSION,
    RecordScan,
    encode_record,
    new_game_id,
    scan_records,
)
from .scan import MAX_RECORDS, JournalScan, Piece, read_pieces, scan_journal
from .storage import (
    Disk,
    JournalDisagrees,
    JournalError,
    keep_copy,
    keep_once,
    ownership_fix,
    storage_error,
    unwritable,
    write_atomically,
)
from .writer import Journal

__all__ = [
    "CARD_AHEAD",
    "DEFAULT_SNAPSHOT_EVERY",
    "FORMAT",
    "FRAME",
    "GAMES_DIR",
    "JOURNAL_NAME",
    "MAX_PAYLOAD",
    "MAX_RECORDS",
    "SNAPSHOT_FORMAT",
    "SNAPSHOT_NAME",
    "SNAPSHOT_VERSION",
    "SOURCES",
    "VERSION",
    "Disk",
    "Journal",
    "JournalDisagrees",
    "JournalError",
    "JournalScan",
    "Piece",
    "RecordScan",
    "Snapshot",
    "encode_record",
    "game_log_lines",
    "keep_copy",
    "keep_once",
    "new_game_id",
    "ownership_fix",
    "read_pieces",
    "replay",
    "scan_journal",
    "scan_records",
    "storage_error",
    "unwritable",
    "write_atomically",
]
