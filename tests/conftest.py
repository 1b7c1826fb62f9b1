"""Shared pytest setup. Test helpers live in tests/support and are importable as ``support``
through pytest's ``pythonpath`` setting in pyproject.toml (no sys.path patching here)."""

import pytest


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """The companion speaks one language per process (``haleakala.i18n.use``), and a test
    may change it (``--lang``, the board's menu reached by random inputs): every test starts
    from English, as a fresh process does."""
    yield
    from haleakala import i18n

    if i18n.current() != i18n.DEFAULT:
        i18n.use(i18n.DEFAULT)
