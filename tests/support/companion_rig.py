"""A companion on the sim backend with a hand-driven clock, and ways to play it."""

from __future__ import annotations

from dataclasses import replace

from haleakala.companion.autoplay import choose
from haleakala.companion.controller import Companion
from haleakala.companion.hands import events_for
from haleakala.config import Config
from haleakala.hal.simulated import SimClock, SimHardware


class Rig:
    """``rig.c`` is the controller; ``rig.hw`` the recording hardware; ``rig.clock`` moves
    only when told."""

    def __init__(
        self,
        kit: str = "buttons",
        variant: str = "base",
        *,
        seed: int = 3,
        start: str | None = "red",
        game=None,
        journal=None,
        solo=None,
        history: int | None = 50,
        **options,
    ) -> None:
        self.clock = SimClock(100.0)
        self.config = replace(Config(), kit=kit, variant=variant)
        self.hw = SimHardware.from_config(self.config, clock=self.clock, history=history)
        self.c = Companion(
            self.hw,
            self.config,
            clock=self.clock,
            journal=journal,
            seed=seed,
            start=start,
            game=game,
            solo=solo,
            **options,
        )
        self.c.start()

    @property
    def game(self):
        return self.c.game

    def send(self, *events) -> None:
        for event in events:
            self.c.handle(event)

    def press(self, button: str) -> None:
        self.send(self._pressed(button))

    @staticmethod
    def _pressed(button: str):
        from haleakala.hal.events import ButtonPressed

        return ButtonPressed(button)

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.c.tick()

    def carry_out(self, text_or_code) -> None:
        """Make one decision through the physical inputs, as a player would."""
        game = self.c.game
        d = game.parse(text_or_code) if isinstance(text_or_code, str) else text_or_code
        assert d in game.legal_actions(), f"{game.format(d)} is not legal here"
        made = len(game.history)
        for _ in range(20):
            for event in events_for(self.c, d):
                self.c.handle(event)
            if len(self.c.game.history) > made:
                assert self.c.game.history[made] == d
                return
        raise AssertionError(f"could not carry out {game.format(d)}: {self.c.prompt}")

    def play_until(self, predicate, policy_seed: int = 1, limit: int = 2000) -> None:
        """Play the seeded policy through the inputs until ``predicate(game)`` holds."""
        for _ in range(limit):
            if predicate(self.c.game):
                return
            assert not self.c.game.is_terminal(), "game ended first"
            self.carry_out(choose(self.c.game, policy_seed))
        raise AssertionError("predicate never held")

    def await_bot(self, timeout: float = 10.0) -> None:
        """Solo: let the companion's bot thread answer (its answer is a queued event)."""
        import time

        deadline = time.monotonic() + timeout
        while self.c.thinking:
            assert time.monotonic() < deadline, "the companion's bot did not answer"
            self.c.pump(timeout=0.05)

    def leds(self) -> dict:
        """The zone frame last handed to the HAL."""
        frame = self.hw.leds.last
        assert frame is not None and frame.zones is not None
        return frame.zones

    def text(self) -> str:
        """The OLED text as one string (wrapped lines joined with spaces)."""
        return " ".join(self.c.prompt)
