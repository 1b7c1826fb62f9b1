"""Power cuts: the daemon is killed with SIGKILL at random moments and restarted.

24 seeded games in the default suite, 100 in the long run (``./test -m long``; both variants,
both kits) are played by real ``haleakala run --hardware sim
--headless`` processes, driven by the scripted player (``--autoplay``: it carries out its
decisions through the simulated buttons, encoder and RFID snapshots). Each game is killed 2
or 3 times and restarted on the same state directory: at a random point of the game (just
after a randomly chosen decision was acknowledged, plus up to 10 ms, so possibly in the middle
of the next decision's journal write) or, one time in five, during start-up and recovery.
After each restart the resumed position must be the last one the daemon acknowledged
before it died (its "ack decision N … digest D" log line, written only after the journal's
fsync); the one exception allowed is a decision already durable but killed before its
acknowledgement line, which the journal must then show right after the acknowledged one.
Every game must end exactly as the same scripted game does without interruptions.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from haleakala.companion.autoplay import reference_game
from haleakala.companion.journal import scan_records
from haleakala.games.haleakala import Game

WORKERS = 4
ACK = re.compile(r"ack (?:decision|undo \d+ to decision) (\d+)\b.* digest ([0-9a-f]{16})")
START = re.compile(r"(?:new game .*|resumed game .* at decision (\d+)), digest ([0-9a-f]{16})")
OVER = re.compile(
    r"autoplay: game over: (\w+) wins (\d+)-(\d+), decision (\d+), "
    r"digest ([0-9a-f]{16})"
)


@dataclass
class Outcome:
    seed: int
    checks: int = 0
    kills: int = 0
    problems: list[str] = field(default_factory=list)
    final: tuple | None = None


def daemon(state: Path, config: Path, seed: int, variant: str, every: int, log: Path):
    command = [
        sys.executable, "-m", "haleakala", "run", "--hardware", "sim", "--headless",
        "--config", str(config), "--state-dir", str(state), "--seed", str(seed),
        "--variant", variant, "--autoplay", str(seed), "--snapshot-every", str(every),
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
    out = open(log, "w")  # noqa: SIM115 (closed by the caller; a file: a full pipe would stall)
    return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env), out


def wait_for_decision(log: Path, process, target: int, timeout: float = 60.0) -> None:
    """Until the daemon has acknowledged decision ``target`` (or ended)."""
    deadline = time.monotonic() + timeout
    seen = ""
    with open(log) as f:
        while time.monotonic() < deadline and process.poll() is None:
            seen += f.read()
            plies = [int(m.group(1)) for m in ACK.finditer(seen[-4000:])]
            if plies and max(plies) >= target:
                return
            time.sleep(0.005)


def journal_digest_at(state: Path, ply: int) -> str | None:
    scan = scan_records((state / "journal.bin").read_bytes())
    for _, record in scan.records:
        if record.get("type") == "decision" and record.get("ply") == ply:
            return record["digest"]
    return None


def play_with_power_cuts(seed: int, tmp: Path) -> Outcome:
    rng = random.Random(seed)
    outcome = Outcome(seed)
    variant = ("base", "tactical")[seed % 2]
    kit = ("buttons", "rfid")[seed // 2 % 2]
    every = (20, 7)[seed // 4 % 2]
    config = tmp / f"{kit}.toml"
    state = tmp / f"game{seed}"
    acked = (0, Game(variant, seed).digest())  # (decisions, digest) last acknowledged
    kills = rng.choice((2, 3))
    length = len(reference_game(variant, seed, None, seed).history)
    targets = sorted(rng.sample(range(1, length - 1), kills))  # where the power goes
    for run in range(kills + 1):
        log = tmp / f"game{seed}-run{run}.log"
        process, out = daemon(state, config, seed, variant, every, log)
        try:
            killed = False
            if run < kills:
                if rng.random() < 0.2:  # during start-up or recovery
                    time.sleep(rng.uniform(0.05, 0.4))
                else:  # during play, at a random decision (and a random moment after it)
                    wait_for_decision(log, process, targets[run])
                    time.sleep(rng.uniform(0.0, 0.01))
                if process.poll() is None:
                    process.send_signal(signal.SIGKILL)
                    outcome.kills += 1
                    killed = True
            process.wait(timeout=120)
        finally:
            out.close()
        text = log.read_text()
        start = START.search(text)
        if start is not None:
            resumed = (int(start.group(1) or 0), start.group(2))
            if run > 0:
                outcome.checks += 1
                if resumed != acked and not (
                    resumed[0] == acked[0] + 1  # durable, killed before its ack line
                    and journal_digest_at(state, resumed[0]) == resumed[1]
                    and journal_digest_at(state, acked[0]) == acked[1]
                ):
                    outcome.problems.append(
                        f"run {run}: resumed at {resumed}, last acknowledged {acked}"
                    )
            acked = resumed
        for match in ACK.finditer(text):
            acked = (int(match.group(1)), match.group(2))
        over = OVER.search(text)
        if over is not None:
            assert killed or process.returncode == 0, text[-2000:]
            outcome.final = (
                over.group(1),
                int(over.group(2)),
                int(over.group(3)),
                int(over.group(4)),
                over.group(5),
            )
            break
    if outcome.final is None:
        outcome.problems.append("the uninterrupted last run did not finish the game")
    return outcome


@pytest.mark.parametrize("games", [24, pytest.param(100, marks=pytest.mark.long)])
def test_power_cuts_never_lose_an_acknowledged_decision_and_games_end_the_same(games, tmp_path):
    (tmp_path / "buttons.toml").write_text('kit = "buttons"\n')
    (tmp_path / "rfid.toml").write_text('kit = "rfid"\n')
    with ThreadPoolExecutor(WORKERS) as pool:
        outcomes = list(pool.map(lambda s: play_with_power_cuts(s, tmp_path), range(games)))
    problems = [f"game {o.seed}: {p}" for o in outcomes for p in o.problems]
    assert problems == []
    for o in outcomes:
        reference = reference_game(("base", "tactical")[o.seed % 2], o.seed, None, o.seed)
        result = reference.result()
        expected = (result.winner, *result.scores, len(reference.history), reference.digest())
        assert o.final == expected, f"game {o.seed}"
        assert list((tmp_path / f"game{o.seed}" / "games").glob("*.jsonl"))
    # The power cuts really happened, and restarts were really checked.
    assert sum(o.kills for o in outcomes) >= 1.8 * games
    assert all(o.checks >= 1 for o in outcomes)
    assert sum(o.checks for o in outcomes) >= 1.8 * games
