"""Log lines that keep their level in the journal.

Under systemd the daemon's stdout is a stream into journald, which stores every line at the
unit's default priority (info) unless the line starts with a ``<N>`` syslog priority prefix
(sd-daemon(3); ``SyslogLevelPrefix=`` is on by default and the unit says so explicitly).
Without the prefix ``journalctl -p err -u haleakala`` shows nothing, however badly things go.
So when stdout is the journal stream (``$JOURNAL_STREAM`` names its device and inode, see
systemd.exec(5)) every line gets the prefix of its record's level, the continuation lines of
a traceback too, because journald splits on newlines. On a terminal or in a pipe the lines
stay plain.

The prefix rather than the native journal protocol: it needs no library (python-systemd is
not on PyPI as a wheel), and a prefix cannot lose a line when the journal socket is busy.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import IO

FORMAT = "%(levelname)s %(name)s: %(message)s"
"""journald adds the time stamp and the unit name."""


def syslog_priority(levelno: int) -> int:
    """Python level to syslog priority: crit 2, err 3, warning 4, info 6, debug 7."""
    if levelno >= logging.CRITICAL:
        return 2
    if levelno >= logging.ERROR:
        return 3
    if levelno >= logging.WARNING:
        return 4
    if levelno >= logging.INFO:
        return 6
    return 7


class JournalPrefixFormatter(logging.Formatter):
    """Every line of a record starts with ``<N>``, N its syslog priority."""

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{syslog_priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).split("\n"))


def is_journal_stream(stream: IO[str], env: Mapping[str, str] | None = None) -> bool:
    """Whether ``stream`` is the stream systemd connected to journald (``$JOURNAL_STREAM`` is
    ``device:inode`` of it; a child whose output was redirected elsewhere inherits the
    variable but not the stream, hence the comparison)."""
    value = (os.environ if env is None else env).get("JOURNAL_STREAM", "")
    device, _, inode = value.partition(":")
    if not (device.isdecimal() and inode.isdecimal()):
        return False
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):  # closed, or not a real file
        return False
    return (st.st_dev, st.st_ino) == (int(device), int(inode))


def setup_logging(
    level: str = "INFO", stream: IO[str] | None = None, env: Mapping[str, str] | None = None
) -> logging.Handler:
    """One handler on the root logger, writing to stdout, prefixed when that is journald."""
    stream = sys.stdout if stream is None else stream
    formatter = (
        JournalPrefixFormatter(FORMAT)
        if is_journal_stream(stream, env)
        else logging.Formatter(FORMAT)
    )
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    return handler
