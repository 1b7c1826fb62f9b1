"""Compiled catalogs come from the set-up, not from git: the package build compiles them into
the wheel (the Pi installer pip-installs the checkout, which builds one), tools/bootstrap.sh
into the source tree for ./run and ./test."""

from __future__ import annotations

import gettext
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from haleakala.i18n import catalogs

REPO = Path(__file__).resolve().parents[2]


def test_compiling_into_another_tree_gives_every_language_its_catalog(tmp_path):
    written = catalogs.compile_all(catalogs.LOCALE_DIR, tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == [
        f"{lang}/LC_MESSAGES/haleakala.mo" for lang in sorted(catalogs.LANGUAGES)
    ]
    with (tmp_path / "de" / "LC_MESSAGES" / "haleakala.mo").open("rb") as fp:
        assert gettext.GNUTranslations(fp).gettext("shaman") == "Schamane"


def test_only_stale_leaves_a_catalog_newer_than_its_source_alone(tmp_path):
    catalogs.compile_all(catalogs.LOCALE_DIR, tmp_path)
    assert catalogs.compile_all(catalogs.LOCALE_DIR, tmp_path, only_stale=True) == []
    mo = tmp_path / "fr" / "LC_MESSAGES" / "haleakala.mo"
    os.utime(mo, (0, 0))  # older than its .po, as after a git pull brought a new .po
    assert catalogs.compile_all(catalogs.LOCALE_DIR, tmp_path, only_stale=True) == [mo]


def test_mo_files_are_ignored_by_git_and_po_files_are_not():
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", "haleakala/i18n/locale/de/LC_MESSAGES/haleakala.mo"],
        cwd=REPO,
    )
    assert ignored.returncode == 0
    kept = subprocess.run(
        ["git", "check-ignore", "-q", "haleakala/i18n/locale/de/LC_MESSAGES/haleakala.po"],
        cwd=REPO,
    )
    assert kept.returncode == 1


@pytest.mark.long
def test_a_wheel_built_from_the_checkout_carries_compiled_catalogs(tmp_path):
    """What the Pi installer's ``pip install CHECKOUT[pi]`` builds (minutes on a Pi)."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "-q", "-w", str(tmp_path)],
        check=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for language in catalogs.LANGUAGES:
        assert f"haleakala/i18n/locale/{language}/LC_MESSAGES/haleakala.mo" in names
