"""The unit as the updater sees it: systemd's word (``systemctl show``) and the daemon's own
health record, waited for with an injectable clock; and what the data on the card is
(formats, the game and decision ``haleakala journal check`` names).

``Systemd`` drives the real unit; the tests give the updater a stand-in with the same four
methods, so a release that never says READY, one that resumes at another decision and one
that crash-loops are all played on the host."""

from __future__ import annotations

import json
import re
import shlex
import struct
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from haleakala.kit.releases import Layout, health, proves

UNIT = "haleakala.service"
PROPERTIES = ("ActiveState", "SubState", "Result", "MainPID", "NRestarts", "StatusText")
POSITION = re.compile(r"game (\S+) \((\w+), seed (\d+)\) at decision (\d+), digest ([0-9a-f]+)")
"""``haleakala journal check``'s sentence (every release since the journal has said it)."""


class Service(Protocol):
    def available(self) -> bool: ...

    def show(self) -> dict[str, str]: ...

    def act(self, verb: str) -> tuple[int, str]: ...


@dataclass
class Systemd:
    """``systemctl`` on the unit; ``available``: systemd is PID 1 here (not a chroot)."""

    root: Path = Path("/")
    say: Callable[[str], None] = print

    def available(self) -> bool:
        return self.root == Path("/") and Path("/run/systemd/system").is_dir()

    def _run(self, argv: Sequence[str]) -> tuple[int, str]:
        try:
            done = subprocess.run(["systemctl", *argv], capture_output=True, text=True,
                                  timeout=900)  # fmt: skip
        except (FileNotFoundError, subprocess.TimeoutExpired) as exc:
            return 1, str(exc)
        return done.returncode, done.stdout + done.stderr

    def show(self) -> dict[str, str]:
        _, out = self._run(["show", UNIT, *(f"-p{p}" for p in PROPERTIES)])
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def act(self, verb: str) -> tuple[int, str]:
        """start, stop, restart, daemon-reload, reset-failed."""
        argv = [verb] if verb == "daemon-reload" else [verb, UNIT]
        self.say(f"$ systemctl {shlex.join(argv)}")
        return self._run(argv)


@dataclass
class Waiter:
    """Waits for the release's daemon to prove itself, or says why it did not."""

    layout: Layout
    service: Service
    timeout_s: float
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    crash_limit: int = 3
    seen: dict[str, Any] = field(default_factory=dict)

    def wait(self, trial: dict[str, Any]) -> str | None:
        """None once systemd says active (READY=1 for Type=notify) and the daemon of that
        process wrote a health record proving ``trial``; else a sentence saying why not."""
        start = self.clock()
        first = self.service.show()
        restarts = int(first.get("NRestarts", "0") or 0)
        while True:
            props = self.service.show()
            record = health(self.layout)
            self.seen = {"systemd": props, "health": record}
            pid = props.get("MainPID", "0")
            if (props.get("ActiveState") == "active" and record is not None
                    and str(record.get("pid")) == pid and pid != "0"):  # fmt: skip
                why = proves(record, trial)
                if why is None or record.get("release") == trial.get("release"):
                    return why
            if props.get("ActiveState") == "failed":
                return f"its unit failed ({props.get('Result')}: {props.get('StatusText') or '-'})"
            crashes = int(props.get("NRestarts", "0") or 0) - restarts
            if crashes >= self.crash_limit:
                return f"its daemon exited {crashes} times before it resumed the game"
            if self.clock() - start > self.timeout_s:
                state = f"{props.get('ActiveState')}/{props.get('SubState')}"
                return (
                    f"it did not resume the game within {self.timeout_s:.0f} s (systemd: "
                    f"{state}, {props.get('StatusText') or 'no status'})"
                )
            self.sleep(1.0)  # a systemctl call each: little, even under emulation


# --------------------------------------------------------------------------- data on the card

FRAME = struct.Struct(">II")


def data_formats(state: Path) -> dict[str, Any]:
    """The formats of the data files in the state directory (None: no such file)."""
    found: dict[str, Any] = {"journal": None, "snapshot": None, "lesson": None}
    journal = state / "journal.bin"
    if journal.is_file():
        with journal.open("rb") as f:
            head = f.read(FRAME.size)
            if len(head) == FRAME.size:
                length, _ = FRAME.unpack(head)
                try:
                    found["journal"] = json.loads(f.read(min(length, 1 << 16))).get("version")
                except (ValueError, AttributeError):
                    found["journal"] = "unreadable"
    for key, name, field_name in (("snapshot", "snapshot.json", "version"),
                                  ("lesson", "lesson.json", "format")):  # fmt: skip
        path = state / name
        if path.is_file():
            try:
                found[key] = json.loads(path.read_bytes()[: 1 << 20]).get(field_name)
            except (OSError, ValueError, AttributeError):
                found[key] = "unreadable"
    return found


def unreadable(formats: dict[str, Any], reads: dict[str, Any], release: str) -> str | None:
    """Why ``release`` (reading ``reads``) cannot take the data as it is, or None."""
    journal, known = formats.get("journal"), reads.get("journal")
    if isinstance(journal, int) and isinstance(known, int) and journal > known:
        return (
            f"the journal is format {journal} and release {release} reads format {known}: it "
            "would not resume this game. Finish the game first (a finished game is kept as "
            "its game log), or stay on this release"
        )
    lesson, lesson_known = formats.get("lesson"), reads.get("lesson")
    if lesson and lesson_known and lesson != lesson_known:
        return f"the lesson in progress is {lesson}, release {release} reads {lesson_known}"
    return None


def position(out: str) -> dict[str, Any] | None:
    """The game and decision a ``journal check`` named (None: no game on the table)."""
    match = POSITION.search(out)
    if match is None:
        return None
    return {"game": match[1], "decision": int(match[4]), "digest": match[5],
            "state": "paused" if "the journal waits" in out else "resumed"}  # fmt: skip
