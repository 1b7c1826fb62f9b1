"""Issue 10: the daemon's log lines keep their level in journald, so that
``journalctl -p err -u haleakala`` shows the errors (``<N>`` prefixes, sd-daemon(3))."""

from __future__ import annotations

import configparser
import io
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import REPO_ROOT

from haleakala.companion.logs import (
    JournalPrefixFormatter,
    is_journal_stream,
    setup_logging,
    syslog_priority,
)

ROOT = REPO_ROOT


def journal_env(path: Path) -> dict[str, str]:
    st = os.stat(path)
    return {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"}


def record(level: int, message: str, exc_info=None) -> logging.LogRecord:
    return logging.LogRecord("haleakala.daemon", level, __file__, 1, message, (), exc_info)


@pytest.mark.parametrize(
    ("level", "priority"),
    [
        (logging.CRITICAL, 2),
        (logging.ERROR, 3),
        (logging.WARNING, 4),
        (logging.INFO, 6),
        (logging.DEBUG, 7),
        (logging.ERROR + 5, 3),
        (logging.INFO - 5, 7),
    ],
)
def test_python_levels_map_to_syslog_priorities(level, priority):
    assert syslog_priority(level) == priority


def test_every_line_of_an_error_carries_the_err_prefix_the_traceback_too():
    try:
        raise RuntimeError("the LED chain stopped")
    except RuntimeError:
        exc_info = sys.exc_info()
    text = JournalPrefixFormatter("%(levelname)s %(name)s: %(message)s").format(
        record(logging.ERROR, "main loop failed", exc_info)
    )
    lines = text.split("\n")
    assert lines[0] == "<3>ERROR haleakala.daemon: main loop failed"
    assert lines[1] == "<3>Traceback (most recent call last):"
    assert lines[-1] == "<3>RuntimeError: the LED chain stopped"
    assert all(line.startswith("<3>") for line in lines)


def test_the_prefix_is_used_only_when_stdout_is_the_journal_stream(tmp_path):
    out = tmp_path / "stdout"
    with out.open("w") as stream:
        assert is_journal_stream(stream, journal_env(out))
        assert not is_journal_stream(stream, {})
        other = tmp_path / "other"
        other.write_text("")
        assert not is_journal_stream(stream, journal_env(other))  # inherited, redirected
        assert not is_journal_stream(stream, {"JOURNAL_STREAM": "garbage"})
    assert not is_journal_stream(io.StringIO(), journal_env(out))


def test_setup_logging_writes_plain_lines_on_a_terminal_and_prefixed_ones_to_journald(tmp_path):
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    log = logging.getLogger("haleakala.test")
    try:
        plain = io.StringIO()
        setup_logging("INFO", plain, env={})
        log.error("disk full")
        assert plain.getvalue() == "ERROR haleakala.test: disk full\n"
        path = tmp_path / "journal"
        with path.open("w") as stream:
            setup_logging("DEBUG", stream, env=journal_env(path))
            log.error("disk full")
            log.warning("link stale")
            log.info("ready")
            log.debug("frame")
        assert path.read_text().splitlines() == [
            "<3>ERROR haleakala.test: disk full",
            "<4>WARNING haleakala.test: link stale",
            "<6>INFO haleakala.test: ready",
            "<7>DEBUG haleakala.test: frame",
        ]
    finally:
        for handler in root.handlers[:]:
            root.removeHandler(handler)
        for handler in saved[0]:
            root.addHandler(handler)
        root.setLevel(saved[1])


def test_the_daemons_refusal_reaches_journald_at_priority_err(tmp_path):
    """The real ``haleakala run``, its stdout a file standing for the journal stream."""
    bad = tmp_path / "bad.toml"
    bad.write_text('variant = "Base"\n')
    out = tmp_path / "journal"
    out.write_text("")
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
    env.update(journal_env(out))
    with out.open("w") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "haleakala", "run", "--hardware", "sim", "--headless",
             "--config", str(bad), "--state-dir", str(tmp_path / "state")],
            env=env, stdout=stdout, stderr=subprocess.DEVNULL, timeout=60,
        )  # fmt: skip
    assert done.returncode == 2
    lines = out.read_text().splitlines()
    assert lines[0] == "<3>ERROR haleakala.daemon: bad config, not starting (1 problems):"
    assert lines[1].startswith("<3>ERROR haleakala.daemon:   variant: 'Base' is not one of")
    errors = [line for line in lines if line.startswith("<3>")]  # journalctl -p err
    assert errors == lines


def test_the_unit_keeps_the_syslog_level_prefix_on():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment]
    unit.read(ROOT / "systemd" / "haleakala.service")
    assert unit["Service"]["SyslogLevelPrefix"] == "yes"
    assert unit["Service"].get("StandardOutput", "journal") == "journal"
