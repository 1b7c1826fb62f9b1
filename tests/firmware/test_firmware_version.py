"""Issue 10: the firmware names the MicroPython release it is checked for, and its ``hello``
tells the Pi both its own version and the interpreter it really runs on."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest
from support.fake_pico import FakeMachine, firmware_module, firmware_on_path
from test_firmware_compiles import mpy_cross

from haleakala.hal.rfid import protocol


@pytest.fixture
def fw() -> Iterator[dict]:
    with firmware_on_path(FakeMachine()):
        yield {
            "package": firmware_module("haleakala_pico"),
            "protocol": firmware_module("haleakala_pico.protocol"),
            "main": importlib.import_module("main"),
        }
        sys.modules.pop("main", None)


def running_interpreter() -> str:
    impl = sys.implementation
    return f"{impl.name}-{'.'.join(str(n) for n in tuple(impl.version)[:3])}"


def test_the_first_frame_after_boot_is_hello_with_both_versions(fw):
    lines: list[str] = []
    fw["main"].main(emit=lines.append, steps=1)
    hello = protocol.parse(lines[0].encode())
    assert isinstance(hello, protocol.Hello) and hello.seq == 0
    assert hello.firmware == fw["package"].FIRMWARE_VERSION
    assert hello.runtime == running_interpreter()  # on the Pico: micropython-1.29.0


def test_hello_with_the_runtime_is_byte_for_byte_what_the_host_encodes(fw):
    encoder = fw["protocol"].Encoder(0x5C1A9E03)
    line = encoder.hello("1.1.0", ["pn5180"] * 6, 2, 100, "micropython-1.29.0")
    frame = protocol.Hello("5C1A9E03", 0, "1.1.0", ("pn5180",) * 6, 2, 100, "micropython-1.29.0")
    assert line.encode() == protocol.encode(frame)
    assert protocol.parse(line.encode()) == frame


def test_a_hello_from_firmware_1_0_without_the_runtime_still_parses(fw):
    line = fw["protocol"].Encoder(1).hello("1.0.0", ["mfrc522"] * 6, 2, 100)
    assert protocol.parse(line.encode()).runtime == ""


def test_the_named_micropython_release_is_the_one_whose_mpy_cross_checks_the_firmware(fw):
    named = fw["package"].MICROPYTHON_VERSION
    assert re.fullmatch(r"\d+\.\d+\.\d+", named)
    out = subprocess.run([*mpy_cross(), "--version"], capture_output=True, text=True, timeout=60)
    reported = re.search(r"MicroPython v(\d+\.\d+)", out.stdout + out.stderr)
    assert reported, out.stdout + out.stderr
    assert reported.group(1) == ".".join(named.split(".")[:2])
