"""Fixtures of the companion's tests."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest


@pytest.fixture
def state(tmp_path):
    """A state directory in memory when the machine has one: the journal damage tests
    recover thousands of cases, and a disk's fsyncs would make them slow."""
    shm = Path("/dev/shm")
    root = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path
    yield root / "state"
    if root != tmp_path:
        shutil.rmtree(root)
