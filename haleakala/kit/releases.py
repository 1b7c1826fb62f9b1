"""Releases side by side, the one switch between them, and the boot-time check that takes a
kit back to the release it came from when a new one never proved itself.

The layout under ``/opt/haleakala`` (``haleakala update`` and ``install`` make it)::

    releases/0.2.0-1a2b3c4d5e/   one directory per installed release: its venv, its systemd
        venv/                    files (the unit and its drop-ins as the release shipped them),
        systemd/                 its README, and release.json, written last: a directory
        README.md                without it is a build that never finished and is never
        release.json             switched to (the next update removes it)
    current -> releases/0.2.0-1a2b3c4d5e     the active release: THE switch
    previous -> releases/0.1.0-9f8e7d6c5b    the one before it, kept for a rollback
    venv -> current/venv                     the path the unit and PATH have always used
    README.md -> current/README.md           the unit's Documentation=
    trial.json                               the untested-until-proven marker (below)

``/etc/systemd/system/haleakala.service`` is a link to ``current/systemd/haleakala.service``,
so the unit, the venv and the code always come from one release. A switch is one
``rename(2)`` of a new symlink over ``current``: at every instant ``current`` names one whole
release, the old or the new, whatever a power cut interrupts.

The trial: before switching, the updater writes ``trial.json`` (the release on trial, the one
it replaces, and the game and decision the running daemon had acknowledged) and fsyncs it;
it removes the file once the new release's daemon has said READY=1 and resumed that game at
that decision (its health record, ``/var/lib/haleakala/health.json``). A trial file found at
boot means the update was cut off before the release proved itself (a power cut, a crash):
``haleakala-release-check.service``, a oneshot ordered before ``haleakala.service``, switches
back to the release it replaced, unless the health record left before the cut proves the new
one. Home Assistant OS and OctoPi's A/B updates work the same way.

This module uses the standard library only and imports nothing of the package: the boot-time
check runs it as a copy (``/opt/haleakala/release-check.py``) with Debian's own python3, so a
release whose venv cannot even start Python is still taken back.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

PREFIX = PurePosixPath("/opt/haleakala")
RELEASES = "releases"
CURRENT = "current"
PREVIOUS = "previous"
VENV_LINK = "venv"
README_LINK = "README.md"
TRIAL = "trial.json"
MIGRATING = "migrating.json"
MANIFEST = "release.json"
FAILED = "failed.json"
CHECK_SCRIPT = "release-check.py"
UNIT_NAME = "haleakala.service"
CHECK_UNIT = "haleakala-release-check.service"
UNIT_DIR = PurePosixPath("/etc/systemd/system")
UNIT_TARGET = PREFIX / CURRENT / "systemd" / UNIT_NAME
"""What the installed unit links to: the current release's own unit."""
STATE = PurePosixPath("/var/lib/haleakala")
HEALTH = "health.json"
"""Written by the daemon once it is READY (``haleakala.companion.health``)."""
NOTICE = "update-notice.json"
"""Read by the daemon at start: what the OLED says about an update that did not happen."""
LOG = PurePosixPath("/var/log/haleakala-update.log")
NAME = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.+_-]{0,80}$")


def release_name(source_name: str, extra: str) -> str:
    """A release's directory name: its source's name and its extras (``pi,remote`` is written
    ``pi+remote``: a name stays one path component a shell need not quote)."""
    return f"{source_name}-{extra.replace(',', '+')}"


class ReleaseError(RuntimeError):
    """A release is missing or incomplete: one sentence naming it and the way on."""


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_durably(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Replace ``path`` whole: temp file, fsync, rename, fsync the directory."""
    tmp = path.with_name(f".{path.name}.tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    with open(tmp, "xb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    tmp.chmod(mode)
    os.replace(tmp, path)
    fsync_dir(path.parent)


def replace_link(link: Path, target: str) -> None:
    """Point ``link`` at ``target`` in one rename (a new link, renamed over the old one)."""
    tmp = link.with_name(f".{link.name}.new")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    os.symlink(target, tmp)
    os.replace(tmp, link)
    fsync_dir(link.parent)


def read_json(path: Path) -> dict[str, Any] | None:
    """A small JSON object, or None when the file is missing, torn or not an object."""
    try:
        value = json.loads(path.read_bytes()[: 1 << 20])
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


@dataclass
class Layout:
    """Where everything is, under ``root`` (``/`` on a kit; a temporary root in tests)."""

    root: Path = Path("/")

    def p(self, path: PurePosixPath | str) -> Path:
        return self.root / PurePosixPath(path).relative_to("/")

    def logical(self, path: Path) -> str:
        """The path as the kit itself names it (what commands are given): ``p`` undone."""
        return str(PurePosixPath("/") / path.relative_to(self.root))

    @property
    def prefix(self) -> Path:
        return self.p(PREFIX)

    @property
    def releases(self) -> Path:
        return self.prefix / RELEASES

    @property
    def state(self) -> Path:
        return self.p(STATE)

    def release(self, name: str) -> Path:
        if not NAME.match(name):
            raise ReleaseError(f"{name!r} is not a release name")
        return self.releases / name

    def venv(self, name: str) -> Path:
        return self.release(name) / "venv"

    def python(self, name: str) -> Path:
        """The release's interpreter: run as ``python -m haleakala``, never through a script,
        whose first line may name /opt/haleakala/venv (a release migrated from the old
        layout), which is whatever release is current."""
        return self.venv(name) / "bin" / "python"

    def link_name(self, link: str) -> str | None:
        """The release a link (``current``, ``previous``) names, or None."""
        try:
            target = os.readlink(self.prefix / link)
        except OSError:
            return None
        return PurePosixPath(target).name or None

    def current(self) -> str | None:
        return self.link_name(CURRENT)

    def previous(self) -> str | None:
        return self.link_name(PREVIOUS)

    def manifest(self, name: str) -> dict[str, Any] | None:
        """The release's manifest: present only when the release is whole."""
        return read_json(self.release(name) / MANIFEST)

    def complete(self, name: str | None) -> bool:
        return bool(name) and self.manifest(str(name)) is not None

    def names(self) -> list[str]:
        """Every whole release, oldest first."""
        if not self.releases.is_dir():
            return []
        found = [d.name for d in self.releases.iterdir() if NAME.match(d.name)]
        return sorted((n for n in found if self.complete(n)), key=self._built)

    def _built(self, name: str) -> str:
        return str((self.manifest(name) or {}).get("built", ""))

    def failed(self, name: str) -> dict[str, Any] | None:
        return read_json(self.release(name) / FAILED)

    def trial(self) -> dict[str, Any] | None:
        return read_json(self.prefix / TRIAL)

    def legacy(self) -> bool:
        """The layout before releases: /opt/haleakala/venv is the venv itself."""
        venv = self.prefix / VENV_LINK
        return venv.is_dir() and not venv.is_symlink()


# --------------------------------------------------------------------------- the switch


def switch(layout: Layout, name: str) -> str | None:
    """Make ``name`` the current release; the one it replaces becomes ``previous``. Returns
    that one. ``previous`` is written first: a cut between the two renames leaves both links
    on the old release, which is whole."""
    if not layout.complete(name):
        raise ReleaseError(f"release {name} is not whole (no {MANIFEST}): it cannot be switched to")
    old = layout.current()
    if old is not None and old != name:
        replace_link(layout.prefix / PREVIOUS, f"{RELEASES}/{old}")
    replace_link(layout.prefix / CURRENT, f"{RELEASES}/{name}")
    ensure_links(layout)
    return old


def ensure_links(layout: Layout) -> None:
    """The links that never change once made: venv and README.md through ``current``, the unit
    through ``current`` too."""
    prefix = layout.prefix
    for link, target in ((VENV_LINK, f"{CURRENT}/venv"), (README_LINK, f"{CURRENT}/README.md")):
        path = prefix / link
        if path.is_symlink() and os.readlink(path) == target:
            continue
        if path.is_dir() and not path.is_symlink():
            raise ReleaseError(f"{path} is a directory: the old layout is migrated first")
        replace_link(path, target)  # a rename: over a file it replaces, too
    unit = layout.p(UNIT_DIR / UNIT_NAME)
    wanted = str(UNIT_TARGET)
    if not (unit.is_symlink() and os.readlink(unit) == wanted):
        unit.parent.mkdir(parents=True, exist_ok=True)
        replace_link(unit, wanted)


def units_differ(layout: Layout, a: str | None, b: str | None) -> bool:
    """Whether two releases ship different systemd files (then systemd must reload)."""
    if not a or not b:
        return True

    def files(name: str) -> dict[str, bytes]:
        folder = layout.release(name) / "systemd"
        if not folder.is_dir():
            return {}
        return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}

    return files(a) != files(b)


# --------------------------------------------------------------------------- trial and proof


def begin_trial(layout: Layout, trial: dict[str, Any]) -> None:
    write_durably(layout.prefix / TRIAL, json.dumps(trial, indent=1).encode())


def end_trial(layout: Layout) -> None:
    with contextlib.suppress(FileNotFoundError):
        (layout.prefix / TRIAL).unlink()
        fsync_dir(layout.prefix)


def mark_failed(layout: Layout, name: str, why: str) -> None:
    if layout.release(name).is_dir():
        record = {"why": why, "at": time.strftime("%Y-%m-%d %H:%M:%S")}
        write_durably(layout.release(name) / FAILED, json.dumps(record).encode())


def health(layout: Layout) -> dict[str, Any] | None:
    return read_json(layout.state / HEALTH)


def proves(record: dict[str, Any] | None, trial: dict[str, Any]) -> str | None:
    """None when the health record shows the trial's release resumed the trial's game at its
    decision; otherwise what it shows instead (a sentence)."""
    if record is None:
        return "the daemon wrote no health record"
    if record.get("release") != trial.get("release"):
        return f"the daemon that answered is release {record.get('release')}"
    want = (trial.get("game"), trial.get("decision"), trial.get("digest"))
    got = (record.get("game"), record.get("decision"), record.get("digest"))
    if want[0] is None:  # no game on the table before: any start is the same table
        return None
    if got != want:
        return (
            f"it resumed game {got[0]} at decision {got[1]}, but game {want[0]} was at "
            f"decision {want[1]}"
        )
    if record.get("state") not in ("resumed", trial.get("state", "resumed")):
        return f"its game is {record.get('state')}, not resumed"
    return None


def notice(layout: Layout, kind: str, release: str, back_to: str | None, why: str) -> None:
    """What the daemon shows on the OLED at its next start (and logs), owned by the state
    directory's owner (the service user), whose daemon removes it once shown."""
    state = layout.state
    if not state.is_dir():
        return
    path = state / NOTICE
    record = {"kind": kind, "release": release, "back_to": back_to, "why": why,
              "at": time.strftime("%Y-%m-%d %H:%M:%S")}  # fmt: skip
    write_durably(path, json.dumps(record).encode(), mode=0o600)
    owner = state.stat()
    with contextlib.suppress(OSError):
        os.chown(path, owner.st_uid, owner.st_gid)


def log_line(layout: Layout, text: str) -> None:
    """One line in /var/log/haleakala-update.log (the updater's log, beside journalctl's)."""
    path = layout.p(LOG)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as f:
            f.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {text}\n")
            f.flush()
            os.fsync(f.fileno())


# --------------------------------------------------------------------------- migration

LEGACY_STAMP = "installed-source.sha256"


def legacy_version(venv: Path) -> str:
    for info in sorted(venv.glob("lib/python3*/site-packages/haleakala_companion-*.dist-info")):
        for line in (info / "METADATA").read_text(errors="replace").splitlines():
            if line.startswith("Version:"):
                return line.split(":", 1)[1].strip() or "0"
    return "0"


def migrate(layout: Layout, unit: bytes | None, say: Callable[[str], None] = print) -> str | None:
    """Move an install of the old layout (``/opt/haleakala/venv`` itself the venv, pip run
    over it by every install) into a release of the new one; None if there is nothing to
    move. ``unit``: the installed unit's text, kept as that release's unit.

    The venv directory is renamed, never copied (its scripts name /opt/haleakala/venv, which
    from now on is a link through ``current`` to it). ``migrating.json`` is written before
    the rename: a cut after it is finished by the boot-time check before the daemon starts;
    a cut before it leaves the old layout whole, and the next install or update starts
    again."""
    if not layout.legacy():
        return None
    prefix = layout.prefix
    stamp = (prefix / LEGACY_STAMP).read_text().split() if (prefix / LEGACY_STAMP).is_file() else []
    digest = stamp[0] if stamp else "legacy"
    extra = stamp[1].strip("[]") if len(stamp) > 1 else "pi"
    version = legacy_version(prefix / VENV_LINK)
    name = f"{version}-{digest[:10]}-{extra}"
    release = layout.release(name)
    (release / "systemd").mkdir(parents=True, exist_ok=True)
    if unit is not None:
        (release / "systemd" / UNIT_NAME).write_bytes(unit)
    if (prefix / README_LINK).is_file() and not (prefix / README_LINK).is_symlink():
        shutil.copy2(prefix / README_LINK, release / README_LINK)
    manifest = {"name": name, "version": version, "source": str(PREFIX / VENV_LINK),
                "kind": "migrated", "digest": digest, "extra": extra, "formats": {},
                "built": time.strftime("%Y-%m-%dT%H:%M:%S")}  # fmt: skip
    write_durably(release / MANIFEST, json.dumps(manifest, indent=1).encode())
    write_durably(prefix / MIGRATING, json.dumps({"release": name}).encode())
    finish_migration(layout, say)
    with contextlib.suppress(FileNotFoundError):
        (prefix / LEGACY_STAMP).unlink()
    return name


def finish_migration(layout: Layout, say: Callable[[str], None]) -> bool:
    """Complete a migration from the old layout that a cut interrupted (``migrating.json``
    names the release the old venv was moving into). True if there was one."""
    marker = read_json(layout.prefix / MIGRATING)
    if marker is None:
        return False
    name = str(marker.get("release", ""))
    venv = layout.prefix / VENV_LINK
    if venv.is_dir() and not venv.is_symlink():  # cut before the venv moved: move it now
        venv.rename(layout.venv(name))
        fsync_dir(layout.prefix)
        fsync_dir(layout.release(name))
    if not layout.venv(name).is_dir():
        raise ReleaseError(f"the migration to release {name} lost its venv: install again")
    if layout.current() is None:
        replace_link(layout.prefix / CURRENT, f"{RELEASES}/{name}")
    ensure_links(layout)
    (layout.prefix / MIGRATING).unlink()
    fsync_dir(layout.prefix)
    say(f"migrated the old layout into release {name}")
    return True


# --------------------------------------------------------------------------- at boot


def boot_check(
    layout: Layout,
    say: Callable[[str], None] = print,
    reload: Callable[[], None] = lambda: None,
) -> str:
    """What ``haleakala-release-check.service`` does before the daemon starts. Returns what
    it did: "nothing", "migrated", "proven" or "rolled back"."""
    done = "migrated" if finish_migration(layout, say) else "nothing"
    trial = layout.trial()
    if trial is None:
        if (layout.prefix / TRIAL).exists():  # torn: a cut while it was written, pre-switch
            end_trial(layout)
        return done
    new, old = str(trial.get("release")), trial.get("previous")
    why = proves(health(layout), trial)
    if why is None and layout.current() == new:
        end_trial(layout)
        log_line(layout, f"boot check: release {new} had proved itself before the cut")
        say(f"release {new} proved itself before the cut: it stays")
        return "proven"
    text = (
        f"the update to release {new} was cut off (power cut or crash) before it proved "
        f"itself ({why})"
    )
    if layout.current() == new and old and layout.complete(str(old)):
        before = layout.current()
        switch(layout, str(old))
        if units_differ(layout, before, str(old)):
            reload()
        mark_failed(layout, new, text)
        text += f": back on release {old}"
    elif layout.current() != new:
        text += f": the switch had not happened, release {layout.current()} stays"
    else:
        text += ": there is no whole release to go back to, it stays"
    end_trial(layout)
    log_line(layout, f"boot check: {text}")
    notice(layout, "interrupted", new, layout.current(), text)
    say(text)
    return "rolled back"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="release-check", description="the boot-time release check (see the module's doc)"
    )
    parser.add_argument("--root", default="/", help="the root it works under (tests)")
    args = parser.parse_args(argv)
    layout = Layout(Path(args.root))

    def reload() -> None:
        if shutil.which("systemctl") and Path("/run/systemd/system").is_dir():
            subprocess.run(["systemctl", "daemon-reload"], check=False)

    try:
        boot_check(layout, reload=reload if args.root == "/" else lambda: None)
    except (OSError, ReleaseError) as exc:
        print(f"release check: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
