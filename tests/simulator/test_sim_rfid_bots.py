"""The RFID simulator's bots play on through the tagged discs (issue 23: it stalled at
decision 4-14 with "TWO DISCS AT ONCE").

The cause: ``SimSession.bot_step(block=True)``, the loop behind ``haleakala sim --kit rfid
--decisions N``, did not pass ``block`` on, so on real time a lifted disc (a return) was
left settling and the next step laid another disc beside it. Seed 1 of each variant runs
by default (~2 s each); all of seeds 1-9 with ``-m long``.
"""

from __future__ import annotations

import pytest

from haleakala.games.haleakala.decision import Return, decode
from haleakala.simulator.session import SimSession

SEEDS = [pytest.param(seed, marks=() if seed == 1 else pytest.mark.long) for seed in range(1, 10)]


@pytest.mark.parametrize("variant", ["base", "tactical"])
@pytest.mark.parametrize("seed", SEEDS)
def test_rfid_bots_make_100_decisions_through_the_discs(tmp_path, variant, seed):
    """As ``haleakala sim --kit rfid --decisions 100`` plays them: on real time, blocking."""
    with SimSession(kit="rfid", variant=variant, seed=seed, state_dir=tmp_path) as session:
        for _ in range(100):
            if session.bot_step(block=True) is None:
                break
        refusals = [line for line in session.log if line.startswith(("bot:", "TWO DISCS"))]
        assert len(session.game.history) == 100, refusals


def test_a_bot_step_while_a_lifted_disc_settles_lays_no_second_disc(tmp_path):
    """The window's bot key pressed again while a returned disc still settles: nothing is
    laid beside it; once it has settled the bots play on."""
    with SimSession(kit="rfid", variant="base", seed=1, state_dir=tmp_path) as session:
        game = session.game
        for _ in range(60):
            returns = [
                d
                for d in game.legal_actions()
                if game.phase_name == "turn" and isinstance(decode(d, game.board), Return)
            ]
            if returns:
                break
            assert session.bot_step(block=True) is not None
            game = session.game
        else:
            pytest.fail("no return became legal in 60 decisions")
        before = len(game.history)
        session.perform(returns[0], block=False)
        assert session.companion.panel.settling
        assert session.bot_step(block=False) is None
        assert session.companion.panel.mismatch is None
        assert len(session.game.history) == before
        assert session.bot_step(block=True) is not None, list(session.log)[-4:]
        assert session.game.history[before] == returns[0]
        assert session.companion.panel.mismatch is None
