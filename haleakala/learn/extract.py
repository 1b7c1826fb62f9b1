"""The Babel extractor for lesson files: every lesson text becomes a catalog message.

``babel.cfg`` names it for ``haleakala/learn/lessons/*.toml``, so ``python -m
haleakala.i18n.catalogs update`` adds a new lesson's texts to every language's ``.po`` like
any ``_()`` in the code. Each message has the context ``"lesson"`` (``pgettext``) and a
translator's comment saying where it is shown and how much room it has.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from typing import IO, Any

from .lesson import CONTEXT, LessonError, parse

ROOM = {
    "title": "OLED title bar, capitals, about 15 characters",
    "say": "OLED, at most 4 lines of 21 characters",
    "hint": "OLED, at most 4 lines of 21 characters",
    "summary": "one line of the lesson list",
}


def extract_lessons(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel's extraction interface: (line, function, (context, text), comments)."""
    source = fileobj.read().decode("utf-8")
    try:
        lesson = parse(tomllib.loads(source), getattr(fileobj, "name", "lesson"))
    except (tomllib.TOMLDecodeError, LessonError):
        return  # the lesson checks say what is wrong; the extractor only collects texts
    lines = source.splitlines()
    for where, key, text in lesson.texts():
        yield (
            _line_of(lines, text),
            "pgettext",
            (CONTEXT, text),
            [f"TRANSLATORS: lesson {lesson.name}, {where}, {key}: {ROOM[key]}"],
        )


def _line_of(lines: list[str], text: str) -> int:
    probe = text.splitlines()[0][:40] if text else ""
    for number, line in enumerate(lines, 1):
        if probe and probe in line:
            return number
    return 1
