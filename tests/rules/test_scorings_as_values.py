"""Scorings are frozen values read by attribute, and the records they write are the ones the
engines wrote when scorings were dicts: the same bytes in logs, saves and journals, so files
written before still load (``tests/data/saves`` and ``tests/data/journals``, written by the
code of commit 3c45af0 before the change), and ``from_record`` reads back what
``to_record`` wrote."""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import FrozenInstanceError, fields
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.old_scoring import kahuna_record
from support.old_scoring import score_round as old_score_round

from haleakala.cli import main
from haleakala.companion.journal import Journal
from haleakala.companion.journal.games import game_log_lines
from haleakala.games import kahuna
from haleakala.games.haleakala import PLAYERS, Game
from haleakala.games.haleakala.events import Scored
from haleakala.games.haleakala.scoring import POINT_KEYS, SEATS, Points, Scoring
from haleakala.games.haleakala.serialize import from_json
from haleakala.games.haleakala.views import render
from haleakala.games.kahuna.events import Scored as KahunaScored
from haleakala.games.kahuna.events import Scoring as KahunaScoring

DATA = Path(__file__).resolve().parent.parent / "data"


def _compact(value: object) -> str:
    """The bytes a log line or a save holds for ``value`` (key order included)."""
    return json.dumps(value, separators=(",", ":"))


class _AsBefore:
    """A game whose ``scorings`` are the old dicts, for the old ``score_round``."""

    def __init__(self, game: Game) -> None:
        self._game = game

    def __getattr__(self, name: str) -> object:
        return getattr(self._game, name)

    @property
    def scorings(self) -> list[dict]:
        return [scoring.to_record() for scoring in self._game.scorings]


def _play_haleakala(variant: str, seed: int) -> tuple[Game, list[tuple[Scoring, dict]]]:
    """A random game, with each scoring beside the dict the old engine built in its place."""
    import haleakala.games.haleakala.game as engine

    real = engine.score_round
    pairs: list[tuple[Scoring, dict]] = []

    def both(game: Game, rnd: int) -> Scoring:
        scoring = real(game, rnd)
        pairs.append((scoring, old_score_round(_AsBefore(game), rnd)))
        return scoring

    game, rng = Game(variant, seed), random.Random(seed)
    with mock.patch.object(engine, "score_round", both):
        while not game.is_terminal():
            events = game.apply(rng.choice(game.legal_actions()))
            for event in events:
                if isinstance(event, Scored):
                    assert event.scoring is game.scorings[-1]
    return game, pairs


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 100_000), variant=st.sampled_from(("base", "tactical")))
def test_a_haleakala_scoring_round_trips_and_writes_the_old_record(seed, variant):
    game, pairs = _play_haleakala(variant, seed)
    assert len(pairs) == 2 and [s.round for s, _ in pairs] == [1, 2]
    for scoring, old in pairs:
        record = scoring.to_record()
        assert _compact(record) == _compact(old)  # the same keys in the same order
        assert Scoring.from_record(record) == scoring
        assert Scoring.from_record(json.loads(_compact(record))) == scoring
        for part in scoring.players:
            assert part.total == old["players"][part.colour]["total"]
            assert part.points.gained == sum(old["players"][part.colour]["points"].values())
    result = game.result()
    assert result is not None and result.scorings == tuple(game.scorings)
    assert result.scores == game.scorings[-1].totals


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_a_kahuna_scoring_round_trips_and_writes_the_old_record(seed):
    real = kahuna.game.Game._score
    checked = []

    def both(self, events):
        real(self, events)
        scoring = events[-1].scoring
        counts = (self.stones_on_board(0), self.stones_on_board(1))
        old = kahuna_record(self, scoring.round, counts, self.points[-1])
        assert _compact(events[-1].to_record(self)) == _compact({"type": "scoring", **old})
        checked.append(scoring)

    game, rng = kahuna.Game(seed), random.Random(seed)
    with mock.patch.object(kahuna.game.Game, "_score", both):
        while not game.is_terminal():
            for event in game.apply(rng.choice(game.legal_actions())):
                if isinstance(event, KahunaScored):
                    assert event.scoring in checked
    assert checked and [s.round for s in checked] == list(range(1, len(checked) + 1))
    for scoring in checked:
        record = scoring.to_record()
        assert KahunaScoring.from_record(record) == scoring
        assert KahunaScoring.from_record(json.loads(_compact(record))) == scoring
        assert scoring.totals == tuple(
            sum(s.points[p] for s in checked[: scoring.round]) for p in (0, 1)
        )


def test_a_scoring_is_frozen_and_its_kinds_are_the_records_in_order():
    game, _ = _play_haleakala("base", 3)
    scoring = game.scorings[0]
    with pytest.raises(FrozenInstanceError):
        scoring.round = 2  # type: ignore[misc]
    assert tuple(f.name for f in fields(Points)) == POINT_KEYS
    assert [k for k, _ in scoring.players[0].points.items()] == list(POINT_KEYS)
    assert scoring.of("yellow") is scoring.players[1]
    assert SEATS == PLAYERS
    backwards = {**scoring.to_record(), "players": dict(reversed(record_players(scoring)))}
    assert Scoring.from_record(backwards) == scoring  # seat order, whatever the file's order
    assert hash(scoring) == hash(Scoring.from_record(scoring.to_record()))


def record_players(scoring: Scoring) -> list[tuple[str, dict]]:
    return list(scoring.to_record()["players"].items())


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)


def _paths(value: object, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*path, key))
    return found


@settings(max_examples=60, deadline=None)
@given(data=st.data(), kahuna_game=st.booleans())
def test_a_malformed_scoring_record_is_a_value_error_never_a_crash(data, kahuna_game):
    """``from_record`` on a record with any field replaced (or gone) says what is wrong in
    a ``ValueError``: a reader shows it as a sentence instead of a traceback."""
    if kahuna_game:
        scoring = KahunaScoring(1, (("A",), ()), (1, 0), (1, 0), (1, 0), (3, 2))
        reader = KahunaScoring.from_record
    else:
        scoring = _play_haleakala("base", 5)[0].scorings[0]
        reader = Scoring.from_record
    record = json.loads(_compact(scoring.to_record()))
    path = data.draw(st.sampled_from(_paths(record)[1:]))
    where = record
    for key in path[:-1]:
        where = where[key]
    if data.draw(st.booleans()):
        del where[path[-1]]
    else:
        where[path[-1]] = data.draw(JSON)
    try:
        reader(record)
    except ValueError as exc:
        assert str(exc) and "\n" not in str(exc)


# -- files written before scorings were values --------------------------------------------

SAVES = sorted((DATA / "saves").glob("haleakala-*.json"))


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.stem)
def test_an_old_haleakala_save_loads_and_saves_again_byte_for_byte(path):
    text = path.read_text()
    game = from_json(text, check_history=True)  # the history replays to the same position
    assert game.scorings and all(isinstance(s, Scoring) for s in game.scorings)
    assert game.to_json() + "\n" == text
    render.render(game)
    for scoring in game.scorings:
        assert render.describe_scoring(scoring)[0].startswith(f"Scoring {scoring.round}: ")
    if path.stem.endswith("over"):
        result = game.result()
        assert result is not None and result.scores == game.scorings[-1].totals


@pytest.mark.parametrize("name", ["kahuna-round2", "kahuna-over"])
def test_an_old_kahuna_save_loads_and_saves_again_byte_for_byte(name):
    text = (DATA / "saves" / f"{name}.json").read_text()
    assert kahuna.Game.from_json(text).to_json() + "\n" == text


@pytest.mark.parametrize("name", ["haleakala-round2", "haleakala-over"])
def test_an_old_companion_journal_recovers_the_same_game(name, tmp_path):
    """A journal and snapshot written before (the snapshot's save holds the scorings) give
    back the game they recorded, with nothing to repair; a finished game's archived log is
    the one the engine writes now, and replays."""
    state = tmp_path / name
    shutil.copytree(DATA / "journals" / name, state)
    digest, plies = (DATA / "journals" / f"{name}.digest").read_text().split()
    journal = Journal(state, sync=False)
    game = journal.recover()
    journal.close()
    assert game is not None and journal.notes == []
    assert (game.digest(), len(game.history)) == (digest, int(plies))
    assert game.scorings and all(isinstance(s, Scoring) for s in game.scorings)
    for archived in sorted((state / "games").glob("*.jsonl")):
        lines = "".join(_compact(line) + "\n" for line in game_log_lines(game))
        assert lines == archived.read_text()
        assert main(["replay", str(archived)]) == 0
