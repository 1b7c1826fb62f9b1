"""Storage that fails under the journal: a full disk, fsync errors, files of the wrong owner.

A failed append is cut back at once, the game pauses with the decision shown but not
acknowledged (the OLED says why), and it goes on by itself once the write succeeds. A restart
then resumes every acknowledged decision; nothing after a failed write is ever lost.
"""

from __future__ import annotations

import errno
import grp
import json
import os
import pwd
import select
import subprocess
import tempfile
import traceback
from argparse import Namespace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.companion_rig import Rig

from haleakala.companion import daemon as D
from haleakala.companion import oled
from haleakala.companion.autoplay import choose
from haleakala.companion.controller import RETRY_S
from haleakala.companion.journal import (
    JOURNAL_NAME,
    Disk,
    Journal,
    JournalError,
    scan_records,
)
from haleakala.hal.events import EncoderTurned


class FullDisk(Disk):
    """A disk with ``free`` bytes left: a write that does not fit writes what fits (a short
    write) and the next one fails with ENOSPC, as on Linux; cutting the file gives the space
    back. ``fsync_errors``: that many fsyncs fail with EIO."""

    def __init__(self, free: int = 10**9) -> None:
        self.free = free
        self.fsync_errors = 0

    def write(self, fd: int, data) -> int:
        if self.free <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written = os.write(fd, bytes(data[: self.free]))
        self.free -= written
        return written

    def fsync(self, fd: int) -> None:
        if self.fsync_errors:
            self.fsync_errors -= 1
            raise OSError(errno.EIO, os.strerror(errno.EIO))

    def truncate(self, fd: int, size: int) -> None:
        before = os.fstat(fd).st_size
        os.ftruncate(fd, size)
        self.free += before - size


def decide(rig: Rig) -> None:
    """The seeded player's next decision, through the inputs (shown even if not saved)."""
    rig.carry_out(choose(rig.game, 1))


def acknowledged_digest(rig: Rig) -> tuple[int, str]:
    """Decisions and digest of the last acknowledged position (a paused one is pending)."""
    game = rig.game
    if rig.c.paused is None:
        return len(game.history), game.digest()
    before = rig.c.keeper.unsaved.before
    return len(before.history), before.digest()


def restart(state: Path) -> tuple[int, str, Journal]:
    journal = Journal(state)
    game = journal.recover()
    assert game is not None
    journal.close()
    return len(game.history), game.digest(), journal


def assert_no_partial_record(journal: Journal) -> None:
    data = journal.path.read_bytes()
    assert len(data) == journal.size and scan_records(data).problem is None


def test_a_full_disk_pauses_the_game_and_it_goes_on_by_itself_when_space_returns(tmp_path):
    disk = FullDisk()
    rig = Rig("buttons", journal=Journal(tmp_path, snapshot_every=5, disk=disk))
    for _ in range(7):
        decide(rig)
    disk.free = 40  # less than one record: a short write, then ENOSPC
    decide(rig)
    assert rig.c.paused is not None and rig.c.keeper.acknowledged == 7
    assert_no_partial_record(rig.c.journal)  # the partial record was cut at once
    text = rig.text()
    assert "STORAGE FULL" in text and "nothing is lost" in text and "by itself" in text
    pending = rig.game.digest()
    for button in ("beach1", "select", "back", "beach4"):
        rig.press(button)  # refused while paused
    assert rig.game.digest() == pending and len(rig.game.history) == 8
    rig.advance(RETRY_S)  # still full: still paused, still nothing partial on disk
    assert rig.c.paused is not None and "STORAGE FULL" in rig.text()
    assert_no_partial_record(rig.c.journal)
    disk.free = 10**9  # space freed
    rig.advance(RETRY_S)
    assert rig.c.paused is None and rig.c.keeper.acknowledged == 8 and rig.game.digest() == pending
    for _ in range(5):
        decide(rig)
    assert restart(tmp_path)[:2] == (13, rig.game.digest())


def test_an_fsync_error_cuts_the_record_and_the_decision_is_saved_on_the_retry(tmp_path):
    disk = FullDisk()
    rig = Rig("buttons", journal=Journal(tmp_path, snapshot_every=0, disk=disk))
    for _ in range(3):
        decide(rig)
    disk.fsync_errors = 1
    decide(rig)
    assert rig.c.paused is not None and rig.c.paused.errno == errno.EIO
    assert "CANNOT SAVE" in rig.text()
    assert_no_partial_record(rig.c.journal)
    rig.advance(RETRY_S)
    assert rig.c.paused is None and rig.c.keeper.acknowledged == 4
    assert restart(tmp_path)[:2] == (4, rig.game.digest())


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    steps=st.lists(
        st.one_of(
            st.just(("decide", 0)),
            st.tuples(st.just("fill"), st.integers(min_value=0, max_value=400)),
            st.just(("free", 0)),
            st.just(("fsync", 0)),
            st.just(("wait", 0)),
        ),
        max_size=40,
    )
)
@example(  # a short write, refused decisions, an fsync error, space back; ends paused
    steps=[
        *[("decide", 0), ("fill", 30), ("decide", 0), ("decide", 0), ("wait", 0)],
        *[("fsync", 0), ("free", 0), ("decide", 0), ("wait", 0), ("wait", 0), ("decide", 0)],
        *[("fill", 0), ("decide", 0)],
    ]
)
def test_whatever_the_disk_does_a_restart_resumes_the_last_acknowledged_decision(steps):
    with tempfile.TemporaryDirectory() as root:
        state = Path(root)
        disk = FullDisk()
        rig = Rig("buttons", journal=Journal(state, snapshot_every=4, disk=disk))
        for kind, amount in steps:
            if kind == "decide" and not rig.game.is_terminal():
                if rig.c.paused is None:
                    decide(rig)
                else:
                    rig.press("select")
            elif kind == "fill":
                disk.free = amount
            elif kind == "free":
                disk.free = 10**9
            elif kind == "fsync":
                disk.fsync_errors = 1
            else:
                rig.advance(RETRY_S)
            assert_no_partial_record(rig.c.journal)
        acknowledged = acknowledged_digest(rig)
        assert rig.c.keeper.acknowledged + 0 == acknowledged[0]  # only player decisions here
        rig.c.say_bye()
        decisions, digest, journal = restart(state)
        assert (decisions, digest) == acknowledged and journal.notes == []


@pytest.fixture
def small_tmpfs(tmp_path):
    """A 64 KiB tmpfs (root only; skipped where mounting is not permitted)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (the fault-injecting disk covers this case)")
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"mount not permitted here: {done.stderr.strip()}")
    try:
        yield mount
    finally:  # lazily if a failed test left a file open there
        if subprocess.run(["umount", str(mount)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(mount)], check=True)


def test_a_really_full_tmpfs_pauses_the_game_and_freeing_space_lets_it_go_on(small_tmpfs):
    state = small_tmpfs / "state"
    rig = Rig("buttons", journal=Journal(state, snapshot_every=5))
    for _ in range(3):
        decide(rig)
    filler = small_tmpfs / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:  # take every free page
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    for _ in range(200):  # the journal's last page fills up
        decide(rig)
        if rig.c.paused is not None:
            break
    assert rig.c.paused is not None and rig.c.paused.errno == errno.ENOSPC
    assert "STORAGE FULL" in rig.text()
    assert_no_partial_record(rig.c.journal)
    acknowledged = rig.c.keeper.acknowledged
    pending = rig.game.digest()
    rig.press("beach2")
    rig.advance(RETRY_S)
    assert rig.c.paused is not None and rig.game.digest() == pending
    filler.unlink()  # space freed
    rig.advance(RETRY_S)
    assert rig.c.paused is None and rig.c.keeper.acknowledged == acknowledged + 1
    for _ in range(5):
        decide(rig)
    rig.c.say_bye()
    decisions, digest, journal = restart(state)
    assert (decisions, digest) == (len(rig.game.history), rig.game.digest())
    assert decisions == acknowledged + 6 and journal.notes == []


# --------------------------------------------------------------------------- ownership


def _as_user(uid: int, gid: int, job) -> dict:
    """Run ``job()`` in a forked child whose real and effective ids are ``uid``/``gid`` (the
    saved uid stays root, so the job can act as root for a moment: ``sudo chown``)."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            os.close(reader)
            os.setgroups([])
            os.setresgid(gid, gid, gid)
            os.setresuid(uid, uid, 0)
            payload = json.dumps(job())
        except BaseException:
            payload = json.dumps({"crash": traceback.format_exc()})
        os.write(writer, payload.encode())
        os._exit(0)
    os.close(writer)
    chunks = []
    while True:
        ready, _, _ = select.select([reader], [], [], 60)
        chunk = os.read(reader, 65536) if ready else b""
        if not chunk:
            break
        chunks.append(chunk)
    os.close(reader)
    if not ready:
        os.kill(pid, 9)
    os.waitpid(pid, 0)
    return json.loads(b"".join(chunks) or b'{"crash": "no answer"}')


def _play_on_a_foreign_journal(state: Path, fix) -> dict:
    """What the service user sees: recovery, a decision, the fix, the retry."""
    rig = Rig("buttons", journal=Journal(state, snapshot_every=0))
    seen = {"notes": [str(n) for n in rig.c.notes], "log": list(rig.c.journal.notes)}
    decide(rig)
    seen["paused"] = rig.c.paused is not None
    seen["oled"] = rig.text()
    seen["status"] = rig.c.status()
    rig.send(*[EncoderTurned(1)] * 9)
    now = rig.clock()
    shown = oled.screen(rig.game, rig.c.ui_state(now), now)
    seen["scrolled"] = (shown.offset, len(shown.lines))
    fix()
    rig.advance(RETRY_S)
    seen["after_fix"] = rig.c.paused is None
    seen["decisions"] = len(rig.game.history)
    rig.c.say_bye()
    return seen


def test_a_journal_of_another_owner_pauses_with_the_exact_fix_and_goes_on_after_it(tmp_path):
    before = Rig("buttons", journal=Journal(tmp_path / "first", snapshot_every=0))
    for _ in range(2):
        decide(before)
    before.c.say_bye()
    if os.geteuid() == 0:  # root wrote the journal ("sudo haleakala run"); the service plays
        nobody = pwd.getpwnam("nobody")
        group = grp.getgrgid(nobody.pw_gid).gr_name
        root = Path(tempfile.mkdtemp())
        try:
            os.chown(root, nobody.pw_uid, nobody.pw_gid)
            state = root / "state"
            os.rename(tmp_path / "first", state)
            os.chown(state, nobody.pw_uid, nobody.pw_gid)  # the service's directory
            path = state / JOURNAL_NAME
            assert path.stat().st_uid == 0
            _play_on_a_foreign_journal(tmp_path / "warm-up", lambda: None)  # imports, as root

            def chown_as_told() -> None:
                os.seteuid(0)
                os.chown(path, nobody.pw_uid, nobody.pw_gid)
                os.seteuid(nobody.pw_uid)

            seen = _as_user(
                nobody.pw_uid,
                nobody.pw_gid,
                lambda: _play_on_a_foreign_journal(state, chown_as_told),
            )
        finally:
            subprocess.run(["rm", "-rf", str(root)], check=True)
        fix = f"sudo chown nobody:{group} {path}"
        owner = "root"
    else:  # not root: a journal this user may not write
        state = tmp_path / "first"
        path = state / JOURNAL_NAME
        path.chmod(0o444)
        seen = _play_on_a_foreign_journal(state, lambda: path.chmod(0o644))
        fix = f"chmod u+w {path}"
        owner = pwd.getpwuid(os.geteuid()).pw_name
    assert "crash" not in seen, seen.get("crash")
    assert any(f"belongs to {owner}" in n and fix in n for n in seen["log"]), seen["log"]
    assert any(fix in n for n in seen["notes"])  # on the OLED from the start
    assert seen["paused"] and "CANNOT SAVE" in seen["oled"] and "NOT SAVED" not in seen["oled"]
    assert fix.split()[-1].split("/")[-1] in seen["oled"] and "PAUSED" in seen["status"]
    assert seen["after_fix"] and seen["decisions"] == 3
    offset, total = seen["scrolled"]  # the encoder scrolls to the end of the command
    assert total > oled.BODY_LINES and offset == total - oled.BODY_LINES


def _recover_torn(state: Path) -> dict:
    journal = Journal(state)
    game = journal.recover()
    journal.close()
    return {
        "decisions": len(game.history) if game else None,
        "failed": str(journal.failed) if journal.failed else None,
        "backups": [str(b) for b in journal.backups],
        "owner": (state / JOURNAL_NAME).stat().st_uid,
    }


def test_a_torn_journal_of_another_owner_is_repaired_without_a_crash(tmp_path):
    """The torn tail is cut by replacing the file (the directory is the service's), so the
    repaired journal belongs to the service again; the original is kept in a backup."""
    root = Path(tempfile.mkdtemp())
    try:
        state = root / "state"
        rig = Rig("buttons", journal=Journal(state, snapshot_every=0))
        for _ in range(3):
            decide(rig)
        rig.c.say_bye()
        path = state / JOURNAL_NAME
        torn = path.read_bytes() + b"\0\0\0\x40\x12"
        path.write_bytes(torn)
        if os.geteuid() == 0:  # root's file in the service's directory, the service recovers
            nobody = pwd.getpwnam("nobody")
            for directory in (root, state):
                os.chown(directory, nobody.pw_uid, nobody.pw_gid)
            seen = _as_user(nobody.pw_uid, nobody.pw_gid, lambda: _recover_torn(state))
            assert seen.get("owner") == nobody.pw_uid, seen
        else:
            path.chmod(0o444)
            seen = _recover_torn(state)
        assert seen["decisions"] == 3 and seen["failed"] is None, seen
        assert [Path(b).read_bytes() for b in seen["backups"]] == [torn]
    finally:
        subprocess.run(["rm", "-rf", str(root)], check=True)


def test_run_as_root_refuses_the_service_s_state_directory_and_says_why(tmp_path):
    service_dir = tmp_path / "service"
    service_dir.mkdir()
    if os.geteuid() == 0:
        os.chown(service_dir, 65534, 65534)
    why = D.root_refusal(service_dir, euid=0)
    assert why is not None and "refusing to run as root" in why and "sudo -u" in why
    assert "--state-dir" in why and str(service_dir) in why
    assert D.root_refusal(service_dir, euid=1000) is None  # the service user itself
    assert D.root_refusal(Path("/"), euid=0) is None  # root's own directory
    assert D.root_refusal(tmp_path / "new", euid=0) is None  # created now, by root


def test_haleakala_run_as_root_exits_with_the_reason_before_touching_anything(
    tmp_path, monkeypatch, capsys
):
    service_dir = tmp_path / "service"
    service_dir.mkdir()
    if os.geteuid() == 0:
        os.chown(service_dir, 65534, 65534)
    config = tmp_path / "config.toml"
    config.write_text('kit = "buttons"\n')
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    args = Namespace(config=str(config), hardware="sim", state_dir=str(service_dir), headless=True)
    assert D.main(args) == D.EXIT_CONFIG
    assert "refusing to run as root" in capsys.readouterr().err
    assert list(service_dir.iterdir()) == []


def _recover_unreadable(state: Path) -> dict:
    try:
        Journal(state).recover()
    except JournalError as exc:
        return {"error": str(exc), "title": str(exc.title), "short": str(exc.short)}
    return {"error": None}


def test_a_journal_the_service_cannot_read_is_named_with_its_fix_and_left_untouched(tmp_path):
    root = Path(tempfile.mkdtemp())
    try:
        state = root / "state"
        rig = Rig("buttons", journal=Journal(state, snapshot_every=0))
        for _ in range(2):
            decide(rig)
        rig.c.say_bye()
        path = state / JOURNAL_NAME
        before = path.read_bytes()
        path.chmod(0o600 if os.geteuid() == 0 else 0)  # root's umask 077, or no rights
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            for directory in (root, state):
                os.chown(directory, nobody.pw_uid, nobody.pw_gid)
            seen = _as_user(nobody.pw_uid, nobody.pw_gid, lambda: _recover_unreadable(state))
            group = grp.getgrgid(nobody.pw_gid).gr_name
            fix = f"sudo chown nobody:{group} {path}"
        else:
            seen = _recover_unreadable(state)
            fix = f"chmod u+rw {path}"
            path.chmod(0o600)
        assert seen.get("error") and fix in seen["error"] and fix in seen["short"], seen
        assert seen["title"] == "CANNOT SAVE"
        assert path.read_bytes() == before and sorted(p.name for p in state.iterdir()) == [
            JOURNAL_NAME
        ]
    finally:
        subprocess.run(["rm", "-rf", str(root)], check=True)


class RecordingNotifier(D.Notifier):
    def __init__(self) -> None:
        super().__init__({})
        self.sent: list[str] = []

    def notify(self, message: str) -> bool:
        self.sent.append(message)
        return True


def test_waiting_for_storage_keeps_systemd_content_and_shows_the_fix_on_the_oled():
    rig = Rig("buttons")
    error = JournalError(13, "full story", title="CANNOT SAVE", short="Fix: sudo chown x")
    notifier = RecordingNotifier()
    shown = rig.hw.display.show_count
    assert D.wait_for_storage(error, rig.hw, notifier, retry_s=0.01) is True
    assert notifier.sent[0] == "READY=1\nSTATUS=waiting: Fix: sudo chown x"
    assert "WATCHDOG=1" in notifier.sent
    assert rig.hw.display.show_count == shown + 1
    expected = oled.draw(oled.Screen("! CANNOT SAVE", oled.wrap(error.short), alert=True))
    assert rig.hw.display.last.tobytes() == expected.tobytes()


def test_the_daemon_waits_for_a_journal_it_cannot_read_and_then_resumes_it(tmp_path, monkeypatch):
    """No exit, no restart loop: the daemon shows the fix and tries again until it can."""
    config = tmp_path / "config.toml"
    config.write_text('kit = "buttons"\n')
    tries = []
    recover = Journal.recover

    def refused_once(journal):
        tries.append(journal.path)
        if len(tries) == 1:
            raise JournalError(13, "full story", title="CANNOT SAVE", short="Fix: sudo chown x")
        return recover(journal)

    waited = []
    monkeypatch.setattr(Journal, "recover", refused_once)
    monkeypatch.setattr(D, "wait_for_storage", lambda exc, *_: waited.append(exc.short) or True)
    monkeypatch.setattr(D.Daemon, "install_signal_handlers", lambda self: None)
    monkeypatch.setattr(D.Daemon, "run", lambda self: D.EXIT_OK)
    args = Namespace(
        config=str(config), hardware="sim", state_dir=str(tmp_path / "state"), headless=True
    )
    assert D.main(args) == D.EXIT_OK
    assert len(tries) == 2 and waited == ["Fix: sudo chown x"]
