"""The fast forced-board check: on x86, in the test venv, each model's vendor stack is built
up to the device open, and every library it loads must come from a declared dependency.

Blinka is a generic wheel: its platform libraries (gpiod everywhere, rpi_ws281x on Pi 3/4/Zero
2 W, the PIO driver on a Pi 5) are separate packages that nothing pulls in unless the ``pi``
extra names them. Each model runs in its own process (``board`` is decided once per process)
through ``haleakala.kit.platform_check``, the same module the virtual Pi runs on arm64.
"""

from __future__ import annotations

import importlib.metadata as md
import json
import platform
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from support.paths import REPO_ROOT

from haleakala.kit.platform_check import BOARDS, cpuinfo

pytest.importorskip("gpiozero")
packaging_requirements = pytest.importorskip("packaging.requirements")
packaging_utils = pytest.importorskip("packaging.utils")

REPO = REPO_ROOT
PI_TARGET = {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "aarch64"}
"""Markers are evaluated for the kit's target: 64-bit Raspberry Pi OS."""
ARM_WHEELS_ONLY = {"adafruit-blinka-raspberry-pi5-neopixel"}
"""Ships wheels for ARM Linux only (its C part talks to the RP1's PIO): not on x86 CI."""
ON_ARM = platform.machine() in ("aarch64", "armv7l")


def declared_closure(extra: str) -> set[str]:
    """Every distribution ``haleakala-companion[extra]`` installs on the Pi, by name: the
    project's requirements from pyproject.toml (this checkout, not the installed metadata),
    then each dependency's own requirements from its installed metadata."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    name = packaging_utils.canonicalize_name(project["name"])
    optional = project["optional-dependencies"]
    todo = [(r, "") for r in project["dependencies"]] + [(r, extra) for r in optional[extra]]
    seen: set[str] = set()
    while todo:
        text, via_extra = todo.pop()
        req = packaging_requirements.Requirement(text)
        if req.marker and not req.marker.evaluate({**PI_TARGET, "extra": via_extra}):
            continue
        dist = packaging_utils.canonicalize_name(req.name)
        if dist == name:  # pi5 = [haleakala-companion[pi], ...]
            todo += [(r, e) for e in req.extras for r in optional[e]]
            continue
        if dist in seen:
            continue
        seen.add(dist)
        try:
            requires = md.requires(req.name) or []
        except md.PackageNotFoundError:
            continue  # not installable here (ARM-only wheel): its own deps are not needed
        todo += [(r, e) for r in requires for e in ("", *req.extras)]
    return seen | {name}  # the project itself (its metadata names ``haleakala`` as its own)


def forced_board(model: str, tmp_path: Path) -> dict:
    info = tmp_path / "cpuinfo"
    info.write_text(cpuinfo(model))
    out = subprocess.run(
        [sys.executable, "-m", "haleakala.kit.platform_check", "--model", model,
         "--cpuinfo", str(info)],
        capture_output=True, text=True, check=True, cwd=REPO,
    )  # fmt: skip
    return json.loads(out.stdout)


@pytest.mark.parametrize("model", sorted(BOARDS))
def test_each_model_builds_its_led_chain_up_to_the_device_open(model, tmp_path):
    result = forced_board(model, tmp_path)
    assert result["board"] == BOARDS[model][0]
    assert "gpiod" in result["modules"]  # Blinka's pins on every Pi
    assert result["inputs"] == [
        "back", "beach0", "beach1", "beach2", "beach3", "beach4", "beach5", "encoder", "select",
    ]  # fmt: skip
    assert result["display"] == "128x64 sent 1"
    assert result["rpi_gpio"].endswith(" via rpi-lgpio")  # RPi.GPIO scripts go through lgpio
    if model != "pi5":
        assert result["driver"] == ["_rpi_ws281x"]
        assert result["leds"].startswith(
            "cannot open the LED chain: /dev/spidev0.0 does not exist (SPI is off: run "
            "'sudo python3 -m haleakala install'"
        )
    elif ON_ARM:
        assert result["driver"] == ["adafruit_raspberry_pi5_neopixel_write"]
        assert result["leds"].startswith("cannot open the LED chain: /dev/pio0 does not exist")
    else:
        # x86: the path stops exactly at the one package that has only ARM wheels; the
        # virtual Pi (./test -m virtual_pi) installs it and reaches /dev/pio0.
        assert result["leds"].startswith(
            "cannot load the NeoPixel driver: The platform library "
            "'adafruit_raspberry_pi5_neopixel_write' was not found"
        )
        assert "-m pip install -e " in result["leds"] and "[pi5]" in result["leds"]


@pytest.mark.parametrize("model", sorted(BOARDS))
def test_every_library_a_model_loads_is_a_declared_dependency(model, tmp_path):
    """Removing gpiod or rpi_ws281x from the pi extra fails here, even in a venv that still
    has them installed."""
    extra = "pi5" if model == "pi5" else "pi"
    declared = declared_closure(extra)
    owners = md.packages_distributions()
    loaded = {
        packaging_utils.canonicalize_name(owners[module][0])
        for module in forced_board(model, tmp_path)["modules"]
        if module in owners
    }
    undeclared = sorted(loaded - declared)
    assert not undeclared, f"loaded on a {model} but no [{extra}] dependency brings: {undeclared}"


def test_rpi_gpio_is_the_lgpio_shim_never_the_original():
    """RPi.GPIO cannot drive a Pi 5; rpi-lgpio offers its API on lgpio, which can. Both
    install the package ``RPi``, so the original must not come in through a dependency."""
    for extra in ("pi", "pi5"):
        declared = declared_closure(extra)
        assert "rpi-lgpio" in declared and "lgpio" in declared
        assert "rpi-gpio" not in declared


def test_the_pi5_extra_declares_its_pio_driver_for_arm_linux_only():
    declared = declared_closure("pi5")
    assert declared >= ARM_WHEELS_ONLY
    assert not ARM_WHEELS_ONLY & declared_closure("pi")
    optional = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    (pio,) = [
        packaging_requirements.Requirement(r)
        for r in optional["pi5"]
        if r.startswith("adafruit-blinka-raspberry-pi5")
    ]
    assert pio.marker is not None
    assert not pio.marker.evaluate({**PI_TARGET, "platform_machine": "x86_64"})
