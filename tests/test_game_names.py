"""Shared code names no game: outside the game packages (``haleakala/games/<name>/``) and the
one registry (``haleakala/gameapi.py``), no file of the program is named after a game, no
string literal (docstrings included) and no page script, style or template names a game
other than the default one, and the default game's name is only the program's and the
default game's (``DEFAULT_GAME``): nothing compares a game's name with a literal.

The games are the registry's (``gameapi.GAMES``), so a game added there is covered here
without editing this test; the check is shown to find each kind of violation.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import haleakala
from haleakala.gameapi import DEFAULT_GAME, GAMES

PACKAGE = Path(haleakala.__file__).parent
REGISTRY = PACKAGE / "gameapi.py"
GAMES_DIR = PACKAGE / "games"
SOURCES = (".py", ".js", ".html", ".css", ".toml")
"""What is checked: the program's code, its page and its data. The message catalogs
(``i18n/locale``) hold the translations of every message by their English text, whichever
package marks it."""


def other_games() -> list[str]:
    """The program's games but the default one (a game registered from outside the package,
    such as the tests' worked example, is no name of the program's)."""
    return [
        name
        for name in GAMES
        if name != DEFAULT_GAME and GAMES[name].startswith(f"{PACKAGE.name}.games.")
    ]


def pattern() -> re.Pattern[str]:
    return re.compile("|".join(re.escape(n) for n in other_games()), re.IGNORECASE)


def shared_files() -> list[Path]:
    return sorted(
        p
        for p in PACKAGE.rglob("*")
        if p.is_file()
        and p.suffix in SOURCES
        and GAMES_DIR not in p.parents
        and p != REGISTRY
        and "__pycache__" not in p.parts
    )


def literal_names(path: Path, names: re.Pattern[str]) -> list[str]:
    """Every string literal of a Python module that names another game, and every
    comparison of a value with the default game's name written as a literal."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and names.search(node.value)
        ):
            found.append(f"{path.name}:{node.lineno}: {node.value[:60]!r}")
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if isinstance(side, ast.Constant) and side.value == DEFAULT_GAME:
                    found.append(f"{path.name}:{node.lineno}: compares with {DEFAULT_GAME!r}")
    return found


def violations() -> list[str]:
    names = pattern()
    found = []
    for path in shared_files():
        where = path.relative_to(PACKAGE.parent)
        if names.search(path.name):
            found.append(f"{where}: the file is named after a game")
        if path.suffix == ".py":
            found += [f"{where.parent}/{v}" for v in literal_names(path, names)]
        else:
            text = path.read_text(encoding="utf-8")
            for n, line in enumerate(text.splitlines(), 1):
                if names.search(line):
                    found.append(f"{where}:{n}: {line.strip()[:60]}")
    return found


def test_shared_code_names_no_game() -> None:
    assert violations() == []


def test_the_check_finds_a_name_in_a_literal_a_docstring_and_a_comparison(tmp_path: Path) -> None:
    """Not vacuous: each kind of naming is found, a comment is not."""
    other = other_games()[0]
    module = tmp_path / "shared.py"
    module.write_text(
        f'"""Draws {other.title()}\'s map."""\n'
        f"# {other}: a comment is no literal\n"
        f'GAME = "{other}"\n'
        f'if name == "{DEFAULT_GAME}":\n    pass\n'
    )
    found = literal_names(module, pattern())
    assert len(found) == 3, found


def test_every_game_of_the_registry_is_looked_for() -> None:
    assert {"kahuna", "kanaloa"} <= set(other_games())
    assert pattern().search(other_games()[-1].upper())
