"""Where a new release comes from, checked before anything is built: a checkout, a wheel or
an sdist (often on a USB stick: kits are offline), a folder holding them, or the package
index. A file that is not whole (truncated on its way to the stick), not ours (another
project's wheel) or says one thing in its name and another inside is refused with a sentence
before a venv is made.

A wheel is checked as pip would not: every member against the zip's CRC, every file
against the sha256 its RECORD lists, the METADATA's name and version against the file name.
"""

from __future__ import annotations

import base64
import hashlib
import re
import tarfile
import tomllib
import zipfile
import zlib
from dataclasses import dataclass, field
from email.parser import HeaderParser
from pathlib import Path

from haleakala.cli import UsageError
from haleakala.kit.system import source_digest

PROJECT = "haleakala-companion"
FILE_PREFIX = "haleakala_companion-"
WHEEL = re.compile(r"^haleakala_companion-([^-]+)-(?:[^-]+-)?py3-none-any\.whl$")
SDIST = re.compile(r"^haleakala_companion-(.+)\.tar\.gz$")


@dataclass(frozen=True)
class Source:
    """What pip builds the release from, and what names it."""

    kind: str  # checkout, wheel, sdist
    path: Path
    version: str
    digest: str  # sha256 of the file, or of the checkout's package sources
    links: tuple[Path, ...] = field(default=())  # folders pip may take wheels from

    @property
    def name(self) -> str:
        """The release's directory name: the version and the first ten hex of the digest."""
        return f"{self.version}-{self.digest[:10]}"

    def requirement(self, extra: str) -> str:
        """PEP 508 with a direct reference: pip installs exactly this file or folder."""
        return f"{PROJECT}[{extra}] @ {self.path.resolve().as_uri()}"


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def version_key(text: str) -> tuple:
    """Good enough to pick the newest of a stick's files (0.10 after 0.9; 1.0 after 1.0rc1)."""
    parts = re.findall(r"\d+|[a-z]+", text.lower())
    return (*tuple((1, int(p), "") if p.isdigit() else (0, 0, p) for p in parts), (1, -1, ""))


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _metadata(text: str) -> tuple[str, str]:
    headers = HeaderParser().parsestr(text)
    return normalize(str(headers.get("Name", ""))), str(headers.get("Version", ""))


def check_wheel(path: Path) -> Source:
    """A whole wheel of this project, or a UsageError saying what it is instead."""
    match = WHEEL.match(path.name)
    if not match:
        raise UsageError(
            f"{path.name} is not a wheel of {PROJECT} (a kit installs only "
            f"{FILE_PREFIX}VERSION-py3-none-any.whl): copy the right file"
        )
    try:
        with zipfile.ZipFile(path) as wheel:
            bad = wheel.testzip()
            if bad is not None:
                raise UsageError(f"{path.name} is damaged ({bad} fails its CRC): copy it again")
            names = wheel.namelist()
            info = [n for n in names if re.match(r"^[^/]+\.dist-info/METADATA$", n)]
            if len(info) != 1:
                raise UsageError(f"{path.name} has no METADATA: it is not a wheel, copy it again")
            name, version = _metadata(wheel.read(info[0]).decode("utf-8", "replace"))
            record = wheel.read(info[0].replace("METADATA", "RECORD")).decode()
            _check_record(path, wheel, record)
    except (zipfile.BadZipFile, EOFError, OSError, KeyError) as exc:
        raise UsageError(
            f"{path.name} is not a whole wheel (truncated or damaged: {exc}): copy it again"
        ) from None
    if name != PROJECT:
        raise UsageError(f"{path.name} is a wheel of {name!r}, not of {PROJECT}")
    if version != match[1] or "haleakala/__init__.py" not in names:
        raise UsageError(
            f"{path.name} says version {version} inside and holds "
            f"{'no' if 'haleakala/__init__.py' not in names else 'a'} haleakala package: "
            "not a wheel this project built"
        )
    return Source("wheel", path, version, sha256_of(path), (path.parent,))


def _check_record(path: Path, wheel: zipfile.ZipFile, record: str) -> None:
    for line in record.splitlines():
        member, _, rest = line.partition(",")
        digest = rest.partition(",")[0]
        if not digest:
            continue  # RECORD itself
        algorithm, _, expected = digest.partition("=")
        if algorithm != "sha256":
            raise UsageError(f"{path.name}: RECORD uses {algorithm}, not sha256")
        got = base64.urlsafe_b64encode(hashlib.sha256(wheel.read(member)).digest()).rstrip(b"=")
        if got.decode() != expected:
            raise UsageError(f"{path.name}: {member} does not match its RECORD: copy it again")


def check_sdist(path: Path) -> Source:
    match = SDIST.match(path.name)
    if not match:
        raise UsageError(f"{path.name} is not an sdist of {PROJECT}")
    try:
        with tarfile.open(path, "r:gz") as tar:
            pkg_info = None
            for member in tar:  # reads every member: a truncated file fails here
                handle = tar.extractfile(member) if member.isfile() else None
                data = handle.read() if handle is not None else b""
                if member.name.count("/") == 1 and member.name.endswith("/PKG-INFO"):
                    pkg_info = data
    except (tarfile.TarError, EOFError, OSError, zlib.error) as exc:
        raise UsageError(
            f"{path.name} is not a whole sdist (truncated or damaged: {exc}): copy it again"
        ) from None
    if pkg_info is None:
        raise UsageError(f"{path.name} has no PKG-INFO: it is not an sdist, copy it again")
    name, version = _metadata(pkg_info.decode("utf-8", "replace"))
    if name != PROJECT or version != match[1]:
        raise UsageError(f"{path.name} holds {name!r} {version}, not {PROJECT} {match[1]}")
    return Source("sdist", path, version, sha256_of(path), (path.parent,))


def check_checkout(path: Path) -> Source:
    try:
        project = tomllib.loads((path / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    except (OSError, KeyError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{path} is not a checkout of {PROJECT} ({exc})") from None
    if normalize(str(project.get("name", ""))) != PROJECT:
        raise UsageError(f"{path} is a checkout of {project.get('name')!r}, not of {PROJECT}")
    if not (path / "haleakala" / "__init__.py").is_file():
        raise UsageError(f"{path} has no haleakala package: not a whole checkout")
    digest = hashlib.sha256(source_digest(path).encode())
    for unit in sorted((path / "systemd").glob("*")):  # the release carries its unit too
        if unit.suffix in (".service", ".conf", ".rules"):
            digest.update(unit.name.encode() + b"\0" + unit.read_bytes())
    return Source("checkout", path, str(project.get("version", "0")), digest.hexdigest())


def resolve(text: str) -> Source:
    """``--from``: a checkout, a wheel, an sdist, or a folder (a USB stick) holding them."""
    path = Path(text)
    if not path.exists():
        raise UsageError(f"{path} does not exist (is the USB stick mounted? see lsblk)")
    if path.is_dir() and (path / "pyproject.toml").is_file():
        return check_checkout(path)
    if path.is_dir():
        found = [p for p in path.iterdir() if WHEEL.match(p.name) or SDIST.match(p.name)]
        if not found:
            raise UsageError(
                f"{path} holds no {FILE_PREFIX}*.whl or *.tar.gz and is not a checkout"
            )
        newest = max(found, key=lambda p: (version_key(_version_of(p)), p.suffix == ".whl"))
        return resolve(str(newest))
    if path.name.endswith(".whl"):
        return check_wheel(path)
    if path.name.endswith(".tar.gz"):
        return check_sdist(path)
    raise UsageError(f"{path.name}: a kit updates from a .whl, a .tar.gz or a checkout")


def _version_of(path: Path) -> str:
    match = WHEEL.match(path.name) or SDIST.match(path.name)
    return match[1] if match else ""
