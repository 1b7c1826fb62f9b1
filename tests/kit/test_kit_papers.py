"""Issue 10, maker papers: the licence file matches what pyproject declares, and the kit
extra installs the tool that puts the firmware on the Pico."""

from __future__ import annotations

import tomllib

from support.paths import REPO_ROOT

ROOT = REPO_ROOT
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_the_license_file_is_the_mit_licence_pyproject_declares():
    assert PROJECT["license"] == "MIT"
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n\nCopyright (c) ")
    holder = PROJECT["authors"][0]["name"]
    assert holder in text.splitlines()[2]
    assert "Permission is hereby granted, free of charge" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text


def test_the_kit_extra_installs_mpremote_for_flashing_the_firmware():
    kit = PROJECT["optional-dependencies"]["kit"]
    assert any(req.startswith("mpremote>=") for req in kit)
    assert "mpremote cp" in (ROOT / "firmware" / "main.py").read_text()
