"""Backend choice, like gpiozero's pin factory: argument > env > config > detect."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from haleakala.config import Config
from haleakala.hal.factory import BackendError, choose_backend, is_raspberry_pi, open_hardware
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
