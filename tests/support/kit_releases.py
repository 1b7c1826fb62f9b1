"""A kit under a temporary root for the release and update tests: a runner that builds
releases the way pip would leave them (without pip), a systemd that starts the current
release's "daemon" (a scripted behaviour per release), and the files an installed kit has."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from haleakala.kit import releases as R
from haleakala.kit.builder import FORMATS_CODE

UNIT = (
    "[Unit]\nDescription=Haleakala Companion\n\n[Service]\nType=notify\n"
    "ExecStart=/opt/haleakala/venv/bin/haleakala run --hardware pi\n\n"
    "[Install]\nWantedBy=multi-user.target\n"
)
FORMATS = {"journal": 1, "snapshot": 1, "lesson": "haleakala-lesson-1", "config": 1}
GAME = {"game": "g-7f3a", "decision": 12, "digest": "ab12cd34"}


def journal_sentence(game: dict | None) -> str:
    if not game:
        return "no game in /var/lib/haleakala: a start begins a new one\n"
    return (
        f"journal OK: game {game['game']} (base, seed 7) at decision {game['decision']}, "
        f"digest {game['digest']}; nothing to repair\n"
    )


@dataclass
class Kit:
    """What each command answers, per release (by the version in its name)."""

    root: Path
    game: dict | None = field(default_factory=lambda: dict(GAME))
    answers: dict[str, Callable[[str, list[str]], tuple[int, str]]] = field(default_factory=dict)
    commands: list[str] = field(default_factory=list)
    formats: dict = field(default_factory=lambda: dict(FORMATS))

    @property
    def layout(self) -> R.Layout:
        return R.Layout(self.root)

    def release_of(self, argv: Sequence[str]) -> str:
        parts = Path(argv[0]).parts
        return parts[parts.index("releases") + 1] if "releases" in parts else ""

    # the runner's two methods
    def run(self, argv: Sequence[str]) -> None:
        code, out = self.capture(argv)
        assert code == 0, out

    def capture(self, argv: Sequence[str], timeout: float | None = None) -> tuple[int, str]:
        argv = list(argv)
        self.commands.append(shlex.join(argv))
        release = self.release_of(argv)
        for key, answer in self.answers.items():
            if key in " ".join(argv):
                result = answer(release, argv)
                if result is not None:
                    return result
        if argv[1:3] == ["-m", "venv"]:
            venv = self.layout.p(argv[-1])
            (venv / "bin").mkdir(parents=True)
            (venv / "bin" / "python").write_text("#!/bin/false\n")
            (venv / "pyvenv.cfg").write_text("include-system-site-packages = true\n")
        elif argv[1:3] == ["-m", "pip"] and "wheel" in argv and "--no-deps" in argv:
            dist = self.layout.p(argv[argv.index("--wheel-dir") + 1])
            dist.mkdir(parents=True, exist_ok=True)
            (dist / "haleakala_companion-0.1.0-py3-none-any.whl").write_bytes(b"wheel")
        elif argv[1:3] == ["-m", "pip"] and "install" in argv and "--no-index" in argv:
            venv = self.layout.p(argv[0]).parent.parent
            units = venv / "lib/python3.11/site-packages/haleakala/kit/systemd"
            units.mkdir(parents=True, exist_ok=True)
            (units / "haleakala.service").write_text(UNIT)
            (units / "haleakala-release-check.service").write_text("[Unit]\n")
        elif argv[1:] == ["-c", FORMATS_CODE]:
            return 0, json.dumps(self.formats) + "\n"
        elif argv[1:4] == ["-m", "haleakala", "journal"]:
            return 0, journal_sentence(self.game)
        return 0, ""


@dataclass
class Daemon:
    """How a release's daemon behaves when systemd starts it."""

    resumes: bool = True  # writes its health record (READY=1 and the game resumed)
    crashes: bool = False  # exits at once, again and again (Restart=on-failure)
    other_decision: bool = False  # resumes, but at another decision
    new_game: bool = False  # deals a new game (and replaces the journal)


@dataclass
class FakeSystemd:
    kit: Kit
    behaviour: dict[str, Daemon] = field(default_factory=dict)  # by release name prefix
    acts: list[str] = field(default_factory=list)
    props: dict[str, str] = field(
        default_factory=lambda: {
            "ActiveState": "active",
            "SubState": "running",
            "MainPID": "100",
            "NRestarts": "0",
            "Result": "success",
            "StatusText": "round 3",
        }
    )
    pid: int = 100
    up: bool = True

    def available(self) -> bool:
        return self.up

    def daemon(self) -> Daemon:
        current = self.kit.layout.current() or ""
        return next((d for k, d in self.behaviour.items() if current.startswith(k)), Daemon())

    def show(self) -> dict[str, str]:
        if self.props["ActiveState"] == "activating" and self.daemon().crashes:
            self.props["NRestarts"] = str(int(self.props["NRestarts"]) + 1)
        return dict(self.props)

    def act(self, verb: str) -> tuple[int, str]:
        self.acts.append(verb)
        if verb == "stop":
            self.props.update(ActiveState="inactive", SubState="dead", MainPID="0")
        elif verb == "start":
            self.pid += 1
            daemon = self.daemon()
            if daemon.crashes or not daemon.resumes:
                self.props.update(ActiveState="activating", SubState="start", MainPID=str(self.pid))
                return 0, ""
            self.props.update(ActiveState="active", SubState="running", MainPID=str(self.pid))
            game = dict(self.kit.game or {"game": None, "decision": 0, "digest": "00"})
            if daemon.other_decision:
                game["decision"] -= 1
            state = self.kit.layout.state
            state.mkdir(parents=True, exist_ok=True)
            if daemon.new_game:
                game = {"game": "g-new", "decision": 0, "digest": "00"}
                (state / "journal.bin").write_bytes(b"the new game's journal")
            (state / R.HEALTH).write_text(json.dumps(
                {"pid": self.pid, "release": self.kit.layout.current(), "state": "resumed",
                 **game}))  # fmt: skip
        return 0, ""


def installed(root: Path, name: str = "0.1.0-aaaaaaaaaa-pi", *, built: str = "1") -> R.Layout:
    """A kit with one release, switched to, and its config and state directory."""
    layout = R.Layout(root)
    add_release(layout, name, built=built)
    R.switch(layout, name)
    (root / "etc/haleakala").mkdir(parents=True, exist_ok=True)
    (root / "etc/haleakala/config.toml").write_text('model = "pi4"\n')
    (root / "var/lib/haleakala").mkdir(parents=True, exist_ok=True)
    return layout


def add_release(layout: R.Layout, name: str, *, built: str = "1", unit: str = UNIT) -> Path:
    folder = layout.release(name)
    (folder / "venv" / "bin").mkdir(parents=True)
    (folder / "systemd").mkdir()
    (folder / "systemd" / "haleakala.service").write_text(unit)
    manifest = {"name": name, "version": name.split("-")[0], "built": built,
                "formats": dict(FORMATS)}  # fmt: skip
    (folder / R.MANIFEST).write_text(json.dumps(manifest))
    return folder


class Cut(Exception):
    """The power went: nothing after this point happened."""


def cut_after(monkeypatch, steps: int) -> None:
    """The file system's renames and links (what a switch is made of) stop after ``steps``."""
    count = {"n": 0}
    real = {"replace": os.replace, "symlink": os.symlink, "rename": Path.rename}

    def counted(name):
        def step(*args, **kw):
            if count["n"] >= steps:
                raise Cut(name)
            count["n"] += 1
            return real[name](*args, **kw)

        return step

    monkeypatch.setattr(R.os, "replace", counted("replace"))
    monkeypatch.setattr(R.os, "symlink", counted("symlink"))
    monkeypatch.setattr(Path, "rename", counted("rename"))


def whole(layout: R.Layout) -> str:
    """The release the kit boots into: current names a whole release, and the unit and the
    venv path reach it."""
    name = layout.current()
    assert name is not None and layout.complete(name)
    assert (layout.prefix / "venv").resolve() == layout.venv(name).resolve()
    assert os.readlink(layout.p(R.UNIT_DIR / R.UNIT_NAME)) == str(R.UNIT_TARGET)
    return name
