"""``haleakala replay`` for Kahuna: a game log (every game in the file) or a saved game.

The checks are ``haleakala.kahuna.replay``'s (KAHUNA-NOTATION "What a replayer
checks"); this module only reads, prints and sets the exit status: 0 when everything
agrees, 1 at the first disagreement (printed with the game's seed and record number), 2
for input that is not a Kahuna log or save.
"""

from __future__ import annotations

from haleakala.cli import UsageError
from haleakala.i18n import english_ngettext
from haleakala.kahuna import PLAYERS, Game, SaveError
from haleakala.kahuna.replay import Inconsistent, replay_log
from haleakala.rules.serialize import load_json

from .kahuna import describe_result


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


def run_kahuna(text: str, label: str, seeded: bool) -> int:
    try:
        data = load_json(text)
    except ValueError:
        data = None
    try:
        if isinstance(data, dict) and data.get("format") == "kahuna-game":
            _, game = replay_save(text)
            n = len(game.history)
            decisions = f"{n} {english_ngettext('decision', 'decisions', n)}"
            print(f"replay OK: saved Kahuna game {label}, {decisions}, position matches")
            games = [game]
        else:
            games = replay_log(text.splitlines(), seeded=seeded)
            total = sum(len(g.history) for g in games)
            counted = (
                f"{len(games)} {english_ngettext('game', 'games', len(games))}, "
                f"{total} {english_ngettext('decision', 'decisions', total)}"
            )
            print(f"replay OK: Kahuna game log {label}, {counted}")
    except SaveError as exc:
        raise UsageError(f"{label} is not a valid saved Kahuna game: {exc}") from None
    except Inconsistent as exc:
        print(f"{label}: {exc}")
        return 1
    for game in games:
        print(describe_result(game))
    return 0
