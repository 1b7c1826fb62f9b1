"""The crash run's agent: runs *inside* the booted virtual Pi (stdlib only, Debian's python3).

``tools/virtual-pi crash`` boots the image with its card behind QEMU's blklogwrites driver and
copies this file to the 9p share as ``agent.py`` (the image's launcher runs whatever is
there). It reports each moment the host must tie to the block log as one ``VPI crash: ...``
line on the serial console; the host reads the log's size when it sees the line.

Plan (``plan.json``): ``game`` (haleakala or kanaloa), ``policy`` (the scripted player's
seed), ``settle_s`` (after the daemon's READY, before anything is measured), ``idle_s`` (a
window in which nobody plays: the kit on the table, a game dealt, waiting), ``kanaloa`` (the
command line of the Kanaloa host).

- haleakala: the unit started at boot dealt the image's game and waits; after the idle window
  it is restarted with ``--autoplay``: the scripted player plays that game to its end through
  the simulated board, the unit's daemon acknowledges (``ack decision N``) and exits.
- kanaloa: the board daemon plays Haleakala only; a Kanaloa table is kept by the remote
  host's journal (``run --remote --host``, every other seat a bot of the host). It runs as a
  unit made from haleakala.service's own [Service] sandbox (user, state directory) with the
  drop-in ``haleakala install`` adds while ``[remote]`` is enabled (``remote_dropin``: the
  MQTT client needs AF_INET even for its broker on the loopback; the guest has no network
  card), with the board daemon stopped; ``N: seat decision`` is its acknowledgement.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import time
from pathlib import Path

HOST = Path("/mnt/host")
UNIT = "haleakala"
KANALOA_UNIT = "haleakala-kanaloa"
ENV_FILE = Path("/etc/haleakala/virtual-pi.env")
UNIT_FILE = Path("/etc/systemd/system/haleakala.service")
CONSOLE = "/dev/ttyAMA0"


def say(text: str) -> None:
    line = f"VPI crash: {text}\n"
    with contextlib.suppress(OSError), open(CONSOLE, "w") as tty:
        tty.write(line)
    with contextlib.suppress(OSError), open(HOST / "agent.log", "a") as log:
        log.write(line)


def uptime() -> str:
    return Path("/proc/uptime").read_text().split()[0]


def run(argv: list[str] | str) -> subprocess.CompletedProcess:
    return subprocess.run(argv, shell=isinstance(argv, str), text=True, capture_output=True)


def processes(unit: str) -> bool:
    """Whether the unit's cgroup holds a process (a file read, not a D-Bus call)."""
    try:
        return bool(Path(f"/sys/fs/cgroup/system.slice/{unit}.service/cgroup.procs")
                    .read_text().strip())  # fmt: skip
    except OSError:
        return False


def wait(test, timeout: float, step: float = 0.5) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if test():
            return True
        time.sleep(step)
    return False


def write_env(args: str) -> None:
    with open(ENV_FILE, "w") as f:
        f.write(f"VPI_ARGS={args}\n")
        f.flush()
        os.fsync(f.fileno())


def active(unit: str) -> bool:
    return run(["systemctl", "is-active", unit]).stdout.strip() == "active"


def show(unit: str, *props: str) -> dict[str, str]:
    out = run(["systemctl", "show", unit, *(f"-p{p}" for p in props)]).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def play_haleakala(plan: dict) -> dict[str, str]:
    env = ENV_FILE.read_text()
    seed = re.search(r"--seed (\d+)", env)
    run(["systemctl", "stop", UNIT])  # (returns when it has stopped: no gap to mistake)
    write_env(f"--seed {seed[1] if seed else 7} --autoplay {plan['policy']}")
    say("game start")
    run(["systemctl", "start", "--no-block", UNIT])
    wait(lambda: processes(UNIT), 600)
    wait(lambda: not processes(UNIT), 7200, 1.0)
    return show(UNIT, "Result", "ExecMainStatus")


def kanaloa_unit(command: str) -> str:
    """haleakala.service's [Unit] and [Service] sandbox around the Kanaloa host's command."""
    text = UNIT_FILE.read_text().split("[Install]")[0]
    keep = [line for line in text.splitlines()
            if not re.match(r"(Type|NotifyAccess|WatchdogSec|ExecStart|Restart\w*|"
                            r"TimeoutStartSec|StartLimit\w+|Description)=", line)]  # fmt: skip
    body = "\n".join(keep)
    return body.replace("[Service]", f"[Service]\nType=exec\nExecStart={command}\n", 1).replace(
        "[Unit]", "[Unit]\nDescription=Kanaloa host kit (tools/virtual-pi crash)", 1
    )


def play_kanaloa(plan: dict) -> dict[str, str]:
    run(["systemctl", "stop", UNIT])
    Path(f"/run/systemd/system/{KANALOA_UNIT}.service").write_text(kanaloa_unit(plan["kanaloa"]))
    dropins = Path(f"/run/systemd/system/{KANALOA_UNIT}.service.d")
    dropins.mkdir(parents=True, exist_ok=True)
    (dropins / "remote.conf").write_text(plan["remote_dropin"])
    run(["systemctl", "daemon-reload"])
    run("sync")
    say("game start")
    run(["systemctl", "start", "--no-block", KANALOA_UNIT])
    wait(lambda: processes(KANALOA_UNIT), 600)
    wait(lambda: not processes(KANALOA_UNIT), 7200, 1.0)
    return show(KANALOA_UNIT, "Result", "ExecMainStatus")


def main() -> int:
    import json

    plan = json.loads((HOST / "plan.json").read_text())
    say(f"agent up, game {plan['game']}, uptime {uptime()} s")
    if not wait(lambda: active(UNIT), 900, 2.0):
        say("the unit never became active")
    time.sleep(float(plan.get("settle_s", 60)))
    idle = float(plan.get("idle_s", 0))
    if idle:
        say(f"idle start uptime {uptime()}")
        time.sleep(idle)
        say(f"idle end uptime {uptime()}")
    result = play_haleakala(plan) if plan["game"] == "haleakala" else play_kanaloa(plan)
    say(f"game done {result.get('Result')} {result.get('ExecMainStatus')} uptime {uptime()}")
    time.sleep(float(plan.get("after_s", 20)))  # what the end of a game leaves to write
    say("done")
    time.sleep(3600)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
