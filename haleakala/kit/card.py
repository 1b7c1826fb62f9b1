"""What ``haleakala install`` sets so the SD card is written only when a game changes.

Measured at the block layer of the booted virtual Pi (``tools/virtual-pi crash``, the numbers
in docs/benchmarks.md), a decision cost the card about 30 KB before: the daemon's record, an
ext4 journal commit for the file's new size and times, journald writing the daemon's log
line, and the metadata of both. Two settings of the system, and the daemon's own journal
written ahead (``Journal.on_card``), bring it to one page and a flush:

- **the system log in RAM** (journald ``Storage=volatile``): ``journalctl`` shows this boot's
  log as before, the serial console still gets it; it is gone after a reboot or a power cut.
  The game is not in the log: the daemon's journal keeps it, durable on every
  acknowledgement. A maker who wants logs across reboots deletes the drop-in.
- **``lazytime`` on the root file system**: file times are kept in memory and written with
  the next change that must be written anyway, at an fsync, or after a day. Nothing in the
  kit reads a file's time back after a power cut (the journal's records carry their own
  checks), so a stale time loses nothing; it spares the ext4 journal commit that every
  write's new modification time would otherwise cause within five seconds.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Any

JOURNALD_DROPIN = PurePosixPath("/etc/systemd/journald.conf.d/haleakala.conf")
JOURNALD_TEXT = """\
# Written by 'haleakala install', removed by 'haleakala uninstall'.
# The system log stays in RAM (/run/log/journal): every line logged would otherwise be
# written to the SD card, about 4 KB per move of the game. The game itself is kept by the
# daemon's journal in /var/lib/haleakala, durable on every acknowledgement. This boot's log
# is still there (journalctl -u haleakala); it is lost at a reboot or a power cut. To keep
# logs across reboots, delete this file and run: sudo systemctl restart systemd-journald
[Journal]
Storage=volatile
RuntimeMaxUse=16M
"""
FSTAB = PurePosixPath("/etc/fstab")
LAZYTIME = "lazytime"


def lazytime_root(fstab: str) -> str | None:
    """``fstab`` with ``lazytime`` among the options of its ext4 root (the text unchanged if
    they have it); None when no ext4 file system is mounted on / by it (a chroot or an image
    being built: the root comes from the kernel's command line, nothing to set)."""
    lines = fstab.splitlines(keepends=True)
    for i, line in enumerate(lines):
        fields = line.split()
        if len(fields) < 4 or fields[0].startswith("#") or fields[1] != "/":
            continue
        if fields[2] != "ext4":
            return None
        options = fields[3].split(",")
        if LAZYTIME in options:
            return fstab
        # Only the options field changes: its text is found after the type, spacing kept.
        at = re.match(r"(\s*\S+\s+\S+\s+\S+\s+)(\S+)", line)
        assert at is not None
        lines[i] = line[: at.end(1)] + fields[3] + "," + LAZYTIME + line[at.end(2) :]
        return "".join(lines)
    return None


def card_writes(inst: Any, running: PurePosixPath) -> None:
    """What ``haleakala install`` does for the card (the ``Installer`` ``inst`` writes and
    runs it): the system log in RAM and ``lazytime`` on the root."""
    what = "the system log in RAM, not on the card"
    if inst.write(JOURNALD_DROPIN, JOURNALD_TEXT.encode(), what) and inst.running(
        "systemd-journald", running
    ):
        inst.command(
            "systemd-journald restarted (the log in RAM from now on)",
            ["systemctl", "restart", "systemd-journald"],
            plan="restart systemd-journald",
        )
    fstab = inst.p(FSTAB)
    text = fstab.read_text(encoding="utf-8") if fstab.is_file() else ""
    wanted = lazytime_root(text)
    if wanted is not None and wanted != text:
        inst.write(FSTAB, wanted.encode(), "lazytime on /: file times written lazily")
        if inst.running("systemd", running):
            inst.command(
                "/ remounted with lazytime",
                ["mount", "-o", "remount,lazytime", "/"],
                plan="remount / with lazytime",
            )
