"""Colour names for scenario expectations: "the beach glows red", not "(255, 0, 0)".

Scenes choose their exact RGB values and may tune them (a softer yellow, a dimmer blink)
without breaking every scenario, so expectations name a colour family by hue. An exact
``#rrggbb`` is still accepted where the exact value matters.
"""

from __future__ import annotations

import colorsys

Rgb = tuple[int, int, int]

NAMES = ("off", "lit", "white", "red", "orange", "yellow", "green", "cyan", "blue", "magenta")
"""Colour families a scenario may name; ``lit`` is any colour that is not off."""

OFF_BELOW = 12
"""A zone whose brightest channel is below this reads as off (LED leakage, rounding)."""

_HUES = (  # upper bound of the hue range in degrees, family
    (15.0, "red"),
    (30.0, "orange"),  # the yellow player's amber (255, 150, 0) is 35°: yellow
    (75.0, "yellow"),
    (165.0, "green"),
    (200.0, "cyan"),
    (255.0, "blue"),
    (330.0, "magenta"),
    (360.0, "red"),
)


def family(rgb: Rgb | None) -> str:
    """The colour family of an LED colour (None, a dark zone, is ``off``)."""
    if rgb is None or max(rgb) < OFF_BELOW:
        return "off"
    r, g, b = (c / 255.0 for c in rgb)
    hue, _, saturation = colorsys.rgb_to_hls(r, g, b)
    if saturation < 0.25 or (max(rgb) - min(rgb)) < 0.25 * max(rgb):
        return "white"
    degrees = hue * 360.0
    return next(name for limit, name in _HUES if degrees < limit)


def parse_colour(text: str) -> str | Rgb:
    """A family name or an exact ``#rrggbb``; raises ValueError saying what is accepted."""
    spec = text.strip().lower()
    if spec in NAMES:
        return spec
    if spec in ("dark", "black", "none"):
        return "off"
    if spec.startswith("#") and len(spec) == 7:
        try:
            return (int(spec[1:3], 16), int(spec[3:5], 16), int(spec[5:7], 16))
        except ValueError:
            pass
    raise ValueError(f"colour {text!r} is not one of {', '.join(NAMES)} or #rrggbb")


def matches(rgb: Rgb | None, spec: str | Rgb) -> bool:
    if isinstance(spec, tuple):
        return (rgb or (0, 0, 0)) == spec
    got = family(rgb)
    if spec == "lit":
        return got != "off"
    return got == spec


def describe(rgb: Rgb | None) -> str:
    if rgb is None:
        return "off (dark)"
    return f"#{rgb[0]:02x}{rgb[1]:02x}{rgb[2]:02x} ({family(rgb)})"
