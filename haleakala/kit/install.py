"""``haleakala install`` / ``haleakala uninstall``: the kit on Raspberry Pi OS Bookworm, in one
idempotent command.

What ``install`` makes true (each step checks first, so a second run says "nothing to do"):

1. the Debian packages the venv builds on (a compiler and headers: rpi_ws281x is a source
   distribution; nothing pip installs again, so no python3-pil; lgpio and gpiod come from PyPI
   because Debian has no python3-lgpio and its python3-libgpiod is too old for Blinka);
2. I2C and SPI on, in a marked block at the end of ``/boot/firmware/config.txt`` (plus the
   fixed core clock the SPI LED driver needs on a Pi 3/4, and the I2S amplifier's overlay
   when ``[speech] speaker = "i2s"``), and ``i2c-dev`` loaded at boot;
3. the groups ``gpio spi i2c dialout audio`` and the service user ``haleakala`` in them;
4. the first release (``kit.releases``): its own venv with ``--system-site-packages`` and the
   model's extra (``[pi5]`` or ``[pi]``, ``remote`` added while ``[remote]`` is enabled);
   new code or another model is an update (``kit.update``), and ``/usr/local/bin/haleakala``;
5. before any of it, the checks that would leave a half-installed kit (a supported Pi, a
   config naming that model): each refusal is one sentence naming the fix.
6. ``/etc/haleakala/config.toml`` from ``hw/config.example.toml`` with this Pi's model —
   never overwritten;
7. the udev rules and ``haleakala.service`` from the checkout's ``systemd/``, the unit enabled;
8. while ``[remote]`` is enabled, ``systemd/remote.conf`` as the unit's drop-in (the unit
   has no network otherwise), removed again when it is disabled;
9. the card written only when a game changes (``kit.card``): the system log in RAM (a
   journald drop-in) and ``lazytime`` on the ext4 root in ``/etc/fstab``.

Explicit modes and umask 022: a shell with ``umask 000`` leaves nothing world-writable.

The model comes from ``/proc/device-tree/model`` (test-only: ``HALEAKALA_TEST_PI_MODEL=pi4``
stands in for it in the virtual Pi, which has no device tree).

``uninstall`` undoes 2, 4, 7, 8 and the journald drop-in (``lazytime`` stays: harmless),
keeps the config, the state and the user unless ``--purge``, and Debian's packages.

``--root DIR`` installs into a sandbox: files are written under DIR, every command is
recorded in ``DIR/var/log/haleakala-install.log`` instead of being run, and leaves the trace
the real one would (a line in ``etc/passwd``, a ``pyvenv.cfg``, a ``.wants`` link...), so a
second run sees the first one's work as on a Pi. ``--dry-run`` changes nothing anywhere.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import shlex
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from haleakala import config as cfg
from haleakala.cli import UsageError
from haleakala.kit import releases as R
from haleakala.kit.builder import Builder
from haleakala.kit.card import JOURNALD_DROPIN, card_writes
from haleakala.kit.common import REPO_ROOT
from haleakala.kit.service_health import Systemd
from haleakala.kit.sources import check_checkout
from haleakala.kit.system import (
    APT_PACKAGES,
    BLOCK_BEGIN,
    BOOT_CONFIGS,
    COMMAND_LINK,
    CONFIG,
    DEVICE_MODEL,
    GROUPS,
    MODEL_NAMES,
    MODULES_LOAD,
    PREFIX,
    STATE,
    SYSTEMD_RUNNING,
    TEST_MODEL_ENV,
    UDEV_CONTROL,
    UDEV_DIR,
    UNIT_DIR,
    UNIT_NAME,
    USER,
    VENV,
    InstallError,
    boot_block,
    installed_packages,
    kit_extra,
    make_dirs,
    read_groups,
    read_users,
    runner_for,
    source_version,
    strip_block,
    wanted_by,
)
from haleakala.kit.update import Updater

# --------------------------------------------------------------------------- the installer

REMOTE_DROPIN = UNIT_DIR / f"{UNIT_NAME}.d" / "remote.conf"


@dataclass
class Installer:
    root: Path
    source: Path
    dry_run: bool = False
    say: Callable[[str], None] = print
    changes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.sandbox = self.root.resolve() != Path("/")
        self.version = source_version(self.source)
        self.runner = runner_for(self.root, self.say, self.version)
        self.unit_was: str | None = None

    # -- helpers

    def p(self, path: PurePosixPath) -> Path:
        return self.root / path.relative_to("/")

    def change(
        self, text: str, action: Callable[[], None] | None = None, *, plan: str | None = None
    ) -> None:
        """Make a change and say ``+ text`` (what was done); ``--dry-run``: only say
        ``would plan`` (what would be done, "write X", not "wrote X")."""
        self.changes.append(text)
        if self.dry_run:
            self.say(f"would {plan or text}")
            return
        if action is not None:
            action()
        self.say(f"+ {text}")

    def command(self, text: str, *argvs: Sequence[str], plan: str) -> None:
        """Run ``argvs`` and say ``+ text``; ``--dry-run``: say ``would plan`` and the
        commands."""

        def run() -> None:
            for argv in argvs:
                self.runner.run(argv)

        self.changes.append(text)
        if self.dry_run:
            self.say(f"would {plan}")
            for argv in argvs:
                self.say(f"  $ {shlex.join(argv)}")
            return
        self.say(f"+ {text}")
        run()

    def write(self, path: PurePosixPath, data: bytes, what: str, mode: int = 0o644) -> bool:
        target = self.p(path)
        if target.is_file() and target.read_bytes() == data:
            return False

        def do() -> None:
            make_dirs(target.parent)
            tmp = target.with_name(target.name + ".haleakala-tmp")
            tmp.write_bytes(data)
            tmp.chmod(mode)
            tmp.replace(target)

        done, plan = ("updated", "update") if target.exists() else ("wrote", "write")
        self.change(f"{done} {path} ({what})", do, plan=f"{plan} {path} ({what})")
        return True

    def remove(self, path: PurePosixPath, what: str) -> bool:
        target = self.p(path)
        if not (target.exists() or target.is_symlink()):
            return False

        def do() -> None:
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            else:
                target.unlink()

        self.change(f"removed {path} ({what})", do, plan=f"remove {path} ({what})")
        return True

    def kit_config(self) -> cfg.Config:
        """The config in effect after install: the existing file, else the example."""
        path = self.p(CONFIG)
        if not path.is_file():
            path = self.source / "hw" / "config.example.toml"
        try:
            return cfg.load(path)
        except cfg.ConfigError as exc:
            raise UsageError(
                f"{path}: {exc.problems[0]}; fix it first (haleakala config check --config {path})"
            ) from None

    def running(self, daemon: str, marker: PurePosixPath) -> bool:
        """Is ``daemon`` running here? Not in a chroot or an image being built: then its
        reload is skipped (it reads the files when it starts) instead of failing. The sandbox
        records the reload as on a Pi."""
        if self.sandbox or self.p(marker).exists():
            return True
        self.say(f"= {daemon} is not running here (a chroot or an image): no reload needed")
        return False

    def boot_config(self) -> PurePosixPath | None:
        return next((p for p in BOOT_CONFIGS if self.p(p).is_file()), None)

    # -- install

    def install(self) -> list[str]:
        config = self.preflight()
        old_umask = os.umask(0o022)
        try:
            self.apt()
            self.enable_buses(config)
            self.user_and_groups()
            self.release_check()
            self.release(config)
            self.command_link()
            self.config_file(config.model)
            self.udev_and_unit()
            self.remote_dropin(config)
            self.card_writes()
        finally:
            os.umask(old_umask)
        if not self.changes:
            self.say("nothing to do: the kit is installed")
        elif not self.dry_run:
            self.say(
                "installed. Reboot if I2C/SPI were just enabled, then: sudo haleakala selftest "
                "--hardware pi; sudo systemctl start haleakala"
            )
        return self.changes

    def board(self) -> tuple[str, str] | None:
        """(what the device tree says, our model name), or None on a machine that is not a
        Raspberry Pi. Raises UsageError for a Pi the kit does not support."""
        override = os.environ.get(TEST_MODEL_ENV)
        if override:
            if override not in cfg.MODELS:
                raise UsageError(
                    f"${TEST_MODEL_ENV}={override!r} is not a model: use one of "
                    f"{', '.join(cfg.MODELS)} (or unset it on a real Pi)"
                )
            return f"{override} (${TEST_MODEL_ENV}, test only)", override
        path = self.p(DEVICE_MODEL)
        text = path.read_bytes().decode(errors="replace").strip("\0\n ") if path.is_file() else ""
        if not text.startswith("Raspberry Pi"):
            return None
        # Longest prefix first: "Raspberry Pi 400" before "Raspberry Pi 4".
        for prefix in sorted(MODEL_NAMES, key=len, reverse=True):
            if text.startswith(prefix):
                return text, MODEL_NAMES[prefix]
        raise UsageError(
            f"this is a {text}, which the kit does not support: it runs on a Raspberry Pi "
            "Zero 2 W, 3, 4 or 5"
        )

    def preflight(self) -> cfg.Config:
        """Everything that would stop the install half-way is checked before the first change."""
        config = self.kit_config()
        board = self.board()
        if board is None:
            if not (self.sandbox or self.dry_run):
                raise UsageError(
                    f"this machine is not a Raspberry Pi ({DEVICE_MODEL} does not say so): "
                    "install on the Pi itself, or see the plan with --dry-run, or try it in a "
                    "sandbox with --root DIR"
                )
        else:
            text, model = board
            if self.p(CONFIG).is_file() and config.model != model:
                raise UsageError(
                    f"this is a {text} but {CONFIG} says model = {config.model!r}: set "
                    f'model = "{model}" there, then run install again'
                )
            if not self.p(CONFIG).is_file():
                config = dataclasses.replace(config, model=model)
        pyvenv = self.p(VENV / "pyvenv.cfg")
        if pyvenv.is_file() and not re.search(
            r"include-system-site-packages\s*=\s*true", pyvenv.read_text(encoding="utf-8")
        ):
            raise UsageError(
                f"{VENV} was made without --system-site-packages: remove it (sudo rm -rf "
                f"{VENV}) and run install again, which makes it right"
            )
        return config

    def apt(self) -> None:
        missing = [p for p in APT_PACKAGES if p not in installed_packages(self.root)]
        if missing:
            self.command(
                f"apt packages {' '.join(missing)}",
                ["apt-get", "update"],
                ["apt-get", "install", "-y", "--no-install-recommends", *missing],
                plan=f"install the apt packages {' '.join(missing)}",
            )

    def enable_buses(self, config: cfg.Config) -> None:
        boot = self.boot_config()
        if boot is None:
            self.say(
                f"warning: no {BOOT_CONFIGS[0]} (not Raspberry Pi OS?): enable I2C and SPI "
                "yourself (raspi-config, Interface Options)"
            )
        else:
            text = self.p(boot).read_text(encoding="utf-8")
            block = boot_block(config.model, config.pins.led_data, config.speech.speaker)
            base = strip_block(text)
            wanted = base.rstrip("\n") + "\n\n" + block
            if text != wanted:
                self.write(boot, wanted.encode(), "I2C and SPI on; reboot to apply")
        self.write(MODULES_LOAD, b"i2c-dev\n", "/dev/i2c-* for the OLED")

    def user_and_groups(self) -> None:
        groups = read_groups(self.root)
        for group in GROUPS:
            if group not in groups:
                self.command(
                    f"group {group}", ["groupadd", "--system", group], plan=f"add group {group}"
                )
        if USER not in read_users(self.root):
            self.command(
                f"service user {USER}",
                [
                    "useradd", "--system", "--user-group", "--home-dir", str(STATE),
                    "--no-create-home", "--shell", "/usr/sbin/nologin",
                    "--comment", "Haleakala Companion", USER,
                ],
                plan=f"add the service user {USER}",
            )  # fmt: skip
        groups = read_groups(self.root)
        lacking = [g for g in GROUPS if USER not in groups.get(g, [])]
        if lacking:
            self.command(
                f"{USER} in groups {' '.join(lacking)}",
                ["usermod", "--append", "--groups", ",".join(lacking), USER],
                plan=f"add {USER} to the groups {' '.join(lacking)}",
            )

    def release(self, config: cfg.Config) -> None:
        """The venv as a release beside any other (``haleakala.kit.releases``): a kit of the
        old layout is moved into one first; a first install builds one and switches to it;
        new code (or a model change, which needs another extra) is an update: built beside,
        checked, switched, and, where the service runs, kept only if it resumes the game."""
        layout = R.Layout(self.root)
        extra = kit_extra(config)
        if layout.legacy():
            unit = self.p(UNIT_DIR / UNIT_NAME)
            text = unit.read_bytes() if unit.is_file() and not unit.is_symlink() else None

            def move() -> None:
                R.migrate(layout, text, self.say)

            self.change("moved the venv into a release of the new layout (/opt/haleakala/"
                        "releases, current, previous)", move,
                        plan="move /opt/haleakala/venv into /opt/haleakala/releases")  # fmt: skip
            if self.dry_run:
                return
        source = check_checkout(self.source)
        name = R.release_name(source.name, extra)
        current = layout.current()
        manifest = layout.manifest(current) if current else None
        if manifest is not None and (manifest.get("digest"), manifest.get("extra")) == (
            source.digest,
            extra,
        ):
            return
        if current is None:

            def first() -> None:
                built = Builder(layout, self.runner, self.say).build(source, extra, online=True)
                R.switch(layout, built)

            self.change(f"release {name} (haleakala-companion {self.version} [{extra}], its "
                        f"venv with system site packages) in {R.PREFIX}/{R.RELEASES}",
                        first, plan=f"build release {name} [{extra}] and switch to it")  # fmt: skip
            return
        self.changes.append(f"update to release {name}")
        if self.dry_run:
            self.say(f"would update release {current} to {name} [{extra}] (haleakala update)")
            return
        updater = Updater(layout, self.runner, Systemd(self.root, self.say), self.say)
        if updater.update(source, online=True) != 0:
            raise InstallError(f"the update to release {name} did not happen (see above)")

    def command_link(self) -> None:
        """``haleakala`` on the PATH: /usr/local/bin/haleakala links to the venv's command
        (a file of someone else's there is kept, and said)."""
        link, target = self.p(COMMAND_LINK), VENV / "bin" / "haleakala"
        if link.is_symlink() and PurePosixPath(os.readlink(link)) == target:
            return
        if link.exists() or link.is_symlink():
            self.say(f"= kept {COMMAND_LINK} (not ours: run {target} instead)")
            return

        def do() -> None:
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(target)

        self.change(
            f"linked {COMMAND_LINK} -> {target}", do, plan=f"link {COMMAND_LINK} -> {target}"
        )

    def config_file(self, model: str) -> None:
        if self.p(CONFIG).exists():
            self.say(f"= kept {CONFIG} (never overwritten)")
            return
        text = (self.source / "hw" / "config.example.toml").read_text(encoding="utf-8")
        text = re.sub(r'^model = "[^"]*"', f'model = "{model}"', text, count=1, flags=re.M)
        self.write(CONFIG, text.encode(), f"from hw/config.example.toml, model {model}: edit it")

    def udev_and_unit(self) -> None:
        rules = sorted((self.source / "systemd").glob("*.rules"))
        changed = [
            self.write(UDEV_DIR / rule.name, rule.read_bytes(), "udev rule") for rule in rules
        ]
        if any(changed) and self.running("udev", UDEV_CONTROL):
            self.command(
                "udev rules reloaded",
                ["udevadm", "control", "--reload-rules"],
                ["udevadm", "trigger"],
                plan="reload the udev rules",
            )
        unit = self.p(UNIT_DIR / UNIT_NAME)
        linked = unit.is_symlink() and os.readlink(unit) == str(R.UNIT_TARGET)
        if (
            linked
            and self.unit_was != str(R.UNIT_TARGET)
            and self.running("systemd", SYSTEMD_RUNNING)
        ):
            self.command("systemd reloaded", ["systemctl", "daemon-reload"], plan="reload systemd")
        unit_text = (self.source / "systemd" / UNIT_NAME).read_bytes()
        self.enable(UNIT_NAME, wanted_by(unit_text.decode()))

    def enable(self, unit: str, target: str) -> None:
        if not self.p(UNIT_DIR / f"{target}.wants" / unit).is_symlink():
            self.command(f"{unit} enabled", ["systemctl", "enable", unit], plan=f"enable {unit}")

    def release_check(self) -> None:
        """The boot-time release check (its unit and its copy of ``releases.py``), before
        anything moves: a cut in the middle of the migration below is finished by it."""
        unit = self.p(UNIT_DIR / UNIT_NAME)
        self.unit_was = os.readlink(unit) if unit.is_symlink() else None
        script = Path(R.__file__).read_bytes()
        self.write(R.PREFIX / R.CHECK_SCRIPT, script, "the boot-time release check", 0o755)
        text = (self.source / "systemd" / R.CHECK_UNIT).read_bytes()
        if self.write(UNIT_DIR / R.CHECK_UNIT, text, "systemd unit") and self.running(
            "systemd", SYSTEMD_RUNNING
        ):
            self.command("systemd reloaded", ["systemctl", "daemon-reload"], plan="reload systemd")
        self.enable(R.CHECK_UNIT, wanted_by(text.decode()))

    def remote_dropin(self, config: cfg.Config) -> None:
        """The network for remote play, only while ``[remote]`` is enabled in the config:
        ``systemd/remote.conf`` as a drop-in of the unit (which has ``PrivateNetwork=yes``),
        written when it is on, removed when it is off."""
        target = REMOTE_DROPIN
        if config.remote.enabled:
            text = (self.source / "systemd" / REMOTE_DROPIN.name).read_bytes()
            changed = self.write(target, text, "the network for remote play ([remote] enabled)")
        elif self.p(target).exists():
            changed = self.remove(target, "the network for remote play ([remote] is off)")
        else:
            changed = False
        if changed and self.running("systemd", SYSTEMD_RUNNING):
            self.command("systemd reloaded", ["systemctl", "daemon-reload"], plan="reload systemd")

    def card_writes(self) -> None:
        """The system log in RAM and lazy file times on the root (why: ``kit.card``)."""
        card_writes(self, SYSTEMD_RUNNING)

    # -- uninstall

    def uninstall(self, purge: bool = False) -> list[str]:
        units = self.p(UNIT_DIR)
        # Not glob("*.wants/NAME"): it skips a link whose target is already gone.
        wants = [d / UNIT_NAME for d in units.glob("*.wants") if (d / UNIT_NAME).is_symlink()]
        if wants:
            self.command(
                f"{UNIT_NAME} stopped and disabled",
                ["systemctl", "disable", "--now", UNIT_NAME],
                plan=f"stop and disable {UNIT_NAME}",
            )
        check_wanted = self.p(UNIT_DIR / "multi-user.target.wants" / R.CHECK_UNIT)
        if check_wanted.is_symlink():
            self.command(f"{R.CHECK_UNIT} disabled", ["systemctl", "disable", R.CHECK_UNIT],
                         plan=f"disable {R.CHECK_UNIT}")  # fmt: skip
        self.remove(UNIT_DIR / R.CHECK_UNIT, "the boot-time release check")
        self.remove(REMOTE_DROPIN, "the network for remote play")
        if self.remove(UNIT_DIR / UNIT_NAME, "systemd unit") and self.running(
            "systemd", SYSTEMD_RUNNING
        ):
            self.command("systemd reloaded", ["systemctl", "daemon-reload"], plan="reload systemd")
        names = {r.name for r in (self.source / "systemd").glob("*.rules")}
        if self.p(UDEV_DIR).is_dir():
            names |= {r.name for r in self.p(UDEV_DIR).glob("99-haleakala-*.rules")}
        removed = [self.remove(UDEV_DIR / name, "udev rule") for name in sorted(names)]
        if any(removed) and self.running("udev", UDEV_CONTROL):
            self.command(
                "udev rules reloaded",
                ["udevadm", "control", "--reload-rules"],
                plan="reload the udev rules",
            )
        self.remove(MODULES_LOAD, "i2c-dev at boot")
        if self.remove(JOURNALD_DROPIN, "the system log in RAM") and self.running(
            "systemd-journald", SYSTEMD_RUNNING
        ):
            self.command(
                "systemd-journald restarted",
                ["systemctl", "restart", "systemd-journald"],
                plan="restart systemd-journald",
            )
        boot = self.boot_config()
        if boot is not None:
            text = self.p(boot).read_text(encoding="utf-8")
            if BLOCK_BEGIN in text:
                self.write(boot, strip_block(text).encode(), "the haleakala block removed")
        link = self.p(COMMAND_LINK)
        if link.is_symlink() and PurePosixPath(os.readlink(link)) == VENV / "bin" / "haleakala":
            self.remove(COMMAND_LINK, "the haleakala command on the PATH")
        self.remove(PREFIX, "the releases and their venvs")
        if purge:
            self.remove(CONFIG.parent, "the config")
            self.remove(STATE, "the journal and saved games")
            if USER in read_users(self.root):
                self.command(f"user {USER} removed", ["userdel", USER], plan=f"remove user {USER}")
        else:
            kept = [str(p) for p in (CONFIG, STATE) if self.p(p).exists()]
            if USER in read_users(self.root):
                kept.append(f"user {USER}")
            if kept:
                self.say(f"= kept {', '.join(kept)} (--purge deletes them)")
        if not self.changes:
            self.say("nothing to do: the kit is not installed")
        return self.changes


# --------------------------------------------------------------------------- the commands


def _installer(args: argparse.Namespace) -> Installer:
    root = Path(args.root)
    source = Path(args.source)
    for need in ("pyproject.toml", "systemd/haleakala.service", "hw/config.example.toml"):
        if not (source / need).is_file():
            raise UsageError(
                f"{source} has no {need}: run from a checkout of the repository, or give "
                "--source DIR"
            )
    sandbox = root.resolve() != Path("/")
    if sandbox and not root.is_dir():
        raise UsageError(f"--root {root} is not a directory: create it first")
    if not sandbox and not args.dry_run and hasattr(os, "geteuid") and os.geteuid() != 0:
        raise UsageError(
            f"{args.command} changes /etc, /opt and /boot: run it with sudo "
            "(or --dry-run to see what it would do, or --root DIR to try it in a sandbox)"
        )
    return Installer(root=root, source=source, dry_run=args.dry_run)


def add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--root",
        metavar="DIR",
        default="/",
        help="install into DIR and record commands instead of running them (default /)",
    )
    parser.add_argument("--dry-run", action="store_true", help="change nothing, print the plan")
    parser.add_argument(
        "--source",
        metavar="DIR",
        default=str(REPO_ROOT),
        help="the repository checkout to install from (default: this one)",
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "install",
        help="install the kit on Raspberry Pi OS Bookworm (idempotent)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_common(parser)
    parser.set_defaults(func=run_install)


def run_install(args: argparse.Namespace) -> int:
    try:
        _installer(args).install()
    except InstallError as exc:
        print(f"haleakala install: {exc}; fix it and run again (finished steps are kept)",
              file=sys.stderr)  # fmt: skip
        return 1
    return 0


def run_uninstall(args: argparse.Namespace) -> int:
    try:
        _installer(args).uninstall(purge=args.purge)
    except InstallError as exc:
        print(f"haleakala uninstall: {exc}", file=sys.stderr)
        return 1
    return 0
