"""The firmware is MicroPython: it must compile with mpy-cross and use only what the
RP2040 port has (its built-in modules, no f-strings, no dataclasses or typing)."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import REPO_ROOT

FIRMWARE = REPO_ROOT / "firmware"
SOURCES = sorted(FIRMWARE.rglob("*.py"))

MICROPYTHON_MODULES = {
    "sys",
    "time",
    "os",
    "gc",
    "machine",
    "micropython",
    "struct",
    "binascii",
    "select",
    "random",
    "math",
    "collections",
    "errno",
    "io",
    "array",
    "_thread",
}


def mpy_cross() -> list[str]:
    exe = Path(sys.executable).with_name("mpy-cross")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("mpy-cross")
    return [found] if found else [sys.executable, "-m", "mpy_cross"]


def test_firmware_sources_are_found() -> None:
    names = {p.name for p in SOURCES}
    assert {
        "main.py",
        "scanner.py",
        "pn5180.py",
        "mfrc522.py",
        "protocol.py",
        "reader.py",
        "config.py",
        "compat.py",
        "board.py",
    } <= names


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(FIRMWARE)))
def test_every_firmware_file_compiles_with_mpy_cross(source: Path, tmp_path: Path) -> None:
    out = tmp_path / (source.stem + ".mpy")
    result = subprocess.run(
        [*mpy_cross(), "-o", str(out), str(source)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 0


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(FIRMWARE)))
def test_firmware_uses_only_micropython_features(source: Path) -> None:
    text = source.read_text()
    tree = ast.parse(text, str(source))
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            problems.append(f"line {node.lineno}: f-string")
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
            for name in names:
                top = name.split(".")[0]
                if top != "haleakala_pico" and top not in MICROPYTHON_MODULES:
                    problems.append(f"line {node.lineno}: imports {name}")
        elif isinstance(node, ast.AnnAssign):
            problems.append(f"line {node.lineno}: variable annotation")
        elif isinstance(node, ast.FunctionDef) and (
            node.returns is not None or any(a.annotation for a in node.args.args)
        ):
            problems.append(f"line {node.lineno}: type annotations on {node.name}")
        elif isinstance(node, ast.Match):
            problems.append(f"line {node.lineno}: match statement")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, int)
            and "_" in (ast.get_source_segment(text, node) or "")
        ):
            problems.append(f"line {node.lineno}: underscore in a number")
    assert not problems, f"{source.name}: " + "; ".join(problems)
