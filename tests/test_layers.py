"""The layers of the package, checked on its import graph so that a new violation fails.

Counted: every ``import`` a module executes, at module level or inside a function (a
call-time import is still a dependency); not counted: ``if TYPE_CHECKING:`` blocks, which
never run. The layers, bottom up:

- ``core`` (errors, refusals, words as values, bounded JSON): imports nothing else of the package;
- ``gameapi`` (the interface and the registry): only ``core``;
- each game's rules (``games/<name>/`` but its ``views``, ``bots``, ``bench`` and ``words``):
  only ``core``, ``gameapi`` and its own rules, so that loading one game never loads another
  and the rules stay pure;
- ``ai`` (the bots every game shares) and ``toolkit`` (the front-ends' bases and the generic
  views): no game at all, and no front-end;
- a game's views, words, bots and benchmark stand on the toolkit: never another game, never
  an app (the command line, the terminal's commands, the web server, the simulator, the
  daemon, remote play);
- the apps import no game: they find a game's views through its description. The board's
  apps (the daemon, its simulator, its journal and remote play on the board) play the
  default game only, the game the physical kit is made for: they may import its package and
  no other.

The list of games is the registry's (``gameapi.GAMES``): a game added there is checked here
without editing this test. And no import cycle at all, not even through a call-time import.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from support.imports import cycles
from support.imports import module_files as modules

from haleakala.gameapi import DEFAULT_GAME, GAMES

PACKAGE = "haleakala"


def game_package(ref: str) -> str:
    """``haleakala.games.kanaloa`` from ``haleakala.games.kanaloa.describe:DESCRIPTION``."""
    module = ref.partition(":")[0]
    parts = module.split(".")
    return ".".join(parts[:3]) if parts[:2] == [PACKAGE, "games"] else parts[0]


GAME_PACKAGES = {name: game_package(ref) for name, ref in GAMES.items()}
"""Each registered game's package (a game outside the ``haleakala`` package, such as the
worked example of the tests, is not part of this graph)."""
BESIDE_RULES = ("views", "bots", "bench", "words")
"""The parts of a game's package that are not its pure rules."""
APPS = ("cli", "terminal", "web", "simulator", "companion", "remote", "bench", "learn")
BOARD = ("companion", "simulator", "remote", "config", "cli", "bench", "learn", "hal", "kit")
"""Packages that drive the physical board, which plays the default game only."""
BASES = ("", "core", "gameapi", "i18n", "palette", "toolkit", "ai", "checkout")
"""What a game's views may stand on besides their own game."""
BOARD_PARTS = ("hal.zones", "kit.geometry")
"""The board's own data a view of the default game may read (its zones, its geometry)."""


def kind(module: str) -> str:
    """``rules:<game>``, ``views:<game>`` or the top-level package of ``module``."""
    for package in GAME_PACKAGES.values():
        if module == package or module.startswith(package + "."):
            rest = module[len(package) + 1 :].split(".")[0]
            return f"{'views' if rest in BESIDE_RULES else 'rules'}:{package}"
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def allowed(source: str, target: str) -> str | None:
    """None when ``source`` may import ``target``, else why not."""
    mine, theirs = kind(source), kind(target)
    if mine == theirs:
        return None
    default = GAME_PACKAGES.get(DEFAULT_GAME, "")
    if mine.startswith("rules:"):
        if theirs in ("core", "gameapi"):
            return None
        return "a game's rules import only core, gameapi and their own rules"
    if mine.startswith("views:"):
        own = mine.split(":", 1)[1]
        if theirs in BASES or theirs == f"rules:{own}":
            return None
        if own == default and any(target.startswith(f"{PACKAGE}.{p}") for p in BOARD_PARTS):
            return None
        return "a game's views stand on the toolkit and their own game only"
    if theirs.startswith(("rules:", "views:")):
        if mine in BOARD and theirs.split(":", 1)[1] == default:
            return None
        if mine in ("core", "gameapi"):
            return f"{mine} imports no game"
        return f"{mine} imports no game (it reads the game's description)"
    if mine in ("ai", "toolkit") and theirs in APPS:
        return f"{mine} is below the front-ends"
    if mine in ("core",) and theirs:
        return "core imports nothing else of the package"
    if mine == "gameapi" and theirs != "core":
        return "gameapi imports only core"
    if mine == "companion" and theirs in ("web", "simulator"):
        return "the daemon is handed its live view; it imports no web or simulator"
    return None


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


def violations(edges: dict[str, set[str]]) -> list[str]:
    found = []
    for source, targets in sorted(edges.items()):
        for target in sorted(targets):
            why = allowed(source, target)
            if why is not None:
                found.append(f"{source} imports {target}: {why}")
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
        "def f():\n    from haleakala.games.haleakala import game\n"
    )
    names = [n.module for n in executed_imports(tree) if isinstance(n, ast.ImportFrom)]
    assert sorted(names) == ["haleakala.games.haleakala", "typing"]
    edges = {
        "haleakala.games.kahuna.game": {"haleakala.games.haleakala.game"},
        "haleakala.companion.menu": {"haleakala.web.join"},
        "haleakala.terminal.play": {"haleakala.games.kanaloa.game"},
        "haleakala.games.kanaloa.views.terminal": {"haleakala.terminal.play"},
        "haleakala.games.kanaloa.game": {"haleakala.games.kanaloa.views.board"},
        "haleakala.games.haleakala.game": {"haleakala.games.haleakala.serialize"},
        "haleakala.games.haleakala.serialize": {"haleakala.games.haleakala.game"},
    }
    assert len(violations(edges)) == 5
    assert cycles(edges) == [
        ["haleakala.games.haleakala.game", "haleakala.games.haleakala.serialize"]
    ]


def test_the_games_checked_are_the_registry_s() -> None:
    """Every game of ``GAMES`` inside the package is a layer of its own here."""
    inside = {n for n, p in GAME_PACKAGES.items() if p.startswith(PACKAGE + ".")}
    assert {"haleakala", "kahuna", "kanaloa"} <= inside
    for name in inside:
        assert kind(GAME_PACKAGES[name] + ".game") == f"rules:{GAME_PACKAGES[name]}"
        assert kind(GAME_PACKAGES[name] + ".views.terminal") == f"views:{GAME_PACKAGES[name]}"


def _pairs() -> list[tuple[str, str]]:
    inside = [p for p in GAME_PACKAGES.values() if p.startswith(PACKAGE + ".")]
    pairs = [(a, b) for a in inside for b in inside if a != b]
    return (
        pairs
        + [("haleakala.gameapi", p) for p in inside]
        + [("haleakala.core.jsonread", p) for p in inside]
    )


@pytest.mark.parametrize(("module", "absent"), _pairs())
def test_loading_one_game_loads_no_other(module: str, absent: str) -> None:
    code = (
        f"import sys, {module}\n"
        f"prefix = {absent!r}\n"
        "loaded = sorted(m for m in sys.modules if m == prefix or m.startswith(prefix + '.'))\n"
        "print(loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
