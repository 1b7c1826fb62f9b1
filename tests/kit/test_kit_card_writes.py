"""``haleakala install`` keeps the SD card's writes to what a game changes (``kit.card``): the
system log in RAM (a journald drop-in, removed by ``uninstall``) and ``lazytime`` on the ext4
root in /etc/fstab, added once, spacing and other entries kept, remounted on a running system;
no fstab root (a chroot, an image being built) is left alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.paths import REPO_ROOT

from haleakala.cli import main as cli_main
from haleakala.kit.card import JOURNALD_TEXT, lazytime_root

PI_FSTAB = (
    "proc            /proc           proc    defaults          0       0\n"
    "PARTUUID=4e639091-01  /boot/firmware  vfat    defaults          0       2\n"
    "PARTUUID=4e639091-02  /               ext4    defaults,noatime  0       1\n"
    "# a swapfile is not a swap partition, no line here for that\n"
)


def test_lazytime_joins_the_options_of_the_ext4_root_only():
    changed = lazytime_root(PI_FSTAB)
    assert changed == PI_FSTAB.replace("defaults,noatime  0", "defaults,noatime,lazytime  0")
    assert lazytime_root(changed) == changed  # once


def test_no_ext4_root_in_fstab_is_left_alone():
    assert lazytime_root("# UNCONFIGURED FSTAB FOR BASE SYSTEM\n") is None
    assert lazytime_root("/dev/sda1 / btrfs defaults 0 1\n") is None
    assert lazytime_root("") is None


@pytest.fixture
def root(tmp_path: Path) -> Path:
    sandbox = tmp_path / "root"
    (sandbox / "etc").mkdir(parents=True)
    (sandbox / "etc/group").write_text("root:x:0:\n")
    (sandbox / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (sandbox / "etc/fstab").write_text(PI_FSTAB)
    return sandbox


def install(root: Path, what: str = "install") -> int:
    return cli_main([what, "--root", str(root), "--source", str(REPO_ROOT)])


def test_install_puts_the_log_in_ram_and_file_times_in_memory(root, capsys):
    assert install(root) == 0
    dropin = root / "etc/systemd/journald.conf.d/haleakala.conf"
    assert dropin.read_text() == JOURNALD_TEXT
    assert "\nStorage=volatile\n" in JOURNALD_TEXT
    assert (root / "etc/fstab").read_text() == lazytime_root(PI_FSTAB)
    log = (root / "var/log/haleakala-install.log").read_text().splitlines()
    assert log[-2:] == ["systemctl restart systemd-journald", "mount -o remount,lazytime /"]
    out = capsys.readouterr().out
    assert "+ updated /etc/fstab (lazytime on /: file times written lazily)" in out
    assert install(root) == 0  # the second run changes nothing
    assert capsys.readouterr().out.splitlines()[-1] == "nothing to do: the kit is installed"
    assert install(root, "uninstall") == 0
    assert not dropin.exists()
    assert (root / "etc/fstab").read_text() == lazytime_root(PI_FSTAB)  # harmless, kept
