"""``haleakala replay`` for Kahuna: a game log (every game in the file) or a saved game.

The checks are ``haleakala.games.kahuna.replay``'s (KAHUNA-NOTATION "What a replayer checks");
reading, printing and the exit status are the shared replayer's (``logreplay``): 0 when
everything agrees, 1 at the first disagreement (printed with the game's seed and record
number), 2 for input that is not a Kahuna log or save.
"""

from __future__ import annotations

from haleakala.games.kahuna import PLAYERS, Game, SaveError
from haleakala.games.kahuna.replay import Inconsistent, replay_log
from haleakala.games.kahuna.views.terminal import describe_result
from haleakala.toolkit.replayer import Replayer


def replay_save(text: str) -> tuple[Game, Game]:
    """Replay a save's history from its seed and start: the position must be the saved."""
    saved = Game.from_json(text)
    replayed = Game(saved.seed, PLAYERS[saved.start])
    for i, decision in enumerate(saved.history):
        reason = replayed.why_illegal(decision)
        if reason is not None:
            raise Inconsistent(
                f"history[{i}]: {replayed.format(decision)!r} is not legal: {reason}"
            )
        replayed.apply(decision)
    if replayed.digest() != saved.digest():
        raise Inconsistent(
            f"the saved position is not where its history leads "
            f"(digest {saved.digest()}, replayed {replayed.digest()})"
        )
    return saved, replayed


KAHUNA = Replayer(
    title="Kahuna",
    save_format="kahuna-game",
    replay_save=lambda text: replay_save(text)[1],
    save_verdict="position matches",
    replay_log=replay_log,
    describe_result=describe_result,
    inconsistent=Inconsistent,
    save_error=SaveError,
)


def run_kahuna(text: str, label: str, seeded: bool) -> int:
    """Kahuna's replayer (its ``GameDescription.replay``)."""
    return KAHUNA.run(text, label, seeded)
