"""``./run`` on a machine that is not a Pi: quiet on stderr, and the extras every documented
command needs (issue 23: "./run: line 9: /proc/device-tree/model: No such file or directory").

The script runs for real, in a copy of the checkout's ``run`` and ``tools/bootstrap.sh``
beside a stand-in venv that is already set up (its ``python`` and ``haleakala`` are
recording shell scripts): no venv is made, nothing is installed, it takes milliseconds.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from support.paths import REPO_ROOT

RECORDER = '#!/bin/sh\necho "$(basename "$0") $*" >> "$(dirname "$0")/../calls"\n'


def _executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """``run`` and its bootstrap with a venv already installed for ``extras``."""
    root = tmp_path / "checkout"
    (root / "tools").mkdir(parents=True)
    for name in ("run", "tools/bootstrap.sh", "pyproject.toml"):
        shutil.copy2(REPO_ROOT / name, root / name)
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    _executable(bin_dir / "python", RECORDER)
    _executable(bin_dir / "haleakala", RECORDER)
    return root


def _run(root: Path, model: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HALEAKALA_DEVICE_MODEL_FILE": str(model)}
    env.pop("HALEAKALA_SYSTEM_SITE", None)
    return subprocess.run(
        ["bash", str(root / "run"), *args], capture_output=True, text=True, env=env, timeout=60
    )


def _installed(root: Path, extras: str) -> None:
    stamp = root / ".venv" / f".installed-{extras}"
    stamp.touch()
    later = (root / "pyproject.toml").stat().st_mtime + 10
    os.utime(stamp, (later, later))


def test_run_on_a_machine_that_is_not_a_pi_prints_nothing_on_stderr(checkout, tmp_path):
    _installed(checkout, "sim,web,kit,remote")
    result = _run(checkout, tmp_path / "no-device-tree" / "model", "play", "--help")
    assert result.stderr == ""
    assert result.returncode == 0
    calls = (checkout / ".venv" / "calls").read_text().splitlines()
    assert calls[-1] == "haleakala play --help"
    assert not any("pip install" in call for call in calls), "an installed venv reinstalled"


def test_run_off_a_pi_installs_the_kit_extra_the_documented_commands_need(checkout, tmp_path):
    """The kit extra (wiring), and the remote extra that ``./run run --remote`` needs."""
    result = _run(checkout, tmp_path / "absent", "wiring", "--check")
    assert "installing haleakala[sim,web,kit,remote]" in result.stderr
    calls = (checkout / ".venv" / "calls").read_text()
    assert f"-m pip install --quiet -e {checkout}[sim,web,kit,remote]" in calls


@pytest.mark.parametrize(
    ("model", "extras"),
    [
        ("Raspberry Pi 5 Model B Rev 1.0", "pi5,web,remote"),
        ("Raspberry Pi 4 Model B Rev 1.5", "pi,web,remote"),
    ],
)
def test_run_on_a_pi_installs_that_models_extra(checkout, tmp_path, model, extras):
    model_file = tmp_path / "model"
    model_file.write_bytes(model.encode() + b"\0")
    (checkout / ".venv" / "pyvenv.cfg").write_text("include-system-site-packages = true\n")
    _installed(checkout, extras)
    result = _run(checkout, model_file, "run", "--help")
    assert result.stderr == ""
    calls = (checkout / ".venv" / "calls").read_text().splitlines()
    assert calls[-1] == "haleakala run --help"


def test_install_hints_name_this_pythons_pip_and_the_checkout():
    """Not ``pip install 'haleakala-companion[kit]'``: no package index has that name."""
    import shlex
    import sys

    from haleakala.checkout import install_hint, source_checkout

    hint = install_hint("kit")
    assert shlex.split(hint) == [
        sys.executable,
        "-m",
        "pip",
        "install",
        "-e",
        f"{source_checkout()}[kit]",
    ]
    sources = sorted((REPO_ROOT / "haleakala").rglob("*.py"))
    unpublished = [p.name for p in sources if "install 'haleakala-companion" in p.read_text()]
    assert not unpublished
