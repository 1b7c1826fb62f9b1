"""Nothing is said twice across a power cut (issue 40): a real ``haleakala run`` process on
the sim backend, autoplaying the end of a game with its voice (the real espeak-ng) writing
each utterance to a WAV file, is killed with SIGKILL while it speaks and started again on the
same state directory.

The narrator starts from the position the journal resumed and says it once ("Game resumed
after decision N"); every utterance is keyed by the game and the journal position it belongs
to. So across both runs each decision is said at most once, in the order of the game, and
only the one being said when the power went (never journaled twice, never said again) may be
missing; every file is heard; the game's result is said last."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from support.speech import wav_rms
from support.waiting import wait_for

from haleakala.companion.autoplay import choose
from haleakala.companion.journal import Journal
from haleakala.games.haleakala import Game
from haleakala.hal.audio import MANIFEST

pytestmark = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (./test installs it)"
)

SEED = 11
LEFT = 24  # decisions still to play when the daemon starts
KILL_AFTER = 10  # utterances written before the power goes


def daemon(config: Path, state: Path, log: Path) -> tuple[subprocess.Popen, object]:
    command = [
        sys.executable, "-m", "haleakala", "run", "--hardware", "sim", "--headless",
        "--config", str(config), "--state-dir", str(state), "--autoplay", str(SEED),
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
    out = open(log, "w")  # noqa: SIM115 (closed by the caller)
    return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env), out


def said(folder: Path) -> list[dict]:
    path = folder / MANIFEST
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.endswith("}")]


def test_nothing_is_said_twice_across_a_power_cut(tmp_path):
    whole = Game("base", SEED, "red")
    while not whole.is_terminal():
        whole.apply(choose(whole, SEED))
    start = len(whole.history) - LEFT
    position = Game("base", SEED, "red")
    for d in whole.history[:start]:
        position.apply(d)
    state, speech = tmp_path / "state", tmp_path / "speech"
    Journal(state).start(position)  # the game so far, journaled as the kit would have
    config = tmp_path / "config.toml"
    config.write_text(f'[speech]\nverbosity = "events"\noutput = "files"\ndirectory = "{speech}"\n')

    first, out = daemon(config, state, tmp_path / "run1.log")
    try:
        wait_for(
            lambda: len(said(speech)) >= KILL_AFTER or first.poll() is not None,
            f"{KILL_AFTER} utterances written (or the daemon ended)",
            timeout=300.0,
        )
        assert first.poll() is None, (tmp_path / "run1.log").read_text()[-2000:]
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=60)
    finally:
        out.close()
    before = said(speech)
    second, out = daemon(config, state, tmp_path / "run2.log")
    try:
        assert second.wait(timeout=600) == 0, (tmp_path / "run2.log").read_text()[-2000:]
    finally:
        out.close()
    lines = said(speech)
    after = lines[len(before) :]

    keys = [line["key"] for line in lines]
    assert len(keys) == len(set(keys)), "an utterance was said twice"
    plies = [int(k.split("/")[-2]) for k in keys if k.endswith("/decision")]
    assert plies == sorted(set(plies)), "decisions said out of order or twice"
    said_before = [int(k.split("/")[-2]) for k in keys[: len(before)] if k.endswith("/decision")]
    in_flight = (max(said_before) if said_before else start) + 1
    missing = set(range(start + 1, len(whole.history) + 1)) - set(plies)
    assert missing <= {in_flight}, "a decision was left out, not only the one cut off"
    resumed = int(after[0]["key"].split("/")[-2])
    assert after[0]["key"].endswith("/start") and "resumed" in after[0]["text"]
    assert all(int(k.split("/")[-2]) > resumed for k in keys[len(before) + 1 :] if "/decision" in k)
    assert lines[-1]["key"].endswith("/result")
    for line in lines:
        assert wav_rms(speech / line["file"]) > 300.0, line
