"""The bought parts' envelopes (haleakala/kit/data/envelopes.toml): every Pi model with its
hole pattern and ports, the figures the datasheets give, and a clear sentence for bad data."""

from __future__ import annotations

import pytest

from haleakala.kit.common import REPO_ROOT
from haleakala.kit.envelopes import PI_MODELS, EnvelopeError, default_envelopes, load_envelopes

TEXT = (REPO_ROOT / "haleakala" / "kit" / "data" / "envelopes.toml").read_text("utf-8")


def test_every_pi_model_has_its_board_holes_and_ports_from_its_drawing():
    e = default_envelopes()
    for model in PI_MODELS:
        board = e.boards[model]
        assert "mechanical drawing" in board.source and board.screw == "M2.5"
        assert board.ports and all(p.edge in ("+x", "-x", "+y", "-y") for p in board.ports)
    assert e.boards["pi4"].hole_span == (58.0, 49.0) and e.boards["pi4"].board[:2] == (85, 56)
    assert e.boards["zero2w"].hole_span == (58.0, 23.0) and e.boards["zero2w"].board[:2] == (65, 30)
    assert e.boards["pico"].hole_span == pytest.approx((47.0, 11.4))
    usb = next(p for p in e.boards["pico"].ports if p.name == "micro-USB")
    assert usb.used and usb.reach > 30  # the plug and its cable's bend, beyond the board


def test_the_tactile_switch_has_its_legs_on_the_datasheet_pitch():
    e = default_envelopes()
    assert e.numbers("switch", "leg_pitch", 2) == (12.5, 5.0)
    assert e.numbers("switch", "body", 3)[:2] == (12.0, 12.0)
    assert "B3F" in e.part("switch")["source"]


def test_every_screw_has_a_clearance_and_a_pilot_range():
    for screw in default_envelopes().screws.values():
        assert screw.pilot[1] < screw.clearance[0] < screw.clearance[1]


def test_malformed_envelopes_are_refused_naming_the_key():
    with pytest.raises(EnvelopeError, match=r"boards\.pi4\.board"):
        load_envelopes(TEXT.replace("board = [85.0, 56.0, 1.4]", "board = [85.0]", 1))
    with pytest.raises(EnvelopeError, match=r"boards\.zero2w\] is missing"):
        load_envelopes(TEXT.replace("[boards.zero2w]", "[boards.zero]"))
