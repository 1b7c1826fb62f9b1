"""The machine ``haleakala install`` works on: where things go, the system files it reads
and edits (groups, users, dpkg's status, the boot config block), and the two command runners:
``SystemRunner`` for real, ``SandboxRunner`` recording under a root so the installer's tests
and ``--root`` dry runs leave a trace instead of changing the machine."""

from __future__ import annotations

import hashlib
import re
import shlex
import subprocess
import tomllib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path, PurePosixPath

from haleakala import config as cfg

PREFIX = PurePosixPath("/opt/haleakala")
VENV = PREFIX / "venv"
COMMAND_LINK = PurePosixPath("/usr/local/bin/haleakala")
"""The command on every user's PATH: a link to the venv's, so the docs' commands run as
written (``haleakala config check``, ``sudo haleakala selftest``)."""
CONFIG = PurePosixPath("/etc/haleakala/config.toml")
STATE = PurePosixPath("/var/lib/haleakala")
UNIT_NAME = "haleakala.service"
UNIT_DIR = PurePosixPath("/etc/systemd/system")
UDEV_DIR = PurePosixPath("/etc/udev/rules.d")
MODULES_LOAD = PurePosixPath("/etc/modules-load.d/haleakala.conf")
BOOT_CONFIGS = (PurePosixPath("/boot/firmware/config.txt"), PurePosixPath("/boot/config.txt"))
DPKG_STATUS = PurePosixPath("/var/lib/dpkg/status")
PASSWD = PurePosixPath("/etc/passwd")
GROUP = PurePosixPath("/etc/group")
DEVICE_MODEL = PurePosixPath("/proc/device-tree/model")
LOG = PurePosixPath("/var/log/haleakala-install.log")
SYSTEMD_RUNNING = PurePosixPath("/run/systemd/system")
"""sd_booted(3): this directory exists exactly when systemd is PID 1."""
UDEV_CONTROL = PurePosixPath("/run/udev/control")
"""systemd-udevd's control socket: ``udevadm control`` needs it."""
SOURCE_STAMP = PREFIX / "installed-source.sha256"

USER = "haleakala"
GROUPS = ("gpio", "spi", "i2c", "dialout", "audio")
APT_PACKAGES = (
    "python3-venv", "python3-dev", "gcc", "libc6-dev", "i2c-tools", "espeak-ng", "alsa-utils",
)  # fmt: skip
"""python3-dev, gcc, libc6-dev: rpi_ws281x (and sysv_ipc, Blinka's) come as source and build a
C extension; i2c-tools: i2cdetect for the OLED. All from Debian: Raspberry Pi OS's own archive
is not needed. No python3- package that pip would install again (Pillow: Debian's 9.4 is older
than the project's lower bound). espeak-ng: the companion's voice (English, German, French);
alsa-utils: aplay, which plays it on the loudspeaker (``hal.audio.AlsaAudio``)."""
TEST_MODEL_ENV = "HALEAKALA_TEST_PI_MODEL"
DIR_MODE = 0o755
BLOCK_BEGIN = "# >>> haleakala: added by 'haleakala install', removed by 'haleakala uninstall'"
BLOCK_END = "# <<< haleakala"
CORE_CLOCK = {
    "pi3": ("core_freq=250",),
    "zero2w": ("core_freq=250",),
    "pi4": ("core_freq=500", "core_freq_min=500"),
}
"""The SPI LED driver times WS2812 bits from the SPI clock, which follows the GPU core clock:
it must not scale (rpi_ws281x's README). A Pi 5 drives the LEDs through PIO instead."""
MODEL_NAMES = {
    "Raspberry Pi 5": "pi5",
    "Raspberry Pi 500": "pi5",
    "Raspberry Pi 4": "pi4",
    "Raspberry Pi 400": "pi4",
    "Raspberry Pi 3": "pi3",
    "Raspberry Pi Zero 2": "zero2w",
}


def pip_extra(model: str) -> str:
    """The extra of haleakala-companion that carries this model's platform libraries."""
    return "pi5" if model == "pi5" else "pi"


def kit_extra(config: cfg.Config) -> str:
    """The extras a release of this kit is built with: the model's, and ``remote`` while
    remote play is enabled in the config (an update keeps what the install chose)."""
    return pip_extra(config.model) + (",remote" if config.remote.enabled else "")


def make_dirs(path: Path, mode: int = DIR_MODE) -> None:
    """``mkdir -p`` with an explicit mode on every directory it creates (umask-proof)."""
    missing = []
    while not path.exists():
        missing.append(path)
        path = path.parent
    for directory in reversed(missing):
        directory.mkdir()
        directory.chmod(mode)


class InstallError(RuntimeError):
    """A command failed: names it and its exit status."""


# --------------------------------------------------------------------------- runners


class SystemRunner:
    """Runs commands for real (root is /)."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say

    def capture(self, argv: Sequence[str], timeout: float | None = None) -> tuple[int, str]:
        """Run ``argv`` and return its exit status and output (stdout and stderr together):
        for the checks, whose words the updater repeats when they fail. 127: not found."""
        self.say(f"$ {shlex.join(argv)}")
        try:
            done = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout,
                                  errors="replace")  # fmt: skip
        except FileNotFoundError:
            return 127, f"{argv[0]}: not found"
        except subprocess.TimeoutExpired:
            return 124, f"{shlex.join(argv)}: no answer within {timeout:.0f} s"
        return done.returncode, done.stdout + done.stderr

    def run(self, argv: Sequence[str]) -> None:
        self.say(f"$ {shlex.join(argv)}")
        try:
            subprocess.run(list(argv), check=True)
        except FileNotFoundError:
            raise InstallError(
                f"{argv[0]} is not installed (needed for: {shlex.join(argv)})"
            ) from None
        except subprocess.CalledProcessError as exc:
            raise InstallError(
                f"'{shlex.join(argv)}' failed with exit status {exc.returncode}"
            ) from None


class SandboxRunner:
    """Records commands instead of running them, and leaves their trace under the root."""

    def __init__(self, root: Path, say: Callable[[str], None], version: str) -> None:
        self.root = root
        self.say = say
        self.version = version
        self.log = root / LOG.relative_to("/")

    def p(self, path: PurePosixPath | str) -> Path:
        return self.root / PurePosixPath(path).relative_to("/")

    def run(self, argv: Sequence[str]) -> None:
        self.say(f"$ {shlex.join(argv)}  (recorded)")
        make_dirs(self.log.parent)
        with self.log.open("a", encoding="utf-8") as log:
            log.write(shlex.join(argv).replace("\n", "\\n") + "\n")  # one line each
        self._trace(list(argv))

    def capture(self, argv: Sequence[str], timeout: float | None = None) -> tuple[int, str]:
        """Recorded like ``run``; the answer is a success with no words."""
        self.run(argv)
        return 0, ""

    def _append(self, path: PurePosixPath, text: str) -> None:
        target = self.p(path)
        make_dirs(target.parent)
        with target.open("a", encoding="utf-8") as f:
            f.write(text)

    def _trace(self, argv: list[str]) -> None:
        name = argv[0]
        if name == "apt-get" and "install" in argv:
            for package in (a for a in argv[argv.index("install") + 1 :] if a[0] != "-"):
                self._append(DPKG_STATUS, f"Package: {package}\nStatus: install ok installed\n\n")
        elif name == "groupadd":
            self._append(GROUP, f"{argv[-1]}:x:{900 + len(read_groups(self.root))}:\n")
        elif name == "useradd":
            uid = 800 + len(read_users(self.root))
            self._append(PASSWD, f"{argv[-1]}:x:{uid}:{uid}::{STATE}:/usr/sbin/nologin\n")
            self._append(GROUP, f"{argv[-1]}:x:{uid}:\n")
        elif name == "usermod":
            groups = argv[argv.index("--groups") + 1].split(",")
            edit_group_members(self.root, argv[-1], add=groups)
        elif name == "userdel":
            edit_group_members(self.root, argv[-1], remove_all=True)
            _drop_lines(self.p(PASSWD), argv[-1])
            _drop_lines(self.p(GROUP), argv[-1])
        elif argv[1:3] == ["-m", "venv"]:
            venv = self.p(argv[-1])
            make_dirs(venv / "bin")
            (venv / "pyvenv.cfg").write_text("include-system-site-packages = true\n")
        elif name.endswith("/bin/python") and "wheel" in argv and "--no-deps" in argv:
            dist = self.p(argv[argv.index("--wheel-dir") + 1])
            make_dirs(dist)
            (dist / f"haleakala_companion-{self.version}-py3-none-any.whl").write_bytes(b"")
        elif name.endswith(("/bin/pip", "/bin/python")) and "install" in argv[:5]:
            site = self.p(PurePosixPath(name).parent.parent) / "lib" / "python3" / "site-packages"
            info = site / f"haleakala_companion-{self.version}.dist-info"
            make_dirs(info)
            (info / "METADATA").write_text(f"Name: haleakala-companion\nVersion: {self.version}\n")
        elif name == "systemctl" and argv[1] in ("enable", "disable"):
            link = self.p(UNIT_DIR / "multi-user.target.wants" / argv[-1])
            if argv[1] == "enable":
                make_dirs(link.parent)
                if not link.is_symlink():
                    link.symlink_to(UNIT_DIR / argv[-1])
            elif link.is_symlink():
                link.unlink()


def _drop_lines(path: Path, name: str) -> None:
    if path.is_file():
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        path.write_text("".join(line for line in lines if not line.startswith(f"{name}:")))


def runner_for(
    root: Path, say: Callable[[str], None] = print, version: str | None = None
) -> SystemRunner | SandboxRunner:
    """For real on ``/``; recorded (with the traces a real run leaves) under a sandbox."""
    if root.resolve() == Path("/"):
        return SystemRunner(say)
    repo = Path(__file__).resolve().parents[2]
    return SandboxRunner(root, say, version or source_version(repo))


# --------------------------------------------------------------------------- system state


def read_groups(root: Path) -> dict[str, list[str]]:
    path = root / GROUP.relative_to("/")
    groups: dict[str, list[str]] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            parts = line.split(":")
            if len(parts) >= 4:
                groups[parts[0]] = [m for m in parts[3].split(",") if m]
    return groups


def read_users(root: Path) -> list[str]:
    path = root / PASSWD.relative_to("/")
    if not path.is_file():
        return []
    return [line.split(":", 1)[0] for line in path.read_text(encoding="utf-8").splitlines()]


def edit_group_members(
    root: Path, user: str, add: Iterable[str] = (), remove_all: bool = False
) -> None:
    path = root / GROUP.relative_to("/")
    wanted = set(add)
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split(":")
        if len(parts) >= 4:
            members = [m for m in parts[3].split(",") if m and m != user]
            if parts[0] in wanted and not remove_all:
                members.append(user)
            parts[3] = ",".join(members)
        lines.append(":".join(parts))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def installed_packages(root: Path) -> set[str]:
    path = root / DPKG_STATUS.relative_to("/")
    if not path.is_file():
        return set()
    installed = set()
    for stanza in path.read_text(encoding="utf-8", errors="replace").split("\n\n"):
        name = re.search(r"^Package: (\S+)", stanza, re.M)
        status = re.search(r"^Status: .* installed$", stanza, re.M)
        if name and status:
            installed.add(name.group(1))
    return installed


def wanted_by(unit_text: str) -> str:
    match = re.search(r"^WantedBy=(\S+)", unit_text, re.M)
    return match.group(1) if match else "multi-user.target"


def source_version(source: Path) -> str:
    """The version pip will install: the checkout's pyproject.toml, not the running code."""
    try:
        with (source / "pyproject.toml").open("rb") as f:
            return str(tomllib.load(f)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def source_digest(source: Path) -> str:
    """What is installed into the venv: the package sources and the project file."""
    digest = hashlib.sha256()
    files = [*sorted((source / "haleakala").rglob("*")), source / "pyproject.toml"]
    for path in files:
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(source)).encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


I2S_SPEAKER = ("dtparam=i2s=on", "dtoverlay=max98357a,no-sdmode")
"""The MAX98357A amplifier on the Pi's I2S pins (GPIO 18, 19, 21), always on: its SD pin is
tied high on the breakout, so no GPIO switches it."""


def boot_block(model: str, led_data: int, speaker: str = "usb") -> str:
    lines = [BLOCK_BEGIN, "[all]", "dtparam=i2c_arm=on", "dtparam=spi=on"]
    if led_data == cfg.SPI_LED_GPIO:
        lines += CORE_CLOCK.get(model, ())
    if speaker == "i2s":
        lines += I2S_SPEAKER
    return "\n".join([*lines, BLOCK_END]) + "\n"


def strip_block(text: str) -> str:
    pattern = re.compile(rf"\n?{re.escape(BLOCK_BEGIN)}\n.*?{re.escape(BLOCK_END)}\n?", re.S)
    return pattern.sub("\n", text).rstrip("\n") + "\n" if BLOCK_BEGIN in text else text
