"""A marked message inside an f-string never reaches the catalog: Babel's extractor does not
look inside f-strings, so ``f"{_('seg'):<4}"`` stayed English in every language (the terminal's
island heading did). Marks with a literal message must stand outside f-strings."""

from __future__ import annotations

import ast
from pathlib import Path

import haleakala

PACKAGE_ROOT = Path(haleakala.__file__).parent
MARKS = {"_", "N_", "ngettext", "pgettext"}


def marks_inside_fstrings(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.JoinedStr):
            continue
        for inner in ast.walk(node):
            if (
                isinstance(inner, ast.Call)
                and isinstance(inner.func, ast.Name)
                and inner.func.id in MARKS
                and inner.args
                and isinstance(inner.args[0], ast.Constant)
            ):
                lines.append(inner.lineno)
    return lines


def test_no_marked_message_hides_inside_an_fstring():
    found = {
        f"{path.relative_to(PACKAGE_ROOT)}:{line}"
        for path in PACKAGE_ROOT.rglob("*.py")
        for line in marks_inside_fstrings(ast.parse(path.read_text(encoding="utf-8")))
    }
    assert not found, f"move these marks out of their f-strings: {sorted(found)}"


def test_the_check_sees_a_mark_inside_an_fstring():
    assert marks_inside_fstrings(ast.parse("x = f\"{_('seg'):<4}\"")) == [1]
    assert marks_inside_fstrings(ast.parse("h = _('seg')\nx = f'{h:<4}'")) == []
