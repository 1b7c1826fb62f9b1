"""``tools/virtual-pi boot``: the arm64 Bookworm root booted as a whole machine.

The chroot mode (qemu-user) has no PID 1 and translates code into writable+executable memory,
so systemd has never started the unit there. This mode boots the same cached root under
qemu-system-aarch64 on the ``virt`` board with TCG (pure emulation: an x86 host's KVM cannot
run an arm64 guest, so there is none to use), Debian's own arm64 kernel and initramfs
(``linux-image-arm64`` installed into a cached copy of the root, its /boot/vmlinuz and
/boot/initrd.img taken out), systemd as PID 1 and a raw ext4 disk image made from the root
with ``mkfs.ext4 -d`` (no loop or root mounts). Per model the image gets what a Pi has after
``haleakala install`` (run in the chroot as the chroot mode does, then the web extra the live
view needs) and a drop-in that swaps ``--hardware pi`` for the sim backend: the virtual
machine has no pins, so the LEDs, OLED and buttons are the simulated ones (said in every
report). Pi 4 and Pi 5 differ in the guest only in the installer's choices (``model`` in
/etc/haleakala/config.toml and the venv's extra, ``[pi]`` or ``[pi5]``) and in the emulated
core (Cortex-A72 or Cortex-A76).

The guest is driven through two channels: the serial console (the kernel's console and every
journal line, forwarded by journald: the host sees each ``ack decision N`` as it is logged)
and a 9p share with the agent (``tools/virtual_pi_agent.py``), its plan and its results.

Power cuts: the disk is ``cache=writeback`` with the guest's flushes honoured (virtio-blk
announces a volatile write cache, the guest's fsync becomes a FLUSH, qemu fdatasyncs the
image). A ``kill -9`` of qemu takes the guest's RAM with it: its page cache, ext4's
uncommitted transaction, whatever the daemon had not fsynced. What the guest had already
written to the virtual disk survives in the host's page cache, as the data an SD card has
accepted survives a cut if its firmware is honest about flushes (which only a real card can
show). ``cache=unsafe`` would ignore the flushes and is therefore not used.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

BOOT_HOST_DEBS = {"qemu-system-aarch64": "qemu-system-arm", "mkfs.ext4": "e2fsprogs"}
KERNEL_PACKAGES = ("linux-image-arm64", "e2fsprogs", "kmod", "procps")
CPUS = {"zero2w": "cortex-a53", "pi3": "cortex-a53", "pi4": "cortex-a72", "pi5": "cortex-a76"}
IMAGE_BYTES = 3 << 30
CMDLINE = ("root=/dev/vda rootfstype=ext4 ro rootwait fsck.repair=yes console=ttyAMA0 quiet "
           "loglevel=3 systemd.show_status=0 init=/lib/systemd/systemd")  # fmt: skip
BOOT_TIMEOUT_S = 600.0  # emulated boot on a loaded 2-core machine: minutes, not seconds
GAME_OVER_WAIT_S = 300.0  # a whole autoplayed game under TCG is about a minute
GUEST_REBOOT = "reboot: Restarting system"
MAX_GUEST_REBOOTS = 2  # fsck's one reboot, and one more; a guest rebooting in a loop is a fault
GUEST_FILES_VERSION = "3"  # bump when the files written into the kernel root change

FSTAB = "/dev/vda / ext4 defaults,noatime,errors=remount-ro 0 1\n"
# The initramfs carries what the virt board's card needs (Debian's MODULES=most copies over a
# thousand modules, which takes most of an hour under qemu-user; a Pi's own is MODULES=dep).
INITRAMFS_CONF = "MODULES=list\n"
INITRAMFS_MODULES = "virtio_pci\nvirtio_blk\next4\n"
AGENT_UNIT = """\
[Unit]
Description=virtual Pi agent (tools/virtual-pi boot): runs the host's plan from the 9p share
After=local-fs.target
[Service]
Type=simple
ExecStart=/usr/local/sbin/virtual-pi-agent
[Install]
WantedBy=multi-user.target
"""
AGENT_LAUNCHER = """\
#!/bin/sh
# Mount the host's share and run its agent (tools/virtual_pi_agent.py) with Debian's python3.
modprobe 9pnet_virtio 2>/dev/null; modprobe 9p 2>/dev/null
mkdir -p /mnt/host
if ! mount -t 9p -o trans=virtio,version=9p2000.L,cache=none host /mnt/host; then
    echo "VPI agent: the host's 9p share cannot be mounted" >/dev/ttyAMA0; exit 1
fi
exec /usr/bin/python3 /mnt/host/agent.py
"""
JOURNALD = """\
# The virtual Pi's serial console carries every journal line to the host (the cuts' log).
[Journal]
ForwardToConsole=yes
TTYPath=/dev/ttyAMA0
MaxLevelConsole=info
"""
SIM_DROPIN = """\
# tools/virtual-pi boot: the virtual machine has no pins, so the daemon runs the sim backend
# (simulated LEDs, OLED and buttons) under the unit's own sandbox; VPI_ARGS is the test's
# (--seed, --autoplay). IOAccounting only counts the bytes the unit writes.
[Service]
EnvironmentFile=-/etc/haleakala/virtual-pi.env
ExecStart=
ExecStart=/opt/haleakala/venv/bin/haleakala run --hardware sim --headless \\
    --config /etc/haleakala/config.toml $VPI_ARGS
IOAccounting=yes
"""
EMULATION_DROPIN = """\
# tools/virtual-pi boot: under TCG on a loaded 2-core host the daemon's Python start-up takes
# longer than the unit's TimeoutStartSec=30 (a Pi starts it in about a second), so systemd
# would kill every start before READY=1. Emulation speed only: the watchdog is unchanged.
[Service]
TimeoutStartSec=600
"""
# Masked in a kept image by --refresh-code too (a fresh image gets them from model_image): the
# login prompts on tty2-tty6 (no keyboard, no screen, nobody logs in on a virtual Pi); they
# start beside the daemon and write nothing it reads, so they cannot change a cut's outcome.
IMAGE_MASKED = ("getty-static.service",)
MASKED = ("apt-daily.timer", "apt-daily-upgrade.timer", "dpkg-db-backup.timer",
          "e2scrub_all.timer", "fstrim.timer", "systemd-timesyncd.service",
          "getty@tty1.service", "serial-getty@ttyAMA0.service", "e2scrub_reap.service",
          "systemd-networkd-wait-online.service")  # fmt: skip


def say(text: str) -> None:
    print(text, flush=True)


class BootError(Exception):
    """One sentence naming the cause (a kernel that cannot be fetched, no guest...)."""


# --------------------------------------------------------------------------- host and images


def host_ready(vp: ModuleType) -> None:
    vp.host_ready()
    missing = [deb for cmd, deb in BOOT_HOST_DEBS.items() if shutil.which(cmd) is None]
    if missing:
        say(f"installing host packages {' '.join(missing)}...")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], env=env, check=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", *missing], env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        say("no usable /dev/kvm: TCG emulation (expected: arm64 on x86 is always emulated)")
    else:
        say("TCG emulation: this host's KVM runs x86 guests only, not arm64")


def kernel_key(vp: ModuleType) -> str:
    text = f"{vp.root_key()} {' '.join(KERNEL_PACKAGES)} {GUEST_FILES_VERSION}"
    text += FSTAB + INITRAMFS_CONF + INITRAMFS_MODULES + AGENT_UNIT + AGENT_LAUNCHER
    text += JOURNALD + SIM_DROPIN + " ".join(MASKED)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def kernel_root(vp: ModuleType, base: Path) -> Path:
    """The cached root plus Debian's arm64 kernel and the guest's fixed files (built once)."""
    import fcntl

    with (vp.CACHE / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        root = vp.CACHE / f"boot-{kernel_key(vp)}"
        if (root / ".complete").exists():
            return root
        partial = root.with_name(root.name + ".partial")
        if partial.exists():
            shutil.rmtree(partial)
        say(f"adding Debian's arm64 kernel to a copy of the root in {root} (first run only)...")
        started = time.monotonic()
        subprocess.run(["cp", "-a", "--reflink=auto", str(base), str(partial)], check=True)
        (partial / ".complete").unlink()
        write_guest_files(partial)  # first: the initramfs's fsck hook reads /etc/fstab
        done = vp.chroot(partial, "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && "
                         "apt-get install -y -qq --no-install-recommends "
                         "-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "
                         + " ".join(KERNEL_PACKAGES), check=False)  # fmt: skip
        kernels = sorted((partial / "boot").glob("vmlinuz-*"))
        initrds = sorted((partial / "boot").glob("initrd.img-*"))
        if done.returncode != 0 or not kernels or not initrds:
            shutil.rmtree(partial, ignore_errors=True)
            raise BootError(
                "Debian's arm64 kernel could not be fetched or installed into the root "
                f"(apt-get exit status {done.returncode}: {done.stderr.strip()[-300:]})"
            )
        (partial / ".complete").write_text(f"built in {time.monotonic() - started:.0f} s\n")
        partial.rename(root)
        return root


def write_guest_files(root: Path) -> None:
    def put(path: str, text: str, mode: int = 0o644) -> None:
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        target.chmod(mode)

    put("/etc/fstab", FSTAB)
    put("/etc/initramfs-tools/conf.d/virtual-pi.conf", INITRAMFS_CONF)
    put("/etc/initramfs-tools/modules", INITRAMFS_MODULES)
    put("/etc/hostname", "haleakala-pi\n")
    put("/etc/hosts", "127.0.0.1 localhost\n127.0.1.1 haleakala-pi\n::1 localhost\n")
    put("/etc/systemd/system/virtual-pi-agent.service", AGENT_UNIT)
    put("/usr/local/sbin/virtual-pi-agent", AGENT_LAUNCHER, 0o755)
    put("/etc/systemd/journald.conf.d/virtual-pi.conf", JOURNALD)
    wants = root / "etc/systemd/system/multi-user.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    link = wants / "virtual-pi-agent.service"
    if not link.is_symlink():
        link.symlink_to("/etc/systemd/system/virtual-pi-agent.service")
    for unit in MASKED:
        masked = root / "etc/systemd/system" / unit
        if not masked.is_symlink():
            masked.symlink_to("/dev/null")
    (root / "var/log/journal").mkdir(parents=True, exist_ok=True)  # Debian 12: persistent


def boot_files(kroot: Path) -> tuple[Path, Path]:
    return (sorted((kroot / "boot").glob("vmlinuz-*"))[-1],
            sorted((kroot / "boot").glob("initrd.img-*"))[-1])  # fmt: skip


def extra_requirements(repo: Path, extra: str = "web") -> list[str]:
    project = tomllib.loads((repo / "pyproject.toml").read_text())["project"]
    return list(project["optional-dependencies"][extra])


def web_requirements(repo: Path) -> list[str]:
    return extra_requirements(repo, "web")


def retried(run: Any, name: str, script: str, expect: Any = None, tries: int = 3) -> None:
    """A step whose failure may be the network's (pip fetches from PyPI inside the chroot;
    under load a connection reset outlasted pip's own retries): run again, up to ``tries``
    times (``haleakala install`` keeps its finished steps). A failure that was retried stays
    in the record, marked ``retried``."""
    for attempt in range(tries):
        run.step(name, script, expect)
        if run.steps[-1]["ok"] or attempt == tries - 1:
            return
        run.steps[-1]["retried"] = True
        time.sleep(10)


def model_image(
    vp: ModuleType,
    kroot: Path,
    model: str,
    out: Path,
    work: str | None = None,
    extras: tuple[str, ...] = ("web",),
    mkfs: tuple[str, ...] = (),
) -> dict:
    """The model's disk image: the kernel root, ``haleakala install`` run in it as in the
    chroot mode, the live view's extra (and any other ``extras``), the sim drop-in; then
    ``mkfs.ext4 -d`` (with ``mkfs`` options). ``work``: the copy's directory under the cache
    (each harness its own, so that runs in parallel do not share one)."""
    run = vp.Run(kroot, model, work=work or f"boot-{model}")
    retried(run, "haleakala install", f"cd {vp.CHECKOUT} && python3 -m haleakala install",
            lambda o: None if "installed." in o else "no 'installed.' line")  # fmt: skip
    reqs = " ".join(f"'{r}'" for extra in extras for r in extra_requirements(vp.REPO, extra))
    name = ("the web extra for the live view" if extras == ("web",)
            else f"the extras {', '.join(extras)}")  # fmt: skip
    retried(run, name, f"{vp.VENV}/bin/pip install -q {reqs}")
    root = run.root
    dropin = root / "etc/systemd/system/haleakala.service.d/virtual-pi.conf"
    dropin.parent.mkdir(parents=True, exist_ok=True)
    dropin.write_text(SIM_DROPIN)
    (dropin.parent / "virtual-pi-emulation.conf").write_text(EMULATION_DROPIN)
    (root / "etc/haleakala/virtual-pi.env").write_text("VPI_ARGS=--seed 7\n")
    # tty2-tty6 gettys (no dbus, no logind): nobody logs in on a virtual screen here
    with contextlib.suppress(FileExistsError):
        (root / "etc/systemd/system/getty-static.service").symlink_to("/dev/null")
    failed = [s for s in run.steps if not s["ok"] and not s.get("retried")]
    if failed:
        raise BootError(f"{model}: {failed[0]['step']} failed in the chroot: "
                        f"{failed[0].get('problem')}")  # fmt: skip
    started = time.monotonic()
    partial = out.with_name(out.name + ".partial")
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    with partial.open("wb") as f:
        f.truncate(IMAGE_BYTES)
    made = subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "rootfs", *mkfs, "-d", str(root),
                           str(partial)], capture_output=True, text=True)  # fmt: skip
    if made.returncode != 0:
        partial.unlink()
        raise BootError(f"mkfs.ext4 -d could not make the disk image: {made.stderr.strip()}")
    partial.rename(out)
    run.steps.append({"step": "raw ext4 image (mkfs.ext4 -d)", "ok": True,
                      "seconds": round(time.monotonic() - started, 1)})  # fmt: skip
    shutil.rmtree(root)
    return {"steps": run.steps}


# --------------------------------------------------------------------------- the machine


class Machine:
    """One power-on of the guest: qemu-system-aarch64 with the console in a file."""

    def __init__(self, image: Path, kroot: Path, share: Path, model: str, log: Path,
                 smp: int, memory: int, nice: int = 0) -> None:  # fmt: skip
        kernel, initrd = boot_files(kroot)
        self.log = log
        self.nice = nice
        # The host's niceness: the emulated machine needs its whole core, or a loaded host
        # stretches the boot and every timing in it (nice 10 starved the first booted run).
        self.argv = [
            "nice", "-n", str(nice), "qemu-system-aarch64", "-M", "virt", "-accel", "tcg",
            "-cpu", CPUS[model], "-smp", str(smp), "-m", str(memory),
            "-nodefaults", "-display", "none", "-no-reboot",
            "-kernel", str(kernel), "-initrd", str(initrd), "-append", CMDLINE,
            "-drive", f"file={image},format=raw,if=none,id=card,cache=writeback,aio=threads",
            "-device", "virtio-blk-pci,drive=card",
            "-device", "virtio-rng-pci",
            "-virtfs", f"local,path={share},mount_tag=host,security_model=none,id=host",
            "-chardev", f"file,id=console,path={log},append=on", "-serial", "chardev:console",
        ]  # fmt: skip
        self.proc: subprocess.Popen | None = None
        self.started = 0.0
        self.reboots = 0

    def start(self) -> None:
        self.log.write_text("")
        self.started = time.monotonic()
        self._power_on()

    def _power_on(self) -> None:
        # A session of its own: with the kernel's autogroups (sched_autogroup_enabled=1) a
        # process's nice only counts inside its session's group, and every group shares the
        # CPU equally; qemu at nice -10 in the shell's group got 40% of a core at load 12.
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     start_new_session=True)  # fmt: skip
        with contextlib.suppress(OSError):  # no autogroups, or not root: nice alone
            Path(f"/proc/{self.proc.pid}/autogroup").write_text(f"{self.nice}\n")

    def console(self) -> str:
        return self.log.read_text(errors="replace")

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def rebooted(self) -> bool:
        """The guest asked for a reboot and qemu (``-no-reboot``) exited: a Pi would restart.
        systemd-fsck does this after e2fsck repaired the mounted root ("REBOOT SYSTEM", exit
        status 2), as after the emergency read-only case."""
        return (not self.running() and self.reboots < MAX_GUEST_REBOOTS
                and self.console().rstrip().endswith(GUEST_REBOOT))  # fmt: skip

    def reboot(self) -> None:
        """Power on again after the guest's own reboot, as a Pi's firmware does: the same
        disk, the console going on in the same log, ``started`` still the first power-on."""
        assert self.proc is not None
        self.proc.wait()
        self.reboots += 1
        say(f"  the guest rebooted itself ({self.reboots}); powering it on again")
        self._power_on()

    def wait_for(self, pattern: str, timeout: float, what: str) -> re.Match:
        """The first console match of ``pattern``; a sentence naming the cause if the guest
        stops or does not get there in ``timeout`` seconds."""
        end = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.console())
            if found:
                return found
            if self.rebooted():
                self.reboot()
                continue
            if not self.running():
                raise BootError(f"the guest stopped before {what} (qemu said: "
                                f"{self.output()[-300:]!r}; console tail: "
                                f"{self.console()[-500:]!r})")  # fmt: skip
            if time.monotonic() > end:
                raise BootError(f"the guest did not reach {what} within {timeout:.0f} s "
                                f"(console tail: {self.console()[-500:]!r})")  # fmt: skip
            time.sleep(0.2)

    def output(self) -> str:
        if self.proc is None or self.proc.poll() is None or self.proc.stdout is None:
            return ""
        return self.proc.stdout.read().decode(errors="replace")

    def cut(self) -> float:
        """Power cut: SIGKILL to qemu (the guest gets no warning). Seconds since power-on."""
        assert self.proc is not None
        at = time.monotonic() - self.started
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        return at

    def wait_off(self, timeout: float) -> bool:
        assert self.proc is not None
        try:
            self.proc.wait(timeout)
            return True
        except subprocess.TimeoutExpired:
            return False


# --------------------------------------------------------------------------- reading the log

ACK = re.compile(r"ack decision (\d+) \S+ .+? by \S+ digest ([0-9a-f]+)")
NEW = re.compile(r"new game (\S+) \((\w+), seed (\d+), (\w+) starts\), digest ([0-9a-f]+)")
RESUMED = re.compile(r"resumed game (\S+) \((\w+), seed (\d+)\) at decision (\d+), digest "
                     r"([0-9a-f]+)")  # fmt: skip
OVER = re.compile(r"autoplay: game over[:,] .* decision (\d+), digest ([0-9a-f]+)")


# The daemon's journal lines on the console: "haleakala[212]: INFO haleakala.daemon: ready: ..."
# (its level and logger stay in MESSAGE; the first booted run's host never saw its READY).
DAEMON = r"haleakala\[\d+\]: (?:[A-Z]+ [\w.]+: )?"
STAMP = re.compile(r"^\[\s*(\d+\.\d+)\] (.*)$", re.M)


def guest_times(console: str) -> dict:
    """Guest seconds since power-on (the kernel's clock on each console line) at which the
    daemon's unit started, logged its first line, resumed or dealt, and was READY."""
    marks = {"unit_starting_s": "Starting haleakala.service", "first_line_s": "haleakala[",
             "resumed_s": ("resumed game ", "new game "), "ready_s": ": ready: "}  # fmt: skip
    found: dict = {}
    for m in STAMP.finditer(console):
        for key, needle in marks.items():
            needles = needle if isinstance(needle, tuple) else (needle,)
            daemon = key != "resumed_s" or "haleakala[" in m[2]
            if key not in found and daemon and any(n in m[2] for n in needles):
                found[key] = float(m[1])
    return found


class Reference:
    """The digests of the game the scripted player plays when nothing interrupts it."""

    def __init__(self, repo: Path, policy: int) -> None:
        sys.path.insert(0, str(repo))
        self.policy = policy
        self.games: dict[tuple[str, int], list[str]] = {}

    def digests(self, variant: str, seed: int) -> list[str]:
        """Digest after each decision: [0] is the deal, [n] after n decisions."""
        if (variant, seed) not in self.games:
            from haleakala.companion.autoplay import reference_game
            from haleakala.games.haleakala import Game

            final = reference_game(variant, seed, None, self.policy)
            again = Game(variant, seed, None)
            out = [again.digest()]
            for d in final.history:
                again.apply(d)
                out.append(again.digest())
            self.games[(variant, seed)] = out
        return self.games[(variant, seed)]


def events(console: str) -> list[tuple[str, Any]]:
    """The daemon's game events in console order."""
    found = []
    for line in console.splitlines():
        if m := ACK.search(line):
            found.append(("ack", (int(m[1]), m[2])))
        elif m := RESUMED.search(line):
            found.append(("resumed", (m[1], m[2], int(m[3]), int(m[4]), m[5])))
        elif m := NEW.search(line):
            found.append(("new", (m[1], m[2], int(m[3]), m[5])))
        elif m := OVER.search(line):
            found.append(("over", (int(m[1]), m[2])))
        elif "VPI ext4 error triggered" in line:
            found.append(("ro", None))
        elif "game paused, the last decision is not saved yet" in line:
            found.append(("paused", None))
    return found


class Ledger:
    """Across the boots of one model: the game on the table, the last decision the host saw
    acknowledged, and every check (resume at or after it, on the reference history)."""

    def __init__(self, reference: Reference) -> None:
        self.ref = reference
        self.game: tuple[str, str, int] | None = None  # (id, variant, seed)
        self.last_ack = 0  # the last acknowledged decision seen before the cut
        self.over = False
        self.problems: list[str] = []
        self.acks_checked = 0

    def state(self) -> dict:
        """What the next run needs to check its first boot (``--keep-image`` batches)."""
        return {"game": self.game, "last_ack": self.last_ack, "over": self.over}

    def restore(self, state: dict) -> None:
        game = state.get("game")
        self.game = (game[0], game[1], int(game[2])) if game else None
        self.last_ack, self.over = int(state["last_ack"]), bool(state["over"])

    def boot(self, number: int, console: str) -> dict:
        """Read one boot's console; check its start against the ledger, then follow it."""
        seen = {"resumed": None, "new": None, "acks": 0, "last_ack": None, "over": False}
        first = True
        for kind, value in events(console):
            if kind == "resumed":
                gid, variant, seed, at, digest = value
                seen["resumed"] = at
                if first and self.game is not None:
                    if gid != self.game[0]:
                        self.problems.append(f"boot {number}: resumed game {gid}, not "
                                             f"{self.game[0]}")  # fmt: skip
                    elif at < self.last_ack:
                        self.problems.append(f"boot {number}: ack decision {self.last_ack} "
                                             f"logged, resumed at {at}")  # fmt: skip
                if digest != self.ref.digests(variant, seed)[at]:
                    self.problems.append(f"boot {number}: resumed at {at} on another history")
                self.game, self.last_ack = (gid, variant, seed), at
                first = False
            elif kind == "new":
                gid, variant, seed, digest = value
                seen["new"] = seed
                if self.game is not None and not self.over and (first or seed == self.game[2]):
                    self.problems.append(f"boot {number}: a new game (seed {seed}) replaced "
                                         f"game {self.game[0]} at decision {self.last_ack}, "
                                         "which was not over")  # fmt: skip
                self.game, self.last_ack, self.over = (gid, variant, seed), 0, False
                first = False
            elif kind == "ack":
                ply, digest = value
                assert self.game is not None
                if digest != self.ref.digests(self.game[1], self.game[2])[ply]:
                    self.problems.append(f"boot {number}: ack {ply} off the reference history")
                self.acks_checked += 1
                self.last_ack = max(self.last_ack, ply)
                seen["acks"] += 1
                seen["last_ack"] = ply
            elif kind == "over":
                self.over = True
                seen["over"] = True
        return seen


# --------------------------------------------------------------------------- a model's run


class ModelRun:
    def __init__(self, vp: ModuleType, kroot: Path, model: str, args: Any) -> None:
        self.vp, self.kroot, self.model, self.args = vp, kroot, model, args
        self.dir = vp.CACHE / "boot-work" / model
        self.image = self.dir / "card.img"
        self.keep = bool(args.keep_image) and self.image.exists()
        self.ledger_file = self.dir / "ledger.json"
        kept = (self.image, self.ledger_file)
        if self.dir.exists():
            for path in self.dir.iterdir():
                if path not in kept or not self.keep:
                    shutil.rmtree(path) if path.is_dir() else path.unlink()
        self.share = self.dir / "share"
        self.share.mkdir(parents=True)
        self.rng = random.Random(args.seed * 1000 + sorted(CPUS).index(model))
        self.ledger = Ledger(Reference(vp.REPO, args.policy))
        if self.keep and self.ledger_file.exists():  # the last batch's cuts go on
            self.ledger.restore(json.loads(self.ledger_file.read_text()))
        self.boots = 0
        self.stamp = time.strftime("%H%M%S", time.gmtime())
        self.evidence = Path(args.evidence) if getattr(args, "evidence", None) else None
        if self.evidence:
            self.evidence.mkdir(parents=True, exist_ok=True)
        self.result: dict[str, Any] = {"model": self.model, "cpu": CPUS[self.model],
                                       "hardware": "sim backend (no pins in a virtual machine)",
                                       "smp": args.smp, "memory_mib": args.memory}  # fmt: skip

    def machine(self, plan: dict) -> Machine:
        self.boots += 1
        plan = {**plan, "boot": self.boots, "policy": self.args.policy}
        (self.share / "plan.json").write_text(json.dumps(plan))
        tools = Path(__file__).resolve().parent
        shutil.copy(tools / "virtual_pi_agent.py", self.share / "agent.py")
        shutil.copy(tools / "virtual_pi_probe.py", self.share / "probe.py")
        log = self.dir / f"console-{self.boots}.log"
        m = Machine(self.image, self.kroot, self.share, self.model, log, self.args.smp,
                    self.args.memory, getattr(self.args, "nice", 0))  # fmt: skip
        m.start()
        return m

    def keep_log(self, m: Machine, what: str) -> None:
        """The boot's console log, kept as evidence (the work directory is reused)."""
        if self.evidence:
            shutil.copy(m.log, self.evidence / f"{self.model}-{self.stamp}-boot{self.boots:03d}"
                        f"-{what.replace(' ', '-').replace('/', '')}.log")  # fmt: skip

    def refresh(self) -> None:
        """``--refresh-code``: the kept image gets this checkout's haleakala (a wheel built on
        the host: pure Python, the dependencies are the image's, unchanged) and its checkout
        under /home/pi/haleakala, installed by the agent in one boot, then a clean power-off.
        What a maker's update does, without the hour a fresh image costs under emulation."""
        out = self.share / "refresh"
        out.mkdir()
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "haleakala"
            self.vp.copy_checkout(src)
            with tarfile.open(out / "checkout.tar", "w") as tar:
                tar.add(src, arcname=".")
            built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                                    "-w", str(out), str(src)],
                                   capture_output=True, text=True)  # fmt: skip
        if built.returncode != 0:
            raise BootError(f"the wheel of this checkout could not be built: "
                            f"{built.stderr.strip()[-300:]}")  # fmt: skip
        say(f"  [{self.model}] installing this checkout into the kept image (one boot)...")
        m = self.machine({"mode": "refresh", "mask": list(IMAGE_MASKED)})
        if not m.wait_off(BOOT_TIMEOUT_S * 2):
            m.cut()
            raise BootError("the refresh boot did not power off")
        self.keep_log(m, "refresh")
        done = self.share / "refresh.json"
        if not done.exists():
            raise BootError(f"the refresh boot wrote no result (console tail: "
                            f"{m.console()[-500:]!r})")  # fmt: skip
        self.result["refresh"] = json.loads(done.read_text())
        if not self.result["refresh"].get("ok"):
            raise BootError(f"the refresh failed: {self.result['refresh'].get('problem')}")

    def build(self) -> None:
        if self.keep:
            say(f"  [{self.model}] the last run's disk image, as it was left (--keep-image)")
            return
        started = time.monotonic()
        self.result["image"] = model_image(self.vp, self.kroot, self.model, self.image)
        self.result["image_seconds"] = round(time.monotonic() - started)

    def checks(self) -> None:
        say(f"  [{self.model}] booting for the checks (TCG, {CPUS[self.model]})...")
        m = self.machine({"mode": "checks", "game_seed": self.args.seed + 100,
                          "cut_seed": self.args.seed + 200})  # fmt: skip
        ready = m.wait_for(DAEMON + "ready: ", BOOT_TIMEOUT_S, "the daemon's READY")
        ready_wall = time.monotonic() - m.started
        del ready
        if not m.wait_off(3600):
            m.cut()
            self.keep_log(m, "checks")
            raise BootError("the checks did not finish within an hour of emulated time")
        self.keep_log(m, "checks")
        checks = json.loads((self.share / "checks.json").read_text())
        game = checks["facts"].get("game")
        if game:
            ref = self.ledger.ref.digests("base", game["seed"])  # the config's variant
            game["reference_history"] = game.pop("acks") == ref[1:]
        checks["facts"]["boot"]["host_power_on_to_ready_s"] = round(ready_wall, 1)
        self.result["checks"] = checks
        for s in checks["steps"]:
            say(f"  [{self.model}] {'ok  ' if s['ok'] else 'FAIL'} {s['step']}"
                + (f": {s['problem']}" if not s["ok"] else ""))  # fmt: skip

    def cuts(self, count: int, readonly: int) -> None:
        """``count`` power cuts, then ``readonly`` emergency read-only cases, each followed
        by the boot that must resume the game."""
        records: list[dict] = []
        boot_times: list[dict] = []
        phases = ["decision", "start-up", "snapshot", "game over", "decision"]
        pending: dict | None = None
        for i in range(count + readonly + 1):
            ro = count <= i < count + readonly
            last = i == count + readonly
            moment = self.readonly_moment() if ro else {}
            m = self.machine({"mode": "readonly" if ro else "cuts", **moment})
            phase = "read-only" if ro else phases[i % len(phases)]
            try:
                killed_at = None if last else self.kill_when(m, phase, records)
                if last:
                    m.wait_for(r"(resumed|new) game ", BOOT_TIMEOUT_S, "the daemon's resume")
                    m.wait_for(DAEMON + "ready: ", BOOT_TIMEOUT_S, "READY")
                    m.cut()
            except BootError:
                m.cut()
                self.keep_log(m, "harness-error")
                raise
            seen = self.ledger.boot(self.boots, m.console())
            self.ledger_file.write_text(json.dumps(self.ledger.state()))
            self.keep_log(m, "last" if last else phase)
            state = self.share / f"boot-{self.boots}.json"
            if pending is not None:  # this boot shows how the previous cut was recovered
                pending["resumed_at"] = seen["resumed"]
                pending["new_game_seed"] = seen["new"]
                pending["guest_reboots"] = m.reboots  # fsck's "REBOOT SYSTEM" after repairs
                if state.exists():
                    disk = json.loads(state.read_text())
                    pending["fsck_log"] = disk.get("fsck_log")
                    pending["fs_state_after"] = disk.get("fs_state")
                records.append(pending)
                pending = None
            times = guest_times(m.console())
            boot_times.append(times)
            if not last:
                pending = {"boot": self.boots, "phase": self.phase_seen(seen, phase),
                           "cut_after_s": round(killed_at or 0, 1),
                           "last_ack_seen": self.ledger.last_ack, **moment, **times}  # fmt: skip
            say(f"  [{self.model}] boot {self.boots}: resumed at {seen['resumed']}, "
                f"{seen['acks']} acks, cut in '{pending['phase'] if pending else '-'}' "
                f"(problems so far: {len(self.ledger.problems)})")  # fmt: skip
        self.result["cuts"] = {
            "count": sum(r["phase"] != "read-only" for r in records),
            "readonly_count": sum(r["phase"] == "read-only" for r in records),
            "lost": [p for p in self.ledger.problems if "resumed at" in p
                     or "replaced" in p or "not " in p],
            "other_history": [p for p in self.ledger.problems if "history" in p],
            "problems": self.ledger.problems,
            "acks_checked": self.ledger.acks_checked,
            "by_phase": {p: sum(r["phase"] == p for r in records)
                         for p in sorted({r["phase"] for r in records})},
            "records": records,
            "boot_times": boot_times,
        }  # fmt: skip

    def readonly_moment(self) -> dict:
        """When the card fails in a read-only case: after a random number of acknowledged
        decisions, then a random fraction of a second more (the agent polls once a second),
        so the error lands at random moments of the daemon's write, fsync and ack (issue 35:
        an error inside an fsync lost an acknowledged decision; one fixed point missed it)."""
        return {"ro_after": self.rng.randint(1, 30),  # (a resumed game may be near its end)
                "ro_delay_s": round(self.rng.uniform(0.0, 1.0), 3)}  # fmt: skip

    @staticmethod
    def phase_seen(seen: dict, planned: str) -> str:
        if planned == "read-only":
            return planned
        if seen["over"]:
            return "game over / new game"
        if seen["resumed"] is None and seen["new"] is None:
            return "start-up"
        return planned if planned != "start-up" else "start-up (before READY)"

    def kill_when(self, m: Machine, phase: str, records: list) -> float:
        """Wait for the phase's moment, then cut the power; the seconds since power-on."""
        rng = self.rng
        if phase == "start-up":
            m.wait_for(DAEMON + "language: ", BOOT_TIMEOUT_S, "the daemon's start")
            time.sleep(rng.uniform(0.0, 3.0))
            return m.cut()
        if phase == "read-only":
            m.wait_for(r"game paused, the last decision is not saved yet", BOOT_TIMEOUT_S,
                       "the daemon's pause on the read-only card")  # fmt: skip
            time.sleep(rng.uniform(1.0, 3.0))
            return m.cut()
        m.wait_for(DAEMON + "ready: ", BOOT_TIMEOUT_S, "the daemon's READY")
        if phase == "game over":  # the finished game's exit, the agent's "new game" (its
            # journal and snapshot removed, the next seed written) and the new game's start
            end = time.monotonic() + GAME_OVER_WAIT_S
            while time.monotonic() < end:
                if "autoplay: game over" in m.console():
                    time.sleep(rng.uniform(0.0, 6.0))
                    return m.cut()
                time.sleep(0.05)
            return m.cut()  # not over in time: a decision cut (phase_seen says so)
        if phase == "snapshot":  # an ack after which a snapshot is due (every 20 records,
            # counted from the deal or from a recovery's fresh snapshot)
            start = len(m.console())
            resumed = RESUMED.search(m.console())
            since = int(resumed[4]) if resumed else 0
            end = time.monotonic() + 120
            while time.monotonic() < end:
                acks = [int(x) for x in re.findall(r"ack decision (\d+) ", m.console()[start:])]
                if any(a % 20 == 0 or (a - since) % 20 == 0 for a in acks):
                    time.sleep(rng.uniform(0.0, 0.3))
                    return m.cut()
                if "game over" in m.console()[start:]:
                    break
                time.sleep(0.05)
        delay = rng.uniform(0.5, 8.0)
        end = time.monotonic() + delay
        while time.monotonic() < end:
            if "autoplay: game over" in m.console():  # the moment of the next game's start
                time.sleep(rng.uniform(0.0, 4.0))
                break
            time.sleep(0.1)
        return m.cut()


# --------------------------------------------------------------------------- main


def main(vp: ModuleType, args: Any) -> int:
    started = time.monotonic()
    host_ready(vp)
    cold = not any(vp.CACHE.glob(f"boot-{kernel_key(vp)}/.complete"))
    try:
        base = vp.base_root(args.rebuild)
        kroot = kernel_root(vp, base)
    except (BootError, subprocess.CalledProcessError) as exc:
        say(f"virtual-pi boot: {exc}")
        return 1
    built = time.monotonic() - started
    say(f"kernel root ready: {kroot} ({built:.0f} s, {'built now' if cold else 'cached'})")
    results = []
    ok = True
    for model in args.model or ["pi4", "pi5"]:
        say(f"{model} (booted, TCG):")
        run = ModelRun(vp, kroot, model, args)
        t0 = time.monotonic()
        try:
            run.build()
            run.result["build_seconds"] = round(time.monotonic() - t0)
            if args.refresh_code and run.keep:
                run.refresh()
            if not args.skip_checks:
                run.checks()
            t1 = time.monotonic()
            run.cuts(args.cuts, args.readonly)
            run.result["cut_seconds"] = round(time.monotonic() - t1)
        except BootError as exc:
            run.result["error"] = str(exc)
            say(f"  [{model}] {exc}")
        run.result["seconds"] = round(time.monotonic() - t0)
        steps = run.result.get("checks", {}).get("steps", [])
        cuts = run.result.get("cuts", {})
        run.result["ok"] = ("error" not in run.result and all(s["ok"] for s in steps)
                            and not cuts.get("problems")
                            and (args.skip_checks or bool(steps)))  # fmt: skip
        ok &= run.result["ok"]
        results.append(run.result)
        say(f"{model}: {'ok' if run.result['ok'] else 'FAILED'}, {cuts.get('count', 0)} cuts "
            f"+ {cuts.get('readonly_count', 0)} read-only, problems "
            f"{len(cuts.get('problems', []))}, {run.result['seconds']} s")  # fmt: skip
    total = time.monotonic() - started
    summary = {"cold": cold, "kernel_root_seconds": round(built), "total_seconds": round(total),
               "accel": "tcg", "models": results}  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1))
    if getattr(args, "evidence", None):
        stamp = time.strftime("%H%M%S", time.gmtime())
        (Path(args.evidence) / f"results-{stamp}.json").write_text(json.dumps(summary, indent=1))
    say(f"total {total:.0f} s ({'cold' if cold else 'warm'} cache)")
    return 0 if ok else 1
