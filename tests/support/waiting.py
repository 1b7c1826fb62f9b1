"""Waiting on a condition instead of sleeping for a guessed time.

A test that sleeps and then asserts is slow when the guess is generous and flaky when the
machine is loaded. ``wait_for`` returns as soon as the condition holds; its timeout is only a
guard against a hang (generous on purpose), never the thing a test asserts: timings are
measured by ``haleakala bench``, not by tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

HANG_GUARD_S = 30.0
"""Long enough for a loaded 2-core machine running the suite in parallel."""


def wait_for(
    condition: Callable[[], object],
    what: str = "",
    *,
    timeout: float = HANG_GUARD_S,
    poll: float = 0.005,
) -> None:
    """Poll ``condition`` until it is true; fail the test naming ``what`` if it never is."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"still waiting after {timeout:g} s for: {what or condition}")
        time.sleep(poll)
