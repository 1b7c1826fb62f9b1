"""``tools/virtual-pi --help`` explains its commands (no root, nothing built: argparse only)."""

from __future__ import annotations

import subprocess
import sys

from support.paths import REPO_ROOT


def test_virtual_pi_help_explains_check_and_build_and_what_it_needs():
    done = subprocess.run(
        [sys.executable, str(REPO_ROOT / "tools" / "virtual-pi"), "--help"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "check (default): every step on each model" in text
    assert "build only build (or check) the cached root" in text
    assert "Needs root" in text and "du -sb" in text
