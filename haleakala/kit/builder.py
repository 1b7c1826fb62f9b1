"""A new release built beside the running one: its own venv under
``/opt/haleakala/releases/NAME``, its systemd files, and ``release.json`` written last.

Nothing the running release uses is touched: a build that fails (a dependency missing
offline, a full disk, a release that cannot import) removes its own directory and says why;
a build a power cut interrupts leaves a directory without ``release.json``, which is never
switched to and which the next build removes.

Every wheel a build uses is kept in ``/opt/haleakala/wheels`` (the kit's wheel store, pip
itself and the build backend included), so a later update from a USB stick needs only the
project's own wheel when its dependencies did not change: offline, pip is given that store
and the stick's folder and nothing else (``--no-index``).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Protocol

from haleakala.kit.releases import MANIFEST, PREFIX, Layout, release_name, write_durably
from haleakala.kit.sources import PROJECT, Source
from haleakala.kit.system import make_dirs

WHEELS = PREFIX / "wheels"
BUILD_REQUIRES = ("pip>=24", "setuptools>=77", "wheel")
"""Kept in the wheel store beside the dependencies: a fresh venv's pip upgrade and an sdist's
isolated build need them offline too."""
MIN_FREE_BYTES = 250_000_000
"""A Pi 4 release venv is about 120 MB (tools/virtual-pi measures it); the build also needs
room for pip's temporary files."""
FORMATS_CODE = """\
import json
import haleakala.cli.run, haleakala.companion.daemon  # what the unit starts must import
from haleakala.companion.journal import SNAPSHOT_VERSION, VERSION
try:
    from haleakala.learn.board import FORMAT as lesson
except ImportError:
    lesson = None
try:
    from haleakala.config.schema import SCHEMA_VERSION as config
except ImportError:
    config = 1
import haleakala
print(json.dumps({"journal": VERSION, "snapshot": SNAPSHOT_VERSION, "lesson": lesson,
                  "config": config, "version": getattr(haleakala, "__version__", None)}))
"""
"""Run by the new release's own interpreter: imports what the daemon needs (a release that
cannot import stops here) and says which data formats it reads."""


class Runner(Protocol):
    def run(self, argv: Sequence[str]) -> None: ...

    def capture(self, argv: Sequence[str], timeout: float | None = None) -> tuple[int, str]: ...


class BuildError(RuntimeError):
    """The build stopped: one sentence saying why; the running release is untouched."""


def tail(text: str, lines: int = 3) -> str:
    kept = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return " / ".join(kept[-lines:])


def explain(text: str) -> str:
    """pip's failure in the words a maker can act on."""
    if "No space left on device" in text or "Errno 28" in text:
        return "no space left on the device (free some and try again)"
    if "No matching distribution found for" in text:
        missing = text.split("No matching distribution found for", 1)[1].split()[0]
        return (
            f"the release needs {missing}, which neither the kit's wheel store nor the given "
            "folder holds: put its wheel on the stick, or update with the network "
            "(haleakala update --online)"
        )
    return tail(text)


def dir_bytes(path: Path) -> int:
    total = 0
    for folder, _dirs, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(folder, name)).st_size
    return total


@dataclass
class Builder:
    layout: Layout
    runner: Runner
    say: Callable[[str], None] = print
    free_bytes: Callable[[Path], int] = field(default=lambda p: shutil.disk_usage(p).free)

    @property
    def wheels(self) -> Path:
        return self.layout.p(WHEELS)

    def pip_options(self, source: Source, online: bool) -> list[str]:
        links = [self.layout.logical(self.wheels)] + [str(p) for p in source.links]
        options = [] if online else ["--no-index"]
        for link in links:
            options += ["--find-links", link]
        return options

    def prune_partial(self) -> None:
        """Builds a cut interrupted (no release.json): never switched to, removed."""
        keep = {self.layout.current(), self.layout.previous()}
        if not self.layout.releases.is_dir():
            return
        for folder in self.layout.releases.iterdir():
            if folder.name not in keep and not (folder / MANIFEST).is_file():
                self.say(f"removing {folder.name}: a build that never finished")
                shutil.rmtree(folder, ignore_errors=True)

    def check_space(self) -> None:
        current = self.layout.current()
        need = MIN_FREE_BYTES
        if current is not None:
            need = max(need, int(dir_bytes(self.layout.venv(current)) * 1.3))
        make_dirs(self.layout.releases)
        free = self.free_bytes(self.layout.releases)
        if free < need:
            raise BuildError(
                f"only {free // 1_000_000} MB are free under {PREFIX}; a new release needs "
                f"about {need // 1_000_000} MB beside the running one: free some space "
                "(sudo apt-get clean, sudo journalctl --vacuum-size=50M) and try again"
            )

    def build(self, source: Source, extra: str, *, online: bool) -> str:
        """The release of ``source`` with ``extra``, built unless it already is; its name."""
        name = release_name(source.name, extra)
        if self.layout.complete(name):
            self.say(f"= release {name} is already built beside the running one")
            return name
        self.prune_partial()
        self.check_space()
        target = self.layout.release(name)
        if target.exists():
            shutil.rmtree(target)
        make_dirs(target)
        try:
            manifest = self._build(target, source, extra, online)
        except BaseException:
            shutil.rmtree(target, ignore_errors=True)
            raise
        manifest["name"] = name
        write_durably(target / MANIFEST, json.dumps(manifest, indent=1).encode())
        self.say(f"+ release {name} built")
        return name

    def _step(self, argv: Sequence[str], what: str) -> str:
        code, out = self.runner.capture(argv)
        if code != 0:
            raise BuildError(f"{what} failed: {explain(out)}")
        return out

    def _build(self, target: Path, source: Source, extra: str, online: bool) -> dict:
        venv = target / "venv"
        at = self.layout.logical
        python = at(venv / "bin" / "python")
        options = self.pip_options(source, online)
        self._step(["python3", "-m", "venv", "--system-site-packages", at(venv)],
                   "making the venv")  # fmt: skip
        make_dirs(self.wheels)
        pip = [python, "-m", "pip", "--disable-pip-version-check"]
        code, out = self.runner.capture([*pip, "install", "-q", "--upgrade", *options, "pip>=24"])
        if code != 0:  # offline without pip in the store: the venv's own pip installs wheels
            self.say(f"  (pip stays as the venv made it: {explain(out)})")
        wheel = source.path
        if source.kind != "wheel":  # built once here; the store and the venv get that wheel
            dist = target / "dist"
            self._step([*pip, "wheel", "-q", "--no-deps", "--wheel-dir", at(dist), *options,
                        f"{PROJECT} @ {source.path.resolve().as_uri()}"],
                       f"building the wheel of {source.path}")  # fmt: skip
            wheel = next(iter(sorted(dist.glob("*.whl"))), dist / "missing.whl")
        where = at(wheel) if wheel.is_relative_to(self.layout.root) else str(wheel.resolve())
        requirement = f"{PROJECT}[{extra}] @ file://{where}"
        extras = list(BUILD_REQUIRES) if online else []
        self._step([*pip, "wheel", "-q", "--wheel-dir", at(self.wheels), *options, *extras,
                    requirement], "collecting the dependencies")  # fmt: skip
        links = [o for o in options if o != "--no-index"]
        self._step([*pip, "install", "-q", "--no-index", *links, requirement],
                   "installing into the new venv")  # fmt: skip
        code, out = self.runner.capture([python, "-c", FORMATS_CODE], timeout=300)
        if code != 0:
            raise BuildError(f"the new release cannot import: {tail(out, 1)}")
        formats = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
        self._systemd_files(target, source, venv)
        return {
            "version": source.version,
            "source": str(source.path),
            "kind": source.kind,
            "digest": source.digest,
            "extra": extra,
            "formats": formats,
            "built": datetime.now().isoformat(timespec="microseconds"),
        }

    def _systemd_files(self, target: Path, source: Source, venv: Path) -> None:
        """The release's own unit and drop-ins: from its package (a wheel carries them in
        ``haleakala/kit/systemd``), its checkout, else the running release's."""
        found = sorted(venv.glob("lib/python3*/site-packages/haleakala/kit/systemd"))
        candidates = [*found, source.path / "systemd"] if source.kind == "checkout" else found
        current = self.layout.current()
        if current is not None:
            candidates.append(self.layout.release(current) / "systemd")
        folder = next((c for c in candidates if (c / "haleakala.service").is_file()), None)
        make_dirs(target / "systemd")
        if folder is None:
            raise BuildError("the new release ships no haleakala.service and none is installed")
        for path in sorted(folder.iterdir()):
            if path.is_file() and path.suffix in (".service", ".conf", ".rules"):
                shutil.copy2(path, target / "systemd" / path.name)
        readme = source.path / "README.md" if source.kind == "checkout" else None
        if readme is None and current is not None:
            readme = self.layout.release(current) / "README.md"
        if readme is not None and readme.is_file():
            shutil.copy2(readme, target / "README.md")
