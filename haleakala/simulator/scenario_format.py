"""The scenario file format: TOML, a header and a list of steps, checked before running.

A scenario is what a tester would do at the board, written down::

    name = "undo a placement"
    variant = "base"          # base | tactical
    seed = 3                  # deals the cards
    start = "red"             # optional: who starts (default: by seed)
    kit = "buttons"           # buttons | rfid
    solo = "yellow"           # optional: the companion plays this colour itself
    strength = "easy"         # optional with solo: easy (default) | normal | strong | child
    language = "de"           # optional: en (default), de or fr: what the OLED and log say

    [[step]]
    press = "beach2"          # a short press: select, back, beach0..beach5
    [[step]]
    expect = { to_move = "red", oled = "disc", leds = { "2.beach" = "lit" } }

Every step has exactly one action key (and an optional ``note`` shown in failures). The file
is checked as a whole before anything runs, so a typo is one clear line naming the step and
the key, never a half-run scenario.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from haleakala.hal.base import BUTTONS, SEGMENTS, ZONES
from haleakala.hal.events import BEACHES, Disc
from haleakala.i18n import LANGUAGES

from .colours import parse_colour

VARIANTS = ("base", "tactical")
KITS = ("buttons", "rfid")
PLAYERS = ("red", "yellow")
PHASES = ("turn", "shaman", "card", "priestess", "shell", "prescore", "over")

ACTIONS = {
    "press": "a short press of a button: select, back, beach0..beach5",
    "hold": 'a long press (past the hold time): hold = "back" is undo',
    "turn": "the encoder moves N detents (negative: anticlockwise)",
    "place": 'discs put on a beach (rfid): { beach = 2, discs = ["red3"] }',
    "remove": 'discs taken off the board (rfid): ["red3"]',
    "wait": "seconds pass on the daemon's clock",
    "decide": 'a decision in notation, made through the physical inputs ("3@2")',
    "play_bot": 'bots decide, through the physical inputs: { until = "end" }',
    "follow_companion": "solo: the players carry out the companion's decision as it says",
    "fix_board": "the players put every piece where the companion expects it",
    "misplace": "misplace mode on/off: each instructed move puts one piece in the wrong place",
    "power_cut": "the daemon dies without warning and restarts on the same state dir",
    "link": 'the RFID link goes up or down: { ok = false, detail = "unplugged" }',
    "expect": "checks: to_move, phase, round, decisions, last, score, winner, digest, "
    "boat, lava, statues, oled, oled_not, status, leds, board; the window's piles, "
    "scoring_after, last_move, log, log_not",
}

EXPECT_KEYS = (
    "to_move",
    "phase",
    "round",
    "decisions",
    "last",
    "score",
    "winner",
    "digest",
    "boat",
    "lava",
    "oled",
    "oled_not",
    "leds",
    "board",
    "variant",
    "status",
    "statues",
    "piles",
    "scoring_after",
    "last_move",
    "log",
    "log_not",
)
UNTIL = ("end", "round2", "scoring", "decisions")
BOTS = ("random", "greedy")
STRENGTHS = ("child", "easy", "normal", "strong")


class ScenarioError(ValueError):
    """A scenario file that cannot run: the message names the file, the step and the key."""


@dataclass(frozen=True)
class Step:
    kind: str
    value: Any
    note: str = ""
    index: int = 0  # 1-based position in the file
    raw: Any = None  # the value as written in the file

    def describe(self) -> str:
        shown = self.value if self.raw is None else self.raw
        text = f"step {self.index} ({self.kind} = {_show(shown)})"
        return f'{text} "{self.note}"' if self.note else text


@dataclass
class Scenario:
    name: str
    path: str = ""
    description: str = ""
    variant: str = "base"
    seed: int = 0
    start: str | None = None
    kit: str = "buttons"
    solo: str | None = None
    strength: str = "easy"
    language: str = "en"
    steps: list[Step] = field(default_factory=list)


def _show(value: Any) -> str:
    """A value as it reads in the file (TOML inline syntax)."""
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_bare(k)} = {_show(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _bare(key: Any) -> str:
    text = str(key)
    return text if text.replace("_", "").replace("-", "").isalnum() else _show(text)


def load_scenario(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    return parse_scenario(text, str(path))


def parse_scenario(text: str, source: str = "<scenario>") -> Scenario:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{source}: not valid TOML: {exc}") from None
    known = {"name", "description", "variant", "seed", "start", "kit", "solo", "strength"}
    known |= {"language", "step"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ScenarioError(
            f"{source}: unknown key {unknown[0]!r} at the top (known: {', '.join(sorted(known))})"
        )
    scenario = Scenario(name=str(data.get("name") or Path(source).stem), path=source)
    scenario.description = str(data.get("description", ""))
    scenario.variant = _choice(source, "variant", data.get("variant", "base"), VARIANTS)
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ScenarioError(f"{source}: seed must be a whole number ≥ 0, not {seed!r}")
    scenario.seed = seed
    if data.get("start") is not None:
        scenario.start = _choice(source, "start", data["start"], PLAYERS)
    scenario.kit = _choice(source, "kit", data.get("kit", "buttons"), KITS)
    if data.get("solo") is not None:
        scenario.solo = _choice(source, "solo", data["solo"], PLAYERS)
    if "strength" in data:
        if scenario.solo is None:
            raise ScenarioError(f'{source}: strength needs solo = "red" or "yellow"')
        scenario.strength = _choice(source, "strength", data["strength"], STRENGTHS)
    scenario.language = _choice(source, "language", data.get("language", "en"), LANGUAGES)
    steps = data.get("step", [])
    if not isinstance(steps, list) or not steps:
        raise ScenarioError(f"{source}: no steps: add [[step]] tables (see sim/README.md)")
    for n, raw in enumerate(steps, 1):
        scenario.steps.append(_step(source, n, raw, scenario.kit))
    return scenario


def _choice(source: str, key: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ScenarioError(f"{source}: {key} = {value!r}: choose {' or '.join(allowed)}")
    return str(value)


def _step(source: str, n: int, raw: Any, kit: str) -> Step:
    where = f"{source}: step {n}"
    if not isinstance(raw, dict):
        raise ScenarioError(f'{where}: a step is a table like {{ press = "select" }}')
    note = raw.get("note", "")
    actions = [k for k in raw if k != "note"]
    unknown = [k for k in actions if k not in ACTIONS]
    if unknown:
        raise ScenarioError(
            f"{where}: unknown action {unknown[0]!r} (actions: {', '.join(ACTIONS)})"
        )
    if len(actions) != 1:
        found = ", ".join(actions) or "none"
        raise ScenarioError(f"{where}: a step has exactly one action, found {found}")
    kind = actions[0]
    try:
        value = _CHECKS[kind](raw[kind], kit)
    except ScenarioError:
        raise
    except (ValueError, TypeError) as exc:
        raise ScenarioError(f"{where}: {kind}: {exc}") from None
    return Step(kind, value, str(note), n, raw[kind])


# --------------------------------------------------------------------------- step checks


def _button(value: Any, _kit: str) -> str:
    if value not in BUTTONS:
        raise ValueError(f"{value!r} is not a button ({', '.join(BUTTONS)})")
    return str(value)


def _turn(value: Any, _kit: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value == 0:
        raise ValueError(f"{value!r} is not a non-zero whole number of detents")
    return value


def _discs(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise ValueError('discs are a list of names like ["red3", "yellow*"]')
    return [Disc.parse(v).name for v in value]


def _needs_rfid(kind: str, kit: str) -> None:
    if kit != "rfid":
        raise ValueError(f'{kind} moves tagged discs: it needs kit = "rfid"')


def _place(value: Any, kit: str) -> dict:
    _needs_rfid("place", kit)
    if not isinstance(value, dict) or set(value) != {"beach", "discs"}:
        raise ValueError('write { beach = 2, discs = ["red3"] }')
    beach = value["beach"]
    if not isinstance(beach, int) or not 0 <= beach < BEACHES:
        raise ValueError(f"beach {beach!r} is not 0..{BEACHES - 1}")
    return {"beach": beach, "discs": _discs(value["discs"])}


def _remove(value: Any, kit: str) -> list[str]:
    _needs_rfid("remove", kit)
    return _discs(value)


def _wait(value: Any, _kit: str) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 3600:
        raise ValueError(f"{value!r} is not a number of seconds 0..3600")
    return float(value)


def _decide(value: Any, _kit: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError('write a decision in notation, like "3@2" or ">2G"')
    return value.strip()


def _play_bot(value: Any, _kit: str) -> dict:
    if isinstance(value, str):
        value = {"until": value}
    if not isinstance(value, dict):
        raise ValueError('write { until = "end" } (or "round2", "scoring")')
    extra = set(value) - {"until", "decisions", "bot", "seed"}
    if extra:
        raise ValueError(f"unknown key {sorted(extra)[0]!r} (until, decisions, bot, seed)")
    until = value.get("until", "decisions" if "decisions" in value else "end")
    if until not in UNTIL:
        raise ValueError(f"until = {until!r}: choose {', '.join(UNTIL)}")
    decisions = value.get("decisions")
    if until == "decisions" and (not isinstance(decisions, int) or decisions < 1):
        raise ValueError('until = "decisions" needs decisions = N (N ≥ 1)')
    bot = value.get("bot", "greedy")
    if bot not in BOTS:
        raise ValueError(f"bot = {bot!r}: choose {' or '.join(BOTS)}")
    seed = value.get("seed", 0)
    if not isinstance(seed, int):
        raise ValueError(f"seed = {seed!r} is not a whole number")
    return {"until": until, "decisions": decisions, "bot": bot, "seed": seed}


def _flag(value: Any, _kit: str) -> bool:
    if value is not True:
        raise ValueError("write = true")
    return True


def _bool(value: Any, _kit: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError("write = true or = false")
    return value


def _link(value: Any, kit: str) -> dict:
    _needs_rfid("link", kit)
    if not isinstance(value, dict) or "ok" not in value or not isinstance(value["ok"], bool):
        raise ValueError('write { ok = false, detail = "unplugged" }')
    return {"ok": value["ok"], "detail": str(value.get("detail", ""))}


def _expect(value: Any, _kit: str) -> dict:
    if not isinstance(value, dict) or not value:
        raise ValueError('write a table of checks, like { to_move = "red" }')
    unknown = [k for k in value if k not in EXPECT_KEYS]
    if unknown:
        raise ValueError(f"unknown check {unknown[0]!r} (checks: {', '.join(EXPECT_KEYS)})")
    out = dict(value)
    if "to_move" in out and out["to_move"] not in (*PLAYERS, "none"):
        raise ValueError(f"to_move = {out['to_move']!r}: red, yellow or none (game over)")
    if "winner" in out and out["winner"] not in PLAYERS:
        raise ValueError(f"winner = {out['winner']!r}: red or yellow")
    if "phase" in out and out["phase"] not in PHASES:
        raise ValueError(f"phase = {out['phase']!r}: one of {', '.join(PHASES)}")
    if "variant" in out and out["variant"] not in VARIANTS:
        raise ValueError(f"variant = {out['variant']!r}: base or tactical")
    for key in ("round", "decisions", "boat"):
        if key in out and (not isinstance(out[key], int) or isinstance(out[key], bool)):
            raise ValueError(f"{key} = {out[key]!r} is not a whole number")
    if "score" in out:
        out["score"] = _score(out["score"])
    if "lava" in out and (
        not isinstance(out["lava"], list)
        or len(out["lava"]) != SEGMENTS
        or not all(isinstance(v, int) for v in out["lava"])
    ):
        raise ValueError("lava = [0, 0, 1, 0, 0, 0]: the lava discs on each of the 6 craters")
    if "statues" in out:
        statues = out["statues"]
        if not isinstance(statues, dict) or not all(
            isinstance(v, str) and v in (*PLAYERS, "none") for v in statues.values()
        ):
            raise ValueError('statues = { "2M" = "red", "3F" = "none" }')
        out["statues"] = {str(k).upper(): v for k, v in statues.items()}
    if "piles" in out and (
        not isinstance(out["piles"], list)
        or len(out["piles"]) != 3
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in out["piles"])
    ):
        raise ValueError("piles = [3, 12, 15]: the cards left in the 1-, 2- and 3-tree piles")
    if "scoring_after" in out:
        after = out["scoring_after"]
        if after != "none" and (not isinstance(after, int) or isinstance(after, bool)):
            raise ValueError(
                f"scoring_after = {after!r}: the cards still to draw before the next scoring "
                '(a whole number), or "none" once the game is over'
            )
    if "last_move" in out and not (isinstance(out["last_move"], str) and out["last_move"]):
        raise ValueError(
            'last_move = "beach 2": where the last decision acted, as the window marks it '
            '("beach 2", "3M", "slot 1a", "crater 4", "boat 3", "Forest Statues", or "none")'
        )
    for key in ("oled", "oled_not", "status", "log", "log_not"):
        if key in out:
            texts = out[key] if isinstance(out[key], list) else [out[key]]
            if not all(isinstance(t, str) and t for t in texts):
                raise ValueError(f"{key} is a text (or a list of texts) to look for")
            out[key] = texts
    if "leds" in out:
        out["leds"] = _leds(out["leds"])
    if "board" in out:
        out["board"] = _board(out["board"])
    return out


def _score(value: Any) -> tuple[int, int]:
    if isinstance(value, dict) and set(value) == set(PLAYERS):
        value = [value["red"], value["yellow"]]
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError("score = { red = 12, yellow = 9 } (or [12, 9])")
    return value[0], value[1]


def _leds(value: Any) -> list[tuple[tuple[int, ...], tuple[str, ...], Any, str]]:
    """``{ "2.beach" = "red", "*.crater" = "off", "0.*" = "off" }`` → expanded checks."""
    if not isinstance(value, dict) or not value:
        raise ValueError('leds = { "2.beach" = "red" }: segment.zone = colour')
    checks: list[tuple[tuple[int, ...], tuple[str, ...], Any, str]] = []
    for key, colour in value.items():
        seg_text, _, zone = str(key).partition(".")
        zones: tuple[str, ...]
        if seg_text == "*":
            segments = tuple(range(SEGMENTS))
        elif seg_text.isdigit() and int(seg_text) < SEGMENTS:
            segments = (int(seg_text),)
        else:
            raise ValueError(f"leds key {key!r}: segment must be 0..{SEGMENTS - 1} or *")
        if zone == "*":
            zones = ZONES
        elif zone in ZONES:
            zones = (zone,)
        else:
            raise ValueError(f"leds key {key!r}: zone must be one of {', '.join(ZONES)} or *")
        if not isinstance(colour, str):
            raise ValueError(f'leds {key!r}: colour must be a text like "red"')
        specs = [parse_colour(part) for part in colour.split("|")]
        checks.append((segments, zones, specs, str(key)))
    return checks


BOARD_KEYS = ("boat", "beaches", "shamans", "lava")


def _board(value: Any) -> dict:
    """Physical-board checks: ``{ beaches = { 2 = ["red3"] }, boat = 3 }``."""
    if not isinstance(value, dict) or not value:
        raise ValueError('board = { beaches = { "2" = ["red3"] }, boat = 3 }')
    unknown = [k for k in value if k not in BOARD_KEYS]
    if unknown:
        raise ValueError(f"board: unknown key {unknown[0]!r} ({', '.join(BOARD_KEYS)})")
    out = dict(value)
    if "beaches" in out:
        beaches = {}
        for key, discs in out["beaches"].items():
            if not str(key).isdigit() or not 0 <= int(key) < BEACHES:
                raise ValueError(f"board beaches: {key!r} is not a beach 0..{BEACHES - 1}")
            beaches[int(key)] = sorted(_discs(discs))
        out["beaches"] = beaches
    if "shamans" in out:
        shamans = out["shamans"]
        if not isinstance(shamans, dict) or not set(shamans) <= set(PLAYERS):
            raise ValueError('board shamans = { red = "1B", yellow = "3F" }')
        out["shamans"] = {c: str(v).upper() for c, v in shamans.items()}
    return out


_CHECKS = {
    "press": _button,
    "hold": _button,
    "turn": _turn,
    "place": _place,
    "remove": _remove,
    "wait": _wait,
    "decide": _decide,
    "play_bot": _play_bot,
    "follow_companion": _flag,
    "fix_board": _flag,
    "misplace": _bool,
    "power_cut": _flag,
    "link": _link,
    "expect": _expect,
}
