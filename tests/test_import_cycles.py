"""The package's modules form layers: no module-level import cycle among ``haleakala`` modules.

The rule this test enforces: draw an edge A → B for every ``import`` / ``from ... import``
in module A that is executed or read when A is imported or type-checked — statements at
module level, including those inside module-level ``if`` / ``try`` / ``with`` blocks and
``if TYPE_CHECKING:`` blocks (the type checker follows those). ``from pkg import name``
points at ``pkg.name`` when that is a module, else at ``pkg`` (its ``__init__``). The
implicit import of a module's parent packages is not an edge. Imports inside functions and
methods are deferred to call time and do not count here (``tests/test_layers.py`` counts
them and allows no cycle at all: ``rules.serialize`` imports ``rules.game`` and hands
``Game.to_json`` its functions). The graph of counted edges must have no cycle.

A second, looser rule counts the call-time imports too: then a cycle may only stay inside
one package (a core type and the formats beside it), never cross packages, so a lower layer
never reaches up into a higher one even at call time (as ``config`` once did into ``kit`` and
the CLI, and ``rules`` into ``ai``).
"""

from __future__ import annotations

import ast
from pathlib import Path

from support.imports import cycles, module_files


def module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Import statements reached without entering a function or class body."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If | ast.Try | ast.With):
            pending.extend(node.body)
            pending.extend(getattr(node, "orelse", []))
            pending.extend(getattr(node, "finalbody", []))
            for handler in getattr(node, "handlers", []):
                pending.extend(handler.body)
    return found


def all_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, call-time ones inside functions included."""
    return [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]


def import_graph(modules: dict[str, Path], *, deferred: bool = False) -> dict[str, set[str]]:
    def known(name: str) -> str | None:
        return name if name in modules else None

    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in all_imports(tree) if deferred else module_level_imports(tree):
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [known(alias.name) for alias in node.names]
            else:
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                for alias in node.names:
                    targets.append(known(f"{source}.{alias.name}") or known(source))
            graph[name].update(t for t in targets if t and t != name)
    return graph


def test_no_module_level_import_cycle_in_the_package():
    graph = import_graph(module_files())
    assert cycles(graph) == []


def test_call_time_imports_close_loops_only_inside_one_package():
    modules = module_files()

    def package(name: str) -> str:
        return name if modules[name].name == "__init__.py" else name.rpartition(".")[0]

    crossing = [
        c for c in cycles(import_graph(modules, deferred=True)) if len(set(map(package, c))) > 1
    ]
    assert crossing == []


def test_the_cycle_finder_sees_a_cycle_through_a_type_checking_import():
    """The rule is not vacuous: the old config ↔ hal.base loop (a type-only import back)
    is found, and so is a relative ``from . import`` loop."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from haleakala.config import LedsConfig\n"
        "def f():\n    from haleakala import cli\n"
    )
    names = [n.module for n in module_level_imports(tree) if isinstance(n, ast.ImportFrom)]
    assert sorted(names) == ["haleakala.config", "typing"]


def test_the_graph_resolves_relative_and_submodule_imports():
    graph = import_graph(module_files())
    assert "haleakala.hal.zones" in graph["haleakala.config.schema"]
    assert "haleakala.games.haleakala.game" in graph["haleakala.games.haleakala.serialize"]
    assert "haleakala.games.haleakala.game" in graph["haleakala.games.haleakala"]
