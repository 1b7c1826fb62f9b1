"""A private X display for window tests: Xvfb at the window's size, with ``DISPLAY`` and
SDL's video driver pointed at it while the test module runs and put back afterwards."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from haleakala.toolkit.xvfb import virtual_display, xvfb_path


@contextmanager
def x_display_of(width: int, height: int) -> Iterator[str]:
    """Skip (saying how to install it) without Xvfb; else yield the display's name."""
    pytest.importorskip("pygame", reason="the window needs pygame (the sim extra)")
    if xvfb_path() is None:
        pytest.skip("Xvfb is not installed (Debian: apt-get install xvfb; ./test installs it)")
    saved = {k: os.environ.get(k) for k in ("DISPLAY", "SDL_VIDEODRIVER")}
    with virtual_display(width, height) as name:
        os.environ["DISPLAY"] = name
        os.environ["SDL_VIDEODRIVER"] = "x11"
        try:
            yield name
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
