"""Kanaloa's events are values (issue 26, part 4): ``apply`` returns frozen dataclasses read
by field, each with one ``to_record`` that is the log's JSON record (the golden logs prove the
bytes; ``test_kanaloa_log_golden``). The result they end with is a typed value too
(``state.Result``), never a nested dict."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from haleakala.games.kanaloa import events as kanaloa_events
from haleakala.games.kanaloa.events import Ended, Snapshot
from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.log import event_records
from haleakala.games.kanaloa.state import Result

KINDS = {"turn", "draw", "reserve", "eruption", "stun", "lost", "volcano", "temple", "card",
         "state", "result"}  # fmt: skip
"""The record types of KANALOA-NOTATION an event writes."""


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_every_kanaloa_event_is_a_frozen_value_whose_record_is_plain_json(seed, players):
    game = Game(seed=seed, players=players)
    game.snapshots = True  # the optional state record too
    rng = random.Random(seed)
    seen: set[type] = set()
    while not game.is_terminal():
        happened = game.apply(rng.choice(game.legal_actions()))
        assert event_records(game, happened) == [e.to_record(game) for e in happened]
        for event in happened:
            seen.add(type(event))
            assert dataclasses.is_dataclass(event)
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(event, dataclasses.fields(event)[0].name, None)
            record = event.to_record(game)
            assert record["type"] == event.kind in KINDS
            assert json.loads(json.dumps(record)) == record  # the log's and the wire's form
    assert {Ended, Snapshot} <= seen
    assert isinstance(game.result(), Result)


def test_every_event_class_is_exported_and_typed_by_its_record():
    classes = [getattr(kanaloa_events, name) for name in kanaloa_events.__all__ if name != "Event"]
    assert {c.kind for c in classes} == KINDS
    assert all(dataclasses.is_dataclass(c) for c in classes)
