"""Scenarios for the games without a kit: a TOML file of decisions, refusals, bots' turns and
expectations, run on the rules through the game interface.

The kit's scenarios (``scenario_format``) drive the simulated board of the default game:
buttons, RFID readers, LEDs, the OLED. The other games have no board, so theirs say what a
tester of their rules and front-ends checks: a decision is made or refused (and by which
ruling), bots play on, and the game stands where expected. A file names its game and its
steps (``sim/scenarios/*.toml`` holds one per game)::

    name = "..."
    game = "..."        # a registered game's name
    players = 2
    seed = 3

    [[step]]
    expect = { to_move = "red", legal_has = ["..."] }
    [[step]]
    refuse = { decision = "...", ruling = "..." }
    [[step]]
    decide = "..."
    [[step]]
    play_bot = { bot = "random", until = "end" }
    [[step]]
    expect = { over = true }

``haleakala sim --headless --scenario FILE`` runs it like any scenario (``run.run_scenarios``
sends a file that names a game other than the kit's here).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from haleakala.gameapi import DEFAULT_GAME, GAMES, describe, new_game

STEP_KINDS = ("decide", "refuse", "play_bot", "expect", "note")
EXPECT_KEYS = ("to_move", "phase", "decisions", "over", "legal_has", "legal_count", "last")
MAX_DECISIONS = 5000  # a bot's game that has not ended by then is a failed step


class GameScenarioError(ValueError):
    """A game scenario that cannot be run as written; the message names file and key."""


@dataclass(frozen=True)
class GameScenario:
    source: str
    name: str
    game: str
    seed: int
    players: int | None
    steps: tuple[dict[str, Any], ...]
    description: str = ""


@dataclass
class GameOutcome:
    scenario: GameScenario
    steps_run: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures

    def report(self) -> str:
        sc = self.scenario
        if self.passed:
            return f"PASS {sc.source}: {sc.name} ({self.steps_run} steps)"
        head = f"FAIL {sc.source} at step {self.steps_run} of {len(sc.steps)}: {sc.name}"
        return "\n".join([head, *(f"  {line}" for line in self.failures)])


def names_a_game(path: str | Path) -> bool:
    """Whether the TOML file at ``path`` is a game scenario (it names a game other than the
    kit's); unreadable files are left to the kit's loader to report."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return data.get("game", DEFAULT_GAME) != DEFAULT_GAME


def load_game_scenario(path: str | Path) -> GameScenario:
    source = str(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise GameScenarioError(f"{source}: cannot read it ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise GameScenarioError(f"{source}: not valid TOML: {exc}") from None
    game = data.get("game")
    if game not in GAMES:
        raise GameScenarioError(f"{source}: game = {game!r}: choose one of {', '.join(GAMES)}")
    unknown = set(data) - {"name", "description", "game", "seed", "players", "step"}
    if unknown:
        raise GameScenarioError(f"{source}: unknown key {sorted(unknown)[0]!r}")
    steps = data.get("step", [])
    for k, step in enumerate(steps, 1):
        kinds = [key for key in step if key in STEP_KINDS and key != "note"]
        if len(kinds) != 1 or set(step) - set(STEP_KINDS):
            raise GameScenarioError(
                f"{source}: step {k} needs exactly one of {', '.join(STEP_KINDS[:-1])}"
                " (and a note if you like)"
            )
        expect = step.get("expect")
        if isinstance(expect, dict) and set(expect) - set(EXPECT_KEYS):
            bad = sorted(set(expect) - set(EXPECT_KEYS))[0]
            raise GameScenarioError(f"{source}: step {k}: expect {bad!r}: one of "
                                    f"{', '.join(EXPECT_KEYS)}")  # fmt: skip
    return GameScenario(source, str(data.get("name", Path(path).stem)), game,
                        int(data.get("seed", 1)), data.get("players"), tuple(steps),
                        str(data.get("description", "")))  # fmt: skip


def run_game_scenario(sc: GameScenario) -> GameOutcome:
    """Every step in order; the first that fails stops the run with what it expected."""
    from haleakala.ai import make_bot

    options = {"players": sc.players} if sc.players else {}
    game = new_game(sc.game, sc.seed, **options)
    out = GameOutcome(sc)
    for k, step in enumerate(sc.steps, 1):
        out.steps_run = k
        note = f" ({step['note']})" if "note" in step else ""
        if "decide" in step:
            refused = game.refusal(step["decide"])
            if refused is not None:
                out.failures.append(f"decide {step['decide']!r}{note}: refused: {refused.text}")
                return out
            game.apply(step["decide"])
        elif "refuse" in step:
            want = step["refuse"]
            refused = game.refusal(want["decision"])
            if refused is None:
                out.failures.append(f"refuse {want['decision']!r}{note}: it was legal")
                return out
            if "ruling" in want and refused.ruling != want["ruling"]:
                out.failures.append(f"refuse {want['decision']!r}{note}: ruling expected "
                                    f"{want['ruling']}, got {refused.ruling}")  # fmt: skip
                return out
        elif "play_bot" in step:
            spec = step["play_bot"]
            bot = make_bot(spec.get("bot", describe(sc.game).default_opponent),
                           seed=int(spec.get("seed", sc.seed)), game=sc.game)  # fmt: skip
            count = MAX_DECISIONS if spec.get("until") == "end" else int(spec["decisions"])
            for _ in range(count):
                if game.is_terminal():
                    break
                game.apply(bot.decide(game))
            if spec.get("until") == "end" and not game.is_terminal():
                out.failures.append(f"play_bot{note}: no end after {MAX_DECISIONS} decisions")
                return out
        elif "expect" in step:
            wrong = _differences(game, step["expect"])
            if wrong:
                out.failures += [f"expect{note}: {line}" for line in wrong]
                return out
    return out


def _differences(game: Any, want: dict[str, Any]) -> list[str]:
    got: dict[str, Any] = {
        "to_move": game.to_move,
        "phase": getattr(game, "phase_name", None),
        "decisions": len(game.history),
        "over": game.is_terminal(),
        "last": game.format(game.history[-1]) if game.history else None,
    }
    legal = [] if game.is_terminal() else game.legal_decisions()
    wrong = []
    for key, value in want.items():
        if key == "legal_has":
            missing = [t for t in value if t not in legal]
            if missing:
                wrong.append(f"legal_has: {', '.join(missing)} not legal")
        elif key == "legal_count":
            if len(legal) != value:
                wrong.append(f"legal_count: expected {value}, got {len(legal)}")
        elif got[key] != value:
            wrong.append(f"{key}: expected {value!r}, got {got[key]!r}")
    return wrong
