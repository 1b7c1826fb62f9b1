"""Releases side by side under a temporary root: the one switch, the boot-time check that
takes back a release that never proved itself, the move from the old layout, and power cut
at every file-system step of each (the kit is always on one whole release)."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest
from support.kit_releases import GAME, UNIT, Cut, add_release, cut_after, installed, whole

from haleakala.kit import releases as R

OLD, NEW = "0.1.0-aaaaaaaaaa-pi", "0.2.0-bbbbbbbbbb-pi"


def test_a_switch_is_one_link_and_keeps_the_one_before_as_previous(tmp_path):
    layout = installed(tmp_path, OLD)
    add_release(layout, NEW, built="2")
    assert R.switch(layout, NEW) == OLD
    assert (layout.current(), layout.previous()) == (NEW, OLD)
    assert os.readlink(layout.prefix / "current") == f"releases/{NEW}"
    assert os.readlink(layout.prefix / "venv") == "current/venv"  # the unit's path, unchanged
    assert whole(layout) == NEW
    assert layout.names() == [OLD, NEW]


def test_a_release_without_its_manifest_is_never_switched_to(tmp_path):
    layout = installed(tmp_path, OLD)
    (layout.release(NEW) / "venv").mkdir(parents=True)  # a build a cut interrupted
    with pytest.raises(R.ReleaseError, match="not whole"):
        R.switch(layout, NEW)
    assert whole(layout) == OLD


@pytest.mark.parametrize("steps", range(6))
def test_a_power_cut_anywhere_in_a_switch_leaves_one_whole_release(tmp_path, monkeypatch, steps):
    layout = installed(tmp_path, OLD)
    add_release(layout, NEW, built="2")
    cut_after(monkeypatch, steps)
    with contextlib.suppress(Cut):
        R.switch(layout, NEW)
    monkeypatch.undo()
    assert whole(layout) in (OLD, NEW)


def trial(layout: R.Layout) -> dict:
    return {"release": NEW, "previous": OLD, **GAME}


def test_a_trial_found_at_boot_switches_back_and_says_why(tmp_path):
    layout = installed(tmp_path, OLD)
    add_release(layout, NEW, built="2")
    R.begin_trial(layout, trial(layout))
    R.switch(layout, NEW)
    reloads = []
    assert R.boot_check(layout, say=lambda _: None, reload=lambda: reloads.append(1)) == (
        "rolled back"
    )
    assert whole(layout) == OLD and layout.trial() is None
    assert "cut off" in layout.failed(NEW)["why"]
    notice = json.loads((layout.state / R.NOTICE).read_text())
    assert (notice["kind"], notice["release"], notice["back_to"]) == ("interrupted", NEW, OLD)
    assert "back on release" in (tmp_path / "var/log/haleakala-update.log").read_text()
    assert reloads == []  # the two releases ship the same unit: no reload needed


def test_a_release_that_proved_itself_before_the_cut_stays(tmp_path):
    layout = installed(tmp_path, OLD)
    add_release(layout, NEW, built="2", unit=UNIT.replace("notify", "simple"))
    R.begin_trial(layout, trial(layout))
    R.switch(layout, NEW)
    (layout.state / R.HEALTH).write_text(json.dumps({"release": NEW, "state": "resumed", **GAME}))
    assert R.boot_check(layout, say=lambda _: None) == "proven"
    assert whole(layout) == NEW and layout.trial() is None


def test_a_health_record_at_another_decision_proves_nothing(tmp_path):
    layout = installed(tmp_path, OLD)
    add_release(layout, NEW, built="2", unit=UNIT.replace("notify", "simple"))
    R.begin_trial(layout, trial(layout))
    R.switch(layout, NEW)
    record = {"release": NEW, "state": "resumed", **GAME, "decision": GAME["decision"] - 1}
    (layout.state / R.HEALTH).write_text(json.dumps(record))
    reloads = []
    assert R.boot_check(layout, say=lambda _: None, reload=lambda: reloads.append(1)) == (
        "rolled back"
    )
    assert whole(layout) == OLD
    assert reloads == [1]  # their units differ: systemd reads the old one again


def test_a_trial_written_before_the_switch_only_goes(tmp_path):
    layout = installed(tmp_path, OLD)
    add_release(layout, NEW, built="2")
    R.begin_trial(layout, trial(layout))
    assert R.boot_check(layout, say=lambda _: None) == "rolled back"
    assert whole(layout) == OLD and layout.failed(NEW) is None


def test_a_torn_trial_file_is_removed_and_nothing_moves(tmp_path):
    layout = installed(tmp_path, OLD)
    (layout.prefix / R.TRIAL).write_bytes(b'{"release": "0.2')
    assert R.boot_check(layout, say=lambda _: None) == "nothing"
    assert whole(layout) == OLD and not (layout.prefix / R.TRIAL).exists()


def test_the_boot_check_script_runs_on_debians_python_alone(tmp_path):
    """It is copied to /opt/haleakala/release-check.py and run by /usr/bin/python3: it must
    import nothing of the package (a broken release cannot stop it)."""
    import ast

    tree = ast.parse(Path(R.__file__).read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                for a in n.names}  # fmt: skip
    imported |= {n.module.split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom) and n.module}  # fmt: skip
    assert "haleakala" not in imported
    import subprocess
    import sys

    layout = installed(tmp_path, OLD)
    add_release(layout, NEW, built="2")
    R.begin_trial(layout, trial(layout))
    R.switch(layout, NEW)
    done = subprocess.run([sys.executable, "-I", R.__file__, "--root", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "back on release 0.1.0" in done.stdout
    assert layout.current() == OLD


# --------------------------------------------------------------------------- the old layout


def legacy(root: Path) -> R.Layout:
    """/opt/haleakala as the installer before releases left it."""
    venv = root / "opt/haleakala/venv"
    info = venv / "lib/python3.11/site-packages/haleakala_companion-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Name: haleakala-companion\nVersion: 0.1.0\n")
    (venv / "bin").mkdir()
    (venv / "bin/haleakala").write_text("#!/opt/haleakala/venv/bin/python\n")
    (venv / "pyvenv.cfg").write_text("include-system-site-packages = true\n")
    (root / "opt/haleakala/installed-source.sha256").write_text("c0ffee" * 10 + " [pi]\n")
    (root / "opt/haleakala/README.md").write_text("# Haleakala\n")
    unit = root / "etc/systemd/system/haleakala.service"
    unit.parent.mkdir(parents=True)
    unit.write_text(UNIT)
    return R.Layout(root)


def test_an_install_of_the_old_layout_moves_into_a_release(tmp_path):
    layout = legacy(tmp_path)
    name = R.migrate(layout, UNIT.encode(), say=lambda _: None)
    assert name == "0.1.0-c0ffeec0ff-pi"
    assert whole(layout) == name and not layout.legacy()
    assert (layout.venv(name) / "bin/haleakala").read_text().startswith("#!/opt/haleakala/venv")
    assert (layout.release(name) / "systemd/haleakala.service").read_text() == UNIT
    assert (layout.prefix / "README.md").read_text() == "# Haleakala\n"  # through current
    assert not (layout.prefix / R.LEGACY_STAMP).exists()
    assert R.migrate(layout, None, say=lambda _: None) is None  # once


@pytest.mark.parametrize("steps", range(9))
def test_a_power_cut_anywhere_in_the_move_is_finished_at_boot(tmp_path, monkeypatch, steps):
    layout = legacy(tmp_path)
    cut_after(monkeypatch, steps)
    with contextlib.suppress(Cut):
        R.migrate(layout, UNIT.encode(), say=lambda _: None)
    monkeypatch.undo()
    R.boot_check(layout, say=lambda _: None)
    if layout.legacy():  # cut before the move began: the old layout is whole, the unit too
        assert (layout.prefix / "venv/bin/haleakala").is_file()
        assert R.migrate(layout, UNIT.encode(), say=lambda _: None) is not None
    assert whole(layout) == "0.1.0-c0ffeec0ff-pi"
    assert (layout.prefix / "venv/bin/haleakala").is_file()
