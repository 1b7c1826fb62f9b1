"""``haleakala replay`` for Kanaloa: a game log (every game in the file) or a saved game.

The checks are ``haleakala.games.kanaloa.replay``'s (KANALOA-NOTATION "What a replayer checks");
reading, printing and the exit status are the shared replayer's (``logreplay``): 0 when
everything agrees, 1 at the first disagreement (printed with the game, its seed and the
record number), 2 for input that is not a Kanaloa log or save.
"""

from __future__ import annotations

from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.replay import Inconsistent, replay_log
from haleakala.games.kanaloa.serialize import SaveError, from_json
from haleakala.toolkit.replayer import Replayer


def describe_result(game: Game) -> str:
    r = game.result()
    if r is None:
        return f"game not over: {game.to_move} decides ({game.phase_name})"
    scores = ", ".join(
        f"{c} {s} ({u} unscored)"
        for c, s, u in zip(game.players, r.scores, r.unscored, strict=True)
    )
    winners = " and ".join(game.players[p] for p in r.winners)
    return f"result: {scores}; {'winners' if len(r.winners) > 1 else 'winner'} {winners}"


KANALOA = Replayer(
    title="Kanaloa",
    save_format="kanaloa-game",
    replay_save=from_json,  # loading a save replays its whole history through the rules
    save_verdict="position reached",
    replay_log=replay_log,
    describe_result=describe_result,
    inconsistent=Inconsistent,
    save_error=SaveError,
)


def run_kanaloa(text: str, label: str, seeded: bool) -> int:
    """Kanaloa's replayer (its ``GameDescription.replay``)."""
    return KANALOA.run(text, label, seeded)
