"""The game log is a public format: the same seeded games write the same bytes as the logs
made before events became typed values (``tests/data/golden_logs``, written by the engine of
commit 510861c), and those old logs still replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from haleakala.ai.simple import RandomBot
from haleakala.cli import main
from haleakala.gameapi import new_game
from haleakala.toolkit.gamelog import play_log

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "golden_logs"
CASES = [
    ("haleakala", {"variant": variant}, seed) for variant in ("base", "tactical") for seed in (1, 2)
] + [("kahuna", {}, seed) for seed in (1, 2)]


def _name(game: str, options: dict, seed: int) -> str:
    return "-".join([game, *options.values(), str(seed)]) + ".jsonl"


def written(game: str, options: dict, seed: int) -> str:
    """The log of a seeded game between two seeded random bots, as the golden files were
    made."""
    state = new_game(game, seed=seed, **options)
    bots = [RandomBot(seed * 2), RandomBot(seed * 2 + 1)]
    return "\n".join(play_log(state, bots)) + "\n"


@pytest.mark.parametrize(("game", "options", "seed"), CASES)
def test_a_seeded_game_writes_the_same_log_bytes_as_before(game, options, seed):
    golden = (GOLDEN / _name(game, options, seed)).read_text()
    assert written(game, options, seed) == golden


@pytest.mark.parametrize(("game", "options", "seed"), CASES)
def test_an_old_log_still_replays(game, options, seed, capsys):
    path = GOLDEN / _name(game, options, seed)
    assert main(["replay", str(path)]) == 0, capsys.readouterr()
