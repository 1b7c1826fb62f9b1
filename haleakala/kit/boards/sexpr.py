"""KiCad's file format is S-expressions: a small reader and a deterministic writer.

Bare tokens (``footprint``, ``thru_hole``, ``yes``) are ``Sym``; quoted strings are ``str``;
numbers are ``int`` or ``float``; lists are ``list``. The writer lays a list out on one line
when it holds no lists, otherwise its head and atoms on the first line and each child list on
its own line, tab-indented, as KiCad 9 writes its files, so the same tree always gives the
same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

Node = Any
"""A ``list`` of nodes, a ``Sym``, a ``str``, an ``int`` or a ``float``."""


class Sym(str):
    """A bare token: written without quotes."""

    __slots__ = ()


_TOKEN = re.compile(r'\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))', re.S)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_UNESCAPE = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _tokens(text: str) -> Iterator[tuple[str, str]]:
    pos = 0
    end = len(text.rstrip())
    while pos < end:
        match = _TOKEN.match(text, pos)
        if match is None:
            raise ValueError(f"S-expression: cannot read at character {pos}")
        pos = match.end()
        if match.group(1):
            yield "(", ""
        elif match.group(2):
            yield ")", ""
        elif match.group(3) is not None:
            raw = match.group(3)
            yield "str", re.sub(r"\\(.)", lambda m: _UNESCAPE.get(m.group(1), m.group(1)), raw)
        else:
            yield "atom", match.group(4)


def parse(text: str) -> Node:
    """The first S-expression in ``text``."""
    stack: list[list[Node]] = [[]]
    for kind, value in _tokens(text):
        if kind == "(":
            stack.append([])
        elif kind == ")":
            if len(stack) < 2:
                raise ValueError("S-expression: a ')' too many")
            done = stack.pop()
            stack[-1].append(done)
        elif kind == "str":
            stack[-1].append(value)
        elif _NUMBER.fullmatch(value):
            stack[-1].append(float(value) if any(c in value for c in ".eE") else int(value))
        else:
            stack[-1].append(Sym(value))
    if len(stack) != 1 or not stack[0]:
        raise ValueError("S-expression: unbalanced or empty")
    return stack[0][0]


def number(value: float) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _atom(value: Node) -> str:
    if isinstance(value, Sym):
        return str(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return number(value)
    raise TypeError(f"S-expression: cannot write {value!r}")


def dumps(node: Node, indent: int = 0) -> str:
    """``node`` as KiCad writes it (a trailing newline at the top level)."""
    text = _dump(node, indent)
    return text + "\n" if indent == 0 else text


def _dump(node: Node, indent: int) -> str:
    if not isinstance(node, list):
        return _atom(node)
    if not any(isinstance(child, list) for child in node):
        return "(" + " ".join(_atom(child) for child in node) + ")"
    pad = "\t" * (indent + 1)
    head: list[Node] = []
    rest: list[Node] = []
    for child in node:
        (rest if rest or isinstance(child, list) else head).append(child)
    lines = ["(" + " ".join(_atom(child) for child in head)]
    for child in rest:
        lines.append(pad + _dump(child, indent + 1))
    lines.append("\t" * indent + ")")
    return "\n".join(lines)


def find(node: list[Node], head: str) -> list[Node] | None:
    """The first child list of ``node`` whose head is ``head``."""
    for child in node:
        if isinstance(child, list) and child and child[0] == head:
            return child
    return None


def get(node: list[Node], head: str) -> list[Node]:
    """The first child list of ``node`` whose head is ``head``; a KeyError if there is none."""
    found = find(node, head)
    if found is None:
        raise KeyError(f"no ({head} ...) in ({node[0]} ...)")
    return found


def find_all(node: list[Node], head: str) -> list[list[Node]]:
    return [c for c in node if isinstance(c, list) and c and c[0] == head]


def S(*items: Node) -> list[Node]:
    """A list whose first item is a bare token: ``S("at", 1, 2)`` is ``(at 1 2)``."""
    return [Sym(items[0]), *items[1:]]
