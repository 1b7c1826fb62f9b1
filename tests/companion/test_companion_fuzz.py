"""Random input-event sequences never break the controller, and the game stays valid.

Hypothesis throws 10,000 sequences (two tests × 5,000) at the real controller on the sim
backend with a hand-driven clock: every button (and names that are none), encoder turns,
long presses, beach snapshots with any discs (and a tag that is no disc), beaches that do
not exist, link health changes, the clock moving on — mixed with real decisions carried out
through the inputs, so sequences reach every phase of the game from positions all through
it. After every event: no exception left the controller, no internal error was logged, the
game passes the rules' invariants, and a refused board never changed the game.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.companion_rig import Rig
from support.invariants import check_invariants

from haleakala.companion.autoplay import choose
from haleakala.companion.hands import events_for
from haleakala.games.haleakala import Game
from haleakala.hal.base import BUTTONS
from haleakala.hal.events import (
    ALL_DISCS,
    BeachContents,
    ButtonHeld,
    ButtonPressed,
    EncoderTurned,
    LinkHealth,
)

EXAMPLES_PER_KIT = 5_000


@pytest.fixture(autouse=True, scope="module")
def quiet_companion_log():
    """Thousands of refusals are logged by design; errors are counted by the controller
    itself (``Companion.errors``), which every example checks."""
    logger = logging.getLogger("haleakala")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    yield
    logger.setLevel(level)


@dataclass(frozen=True)
class Play:
    """Carry out the ``k``-th legal decision through the inputs (a few events)."""

    k: int


@dataclass(frozen=True)
class Wait:
    seconds: float


@cache
def positions(variant: str) -> tuple[Game, ...]:
    """Every position of a few scripted games: sequences start anywhere in a game."""
    out = []
    for seed in range(3):
        game = Game(variant, seed)
        out.append(game.clone())
        while not game.is_terminal():
            game.apply(choose(game, seed))
            out.append(game.clone())
    return tuple(out)


discs = st.frozensets(st.sampled_from(ALL_DISCS), max_size=4)
inputs = st.one_of(
    st.builds(ButtonPressed, st.sampled_from((*BUTTONS, "beach6", "nonsense"))),
    st.builds(ButtonHeld, st.sampled_from(("back", "select", "beach2"))),
    st.builds(EncoderTurned, st.integers(-12, 12).filter(bool)),
    st.builds(BeachContents, st.integers(-1, 6), discs),
    st.builds(BeachContents, st.integers(0, 5), discs.map(lambda d: d | {"E0040150ABCD"})),
    st.builds(LinkHealth, st.booleans(), st.sampled_from(("", "Pico quiet"))),
    st.builds(Play, st.integers(0, 60)),
    st.builds(Play, st.integers(0, 60)),
    st.builds(Wait, st.sampled_from((0.1, 0.5, 1.0, 2.5))),
)


def run_sequence(kit: str, variant: str, start: int, sequence: list) -> None:
    pool = positions(variant)
    game = pool[start % len(pool)].clone()
    rig = Rig(kit, variant, game=game, history=2)
    rng = random.Random(start)
    for item in sequence:
        if isinstance(item, Play):
            if rig.game.is_terminal():
                continue
            legal = rig.game.legal_actions()
            d = legal[item.k % len(legal)]
            made = len(rig.game.history)
            for _ in range(6):  # a few steps of "what a player does next"
                events = events_for(rig.c, d)
                if not events or len(rig.game.history) != made:
                    break
                for event in events:
                    step(rig, event)
                if d not in rig.game.legal_actions():
                    break
        elif isinstance(item, Wait):
            rig.advance(item.seconds)
            check(rig)
        else:
            step(rig, item)
        if rng.random() < 0.1:
            rig.advance(0.3)
    assert rig.c.errors == 0


def step(rig: Rig, event) -> None:
    board = isinstance(event, BeachContents)
    digest = rig.game.digest() if board else None
    rig.c.handle(event)  # must not raise
    check(rig)
    if board and rig.c.panel.mismatch is not None and rig.c.panel.mismatch.refusal:
        assert rig.game.digest() == digest, "a refused board changed the game"


def check(rig: Rig) -> None:
    assert rig.c.errors == 0, "internal error (see the log)"
    check_invariants(rig.game)
    assert rig.c.prompt and rig.c.prompt[0]
    assert len(rig.c.sources) == len(rig.game.history)


fuzz = settings(
    max_examples=EXAMPLES_PER_KIT,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@fuzz
@given(
    variant=st.sampled_from(("base", "tactical")),
    start=st.integers(0, 10**6),
    sequence=st.lists(inputs, max_size=6),
)
def test_random_inputs_on_the_buttons_kit_never_break_the_controller(variant, start, sequence):
    run_sequence("buttons", variant, start, sequence)


@fuzz
@given(
    variant=st.sampled_from(("base", "tactical")),
    start=st.integers(0, 10**6),
    sequence=st.lists(inputs, max_size=6),
)
def test_random_inputs_on_the_rfid_kit_never_break_the_controller(variant, start, sequence):
    run_sequence("rfid", variant, start, sequence)
