"""Reading JSON text from outside (saves, game logs, the wire) within limits, for any game.

Why bounded: ``json.loads`` recurses once per nesting level and ``int()`` refuses huge
numbers, so a hostile or damaged file would end in a traceback instead of a sentence;
``load_json`` turns both (and NaN/Infinity) into a ``JSONDecodeError`` with a line and a
column, which every reader already reports.
"""

from __future__ import annotations

import json
import re
from typing import Any

ASCII_DIGITS = "0123456789"

# Limits on JSON text from outside (saves, game logs). A save is nested 6 deep and its
# longest number is a seed; json.loads recurses once per level (RecursionError near
# 1,000) and int() refuses more than 4,300 digits (ValueError), both far beyond any save.
MAX_DEPTH = 64
MAX_DIGITS = 100


def printable(text: str) -> str:
    """``text`` on one printable line: control characters, newlines and lone surrogates
    (which a terminal cannot even encode) from a hand-edited file are shown escaped."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


class JSONLimitError(json.JSONDecodeError):
    """JSON text beyond the limits above (or with NaN/Infinity, which JSON does not have).

    A ``JSONDecodeError``, so every reader that reports bad JSON with its line number
    reports these the same way."""


# Strings (skipped whole), brackets, digit runs and the non-standard constants Python's
# json accepts. A lone quote is a string that never ends: json.loads will say so.
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\[\s\S])*"|"|[\[{]|[\]}]|[0-9]+|NaN|Infinity')


def _refuse_constant(name: str) -> Any:
    raise JSONLimitError(f"{name} is not a JSON number", name, 0)


def _bounded_int(text: str) -> int:
    if len(text) > MAX_DIGITS + 1:
        raise JSONLimitError(f"a number with more than {MAX_DIGITS} digits", text, 0)
    return int(text)


def load_json(text: str) -> Any:
    """``json.loads`` for text from outside, without its RecursionError on deep nesting
    or ValueError on huge integers: those, and NaN/Infinity, raise ``JSONLimitError``
    (a ``JSONDecodeError`` with the line and column of the offending token)."""
    depth = 0
    for token in _JSON_TOKEN.finditer(text):
        first = token.group()[0]
        if first in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise JSONLimitError(f"nested deeper than {MAX_DEPTH} levels", text, token.start())
        elif first in "]}":
            depth -= 1
        elif first in ASCII_DIGITS:
            if len(token.group()) > MAX_DIGITS:
                raise JSONLimitError(
                    f"a number with more than {MAX_DIGITS} digits", text, token.start()
                )
        elif first == '"':
            if len(token.group()) == 1:
                break  # an unterminated string: json.loads reports it
        else:
            raise JSONLimitError(f"{token.group()} is not a JSON number", text, token.start())
    return json.loads(text, parse_int=_bounded_int, parse_constant=_refuse_constant)
