"""Backend choice, like gpiozero's pin factory: argument > env > config > detect; and the
factory as the one place that builds the RFID link (the Pico on pi, a virtual Pico on sim)."""

from __future__ import annotations

import queue
import re
from dataclasses import replace

import pytest
from support.waiting import wait_for

from haleakala.config import Config
from haleakala.hal import factory
from haleakala.hal.events import BeachContents, Disc, LinkHealth
from haleakala.hal.factory import (
    BackendError,
    choose_backend,
    is_raspberry_pi,
    open_hardware,
    open_rfid_link,
)
from haleakala.hal.rfid.driver import RfidDriver
from haleakala.hal.rfid.virtual_link import VirtualPicoLink
from haleakala.hal.simulated import SimHardware


@pytest.fixture
def pi_model(tmp_path):
    path = tmp_path / "model"
    path.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    return path


@pytest.fixture
def pc_model(tmp_path):
    return tmp_path / "no-such-model"


def test_auto_picks_pi_only_on_a_raspberry_pi(pi_model, pc_model):
    assert choose_backend(Config(), env={}, model_path=pi_model) == "pi"
    assert choose_backend(Config(), env={}, model_path=pc_model) == "sim"


def test_other_device_tree_boards_are_not_a_pi(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Pine64 RockPro64\x00")
    assert not is_raspberry_pi(model)
    assert choose_backend(Config(), env={}, model_path=model) == "sim"


def test_argument_beats_env_beats_config(pc_model):
    config = replace(Config(), hardware="pi")
    env = {"HALEAKALA_HARDWARE": "sim"}
    assert choose_backend(config, "pi", env=env, model_path=pc_model) == "pi"
    assert choose_backend(config, env=env, model_path=pc_model) == "sim"
    assert choose_backend(config, env={}, model_path=pc_model) == "pi"


def test_auto_at_a_higher_level_means_detect(pi_model):
    config = replace(Config(), hardware="sim")
    assert choose_backend(config, env={"HALEAKALA_HARDWARE": "auto"}, model_path=pi_model) == "pi"


def test_names_are_case_and_space_insensitive(pc_model):
    assert choose_backend(None, " SIM ", env={}, model_path=pc_model) == "sim"


@pytest.mark.parametrize(
    ("backend", "env", "config", "origin"),
    [
        ("gpio", {}, Config(), "the backend argument"),
        (None, {"HALEAKALA_HARDWARE": "mock"}, Config(), "$HALEAKALA_HARDWARE"),
        (None, {}, replace(Config(), hardware="rpi"), "the config key 'hardware'"),
    ],
)
def test_an_unknown_backend_says_where_the_name_came_from(backend, env, config, origin, pc_model):
    with pytest.raises(
        BackendError,
        match=f"unknown hardware backend .* from {re.escape(origin)}"
        r": use sim, pi or auto",
    ):
        choose_backend(config, backend, env=env, model_path=pc_model)


def test_open_hardware_sim_uses_the_configs_zone_map_and_timings(monkeypatch):
    monkeypatch.delenv("HALEAKALA_HARDWARE", raising=False)
    config = replace(Config(), leds=replace(Config().leds, pixels_per_ring=16, zones={}))
    with open_hardware(config, "sim") as hw:
        assert isinstance(hw, SimHardware)
        assert hw.leds.pixel_count == 96
        assert hw.inputs.debouncer.hold_s == pytest.approx(0.8)


def test_env_selects_sim_even_when_config_says_pi(monkeypatch):
    monkeypatch.setenv("HALEAKALA_HARDWARE", "sim")
    with open_hardware(replace(Config(), hardware="pi")) as hw:
        assert hw.backend == "sim"


# --------------------------------------------------------------------------- the RFID link

RED3 = "E00401A003C0DE01"
TAGS = {RED3: "red3"}


def rfid_config(**changes) -> Config:
    return replace(Config(), kit="rfid", tags=TAGS, **changes)


def test_the_sim_backends_rfid_link_is_a_virtual_pico_read_by_the_real_driver():
    """On sim, ``open_rfid_link`` is the kit's own driver reading a virtual Pico on a pty: a
    tag laid on the Pico's beach comes out as that beach's disc, and the link reports up."""
    posted: queue.Queue = queue.Queue()
    link = open_rfid_link(rfid_config(), "sim", snapshot_period_s=0.02)
    assert isinstance(link, VirtualPicoLink) and isinstance(link.driver, RfidDriver)
    try:
        link.start(posted.put)
        link.pico.place(2, RED3)
        wait_for(lambda: link.published()[2] == frozenset({Disc("red", 3)}), "red 3 on beach 2")
        assert link.health()["ok"] and link.health()["frames"] >= 3
    finally:
        link.close()
    events = list(posted.queue)
    assert BeachContents(2, frozenset({Disc("red", 3)})) in events
    assert any(isinstance(e, LinkHealth) and e.ok for e in events)
    assert not link.driver.running


def test_open_hardware_on_sim_starts_and_closes_the_rfid_link_with_the_inputs(monkeypatch):
    """``rfid=True`` on sim: the link is part of the inputs, so whoever starts the inputs (the
    controller) gets the beaches, and closing the hardware stops the driver and the Pico."""
    monkeypatch.delenv("HALEAKALA_HARDWARE", raising=False)
    posted: queue.Queue = queue.Queue()
    hw = open_hardware(rfid_config(), "sim", rfid=True, rfid_options={"snapshot_period_s": 0.02})
    link = hw.rfid
    assert isinstance(link, VirtualPicoLink)
    assert not link.driver.running  # nothing opens before the inputs start
    hw.inputs.start(posted.put)
    link.pico.place(4, RED3)
    wait_for(lambda: BeachContents(4, frozenset({Disc("red", 3)})) in list(posted.queue),
             "red 3 on beach 4 posted to the inputs' post")  # fmt: skip
    hw.close()
    assert not link.driver.running and link.pico.frames_sent > 0


def test_open_hardware_on_sim_injects_the_beaches_unless_the_virtual_pico_is_asked_for():
    """Scenario tests and autoplay lay discs by injection (in memory): an RFID kit on sim
    gets no link by default, and a buttons kit never gets one."""
    with open_hardware(rfid_config(), "sim") as hw:
        assert hw.rfid is None
    with open_hardware(Config(), "sim") as hw:
        assert hw.rfid is None


def test_open_hardware_on_pi_gives_an_rfid_kit_the_driver_on_the_configs_port(monkeypatch):
    """On pi the factory builds the driver on ``rfid.port``/``rfid.baud`` and hands it to the
    backend as part of the inputs; a buttons kit gets none."""
    from haleakala.hal import pi

    given = []

    def backend(config, *, rfid=None, **options):
        given.append(rfid)
        return SimHardware.from_config(config, rfid=rfid)  # stands in for the Pi's devices

    monkeypatch.setattr(pi, "open_pi_hardware", backend)
    config = rfid_config(rfid=replace(Config().rfid, port="/dev/ttyACM7", baud=57600))
    with open_hardware(config, "pi") as hw:
        (link,) = given
        assert isinstance(link, RfidDriver) and hw.rfid is link
        assert (link.port, link.baud) == ("/dev/ttyACM7", 57600)
    with open_hardware(Config(), "pi"):
        assert given[-1] is None


def test_a_given_port_is_read_by_the_driver_whatever_the_backend():
    """A caller that brings its own Pico end (a bench's pty, ``tags enroll --port``)."""
    link = open_rfid_link(rfid_config(), "sim", port="/dev/pts/99", read_timeout_s=0.05)
    assert isinstance(link, RfidDriver) and link.port == "/dev/pts/99"
    assert link.read_timeout_s == 0.05


def test_the_link_is_closed_when_the_backend_cannot_open(monkeypatch):
    from haleakala.hal import pi

    made = []
    real = factory.open_rfid_link

    def recording(*args, **options):
        made.append(real(*args, **options))
        return made[-1]

    def refuse(config, **options):
        raise pi.HardwareError("cannot open the OLED")

    monkeypatch.setattr(factory, "open_rfid_link", recording)
    monkeypatch.setattr(pi, "open_pi_hardware", refuse)
    with pytest.raises(pi.HardwareError):
        open_hardware(rfid_config(), "pi")
    (link,) = made
    assert isinstance(link, RfidDriver) and not link.running
