"""The maker's documents agree with the code (issue 36): every ``haleakala`` command in
MAKER.md and ASSEMBLY.md parses as the installed command would take it (the installer links
it onto the PATH), the RFID builder is told where to set ``kit = "rfid"``, no "ring" is left
where a pixel or tile is meant, and ASSEMBLY.md, PINS.md and ``haleakala power`` give the
same power figures."""

from __future__ import annotations

import re
import shlex

import pytest
from support.paths import REPO_ROOT

from haleakala.cli import build_parser, main

DOCS = {name: (REPO_ROOT / "hw" / name).read_text(encoding="utf-8") for name in
        ("MAKER.md", "ASSEMBLY.md")}  # fmt: skip
# The maker's steps are the first part of MAKER.md; the rest is the project's own evidence.
STEPS = {
    "MAKER.md": DOCS["MAKER.md"].split("### The virtual Pi")[0],
    "ASSEMBLY.md": DOCS["ASSEMBLY.md"],
}


def commands(text: str) -> list[list[str]]:
    """Every ``haleakala ...`` command in the text's code spans, as argv after the name."""
    found = []
    for span in re.findall(r"`([^`]+)`", text):
        for part in re.split(r"\s*(?:&&|;)\s*", span):
            words = shlex.split(part)
            if words[:1] == ["sudo"]:
                words = words[1:]
            if words and words[0] in ("haleakala", "/opt/haleakala/venv/bin/haleakala"):
                found.append(words[1:])
    return found


@pytest.mark.parametrize("name", sorted(STEPS))
def test_every_haleakala_command_in_the_steps_parses(name):
    argvs = commands(STEPS[name])
    assert len(argvs) >= 5, argvs
    for argv in argvs:
        if not argv or argv[0] in ("COMMAND",):
            continue
        parser = build_parser(argv[0])
        try:
            parser.parse_args(argv)
        except SystemExit as exc:  # pragma: no cover - the message names the command
            raise AssertionError(f"{name}: 'haleakala {' '.join(argv)}' does not parse") from exc


def test_the_docs_run_haleakala_from_the_path_the_installer_makes():
    for name, text in STEPS.items():
        assert "`/opt/haleakala/venv/bin/haleakala " not in text, name
    assert "links `/usr/local/bin/haleakala`" in DOCS["MAKER.md"]
    assert "links `haleakala` onto the PATH" in DOCS["ASSEMBLY.md"]


def test_the_rfid_builder_is_told_where_to_set_the_kit():
    for text in DOCS.values():
        assert 'set `kit = "rfid"` in `/etc/haleakala/config.toml`' in text


def test_no_ring_is_left_where_a_pixel_or_tile_is_meant():
    for name, text in STEPS.items():
        words = re.findall(r"\brings?\b", text.replace("leds.ring_order", ""), re.I)
        assert not words, (name, words)
    for name in ("OVERLAY.md", "BOM.md"):
        text = (REPO_ROOT / "hw" / name).read_text(encoding="utf-8")
        assert not re.findall(r"\brings?\b", text.replace("leds.ring_order", ""), re.I), name


def test_assembly_pins_and_power_give_the_same_power_figures(capsys):
    assert main(["power"]) == 0
    out = capsys.readouterr().out
    full = re.search(r"^last_pixel_v_full_white: ([\d.]+)", out, re.M).group(1)
    capped = re.search(r"^last_pixel_v_default_cap: ([\d.]+)", out, re.M).group(1)
    pins = (REPO_ROOT / "wiring" / "PINS.md").read_text(encoding="utf-8")
    for text in (DOCS["ASSEMBLY.md"], pins):
        assert f"**{full} V at full white**" in text
        assert f"**{capped} V at the default cap**" in text
        assert "F1 (T4A slow-blow) protects the LED and reader rail" in text
        assert "| tile ribbon (each) | 4 x 28 AWG ribbon conductors each way |" in text
    assert "F1 (T4A slow-blow) protects the LED and reader rail" in out
    bom = (REPO_ROOT / "hw" / "BOM.md").read_text(encoding="utf-8")
    assert f"the last pixel gets {full} V at full white and {capped} V at the default cap" in bom
