"""The checkout's top level is the layout the project promises (issue 23: ``sim/`` had
become ``scenarios/`` and ``docs/simulator.md``)."""

from __future__ import annotations

from support.paths import REPO_ROOT

REQUIRED_FILES = ("pyproject.toml",)
REQUIRED_FOLDERS = ("firmware", "haleakala", "hw", "wiring", "sim", "tests", "systemd")


def test_the_top_level_holds_the_required_files_and_folders():
    missing = [name for name in REQUIRED_FILES if not (REPO_ROOT / name).is_file()]
    missing += [f"{name}/" for name in REQUIRED_FOLDERS if not (REPO_ROOT / name).is_dir()]
    assert not missing, f"the top level lacks {', '.join(missing)}"


def test_sim_holds_the_simulators_guide_and_scenario_library():
    sim = REPO_ROOT / "sim"
    assert (sim / "README.md").is_file()
    assert sorted((sim / "scenarios").glob("*.toml")), "no scenarios in sim/scenarios/"
    assert (sim / "scenarios" / "generate.py").is_file()
    assert not (REPO_ROOT / "scenarios").exists(), "the scenario library belongs in sim/"
    assert not (REPO_ROOT / "docs" / "simulator.md").exists(), "the guide belongs in sim/"
