"""Fuzzing the loaders (issue 11): saves and game logs from played games, mutated.

A save or a log is input from outside: hand-edited, cut short, written by another program.
Whatever it holds, the loaders (``play --load``, the in-game ``load``, ``haleakala replay``)
answer with the project's own one-line error naming a line, or with a game that is whole:
it renders, its invariants hold and its history leads to it. Never another exception.

The mutations work on the JSON structure (delete or replace a field, wrong types, deep
nesting, huge integers, NaN, unicode digits) and on the text (truncation, random
characters, random bytes), starting from real saves and logs.
"""

from __future__ import annotations

import io
import json
import random
import re
from contextlib import redirect_stdout
from types import SimpleNamespace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.invariants import check_invariants

from haleakala.ai import make_bot
from haleakala.cli import UsageError
from haleakala.games.haleakala import Game, SaveError
from haleakala.games.haleakala.serialize import from_json
from haleakala.games.haleakala.views import render
from haleakala.games.haleakala.views.replayer import Inconsistent, NotALog, replay_log
from haleakala.games.haleakala.views.terminal import TerminalGame
from haleakala.terminal.replay import run as replay_run
from haleakala.toolkit.gamelog import play_log

# Deterministic (derandomize): the same cases on every run, as the default suite must be.
FUZZ = settings(
    max_examples=5000,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# The whole-command and in-game tests wrap the loaders above: fewer cases keep the suite
# fast while still driving the file reading and the session around them.
WRAPPED = settings(FUZZ, max_examples=1000)
LINE = re.compile(r"\bline \d+")


def played(variant: str, seed: int, decisions: int | None) -> Game:
    """A game after ``decisions`` random decisions (None: up to the first scoring)."""
    game, rng = Game(variant, seed), random.Random(seed)
    while not game.is_terminal() and (
        len(game.history) < decisions if decisions is not None else not game.scorings
    ):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


# Real saves: a fresh deal, early play, just after the first scoring (so the scoring
# records are there to mutate), in both variants.
SAVES = [
    played("base", 1, 0).to_json(),
    played("base", 2, 25).to_json(),
    played("tactical", 3, 40).to_json(),
    played("base", 4, None).to_json(),
]


def log_lines(seed: int, variant: str = "base", legal: bool = False) -> list[str]:
    bots = [make_bot("random", seed * 2), make_bot("random", seed * 2 + 1)]
    return list(play_log(Game(variant, seed), bots, legal=legal))


# Real logs: the first lines of games (cheap to replay, and they end early, which is a
# finding of its own) and, less often, whole games with their legal lists.
FULL_LOGS = [log_lines(5, legal=True), log_lines(6, "tactical")]
LOGS = [lines[:n] for lines in FULL_LOGS for n in (12, 40)] + FULL_LOGS
SAVE_TEXTS, LOG_LINES = st.sampled_from(SAVES), st.sampled_from(LOGS)

# Values a hand edit or another program might put anywhere.
ODD_TEXT = ["²", "①", "٣", "3@٢", ">²G", "take ²a", "\x00", "\ud800", "a\nb", "", "red",
            "yellow", "over", "turn", "2F", "9Z", "0B", "statue", "forest", "NaN", "1" * 60,
            "haleakala-game", "setup", "action", "scoring"]  # fmt: skip
HUGE, DEEP_LIST, DEEP_OBJECT = "\x01huge\x01", "\x01deep\x01", "\x01deepobj\x01"


def leaves() -> st.SearchStrategy:
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 60),
        st.integers(-(10**40), 10**40),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from(ODD_TEXT),
        st.text(max_size=6),
        st.sampled_from([HUGE, DEEP_LIST, DEEP_OBJECT]),
    )


VALUES = st.recursive(
    leaves(),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
# Built once: a strategy made afresh at each draw is validated afresh, which was most of
# the run time. Positions are drawn as a number and taken modulo the length.
POSITION = st.integers(0, 2**20)
EDITS = st.integers(1, 3)
OPS = st.sampled_from(["delete", "replace", "rename", "wrap", "copy"])
KEYS = st.sampled_from(ODD_TEXT)
INDENTS = st.sampled_from([None, None, 1])
DEPTHS = st.sampled_from([70, 1000, 5000])
DIGITS = st.sampled_from([101, 4300, 5000])
TEXT_OPS = st.sampled_from(["none", "none", "truncate", "insert", "replace"])
JUNK = st.text(min_size=1, max_size=4) | st.sampled_from(["[" * 900, "9" * 4400])
BOOLEANS = st.booleans()
SOURCES = st.sampled_from(["save", "log", "bytes"])
BYTES, BYTE = st.binary(max_size=64), st.integers(0, 255)


def _slots(doc: object, out: list) -> None:
    """Every (container, key) in a JSON document, so any field can be mutated."""
    if isinstance(doc, dict):
        for key in doc:
            out.append((doc, key))
            _slots(doc[key], out)
    elif isinstance(doc, list):
        for i in range(len(doc)):
            out.append((doc, i))
            _slots(doc[i], out)


def mutate_document(data: st.DataObject, doc: object) -> object:
    """One to three structural edits: delete, replace, rename a key, wrap in a list,
    or copy another field's value over this one."""
    root = [doc]
    for _ in range(data.draw(EDITS)):
        slots: list = [(root, 0)]
        _slots(root[0], slots)
        container, key = slots[data.draw(POSITION) % len(slots)]
        op = data.draw(OPS)
        if op == "delete" and container is not root:
            del container[key]
        elif op == "rename" and isinstance(container, dict):
            container[data.draw(KEYS)] = container.pop(key)
        elif op == "wrap":
            container[key] = [container[key]]
        elif op == "copy":
            other, other_key = slots[data.draw(POSITION) % len(slots)]
            container[key] = json.loads(json.dumps(other[other_key]))
        else:
            container[key] = data.draw(VALUES)
    return root[0]


def to_text(data: st.DataObject, doc: object) -> str:
    text = json.dumps(doc, indent=data.draw(INDENTS), ensure_ascii=data.draw(BOOLEANS))
    depth = data.draw(DEPTHS)
    text = text.replace(json.dumps(HUGE), "9" * data.draw(DIGITS))
    text = text.replace(json.dumps(DEEP_LIST), "[" * depth + "]" * depth)
    return text.replace(json.dumps(DEEP_OBJECT), '{"a":' * depth + "1" + "}" * depth)


def mutate_text(data: st.DataObject, text: str) -> str:
    """Sometimes damage the text itself: cut it short, or drop characters in."""
    op = data.draw(TEXT_OPS)
    if not text or op == "none":
        return text
    at = data.draw(POSITION) % len(text)
    if op == "truncate":
        return text[:at]
    return text[:at] + data.draw(JUNK) + text[at + (op == "replace") :]


def check_loaded_game(game: Game) -> None:
    """A loaded game is whole: invariants hold and everything that shows it works."""
    check_invariants(game)
    render.render(game)
    for record in game.scorings:
        render.describe_scoring(record)
    if game.is_terminal():
        render.describe_result(game.result())
    else:
        assert game.legal_decisions()


def assert_one_line_with_a_line_number(message: str) -> None:
    assert "\n" not in message and LINE.search(message), message
    message.encode("utf-8")  # printable on any terminal: no lone surrogates


@FUZZ
@given(st.data())
def test_a_mutated_save_loads_whole_or_is_refused_in_one_line(data):
    """play --load and the in-game load: SaveError naming a line, or a whole game."""
    doc = json.loads(data.draw(SAVE_TEXTS))
    text = mutate_text(data, to_text(data, mutate_document(data, doc)))
    try:
        game = from_json(text, check_history=True)
    except SaveError as exc:
        assert_one_line_with_a_line_number(str(exc))
    else:
        check_loaded_game(game)


@FUZZ
@given(st.data())
def test_a_mutated_log_replays_or_is_refused_on_its_line(data):
    """haleakala replay on a log: a finished game, or an error naming the line."""
    lines = list(data.draw(LOG_LINES))
    n = data.draw(POSITION) % len(lines)
    lines[n] = to_text(data, mutate_document(data, json.loads(lines[n])))
    if data.draw(BOOLEANS):
        m = data.draw(POSITION) % len(lines)
        lines[m] = mutate_text(data, lines[m])
    try:
        game = replay_log("\n".join(lines).splitlines())
    except (Inconsistent, NotALog) as exc:
        assert_one_line_with_a_line_number(str(exc))
    else:
        check_loaded_game(game)


@WRAPPED
@given(st.data())
def test_replay_of_any_bytes_exits_with_a_status_or_one_line_of_misuse(tmp_path_factory, data):
    """The whole replay command on a file: real saves and logs with random byte damage,
    and bytes that are no text at all. It exits 0 or 1, or refuses as misuse."""
    source = data.draw(SOURCES)
    if source == "bytes":
        raw = data.draw(BYTES)
    else:
        text = data.draw(SAVE_TEXTS) if source == "save" else "\n".join(LOGS[0])
        raw = bytearray(text.encode())
        for _ in range(data.draw(EDITS)):
            raw[data.draw(POSITION) % len(raw)] = data.draw(BYTE)
        raw = bytes(raw[: data.draw(POSITION) % (len(raw) + 1)])
    path = tmp_path_factory.getbasetemp() / "fuzzed.json"
    path.write_bytes(raw)
    out = io.StringIO()
    try:
        with redirect_stdout(out):
            status = replay_run(SimpleNamespace(file=str(path)))
    except UsageError as exc:
        assert_one_line_with_a_line_number(str(exc))
    else:
        assert status in (0, 1)
        if status == 1:
            assert_one_line_with_a_line_number(out.getvalue().strip())


@WRAPPED
@given(st.data())
def test_the_in_game_load_of_a_bad_file_keeps_the_running_game(tmp_path_factory, data):
    """The terminal's load: a bad file is one line and the running game goes on."""
    doc = json.loads(data.draw(SAVE_TEXTS))
    text = mutate_text(data, to_text(data, mutate_document(data, doc)))
    path = tmp_path_factory.getbasetemp() / "fuzzed-save.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    running = played("base", 8, 10)
    before = running.digest()
    out = io.StringIO()
    session = TerminalGame(running, [None, None], read=lambda _: "quit", out=out)
    session.load(str(path))
    said = out.getvalue().strip()
    if said.startswith("cannot load"):
        assert session.game is running and running.digest() == before
        assert_one_line_with_a_line_number(said)
        assert said.endswith("the game goes on")
    else:
        assert said.startswith("loaded")
        check_loaded_game(session.game)
