"""What the daemon needs from the hardware, whatever the backend.

The zones and their arithmetic (``ZoneMap``, the current limit) live in ``hal.zones`` and are
re-exported here, so backends and scenes import the HAL's names from one place.

Everything in this module is pure (no I/O, no vendor import) so that it is tested on any
machine.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from haleakala.hal.events import BEACHES, Disc, InputEvent, UnknownTag
from haleakala.hal.zones import (  # noqa: F401  (re-exported: the HAL's public names)
    DARK,
    DEFAULT_ZONES,
    MA_PER_CHANNEL,
    SEGMENTS,
    ZONES,
    Colour,
    Pixel,
    ZoneFrame,
    ZoneKey,
    ZoneMap,
    apply_brightness,
    estimate_current_ma,
    limit_current,
)

if TYPE_CHECKING:  # only types: the HAL needs no Pillow at import time
    from PIL.Image import Image

    from haleakala.hal.audio import AudioOutput


BUTTONS = ("select", "back", *(f"beach{b}" for b in range(BEACHES)))
"""Every named button: encoder push, back, and one per beach (buttons kit)."""

DISPLAY_WIDTH = 128
DISPLAY_HEIGHT = 64


# --------------------------------------------------------------------------- device protocols


@runtime_checkable
class LedChain(Protocol):
    """The six daisy-chained rings on one data line, as one list of pixels."""

    @property
    def pixel_count(self) -> int: ...

    def show(self, pixels: Sequence[Pixel]) -> None:
        """Send exactly ``pixel_count`` pixels, already brightness- and current-limited."""

    def off(self) -> None:
        """All pixels dark."""


@runtime_checkable
class Display(Protocol):
    """The 128×64 monochrome OLED: scenes draw on a Pillow canvas and hand over the image."""

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    def show(self, image: Image) -> None:
        """Show a mode "1" image of exactly width × height."""

    def clear(self) -> None: ...


@runtime_checkable
class Inputs(Protocol):
    """Source of input events. ``post`` may be called from any thread (use a queue)."""

    def start(self, post: Callable[[InputEvent], None]) -> None: ...

    def close(self) -> None: ...


@runtime_checkable
class RfidLink(Inputs, Protocol):
    """The RFID Pico's link (the kit's Pico on USB, or the sim backend's virtual Pico), as
    ``hal.factory`` builds it: an input source that also reports its health."""

    def start(self, post: Callable[[InputEvent], None] | None = None) -> None:
        """Open the link and post to ``post`` (None: to the ``post`` it was built with)."""

    def health(self) -> dict[str, Any]:
        """Counters and state for the STATUS= line and ``haleakala status``."""

    def published(self) -> tuple[frozenset[Disc | UnknownTag] | None, ...]:
        """The contents last posted per beach (None: not known yet)."""


def check_display_image(
    image: Image, width: int = DISPLAY_WIDTH, height: int = DISPLAY_HEIGHT
) -> None:
    """Refuse an image the panel cannot show, naming what is wrong (a scene bug)."""
    if image.size != (width, height) or image.mode != "1":
        raise ValueError(
            f"display image must be mode '1' {width}x{height}, "
            f"got mode {image.mode!r} {image.size[0]}x{image.size[1]}"
        )


def check_pixels(pixels: Sequence[Pixel], pixel_count: int) -> None:
    """Refuse a pixel list that does not fit the chain exactly."""
    if len(pixels) != pixel_count:
        raise ValueError(f"LED chain has {pixel_count} pixels, got {len(pixels)}")


class Hardware:
    """Everything the daemon drives, bundled: LEDs, display, inputs and the zone map.

    Devices never know which backend they got; the controller only holds a ``Hardware``.
    ``rfid`` is the RFID kit's link when the factory opened one: the backend's ``inputs``
    start and close it with the buttons, so whoever starts the inputs gets the beaches too;
    it is kept here as well for its health and for the sim backend's virtual Pico.
    ``audio`` is the loudspeaker (``hal.audio``; None: the kit has none), which the speech
    worker plays on.
    """

    def __init__(
        self,
        leds: LedChain,
        display: Display,
        inputs: Inputs,
        zone_map: ZoneMap,
        backend: str = "",
        rfid: RfidLink | None = None,
        audio: AudioOutput | None = None,
    ) -> None:
        if leds.pixel_count != zone_map.pixel_count:
            raise ValueError(
                f"LED chain has {leds.pixel_count} pixels but the zone map "
                f"expects {zone_map.pixel_count}"
            )
        self.leds = leds
        self.display = display
        self.inputs = inputs
        self.zone_map = zone_map
        self.backend = backend
        self.rfid = rfid
        self.audio = audio
        self._closed = False
        self._close_lock = threading.Lock()

    def show_zones(self, frame: ZoneFrame) -> list[Pixel]:
        """Render a zone frame through the zone map and send it; returns the pixels sent."""
        pixels = self.zone_map.render(frame)
        self.leds.show(pixels)
        return pixels

    def close(self) -> None:
        """Stop inputs, darken LEDs, clear the display, release devices. Safe to call twice."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        self.inputs.close()
        if self.rfid is not None:  # closed with the inputs already; closing twice is safe
            self.rfid.close()
        for step in (self.leds.off, self.display.clear):
            step()
        if self.audio is not None:
            self.audio.close()
        for part in (self.leds, self.display):
            closer = getattr(part, "close", None)
            if callable(closer):
                closer()

    def __enter__(self) -> Hardware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
