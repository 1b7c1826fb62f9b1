"""The booted virtual Pi's judge of power cuts (``tools/virtual_pi_boot.Ledger``), on consoles
made here: a resume at or after the last acknowledged decision on the reference history
passes; a resume before it, another history or a new game over an unfinished one is named."""

from __future__ import annotations

import importlib.util
import sys

import pytest
from support.paths import REPO_ROOT

from haleakala.companion.autoplay import reference_game
from haleakala.games.haleakala import Game

SEED, POLICY = 101, 1


@pytest.fixture(scope="module")
def boot_tool():
    spec = importlib.util.spec_from_file_location(
        "virtual_pi_boot", REPO_ROOT / "tools" / "virtual_pi_boot.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["virtual_pi_boot"] = module
    spec.loader.exec_module(module)
    return module


def digests() -> list[str]:
    final = reference_game("base", SEED, None, POLICY)
    game = Game("base", SEED, None)
    out = [game.digest()]
    for d in final.history:
        game.apply(d)
        out.append(game.digest())
    return out


def new_game() -> str:
    return f"haleakala[9]: new game g1 (base, seed {SEED}, red starts), digest {digests()[0]}\n"


def acks(first: int, last: int, history: list[str] | None = None) -> str:
    history = history or digests()
    return "".join(
        f"[  1.0] haleakala[9]: ack decision {n} red 3@0 by player digest {history[n]}\n"
        for n in range(first, last + 1)
    )


def resumed(at: int, digest: str | None = None) -> str:
    digest = digest or digests()[at]
    return f"haleakala[9]: resumed game g1 (base, seed {SEED}) at decision {at}, digest {digest}\n"


def ledger(boot_tool):
    return boot_tool.Ledger(boot_tool.Reference(REPO_ROOT, POLICY))


def test_a_resume_at_or_after_the_last_ack_on_the_reference_history_passes(boot_tool):
    judge = ledger(boot_tool)
    judge.boot(1, new_game() + acks(1, 12))
    seen = judge.boot(2, resumed(13) + acks(14, 20))
    assert judge.problems == []
    assert seen["resumed"] == 13 and seen["last_ack"] == 20


def test_a_resume_before_the_last_acknowledged_decision_is_a_lost_decision(boot_tool):
    judge = ledger(boot_tool)
    judge.boot(1, new_game() + acks(1, 127))
    judge.boot(2, resumed(126))
    assert judge.problems == ["boot 2: ack decision 127 logged, resumed at 126"]


def test_a_resume_on_another_history_is_named(boot_tool):
    judge = ledger(boot_tool)
    judge.boot(1, new_game() + acks(1, 5))
    judge.boot(2, resumed(6, digest="0" * 16))
    assert judge.problems == ["boot 2: resumed at 6 on another history"]


def test_a_new_game_over_an_unfinished_one_is_a_lost_game(boot_tool):
    judge = ledger(boot_tool)
    judge.boot(1, new_game() + acks(1, 30))
    judge.boot(2, new_game())
    assert judge.problems and "which was not over" in judge.problems[0]


def test_a_new_game_after_the_daemons_game_over_line_is_no_loss(boot_tool):
    # the line as the daemon writes it ("autoplay: " + the status "game over: red wins ..."):
    # the first booted cuts judged it with a comma and called the next game a lost one
    history = digests()
    last = len(history) - 1
    over = (f"[  2.0] haleakala[9]: INFO haleakala.daemon: autoplay: game over: red wins 28-19, "
            f"decision {last}, digest {history[last]}\n")  # fmt: skip
    judge = ledger(boot_tool)
    judge.boot(1, new_game() + acks(1, last) + over)
    judge.boot(2, new_game().replace(f"seed {SEED}", f"seed {SEED + 1}"))
    assert judge.problems == []


# The daemon's lines as journald forwards them to the serial console (level and logger kept).
CONSOLE = """\
[   56.975118] systemd[1]: Starting haleakala.service - Haleakala Companion (augmented board game referee)...
[   71.351494] haleakala[208]: INFO haleakala.daemon: language: en
[   72.745159] haleakala[208]: INFO haleakala.companion: resumed game g1 (base, seed 201) at decision 142, digest b53ab50792f9a21c
[   73.603502] haleakala[208]: INFO haleakala.daemon: ready: round 1, yellow to turn, decision 142, digest b53ab50792f9a21c
"""  # noqa: E501


def test_the_host_sees_the_daemons_start_and_ready_lines_as_the_console_carries_them(boot_tool):
    import re

    assert re.search(boot_tool.DAEMON + "ready: ", CONSOLE)
    assert re.search(boot_tool.DAEMON + "language: ", CONSOLE)
    assert not re.search(boot_tool.DAEMON + "ready: ", CONSOLE.replace("ready:", "steady"))


def test_each_boot_reports_the_guest_clock_at_unit_start_first_line_resume_and_ready(boot_tool):
    assert boot_tool.guest_times(CONSOLE) == {
        "unit_starting_s": 56.975118,
        "first_line_s": 71.351494,
        "resumed_s": 72.745159,
        "ready_s": 73.603502,
    }
