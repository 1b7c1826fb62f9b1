"""Kits of a remote game as real processes (``haleakala run --remote``) around a private
Mosquitto: what the acceptance tests of issue 28 start, disturb and read back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from haleakala.remote.broker import LocalBroker
from support.paths import REPO_ROOT
from support.waiting import wait_for

SEED, POLICY = 5, 9  # the deal and the autoplayer's seed of every game here
KEY = "test-table-key"  # every table here has a key (secure by default), unless a test says
GAME_S = 120.0  # hang guard for a whole game of ~500 decisions on a loaded machine


class Kit:
    """One ``haleakala run --remote`` process; its standard output goes to ``out``."""

    def __init__(
        self,
        tmp: Path,
        broker: LocalBroker,
        seat: str,
        *extra: str,
        host: bool = False,
        table: str = "t1",
        name: str = "",
        seed: int = SEED,
        keyed: bool = True,
        autoplay: bool = True,
    ) -> None:
        """``keyed`` False: no ``--table-key`` is added (the host makes one, a seat needs
        one); ``autoplay`` False: decisions are typed (``write``)."""
        self.name = name or ("host" if host else seat)
        self.state_dir = tmp / self.name
        self.out = tmp / f"{self.name}.out"
        self.args = [
            sys.executable,
            "-m",
            "haleakala",
            "run",
            "--remote",
            f"{broker.url}/{table}",
            "--seat",
            seat,
            "--state-dir",
            str(self.state_dir),
            *(("--autoplay", str(POLICY)) if autoplay else ("--typed",)),
            *extra,
        ]
        if keyed and "--table-key" not in extra and "--no-table-key" not in extra:
            self.args += ["--table-key", KEY]
        self.seed = seed
        if host:
            self.args += ["--host", "--seed", str(seed)]
        self.process: subprocess.Popen | None = None
        self.env: dict[str, str] = {}  # more environment for the kit (a password)

    def start(self, *extra: str) -> Kit:
        env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), **self.env}
        with self.out.open("a") as out:
            self.process = subprocess.Popen(
                self.args + list(extra),
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.PIPE if "--typed" in self.args else subprocess.DEVNULL,
                env=env,
                cwd=REPO_ROOT,
            )
        return self

    def write(self, line: str) -> None:
        """Type ``line`` at a ``--typed`` kit."""
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()

    def text(self) -> str:
        return self.out.read_text() if self.out.exists() else ""

    def wait_for_line(self, text: str, timeout: float = GAME_S) -> None:
        wait_for(
            lambda: text in self.text() or self.exited(),
            f"{self.name} says {text!r}",
            timeout=timeout,
        )
        assert text in self.text(), f"{self.name} ended without {text!r}:\n{self.text()[-2000:]}"

    def exited(self) -> bool:
        return self.process is not None and self.process.poll() is not None

    def wait(self, timeout: float = GAME_S) -> int:
        assert self.process is not None
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{self.name} did not finish:\n{self.text()[-3000:]}")

    def signal(self, sig: int) -> None:
        assert self.process is not None
        self.process.send_signal(sig)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)
        self.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def final(self):
        """The host's final save, or a seat's end (its history and the host's digest: a
        seat never receives the whole final state)."""
        import json
        from types import SimpleNamespace

        from haleakala.games.haleakala import Game

        text = (self.state_dir / "remote" / "remote-final.json").read_text()
        record = json.loads(text)
        if "view" in record:  # the texts it saw, replayed on the deal, and the announced digest
            from haleakala.gameapi import new_game

            game = new_game("haleakala", seed=self.seed)
            for seat, text in zip(record["deciders"], record["history"], strict=True):
                game.apply(text, seat)
            digest = record["digest"]
            return SimpleNamespace(history=game.history, digest=lambda: digest)
        return Game.from_json(text)
