"""The booted virtual Pi's agent for ``tools/virtual-pi update`` (runs *inside* the guest,
stdlib only; the share holds it as ``agent.py``, which the image's launcher runs, and the
boot harness's agent beside it as ``vpi_agent.py`` for its helpers).

Each boot it reports what the kit booted into (``boot-N.json``: the current release, whether
it is whole — its ``release.json`` there and its venv's Python importing the package — the
trial marker, what the boot-time release check did), then runs the plan's updates one after
the other with ``haleakala update`` as a maker would, every line of its output on the serial
console (``VPI update: ...``: the host times its power cuts on them), while the scripted
player goes on playing (a new game when one is over, never while an update holds the unit).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vpi_agent as A  # the boot harness's agent, beside this file in the share

PREFIX = Path("/opt/haleakala")
HALEAKALA = PREFIX / "venv/bin/haleakala"
GAME_OVER = "autoplay: game over"
LATE = 150
"""An update waits for the next game when this one is past this many decisions (a game is
400-500): the game must not end while the unit is being switched."""


def current_release() -> dict:
    found: dict = {"current": None, "whole": False}
    try:
        name = os.readlink(PREFIX / "current").rsplit("/", 1)[-1]
    except OSError as exc:
        found["problem"] = f"no current link: {exc}"
        return found
    found["current"] = name
    release = PREFIX / "releases" / name
    found["manifest"] = (release / "release.json").is_file()
    done = A.run([str(PREFIX / "venv/bin/python"), "-c", "import haleakala.cli.run"])
    found["imports"] = done.returncode == 0
    found["whole"] = found["manifest"] and found["imports"]
    if not found["imports"]:
        found["problem"] = done.stderr[-500:]
    found["unit_link"] = os.readlink("/etc/systemd/system/haleakala.service")
    return found


def report(boot: int, games: Games) -> dict:
    """What the kit booted into, once the daemon is up (or after ten minutes without it). A
    game that was over at the cut: its daemon says READY and exits at once, and the next
    game starts (the daemon of that one is the one waited for)."""
    up, end = False, time.monotonic() + 600
    while not up and time.monotonic() < end:
        up = A.active() is not None
        if not up:
            games.tick()
            time.sleep(2.0)
    check = A.run(["journalctl", "-u", "haleakala-release-check", "-b", "-o", "cat",
                   "--no-pager"]).stdout.strip()  # fmt: skip
    found = {"boot": boot, "daemon_active": up, "release_check": check[-2000:],
             "trial_left": (PREFIX / "trial.json").exists(), **current_release(),
             "releases": sorted(os.listdir(PREFIX / "releases")),
             "previous": os.path.basename(os.readlink(PREFIX / "previous"))
             if (PREFIX / "previous").is_symlink() else None}  # fmt: skip
    A.put(f"boot-{boot}.json", found)
    A.say(f"booted into release {found['current']} (whole: {found['whole']}, daemon up: {up})")
    return found


def prepare(plan: dict) -> None:
    """The first boot: a fresh game, played at the plan's pace."""
    A.run(["systemctl", "stop", A.UNIT], check=True)
    for name in ("journal.bin", "snapshot.json"):
        (A.STATE / name).unlink(missing_ok=True)
    A.write_env(f"--seed {plan['game_seed']} --autoplay {plan['policy']} "
                f"--autoplay-pace {plan['pace']}")  # fmt: skip
    A.run("sync")
    A.run(["systemctl", "start", A.UNIT], check=True)


def acks_now() -> tuple[int, bool]:
    """The last decision the running daemon acknowledged, and whether its game is over."""
    pid = A.show("MainPID").get("MainPID", "0")
    if pid == "0":
        return -1, False
    lines = A.messages(f"_PID={pid}")
    acks = [int(m.split()[2]) for m in lines if m.startswith("ack decision ")]
    resumed = [int(x) for m in lines for x in re.findall(r" at decision (\d+),", m)]
    return max(acks + resumed + [0]), any(m.startswith(GAME_OVER) for m in lines)


class Games:
    """A new game whenever the last one is over (the daemon exits 0 after its game-over
    line), unless ``held``: an update is running."""

    def __init__(self, plan: dict) -> None:
        self.plan = plan
        self.held = False

    def over(self) -> bool:
        if A.unit_has_processes():
            return False
        props = A.show("ActiveState", "ExecMainPID", "ExecMainStatus")
        if props.get("ActiveState") not in ("inactive", "failed") or props.get(
                "ExecMainStatus") != "0":  # fmt: skip
            return False
        return any(m.startswith(GAME_OVER) for m in A.messages(f"_PID={props['ExecMainPID']}"))

    def tick(self) -> None:
        if self.held or not self.over() or self.held:  # held again: it may have changed
            return
        env = A.ENV_FILE.read_text()
        seed = int(re.search(r"--seed (\d+)", env).group(1)) + 1
        for name in ("journal.bin", "snapshot.json"):
            (A.STATE / name).unlink(missing_ok=True)
        fd = os.open(A.STATE, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
        A.write_env(f"--seed {seed} --autoplay {self.plan['policy']} "
                    f"--autoplay-pace {self.plan['pace']}")  # fmt: skip
        A.say(f"new game seed {seed}")
        A.run(["systemctl", "start", A.UNIT])


def early_game(games: Games, limit: float) -> None:
    """Wait until a game is on and early enough that it outlasts an update."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        games.tick()
        if A.active():
            acked, over = acks_now()
            if 2 <= acked <= LATE and not over:
                return
        time.sleep(2.0)
    raise TimeoutError("no early game to update under")


def update(source: str, plan: dict, games: Games, index: int) -> dict:
    """One ``haleakala update``, its output on the console line by line."""
    argv = [str(HALEAKALA), "update", "--from", source, "--health-timeout",
            str(plan["health_timeout"])]  # fmt: skip
    A.say(f"update {index} from {source}")
    # No new game while an update runs, even in its build: the agent's "game over? then a
    # new game" takes seconds of systemctl and journalctl under emulation, and a first run
    # started one while the updater stopped the unit (it then waited for its health check
    # in vain). A game that ends meanwhile waits; the updater's start deals the next one.
    games.held = True
    started = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            bufsize=1)  # fmt: skip
    lines: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            line = line.rstrip()
            lines.append(line)
            A.say(f"update: {line}")

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    while proc.poll() is None:
        games.tick()
        time.sleep(1.0)
    reader.join(30)
    games.held = False
    result = {"source": source, "exit": proc.returncode, "lines": lines[-60:],
              "seconds": round(time.monotonic() - started, 1)}  # fmt: skip
    A.say(f"update {index} exit {proc.returncode}")
    return result


def main() -> int:
    plan = json.loads((A.HOST / "plan.json").read_text())
    boot = int(plan["boot"])
    A.say(f"agent up, mode update, boot {boot}")
    games = Games(plan)
    found = report(boot, games)
    if plan.get("prepare"):
        prepare(plan)
    results = []
    for index, step in enumerate(plan.get("updates", [])):
        source = step["from"]
        if source == "toggle":  # the other of the two built releases
            source = step["a"] if found["current"] and found["current"].startswith(
                step["b_version"]) else step["b"]  # fmt: skip
        try:
            early_game(games, 1800)
        except TimeoutError as exc:
            results.append({"source": source, "exit": None, "problem": str(exc)})
            break
        results.append(update(source, plan, games, index))
        A.put(f"updates-{boot}.json", results)
        found = current_release()
    A.put(f"updates-{boot}.json", results)
    A.say("updates done")
    while True:  # the games go on until the host cuts the power
        games.tick()
        time.sleep(1.0)


if __name__ == "__main__":
    sys.exit(main())
