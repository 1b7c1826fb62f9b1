"""The remote game's journal shares the state file rules (``haleakala.core.statefile``): a
named pipe, a device or a directory under its name, or a file far larger than a game's, is
refused with a sentence at once (a ``JournalError``), never a hang or a MemoryError."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from haleakala.remote.journal import MAX_BYTES, NAME


def fifo(path):
    os.mkfifo(path)


def device(path):
    path.symlink_to("/dev/zero")


def directory(path):
    path.mkdir()


def sparse(path):
    path.write_text('{"setup": {}}\n')
    os.truncate(path, MAX_BYTES + 1)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (fifo, "is a named pipe"),
        (device, "is a device"),
        (directory, "is a directory"),
        (sparse, "bytes; a remote game's journal is never more than"),
    ],
    ids=["fifo", "dev-zero", "directory", "sparse-giant"],
)
def test_a_hostile_remote_journal_is_refused_with_a_sentence_and_left_as_it_is(
    tmp_path, make, words
):
    path = tmp_path / NAME
    make(path)
    kind = os.lstat(path).st_mode
    # In a child with a deadline: a regression that blocks on the pipe fails, not hangs.
    code = textwrap.dedent(f"""
        from pathlib import Path
        from haleakala.remote.journal import JournalError, RemoteJournal
        try:
            RemoteJournal(Path({str(path)!r})).read()
        except JournalError as exc:
            print(exc)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert words in done.stdout and "move it away" in done.stdout
    assert os.lstat(path).st_mode == kind
