"""``tools/virtual-pi crash``: every crash state of a whole game, and what a game writes to the
card, at the block layer of the booted virtual Pi.

1. **The real write sequence.** The model's image (made as ``tools/virtual-pi boot`` makes it,
   in a work directory of its own: ``crash-work/<model>``) is booted with its card behind
   QEMU's ``blklogwrites`` driver: every write and flush the guest sends reaches the card image
   *and* a log (``tools/blklog.py`` reads it). The agent (``virtual_pi_crash_agent.py``) lets
   the kit sit idle, then plays one whole game through the unit. A thread here reads the
   console as it grows and notes the log's size at every acknowledgement (``ack decision N``;
   Kanaloa's host: ``N: seat decision``): the flush that made it durable is then in the log,
   so "acknowledged" is tied to a flush of the block log.
2. **Crash states.** From a copy of the image as it was before the boot, the log is replayed
   flush by flush over the game. At each flush k the disk as of k is one state; between k and
   k+1, a seeded, bounded set of subsets and sector tears of the writes in between are more
   (``blklog.crash_states``). Each state gets ``e2fsck -fy`` (what it repaired is recorded),
   then the daemon's own recovery on the state directory taken out of the image with
   ``debugfs`` (``crash_check.py``, the start path of ``haleakala run``), and the checks: every
   decision acknowledged by flush k is there, the history resumed is a beginning of the true
   game's, nothing was rewritten without its backup. e2fsck runs with an undo file and
   ``e2undo`` puts the image back, so one working image serves every state.
   Why on the image from the host and not by booting each state: the guest's start path for
   the journal is exactly this code (``Journal.recover`` / ``RemoteJournal.resume``), reading
   the files the kernel would show after the same journal replay e2fsck does; the booted
   power cuts (``virtual_pi_boot``) already prove the whole start path under systemd. A boot
   costs about 70 s under TCG, a state here about a second: thousands of states, not dozens.
3. **The write budget.** The blocks written in the idle window and in the game are attributed
   to what owns them (the daemon's files, journald's, ext4's journal and metadata, any other
   file) from the file system as it is at the window's end (``dumpe2fs``, ``debugfs icheck``).

Only the harness lives here; the file format is ``blklog``, the verdict ``crash_check``.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import blklog  # a sibling module of this tool
import virtual_pi_boot as boot

ACK_HALEAKALA = re.compile(r"haleakala\[\d+\]: (?:[A-Z]+ [\w.]+: )?ack decision (\d+) \S+ .+? "
                           r"by \S+ digest ([0-9a-f]+)")  # fmt: skip
ACK_KANALOA = re.compile(r"haleakala\[\d+\]: (\d+): (\w+) (.+?)(?: \(taken\))?(?: \| .*)?$")
MARK = re.compile(r"VPI crash: (idle start|idle end|game start|game done|done)(?: .*?)?"
                  r"(?:uptime ([\d.]+))?\s*$")  # fmt: skip
KANALOA_SEATS = ("red", "yellow", "green", "blue")
TABLE = "crash"
REMOTE_DROPIN = Path(__file__).resolve().parents[1] / "systemd" / "remote.conf"
"""What ``haleakala install`` adds to the unit while ``[remote]`` is enabled (the Kanaloa host)."""
MKFS = ("-E", "lazy_itable_init=0,lazy_journal_init=0")
"""No lazy initialisation: ext4lazyinit would zero inode tables in the background for the
first minutes of the first boot (writes no settled card makes)."""


def say(text: str) -> None:
    print(text, flush=True)


# --------------------------------------------------------------------------- recording


@dataclass
class Recording:
    """One boot's block log and the moments tied to it (log sizes)."""

    game: str
    log: Path
    console: Path
    marks: dict[str, dict] = field(default_factory=dict)  # name -> {size, uptime}
    acks: list[dict] = field(default_factory=list)  # {n, size, seat/digest, decision}

    def to_json(self) -> dict:
        return {"game": self.game, "log": str(self.log), "console": str(self.console),
                "marks": self.marks, "acks": self.acks}  # fmt: skip


class Watcher(threading.Thread):
    """Reads the console as it grows; at each line that matters, the log's size."""

    def __init__(self, rec: Recording) -> None:
        super().__init__(daemon=True)
        self.rec = rec
        self.stop = threading.Event()
        self.pending = ""
        self.offset = 0

    def run(self) -> None:
        while not self.stop.is_set():
            self.poll()
            time.sleep(0.02)
        self.poll()

    def poll(self) -> None:
        try:
            with open(self.rec.console, "rb") as f:
                f.seek(self.offset)
                chunk = f.read()
        except FileNotFoundError:
            return
        if not chunk:
            return
        size = self.rec.log.stat().st_size if self.rec.log.exists() else 0
        self.offset += len(chunk)
        text = self.pending + chunk.decode(errors="replace")
        lines = text.split("\n")
        self.pending = lines.pop()
        for line in lines:
            self.line(line.rstrip("\r"), size)

    def line(self, line: str, size: int) -> None:
        rec = self.rec
        if m := MARK.search(line):
            rec.marks.setdefault(m[1], {"size": size, "uptime": m[2], "line": line[-200:]})
        elif rec.game == "haleakala" and (m := ACK_HALEAKALA.search(line)):
            rec.acks.append({"n": int(m[1]), "digest": m[2], "size": size})
        elif rec.game == "kanaloa" and "game start" in rec.marks and (
                m := ACK_KANALOA.search(line)):  # fmt: skip
            rec.acks.append({"n": int(m[1]), "seat": m[2], "decision": m[3], "size": size})


class CrashRun:
    def __init__(self, vp: ModuleType, kroot: Path, model: str, args: Any) -> None:
        self.vp, self.kroot, self.model, self.args = vp, kroot, model, args
        self.name = getattr(args, "work", None) or "crash-work"
        self.dir = vp.CACHE / self.name / model
        self.base = self.dir / "card0.img"
        self.evidence = Path(args.evidence) if getattr(args, "evidence", None) else None
        if self.evidence:
            self.evidence.mkdir(parents=True, exist_ok=True)
        self.stamp = time.strftime("%H%M%S", time.gmtime())
        self.result: dict[str, Any] = {"model": model, "cpu": boot.CPUS[model]}

    def keep(self, path: Path, name: str) -> None:
        if self.evidence and path.exists():
            shutil.copy(path, self.evidence / f"{self.model}-{self.stamp}-{name}")

    # -- the image ------------------------------------------------------------------------

    def build(self) -> None:
        if getattr(self.args, "keep_image", False) and self.base.exists():
            say(f"  [{self.model}] the last crash run's disk image (--keep-image)")
            return
        if self.dir.exists():
            shutil.rmtree(self.dir)
        self.dir.mkdir(parents=True)
        started = time.monotonic()
        self.result["image"] = boot.model_image(
            self.vp, self.kroot, self.model, self.base, work=f"{self.name}-{self.model}",
            extras=("web", "remote"), mkfs=MKFS)  # fmt: skip
        # mkfs -d leaves large directories unindexed, which every e2fsck -fy of a crash state
        # would otherwise rehash ("Pass 3A"): done once here, as a card's first fsck would
        subprocess.run(["e2fsck", "-fyD", str(self.base)], capture_output=True)
        self.result["image_seconds"] = round(time.monotonic() - started)

    # -- one boot with the block log ------------------------------------------------------

    def record(self, game: str) -> Recording:
        work = self.dir / game
        if work.exists():
            shutil.rmtree(work)
        share = work / "share"
        share.mkdir(parents=True)
        image, log = work / "card.img", work / "card.log"
        subprocess.run(["cp", "--sparse=always", str(self.base), str(image)], check=True)
        log.write_bytes(b"")
        policy = self.args.policy
        plan = {"game": game, "policy": policy, "settle_s": self.args.settle,
                "idle_s": self.args.idle * 60 if game == "haleakala" else 0,
                "kanaloa": kanaloa_command(self.args.seed, policy),
                "remote_dropin": REMOTE_DROPIN.read_text()}  # fmt: skip
        (share / "plan.json").write_text(json.dumps(plan))
        shutil.copy(Path(__file__).with_name("virtual_pi_crash_agent.py"), share / "agent.py")
        rec = Recording(game, log, work / "console.log")
        m = boot.Machine(image, self.kroot, share, self.model, rec.console, self.args.smp,
                         self.args.memory, getattr(self.args, "nice", 0))  # fmt: skip
        m.argv = logged_card(m.argv, image, log)
        watcher = Watcher(rec)
        say(f"  [{self.model}] {game}: booting with the card behind blklogwrites "
            f"(idle {plan['idle_s'] / 60:.0f} min, then the game)...")  # fmt: skip
        m.start()
        watcher.start()
        try:
            m.wait_for(r"VPI crash: done", plan["idle_s"] + 3 * 3600, "the end of the game")
        finally:
            m.cut()
            watcher.stop.set()
            watcher.join()
            self.keep(rec.console, f"{game}-console.log")
            (work / "recording.json").write_text(json.dumps(rec.to_json(), indent=1))
            self.keep(work / "recording.json", f"{game}-recording.json")
        return rec

    def recorded(self, game: str) -> Recording:
        """The last run's recording of ``game`` (``--reuse-recording``: the enumeration again,
        without booting)."""
        saved = json.loads((self.dir / game / "recording.json").read_text())
        rec = Recording(game, Path(saved["log"]), Path(saved["console"]))
        rec.marks, rec.acks = saved["marks"], saved["acks"]
        return rec

    # -- what reached the card ------------------------------------------------------------

    def windows(self, rec: Recording, log: blklog.Log) -> dict[str, tuple[int, int]]:
        """(first entry, entry after the last) of the idle window and of the game."""

        def at(name: str) -> int:
            return log.entries_within(rec.marks[name]["size"])

        found = {"game": (at("game start"), at("done"))}
        if "idle start" in rec.marks and "idle end" in rec.marks:
            found["idle"] = (at("idle start"), at("idle end"))
        return found

    def budget(self, rec: Recording) -> dict:
        log = blklog.read_log(rec.log)
        layout = Layout(self.base)
        out: dict[str, Any] = {}
        with tempfile.TemporaryDirectory(dir=self.dir) as tmp:
            image = Path(tmp) / "replay.img"
            subprocess.run(["cp", "--sparse=always", str(self.base), str(image)], check=True)
            disk = blklog.Disk(image, log)
            undo = Path(tmp) / "replay.undo"
            for name, (start, stop) in sorted(self.windows(rec, log).items(),
                                              key=lambda kv: kv[1]):  # fmt: skip
                disk.advance(stop)
                # ext4's journal replayed (as a mount would) to see who owns each block, then
                # undone: the log's later writes go onto the disk as the guest left it
                subprocess.run(["e2fsck", "-E", "journal_only", "-y", "-z", str(undo),
                                str(image)], capture_output=True)  # fmt: skip
                writes = log.writes_between(start - 1, stop)
                out[name] = layout.attribute(image, log, writes)
                out[name]["flushes"] = sum(e.flush for e in log.entries[start:stop])
                subprocess.run(["e2undo", str(undo), str(image)], capture_output=True)
                undo.unlink(missing_ok=True)
            disk.close()
        game = out["game"]
        decisions = max((a["n"] for a in rec.acks), default=0)
        game["decisions"] = decisions
        game["per_decision"] = {k: round(v / max(decisions, 1)) for k, v in
                                game["by_owner"].items()}  # fmt: skip
        game["per_decision_total"] = round(game["bytes"] / max(decisions, 1))
        if "idle" in out:
            up = rec.marks
            seconds = float(up["idle end"]["uptime"]) - float(up["idle start"]["uptime"])
            out["idle"]["guest_seconds"] = round(seconds, 1)
            out["idle"]["per_hour"] = round(out["idle"]["bytes"] * 3600 / max(seconds, 1))
        return out

    # -- every crash state ----------------------------------------------------------------

    def states(self, rec: Recording, checker: Checker) -> dict:
        log = blklog.read_log(rec.log)
        start, stop = self.windows(rec, log)["game"]
        flushes = [i for i in log.flushes() if start <= i < stop]
        ties = [(log.last_flush_within(a["size"]), a["n"]) for a in rec.acks]
        rng = random.Random(self.args.seed * 7919 + len(rec.game))
        summary: dict[str, Any] = {"flushes": len(flushes), "states": 0, "flush_states": 0,
                                   "duplicate_flush_states": 0, "crash_states": 0,
                                   "e2fsck": {}, "repairs": [], "lost": 0,
                                   "other_history": 0, "problems": [],
                                   "acks": len(rec.acks),
                                   "acks_tied": sum(f is not None for f, _ in ties)}  # fmt: skip
        started = time.monotonic()
        with tempfile.TemporaryDirectory(dir=self.dir) as tmp:
            image = Path(tmp) / "state.img"
            subprocess.run(["cp", "--sparse=always", str(self.base), str(image)], check=True)
            disk = blklog.Disk(image, log)
            state = StateCheck(image, Path(tmp), checker, summary)
            previous = -1
            for k, flush in enumerate(flushes):
                disk.advance(flush)
                acked = max((n for f, n in ties if f is not None and f <= flush), default=0)
                if previous >= 0 and not log.writes_between(previous, flush):
                    summary["duplicate_flush_states"] += 1  # the same disk as the last one
                else:
                    state.check(f"flush {flush}", acked)
                    summary["flush_states"] += 1
                previous = flush
                nxt = flushes[k + 1] if k + 1 < len(flushes) else next(
                    (i for i in log.flushes() if i > flush), len(log.entries))  # fmt: skip
                for crash in blklog.crash_states(log, flush, nxt, rng, self.args.per_window):
                    saved = blklog.apply_state(disk, crash)
                    state.check(crash.describe(), acked)
                    disk.revert(saved)
                    summary["crash_states"] += 1
                if k % 50 == 0:
                    say(
                        f"  [{self.model}] {rec.game}: flush {k + 1}/{len(flushes)}, "
                        f"{summary['states']} states, problems {len(summary['problems'])}"
                    )
            disk.close()
        summary["seconds"] = round(time.monotonic() - started)
        return summary


def kanaloa_command(seed: int, policy: int) -> str:
    bots = " ".join(f"--seat {c}=random" for c in KANALOA_SEATS[1:])
    return (f"/opt/haleakala/venv/bin/haleakala run --remote mqtt://127.0.0.1:9/{TABLE} --host "
            f"--game kanaloa --players 4 --seat {KANALOA_SEATS[0]} {bots} --autoplay {policy} "
            f"--seed {seed} --config /etc/haleakala/config.toml")  # fmt: skip


def logged_card(argv: list[str], image: Path, log: Path) -> list[str]:
    """qemu's arguments with the card behind blklogwrites: the image as a file node with the
    same host caching as ``-drive cache=writeback``, the log beside it, a volatile write
    cache announced to the guest (its fsyncs become flushes) and no write-zeroes or discard
    requests (QEMU 7.2 logs write-zeroes with a race on the log's offset)."""
    argv = list(argv)
    i = argv.index("-drive")
    argv[i : i + 2] = [
        "-blockdev", f"driver=file,filename={image},node-name=cardfile,aio=threads,"
                     "cache.direct=off,cache.no-flush=off",
        "-blockdev", f"driver=file,filename={log},node-name=cardlog",
        "-blockdev", "driver=blklogwrites,node-name=card,file=cardfile,log=cardlog,"
                     "log-sector-size=512",
    ]  # fmt: skip
    j = argv.index("virtio-blk-pci,drive=card")
    argv[j] = "virtio-blk-pci,drive=card,write-cache=on,write-zeroes=off,discard=off"
    return argv


# --------------------------------------------------------------------------- attribution


class Layout:
    """Where ext4 keeps what, from the image as made (``dumpe2fs``, the journal inode)."""

    def __init__(self, image: Path) -> None:
        out = subprocess.run(["dumpe2fs", str(image)], capture_output=True, text=True).stdout
        self.block = int(re.search(r"^Block size:\s+(\d+)", out, re.M)[1])
        self.meta: list[tuple[int, int]] = []
        for m in re.finditer(r"(?:superblock at|Group descriptors at|Reserved GDT blocks at|"
                             r"[Bb]lock bitmap at|Inode bitmap at|Inode table at) "
                             r"(\d+)(?:-(\d+))?", out):  # fmt: skip
            self.meta.append((int(m[1]), int(m[2] or m[1])))
        stat = debugfs(image, ["stat <8>"])
        self.journal = [(int(a), int(b or a)) for a, b in
                        re.findall(r"\(\d+(?:-\d+)?\):(\d+)(?:-(\d+))?", stat)]  # fmt: skip

    def kind(self, block: int) -> str | None:
        if any(a <= block <= b for a, b in self.journal):
            return "ext4 journal (jbd2)"
        if any(a <= block <= b for a, b in self.meta):
            return "ext4 metadata (superblock, group descriptors, bitmaps, inode tables)"
        return None

    def attribute(self, image: Path, log: blklog.Log, writes: list[blklog.Entry]) -> dict:
        """Bytes written, by owner: the daemon's, journald's, ext4's, any other file's."""
        per = self.block // log.sectorsize
        sectors: dict[int, int] = {}
        for e in writes:
            for s in range(e.sector, e.sector + e.count):
                sectors[s // per] = sectors.get(s // per, 0) + 1
        owners: dict[int, str] = {}
        data = [b for b in sectors if self.kind(b) is None]
        inodes = icheck(image, data)
        paths = ncheck(image, sorted({i for i in inodes.values() if i}))
        for b in sectors:
            kind = self.kind(b)
            if kind is None:
                inode = inodes.get(b)
                path = paths.get(inode, "") if inode else ""
                kind = owner_of(path) if inode else "data blocks freed by the window's end"
            owners[b] = kind
        by_owner: dict[str, int] = {}
        by_path: dict[str, int] = {}
        for b, n in sectors.items():
            by_owner[owners[b]] = by_owner.get(owners[b], 0) + n * log.sectorsize
            inode = inodes.get(b)
            if inode:
                p = paths.get(inode, f"<{inode}>")
                by_path[p] = by_path.get(p, 0) + n * log.sectorsize
        return {"bytes": sum(by_owner.values()), "writes": len(writes),
                "by_owner": dict(sorted(by_owner.items(), key=lambda kv: -kv[1])),
                "by_path": dict(sorted(by_path.items(), key=lambda kv: -kv[1])[:25])}  # fmt: skip


def owner_of(path: str) -> str:
    if path.startswith("/var/lib/haleakala"):
        return "daemon (/var/lib/haleakala)"
    if path.startswith(("/var/log/journal", "/var/lib/systemd/journal")):
        return "journald (/var/log/journal)"
    if not path:
        return "ext4 metadata (directories and inodes)"
    return "other files"


def debugfs(image: Path, commands: list[str]) -> str:
    with tempfile.NamedTemporaryFile("w", suffix=".debugfs", delete=False) as f:
        f.write("\n".join(commands) + "\n")
    try:
        return subprocess.run(["debugfs", "-f", f.name, str(image)], capture_output=True,
                              text=True).stdout  # fmt: skip
    finally:
        os.unlink(f.name)


def icheck(image: Path, blocks: list[int]) -> dict[int, int | None]:
    found: dict[int, int | None] = {}
    for i in range(0, len(blocks), 400):
        chunk = blocks[i : i + 400]
        out = debugfs(image, ["icheck " + " ".join(map(str, chunk))])
        for m in re.finditer(r"^(\d+)\s+(\d+|<block not found>)$", out, re.M):
            found[int(m[1])] = int(m[2]) if m[2].isdigit() else None
    return found


def ncheck(image: Path, inodes: list[int]) -> dict[int, str]:
    found: dict[int, str] = {}
    for i in range(0, len(inodes), 400):
        out = debugfs(image, ["ncheck -c " + " ".join(map(str, inodes[i : i + 400]))])
        for m in re.finditer(r"^(\d+)\s+(/\S*)$", out, re.M):
            found.setdefault(int(m[1]), m[2])
    for inode in inodes:  # no name: a directory's own blocks, the root, an unlinked file
        found.setdefault(inode, "")
    return found


# --------------------------------------------------------------------------- one state


E2FSCK_ROUTINE = re.compile(r"^(e2fsck \d|Pass \d|\S+: \d+/\d+ files|\S+: \*{5} FILE SYSTEM "
                            r"WAS MODIFIED|[\w ]+\? yes$|$)")  # fmt: skip
"""e2fsck's own progress lines, and its answers (``Fix? yes``: the line before says what)."""
E2FSCK_KINDS = (
    ("journal replay", re.compile(r"recovering journal|Journal transaction|journal")),
    ("orphan cleanup", re.compile(r"orphan", re.I)),
    ("summary counters", re.compile(r"(Free (blocks|inodes) count wrong|Padding at end of)")),
)


def e2fsck_kinds(output: str) -> tuple[list[str], list[str]]:
    """(the kinds of routine crash recovery e2fsck did, the lines that are real repairs)."""
    kinds, repairs = set(), []
    for line in output.splitlines():
        if E2FSCK_ROUTINE.match(line.strip()):
            continue
        for kind, pattern in E2FSCK_KINDS:
            if pattern.search(line):
                kinds.add(kind)
                break
        else:
            repairs.append(line.strip())
    return sorted(kinds), repairs


class Checker:
    """``crash_check.py`` in the project's venv: one process for all states."""

    def __init__(self, python: str, argv: list[str]) -> None:
        tool = Path(__file__).with_name("crash_check.py")
        self.proc = subprocess.Popen([python, str(tool), *argv], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)  # fmt: skip
        assert self.proc.stdout is not None
        ready = self.proc.stdout.readline()
        if not ready.startswith('{"ready"'):
            raise boot.BootError(f"the crash checker did not start: {ready!r}")

    def check(self, state: Path, acked: int) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"dir": str(state), "acked": acked}) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        with contextlib.suppress(OSError):
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        self.proc.wait(30)


class StateCheck:
    """e2fsck (undone afterwards), the state directory taken out, the daemon's recovery."""

    def __init__(self, image: Path, tmp: Path, checker: Checker, summary: dict) -> None:
        self.image, self.tmp, self.checker, self.summary = image, tmp, checker, summary
        self.undo = tmp / "e2fsck.undo"

    def check(self, what: str, acked: int) -> None:
        s = self.summary
        s["states"] += 1
        self.undo.unlink(missing_ok=True)
        fsck = subprocess.run(["e2fsck", "-fy", "-z", str(self.undo), str(self.image)],
                              capture_output=True, text=True)  # fmt: skip
        kinds, repairs = e2fsck_kinds(fsck.stdout)
        for kind in kinds:
            s["e2fsck"][kind] = s["e2fsck"].get(kind, 0) + 1
        if repairs:
            s["repairs"].append({"state": what, "lines": repairs[:12]})
        out = self.tmp / "state"
        if out.exists():
            shutil.rmtree(out)
        out.mkdir()
        debugfs(self.image, [f"rdump /var/lib/haleakala {out}"])
        verdict = self.checker.check(out / "haleakala", acked)
        undone = subprocess.run(["e2undo", str(self.undo), str(self.image)],
                                capture_output=True, text=True)  # fmt: skip
        if undone.returncode != 0:
            raise boot.BootError(f"e2undo could not put the image back after {what}: "
                                 f"{undone.stderr.strip()[-300:]}")  # fmt: skip
        problem = verdict.get("problem")
        if fsck.returncode >= 4:
            problem = f"e2fsck left errors (exit status {fsck.returncode})"
        if problem:
            s["lost"] += bool(verdict.get("lost"))
            s["other_history"] += bool(verdict.get("other_history"))
            if len(s["problems"]) < 50:
                s["problems"].append({"state": what, "acked": acked, "problem": problem,
                                      "notes": verdict.get("notes", [])[:5]})  # fmt: skip


# --------------------------------------------------------------------------- main


def kanaloa_history(rec: Recording) -> list[list[str]]:
    acks = sorted({a["n"]: a for a in rec.acks}.values(), key=lambda a: a["n"])
    if [a["n"] for a in acks] != list(range(1, len(acks) + 1)):
        raise boot.BootError("the Kanaloa host's acknowledgements are not 1, 2, 3...")
    return [[a["seat"], a["decision"]] for a in acks]


def checker_for(rec: Recording, args: Any, tmp: Path) -> Checker:
    if rec.game == "haleakala":
        return Checker(args.python, ["haleakala", "--variant", "base", "--seed", "7",
                                     "--policy", str(args.policy)])  # fmt: skip
    history = tmp / "kanaloa-history.json"
    history.write_text(json.dumps(kanaloa_history(rec)))
    return Checker(args.python, ["kanaloa", "--history", str(history), "--table", TABLE])


def main(vp: ModuleType, args: Any) -> int:
    started = time.monotonic()
    boot.host_ready(vp)
    try:
        base = vp.base_root(args.rebuild)
        kroot = boot.kernel_root(vp, base)
    except (boot.BootError, subprocess.CalledProcessError) as exc:
        say(f"virtual-pi crash: {exc}")
        return 1
    model = (args.model or ["pi4"])[0]
    run = CrashRun(vp, kroot, model, args)
    ok = True
    try:
        run.build()
        for game in args.game or ["haleakala", "kanaloa"]:
            reuse = getattr(args, "reuse_recording", False)
            rec = run.recorded(game) if reuse else run.record(game)
            result: dict[str, Any] = {"acks": len(rec.acks), "marks": rec.marks}
            run.result[game] = result
            result["budget"] = run.budget(rec)
            report_budget(model, game, result["budget"])
            if not args.budget_only:
                checker = checker_for(rec, args, run.dir / game)
                try:
                    result["states"] = run.states(rec, checker)
                finally:
                    checker.close()
                s = result["states"]
                ok &= s["lost"] == 0 and s["other_history"] == 0 and not s["problems"]
                say(summary_line(game, s))
    except boot.BootError as exc:
        run.result["error"] = str(exc)
        say(f"  [{model}] {exc}")
        ok = False
    run.result["seconds"] = round(time.monotonic() - started)
    run.result["ok"] = ok
    summary = {"accel": "tcg", "models": [run.result]}
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1))
    if run.evidence:
        (run.evidence / f"crash-results-{run.stamp}.json").write_text(json.dumps(summary, indent=1))
    say(f"total {run.result['seconds']} s")
    return 0 if ok else 1


def summary_line(game: str, s: dict) -> str:
    repairs = len(s["repairs"])
    routine = ", ".join(f"{k} {v}" for k, v in sorted(s["e2fsck"].items())) or "none"
    return (
        f"{game}: {s['flushes']} flushes, {s['states']} crash states checked "
        f"({s['flush_states']} flush states, {s['crash_states']} between flushes), "
        f"e2fsck repairs {repairs} (routine: {routine}), acknowledged decisions lost "
        f"{s['lost']}, other histories {s['other_history']}, problems {len(s['problems'])}"
    )


def report_budget(model: str, game: str, budget: dict) -> None:
    g = budget["game"]
    say(f"  [{model}] {game}: {g['decisions']} decisions, {g['bytes']} B at the block layer "
        f"({g['per_decision_total']} B per decision; {g['flushes']} flushes): "
        + ", ".join(f"{k} {v}" for k, v in g["per_decision"].items()))  # fmt: skip
    if "idle" in budget:
        i = budget["idle"]
        say(f"  [{model}] idle: {i['bytes']} B in {i['guest_seconds']} s of guest time "
            f"({i['per_hour']} B per idle hour): "
            + ", ".join(f"{k} {v}" for k, v in i["by_owner"].items()))  # fmt: skip
