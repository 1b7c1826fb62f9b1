"""The zone map: scenes speak in (segment, zone); only the map knows pixels and current."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from haleakala.config import Config
from haleakala.hal.zones import (
    RING_ZONES,
    SEGMENTS,
    ZONES,
    ZoneMap,
    apply_brightness,
    estimate_current_ma,
    limit_current,
)

channel = st.integers(0, 255)
colour = st.tuples(channel, channel, channel)
pixels_strategy = st.lists(colour, max_size=200)


@st.composite
def zone_maps(draw: st.DrawFn) -> ZoneMap:
    ppr = draw(st.integers(1, 24))
    order = draw(st.permutations(range(SEGMENTS)))
    indices = draw(st.permutations(range(ppr)))
    cut = sorted(
        draw(st.lists(st.integers(0, ppr), min_size=len(ZONES) - 1, max_size=len(ZONES) - 1))
    )
    bounds = [0, *cut, ppr]
    zones = {z: tuple(indices[bounds[i] : bounds[i + 1]]) for i, z in enumerate(ZONES)}
    brightness = draw(st.floats(0, 1))
    limit = draw(st.floats(0, 10_000))
    return ZoneMap(ppr, order, zones, brightness, limit)


frames = st.dictionaries(st.tuples(st.integers(0, SEGMENTS - 1), st.sampled_from(ZONES)), colour)


def test_full_white_pixel_is_estimated_at_60_ma():
    assert estimate_current_ma([(255, 255, 255)]) == pytest.approx(60.0)
    assert estimate_current_ma([(255, 0, 0), (0, 0, 0)]) == pytest.approx(20.0)


@given(pixels_strategy, st.floats(0, 5000))
def test_a_limited_frame_never_exceeds_the_limit(pixels, limit):
    limited, scale = limit_current(pixels, limit)
    assert estimate_current_ma(limited) <= limit + 1e-9
    assert len(limited) == len(pixels)
    assert 0 <= scale <= 1


@given(pixels_strategy, st.floats(0, 5000))
def test_limiting_scales_every_channel_down_never_up(pixels, limit):
    limited, _ = limit_current(pixels, limit)
    for before, after in zip(pixels, limited, strict=True):
        assert all(0 <= a <= b for b, a in zip(before, after, strict=True))


@given(pixels_strategy)
def test_a_frame_within_the_limit_is_untouched(pixels):
    limited, scale = limit_current(pixels, estimate_current_ma(pixels))
    assert limited == pixels and scale == 1.0


def test_limit_scales_uniformly_keeping_colour_proportions():
    # 72 full-white pixels draw 4320 mA; a 2160 mA limit halves every channel.
    limited, scale = limit_current([(255, 255, 255)] * 72, 2160)
    assert scale == pytest.approx(0.5)
    assert set(limited) == {(127, 127, 127)}


@given(pixels_strategy, st.floats(0, 1))
def test_brightness_never_brightens(pixels, brightness):
    for before, after in zip(pixels, apply_brightness(pixels, brightness), strict=True):
        assert all(0 <= a <= b for b, a in zip(before, after, strict=True))


def test_brightness_outside_0_1_is_refused():
    with pytest.raises(ValueError, match=r"brightness 1\.5"):
        apply_brightness([(1, 2, 3)], 1.5)


@given(zone_maps(), frames)
def test_zone_map_never_writes_outside_the_chain(zone_map, frame):
    pixels = zone_map.render(frame)
    assert len(pixels) == zone_map.pixel_count == SEGMENTS * zone_map.pixels_per_ring
    assert all(len(p) == 3 and all(0 <= c <= 255 for c in p) for p in pixels)
    for seg in range(SEGMENTS):
        for zone in ZONES:
            assert all(0 <= i < zone_map.pixel_count for i in zone_map.pixels_of(seg, zone))


@given(zone_maps(), frames)
def test_rendered_frame_respects_the_current_limit(zone_map, frame):
    assert estimate_current_ma(zone_map.render(frame)) <= zone_map.current_limit_ma + 1e-9


@given(zone_maps())
def test_every_pixel_of_the_chain_belongs_to_at_most_one_zone(zone_map):
    owners: dict[int, tuple[int, str]] = {}
    for seg in range(SEGMENTS):
        for zone in ZONES:
            for i in zone_map.pixels_of(seg, zone):
                assert i not in owners, f"pixel {i} in {owners.get(i)} and {(seg, zone)}"
                owners[i] = (seg, zone)


@given(zone_maps(), frames)
def test_lit_pixels_are_exactly_the_pixels_of_lit_zones(zone_map, frame):
    layout = zone_map.layout(frame)
    lit_zone_pixels = {
        i
        for (seg, zone), c in frame.items()
        if c != (0, 0, 0)
        for i in zone_map.pixels_of(seg, zone)
    }
    assert {i for i, p in enumerate(layout) if p != (0, 0, 0)} == lit_zone_pixels


def test_ring_order_puts_a_segment_on_its_ring_in_the_chain():
    # The first ring on the data line sits under segment 3.
    zm = ZoneMap(12, (3, 0, 1, 2, 4, 5), RING_ZONES)
    assert zm.pixels_of(3, "water") == (0, 1)
    assert zm.pixels_of(0, "water") == (12, 13)
    assert zm.pixels_of(5, "slot_b") == (71,)
    pixels = zm.render({(3, "crater"): (200, 0, 0)})
    assert pixels[7] == pixels[8] == (200, 0, 0)
    assert sum(p != (0, 0, 0) for p in pixels) == 2


def test_missing_zones_are_dark_and_brightness_is_applied():
    zm = ZoneMap(12, range(6), RING_ZONES, brightness=0.5)
    pixels = zm.render({(1, "beach"): (200, 100, 10)})
    assert pixels[14] == pixels[15] == (100, 50, 5)
    assert pixels.count((0, 0, 0)) == 70


def test_zone_map_from_default_config_applies_config_brightness_and_limit():
    zm = ZoneMap.from_config(Config().leds)
    assert zm.pixel_count == 198 and zm.brightness == 0.3 and zm.current_limit_ma == 1800
    white = {(s, z): (255, 255, 255) for s in range(SEGMENTS) for z in ZONES}
    pixels = zm.render(white)
    # 198 px white at 0.3 brightness would draw 3541 mA: the 1800 mA limit scales it down.
    assert len(set(pixels)) == 1 and pixels[0][0] < 76
    one_zone = zm.render({(0, "beach"): (255, 255, 255)})
    # One zone alone (6 pixels, 107 mA) is not scaled.
    assert {one_zone[i] for i in zm.pixels_of(0, "beach")} == {(76, 76, 76)}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"pixels_per_ring": 0}, "at least 1"),
        ({"ring_order": (0, 1, 2, 3, 4, 4)}, "each segment 0..5 exactly once"),
        ({"zones": {"lava": (1,)}}, "unknown zone 'lava'"),
        ({"zones": {"water": (33,)}}, "pixel 33 is outside a 33-pixel ring"),
        ({"zones": {"water": (1,), "beach": (1,)}}, "pixel 1 is in both zone water and zone beach"),
    ],
)
def test_a_broken_zone_map_is_refused_with_the_reason(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ZoneMap(**kwargs)


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ((6, "water"), "segment 6 is not 0..5"),
        ((0, "lava"), "unknown zone 'lava'"),
    ],
)
def test_a_frame_naming_an_unknown_zone_is_refused(key, message):
    with pytest.raises(ValueError, match=message):
        ZoneMap().render({key: (1, 1, 1)})


def test_a_colour_out_of_range_is_refused():
    with pytest.raises(ValueError, match=r"not three integers 0\.\.255"):
        ZoneMap().render({(0, "water"): (256, 0, 0)})
