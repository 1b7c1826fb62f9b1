"""The LEDs and the OLED: what the scenes draw, built from the controller's parts.

``state`` gathers the scenes' ``UiState`` from the panel, the solo seat, the RFID link and
the time; ``draw`` hands the LED frame and the OLED image to the HAL, each only when it
changed (comparing values, so an unchanged situation costs no SPI or I2C traffic).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from haleakala.games.haleakala.decision import Place, Return, decode

from . import oled, scenes
from . import ui as U

if TYPE_CHECKING:
    from collections.abc import Iterable

    from haleakala.games.haleakala import Game
    from haleakala.hal.base import Hardware

    from .host import Host


ERUPTION_S = 3.0
"""The eruption animation runs this long."""


def eruption(before: Game, burnt: Iterable[str], now: float) -> U.Eruption:
    """The eruption animation of the position ``before`` it: which craters had lava, and
    the land spaces (named in the event) it destroyed."""
    spaces = (before.board.parse_space(name) for name in burnt)
    destroyed = tuple(s for s in spaces if s is not None)
    return U.Eruption(now, now + ERUPTION_S, tuple(before.lava), destroyed)


class Screen:
    def __init__(self, host: Host, hardware: Hardware) -> None:
        self.host = host
        self.hardware = hardware
        self.last_frame: dict | None = None
        self.last_screen: oled.Screen | None = None
        self.last_image: bytes | None = None
        self.frames_sent = 0
        self.images_sent = 0
        self.rendered_at = 0.0  # perf_counter() when the last frame went to the HAL

    def state(self, now: float | None = None) -> U.UiState:
        """What the scenes draw: the panel, the seat's part and the time, as one value."""
        h = self.host
        now = h.clock() if now is None else now
        p = h.panel
        ready = h.auto_ready()
        return U.UiState(
            kit=h.kit,
            chooser=p.shown,
            mismatch=p.mismatch,
            message=p.message if p.message and p.message.until > now else None,
            instructions=p.instructions,
            eruption=p.eruption if p.eruption and p.eruption.until > now else None,
            auto_at=p.auto_at if ready else None,
            solo=h.seat.colour,
            proposal=h.seat.proposed,
            thinking=h.seat.thinking and h.seat.plays(h.game),
            bot_at=h.seat.bot_at if ready else None,
            pending_beach=self._pending_beach(),
            link_ok=h.link_ok,
            link_detail=h.link_detail,
            notes=h.notes,
            scroll=p.scroll,
            lesson=h.lesson.view() if h.lesson is not None else None,
        )

    def _pending_beach(self) -> int | None:
        """The beach of the disc move waiting to settle (a disc move is all that waits)."""
        pending = self.host.panel.pending
        if pending is None:
            return None
        move = decode(pending.decision, self.host.game.board)
        return move.beach if isinstance(move, Place | Return) else None

    def text(self) -> list[str]:
        """The OLED's current content as text lines (title first)."""
        now = self.host.clock()
        return oled.screen(self.host.game, self.state(now), now).text()

    def scroll_limit(self) -> int:
        """The scroll offset the OLED really shows (no further than the text goes)."""
        now = self.host.clock()
        return oled.screen(self.host.game, self.state(now), now).offset

    def draw(self) -> None:
        """Hand the LED frame and the OLED image to the HAL, each only when it changed."""
        game = self.host.game
        now = self.host.clock()
        state = self.state(now)
        frame = scenes.led_frame(game, state, now)
        if self.host.lesson is not None:  # what the lesson points at
            frame = self.host.lesson.leds(frame)
        if frame != self.last_frame:
            self.hardware.show_zones(frame)
            self.last_frame = frame
            self.frames_sent += 1
        shown = oled.screen(game, state, now)
        if shown != self.last_screen:
            image = oled.draw(shown)
            data = image.tobytes()
            if data != self.last_image:
                self.hardware.display.show(image)
                self.last_image = data
                self.images_sent += 1
            self.last_screen = shown
        self.rendered_at = time.perf_counter()

    def status(self) -> str:
        """One line for systemd's STATUS= and the log."""
        h = self.host
        g = h.game
        if g.is_terminal():
            result = g.result()
            assert result is not None
            text = f"game over: {result.winner} wins {result.scores[0]}-{result.scores[1]}"
        else:
            text = f"round {g.round}, {g.to_move} to {g.phase_name}"
        text += f", decision {len(g.history)}, digest {h.digest()}"
        if h.seat.colour is not None:
            text += f", companion plays {h.seat.colour} ({h.seat.strength})"
            if h.seat.thinking:
                text += ", thinking"
        if h.panel.hold is not None or h.panel.mismatch is not None:
            text += ", waiting for the board"
        if not h.link_ok:
            text += f", RFID: {h.link_detail or 'down'}"
        if h.errors:
            text += f", {h.errors} errors"
        if h.paused is not None:
            text += f", PAUSED: {str(h.paused.title).lower()}"
        return text
