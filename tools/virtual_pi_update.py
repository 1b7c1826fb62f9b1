"""``tools/virtual-pi update``: ``haleakala update`` in the booted virtual Pi, and power cuts
at random moments of it (issue 42).

The machine is the booted harness's (``tools/virtual_pi_boot.py``: the same cached kernel
root, qemu-system-aarch64 with TCG, the sim backend's drop-in, the serial console carrying
every journal line), with its own disk image and work directory
(``~/.cache/haleakala/virtual-pi/update-work/MODEL``). The image is ``haleakala install``
of this checkout in the chroot: release A, its wheel store filled from the network. The
guest has no network: every update comes from the 9p share's ``stick/`` folder, as from a
USB stick, or from the checkout in the image (/home/pi/haleakala).

- **B** (``0.1.1``): this checkout with another version: a good release.
- **C** (``0.1.2``): the same with a daemon that exits before its game (a release that
  passes every check beside the running one, then fails its health check).
- **D** (``0.1.3``): another good release, updated to only in the cuts of the build phase.

The first boot starts a game (the scripted player, one decision a second) and updates to B
(kept: it resumed the game at the same decision) and then to C (rolled back by itself). Then
each boot updates once, to the other of A and B (both already built), to C, or to D, and the
host cuts the power at a random moment of the phase it chose for that boot — the build, the
checks, the switch, the health check, the rollback — timed on the updater's own lines on the
console. The next boot shows what the cut left: the boot-time release check's work, the
release the kit booted into (whole: its manifest, its venv importing the package), and the
daemon's resume, which the ledger checks against the last decision the host saw
acknowledged (0 lost) and against the reference game (the same history).
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import virtual_pi_boot as B  # noqa: E402

B_VERSION, C_VERSION, D_VERSION = "0.1.1", "0.1.2", "0.1.3"
PACE_S = 1.0
HEALTH_TIMEOUT_S = 900
PHASES = {
    # phase: (the console line it starts at, the longest random delay after it in seconds)
    "build": (r"VPI update: \$ python3 -m venv", 240.0),
    "checks": (r"VPI update: \$ \S+ -m haleakala config check", 40.0),
    "switch": (r"VPI update: \+ release \S+ passed its checks", 12.0),
    "health": (r"VPI update:   waiting up to", 60.0),
    "rollback": (r"VPI update:   release \S+ did not prove itself", 25.0),
}
BREAK = ("the daemon exits before its game: a release broken on purpose by "
         "tools/virtual_pi_update.py to fail its health check")  # fmt: skip


def say(text: str) -> None:
    print(text, flush=True)


def cut_plan(count: int, rng: random.Random) -> list[str]:
    """The phases the cuts aim at: the rollback's first (release C is still built then),
    then the others in a random order, the switch and the health check most often."""
    rest = ["build", "checks", "switch", "switch", "health"] * count
    rng.shuffle(rest)
    plan = ["rollback", "rollback", *rest]
    return plan[:count]


# --------------------------------------------------------------------------- releases


def release_wheel(vp: ModuleType, out: Path, version: str, broken: bool = False) -> Path:
    """This checkout as a wheel of ``version`` (and, ``broken``, a daemon that exits)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "haleakala"
        vp.copy_checkout(src)
        project = src / "pyproject.toml"
        project.write_text(re.sub(r'^version = "[^"]*"', f'version = "{version}"',
                                  project.read_text(), count=1, flags=re.M))  # fmt: skip
        init = src / "haleakala/__init__.py"
        init.write_text(re.sub(r'__version__ = "[^"]*"', f'__version__ = "{version}"',
                               init.read_text()))  # fmt: skip
        if broken:
            daemon = src / "haleakala/companion/daemon.py"
            text = daemon.read_text()
            anchor = '    log.info("language: %s", speak('
            assert anchor in text, "the daemon's language line moved: update the harness"
            daemon.write_text(text.replace(anchor, f"    raise SystemExit({BREAK!r})\n" + anchor))
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                               str(out), str(src)], capture_output=True, text=True)  # fmt: skip
    if done.returncode != 0:
        raise B.BootError(f"the wheel of {version} could not be built: {done.stderr[-300:]}")
    return next(out.glob(f"haleakala_companion-{version}-*.whl"))


def update_image(vp: ModuleType, kroot: Path, model: str, out: Path) -> dict:
    """``haleakala install`` of this checkout in a copy of the kernel root (release A, the
    kit's wheel store filled from the network), the sim drop-ins, then ``mkfs.ext4 -d``."""
    run = vp.Run(kroot, model, work=f"update-{model}")
    run.step("haleakala install", f"cd {vp.CHECKOUT} && python3 -m haleakala install",
             lambda o: None if "installed." in o else "no 'installed.' line")  # fmt: skip
    root = run.root
    dropins = root / "etc/systemd/system/haleakala.service.d"
    dropins.mkdir(parents=True, exist_ok=True)
    (dropins / "virtual-pi.conf").write_text(B.SIM_DROPIN)
    (dropins / "virtual-pi-emulation.conf").write_text(B.EMULATION_DROPIN)
    (root / "etc/haleakala/virtual-pi.env").write_text("VPI_ARGS=--seed 7\n")
    with contextlib.suppress(FileExistsError):
        (root / "etc/systemd/system/getty-static.service").symlink_to("/dev/null")
    failed = [s for s in run.steps if not s["ok"]]
    if failed:
        first = failed[0]
        raise B.BootError(f"{model}: {first['step']} failed in the chroot: "
                          f"{first.get('problem')} {first.get('stderr', '')[-600:]}")  # fmt: skip
    partial = out.with_name(out.name + ".partial")
    partial.unlink(missing_ok=True)
    with partial.open("wb") as f:
        f.truncate(B.IMAGE_BYTES)
    made = subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "rootfs", "-d", str(root),
                           str(partial)], capture_output=True, text=True)  # fmt: skip
    if made.returncode != 0:
        raise B.BootError(f"mkfs.ext4 -d could not make the disk image: {made.stderr.strip()}")
    partial.rename(out)
    release = sorted((root / "opt/haleakala/releases").iterdir())[0].name
    shutil.rmtree(root)
    return {"steps": run.steps, "release_a": release}


# --------------------------------------------------------------------------- the ledger


class Ledger(B.Ledger):
    """The boot harness's ledger, checking *every* resume of a boot (an update restarts the
    daemon, and each start must come back at the last acknowledged decision or later)."""

    def boot(self, number: int, console: str) -> dict:
        seen: dict = {"resumed": None, "new": None, "acks": 0, "last_ack": None,
                      "over": False, "resumes": 0}  # fmt: skip
        for kind, value in B.events(console):
            if kind == "resumed":
                gid, variant, seed, at, digest = value
                seen["resumed"], seen["resumes"] = at, seen["resumes"] + 1
                if self.game is not None and gid != self.game[0]:
                    self.problems.append(f"boot {number}: resumed game {gid}, not {self.game[0]}")
                elif self.game is not None and at < self.last_ack:
                    self.problems.append(f"boot {number}: ack decision {self.last_ack} logged, "
                                         f"resumed at {at}")  # fmt: skip
                if digest != self.ref.digests(variant, seed)[at]:
                    self.problems.append(f"boot {number}: resumed at {at} on another history")
                self.game, self.last_ack = (gid, variant, seed), max(at, self.last_ack)
            elif kind == "new":
                gid, variant, seed, digest = value
                seen["new"] = seed
                if self.game is not None and not self.over:
                    self.problems.append(f"boot {number}: a new game (seed {seed}) replaced "
                                         f"game {self.game[0]} at decision {self.last_ack}, "
                                         "which was not over")  # fmt: skip
                self.game, self.last_ack, self.over = (gid, variant, seed), 0, False
            elif kind == "ack":
                ply, digest = value
                if self.game is None:
                    continue
                if digest != self.ref.digests(self.game[1], self.game[2])[ply]:
                    self.problems.append(f"boot {number}: ack {ply} off the reference history")
                self.acks_checked += 1
                self.last_ack = max(self.last_ack, ply)
                seen["acks"] += 1
                seen["last_ack"] = ply
            elif kind == "over":
                self.over = True
                seen["over"] = True
        return seen


# --------------------------------------------------------------------------- a model's run


class UpdateRun:
    def __init__(self, vp: ModuleType, kroot: Path, model: str, args: Any) -> None:
        self.vp, self.kroot, self.model, self.args = vp, kroot, model, args
        self.dir = vp.CACHE / "update-work" / model
        self.image = self.dir / "card.img"
        self.pristine = self.dir / "card-as-installed.img"
        self.keep = bool(getattr(args, "keep_image", False)) and self.pristine.exists()
        if self.dir.exists():
            for path in self.dir.iterdir():
                if path.name not in ("card-as-installed.img", "image.json") or not self.keep:
                    shutil.rmtree(path) if path.is_dir() else path.unlink()
        self.share = self.dir / "share"
        (self.share / "stick").mkdir(parents=True)
        self.rng = random.Random(args.seed * 7919 + sorted(B.CPUS).index(model))
        self.ledger = Ledger(B.Reference(vp.REPO, args.policy))
        self.boots = 0
        self.evidence = Path(args.evidence) if getattr(args, "evidence", None) else None
        if self.evidence:
            self.evidence.mkdir(parents=True, exist_ok=True)
        self.stamp = time.strftime("%H%M%S", time.gmtime())
        self.result: dict[str, Any] = {"model": model, "cpu": B.CPUS[model],
                                       "hardware": "sim backend (no pins in a virtual machine)",
                                       "pace_s": PACE_S}  # fmt: skip

    # -- building

    def build(self) -> None:
        image_json = self.dir / "image.json"
        if self.keep and image_json.exists():
            say(f"  [{self.model}] the last run's image as installed (--keep-image)")
            self.result["image"] = json.loads(image_json.read_text())
        else:
            started = time.monotonic()
            self.result["image"] = update_image(self.vp, self.kroot, self.model, self.pristine)
            self.result["image"]["seconds"] = round(time.monotonic() - started)
            image_json.write_text(json.dumps(self.result["image"]))
        # Every run starts from the card as installed (release A only): a sparse copy.
        subprocess.run(["cp", "--sparse=always", str(self.pristine), str(self.image)], check=True)
        stick = self.share / "stick"
        self.wheels = {
            "B": release_wheel(self.vp, stick, B_VERSION),
            "C": release_wheel(self.vp, stick, C_VERSION, broken=True),
            "D": release_wheel(self.vp, stick, D_VERSION),
        }

    def machine(self, plan: dict) -> B.Machine:
        self.boots += 1
        plan = {**plan, "boot": self.boots, "policy": self.args.policy, "pace": PACE_S,
                "health_timeout": HEALTH_TIMEOUT_S}  # fmt: skip
        (self.share / "plan.json").write_text(json.dumps(plan))
        shutil.copy(HERE / "virtual_pi_update_agent.py", self.share / "agent.py")
        shutil.copy(HERE / "virtual_pi_agent.py", self.share / "vpi_agent.py")
        log = self.dir / f"console-{self.boots}.log"
        m = B.Machine(self.image, self.kroot, self.share, self.model, log, self.args.smp,
                      self.args.memory, getattr(self.args, "nice", 0))  # fmt: skip
        m.start()
        return m

    def keep_log(self, m: B.Machine, what: str) -> None:
        if self.evidence:
            shutil.copy(m.log, self.evidence / f"update-{self.model}-{self.stamp}-boot"
                        f"{self.boots:03d}-{what}.log")  # fmt: skip

    def stick(self, name: str) -> str:
        return f"/mnt/host/stick/{self.wheels[name].name}"

    # -- the boots

    def setup(self) -> None:
        """Boot 1: a game, an update to B (kept), an update to C (rolled back by itself)."""
        say(f"  [{self.model}] boot 1: a game, then updates to B and to C (TCG)...")
        updates = [{"from": self.stick("B")}, {"from": self.stick("C")}]
        m = self.machine({"prepare": True, "game_seed": self.args.seed + 300,
                          "updates": updates})  # fmt: skip
        try:
            m.wait_for(r"VPI updates done", 3 * 3600, "the first boot's two updates")
        finally:
            m.cut()
            self.keep_log(m, "setup")
        console = m.console()  # from the agent's game on (the image's idle game before it)
        self.ledger.boot(self.boots, console[console.find("VPI booted into release") :])
        updates = json.loads((self.share / "updates-1.json").read_text())
        good, bad = updates[0], updates[1]
        self.result["update_to_new_release"] = {
            "exit": good["exit"],
            "seconds": good["seconds"],
            "said": good["lines"][-1:],
        }
        self.result["update_to_failing_release"] = {
            "exit": bad["exit"], "seconds": bad["seconds"], "said": bad["lines"][-1:],
            "rolled_back_by_itself": bad["exit"] == 1
            and any("rolled back" in line and "back on release" in line for line in bad["lines"]),
        }  # fmt: skip
        for key in ("update_to_new_release", "update_to_failing_release"):
            say(f"  [{self.model}] {key}: {self.result[key]}")

    def cuts(self, count: int) -> None:
        records: list[dict] = []
        phases = cut_plan(count + 5, self.rng)  # spares: a boot whose update never began
        target = {"rollback": self.stick("C"), "build": self.stick("D")}
        for i, phase in enumerate(phases):
            if sum(r.get("during_update", False) for r in records) >= count:
                break
            source = target.get(phase) or "toggle"
            step = {"from": source, "a": "/home/pi/haleakala", "b": self.stick("B"),
                    "b_version": B_VERSION}  # fmt: skip
            m = self.machine({"updates": [step]})
            record = {"boot": self.boots, "aimed_at": phase}
            try:
                record.update(self.cut_in(m, phase))
            except B.BootError as exc:
                m.cut()
                record["harness_error"] = str(exc)
            self.keep_log(m, f"cut-{phase}")
            seen = self.ledger.boot(self.boots, m.console())
            record["acks"], record["resumes"] = seen["acks"], seen["resumes"]
            record["last_ack_seen"] = self.ledger.last_ack
            records.append(record)
            self.after(records[-2] if len(records) > 1 else None, self.boots)
            say(f"  [{self.model}] cut {i + 1} aimed at {phase}: after "
                f"{record.get('last_update_line', '-')!r} ({record.get('cut_after_s')} s); "
                f"problems so far {len(self.ledger.problems)}")  # fmt: skip
        m = self.machine({"updates": []})  # the last boot: what the last cut left
        try:
            m.wait_for(r"VPI booted into release", B.BOOT_TIMEOUT_S, "the last boot's report")
            m.wait_for(B.DAEMON + "ready: ", B.BOOT_TIMEOUT_S, "READY")
        except B.BootError as exc:
            self.result["last_boot_error"] = str(exc)
        m.cut()
        self.keep_log(m, "last")
        self.ledger.boot(self.boots, m.console())
        self.after(records[-1] if records else None, self.boots)
        boots = [r for r in records if "next_boot" in r]
        during = [r for r in records if r.get("during_update")]
        self.result["cuts"] = {
            "count": len(during),
            "cuts_not_during_an_update": len(records) - len(during),
            "by_phase_aimed": {p: sum(r["aimed_at"] == p for r in during)
                               for p in sorted({r["aimed_at"] for r in during})},
            "not_whole_after": [r["boot"] for r in boots if not r["next_boot"].get("whole")
                                or not r["next_boot"].get("daemon_active")],
            "lost": [p for p in self.ledger.problems if "resumed at" in p or "replaced" in p
                     or "not " in p],
            "other_history": [p for p in self.ledger.problems if "history" in p],
            "problems": self.ledger.problems,
            "acks_checked": self.ledger.acks_checked,
            "rolled_back_at_boot": sum("back on release" in r["next_boot"].get(
                "release_check", "") for r in boots),
            "records": records,
        }  # fmt: skip

    def after(self, record: dict | None, boot: int) -> None:
        """The next boot's report, filed with the cut that preceded it."""
        report = self.share / f"boot-{boot}.json"
        if record is not None:
            record["next_boot"] = json.loads(report.read_text()) if report.exists() else {
                "whole": False, "problem": "the boot wrote no report"}  # fmt: skip

    def cut_in(self, m: B.Machine, phase: str) -> dict:
        """Wait for the phase's line, then a random moment within its span, then the cut."""
        pattern, span = PHASES[phase]
        m.wait_for(r"VPI booted into release", B.BOOT_TIMEOUT_S, "the boot's report")
        start = len(m.console())
        end = time.monotonic() + 3600
        while time.monotonic() < end:
            text = m.console()[start:]
            if re.search(pattern, text):
                break
            if re.search(r"VPI update 0 exit", text) or not m.running():
                break  # the update ended before its phase came (e.g. nothing to build)
            time.sleep(0.2)
        delay = self.rng.uniform(0.0, span)
        stop = time.monotonic() + delay
        while time.monotonic() < stop and "VPI update 0 exit" not in m.console()[start:]:
            time.sleep(0.1)
        at = m.cut()
        text = m.console()[start:]
        lines = re.findall(r"VPI update: (.*)", text)
        finished = "VPI update 0 exit" in text
        return {"cut_after_s": round(at, 1), "delay_s": round(delay, 1),
                "last_update_line": lines[-1].strip() if lines else None,
                "update_finished": finished,
                "during_update": "VPI update 0 from" in text and not finished}  # fmt: skip


def main(vp: ModuleType, args: Any) -> int:
    started = time.monotonic()
    B.host_ready(vp)
    try:
        base = vp.base_root(args.rebuild)
        kroot = B.kernel_root(vp, base)
    except (B.BootError, subprocess.CalledProcessError) as exc:
        say(f"virtual-pi update: {exc}")
        return 1
    results = []
    ok = True
    for model in args.model or ["pi4"]:
        say(f"{model} (booted, TCG): updates and power cuts")
        run = UpdateRun(vp, kroot, model, args)
        t0 = time.monotonic()
        try:
            run.build()
            run.setup()
            run.cuts(args.cuts)
        except B.BootError as exc:
            run.result["error"] = str(exc)
            say(f"  [{model}] {exc}")
        run.result["seconds"] = round(time.monotonic() - t0)
        cuts = run.result.get("cuts", {})
        good = run.result.get("update_to_new_release", {}).get("exit") == 0
        back = run.result.get("update_to_failing_release", {}).get("rolled_back_by_itself")
        whole = not cuts.get("not_whole_after") and not cuts.get("problems")
        run.result["ok"] = bool("error" not in run.result and good and back and whole
                                and cuts.get("count", 0) >= args.cuts)  # fmt: skip
        ok &= run.result["ok"]
        results.append(run.result)
        say(f"{model}: {'ok' if run.result['ok'] else 'FAILED'}, {cuts.get('count', 0)} cuts "
            f"during updates, {len(cuts.get('not_whole_after', []))} boots not into a whole "
            f"release, {len(cuts.get('lost', []))} lost, failing release rolled back by "
            f"itself: {back}, {run.result['seconds']} s")  # fmt: skip
    summary = {"total_seconds": round(time.monotonic() - started), "accel": "tcg",
               "models": results}  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1))
    if getattr(args, "evidence", None):
        (Path(args.evidence) / f"update-results-{time.strftime('%H%M%S')}.json").write_text(
            json.dumps(summary, indent=1)
        )
    return 0 if ok else 1
