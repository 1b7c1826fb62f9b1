"""The booted virtual Pi powers the guest on again when the guest reboots itself, as a Pi's
firmware does: systemd-fsck asks for a reboot after e2fsck repaired the mounted root (the
emergency read-only case), and qemu runs with ``-no-reboot``, so without this the harness saw
a guest that "stopped before the daemon's resume". A guest that reboots in a loop is still a
fault, named in a sentence. The machine here is a stand-in process that writes a console."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from support.paths import REPO_ROOT

FAKE_GUEST = """
import pathlib, sys
log, state = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
boots = int(state.read_text()) if state.exists() else 0
state.write_text(str(boots + 1))
with log.open("a") as out:
    if boots < int(sys.argv[3]):
        out.write("systemd-fsck[175]: rootfs: ***** REBOOT SYSTEM *****\\n")
        out.write("[   43.838525] reboot: Restarting system\\n")
    else:
        out.write("haleakala[212]: INFO haleakala.daemon: resumed game g1 (base, seed 7) "
                  "at decision 40, digest abc\\n")
"""


@pytest.fixture(scope="module")
def boot_tool():
    spec = importlib.util.spec_from_file_location(
        "virtual_pi_boot_reboot", REPO_ROOT / "tools" / "virtual_pi_boot.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["virtual_pi_boot_reboot"] = module
    spec.loader.exec_module(module)
    return module


def machine(boot_tool, tmp_path: Path, reboots: int):
    kroot = tmp_path / "kroot"
    (kroot / "boot").mkdir(parents=True)
    (kroot / "boot" / "vmlinuz-6.1.0-arm64").write_text("")
    (kroot / "boot" / "initrd.img-6.1.0-arm64").write_text("")
    log = tmp_path / "console.log"
    m = boot_tool.Machine(tmp_path / "card.img", kroot, tmp_path, "pi4", log, 1, 1024)
    script = tmp_path / "guest.py"
    script.write_text(FAKE_GUEST)
    m.argv = [sys.executable, str(script), str(log), str(tmp_path / "boots"), str(reboots)]
    return m


def test_a_guest_that_reboots_after_fsck_is_powered_on_again_and_resumes(boot_tool, tmp_path):
    m = machine(boot_tool, tmp_path, reboots=1)
    m.start()
    found = m.wait_for(r"resumed game ", 60, "the daemon's resume")
    assert found and m.reboots == 1
    console = m.console()
    assert console.index("REBOOT SYSTEM") < console.index("resumed game")  # one log, in order


def test_a_guest_that_keeps_rebooting_is_named_not_followed_forever(boot_tool, tmp_path):
    m = machine(boot_tool, tmp_path, reboots=10)
    m.start()
    with pytest.raises(boot_tool.BootError, match="stopped before the daemon's resume"):
        m.wait_for(r"resumed game ", 60, "the daemon's resume")
    assert m.reboots == boot_tool.MAX_GUEST_REBOOTS
