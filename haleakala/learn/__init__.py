"""Learn by playing: lessons as data, a lesson engine over any ``GameState``, front-ends.

A lesson (``lessons/*.toml``) is a seeded game and a list of steps: what the companion says
(a catalog key, so every language), what the lights point at, what the player may do, the
hint on anything else, and the other side's scripted replies. ``lesson.load`` checks it as a
whole before anyone plays it; ``engine.Run`` walks it over the game; the terminal
(``cli``), the board (``board``) and the checks (``check``) drive the same ``Run``.
"""

from __future__ import annotations

from .lesson import CONTEXT, Lesson, LessonError, Step, lesson_paths, load, load_all

__all__ = ["CONTEXT", "Lesson", "LessonError", "Step", "lesson_paths", "load", "load_all"]
