"""Shared pytest setup. Test helpers live in tests/support and are importable as ``support``
through pytest's ``pythonpath`` setting in pyproject.toml (no sys.path patching here)."""

import logging

import pytest
from support.dots.register import register

# The worked example of docs/adding-a-game.md (Dots and Boxes, tests/support/dots) is a
# registered game in every test session: the tests that go over ``gameapi.GAMES`` check it
# as they check the three games of the program.
register()

# Loggers whose level code under test may set for a run (the benchmarks quieten
# ``haleakala`` and ``aiohttp``; ``setup_logging`` sets the root's).
_LOGGERS = ("", "haleakala", "aiohttp")


@pytest.fixture(autouse=True)
def _log_levels_after_each_test():
    """Every test starts with the logging levels a fresh process has: a benchmark run
    in-process leaves ``haleakala`` at ERROR, and a later test that waits for a warning
    in the same worker would then see none (which test ran before depends on xdist)."""
    levels = {name: logging.getLogger(name).level for name in _LOGGERS}
    yield
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """The companion speaks one language per process (``haleakala.i18n.use``), and a test
    may change it (``--lang``, the board's menu reached by random inputs): every test starts
    from English, as a fresh process does."""
    yield
    from haleakala import i18n

    if i18n.current() != i18n.DEFAULT:
        i18n.use(i18n.DEFAULT)


@pytest.fixture
def oled_screens_seen(monkeypatch):
    """Every OLED screen the controller computes during the test (what it draws, prompts
    and scrolls), for the checks that every screen of whole games fits and is translated."""
    from haleakala.companion import oled

    screens: set = set()
    original = oled.screen

    def recording(game, ui, now):
        shown = original(game, ui, now)
        screens.add(shown)
        return shown

    monkeypatch.setattr(oled, "screen", recording)
    return screens
