"""Issue 11: the unit's hardening (what the audit found safe) and the narrowed Pico udev rule,
without losing a device the kit opens."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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
    assert set(s["SupplementaryGroups"].split()) == {"gpio", "spi", "i2c", "dialout"}


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
