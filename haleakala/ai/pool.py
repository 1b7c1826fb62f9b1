"""The one loop every bot benchmark plays its games through: in worker processes when asked
for more than one, with progress after every game."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def play_in_pool(
    play: Callable[[T], R], items: Sequence[T], jobs: int, on_each: Callable[[list[R]], None]
) -> list[R]:
    """``play`` each item, in ``jobs`` worker processes when more than one (results in the
    order they finish), calling ``on_each`` with the results so far after every one. The one
    loop every bot benchmark runs its games through."""
    done: list[R] = []
    if jobs == 1:
        for item in items:
            done.append(play(item))
            on_each(done)
    else:
        with multiprocessing.Pool(jobs) as pool:
            for outcome in pool.imap_unordered(play, items):
                done.append(outcome)
                on_each(done)
    return done
