"""``haleakala update``: a new release built beside the running one, checked, switched to in
one rename, and kept only if its daemon resumes the game at the same decision; otherwise the
kit switches back by itself and says why on the OLED and in the log.

Sources: ``--from PATH`` — a checkout, a wheel or an sdist, or a folder such as a USB stick
holding them (offline: pip is given the kit's wheel store and that folder, nothing else);
``--index [VERSION]`` — the package index, when the kit has a network; without either, the
checkout this command runs from.

The steps, each said as it is done (and logged in /var/log/haleakala-update.log):

1. build the release under /opt/haleakala/releases/NAME (``haleakala.kit.builder``): the
   running game goes on meanwhile; a failed build removes its directory and says why;
2. check it, still beside the running release: ``config check`` on the live config, the
   self-test's dry parts (``selftest --auto`` on the sim backend), the data formats it reads
   against those on the card, and ``journal check``, which must name the game and decision
   the running release names;
3. stop the daemon (between two decisions: every acknowledged one is in the journal), note
   the game and decision, write the trial marker, switch ``current``, start the daemon;
4. wait for the health check (``--health-timeout``, default 120 s): systemd says active
   (READY=1) and the daemon's health record says it resumed that game at that decision.
   Then the marker goes and the release stays. Otherwise: back to the previous release, its
   daemon started and checked again, the new release marked failed, and the reason logged
   and shown on the OLED at the old release's start.

An update started during a game therefore does not wait for the game's end: the game is
resumed at the same decision, which the health check proves (a player's half-made move on
the board is read again from the board, as after any restart).

``--rollback`` goes back to the previous release by hand, with the same checks and the same
health check. ``--status`` lists the releases. A power cut at any moment leaves ``current``
on one whole release; a cut before the health check passed is undone at the next boot by
``haleakala-release-check.service`` (``haleakala.kit.releases``).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from haleakala import config as cfg
from haleakala.cli import UsageError
from haleakala.kit import releases as R
from haleakala.kit.builder import Builder, BuildError, Runner
from haleakala.kit.service_health import Service, Systemd, Waiter, data_formats, position
from haleakala.kit.service_health import unreadable as refuses_data
from haleakala.kit.sources import Source
from haleakala.kit.system import CONFIG, kit_extra, pip_extra, runner_for

HEALTH_TIMEOUT_S = 120.0
"""A Pi 4 resumes a game about 3 s after the start; the emulated virtual Pi needs minutes."""
CHECK_TIMEOUT_S = 600.0
BACKUPS_KEPT = 3


@dataclass
class Updater:
    layout: R.Layout
    runner: Runner
    service: Service
    say: Callable[[str], None] = print
    health_timeout_s: float = HEALTH_TIMEOUT_S
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    free_bytes: Callable[[Path], int] | None = None
    config_path: PurePosixPath = CONFIG
    history: list[str] = field(default_factory=list)
    backup_dir: Path | None = None

    # -- words and paths

    def tell(self, text: str) -> None:
        self.history.append(text)
        self.say(text)
        R.log_line(self.layout, text)

    @property
    def config(self) -> Path:
        return self.layout.p(self.config_path)

    def state_dir(self) -> Path:
        try:
            state = PurePosixPath(str(cfg.load(self.config).state_dir))
        except (cfg.ConfigError, OSError):
            state = R.STATE
        return self.layout.p(state) if state.is_absolute() else Path(state)

    def extra(self) -> str:
        """The release's extras from the config (the model's, and remote play's)."""
        try:
            return kit_extra(cfg.load(self.config))
        except (cfg.ConfigError, OSError):
            return pip_extra("pi4")

    def haleakala(self, release: str, *args: str) -> tuple[int, str]:
        """A command of ``release``, run by its own interpreter."""
        argv = [self.layout.logical(self.layout.python(release)), "-m", "haleakala", *args]
        return self.runner.capture(argv, timeout=CHECK_TIMEOUT_S)

    @contextmanager
    def locked(self) -> Iterator[None]:
        self.layout.prefix.mkdir(parents=True, exist_ok=True)
        with (self.layout.prefix / ".update.lock").open("w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise UsageError("another update is running (see --status)") from None
            yield

    # -- the commands

    def update(self, source: Source, *, online: bool) -> int:
        with self.locked():
            self.settle()
            if self.layout.current() is None:
                raise UsageError("the kit is not installed: run 'sudo python3 -m haleakala "
                                 "install' first")  # fmt: skip
            builder = Builder(self.layout, self.runner, self.say)
            if self.free_bytes is not None:
                builder.free_bytes = self.free_bytes
            try:
                new = builder.build(source, self.extra(), online=online)
            except BuildError as exc:
                self.tell(f"update refused: {exc}; the kit stays on release "
                          f"{self.layout.current()}")  # fmt: skip
                return 1
            if new == self.layout.current():
                self.tell(f"= release {new} is the running one: nothing to do")
                return 0
            return self.transition(new, "update")

    def rollback(self, force: bool = False) -> int:
        with self.locked():
            self.settle()
            target = self.layout.previous()
            if target is None or not self.layout.complete(target):
                raise UsageError("there is no previous release to go back to (see --status)")
            failed = self.layout.failed(target)
            if failed and not force:
                raise UsageError(f"the previous release {target} failed its health check "
                                 f"({failed.get('why')}); --force to try it anyway")  # fmt: skip
            return self.transition(target, "rollback")

    def settle(self) -> None:
        """A trial left by an updater that was stopped (not by a cut: the boot check takes
        those): settled now, as the boot-time check would."""
        if self.layout.trial() is not None:
            done = R.boot_check(self.layout, self.say, reload=self.reload)
            if done == "rolled back" and self.service.available():
                self.service.act("restart")  # the daemon running may be the new release's

    def reload(self) -> None:
        self.service.act("daemon-reload")

    # -- checks beside the running release

    def check(self, new: str, old: str, state: Path) -> str | None:
        """Why ``new`` must not replace ``old``, or None."""
        code, out = self.haleakala(new, "config", "check", "--config", str(self.config_path))
        if code != 0:
            return f"release {new} refuses the live config {self.config_path}: {_lines(out)}"
        code, out = self.haleakala(new, "selftest", "--auto", "--hardware", "sim", "--config",
                                   str(self.config_path))  # fmt: skip
        if code != 0:
            return f"release {new} fails the self-test on simulated parts: {_lines(out)}"
        reads = (self.layout.manifest(new) or {}).get("formats") or {}
        why = refuses_data(data_formats(state), reads, new)
        if why:
            return why
        code, seen = self.haleakala(
            new, "journal", "check", "--state-dir", self.layout.logical(state)
        )
        if code not in (0, 1):
            return f"release {new} cannot read the journal: {_lines(seen)}"
        _, known = self.haleakala(
            old, "journal", "check", "--state-dir", self.layout.logical(state)
        )
        mine, theirs = position(seen), position(known)
        if (mine or {}).get("game") != (theirs or {}).get("game"):
            return (
                f"release {new} reads another game from the journal ({_lines(seen)}) than "
                f"release {old} ({_lines(known)})"
            )
        return None

    # -- the switch and the health check

    def transition(self, new: str, kind: str) -> int:
        old = self.layout.current()
        assert old is not None
        state = self.state_dir()
        why = self.check(new, old, state)
        if why is not None:
            self.tell(f"{kind} refused: {why}; the kit stays on release {old}")
            return 1
        self.say(f"+ release {new} passed its checks")
        if not self.service.available():
            R.switch(self.layout, new)
            self.tell(f"{kind}: switched from {old} to {new} without a health check (systemd "
                      f"is not running here); 'haleakala update --rollback' goes back")  # fmt: skip
            return 0
        was_active = self.service.show().get("ActiveState") == "active"
        self.service.act("stop")
        _code, out = self.haleakala(
            old, "journal", "check", "--state-dir", self.layout.logical(state)
        )
        before = position(out) or {}
        self.backup(state, old, new)
        trial = {"release": new, "previous": old, "kind": kind, **before,
                 "started": time.strftime("%Y-%m-%dT%H:%M:%S")}  # fmt: skip
        R.begin_trial(self.layout, trial)
        R.switch(self.layout, new)
        self._reload_if(old, new)
        self.service.act("reset-failed")
        self.service.act("start")
        at = f"game {before['game']} at decision {before['decision']}" if before else "no game"
        self.say(f"  waiting up to {self.health_timeout_s:.0f} s for release {new} to resume "
                 f"{at}...")  # fmt: skip
        why = self.waiter().wait(trial)
        if why is None:
            R.end_trial(self.layout)
            self.prune()
            self.refresh_check_script(new)
            self.tell(f"{kind}: release {new} runs and resumed {at} (was {old}); "
                      f"{old} is kept for 'haleakala update --rollback'")  # fmt: skip
            if not was_active:
                self.say("  (the service was not running before: it runs now)")
            return 0
        return self.undo(new, old, trial, why, kind)

    def undo(self, new: str, old: str, trial: dict[str, Any], why: str, kind: str) -> int:
        text = f"{kind} to release {new} rolled back: {why}"
        self.say(f"  release {new} did not prove itself: {why}; switching back to {old}")
        self.service.act("stop")
        R.switch(self.layout, old)
        text += self.restore(new, trial)
        R.mark_failed(self.layout, new, why)
        self._reload_if(new, old)
        R.notice(self.layout, "rolled-back", new, old, text)
        self.service.act("reset-failed")
        self.service.act("start")
        again = self.waiter().wait({**trial, "release": old})
        R.end_trial(self.layout)
        if again is None:
            self.tell(f"{text}; the kit is back on release {old} and resumed the game")
        else:
            self.tell(f"{text}; back on release {old}, which did not resume either: {again}")
        return 1

    def waiter(self) -> Waiter:
        return Waiter(self.layout, self.service, self.health_timeout_s, self.clock, self.sleep)

    def _reload_if(self, a: str, b: str) -> None:
        if R.units_differ(self.layout, a, b):
            self.reload()

    def backup(self, state: Path, old: str, new: str) -> None:
        """The data as the old release left it, before the new one reads it (kept: the last
        three updates'). A rollback never needs them: releases read each other's formats or
        refuse in words; they are for a person who wants the files as they were."""
        folder = state / "backups" / f"update-{time.strftime('%Y%m%d-%H%M%S')}-{old}-to-{new}"
        folder.mkdir(parents=True, exist_ok=True)
        self.backup_dir = folder
        owner = state.stat()
        for path in [*(state / n for n in ("journal.bin", "snapshot.json", "lesson.json")),
                     self.config]:  # fmt: skip
            if path.is_file():
                shutil.copy2(path, folder / path.name)
        for path in [folder.parent, folder, *folder.iterdir()]:
            with suppress(OSError):
                os.chown(path, owner.st_uid, owner.st_gid)
        for old_backup in sorted(folder.parent.iterdir())[:-BACKUPS_KEPT]:
            shutil.rmtree(old_backup, ignore_errors=True)

    def restore(self, new: str, trial: dict[str, Any]) -> str:
        """A failed release whose daemon dealt another game replaced the journal: the files
        as the old release left them come back from this update's backup, and the failed
        release's are kept beside them (``*.rolled-back-*``). Nothing is deleted."""
        record = R.health(self.layout)
        if (record is None or record.get("release") != new or not trial.get("game")
                or record.get("game") == trial.get("game") or self.backup_dir is None):  # fmt: skip
            return ""
        state, stamp = self.backup_dir.parent.parent, time.strftime("%Y%m%d-%H%M%S")
        owner = state.stat()
        for saved in sorted(self.backup_dir.iterdir()):
            live = state / saved.name
            if saved.name == self.config.name:
                continue  # the config is the maker's: no release writes it
            if live.exists():
                shutil.copy2(live, state / f"{saved.name}.rolled-back-{stamp}")
            R.write_durably(live, saved.read_bytes(), mode=0o600)
            with suppress(OSError):
                os.chown(live, owner.st_uid, owner.st_gid)
        return (
            f"; its daemon had dealt game {record.get('game')}, so the journal of game "
            f"{trial.get('game')} is back from the backup (the other kept as "
            f"*.rolled-back-{stamp})"
        )

    def prune(self) -> None:
        """Releases that are neither current nor previous go (a card is small)."""
        keep = {self.layout.current(), self.layout.previous()}
        for name in self.layout.names():
            if name not in keep:
                shutil.rmtree(self.layout.release(name), ignore_errors=True)
                self.say(f"  removed release {name} (neither current nor previous)")

    def refresh_check_script(self, release: str) -> None:
        """The boot-time check's copy of ``releases.py``, from the release that proved itself."""
        found = sorted(self.layout.venv(release).glob(
            "lib/python3*/site-packages/haleakala/kit/releases.py"))  # fmt: skip
        if found:
            R.write_durably(self.layout.prefix / R.CHECK_SCRIPT, found[-1].read_bytes())

    def status(self) -> int:
        current, previous, trial = self.layout.current(), self.layout.previous(), None
        trial = self.layout.trial()
        for name in self.layout.names():
            manifest = self.layout.manifest(name) or {}
            mark = "*" if name == current else "previous" if name == previous else ""
            failed = self.layout.failed(name)
            print(f"{mark:>8} {name}  (version {manifest.get('version')}, from "
                  f"{manifest.get('source')}, built {manifest.get('built')})"
                  + (f"  FAILED: {failed.get('why')}" if failed else ""))  # fmt: skip
        if trial:
            print(f"on trial: {trial.get('release')} (replacing {trial.get('previous')})")
        if not self.layout.names():
            print("no releases: the kit is not installed, or has the old layout (install "
                  "moves it)")  # fmt: skip
        return 0


def _lines(text: str, count: int = 3) -> str:
    kept = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return " / ".join(kept[-count:]) or "(no output)"


# --------------------------------------------------------------------------- the command


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "update",
        help="update the kit: build beside, check, switch, roll back by itself on failure",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--from", dest="source", metavar="PATH",
                       help="a checkout, a wheel, an sdist, or a folder (USB stick) holding "
                       "them")  # fmt: skip
    where.add_argument(
        "--index",
        nargs="?",
        const="",
        metavar="VERSION",
        help="from the package index (the network): the newest, or VERSION",
    )
    where.add_argument(
        "--rollback",
        action="store_true",
        help="back to the previous release (checked, health-checked)",
    )
    where.add_argument("--status", action="store_true", help="list the releases")
    parser.add_argument(
        "--online",
        action="store_true",
        help="let pip use the package index for missing dependencies",
    )
    parser.add_argument("--health-timeout", type=float, default=HEALTH_TIMEOUT_S, metavar="S",
                        help=f"seconds the new release has to resume the game "
                        f"(default {HEALTH_TIMEOUT_S:.0f})")  # fmt: skip
    parser.add_argument(
        "--force", action="store_true", help="--rollback to a release that failed its health check"
    )
    parser.add_argument(
        "--root",
        metavar="DIR",
        default="/",
        help="a sandbox root (tests; no systemd there, so no health check)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from haleakala.kit.common import REPO_ROOT, in_checkout
    from haleakala.kit.sources import resolve

    reexec_from_release()
    # A closed SSH session must not stop an update half-way: the terminal may go, the update
    # goes on (its words are in the log), and a lost line of output is not a failure.
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    root = Path(args.root)
    if root.resolve() == Path("/") and hasattr(os, "geteuid") and os.geteuid() != 0:
        raise UsageError("update changes /opt/haleakala and restarts the service: run it "
                         "with sudo")  # fmt: skip
    if args.health_timeout <= 0:
        raise UsageError(f"--health-timeout {args.health_timeout:g} must be positive")
    layout = R.Layout(root)
    updater = Updater(
        layout, runner_for(root, _say), Systemd(root, _say), _say, args.health_timeout
    )
    if args.status:
        return updater.status()
    if args.rollback:
        return updater.rollback(force=args.force)
    if R.migrate(layout, _installed_unit(layout), updater.say):
        updater.tell(f"moved the old layout into release {layout.current()}")
    online = args.online
    if args.index is not None:
        source, online = fetch_from_index(updater, args.index), True
    elif args.source:
        source = resolve(args.source)
        online = online or source.kind == "checkout"
    elif in_checkout():
        source, online = resolve(str(REPO_ROOT)), True
    else:
        raise UsageError("say where the new release comes from: --from PATH (a USB stick, a "
                         "wheel, a checkout) or --index")  # fmt: skip
    return updater.update(source, online=online)


def _say(text: str) -> None:
    with suppress(OSError):
        print(text, flush=True)


def _installed_unit(layout: R.Layout) -> bytes | None:
    unit = layout.p(R.UNIT_DIR / R.UNIT_NAME)
    return unit.read_bytes() if unit.is_file() and not unit.is_symlink() else None


def fetch_from_index(updater: Updater, version: str) -> Source:
    from haleakala.kit.sources import PROJECT, resolve

    current = updater.layout.current()
    if current is None:
        raise UsageError("the kit is not installed: install it first")
    incoming = updater.layout.prefix / "incoming"
    shutil.rmtree(incoming, ignore_errors=True)
    incoming.mkdir(parents=True)
    wanted = f"{PROJECT}=={version}" if version else PROJECT
    code, out = updater.runner.capture(
        [str(updater.layout.python(current)), "-m", "pip", "download", "--no-deps", "--dest",
         str(incoming), wanted], timeout=CHECK_TIMEOUT_S)  # fmt: skip
    if code != 0:
        raise UsageError(f"the package index did not give {wanted}: {_lines(out)}")
    return resolve(str(incoming))


def reexec_from_release() -> None:
    """Run the rest from the release's real path: ``/opt/haleakala/venv`` goes through
    ``current``, which this command switches; a module imported after the switch must come
    from the release that started, not from the new one."""
    real = os.path.realpath(sys.prefix)
    if real != sys.prefix and os.environ.get("HALEAKALA_UPDATE_REEXEC") != "1":
        os.environ["HALEAKALA_UPDATE_REEXEC"] = "1"
        python = os.path.join(real, "bin", "python")
        os.execv(python, [python, "-m", "haleakala", *sys.argv[1:]])
