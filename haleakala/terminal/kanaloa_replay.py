"""``haleakala replay`` for Kanaloa: a game log (every game in the file) or a saved game.

The checks are ``haleakala.kanaloa.replay``'s (KANALOA-NOTATION "What a replayer checks");
this module only reads, prints and sets the exit status: 0 when everything agrees, 1 at the
first disagreement (printed with the game, its seed and the record number), 2 for input that
is not a Kanaloa log or save.
"""

from __future__ import annotations

from haleakala.cli import UsageError
from haleakala.i18n import english_ngettext
from haleakala.kanaloa.game import Game
from haleakala.kanaloa.replay import Inconsistent, replay_log
from haleakala.kanaloa.serialize import SaveError, from_json
from haleakala.rules.serialize import load_json


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


def run_kanaloa(text: str, label: str, seeded: bool) -> int:
    try:
        data = load_json(text)
    except ValueError:
        data = None
    try:
        if isinstance(data, dict) and data.get("format") == "kanaloa-game":
            game = from_json(text)  # replays the whole history through the rules
            n = len(game.history)
            decisions = f"{n} {english_ngettext('decision', 'decisions', n)}"
            print(f"replay OK: saved Kanaloa game {label}, {decisions}, position reached")
            games = [game]
        else:
            games = replay_log(text.splitlines(), seeded=seeded)
            total = sum(len(g.history) for g in games)
            counted = (
                f"{len(games)} {english_ngettext('game', 'games', len(games))}, "
                f"{total} {english_ngettext('decision', 'decisions', total)}"
            )
            print(f"replay OK: Kanaloa game log {label}, {counted}")
    except SaveError as exc:
        raise UsageError(f"{label} is not a valid saved Kanaloa game: {exc}") from None
    except Inconsistent as exc:
        print(f"{label}: {exc}")
        return 1
    for game in games:
        print(describe_result(game))
    return 0
