"""Opening a state file that anyone could have replaced: regular files only, never a hang.

A journal, a snapshot or a remote journal is read at every start, so what sits under its
name decides whether the daemon starts at all. A named pipe blocks ``open`` until a writer
comes (forever); ``/dev/zero`` never ends; a directory raises IsADirectoryError; a sparse
2 GB file read whole is a MemoryError. ``open_regular`` looks before it opens (``stat``: a
FIFO or a device is never opened), opens without blocking or taking a terminal
(``O_NONBLOCK | O_NOCTTY``) and looks again at what it opened (``fstat``: a file swapped in
between is caught); ``read_bounded`` reads at most a bound and refuses a larger file. Either
says what is wrong and how to fix it in a ``StateFileError`` (an ``OSError``), and changes
nothing. Readers of unbounded files stream from ``open_regular`` (the journal's scanner).
"""

from __future__ import annotations

import errno
import os
import shlex
import stat
from pathlib import Path
from typing import BinaryIO

from .text import N_

KINDS = (  # (marked for the catalogs: the OLED names the kind in the player's language)
    (stat.S_ISDIR, N_("a directory")),
    (stat.S_ISFIFO, N_("a named pipe")),
    (stat.S_ISCHR, N_("a device")),
    (stat.S_ISBLK, N_("a device")),
    (stat.S_ISSOCK, N_("a socket")),
)


def kind_of(mode: int) -> str:
    """What a non-regular file is, in a few words ("a named pipe")."""
    for test, words in KINDS:
        if test(mode):
            return words
    return N_("not a regular file")


def aside_command(path: Path) -> str:
    """The command that moves ``path`` out of the way (kept, under a name nothing reads)."""
    return f"mv {shlex.quote(str(path))} {shlex.quote(str(path) + '.not-a-file')}"


class StateFileError(OSError):
    """A state file this program will not read, and why, in one sentence with the fix.

    ``kind``: what the file is ("a named pipe", "a directory", or "too large" for a file
    beyond its bound); ``fix``: the command that moves it aside."""

    def __init__(
        self, code: int, text: str, *, path: Path, kind: str, fix: str, size: int = 0
    ) -> None:
        super().__init__(code, text)
        self.path = path
        self.kind = kind
        self.fix = fix
        self.size = size  # of a file too large


def not_regular(path: Path, mode: int) -> StateFileError:
    kind = kind_of(mode)
    fix = aside_command(path)
    return StateFileError(
        errno.EINVAL if stat.S_ISDIR(mode) else errno.ENODEV,
        f"{path} is {kind}, not a regular file: it is not read (it could block, never end or "
        f"not be a file at all) and nothing was changed; move it away ({fix}) and start again",
        path=path,
        kind=kind,
        fix=fix,
    )


def open_regular(path: Path) -> BinaryIO | None:
    """``path`` open for reading (binary, buffered) if it is a regular file, following
    symbolic links; None if there is nothing there. Raises ``StateFileError`` for anything
    else (never opened if ``stat`` shows it), ``OSError`` when it cannot be read."""
    path = Path(path)
    try:
        before = os.stat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(before.st_mode):
        raise not_regular(path, before.st_mode)
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    try:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode):
            raise not_regular(path, now.st_mode)
        os.set_blocking(fd, True)  # a regular file: reads are whole again
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def too_large(path: Path, size: int, limit: int, what: str) -> StateFileError:
    fix = aside_command(path)
    return StateFileError(
        errno.EFBIG,
        f"{path} is {size:,} bytes; {what} is never more than {limit:,}: it is not read and "
        f"nothing was changed; move it away ({fix}) and start again",
        path=path,
        kind="too large",
        fix=fix,
        size=size,
    )


def read_bounded(path: Path, limit: int, what: str = "such a file") -> bytes | None:
    """The bytes of the regular file ``path`` (None: missing), at most ``limit`` of them:
    a larger file (``what`` names what it should be) raises ``StateFileError``, before any
    of it is read when its size says so, and at ``limit + 1`` bytes if it grew meanwhile."""
    f = open_regular(path)
    if f is None:
        return None
    with f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise too_large(Path(path), size, limit, what)
        data = f.read(limit + 1)
    if len(data) > limit:
        raise too_large(Path(path), len(data), limit, what)
    return data
