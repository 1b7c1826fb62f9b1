"""Run a scenario headless: inputs into the real companion, expectations checked, a diff out.

Time is a ``SimClock``: it moves only on ``wait`` steps (every timer that falls due fires
in order), so a scenario gives the same LED frames and OLED text on every machine. The
RFID kit goes through the virtual Pico and the real driver on a pty, and each move waits
until the driver has reported it, so even that path is deterministic.

A failure stops the scenario and is reported as a readable diff: the step (its number, its
text and note), each expectation that failed with what was expected and what was found,
and the context (whose decision, the last decisions, the OLED text, the table).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from haleakala import i18n
from haleakala.games.haleakala import PLAYERS, NotationError
from haleakala.i18n import english_ngettext, render

from .colours import describe, matches
from .scenario_format import Scenario, Step
from .session import PerformError, ScenarioClock, SimSession
from .story import DECISION_NOTE, cards_before_scoring, story_of
from .table import space_name

MAX_BOT_DECISIONS = 3000


class StepFailed(Exception):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass
class Outcome:
    scenario: Scenario
    passed: bool
    steps_run: int = 0
    seconds: float = 0.0
    decisions: int = 0
    failed_step: Step | None = None
    problems: list[str] = field(default_factory=list)
    context: list[str] = field(default_factory=list)

    def report(self) -> str:
        """One line when it passed; the readable diff when it did not."""
        name = self.scenario.path or self.scenario.name
        if self.passed:
            return (
                f"ok   {name}: {_count(self.steps_run, 'step')}, "
                f"{_count(self.decisions, 'decision')}, "
                f"{self.seconds:.2f} s"
            )
        step = self.failed_step
        where = f"step {step.index} of {len(self.scenario.steps)}" if step else "setup"
        lines = [f"FAIL {name} at {where}"]
        if step is not None:
            lines.append(f"  {step.describe()}")
        for problem in self.problems:
            first, *rest = problem.split("\n")
            lines.append(f"  - {first}")
            lines.extend(f"      {r}" for r in rest)
        if self.context:
            lines.append("  context:")
            lines.extend(f"    {c}" for c in self.context)
        return "\n".join(lines)


def _count(n: int, noun: str) -> str:
    """``1 step``, ``2 steps``: the report is English for developers (not translated)."""
    return f"{n} {english_ngettext(noun, noun + 's', n)}"


def open_session(scenario: Scenario) -> SimSession:
    return SimSession(
        kit=scenario.kit,
        variant=scenario.variant,
        seed=scenario.seed,
        start=scenario.start,
        clock=ScenarioClock(),
        journal_sync=False,  # an in-process power cut keeps the page cache: fsync adds nothing
        rfid_transport="pty",
        solo=scenario.solo or "off",
        strength=scenario.strength if scenario.solo else None,
    )


def run_scenario(
    scenario: Scenario,
    *,
    session: SimSession | None = None,
    on_step: Callable[[SimSession, Step], None] | None = None,
) -> Outcome:
    """Play ``scenario``; ``on_step`` is called after each step (the window redraws there)."""
    started = time.perf_counter()
    own = session is None
    outcome = Outcome(scenario, passed=False)
    spoken = i18n.current()
    i18n.use(scenario.language)  # what the OLED and the log say, and what the checks read
    try:
        session = session or open_session(scenario)
    except Exception as exc:  # a companion that cannot start is a failure, not a crash
        outcome.problems = [f"the companion did not start: {exc.__class__.__name__}: {exc}"]
        i18n.use(spoken)
        return outcome
    try:
        for step in scenario.steps:
            outcome.failed_step = step
            try:
                run_step(session, step)
            except StepFailed as exc:
                outcome.problems = exc.problems
                outcome.context = context(session)
                return outcome
            except Exception as exc:
                outcome.problems = [f"{exc.__class__.__name__}: {exc}"]
                outcome.context = context(session)
                return outcome
            outcome.steps_run += 1
            if on_step is not None:
                on_step(session, step)
        outcome.failed_step = None
        outcome.passed = True
        return outcome
    finally:
        outcome.seconds = time.perf_counter() - started
        outcome.decisions = len(session.game.history)
        if own:
            session.close()
        i18n.use(spoken)


def context(session: SimSession) -> list[str]:
    game = session.game
    last = [game.format(d) for d in game.history[-6:]]
    who = f"{game.to_move} to decide ({game.phase_name})" if game.to_move else "game over"
    lines = [
        f"decision {len(game.history)}, round {game.round}, {who}; last: {' '.join(last) or '-'}",
        f"OLED: {' / '.join(session.prompt)}",
    ]
    wrong = session.differences()
    if wrong:
        lines.append("table differs from the game: " + "; ".join(wrong[:4]))
    log = [line for line in session.log][-4:]
    if log:
        lines.append("log: " + " | ".join(log))
    return lines


# --------------------------------------------------------------------------- steps


def run_step(session: SimSession, step: Step) -> None:
    kind, value = step.kind, step.value
    if kind == "press":
        session.press(value)
    elif kind == "hold":
        session.hold(value)
    elif kind == "turn":
        session.turn(value)
    elif kind == "place":
        session.place(value["beach"], value["discs"])
    elif kind == "remove":
        session.remove(value)
    elif kind == "wait":
        session.advance(value)
    elif kind == "decide":
        _decide(session, value)
    elif kind == "play_bot":
        _play_bot(session, value)
    elif kind == "follow_companion":
        _follow_companion(session)
    elif kind == "power_cut":
        _power_cut(session)
    elif kind == "fix_board":
        session.fix_table()
    elif kind == "misplace":
        session.set_misplace(value)
    elif kind == "link":
        session.set_link(value["ok"], value["detail"])
    elif kind == "expect":
        problems = check(session, value)
        if problems:
            raise StepFailed(problems)
    else:  # the parser knows every kind; this is a bug
        raise StepFailed([f"no runner for step kind {kind!r}"])


def _decide(session: SimSession, text: str) -> None:
    game = session.game
    try:
        d = game.parse(text)
    except NotationError as exc:
        raise StepFailed([f"decide {text!r}: {exc}"]) from None
    why = game.why_illegal(d)
    if why is not None:
        raise StepFailed([f"decide {text!r}: not legal now: {why}"])
    try:
        session.perform(d)
    except PerformError as exc:
        raise StepFailed([f"decide {text!r}: {exc}"]) from None


def _play_bot(session: SimSession, spec: dict) -> None:
    until, bot, seed = spec["until"], spec["bot"], spec["seed"]
    start_decisions = len(session.game.history)
    start_scorings = len(session.game.scorings)
    for _ in range(MAX_BOT_DECISIONS):
        game = session.game
        if game.is_terminal() or (
            (until == "round2" and game.round >= 2)
            or (until == "scoring" and len(game.scorings) > start_scorings)
            or (until == "decisions" and len(game.history) - start_decisions >= spec["decisions"])
        ):
            return
        colour = game.to_move or "red"
        if session.companions_turn:  # solo: the players do what the companion says
            _follow_companion(session)
            continue
        d = session.bot(colour, bot, seed).decide(game.clone())
        try:
            session.perform(d)
        except PerformError as exc:
            raise StepFailed([f"{bot} bot ({colour}) decided {game.format(d)}: {exc}"]) from None
    raise StepFailed([f"play_bot: no end after {MAX_BOT_DECISIONS} decisions"])


def _follow_companion(session: SimSession) -> None:
    if not session.companions_turn:
        c = session.companion
        who = f"{c.solo} plays" if c.solo else "solo mode is off"
        raise StepFailed([f"follow_companion: it is not the companion's turn ({who})"])
    try:
        session.follow_companion()
    except PerformError as exc:
        raise StepFailed([f"follow_companion: {exc}"]) from None


def _power_cut(session: SimSession) -> None:
    before = session.game
    digest, decisions = before.digest(), len(before.history)
    session.power_cut()
    after = session.game
    if after.digest() != digest:
        raise StepFailed(
            [
                f"power cut: the companion resumed at decision {len(after.history)} digest "
                f"{after.digest()}, but had acknowledged decision {decisions} digest {digest}"
            ]
        )


# --------------------------------------------------------------------------- checks


def _zone_colour(session: SimSession, segment: int, zone: str) -> tuple[int, int, int] | None:
    """The colour the companion asked for on a zone in its last LED frame (full value,
    before brightness and the current limit)."""
    frame = session.hw.leds.last
    if frame is None:
        return None
    if frame.zones is not None:
        return frame.zones.get((segment, zone))
    indices = session.hw.zone_map.pixels_of(segment, zone)
    pixels = [frame.pixels[i] for i in indices]
    return pixels[0] if pixels and any(pixels[0]) else None


def check(session: SimSession, expect: dict[str, Any]) -> list[str]:
    """Every expectation that does not hold, as 'what: expected X, got Y'."""
    try:  # solo: what the companion shows once it has decided
        session.await_companion()
    except PerformError as exc:
        return [str(exc)]
    game = session.game
    problems: list[str] = []

    def compare(name: str, want: Any, got: Any) -> None:
        if want != got:
            problems.append(f"{name}: expected {want!r}, got {got!r}")

    if "to_move" in expect:
        compare("to_move", expect["to_move"], game.to_move or "none")
    if "phase" in expect:
        compare("phase", expect["phase"], game.phase_name)
    if "round" in expect:
        compare("round", expect["round"], game.round)
    if "variant" in expect:
        compare("variant", expect["variant"], game.variant)
    if "decisions" in expect:
        compare("decisions", expect["decisions"], len(game.history))
    if "last" in expect:
        last = game.format(game.history[-1]) if game.history else "none"
        compare("last decision", expect["last"], last)
    if "score" in expect:
        score = game.scorings[-1].totals if game.scorings else (0, 0)
        compare("score (red, yellow)", tuple(expect["score"]), score)
    if "winner" in expect:
        result = game.result()
        compare("winner", expect["winner"], result.winner if result else "none (not over)")
    if "digest" in expect:
        compare("digest", expect["digest"], game.digest())
    if "boat" in expect:
        compare("boat", expect["boat"], game.boat)
    if "lava" in expect:
        compare("lava", list(expect["lava"]), list(game.lava))
    if "oled" in expect or "oled_not" in expect:
        lines = session.prompt
        text = " ".join(" ".join(lines).split())  # wrapped lines (and French no-break spaces)
        for want in expect.get("oled", []):
            if want.lower() not in text.lower():
                shown = "\n".join(f"| {line}" for line in lines)
                problems.append(f"OLED: expected text containing {want!r}, it shows:\n{shown}")
        for unwanted in expect.get("oled_not", []):
            if unwanted.lower() in text.lower():
                problems.append(f"OLED: expected no {unwanted!r}, it shows: {text}")
    if "status" in expect:
        status = session.companion.status()
        for want in expect["status"]:
            if want.lower() not in status.lower():
                problems.append(f"status: expected text containing {want!r}, it is: {status}")
    if "statues" in expect:
        for name, want in expect["statues"].items():
            space = game.board.parse_space(name)
            if space is None or space >= game.board.land_spaces:
                problems.append(f"statues: {name} is not a land space like 2M")
                continue
            owner = game.statue_owner[space]
            statue = PLAYERS[owner] if owner >= 0 else "none"
            if statue != want:
                problems.append(f"statue on {name}: expected {want}, got {statue}")
    if "leds" in expect:
        for segments, zones, spec, key in expect["leds"]:
            for segment in segments:
                for zone in zones:
                    lit = _zone_colour(session, segment, zone)
                    if not any(matches(lit, alt) for alt in spec):
                        label = f"{segment}.{zone}"
                        if key != label:
                            label += f" (of {key})"
                        problems.append(
                            f"LED {label}: expected "
                            f"{' or '.join(_spec_text(a) for a in spec)}, "
                            f"got {describe(lit)}"
                        )
    if "board" in expect:
        problems += _check_board(session, expect["board"])
    problems += _check_window(session, expect)
    return problems


def _check_window(session: SimSession, expect: dict[str, Any]) -> list[str]:
    """The window's own elements: the piles on the scoring board, when the next scoring
    comes, the last-move mark and the log in words (the same story the window draws)."""
    game = session.game
    problems: list[str] = []
    if "piles" in expect:
        piles = [len(p) for p in game.piles[:3]]
        if piles != list(expect["piles"]):
            problems.append(f"piles (1-, 2-, 3-tree): expected {expect['piles']}, got {piles}")
    if "scoring_after" in expect:
        after = cards_before_scoring(game)
        got = "none" if after is None else after
        if got != expect["scoring_after"]:
            problems.append(
                f"scoring_after: expected {expect['scoring_after']!r} cards, got {got!r}"
            )
    if not any(key in expect for key in ("last_move", "log", "log_not")):
        return problems
    story = story_of(game)
    if "last_move" in expect:
        last = story.last
        got = "none" if last is None or last[1] is None else last[1].label
        if got.lower() != expect["last_move"].lower():
            problems.append(f"last_move: expected the mark on {expect['last_move']!r}, got {got!r}")
    lines = [render(entry.words) for entry in story.entries]  # as the window shows them
    lines += [
        render(note)
        for note in session.said
        if not (isinstance(note, str) and DECISION_NOTE.match(note))
    ]
    text = "\n".join(lines).lower().replace("\u00a0", " ").replace("\u202f", " ")
    for want in expect.get("log", []):
        if want.lower() not in text:
            shown = "\n".join(f"| {line}" for line in lines[-8:])
            problems.append(f"log: expected a line containing {want!r}; its end reads:\n{shown}")
    for unwanted in expect.get("log_not", []):
        if unwanted.lower() in text:
            problems.append(f"log: expected no {unwanted!r} in it")
    return problems


def _spec_text(spec: Any) -> str:
    if isinstance(spec, tuple):
        return "#{:02x}{:02x}{:02x}".format(*spec)
    return str(spec)


def _check_board(session: SimSession, want: dict) -> list[str]:
    """The physical table (what the simulator's players did), not the game's idea of it."""
    table = session.table
    problems = []
    for beach, discs in want.get("beaches", {}).items():
        got = sorted(table.beaches[beach])
        if got != discs:
            problems.append(f"table beach {beach}: expected {discs}, lies {got}")
    if "boat" in want and want["boat"] != table.boat:
        problems.append(f"table boat: expected segment {want['boat']}, lies at {table.boat}")
    if "lava" in want and list(want["lava"]) != table.lava:
        problems.append(f"table lava: expected {want['lava']}, lies {table.lava}")
    for colour, space in want.get("shamans", {}).items():
        stands = space_name(table.shamans.get(colour))
        if stands != space:
            problems.append(f"table {colour} shaman: expected on {space}, stands on {stands}")
    return problems
