"""What the daemon does for ``haleakala update``: its health record once READY (the game and
decision it resumed), the update notice shown on the OLED and logged at its start, and the
refusal in words of a journal written by a newer release (files untouched)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys

import pytest
from support.paths import REPO_ROOT

from haleakala.companion import health
from haleakala.companion.journal import Journal, JournalError, encode_record, read_pieces
from haleakala.games.haleakala import Game

RUN = [sys.executable, "-m", "haleakala", "run", "--hardware", "sim", "--headless"]


@pytest.fixture
def notify_socket(tmp_path):
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(30)
    yield sock, path
    sock.close()


def start_and_stop(tmp_path, path, sock) -> str:
    """One start of the daemon up to READY=1, then SIGTERM; its output."""
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
    process = subprocess.Popen(
        [*RUN, "--config", str(tmp_path / "c.toml"), "--state-dir", str(tmp_path / "s"),
         "--seed", "4"],
        env={**env, "NOTIFY_SOCKET": str(path)}, cwd=REPO_ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        while not sock.recv(4096).decode().startswith("READY=1"):
            pass
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=30)
    finally:
        process.kill()
    return out


def test_the_daemon_says_where_it_resumed_once_ready_and_shows_an_update_notice(
    tmp_path, notify_socket
):
    sock, path = notify_socket
    (tmp_path / "c.toml").write_text("")
    start_and_stop(tmp_path, path, sock)
    first = json.loads((tmp_path / "s" / health.HEALTH_NAME).read_text())
    assert (first["state"], first["decision"]) == ("new", 0)
    assert first["game"] and first["release"] is None  # a checkout, not a release
    why = "update to release 0.2.0-b-pi rolled back: it did not resume"
    notice = {"kind": "rolled-back", "release": "0.2.0-b-pi", "back_to": "0.1.0-a", "why": why}
    (tmp_path / "s" / health.NOTICE_NAME).write_text(json.dumps(notice))
    out = start_and_stop(tmp_path, path, sock)
    again = json.loads((tmp_path / "s" / health.HEALTH_NAME).read_text())
    assert (again["state"], again["game"], again["digest"]) == (
        "resumed", first["game"], first["digest"])  # fmt: skip
    assert f"WARNING haleakala.daemon: update: {notice['why']}" in out
    assert not (tmp_path / "s" / health.NOTICE_NAME).exists()  # shown once


def test_the_notice_reads_in_every_language():
    from haleakala.i18n import render, speak

    title, text = health.notice_words({"kind": "interrupted", "release": "0.2", "back_to": "0.1"})
    assert str(text) == "The update to 0.2 was cut off. Back on 0.1; the game is kept."
    names = {"kind": "rolled-back", "release": "0.2.0-bbbbbbbbbb-pi", "back_to": "0.1.0-a-pi"}
    assert str(health.notice_words(names)[1]) == (  # the versions a player knows them by
        "Release 0.2.0 failed its check. Back on 0.1.0; the game is kept."
    )
    try:
        speak("de")
        assert render(title) == "UPDATE ZURÜCK" and "Zurück auf 0.1" in render(text)
        speak("fr")
        assert "Retour à 0.1" in render(text)
    finally:
        speak("en")


def test_the_release_is_read_from_the_venvs_real_path(tmp_path):
    venv = tmp_path / "opt/haleakala/releases/0.2.0-bbbbbbbbbb-pi/venv"
    venv.mkdir(parents=True)
    (tmp_path / "opt/haleakala/current").symlink_to("releases/0.2.0-bbbbbbbbbb-pi")
    (tmp_path / "opt/haleakala/venv").symlink_to("current/venv")
    assert health.running_release(str(tmp_path / "opt/haleakala/venv")) == "0.2.0-bbbbbbbbbb-pi"
    assert health.running_release(str(tmp_path)) is None


def test_a_journal_of_a_newer_format_is_refused_in_words_and_left_as_it_is(tmp_path):
    """After a rollback, an older release must not set aside (and so abandon) the game a
    newer one wrote: it says so and waits, and updating again resumes it."""
    journal = Journal(tmp_path)
    journal.start(Game("base", 5, None))
    journal.close()
    path = tmp_path / "journal.bin"
    data = path.read_bytes()
    header = read_pieces(data)[0]
    newer = encode_record({**header.payload, "version": 2}) + data[header.end :]
    path.write_bytes(newer)
    with pytest.raises(JournalError) as refused:
        Journal(tmp_path).recover()
    assert "is format 2, written by a newer release; this release reads format 1" in str(
        refused.value
    )
    assert "update the kit again" in str(refused.value.short)
    assert path.read_bytes() == newer and sorted(p.name for p in tmp_path.iterdir()) == [
        "journal.bin"
    ]
