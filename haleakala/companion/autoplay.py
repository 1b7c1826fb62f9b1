"""A scripted player that plays both colours *through the physical inputs*.

For tests, benchmarks and demos: ``next_events(companion)`` looks at what the companion
shows and returns the input events a person would make next (press a beach button, turn
the encoder to an option, press select; on the RFID kit put a disc on a beach or take
discs back as the OLED asks), through ``hands.events_for``. Its choice of decision is a
pure function of the position (seed + the decisions so far), so a game interrupted by a
power cut and resumed is played on exactly as an uninterrupted one, and ``reference_game``
computes that result without a daemon.

In solo mode it plays the human's colour and, on the companion's turn, does what the
companion says (lays its disc, moves its shaman and presses select); while the companion
thinks it does nothing. With the easy (greedy) bot, whose seed is the position's, the whole
solo game is again a pure function of the seeds (``reference_game(..., solo=...)``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from haleakala.games.haleakala import Game
from haleakala.hal.events import ButtonPressed, InputEvent

from .hands import events_for

if TYPE_CHECKING:
    from .controller import Companion


def choose(game: Game, seed: int) -> int:
    """The scripted player's decision here: uniformly random, seeded by the position."""
    legal = game.legal_actions()
    rng = random.Random(hash((seed, *game.history)))  # int hashes are not salted
    return legal[rng.randrange(len(legal))]


def reference_game(
    variant: str,
    seed: int,
    start: str | None,
    policy_seed: int,
    solo: str | None = None,
    bot: Any = None,
) -> Game:
    """The game the scripted player plays when nothing interrupts it (in solo mode against
    ``bot(strength, seed)``, by default the easy one, seeded as the companion seeds it)."""
    from .solo import bot_seed, make_solo_bot

    factory = bot or make_solo_bot
    game = Game(variant, seed, start)
    while not game.is_terminal():
        if solo is not None and game.to_move == solo:
            game.apply(factory("easy", bot_seed(game)).decide(game.clone()))
        else:
            game.apply(choose(game, policy_seed))
    return game


class AutoPlayer:
    """Plays both colours (or the human colour in solo mode) with the seeded policy;
    ``pace_s`` apart, if given (a game that lasts while the virtual Pi is updated under it),
    else as fast as the companion takes its inputs."""

    def __init__(
        self, seed: int = 0, pace_s: float = 0.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.seed = seed
        self.pace_s = pace_s
        self.clock = clock
        self._decided = -1  # the decisions made when the pause began
        self._next = 0.0

    def wait_until(self) -> float | None:
        """When the next decision is due (the loop sleeps until then), or None: now."""
        return self._next if self.pace_s and self.clock() < self._next else None

    def next_events(self, companion: Companion) -> list[InputEvent]:
        """What to do next; [] when the game is over, the companion is thinking, or the
        pace says wait."""
        if companion.game.is_terminal():
            return []
        if companion.thinking and companion.shown is companion.panel.chooser:
            return []
        if self.pace_s:
            decided = len(companion.game.history)
            if decided != self._decided:
                self._decided, self._next = decided, self.clock() + self.pace_s
            if self.clock() < self._next:
                return []
        narrator = companion.narrator
        if narrator is not None and not narrator.voice.idle():
            return []  # a kit that speaks: every decision is heard before the next
        d = choose(companion.game, self.seed)
        return events_for(companion, d) or [ButtonPressed("back")]
