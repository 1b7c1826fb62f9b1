"""Shared pytest setup. Test helpers live in tests/support and are importable as ``support``
through pytest's ``pythonpath`` setting in pyproject.toml (no sys.path patching here)."""
