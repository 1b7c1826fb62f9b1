"""In-memory hardware: records what the daemon shows, lets tests and the simulator act.

Outputs are recorded (every LED frame with the zone frame it came from, every OLED image) with
counters, so a test asserts on what a player would have seen. Inputs are injected as events
(``press("back")``, ``turn(+1)``, ``place(2, ["red3"])``) or as raw contact edges that go
through the same ``Debouncer`` as the real buttons, on a clock the test moves by hand.

Light on purpose: scenario tests push thousands of events through it. History is a bounded
deque (``history`` frames, None for all); the counters count everything.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from haleakala.hal.audio import AudioOutput, SimAudio
from haleakala.hal.base import (
    BUTTONS,
    DISPLAY_HEIGHT,
    DISPLAY_WIDTH,
    Hardware,
    Pixel,
    RfidLink,
    ZoneFrame,
    ZoneMap,
    check_display_image,
    check_pixels,
)
from haleakala.hal.debounce import DEFAULT_BOUNCE_S, DEFAULT_HOLD_S, Debouncer
from haleakala.hal.events import (
    BEACHES,
    BeachContents,
    ButtonHeld,
    ButtonPressed,
    Disc,
    EncoderTurned,
    InputEvent,
    LinkHealth,
)

if TYPE_CHECKING:
    from PIL.Image import Image

    from haleakala.config import Config

DEFAULT_HISTORY = 1000


@dataclass(frozen=True)
class LedFrame:
    """One frame sent to the chain: the pixels, and the zone frame when it came from one."""

    pixels: tuple[Pixel, ...]
    zones: dict | None


class SimClock:
    """A clock that only moves when told to: debounce and hold timings become exact."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError(f"time cannot go back ({seconds} s)")
        self.now += seconds
        return self.now


class SimLeds:
    """Recording LED chain."""

    def __init__(self, pixel_count: int, history: int | None = DEFAULT_HISTORY) -> None:
        self._pixel_count = pixel_count
        self.frames: deque[LedFrame] = deque(maxlen=history)
        self.show_count = 0
        self.off_count = 0
        self._lock = threading.Lock()

    @property
    def pixel_count(self) -> int:
        return self._pixel_count

    def show(self, pixels: Sequence[Pixel]) -> None:
        self.record(pixels, None)

    def record(self, pixels: Sequence[Pixel], zones: ZoneFrame | None) -> None:
        check_pixels(pixels, self._pixel_count)
        frame = LedFrame(tuple(pixels), None if zones is None else dict(zones))
        with self._lock:
            self.frames.append(frame)
            self.show_count += 1

    def off(self) -> None:
        with self._lock:
            self.off_count += 1
        self.show([(0, 0, 0)] * self._pixel_count)

    @property
    def last(self) -> LedFrame | None:
        with self._lock:
            return self.frames[-1] if self.frames else None


class SimDisplay:
    """Recording OLED: keeps a copy of each image shown (scenes may reuse their canvas)."""

    def __init__(
        self,
        width: int = DISPLAY_WIDTH,
        height: int = DISPLAY_HEIGHT,
        history: int | None = DEFAULT_HISTORY,
    ) -> None:
        self._width = width
        self._height = height
        self.images: deque[Image | None] = deque(maxlen=history)
        self.show_count = 0
        self.clear_count = 0
        self._lock = threading.Lock()

    @property
    def width(self) -> int:
        return self._width

    @property
    def height(self) -> int:
        return self._height

    def show(self, image: Image) -> None:
        check_display_image(image, self._width, self._height)
        copy = image.copy()
        with self._lock:
            self.images.append(copy)
            self.show_count += 1

    def clear(self) -> None:
        """A blank panel is recorded as None in ``images``."""
        with self._lock:
            self.images.append(None)
            self.clear_count += 1

    @property
    def last(self) -> Image | None:
        with self._lock:
            return self.images[-1] if self.images else None


def _disc(value: Disc | str) -> Disc:
    return value if isinstance(value, Disc) else Disc.parse(value)


def _check_button(button: str) -> None:
    if button not in BUTTONS:
        raise ValueError(f"unknown button {button!r}: buttons are {', '.join(BUTTONS)}")


class SimInputs:
    """Injected inputs. Events injected before ``start`` are delivered when it is called.

    ``rfid``, when given (the factory's virtual Pico link), is started and closed with them."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] | None = None,
        bounce_s: float = DEFAULT_BOUNCE_S,
        hold_s: float = DEFAULT_HOLD_S,
        rfid: RfidLink | None = None,
    ) -> None:
        self.clock = clock if clock is not None else SimClock()
        self.rfid = rfid
        self._post: Callable[[InputEvent], None] | None = None
        self._pending: list[InputEvent] = []
        self._lock = threading.Lock()
        self.injected_count = 0
        self.closed = False
        self.debouncer = Debouncer(self.inject, bounce_s=bounce_s, hold_s=hold_s, clock=self.clock)

    def start(self, post: Callable[[InputEvent], None]) -> None:
        with self._lock:
            self._post = post
            pending, self._pending = self._pending, []
        for event in pending:
            post(event)
        if self.rfid is not None:
            self.rfid.start(post)

    def close(self) -> None:
        with self._lock:
            self._post = None
            self.closed = True
        if self.rfid is not None:
            self.rfid.close()

    def inject(self, event: InputEvent) -> None:
        """Deliver ``event`` to whoever started the inputs (the controller's queue)."""
        with self._lock:
            if self.closed:
                raise RuntimeError("inputs are closed: cannot inject events")
            self.injected_count += 1
            post = self._post
            if post is None:
                self._pending.append(event)
                return
        post(event)

    # -- events as the daemon sees them
    def press(self, button: str) -> None:
        _check_button(button)
        self.inject(ButtonPressed(button))

    def hold(self, button: str) -> None:
        _check_button(button)
        self.inject(ButtonHeld(button))

    def turn(self, steps: int) -> None:
        if not isinstance(steps, int) or isinstance(steps, bool) or steps == 0:
            raise ValueError(f"encoder steps must be a non-zero integer, got {steps!r}")
        self.inject(EncoderTurned(steps))

    def place(self, beach: int, discs: Iterable[Disc | str]) -> None:
        """The full contents of ``beach`` are now ``discs`` (an RFID snapshot)."""
        if not 0 <= beach < BEACHES:
            raise ValueError(f"beach {beach} is not 0..{BEACHES - 1}")
        self.inject(BeachContents(beach, frozenset(_disc(d) for d in discs)))

    def link(self, ok: bool, detail: str = "") -> None:
        self.inject(LinkHealth(ok, detail))

    # -- raw contacts, through the debouncer
    def edge(self, button: str, pressed: bool) -> None:
        """The raw contact of ``button`` opens or closes now (``clock()``)."""
        _check_button(button)
        self.debouncer.edge(button, pressed)

    def advance(self, seconds: float) -> None:
        """Move the sim clock (when it is a ``SimClock``) and let the debouncer catch up."""
        if not isinstance(self.clock, SimClock):
            raise TypeError("advance() needs the SimClock; this SimInputs has a real clock")
        self.clock.advance(seconds)
        self.debouncer.tick()

    def tap(
        self, button: str, *, duration: float = 0.1, bounces: int = 0, bounce_gap: float = 0.0005
    ) -> None:
        """Press and release ``button`` with ``bounces`` extra edges of contact chatter."""
        for edge_pressed, gap in ((True, duration), (False, 0.05)):
            self.edge(button, edge_pressed)
            level = edge_pressed
            for _ in range(bounces):
                self.advance(bounce_gap)
                level = not level
                self.edge(button, level)
            if level != edge_pressed:
                self.advance(bounce_gap)
                self.edge(button, edge_pressed)
            self.advance(gap)


class SimHardware(Hardware):
    """``Hardware`` with recording outputs and injectable inputs; the helpers delegate."""

    leds: SimLeds
    display: SimDisplay
    inputs: SimInputs

    def __init__(
        self,
        zone_map: ZoneMap | None = None,
        *,
        clock: Callable[[], float] | None = None,
        history: int | None = DEFAULT_HISTORY,
        bounce_s: float = DEFAULT_BOUNCE_S,
        hold_s: float = DEFAULT_HOLD_S,
        rfid: RfidLink | None = None,
        audio: AudioOutput | None = None,
    ) -> None:
        zone_map = zone_map if zone_map is not None else ZoneMap()
        super().__init__(
            SimLeds(zone_map.pixel_count, history),
            SimDisplay(history=history),
            SimInputs(clock=clock, bounce_s=bounce_s, hold_s=hold_s, rfid=rfid),
            zone_map,
            backend="sim",
            rfid=rfid,
            audio=audio if audio is not None else SimAudio(history),
        )

    @classmethod
    def from_config(
        cls,
        config: Config,
        *,
        clock: Callable[[], float] | None = None,
        history: int | None = DEFAULT_HISTORY,
        rfid: RfidLink | None = None,
        audio: AudioOutput | None = None,
    ) -> SimHardware:
        return cls(
            ZoneMap.from_config(config.leds),
            clock=clock,
            history=history,
            bounce_s=config.inputs.bounce_ms / 1000,
            hold_s=config.inputs.hold_ms / 1000,
            rfid=rfid,
            audio=audio,
        )

    def show_zones(self, frame: ZoneFrame) -> list[Pixel]:
        pixels = self.zone_map.render(frame)
        self.leds.record(pixels, frame)
        return pixels

    def inject(self, event: InputEvent) -> None:
        self.inputs.inject(event)

    def press(self, button: str) -> None:
        self.inputs.press(button)

    def hold(self, button: str) -> None:
        self.inputs.hold(button)

    def turn(self, steps: int) -> None:
        self.inputs.turn(steps)

    def place(self, beach: int, discs: Iterable[Disc | str]) -> None:
        self.inputs.place(beach, discs)
