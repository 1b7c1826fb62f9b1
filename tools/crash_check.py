"""The daemon's own recovery on one crash state's files (``tools/virtual-pi crash``).

Run by the crash harness (tools/virtual_pi_crash.py) with the project's venv Python, as one
long-lived process: each line on standard input names a copy of the card's state directory
(``/var/lib/haleakala`` taken out of one crash state's disk image after e2fsck) and how many
decisions had been acknowledged by that state's flush; each line on standard output is the
verdict. What runs is what a start runs:

- ``haleakala``: ``Journal.on_card(state_dir, 20).recover()``, as ``haleakala run`` opens
  it (companion/daemon.py): it may rewrite the journal and the snapshot, backing them
  up first. Checked: the game recovered is this game, its history a beginning of the game
  the scripted player plays (the digest after every decision, ``autoplay.reference_game``),
  at least as long as what was acknowledged, not paused; and every file the state held is
  still there byte for byte, in place or in a ``.bad-`` backup (temporary ``.tmp`` files
  aside: nothing was acknowledged through them).
- ``kanaloa``: the host kit's journal (``RemoteJournal.resume``, what ``run --remote --host``
  resumes), else the finished game's ``.done`` file; the same checks on its decisions, against
  the history the console acknowledged.

A verdict's ``problem`` is None or a sentence; ``lost`` and ``other_history`` say which rule
it broke.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def files_of(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}  # fmt: skip


def unkept(before: dict[str, bytes], after: dict[str, bytes]) -> list[str]:
    """Files of ``before`` whose bytes are nowhere in ``after`` (temporary files aside)."""
    kept = set(after.values())
    return [name for name, data in before.items()
            if not name.endswith(".tmp") and data not in kept]  # fmt: skip


class Haleakala:
    def __init__(self, variant: str, seed: int, policy: int) -> None:
        from haleakala.companion.autoplay import reference_game
        from haleakala.games.haleakala import Game

        final = reference_game(variant, seed, None, policy)
        game = Game(variant, seed, None)
        self.seed = seed
        self.digests = [game.digest()]
        for d in final.history:
            game.apply(d)
            self.digests.append(game.digest())

    def check(self, state: Path, acked: int) -> dict[str, Any]:
        from haleakala.companion.journal import Journal, JournalError

        before = files_of(state)
        verdict: dict[str, Any] = {"resumed": None, "notes": [], "problem": None,
                                   "lost": False, "other_history": False}  # fmt: skip
        journal = Journal.on_card(state, 20)  # as haleakala run opens it
        try:
            game = journal.recover()
        except JournalError as exc:
            game = None
            verdict["notes"].append(f"JournalError: {exc}")
        finally:
            journal.close()
        verdict["notes"] += journal.notes
        verdict["backups"] = [p.name for p in journal.backups]
        if game is not None:
            n = len(game.history)
            verdict["resumed"] = n
            if game.seed != self.seed or n >= len(self.digests) or (
                    game.digest() != self.digests[n]):  # fmt: skip
                verdict["other_history"] = True
                verdict["problem"] = f"resumed at {n} on another history"
            elif journal.unsettled is not None:
                verdict["problem"] = f"paused at {n}: {journal.unsettled}"
        if not verdict["problem"] and acked > (verdict["resumed"] or 0):
            verdict["lost"] = True
            verdict["problem"] = f"{acked} decisions acknowledged, resumed at {verdict['resumed']}"
        missing = unkept(before, files_of(state))
        if missing and not verdict["problem"]:
            verdict["problem"] = f"rewritten without a backup: {', '.join(missing)}"
        return verdict


class Kanaloa:
    def __init__(self, history: list[list[str]], table: str) -> None:
        self.history = [tuple(h) for h in history]
        self.table = table

    def check(self, state: Path, acked: int) -> dict[str, Any]:
        from haleakala.remote.journal import JournalError, RemoteJournal

        before = files_of(state)
        verdict: dict[str, Any] = {"resumed": None, "notes": [], "problem": None,
                                   "lost": False, "other_history": False}  # fmt: skip
        remote = state / "remote"
        history: list[tuple[str, str]] | None = None
        try:
            resumed = RemoteJournal(remote / "remote-journal.jsonl").resume(self.table)
            if resumed is not None:
                history = list(resumed[2])
            else:
                done = sorted(remote.glob("remote-journal-*.done"))
                if done:
                    saved = RemoteJournal(done[-1]).read()
                    assert saved is not None
                    history = [(r["seat"], r["decision"]) for r in saved[1]]
                    verdict["notes"].append(f"the game is over: {done[-1].name}")
        except JournalError as exc:
            verdict["problem"] = f"the host cannot resume: {exc}"
        if history is not None:
            verdict["resumed"] = len(history)
            if history != self.history[: len(history)]:
                verdict["other_history"] = True
                verdict["problem"] = f"resumed at {len(history)} on another history"
        if not verdict["problem"] and acked > (verdict["resumed"] or 0):
            verdict["lost"] = True
            verdict["problem"] = f"{acked} decisions acknowledged, resumed at {verdict['resumed']}"
        missing = unkept(before, files_of(state))
        if missing and not verdict["problem"]:
            verdict["problem"] = f"rewritten without a backup: {', '.join(missing)}"
        return verdict


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=("haleakala", "kanaloa"))
    parser.add_argument("--variant", default="base")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policy", type=int, default=1)
    parser.add_argument("--history", help="(kanaloa) JSON file: the acknowledged decisions")
    parser.add_argument("--table", default="crash")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)  # the notes are in the verdict
    if args.game == "haleakala":
        checker: Haleakala | Kanaloa = Haleakala(args.variant, args.seed, args.policy)
    else:
        checker = Kanaloa(json.loads(Path(args.history).read_text()), args.table)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        ask = json.loads(line)
        try:
            verdict = checker.check(Path(ask["dir"]), int(ask["acked"]))
        except Exception as exc:  # a crash of the checker is a problem to report, not hide
            verdict = {"problem": f"the check failed: {type(exc).__name__}: {exc}",
                       "lost": False, "other_history": False, "resumed": None}  # fmt: skip
        print(json.dumps(verdict), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
