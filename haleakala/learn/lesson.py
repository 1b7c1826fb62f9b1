"""The lesson file format: TOML, a seeded game and its steps, checked as a whole at load.

A lesson is what a teacher at the table would do, written down (in the spirit of Lichess's
lesson files: a position, the moves allowed, the replies, what a wrong move gets)::

    name = "first-game"               # what `haleakala learn NAME` calls it
    title = "Your first game"         # catalog key (context "lesson"), shown in the list
    game = "haleakala"                # a game of haleakala.gameapi
    options = { variant = "base" }    # the game's own options
    seed = 5                          # deals the cards
    start = "red"                     # who starts
    player = "red"                    # the learner's seat; the other side is scripted
    handover = "child"                # optional: after the last step a free game goes on
                                      # against this bot (the gentlest: child or random)

    [[step]]
    id = "first-disc"                 # names the step in every error (default: its number)
    title = "DISCS"                   # optional catalog key: the OLED's title bar
    say = "Put disc 3 on beach 2."    # catalog key: what the companion says
    point = ["2.beach"]               # what the LEDs point at (segment.zone)
    do = "3@2"                        # the one decision expected, in notation, or
    # allow = { pattern = "^-?\\d@", play = "3@2" }   # a condition (a regular expression
    #   over the notation) and the decision the scripted player makes for it
    hint = "Disc 3, on the lit beach." # catalog key: said on any other decision
    hint_point = ["2.beach"]          # pointed at then (default: point)
    reply = ["4@5", ">4G"]            # the other side's decisions that follow, in order

    [[step]]                          # a step to read may fast-forward the game:
    say = "The companion plays on."   # ``skip`` lists decisions of either side, played
    skip = ["1@4", ">3F"]             # when the learner goes on (to reach a later rule)

A step with neither ``do`` nor ``allow`` is read and acknowledged (select, Enter). Texts are
English catalog keys under the gettext context ``"lesson"``: the catalogs under
``haleakala/i18n/locale`` hold their German and French (the extractor finds them through
``babel.cfg``), and ``i18n.pgettext`` shows them.

``load`` refuses a lesson whose decisions are not legal where it puts them, whose texts
lack a translation in any language, or whose texts do not fit the OLED, with one sentence
naming the file and the step: a lesson is never half run.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

CONTEXT = "lesson"
"""The gettext context of every lesson text: a lesson's "Statues" is not the score row's."""


def lesson_dirs() -> list[Path]:
    """Every registered game's lessons directory (its description's ``lessons``)."""
    from importlib import resources

    from haleakala.gameapi import GAMES, describe

    found = []
    for name in GAMES:
        ref = describe(name).lessons
        if ref:
            package, _, directory = ref.partition(":")
            found.append(Path(str(resources.files(package).joinpath(directory))))
    return found


HEADER_KEYS = {
    "name",
    "title",
    "summary",
    "game",
    "options",
    "seed",
    "start",
    "player",
    "handover",
}
STEP_KEYS = {"id", "title", "say", "point", "do", "allow", "hint", "hint_point", "reply", "skip"}
HANDOVER_BOTS = ("child", "random")
"""The gentlest bots: a first free game is to be enjoyed, not lost at once."""

TITLE_POSITION = "88/88"
"""The widest step counter after a lesson title on the OLED's title bar: titles fit with it."""
BODY_ROOM = 4
"""OLED body lines a lesson text may use: the fifth says what the buttons do."""


class LessonError(ValueError):
    """A lesson that cannot be played: the message names the file and the step."""


@dataclass(frozen=True)
class Allow:
    """A condition on the player's decision: its notation matches ``pattern``."""

    pattern: str
    play: str  # what the scripted player decides (legal and matching: checked)

    def admits(self, text: str) -> bool:
        return re.search(self.pattern, text) is not None


@dataclass(frozen=True)
class Step:
    index: int  # 1-based
    id: str
    say: str
    title: str = ""
    point: tuple[str, ...] = ()
    do: str | None = None
    allow: Allow | None = None
    hint: str = ""
    hint_point: tuple[str, ...] = ()
    reply: tuple[str, ...] = ()
    skip: tuple[str, ...] = ()

    @property
    def decides(self) -> bool:
        """The player must make a decision here (else: read and go on)."""
        return self.do is not None or self.allow is not None

    @property
    def scripted(self) -> str | None:
        """The decision a scripted player makes here."""
        return self.do if self.do is not None else (self.allow.play if self.allow else None)

    def admits(self, text: str) -> bool:
        """Whether the decision ``text`` (canonical notation) is what this step asks for."""
        if self.do is not None:
            return text == self.do
        return self.allow is not None and self.allow.admits(text)

    @property
    def shown_point(self) -> tuple[str, ...]:
        return self.hint_point or self.point

    def describe(self) -> str:
        if self.id == str(self.index):
            return f"step {self.index}"
        return f'step {self.index} "{self.id}"'

    def texts(self) -> Iterator[tuple[str, str]]:
        """(key, text) of every catalog text of the step."""
        for key in ("title", "say", "hint"):
            value = getattr(self, key)
            if value:
                yield key, value


@dataclass(frozen=True)
class Lesson:
    name: str
    title: str
    game: str
    seed: int
    player: str
    steps: tuple[Step, ...]
    summary: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    start: str | None = None
    handover: str | None = None
    path: str = ""

    def new_game(self) -> Any:
        """The lesson's game at its start (same seed, same deal, every time)."""
        from haleakala.gameapi import new_game

        kw = dict(self.options)
        if self.start is not None:
            kw["start"] = self.start
        return new_game(self.game, seed=self.seed, **kw)

    @property
    def seat(self) -> int:
        return self.new_game().players.index(self.player)

    def texts(self) -> Iterator[tuple[str, str, str]]:
        """(where, key, text) of every catalog text of the lesson."""
        yield "the header", "title", self.title
        if self.summary:
            yield "the header", "summary", self.summary
        for step in self.steps:
            for key, text in step.texts():
                yield step.describe(), key, text


# --------------------------------------------------------------------------- loading


def lesson_paths(directory: Path | None = None) -> list[Path]:
    """The lesson files of ``directory``, else of every registered game, by file name."""
    directories = [directory] if directory is not None else lesson_dirs()
    return sorted((p for d in directories for p in d.glob("*.toml")), key=lambda p: p.name)


def load_all(directory: Path | None = None, **kw: Any) -> list[Lesson]:
    return [load(path, **kw) for path in lesson_paths(directory)]


def find(name: str, directory: Path | None = None) -> Path:
    """The file of lesson ``name`` (its ``name``, or its file name without .toml)."""
    for path in lesson_paths(directory):
        if path.stem == name or path.stem == name.replace("-", "_"):
            return path
    for path in lesson_paths(directory):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError):
            continue
        if data.get("name") == name:
            return path
    names = ", ".join(p.stem.replace("_", "-") for p in lesson_paths(directory))
    raise LessonError(f"no lesson called {name!r}: choose one of {names}")


def load(
    path: str | Path,
    *,
    catalogs: Callable[[], dict[str, dict[str, tuple[str, bool]]]] | None = None,
    check: bool = True,
) -> Lesson:
    """Read and check the lesson at ``path``; ``LessonError`` names the step on any fault.

    ``catalogs`` gives, per language, key → (translation, fuzzy) of the ``lesson`` context
    (default: the ``.po`` files of the package); ``check=False`` only parses (the tooling
    that writes the catalogs reads lessons whose texts are not translated yet)."""
    path = Path(path)
    where = path.name
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LessonError(f"{where}: cannot read it: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise LessonError(f"{where}: not valid TOML: {exc}") from None
    lesson = parse(data, where)
    if check:
        check_texts(lesson, where, (catalogs or po_catalogs)())
        check_play(lesson, where)
    return lesson


def parse(data: dict[str, Any], where: str) -> Lesson:
    """The lesson in ``data`` (a TOML table), its shape checked; play is checked later."""
    unknown = set(data) - HEADER_KEYS - {"step"}
    if unknown:
        raise LessonError(f"{where}: unknown header key(s) {', '.join(sorted(unknown))}")
    for key in ("name", "title", "game", "player"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise LessonError(f'{where}: the header needs {key} = "..."')
    from haleakala.gameapi import GAMES

    if data["game"] not in GAMES:
        raise LessonError(f"{where}: unknown game {data['game']!r}: one of {', '.join(GAMES)}")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise LessonError(f"{where}: seed must be a whole number")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise LessonError(f'{where}: options must be a table, e.g. {{ variant = "base" }}')
    handover = data.get("handover")
    if handover is not None and handover not in HANDOVER_BOTS:
        raise LessonError(
            f"{where}: handover = {handover!r}: hand over to one of {', '.join(HANDOVER_BOTS)}"
        )
    raw_steps = data.get("step")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise LessonError(f"{where}: a lesson needs at least one [[step]]")
    steps = tuple(_step(i, raw, where) for i, raw in enumerate(raw_steps, 1))
    ids = [s.id for s in steps]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise LessonError(f"{where}: step id(s) used twice: {', '.join(twice)}")
    return Lesson(
        name=data["name"],
        title=data["title"],
        summary=str(data.get("summary", "")),
        game=data["game"],
        options=dict(options),
        seed=seed,
        start=data.get("start"),
        player=data["player"],
        handover=handover,
        steps=steps,
        path=where,
    )


def _step(index: int, raw: Any, where: str) -> Step:
    name = f"step {index}"
    if not isinstance(raw, dict):
        raise LessonError(f"{where}: {name} must be a table")
    if isinstance(raw.get("id"), str):
        name = f'step {index} "{raw["id"]}"'
    unknown = set(raw) - STEP_KEYS
    if unknown:
        raise LessonError(f"{where}: {name}: unknown key(s) {', '.join(sorted(unknown))}")
    if not isinstance(raw.get("say"), str) or not raw["say"].strip():
        raise LessonError(f'{where}: {name}: needs say = "..." (what the companion says)')
    if "do" in raw and "allow" in raw:
        raise LessonError(f"{where}: {name}: do (one decision) or allow (a condition), not both")
    for key in ("title", "hint", "do", "id"):
        if key in raw and not isinstance(raw[key], str):
            raise LessonError(f"{where}: {name}: {key} must be a string")
    lists = {}
    for key in ("point", "hint_point", "reply", "skip"):
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise LessonError(f"{where}: {name}: {key} must be a list of strings")
        lists[key] = tuple(value)
    allow = None
    if "allow" in raw:
        a = raw["allow"]
        if not isinstance(a, dict) or set(a) != {"pattern", "play"}:
            raise LessonError(
                f'{where}: {name}: allow = {{ pattern = "...", play = "..." }} (a regular '
                "expression over the notation, and what the scripted player decides)"
            )
        try:
            re.compile(a["pattern"])
        except (re.error, TypeError) as exc:
            raise LessonError(f"{where}: {name}: allow's pattern is broken: {exc}") from None
        allow = Allow(str(a["pattern"]), str(a["play"]))
    decides = "do" in raw or allow is not None
    if decides and lists["skip"]:
        raise LessonError(f"{where}: {name}: skip belongs to a step to read, not a decision")
    if decides and not raw.get("hint"):
        raise LessonError(
            f'{where}: {name}: a step that asks for a decision needs hint = "..." '
            "(what is said on any other decision)"
        )
    return Step(
        index=index,
        id=str(raw.get("id", index)),
        say=raw["say"],
        title=raw.get("title", ""),
        do=raw.get("do"),
        allow=allow,
        hint=raw.get("hint", ""),
        point=lists["point"],
        hint_point=lists["hint_point"],
        reply=lists["reply"],
        skip=lists["skip"],
    )


# --------------------------------------------------------------------------- texts


@lru_cache(maxsize=1)
def po_catalogs() -> dict[str, dict[str, tuple[str, bool]]]:
    """Per language, every ``lesson`` text of the package's ``.po`` files: key →
    (translation, fuzzy). The ``.po`` files are the source the ``.mo`` are built from."""
    from haleakala.i18n import catalogs as C

    out: dict[str, dict[str, tuple[str, bool]]] = {}
    for language in C.LANGUAGES:
        texts: dict[str, tuple[str, bool]] = {}
        path = C.po_path(language)
        if path.is_file():
            for m in C.read(path, language):
                if m.context == CONTEXT and isinstance(m.id, str):
                    texts[m.id] = (str(m.string or ""), bool(m.fuzzy))
        out[language] = texts
    return out


def check_texts(
    lesson: Lesson, where: str, catalogs: dict[str, dict[str, tuple[str, bool]]]
) -> None:
    """Every text a catalog key with a translation in every language, each fitting the
    OLED (the English key too: it is what an untranslated language would show)."""
    from haleakala.i18n import LANGUAGES

    for place, key, text in lesson.texts():
        shown = {"en": text}
        for language in LANGUAGES:
            entry = catalogs.get(language, {}).get(text)
            if entry is None:
                raise LessonError(
                    f"{where}: {place}: {key} {text!r} is not in the {language} catalog "
                    "(run python -m haleakala.i18n.catalogs update, then translate it)"
                )
            translation, fuzzy = entry
            if not translation or fuzzy:
                state = "marked fuzzy" if fuzzy else "not translated"
                raise LessonError(f"{where}: {place}: {key} {text!r} is {state} in {language}")
            shown[language] = translation
        for language, words in shown.items():
            problem = oled_problem(key, words)
            if problem:
                raise LessonError(f"{where}: {place}: {key} in {language} {problem}")


def oled_problem(key: str, text: str) -> str | None:
    """Why ``text`` would not read on the OLED as a lesson's ``key`` (None: it fits):
    the project's own measures (``companion.oled_font``), one screen, no word cut."""
    from haleakala.companion.oled_font import (
        TEXT_W,
        fits,
        missing_glyphs,
        title_room,
        wrap,
    )

    missing = missing_glyphs(text)
    if missing:
        return f"{text!r}: the OLED font has no glyph for {missing!r}"
    if key == "title":
        if text != text.upper():
            return f"{text!r}: an OLED title is written in capitals"
        if not fits(f"{text} {TITLE_POSITION}", title_room()):
            return f"{text!r} does not fit the OLED's title bar with {TITLE_POSITION!r}"
        return None
    if key == "summary":
        return None  # a list line: the terminal and the menu's list clip it
    long = [w for w in text.split() if not fits(w, TEXT_W)]
    if long:
        return f"{text!r}: the word {long[0]!r} is wider than the OLED"
    lines = len(wrap(text))
    if lines > BODY_ROOM:
        return f"{text!r} needs {lines} OLED lines, a lesson screen has {BODY_ROOM}"
    return None


# --------------------------------------------------------------------------- play


def check_play(lesson: Lesson, where: str) -> None:
    """Play the lesson as its scripted player would: every expected, scripted and replied
    decision legal at its step, decided by the side the lesson says, and zones that exist.
    Raises ``LessonError`` naming the step."""
    try:
        game = lesson.new_game()
    except (ValueError, TypeError) as exc:
        raise LessonError(f"{where}: cannot set up the game: {exc}") from None
    if lesson.player not in game.players:
        raise LessonError(
            f"{where}: player {lesson.player!r} is not a seat of {lesson.game}: "
            f"{', '.join(game.players)}"
        )
    seat = game.players.index(lesson.player)
    zones = zone_names(lesson.game)
    for step in lesson.steps:
        for key in ("point", "hint_point"):
            for zone in getattr(step, key):
                if zone not in zones:
                    raise LessonError(
                        f"{where}: {step.describe()}: {key} {zone!r} is not a zone of the "
                        f"{lesson.game} board ({zone_help(lesson.game)})"
                    )
        if step.decides:
            if game.is_terminal():
                raise LessonError(f"{where}: {step.describe()}: the game is already over")
            if game.decider != seat:
                raise LessonError(
                    f"{where}: {step.describe()}: {game.to_move} decides here, not "
                    f"{lesson.player}: add its decisions to the previous step's reply"
                )
            text = step.scripted
            assert text is not None
            _legal_or_refuse(game, text, where, step, "do" if step.do else "allow's play")
            if step.allow is not None and not step.allow.admits(_canonical(game, text)):
                raise LessonError(
                    f"{where}: {step.describe()}: allow's play {text!r} does not match its "
                    f"own pattern {step.allow.pattern!r}"
                )
            game.apply(text)
        elif step.reply:
            raise LessonError(f"{where}: {step.describe()}: only a decision gets a reply")
        for number, text in enumerate(step.skip, 1):
            if game.is_terminal():
                raise LessonError(f"{where}: {step.describe()}: skip {number} {text!r}: game over")
            _legal_or_refuse(game, text, where, step, f"skip {number}")
            game.apply(text)
        for reply in step.reply:
            if game.is_terminal():
                raise LessonError(f"{where}: {step.describe()}: reply {reply!r}: game over")
            if game.decider == seat:
                raise LessonError(
                    f"{where}: {step.describe()}: reply {reply!r}: it is {lesson.player}'s "
                    "own decision here (make it a step of its own)"
                )
            _legal_or_refuse(game, reply, where, step, "reply")
            game.apply(reply)


def _canonical(game: Any, text: str) -> str:
    return game.format(game.parse(text))


def _legal_or_refuse(game: Any, text: str, where: str, step: Step, key: str) -> None:
    try:
        why = game.why_illegal(text)
    except ValueError as exc:  # not notation at all
        why = str(exc)
    if why is not None:
        legal = game.legal_decisions()
        shown = ", ".join(legal[:12]) + (", …" if len(legal) > 12 else "")
        raise LessonError(
            f"{where}: {step.describe()}: {key} {text!r} is not legal here: {why} (legal: {shown})"
        )


def zone_names(game: str) -> frozenset[str]:
    """What a lesson of ``game`` may point at (its description's ``lesson_zones``: the
    board's LED zones, a map's islands); nothing when the game names none."""
    from haleakala.gameapi import describe, hook

    ref = describe(game).lesson_zones
    return frozenset(hook(ref)()) if ref else frozenset()


def zone_help(game: str) -> str:
    names = sorted(zone_names(game))
    return "e.g. " + ", ".join(names[:3]) if names else "this game has no zones"
