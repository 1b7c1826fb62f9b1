"""The OLED headline of a refused board change follows the refusal's kind and ruling
(``Game.refusal``), never the wording of the rule's sentence: rewording a message in the
rules must not change what the companion shows."""

from __future__ import annotations

import pytest
from support.companion_rig import Rig

from haleakala.games.haleakala import Game, Refusal
from haleakala.hal.events import BeachContents, Disc


@pytest.fixture
def reworded(monkeypatch):
    """Every refusal sentence replaced by one that names no ruling and no beach."""
    original = Game._reason

    def plain(self, d, p):
        refusal = original(self, d, p)
        return Refusal(refusal.kind, "the rules say no", refusal.ruling)

    monkeypatch.setattr(Game, "_reason", plain)


def headline(rig: Rig) -> str:
    """The OLED's first line, the headline (``rig.text`` joins the lines with spaces)."""
    return rig.c.prompt[0]


def test_r7_sum_rule_headline_survives_a_reworded_message(reworded):
    rig = Rig("rfid")
    rig.carry_out("2@4")
    rig.carry_out(">stay")
    rig.send(BeachContents(4, frozenset({Disc("red", 2), Disc("yellow", 2)})))
    assert headline(rig) == "! SUM RULE"
    assert "the rules say no" in rig.text()


def test_r25_invocation_in_the_base_game_keeps_its_headline(reworded):
    rig = Rig("rfid")
    rig.send(BeachContents(1, frozenset({Disc("red", 0), Disc("red", 5)})))
    assert headline(rig) == "! NO INVOCATION"


def test_r26_invocation_away_from_the_boat_is_the_wrong_beach(reworded):
    rig = Rig("rfid", "tactical")
    rig.send(BeachContents(3, frozenset({Disc("red", 0), Disc("red", 3)})))
    assert headline(rig) == "! WRONG BEACH"
    rig.send(BeachContents(3, frozenset()))
    rig.send(BeachContents(3, frozenset({Disc("red", 0)})))  # the invocation disc alone
    assert headline(rig) == "! WRONG BEACH"
