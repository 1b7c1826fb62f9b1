#!/usr/bin/env python3
"""The SD card that fails mid-game, on this machine: ext4's emergency read-only remount.

Each trial makes a small ext4 file system on a loop device mounted ``errors=remount-ro``,
runs the real daemon on it (``haleakala run --hardware sim --headless --autoplay``), and at a
random moment (after a random number of acknowledged decisions, then a random fraction of a
second) writes to ``/sys/fs/ext4/<loop>/trigger_fs_error``: the kernel treats it as a card
error, aborts the ext4 journal and turns the mount read-only under the running daemon. Then,
as a maker would after such a failure: stop the daemon, ``e2fsck -f -y``, mount read-write,
and ask ``haleakala journal check`` where a start resumes. The decision it resumes at must be
at least the last ``ack decision N`` the daemon logged (acknowledged means durable); one more
is fine (written and durable, its fsync failed).

Usage (root; loop devices and e2fsprogs):
    tools/readonly_remount.py [--trials 30] [--seed 1] [--haleakala .venv/bin/haleakala]
                              [--json FILE]
Prints one line per trial and a summary; exits 1 when an acknowledged decision was lost.
``--haleakala`` picks the program under test (another checkout's venv: the old code).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
ACK = re.compile(r"ack decision (\d+) ")
PAUSED = ("game paused, the last decision is not saved yet", "autoplay: game over")
RESUMES = re.compile(r"at decision (\d+)")


def sh(*cmd: str, check: bool = True) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def wait(what: str, condition, timeout: float, step: float = 0.005):
    """Poll ``condition`` until it is true (returns its value) or ``timeout`` passes."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(step)
    raise TimeoutError(f"{what}: not within {timeout:.0f} s")


def acks(log: Path) -> list[int]:
    return [int(n) for n in ACK.findall(log.read_text(errors="replace"))]


def trial(number: int, program: str, rng: random.Random, work: Path, keep: Path | None) -> dict:
    """One trial; the facts as a dict (``lost``: an acknowledged decision missing)."""
    root = work / f"trial-{number}"
    root.mkdir()
    image, mnt, log = root / "card.img", root / "mnt", root / "daemon.log"
    mnt.mkdir()
    with open(image, "wb") as f:
        f.truncate(64 << 20)
    sh("mkfs.ext4", "-q", "-F", str(image))
    loop = sh("losetup", "-f", "--show", str(image)).strip()
    daemon = None
    try:
        sh("mount", "-o", "errors=remount-ro", loop, str(mnt))
        state = mnt / "state"
        state.mkdir()
        seed = rng.randrange(1, 10**6)
        after = rng.randint(1, 300)  # a random moment: after this many acknowledgements...
        delay = rng.uniform(0.0, 0.05)  # ... and this much more (decisions come every ~10 ms)
        with open(log, "wb") as out:
            daemon = subprocess.Popen(
                [program, "run", "--hardware", "sim", "--headless", "--state-dir", str(state),
                 "--seed", str(seed), "--autoplay", str(seed)],
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        wait("acknowledgements", lambda: len(acks(log)) >= after or daemon.poll() is not None, 120)
        time.sleep(delay)
        triggered = time.monotonic_ns()
        with open(f"/sys/fs/ext4/{Path(loop).name}/trigger_fs_error", "w") as trigger:
            trigger.write("readonly_remount: the card fails\n")
        triggered_end = time.monotonic_ns()
        with contextlib.suppress(TimeoutError):
            wait("the pause", lambda: any(p in log.read_text(errors="replace") for p in PAUSED)
                 or daemon.poll() is not None, 30)  # fmt: skip
        with contextlib.suppress(ProcessLookupError):  # (a game over ended it already)
            os.killpg(daemon.pid, signal.SIGTERM)  # its session: a wrapper's child too
        daemon.wait(30)
        last = max(acks(log), default=0)
        sh("umount", str(mnt))
        if keep is not None:  # the card as the failure left it, before e2fsck touches it
            sh("cp", "--sparse=always", str(image), str(root / "before-fsck.img"))
        fsck = subprocess.run(["e2fsck", "-f", "-y", loop], capture_output=True, text=True)
        sh("mount", loop, str(mnt))
        check = subprocess.run([program, "journal", "check", "--state-dir", str(state)],
                               capture_output=True, text=True)  # fmt: skip
        found = RESUMES.findall(check.stdout)
        resumed = int(found[-1]) if found else None
        if keep is not None and (resumed is None or resumed < last):  # the evidence
            kept = keep / f"trial-{number}"
            kept.mkdir(parents=True, exist_ok=True)
            subprocess.run(["cp", "-a", "--sparse=always", str(log), str(state),
                            str(root / "before-fsck.img"), str(kept)], check=False)  # fmt: skip
            (kept / "fsck.txt").write_text(fsck.stdout + fsck.stderr)
        return {
            "trial": number, "seed": seed, "trigger_after_acks": after,
            "trigger_delay_s": round(delay, 4), "last_ack": last, "resumed_at": resumed,
            "triggered_ns": [triggered, triggered_end],
            "lost": resumed is None or resumed < last, "fsck_exit": fsck.returncode,
            "check": check.stdout.strip().splitlines()[-1:] or check.stderr.strip()[-300:],
        }  # fmt: skip
    finally:
        if daemon is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(daemon.pid, signal.SIGKILL)  # only what this trial started
            daemon.wait()
        if subprocess.run(["umount", str(mnt)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(mnt)], capture_output=True)
        subprocess.run(["losetup", "-d", loop], capture_output=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--haleakala", default=str(HERE / ".venv" / "bin" / "haleakala"))
    parser.add_argument("--json", default=None)
    parser.add_argument("--keep", default=None, help="keep a lost trial's log and files here")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("readonly_remount: needs root (losetup, mount, e2fsck)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    results = []
    with tempfile.TemporaryDirectory(prefix="readonly-remount-") as work:
        for number in range(args.trials):
            keep = Path(args.keep) if args.keep else None
            r = trial(number, args.haleakala, rng, Path(work), keep)
            results.append(r)
            print(f"trial {number}: last ack {r['last_ack']}, resumes at {r['resumed_at']}"
                  f"{'  LOST' if r['lost'] else ''}", flush=True)  # fmt: skip
    lost = sum(r["lost"] for r in results)
    summary = {"trials": len(results), "lost": lost, "program": args.haleakala,
               "seed": args.seed, "results": results}  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1))
    print(f"{lost} of {len(results)} trials lost an acknowledged decision")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
