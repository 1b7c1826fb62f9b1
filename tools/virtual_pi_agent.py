"""The booted virtual Pi's agent: runs *inside* the guest (stdlib only, Debian's python3).

``tools/virtual-pi boot`` boots the arm64 image under qemu-system-aarch64; the guest's unit
``virtual-pi-agent.service`` mounts the host's 9p share at /mnt/host and runs this file with
the plan the host wrote there (``plan.json``). Results go back as JSON files in the share, and
one-line progress reports (``VPI ...``) to the serial console, where the host also reads every
journal line (journald forwards to the console), among them the daemon's ``ack decision N``.

Modes:
- ``checks``: what a Pi runs after ``haleakala install`` and a reboot: the unit started at
  boot (notify: active only after READY=1), the process's sandbox (seccomp, no W+X memory,
  user and groups, what it can and cannot open, through a copy of the unit's own sandbox),
  the watchdog restarting a stalled (SIGSTOPped) daemon, journald's priorities, the live
  view refused without its drop-in and served with it (token or 403), ``haleakala selftest
  --auto`` and one whole autoplayed game with the bytes it wrote; then the cuts' first game
  is set up and the machine powers off cleanly.
- ``cuts``: the daemon autoplays on its own (the unit starts at boot); the host kills qemu at
  a moment of its choosing. This agent only reports the game on disk at boot and starts the
  next game when one is over (the scripted player has no "new game" menu entry).
- ``readonly``: as ``cuts``, then the ext4 file system is made to fail under the running
  daemon (``/sys/fs/ext4/vda/trigger_fs_error``: ``errors=remount-ro`` turns it read-only)
  and the host cuts the power once the daemon has said it cannot save.
"""

from __future__ import annotations

import contextlib
import glob
import grp
import http.client
import json
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

HOST = Path("/mnt/host")
UNIT = "haleakala"
STATE = Path("/var/lib/haleakala")
CONFIG = Path("/etc/haleakala/config.toml")
ENV_FILE = Path("/etc/haleakala/virtual-pi.env")
UNIT_DIR = Path("/etc/systemd/system")
DROPINS = UNIT_DIR / "haleakala.service.d"
CHECKOUT = Path("/home/pi/haleakala")
VENV = Path("/opt/haleakala/venv")
CONSOLE = "/dev/ttyAMA0"


def say(text: str) -> None:
    """One line to the serial console (the host reads it) and to the share's log."""
    line = f"VPI {text}\n"
    with contextlib.suppress(OSError), open(CONSOLE, "w") as tty:
        tty.write(line)
    with contextlib.suppress(OSError), open(HOST / "agent.log", "a") as log:
        log.write(line)


def put(name: str, value: object) -> None:
    """A result file in the share, whole or not at all."""
    tmp = HOST / f".{name}.tmp"
    tmp.write_text(json.dumps(value, indent=1))
    tmp.replace(HOST / name)


def run(argv: list[str] | str, check: bool = False, **kw) -> subprocess.CompletedProcess:
    shell = isinstance(argv, str)
    return subprocess.run(argv, shell=shell, text=True, capture_output=True, check=check, **kw)


def show(*props: str) -> dict[str, str]:
    out = run(["systemctl", "show", UNIT, *(f"-p{p}" for p in props)]).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def wait(what: str, test, timeout: float, step: float = 0.5):
    """Poll ``test`` until it is truthy (its value) or ``timeout`` emulated seconds pass."""
    end = time.monotonic() + timeout
    while True:
        value = test()
        if value:
            return value
        if time.monotonic() > end:
            raise TimeoutError(f"{what}: not within {timeout:.0f} s")
        time.sleep(step)


def active() -> dict[str, str] | None:
    props = show("ActiveState", "SubState", "MainPID", "NRestarts")
    return props if props.get("ActiveState") == "active" and props["MainPID"] != "0" else None


def journal(*args: str) -> list[dict]:
    out = run(["journalctl", "-u", UNIT, "-b", "-o", "json", "--no-pager", *args]).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


LEVEL = re.compile(r"^(DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+: ")


def text(entry: dict) -> str:
    """An entry's message without the daemon's "INFO haleakala.daemon: " (the priority is the
    entry's own field, from the <N> prefix)."""
    return LEVEL.sub("", str(entry.get("MESSAGE", "")))


def messages(*args: str) -> list[str]:
    return [text(e) for e in journal(*args)]


def proc_status(pid: int) -> dict[str, str]:
    text = Path(f"/proc/{pid}/status").read_text()
    return {k: v.strip() for k, v in (line.split(":", 1) for line in text.splitlines())}


def write_env(args: str) -> None:
    """The daemon's extra arguments for the next start (durable: a cut may follow)."""
    with open(ENV_FILE, "w") as f:
        f.write(f"VPI_ARGS={args}\n")
        f.flush()
        os.fsync(f.fileno())
    fd = os.open(ENV_FILE.parent, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)


def set_web(enabled: bool) -> None:
    """``enabled`` in the config's [web] table (the installed config keeps its comments)."""
    lines = CONFIG.read_text().splitlines(keepends=True)
    table = ""
    for i, line in enumerate(lines):
        if line.startswith("["):
            table = line.strip()
        elif table == "[web]" and line.startswith("enabled ="):
            lines[i] = f"enabled = {str(enabled).lower()}\n"
    CONFIG.write_text("".join(lines))


def vda_written() -> int:
    """Bytes written to the virtual card since boot (/sys/block/vda/stat, sectors of 512)."""
    return int(Path("/sys/block/vda/stat").read_text().split()[6]) * 512


def io_written(pid: int) -> int | None:
    try:
        text = Path(f"/proc/{pid}/io").read_text()
    except OSError:
        return None
    return int(re.search(r"write_bytes: (\d+)", text).group(1))


def journald_pid() -> int:
    return int(run(["systemctl", "show", "systemd-journald", "-pMainPID", "--value"]).stdout)


class Checks:
    """The functional checks, each recorded as a step (name, ok, details)."""

    def __init__(self, plan: dict) -> None:
        self.plan = plan
        self.steps: list[dict] = []
        self.facts: dict = {}

    def step(self, name: str, fn) -> None:
        started = time.monotonic()
        try:
            detail = fn() or {}
            ok, problem = True, None
        except Exception as exc:  # a failed step is reported, the next ones still run
            detail, ok, problem = {}, False, f"{type(exc).__name__}: {exc}"
        record = {"step": name, "ok": ok, "seconds": round(time.monotonic() - started, 1),
                  **detail}  # fmt: skip
        if problem:
            record["problem"] = problem
        self.steps.append(record)
        say(f"{'ok' if ok else 'FAIL'} {name}" + (f": {problem}" if problem else ""))
        put("checks.json", {"steps": self.steps, "facts": self.facts})

    # -- 1. started by systemd at boot, READY after the first frame ----------------------

    def ready(self) -> dict:
        props = wait("the unit active after READY=1", active, 300, step=2.0)
        shown = show("Type", "NotifyAccess", "WatchdogUSec", "ActiveEnterTimestampMonotonic",
                     "StatusText", "UnitFileState", "ExecMainStartTimestampMonotonic")  # fmt: skip
        assert shown["Type"] == "notify" and shown["UnitFileState"] == "enabled", shown
        ready_s = int(shown["ActiveEnterTimestampMonotonic"]) / 1e6
        started_s = int(shown["ExecMainStartTimestampMonotonic"]) / 1e6
        first = next(e for e in journal() if text(e).startswith("ready: "))
        self.facts["boot"] = {
            "ready_s": round(ready_s, 2),
            "exec_started_s": round(started_s, 2),
            "ready_logged_s": round(int(first["__MONOTONIC_TIMESTAMP"]) / 1e6, 2),
            "systemd_analyze": run(["systemd-analyze", "time"]).stdout.strip(),
            "critical_chain": run(
                ["systemd-analyze", "critical-chain", f"{UNIT}.service", "--no-pager"]
            ).stdout.strip(),
        }
        return {"unit": shown, "main_pid": props["MainPID"]}

    # -- 2. the sandbox on the running process -------------------------------------------

    def sandbox(self) -> dict:
        pid = int(active()["MainPID"])
        status = proc_status(pid)
        groups = sorted(grp.getgrgid(int(g)).gr_name for g in status["Groups"].split())
        user = pwd.getpwuid(int(status["Uid"].split()[0])).pw_name
        maps = Path(f"/proc/{pid}/maps").read_text().splitlines()
        wx = [m for m in maps if "w" in m.split()[1] and "x" in m.split()[1]]
        props = show("MemoryDenyWriteExecute", "NoNewPrivileges", "ProtectSystem",
                     "PrivateNetwork", "RestrictAddressFamilies", "DevicePolicy", "UMask",
                     "PrivateMounts", "SystemCallErrorNumber")  # fmt: skip
        found = {"user": user, "group": grp.getgrgid(int(status["Gid"].split()[0])).gr_name,
                 "groups": groups, "Seccomp": status.get("Seccomp"),
                 "Seccomp_filters": status.get("Seccomp_filters"),
                 "NoNewPrivs": status.get("NoNewPrivs"), "CapEff": status.get("CapEff"),
                 "wx_mappings": wx, "unit": props}  # fmt: skip
        assert found["Seccomp"] == "2", found
        assert found["NoNewPrivs"] == "1" and int(found["CapEff"], 16) == 0, found
        assert user == "haleakala" and {"gpio", "spi", "i2c", "dialout"} <= set(groups), found
        assert props["MemoryDenyWriteExecute"] == "yes" and not wx, found
        return found

    def probe(self) -> dict:
        """A oneshot copy of the unit's own [Service] sandbox running a probe: what the
        daemon's process can and cannot do, tried from inside."""
        unit = (UNIT_DIR / f"{UNIT}.service").read_text()
        keep = [
            line for line in unit.split("[Install]")[0].splitlines()
            if not re.match(r"(Type|NotifyAccess|WatchdogSec|ExecStart|Restart\w*|"
                            r"TimeoutStartSec|StartLimit\w+)=", line)
        ]  # fmt: skip
        shutil.copy(HOST / "probe.py", "/run/haleakala-probe.py")
        probe = "\n".join(keep).replace("[Service]", "[Service]\nType=oneshot\n"
            f"ExecStart={VENV}/bin/python /run/haleakala-probe.py\n"
            "StandardOutput=journal\n", 1)  # fmt: skip
        Path("/run/systemd/system").mkdir(parents=True, exist_ok=True)
        Path("/run/systemd/system/haleakala-probe.service").write_text(probe)
        run(["systemctl", "daemon-reload"], check=True)
        done = run(["systemctl", "start", "haleakala-probe"])
        # The probe prints one JSON line to the journal (a file under /run is read-only to it:
        # ProtectSystem=strict, found in the first booted run).
        out = run(["journalctl", "-u", "haleakala-probe", "-b", "-o", "cat"]).stdout
        result = json.loads([line for line in out.splitlines() if line.startswith("{")][-1])
        assert done.returncode == 0, done.stderr
        expect = {
            "read the config": "ok", "write in the state directory": "ok",
            "write /etc": "EROFS", "write /opt/haleakala": "EROFS", "write /usr": "EROFS",
            "read /etc/shadow": "EACCES", "list /root": "EACCES", "list /home": "EACCES",
            "open /dev/vda": "EACCES", "an AF_INET socket": "EAFNOSUPPORT",
            "write+execute memory": "EPERM", "make memory executable": "EPERM",
            "setuid(0)": "EPERM", "see process 1": "ENOENT", "Seccomp": "2",
        }  # fmt: skip
        wrong = {k: (result.get(k), v) for k, v in expect.items() if result.get(k) != v}
        assert not wrong, wrong
        return {"probe": result}

    # -- 3. the watchdog ----------------------------------------------------------------

    def watchdog(self) -> dict:
        before = active()
        pid, restarts = int(before["MainPID"]), int(before["NRestarts"])
        os.kill(pid, signal.SIGSTOP)
        stopped = time.monotonic()
        after = wait("a new daemon after the watchdog", lambda: (a := active()) and
                     a["MainPID"] != str(pid) and a, 180)  # fmt: skip
        lines = [m for m in messages() if "atchdog" in m]
        assert int(after["NRestarts"]) == restarts + 1, after
        assert any("Watchdog timeout" in m for m in lines), lines
        return {"stalled_pid": pid, "new_pid": after["MainPID"],
                "restarted_after_s": round(time.monotonic() - stopped, 1),
                "NRestarts": after["NRestarts"], "journal": lines}  # fmt: skip

    # -- 4. an error the daemon logs, for journald's priorities --------------------------

    def storage_error(self) -> dict:
        run(["systemctl", "stop", UNIT], check=True)
        journal_bin = STATE / "journal.bin"
        os.chown(journal_bin, 0, 0)
        journal_bin.chmod(0o600)
        run(["systemctl", "start", UNIT], check=True)  # READY=1 while it waits for the fix
        wait("the daemon's error", lambda: any("not starting the game yet" in m
                                               for m in messages()), 120)  # fmt: skip
        user = pwd.getpwnam("haleakala")
        os.chown(journal_bin, user.pw_uid, user.pw_gid)
        wait("the game resumed after the fix", lambda: any(m.startswith("resumed game")
             for m in messages(f"_PID={active()['MainPID']}")), 120)  # fmt: skip
        return {}

    # -- 5. the live view: refused without the drop-in, served with it --------------------

    def live_view(self) -> dict:
        try:
            return self._live_view()
        finally:  # a failure here must not leave the listener on for the game and the cuts
            with contextlib.suppress(FileNotFoundError):
                (DROPINS / "live-view.conf").unlink()
            set_web(False)
            run(["systemctl", "daemon-reload"])
            run(["systemctl", "reset-failed", UNIT])

    def _live_view(self) -> dict:
        set_web(True)
        refused = run(["systemctl", "restart", UNIT])
        wait("the unit failed", lambda: show("ActiveState")["ActiveState"] == "failed", 120)
        props = show("ExecMainStatus", "Result")
        why = [m for m in messages() if m.startswith("live view: cannot listen")]
        assert props["ExecMainStatus"] == "2" and why, (props, why, refused.stderr)
        DROPINS.mkdir(exist_ok=True)
        shutil.copy(CHECKOUT / "systemd/live-view.conf", DROPINS / "live-view.conf")
        run(["systemctl", "daemon-reload"], check=True)
        run(["systemctl", "reset-failed", UNIT])
        run(["systemctl", "restart", UNIT], check=True)
        pid = active()["MainPID"]
        url = wait("the joining URL", lambda: next(
            (m.split(": ", 1)[1] for m in messages(f"_PID={pid}")
             if m.startswith("live view for this machine only: ")), None), 120)  # fmt: skip
        token = url.split("token=", 1)[1]

        def get(path: str, cookie: str | None = None) -> tuple[int, dict, bytes]:
            conn = http.client.HTTPConnection("127.0.0.1", 8080, timeout=30)
            conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
            resp = conn.getresponse()
            body = resp.read()
            conn.close()
            return resp.status, dict(resp.getheaders()), body

        bare = get("/")
        wrong = get("/?token=not-the-token")
        joined = get(f"/?token={token}")
        cookie = joined[1].get("Set-Cookie", "").split(";", 1)[0]
        page = get("/", cookie)
        found = {"without token": [bare[0], len(bare[2])],
                 "wrong token": [wrong[0], len(wrong[2])],
                 "with token": [joined[0], joined[1].get("Location")],
                 "page with the cookie": [page[0], page[1].get("Content-Type"),
                                          len(page[2])]}  # fmt: skip
        assert bare[0] == 403 and not bare[2] and wrong[0] == 403, found
        assert joined[0] in (302, 303) and cookie, found
        assert page[0] == 200 and b"<html" in page[2].lower(), found
        # back to the unit as installed (no listener): the game's bytes are measured alone
        (DROPINS / "live-view.conf").unlink()
        set_web(False)
        run(["systemctl", "daemon-reload"], check=True)
        return {"refused_without_dropin": why[0], "http": found}

    # -- 6. selftest -----------------------------------------------------------------------

    def selftest(self) -> dict:
        done = run([f"{VENV}/bin/haleakala", "selftest", "--auto", "--hardware", "sim",
                    "--config", str(CONFIG)], timeout=600)  # fmt: skip
        last = done.stdout.strip().splitlines()[-1:] or [""]
        assert done.returncode == 0 and re.match(r"(\d+) of \1 parts pass", last[0]), (
            done.stdout[-2000:] + done.stderr[-2000:]
        )
        return {"summary": last[0]}

    # -- 7. journald's priorities (after every error above) -------------------------------

    def priorities(self) -> dict:
        errors = journal("-p", "err")
        daemon = sorted({text(e) for e in errors if e.get("SYSLOG_IDENTIFIER") == "haleakala"})
        systemd = sorted({str(e["MESSAGE"]) for e in errors if e.get("_PID") == "1"})
        expected = (r"^not starting the game yet: ", r"^live view: cannot listen on ")
        unexpected = [m for m in daemon if not any(re.match(p, m) for p in expected)]
        missing = [p for p in expected if not any(re.match(p, m) for m in daemon)]
        infos = {
            text(e).split(" ")[0]: e["PRIORITY"]
            for e in journal("-p", "info")
            if text(e).startswith(("ack ", "ready:", "resumed "))
        }
        assert not unexpected and not missing, (unexpected, missing)
        assert set(infos.values()) == {"6"}, infos
        assert all("atchdog" in m or "Failed to start" in m for m in systemd), systemd
        return {"err_from_daemon": daemon, "err_from_systemd": systemd,
                "info_priorities": infos}  # fmt: skip

    # -- 8. one whole autoplayed game and its writes ---------------------------------------

    def game(self) -> dict:
        run(["systemctl", "stop", UNIT], check=True)
        for name in ("journal.bin", "snapshot.json"):
            with contextlib.suppress(FileNotFoundError):
                (STATE / name).unlink()
        seed, policy = self.plan["game_seed"], self.plan["policy"]
        write_env(f"--seed {seed} --autoplay {policy}")
        run("sync")
        jd = journald_pid()
        jd0, vda0 = io_written(jd), vda_written()
        run(["systemctl", "start", UNIT], check=True)
        pid = int(active()["MainPID"])
        written = 0
        started = time.monotonic()
        while show("MainPID")["MainPID"] == str(pid):
            written = io_written(pid) or written
            time.sleep(0.2)
        seconds = time.monotonic() - started
        run("sync")
        vda1, jd1 = vda_written(), io_written(jd)
        props = show("Result", "ExecMainStatus", "IOWriteBytes")
        lines = messages(f"_PID={pid}")
        over = [m for m in lines if m.startswith("autoplay: game over")]
        acks = [m for m in lines if m.startswith("ack decision ")]
        consumed = [m for m in messages() if "Consumed" in m][-1:]
        logs = sorted(glob.glob(str(STATE / "games" / "*.jsonl")), key=os.path.getmtime)
        assert props["Result"] == "success" and over, (props, lines[-5:])
        facts = {
            "seed": seed,
            "policy": policy,
            "decisions": len(acks),
            "over": over[0],
            "seconds": round(seconds, 1),
            "daemon_write_bytes": written,
            "journald_write_bytes": jd1 - jd0,
            "vda_written_bytes": vda1 - vda0,
            "systemd_consumed": consumed,
            "journal_bin_bytes": (STATE / "journal.bin").stat().st_size,
            "snapshot_bytes": (STATE / "snapshot.json").stat().st_size,
            "game_log_bytes": os.path.getsize(logs[-1]),
            "acks": [a.split(" digest ")[1] for a in acks],
        }
        self.facts["game"] = facts
        return {k: v for k, v in facts.items() if k != "acks"}

    # -- then: the first game of the power cuts, and a clean power-off --------------------

    def prepare_cuts(self) -> dict:
        run(["systemctl", "stop", UNIT], check=True)
        for name in ("journal.bin", "snapshot.json"):
            with contextlib.suppress(FileNotFoundError):
                (STATE / name).unlink()
        write_env(f"--seed {self.plan['cut_seed']} --autoplay {self.plan['policy']}")
        run("sync")
        return {}

    def all(self) -> None:
        self.step("started at boot, active after READY=1", self.ready)
        self.step("the sandbox on the daemon's process", self.sandbox)
        self.step("what the sandbox lets it open (a probe in the same sandbox)", self.probe)
        self.step("a stalled daemon is restarted by the watchdog", self.watchdog)
        self.step("a storage error is logged and the game waits for the fix", self.storage_error)
        self.step("the live view: refused without the drop-in, token-only with it",
                  self.live_view)  # fmt: skip
        self.step("haleakala selftest --auto", self.selftest)
        self.step("journalctl -p err shows exactly the errors", self.priorities)
        self.step("one whole autoplayed game", self.game)
        self.step("the power cuts' first game set up", self.prepare_cuts)
        put("checks.json", {"steps": self.steps, "facts": self.facts, "done": True})
        say("checks done")


# --------------------------------------------------------------------------- refresh


def refresh(plan: dict) -> dict:
    """``--refresh-code``: this checkout's wheel into the venv (no dependency changes: pip is
    told --no-deps --no-index), the checkout under /home/pi/haleakala, the plan's units masked;
    then what the daemon's start costs: Python's import times as the service user (who cannot
    write /opt, as under ProtectSystem=strict) and whether every module came from a .pyc."""
    found: dict = {}
    run(["systemctl", "stop", UNIT], check=True)
    wheel = sorted((HOST / "refresh").glob("*.whl"))[-1]
    started = time.monotonic()
    run([f"{VENV}/bin/pip", "install", "-q", "--no-deps", "--no-index", "--force-reinstall",
         str(wheel)], check=True)  # fmt: skip
    found["pip_install_s"] = round(time.monotonic() - started, 1)
    import tarfile

    shutil.rmtree(CHECKOUT)
    CHECKOUT.mkdir(parents=True)
    with tarfile.open(HOST / "refresh" / "checkout.tar") as tar:
        tar.extractall(CHECKOUT)
    pi = pwd.getpwnam("pi") if "pi" in {p.pw_name for p in pwd.getpwall()} else None
    if pi:
        run(["chown", "-R", f"{pi.pw_uid}:{pi.pw_gid}", str(CHECKOUT)])
    for unit in plan.get("mask", []):
        target = UNIT_DIR / unit
        if not target.is_symlink():
            with contextlib.suppress(FileNotFoundError):
                target.unlink()
            target.symlink_to("/dev/null")
    found["masked"] = plan.get("mask", [])
    # The unit as installed: no listener, no live-view drop-in (a run stopped in the live-view
    # step leaves both, and the next boot's daemon would then fail before READY).
    set_web(False)
    with contextlib.suppress(FileNotFoundError):
        (DROPINS / "live-view.conf").unlink()
    write_env("--seed 7")  # the image's own (no autoplay: the checks drive the daemon)
    found["version"] = run(
        [
            f"{VENV}/bin/python",
            "-c",
            "import haleakala, pathlib; print(pathlib.Path(haleakala.__file__).parent)",
        ]
    ).stdout.strip()
    as_user = ["runuser", "-u", "haleakala", "--", f"{VENV}/bin/python"]
    modules = "import haleakala.cli, haleakala.cli.run, haleakala.companion.daemon"
    for n in (1, 2):  # the first from a cold page cache, the second warm
        started = time.monotonic()
        done = run([*as_user, "-X", "importtime", "-c", modules])
        found[f"import_s_{n}"] = round(time.monotonic() - started, 2)
    rows = []
    for line in done.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)", line)
        if m:
            rows.append((int(m[2]), len(m[3]) // 2, m[4]))
    found["import_top_cumulative_us"] = [
        f"{us} {name}" for us, depth, name in sorted(rows, reverse=True) if depth <= 2
    ][:25]
    verbose = run([*as_user, "-v", "-c", modules]).stderr
    found["from_pyc"] = len(re.findall(r"^# code object from ", verbose, re.M))
    found["compiled_now"] = [
        line for line in verbose.splitlines() if "could not" in line or "bytecode is stale" in line
    ][:20]
    found["blame"] = run(["systemd-analyze", "blame", "--no-pager"]).stdout.splitlines()[:25]
    run("sync")
    return found


# --------------------------------------------------------------------------- cuts


def report_state(boot: int) -> None:
    """What is on the card at boot (the recovery's own report comes in the daemon's log)."""
    games = {}
    for path in sorted(glob.glob(str(STATE / "games" / "*.jsonl"))):
        try:
            lines = Path(path).read_text().splitlines()
            games[Path(path).name] = json.loads(lines[-1]) if lines else None
        except (OSError, ValueError) as exc:
            games[Path(path).name] = f"unreadable: {exc}"
    fsck = Path("/run/initramfs/fsck.log")
    put(f"boot-{boot}.json", {
        "env": ENV_FILE.read_text() if ENV_FILE.exists() else None,
        "files": sorted(os.listdir(STATE)) if STATE.exists() else [],
        "games": games,
        "fsck_log": fsck.read_text()[-3000:] if fsck.exists() else None,
        "fs_state": run("dumpe2fs -h /dev/vda 2>/dev/null | grep -E "
                        "'^(Filesystem state|FS Error count|Mount count)'").stdout,
    })  # fmt: skip


def unit_has_processes() -> bool:
    """Whether the unit's cgroup holds a process: a file read, where ``systemctl show`` is a
    process and a D-Bus call that, every half second under TCG, slowed the daemon's own start
    (the agent runs beside it on the one virtual CPU)."""
    procs = Path(f"/sys/fs/cgroup/system.slice/{UNIT}.service/cgroup.procs")
    try:
        return bool(procs.read_text().strip())
    except OSError:
        return False


def next_games(plan: dict, until: float) -> None:
    """Whenever a game is over (the daemon exits 0), the next one starts with the next seed:
    the finished game's log is kept in games/, its journal goes (a player's "new game")."""
    while time.monotonic() < until:
        if unit_has_processes():
            time.sleep(0.5)
            continue
        props = show(
            "ActiveState",
            "Result",
            "ExecMainStatus",
            "ExecMainExitTimestampMonotonic",
            "ExecMainStartTimestampMonotonic",
        )
        exited = props.get("ExecMainExitTimestampMonotonic", "0") != "0"  # not before its start
        if props["ActiveState"] in ("inactive", "failed") and props["Result"] == "success" \
                and props["ExecMainStatus"] == "0" and exited:  # fmt: skip
            env = ENV_FILE.read_text()
            seed = int(re.search(r"--seed (\d+)", env).group(1)) + 1
            for name in ("journal.bin", "snapshot.json"):
                with contextlib.suppress(FileNotFoundError):
                    (STATE / name).unlink()
            fd = os.open(STATE, os.O_RDONLY)
            os.fsync(fd)
            os.close(fd)
            write_env(f"--seed {seed} --autoplay {plan['policy']}")
            say(f"new game seed {seed}")
            run(["systemctl", "start", "--no-block", UNIT])
            with contextlib.suppress(TimeoutError):  # the same finished game, seen twice
                wait("the next game's daemon", lambda before=props[
                    "ExecMainStartTimestampMonotonic"]: show("ExecMainStartTimestampMonotonic")[
                    "ExecMainStartTimestampMonotonic"] != before, 120, step=2.0)  # fmt: skip
        time.sleep(0.5)


def readonly(plan: dict) -> None:
    """ext4 fails under the running daemon at the host's random moment: once it has
    acknowledged ``ro_after`` decisions, and ``ro_delay_s`` later."""
    wait("decisions acknowledged", lambda: sum(m.startswith("ack decision ")
         for m in messages()) >= plan.get("ro_after", 12), 600, 1.0)  # fmt: skip
    time.sleep(plan.get("ro_delay_s", 0.0))
    trigger = Path("/sys/fs/ext4/vda/trigger_fs_error")
    with open(trigger, "w") as f:
        f.write("virtual-pi: the card fails\n")
    say("ext4 error triggered")
    wait("the root read-only", lambda: " ro," in next(
        (line for line in Path("/proc/mounts").read_text().splitlines()
         if line.split()[1] == "/"), ""), 60)  # fmt: skip
    say("root is read-only")


def main() -> int:
    plan = json.loads((HOST / "plan.json").read_text())
    boot = int(plan.get("boot", 0))
    say(f"agent up, mode {plan['mode']}, boot {boot}, uptime "
        f"{Path('/proc/uptime').read_text().split()[0]} s")  # fmt: skip
    if plan["mode"] == "checks":
        Checks(plan).all()
        run(["systemctl", "poweroff", "--no-block"])
        return 0
    if plan["mode"] == "refresh":
        try:
            put("refresh.json", {"ok": True, **refresh(plan)})
            say("refresh done")
        except Exception as exc:  # reported to the host, which stops there
            put("refresh.json", {"ok": False, "problem": f"{type(exc).__name__}: {exc}"})
            say(f"refresh FAILED: {exc}")
        run(["systemctl", "poweroff", "--no-block"])
        return 0
    report_state(boot)
    if plan["mode"] == "readonly":
        # the last boot may have left a finished game: the daemon resumes it and exits, so
        # the next game must start here too or no decision is ever acknowledged (the Pi 4's
        # read-only case of 28 Nov drawn right after a game over waited 600 s for nothing)
        threading.Thread(target=next_games, args=(plan, time.monotonic() + 7200),
                         daemon=True).start()  # fmt: skip
        readonly(plan)
        time.sleep(3600)
    next_games(plan, time.monotonic() + 7200)
    return 0


if __name__ == "__main__":
    sys.exit(main())
