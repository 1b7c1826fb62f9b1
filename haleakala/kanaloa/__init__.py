"""Kanaloa (Günter Cornett, 2–4 players): the complete rules, pure like the other games.

    >>> from haleakala.kanaloa.game import Game
    >>> game = Game(seed=7, players=3)
    >>> game.players, len(game.legal_decisions())
    (('red', 'yellow', 'green'), 84)

The map, the tile mix and the colours are data (``data/map.toml``, ``data/tiles.toml``,
N1–N4), checked when loaded. Rulings N1–N52 of KANALOA-RULINGS.md, and the local ones in
docs/KANALOA-LOCAL-RULINGS.md, are cited where they are enforced. Importing this package
loads Kanaloa's own engine (``serialize`` and ``hidden`` hand their functions to ``game``,
as in Kahuna) and no other game's; the description's hooks are strings.
"""

from haleakala.gameapi import GameDescription

from . import hidden, serialize  # noqa: F401  (they hand their functions to ``game``)

DESCRIPTION = GameDescription(
    name="kanaloa",
    title="Kanaloa",
    state="haleakala.kanaloa.game:Game",
    colours=("red", "yellow", "green", "blue"),
    player_counts=(2, 3, 4),
    log="haleakala.kanaloa.log",
    replay="haleakala.terminal.kanaloa_replay:run_kanaloa",
    invariants="haleakala.kanaloa.invariants:violations",
    all_codes="haleakala.kanaloa.notation:all_codes",
    bots={
        "random": "haleakala.ai.simple:RandomBot",
        "greedy": "haleakala.ai.simple:EvaluationGreedyBot",
        "ai": "haleakala.ai.search:SearchBot",
        "ai-paranoid": "haleakala.ai.kanaloa:ParanoidSearchBot",
        "child": "haleakala.ai.kanaloa:ChildBot",
    },
    terminal="haleakala.terminal.kanaloa:open_session",
    window="haleakala.cli.sim:kanaloa",
    live_view="haleakala.web.kanaloa",
    save_format="kanaloa-game",
    strength="haleakala.ai.kanaloa:strength",
    bench="haleakala.bench.ai_kanaloa:run",
)
