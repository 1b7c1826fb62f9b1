"""Kanaloa's game log is a public format (KANALOA-NOTATION): the same command writes the same
bytes as the logs made before its events became typed values (``tests/data/golden_logs/
kanaloa-N-S.jsonl``, written by the engine of commit 3c45af0 with ``play --game kanaloa
--players N --seat ... --seed S --json``, ``--legal`` for seed 1), and those logs replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from haleakala.cli import main

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "golden_logs"
SEATS = ["red=random", "yellow=greedy", "green=random", "blue=greedy"]
CASES = [(players, seed) for players in (2, 3, 4) for seed in (1, 2)]


def command(players: int, seed: int) -> list[str]:
    """The command line that wrote the golden log of ``players`` and ``seed``."""
    args = ["play", "--game", "kanaloa", "--players", str(players)]
    for seat in SEATS[:players]:
        args += ["--seat", seat]
    args += ["--seed", str(seed), "--json"]
    return args + (["--legal"] if seed == 1 else [])


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_a_seeded_kanaloa_game_writes_the_same_log_bytes_as_before(players, seed, capsys):
    golden = (GOLDEN / f"kanaloa-{players}-{seed}.jsonl").read_text()
    assert main(command(players, seed)) == 0
    assert capsys.readouterr().out == golden


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_an_old_kanaloa_log_still_replays(players, seed, capsys):
    path = GOLDEN / f"kanaloa-{players}-{seed}.jsonl"
    assert main(["replay", "--seeded", str(path)]) == 0, capsys.readouterr()
    assert "replay OK: Kanaloa game log" in capsys.readouterr().out
