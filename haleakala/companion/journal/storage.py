"""Where the journal meets the disk: errors players can act on, atomic replacement, backups.

A failed write becomes a ``JournalError`` that says in a few words for the OLED (``short``)
and in full for the log what happened, with the ``chown`` that fixes a file of the wrong
owner. ``Disk`` is the seam for the system calls an append goes through, so tests can put a
full disk there.
"""

from __future__ import annotations

import contextlib
import errno
import grp
import itertools
import os
import pwd
import secrets
import stat
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from haleakala.core.statefile import StateFileError, not_regular, open_regular
from haleakala.core.text import Param, Text
from haleakala.i18n import N_

from .records import GAMES_DIR, JOURNAL_NAME, SNAPSHOT_NAME

NOT_SAVED = Text(N_("NOT SAVED"))


class JournalError(OSError):
    """The journal could not be written (disk full, read-only, wrong owner, removed).

    ``str()`` is the whole story for the log; ``title`` and ``short`` are what fits the OLED,
    as values (``core.text.Text``) the OLED renders in the language in use (a bare ``text``
    with no short form is English developer text, shown as it is).
    """

    def __init__(
        self,
        code: int,
        text: str,
        *,
        title: Param = NOT_SAVED,
        short: Param = "",
    ):
        super().__init__(code, text)
        self.title = title
        self.short = short or text


class JournalDisagrees(JournalError):
    """The journal holds intact, acknowledged records that do not follow the history recovery
    can prove (copied, moved or spliced records; rules that changed): the game waits at the
    last decision it can prove, ``proven``, until someone decides (``haleakala journal
    resume``); nothing is rewritten meanwhile. ``kept``: the backup of the journal as found."""

    def __init__(self, text: str, *, proven: int, kept: Path | None) -> None:
        super().__init__(
            errno.EILSEQ,
            text,
            title=Text(N_("CHECK THE JOURNAL")),
            short=Text.of(
                N_(
                    "Journal out of order: paused at decision {n}, the last it can prove. "
                    "Nothing is deleted. Go on there: haleakala journal resume --at {n}"
                ),
                n=str(proven),  # also a command's argument: never grouped ("1,234")
            ),
        )
        self.proven = proven
        self.kept = kept


def newer_format(path: Path, found: int, reads: int) -> JournalError:
    """A journal written by a newer release (after a rollback): refused in words, the files
    left exactly as they are, so the release that wrote them resumes the game."""
    return JournalError(
        errno.EPROTO,
        f"journal: {path} is format {found}, written by a newer release; this release reads "
        f"format {reads}, so it changes nothing and starts no game. Update the kit again "
        "(haleakala update) to go on with this game",
        title=Text(N_("NEWER JOURNAL")),
        short=Text.of(
            N_(
                "Saved by a newer release (format {found}, this one reads {reads}). Nothing "
                "is deleted: update the kit again."
            ),
            found=str(found),
            reads=str(reads),
        ),
    )


def storage_error(exc: OSError, path: Path, doing: str = "write") -> JournalError:
    """``exc`` explained: what went wrong with ``path``, what the players see, how to fix it."""
    code = exc.errno or 0
    if isinstance(exc, JournalError):
        return exc
    if code in (errno.ENOSPC, errno.EDQUOT):
        return JournalError(
            code,
            f"journal: cannot {doing} {path}: no space left ({exc}); the game is paused, "
            "the decision waits in memory and is saved as soon as space is freed",
            title=Text(N_("STORAGE FULL")),
            short=Text(
                N_(
                    "Storage full: the game is paused, nothing is lost. Free some space: "
                    "it goes on by itself."
                )
            ),
        )
    if code in (errno.EACCES, errno.EPERM):
        owner, fix = ownership_fix(path, readable=doing != "read")
        return JournalError(
            code,
            f"journal: cannot {doing} {path} ({exc}): it belongs to {owner}, the daemon runs "
            f"as {runs_as()}; fix it with: {fix} (the game is paused until then, nothing is lost)",
            title=Text(N_("CANNOT SAVE")),
            short=Text.of(
                N_("{file} belongs to {owner}. Game paused. Fix: {fix}"),
                file=path.name,
                owner=owner,
                fix=fix,
            ),
        )
    return JournalError(
        code,
        f"journal: cannot {doing} {path} ({exc}); the game is paused, retrying",
        title=Text(N_("CANNOT SAVE")),
        short=Text.of(
            N_("Cannot save ({error}): the game is paused, nothing is lost."),
            error=str(exc.strerror or exc),
        ),
    )


def runs_as() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())


def ownership_fix(path: Path, *, readable: bool = True) -> tuple[str, str]:
    """Who owns ``path`` and the command that lets this process write (and read) it."""
    try:
        st = path.stat()
    except OSError:
        return "nobody (it is missing)", f"mkdir -p {path.parent}"
    try:
        owner = pwd.getpwuid(st.st_uid).pw_name
    except KeyError:
        owner = f"uid {st.st_uid}"
    if st.st_uid == os.geteuid():
        return owner, f"chmod u+{'w' if readable else 'rw'} {path}"
    try:
        group = grp.getgrgid(os.getegid()).gr_name
    except KeyError:
        group = str(os.getegid())
    return owner, f"sudo chown {runs_as()}:{group} {path}"


def unwritable(state_dir: Path) -> list[Path]:
    """The files of ``state_dir`` this process could not replace or append to."""
    names = (JOURNAL_NAME, SNAPSHOT_NAME, JOURNAL_NAME + ".tmp", SNAPSHOT_NAME + ".tmp")
    found = [state_dir] if state_dir.exists() and not os.access(state_dir, os.W_OK) else []
    for path in [state_dir / n for n in names] + [state_dir / GAMES_DIR]:
        if path.exists() and not os.access(path, os.W_OK):
            found.append(path)
    return found


class Disk:
    """The system calls a journal append goes through (tests put a full disk here)."""

    def open_append(self, path: Path) -> int:
        """The journal open for appending; never a pipe or a device (O_NONBLOCK: a pipe
        with no reader fails at once instead of blocking; then fstat refuses it)."""
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_NOCTTY
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o644)
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            os.close(fd)
            raise refused(not_regular(Path(path), mode))
        os.set_blocking(fd, True)
        return fd

    def open_write(self, path: Path) -> int:
        """For writing at offsets (``pwrite``): O_APPEND would send every write to the end."""
        return os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)

    def write(self, fd: int, data: bytes | memoryview) -> int:
        return os.write(fd, data)

    def pwrite(self, fd: int, data: bytes | memoryview, offset: int) -> int:
        return os.pwrite(fd, data, offset)

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def fdatasync(self, fd: int) -> None:
        os.fdatasync(fd)

    def truncate(self, fd: int, size: int) -> None:
        os.ftruncate(fd, size)

    def read_only(self, fd: int) -> bool:
        """Is the file system under ``fd`` mounted read-only now?"""
        return bool(os.fstatvfs(fd).f_flag & os.ST_RDONLY)

    def probe(self, fd: int) -> None:
        """Ask the file system for a transaction that changes nothing: removing an extended
        attribute the file does not have. ext4 opens a journal handle for it, which fails
        (EROFS) once its journal is aborted, before its read-only flag is up. Where there
        is no such attribute support (or a sandbox forbids the call) it proves nothing."""
        try:
            os.removexattr(fd, PROBE_ATTRIBUTE)
        except OSError as exc:
            if exc.errno not in NO_PROBE:
                raise

    def sync(self, fd: int, *, data_only: bool = False) -> None:
        """Make what was written to ``fd`` durable, or raise: what an acknowledgement waits for.

        One fsync is not proof on a card that fails under it. When ext4 meets an error
        during an fsync (``errors=remount-ro``: the emergency read-only remount of a failing
        SD card), Linux aborts its journal first and marks the file system failed only after
        writing its superblocks; an fsync in between returns success for a transaction the
        abort threw away. On a loop device with the error triggered at random moments the
        daemon lost the last acknowledged decision in 6 of 40 trials (docs/design.md,
        "Durability"). So after the fsync: a second fsync (fails once the file system is
        marked failed), a probe that needs a journal handle (fails as soon as the journal is
        aborted), and the mount flags (kernels that remount read-only instead). Any of them
        failing: the record is not acknowledged; the game pauses with it shown, and a
        restart resumes at the last decision that was. ``data_only``: ``fdatasync`` instead
        (the journal written ahead over zeros, whose appends change no metadata that matters)."""
        flush = self.fdatasync if data_only else self.fsync
        flush(fd)
        flush(fd)
        self.probe(fd)
        if self.read_only(fd):
            raise OSError(errno.EROFS, "the file system turned read-only under the fsync")


PROBE_ATTRIBUTE = "user.haleakala.probe"
NO_PROBE = frozenset((errno.ENODATA, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM, errno.EACCES))
"""The probe's answers that say nothing about the file system's health (no such attribute,
no attribute support, a sandbox that forbids the call)."""


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        Disk().sync(fd)
    finally:
        os.close(fd)


def write_atomically(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Replace ``path`` with ``data`` so that a reader sees the old or the new file, never a
    mix: temp file, fsync, rename, fsync the directory. A temp file left by a crash (or by
    another user) is replaced; a failed write leaves no temp file behind."""
    tmp = path.with_name(path.name + ".tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    try:
        with open(tmp, "xb") as f:
            f.write(data)
            f.flush()
            if sync:
                Disk().sync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if sync:
        _fsync_dir(path.parent)


def keep_once(path: Path, data: bytes, *, sync: bool = True) -> Path:
    """A backup of ``data`` beside ``path``: one already there with the same bytes, else a
    new one (a journal that waits for a decision is kept once, not at every start)."""
    for kept in _backups(path):
        with contextlib.suppress(OSError):
            if kept.stat().st_size == len(data) and _same(kept, [data]):
                return kept
    return keep_copy(path, data, sync=sync)


def keep_file_once(path: Path, *, sync: bool = True) -> Path:
    """``keep_once`` for the file at ``path`` as it is, read in chunks, never whole: a
    backup already there with the same bytes, else a new copy (a copy, not a link: the file
    stays where it is and someone may mend it in place)."""
    size = os.stat(path).st_size
    for kept in _backups(path):
        with contextlib.suppress(OSError):
            if kept.stat().st_size == size and _same(kept, _chunks(path)):
                return kept
    return _copy_to_backup(path, sync=sync)


def keep_file(path: Path, *, sync: bool = True) -> Path:
    """Keep the file at ``path`` whole under a new backup name, before the caller replaces
    ``path`` (``write_atomically``): a hard link, so that no byte is read or written (a
    2 GB journal is kept at once, sparse as it is), else (a file system without links) a
    copy in chunks."""
    while True:
        target = _backup_name(path)
        try:
            os.link(path, target)
        except FileExistsError:
            continue
        except OSError:
            return _copy_to_backup(path, sync=sync)
        if sync:
            _fsync_dir(path.parent)
        return target


def move_aside(path: Path, *, sync: bool = True) -> Path:
    """Rename ``path`` (any kind of file) to a new backup name beside it: kept whole, out of
    the way of a fresh start."""
    while True:
        target = _backup_name(path)
        if target.exists():
            continue
        os.rename(path, target)
        if sync:
            _fsync_dir(path.parent)
        return target


def keep_copy(path: Path, data: bytes, *, sync: bool = True) -> Path:
    """Write ``data`` (what ``path`` held) to a new, uniquely named backup beside it."""
    return _write_backup(path, [data], sync=sync)


def _backup_name(path: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return path.with_name(f"{path.name}.bad-{stamp}-{secrets.token_hex(3)}")


def _backups(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.bad-*"))


COPY_CHUNK = 1 << 20


def _chunks(path: Path) -> Iterator[bytes]:
    """The bytes of the regular file ``path``, a chunk at a time (StateFileError if it is
    not one)."""
    f = open_regular(path)
    if f is None:
        raise FileNotFoundError(errno.ENOENT, "gone", str(path))
    with f:
        while chunk := f.read(COPY_CHUNK):
            yield chunk


def _blocks(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The bytes of ``chunks`` again, in blocks of exactly ``COPY_CHUNK`` (the last shorter)."""
    pending = b""
    for chunk in chunks:
        pending += chunk
        while len(pending) >= COPY_CHUNK:
            yield pending[:COPY_CHUNK]
            pending = pending[COPY_CHUNK:]
    if pending:
        yield pending


def _same(kept: Path, chunks: Iterable[bytes]) -> bool:
    """Does the backup ``kept`` hold exactly these bytes? (A chunk at a time; a backup that
    is not a regular file holds nothing.)"""
    try:
        pairs = itertools.zip_longest(_blocks(_chunks(kept)), _blocks(chunks))
        return all(mine == theirs for mine, theirs in pairs)
    except OSError:
        return False


def _copy_to_backup(path: Path, *, sync: bool) -> Path:
    return _write_backup(path, _chunks(path), sync=sync)


def _write_backup(path: Path, chunks: Iterable[bytes], *, sync: bool) -> Path:
    while True:
        target = _backup_name(path)
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        except FileExistsError:
            continue
        try:
            with open(fd, "wb", closefd=True) as f:
                for chunk in chunks:
                    f.write(chunk)
                f.flush()
                if sync:
                    Disk().sync(f.fileno())
        except BaseException:
            with contextlib.suppress(OSError):
                target.unlink()
            raise
        if sync:
            _fsync_dir(path.parent)
        return target


def refused(exc: StateFileError) -> JournalError:
    """A state file recovery will not read (a pipe, a device, a directory, a file of more
    records than any game): the game waits, nothing is changed, the fix is one ``mv``."""
    if exc.kind == "too large":
        short = Text.of(
            N_(
                "{file} holds more than any game: the game waits, nothing is changed. "
                "Move it away: {fix}"
            ),
            file=exc.path.name,
            fix=exc.fix,
        )
    else:
        short = Text.of(
            N_(
                "{file} is {kind}, not a file: the game waits, nothing is changed. "
                "Move it away: {fix}"
            ),
            file=exc.path.name,
            kind=Text(exc.kind),
            fix=exc.fix,
        )
    return JournalError(
        exc.errno or errno.EINVAL,
        f"journal: {exc.strerror}; the game waits until then",
        title=Text(N_("CHECK THE JOURNAL")),
        short=short,
    )
