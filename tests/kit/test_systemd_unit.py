"""Issue 11: the unit's hardening (what the audit found safe) and the narrowed Pico udev rule,
without losing a device the kit opens."""

from __future__ import annotations

import configparser
import re

import pytest
from support.paths import REPO_ROOT

ROOT = REPO_ROOT


class MultiDict(dict):
    """systemd repeats keys (DeviceAllow=, SystemCallFilter=): keep every value."""

    def __setitem__(self, key, value):
        if key in self and isinstance(value, list):
            self[key].extend(value)
        else:
            super().__setitem__(key, value)


def service() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, dict_type=MultiDict, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment]  # systemd keys are case-sensitive
    parser.read(ROOT / "systemd" / "haleakala.service")
    return parser["Service"]


def values(key: str) -> list[str]:
    return service()[key].split("\n")


def test_a_config_mistake_exit_2_is_not_restarted():
    """daemon.EXIT_CONFIG: 'retrying will not help'."""
    from haleakala.companion.daemon import EXIT_CONFIG

    assert service()["Restart"] == "on-failure"
    assert service()["RestartPreventExitStatus"].split() == [str(EXIT_CONFIG)]


def test_privileged_and_resource_system_calls_are_denied_on_top_of_the_service_set():
    filters = values("SystemCallFilter")
    assert filters[0] == "@system-service"  # the allow-list comes first
    assert set(filters[1].removeprefix("~").split()) == {"@privileged", "@resources"}
    assert filters[1].startswith("~")
    assert service()["SystemCallErrorNumber"] == "EPERM"


def test_mounts_umask_and_executable_memory_are_locked_down():
    s = service()
    assert s["PrivateMounts"] == "yes"
    assert s["UMask"] == "0077"
    assert s["MemoryDenyWriteExecute"] == "yes"


def test_the_hardening_keeps_every_device_the_kit_opens():
    s = service()
    assert s.get("PrivateDevices", "no") == "no" and s["DevicePolicy"] == "closed"
    allowed = values("DeviceAllow")
    for device in ("gpiochip", "spi", "i2c", "pio", "ttyACM"):
        assert any(device in line and line.endswith(" rw") for line in allowed), device
    assert set(s["SupplementaryGroups"].split()) == {"gpio", "spi", "i2c", "dialout", "audio"}


def test_the_pico_rule_matches_micropythons_pico_and_nothing_else_of_raspberry_pi():
    """2e8a:0005 is MicroPython's rp2 port (MICROPY_HW_USB_PID, "RP2 MicroPython")."""
    text = (ROOT / "systemd" / "99-haleakala-pico.rules").read_text()
    [rule] = [line for line in text.splitlines() if line and not line.startswith("#")]
    matches = dict(re.findall(r'(\S+?)=="([^"]*)"', rule))
    assert matches == {
        "SUBSYSTEM": "tty",
        "ATTRS{idVendor}": "2e8a",
        "ATTRS{idProduct}": "0005",
    }
    assert 'GROUP="dialout"' in rule and 'MODE="0660"' in rule
    assert 'SYMLINK+="haleakala-pico haleakala-rfid"' in rule


MDWE_CHILD = """
import ctypes, mmap
try:
    mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    raise SystemExit("MDWE is not in force: writable-and-executable memory was granted")
except PermissionError:
    pass
assert ctypes.CFUNCTYPE(ctypes.c_int)(lambda: 7)() == 7  # libffi closures (smbus2, ...)
import board, neopixel, gpiozero, luma.core.device, luma.oled.device, smbus2, PIL.Image
import haleakala.hal.pi
print("ok")
"""

MDWE_PARENT = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(65, 1, 0, 0, 0) != 0:  # PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN (Linux 6.3+)
    raise SystemExit(77)
os.execv(sys.executable, [sys.executable, "-c", sys.argv[1]])  # MDWE survives execve
"""


def test_the_vendor_stacks_load_under_memory_deny_write_execute():
    """What MemoryDenyWriteExecute=yes enforces (the kernel's MDWE: no W+X mapping), applied
    to a Python that imports the pi backend's vendor libraries (x86 builds, mocks: the arm64
    wheels are the virtual Pi's to check)."""
    import os
    import subprocess
    import sys

    pytest.importorskip("gpiozero")
    env = {**os.environ, "BLINKA_OS_AGNOSTIC": "1", "GPIOZERO_PIN_FACTORY": "mock"}
    done = subprocess.run(
        [sys.executable, "-c", MDWE_PARENT, MDWE_CHILD],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    if done.returncode == 77:
        pytest.skip("this kernel has no PR_SET_MDWE (Linux 6.3+)")
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
