"""Joining from the OLED (issue 15): the companion's menu offers "live view" only while the
live view runs; selecting it shows the QR code of the joining URL (with its token) and the
URL as one ready image on the OLED, until select or back returns to the menu."""

from __future__ import annotations

import pytest
from support.companion_rig import Rig

from haleakala.companion import oled
from haleakala.companion import ui as U
from haleakala.games.haleakala.game import TURN
from haleakala.hal.events import EncoderTurned
from haleakala.web.join import MENU_LABEL, join_image
from haleakala.web.start import start_live_view

pytest.importorskip("aiohttp")
pytest.importorskip("segno")


def at_a_turn_start() -> Rig:
    rig = Rig("buttons", "base", seed=5)
    rig.play_until(lambda g: len(g.history) > 3 and g.phase == TURN)
    return rig


def menu_values(rig: Rig) -> list[object]:
    rig.press("back")
    shown = rig.c.shown
    assert shown is not None and shown.kind == U.MENU
    return [o.value for o in shown.options]


def open_join_page(rig: Rig) -> None:
    values = menu_values(rig)
    rig.send(EncoderTurned(values.index("live") - rig.c.shown.cursor))
    rig.press("select")


@pytest.fixture
def live_rig():
    rig = at_a_turn_start()
    live = start_live_view("127.0.0.1:0", rig.c)
    assert live is not None
    try:
        yield rig, live
    finally:
        live.close()


def test_the_menu_has_no_live_view_entry_without_a_live_view():
    rig = at_a_turn_start()
    assert rig.c.live_view is None
    values = menu_values(rig)
    assert "live" not in values
    assert str(MENU_LABEL) not in [str(o.label) for o in rig.c.shown.options]


def test_the_menu_offers_the_live_view_while_it_runs(live_rig):
    rig, live = live_rig
    assert rig.c.live_view is live
    values = menu_values(rig)
    assert "live" in values
    assert str(MENU_LABEL) in [str(o.label) for o in rig.c.shown.options]


def test_selecting_live_view_shows_the_qr_code_of_the_url_with_its_token(live_rig):
    rig, live = live_rig
    open_join_page(rig)
    assert rig.c.shown is not None and rig.c.shown.kind == U.JOIN
    image = rig.hw.display.last
    assert image is not None and image.size == (oled.WIDTH, oled.HEIGHT)
    expected = join_image(live.url)
    assert image.convert("1").tobytes() == expected.convert("1").tobytes()
    assert live.token in live.url
    # The text the log and the simulator read: the title, then the URL (wrapped).
    text = "".join(rig.c.prompt[1:])
    assert rig.c.prompt[0] == "LIVE VIEW"
    assert live.url in text.replace(" ", "")


@pytest.mark.parametrize("button", ["select", "back"])
def test_a_press_on_the_join_page_returns_to_the_menu_on_its_line(live_rig, button):
    rig, _live = live_rig
    open_join_page(rig)
    made = len(rig.game.history)
    rig.press(button)
    shown = rig.c.shown
    assert shown is not None and shown.kind == U.MENU
    assert shown.current is not None and shown.current.value == "live"
    assert rig.c.prompt[0] == "MENU"
    assert rig.hw.display.last.tobytes() != join_image(rig.c.live_view.url).tobytes()
    assert len(rig.game.history) == made  # looking at the QR code decides nothing


def test_the_encoder_on_the_join_page_leaves_it_shown(live_rig):
    rig, live = live_rig
    open_join_page(rig)
    rig.send(EncoderTurned(3), EncoderTurned(-1))
    assert rig.c.shown.kind == U.JOIN
    assert rig.hw.display.last.tobytes() == join_image(live.url).tobytes()
