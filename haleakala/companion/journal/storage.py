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
import os
import pwd
import secrets
import time
from pathlib import Path

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
        return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

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


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
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
                os.fsync(f.fileno())
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
    for kept in sorted(path.parent.glob(f"{path.name}.bad-*")):
        try:
            if kept.stat().st_size == len(data) and kept.read_bytes() == data:
                return kept
        except OSError:
            continue
    return keep_copy(path, data, sync=sync)


def keep_copy(path: Path, data: bytes, *, sync: bool = True) -> Path:
    """Write ``data`` (what ``path`` held) to a new, uniquely named backup beside it."""
    while True:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = path.with_name(f"{path.name}.bad-{stamp}-{secrets.token_hex(3)}")
        try:
            with open(target, "xb") as f:
                f.write(data)
                f.flush()
                if sync:
                    os.fsync(f.fileno())
        except FileExistsError:
            continue
        if sync:
            _fsync_dir(path.parent)
        return target
