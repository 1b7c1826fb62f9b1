"""The layers of the package, checked on its import graph so that a new violation fails.

Counted: every ``import`` a module executes, at module level or inside a function (a
call-time import is still a dependency); not counted: ``if TYPE_CHECKING:`` blocks, which
never run. The layers, bottom up:

- ``core`` (errors, refusals, words as values, bounded JSON): imports nothing else of the package;
- ``gameapi`` (the interface and the registry): only ``core``;
- each game package (``rules`` is Haleakala, ``kahuna``): only ``core``, ``gameapi`` and
  itself, so that loading one game never loads another (Kahuna once borrowed Haleakala's
  errors and JSON reader);
- ``ai`` (the bots) stands on the games and never reaches a front-end;
- ``companion`` (the daemon) never imports the web view or the simulator: whoever starts
  the daemon hands it a live view.

And no import cycle at all, not even through a call-time import.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from support.imports import cycles
from support.imports import module_files as modules

GAMES = ("rules", "kahuna")
FRONT_ENDS = ("terminal", "companion", "web", "simulator", "cli")

# package -> the packages it may import besides itself (None: anything)
ALLOWED: dict[str, tuple[str, ...]] = {
    "core": (),
    "gameapi": ("core",),
    "rules": ("core", "gameapi"),
    "kahuna": ("core", "gameapi"),
}
# package -> packages it must not import
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "ai": FRONT_ENDS,
    "companion": ("web", "simulator"),
}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def executed_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run, in functions too, without ``TYPE_CHECKING``."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If) and _type_checking(node):
            pending.extend(node.orelse)
            continue
        pending.extend(ast.iter_child_nodes(node))
    return found


def graph(mods: dict[str, Path]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {name: set() for name in mods}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in executed_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [
                    f"{source}.{a.name}" if f"{source}.{a.name}" in mods else source
                    for a in node.names
                ]
            edges[name].update(t for t in targets if t in mods and t != name)
    return edges


def layer(module: str) -> str:
    """``haleakala.rules.game`` -> ``rules``; ``haleakala.gameapi`` -> ``gameapi``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def violations(edges: dict[str, set[str]]) -> list[str]:
    found = []
    for source, targets in sorted(edges.items()):
        mine = layer(source)
        for target in sorted(targets):
            theirs = layer(target)
            if theirs == mine:
                continue
            allowed = ALLOWED.get(mine)
            if allowed is not None and theirs not in allowed:
                found.append(f"{source} imports {target}: {mine} may import only {allowed}")
            if theirs in FORBIDDEN.get(mine, ()):
                found.append(f"{source} imports {target}: {mine} must not import {theirs}")
    return found


def test_every_package_keeps_to_its_layer() -> None:
    assert violations(graph(modules())) == []


def test_no_import_cycle_even_through_a_call_time_import() -> None:
    assert cycles(graph(modules())) == []


def test_the_checks_see_a_violation_and_a_cycle() -> None:
    """Not vacuous: a call-time import from Kahuna into Haleakala, from the companion into
    the web, and a loop closed inside a function are found; a type-only import is not."""
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from haleakala.web import server\n"
        "def f():\n    from haleakala.rules import game\n"
    )
    names = [n.module for n in executed_imports(tree) if isinstance(n, ast.ImportFrom)]
    assert sorted(names) == ["haleakala.rules", "typing"]
    edges = {
        "haleakala.kahuna.game": {"haleakala.rules.game"},
        "haleakala.companion.menu": {"haleakala.web.join"},
        "haleakala.rules.game": {"haleakala.rules.serialize"},
        "haleakala.rules.serialize": {"haleakala.rules.game"},
    }
    assert len(violations(edges)) == 2
    assert cycles(edges) == [["haleakala.rules.game", "haleakala.rules.serialize"]]


@pytest.mark.parametrize(
    ("module", "absent"),
    [
        ("haleakala.kahuna", "haleakala.rules"),
        ("haleakala.kanaloa", "haleakala.rules"),
        ("haleakala.kanaloa", "haleakala.kahuna"),
        ("haleakala.gameapi", "haleakala.rules"),
        ("haleakala.core.jsonread", "haleakala.rules"),
    ],
)
def test_loading_one_game_loads_no_other(module: str, absent: str) -> None:
    code = (
        f"import sys, {module}\n"
        f"prefix = {absent!r}\n"
        "loaded = sorted(m for m in sys.modules if m == prefix or m.startswith(prefix + '.'))\n"
        "print(loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
