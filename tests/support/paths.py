"""Where the checkout is, for tests that read its shipped files (hw/, firmware/, systemd/...).

One definition, so a test's depth under tests/ does not decide what it reads.
"""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
