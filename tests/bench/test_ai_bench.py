"""``haleakala bench ai``: the pairings played, and the figures printed.

Tiny budgets only: the real figures come from running the command, never from tests.
"""

from __future__ import annotations

import argparse
import re

import pytest

from haleakala.cli import UsageError, main
from haleakala.games.haleakala import bench


def args(**given) -> argparse.Namespace:
    values = {"games": None, "budget": None, "jobs": None, "seconds": None}
    values.update(given)
    return argparse.Namespace(**values)


def test_matches_alternate_the_search_bots_colour_and_the_starting_player():
    matches = [bench.Match("greedy", "base", i, 0.1) for i in range(4)]
    combos = {(m.bot_player, m.start) for m in matches}
    assert combos == {(0, "red"), (1, "red"), (0, "yellow"), (1, "yellow")}


@pytest.mark.parametrize("jobs", [1, 2])
def test_bench_plays_every_pairing_and_variant_and_ends_with_the_figures(capsys, jobs):
    assert bench.run_haleakala(args(games=1, budget=0.002, jobs=jobs)) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    for pairing in ("ai-vs-random", "ai-vs-greedy"):
        for variant in ("base", "tactical", "both"):
            row = [line for line in lines if line.split()[:2] == [pairing, variant]]
            assert len(row) == 1, (pairing, variant)
            assert row[0].split()[2] == ("2" if variant == "both" else "1")
    last = lines[-3:]
    assert re.fullmatch(r"winrate_vs_random: (0|1)\.\d{3}", last[0])
    assert re.fullmatch(r"winrate_vs_greedy: (0|1)\.\d{3}", last[1])
    match = re.fullmatch(r"think_s_max: (\d+\.\d+)", last[2])
    assert match and float(match.group(1)) > 0
    assert "games: 4" in lines
    assert "unfinished_games: 0" in lines


@pytest.mark.parametrize(
    ("given", "word"),
    [({"games": 0}, "--games"), ({"budget": 0.0}, "--budget"), ({"jobs": 0}, "--jobs")],
)
def test_bench_refuses_nonsense_options(given, word):
    with pytest.raises(UsageError, match=word):
        bench.run_haleakala(args(**given))


def test_bench_ai_command_reports_misuse_in_one_line(capsys):
    assert main(["bench", "ai", "--games", "-3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--games must be at least 1" in err[0]
