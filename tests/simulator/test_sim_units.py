"""Pure parts of the simulator: window geometry, colour names, the table that follows the
companion's instructions (and misplaces on purpose)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from haleakala.ai import make_bot
from haleakala.companion.physical import physical_board
from haleakala.games.haleakala import Game
from haleakala.games.haleakala.views import layout as L
from haleakala.hal.base import ZONES
from haleakala.simulator.colours import family, matches, parse_colour
from haleakala.simulator.table import Table, apply_change, table_from_expected, table_from_game

segments = st.integers(0, 5)


@given(segments, st.sampled_from(["red", "yellow"]), st.integers(0, 5))
def test_a_disc_drawn_on_a_beach_is_clicked_as_that_beach(segment, colour, index):
    x, y = L.disc_position(segment, colour, index)
    assert L.beach_at(x, y) == segment


@given(segments)
def test_beach_button_boat_and_hut_lie_in_their_segment(segment):
    assert L.beach_at(*L.at(segment, *L.BEACH_BUTTON)) == segment
    assert L.locate(*L.boat_position(segment)) == (segment, "water")
    assert L.locate(*L.space_position(18 + segment, "red")) == (segment, "beach")


@given(st.integers(0, 17), st.sampled_from(["statue", "red", "yellow"]))
def test_pieces_on_a_land_space_are_drawn_inside_that_space(space, who):
    segment, k = divmod(space, 3)
    assert L.locate(*L.space_position(space, who)) == (segment, L.LAND_BANDS[k])


def test_every_led_is_drawn_inside_its_zone_and_no_two_overlap():
    spots = []
    for segment in range(6):
        for zone in ZONES:
            for j in range(2):
                pos = L.led_position(segment, zone, j, 2)
                spots.append(pos)
                if zone in L.ZONE_BANDS:
                    assert L.locate(*pos) == (segment, L.ZONE_BANDS[zone]), (segment, zone, j)
                else:
                    x, y, w, _ = L.card_rect(segment * 2 + (zone == "slot_b"))
                    assert x <= pos[0] <= x + w and pos[1] < y
    for i, (ax, ay) in enumerate(spots):
        for bx, by in spots[i + 1 :]:
            assert (ax - bx) ** 2 + (ay - by) ** 2 >= 10**2


def test_panel_controls_and_cards_do_not_overlap_the_island_or_each_other():
    assert L.panel_button_at(*L.ENCODER_CENTRE) == "select"
    assert L.panel_button_at(*L.BACK_CENTRE) == "back"
    assert L.panel_button_at(L.TURN_LEFT_RECT[0] + 5, L.TURN_LEFT_RECT[1] + 5) == "turn-"
    assert L.locate(*L.ENCODER_CENTRE) is None
    for slot in range(12):
        x, y, w, h = L.card_rect(slot)
        assert x >= 0 and y >= 0
        assert x + w <= L.PANEL_X and y + h <= L.HEIGHT
        assert L.locate(x + w / 2, y + h / 2) in (None, (slot // 2, "sea"))
    assert L.tray_at(*L.tray_position("yellow", 0)) == "yellow"


def test_colour_families_match_the_companion_palette():
    assert family((255, 0, 0)) == "red"
    assert family((255, 150, 0)) == "yellow"  # the yellow player's amber
    assert family((76, 45, 0)) == "yellow"  # dimmed, same family
    assert family((255, 80, 0)) == "orange"  # the eruption
    assert family((255, 255, 255)) == "white"
    assert family((90, 90, 90)) == "white"
    assert family((0, 60, 255)) == "blue"
    assert family((5, 3, 0)) == "off" and family(None) == "off"
    assert matches((30, 0, 0), "lit") and not matches(None, "lit")
    assert matches((1, 2, 3), parse_colour("#010203"))


def test_table_follows_a_whole_game_exactly_without_misplace():
    game = Game("tactical", 5)
    bots = [make_bot("random", 1), make_bot("random", 2)]
    table = table_from_game(game)
    before = table.copy()
    while not game.is_terminal():
        game.apply(bots[game.decider].decide(game))
        after = table_from_expected(physical_board(game))
        assert apply_change(table, before, after) == []
        assert table == after == table_from_game(game)
        before = after


def test_misplace_puts_exactly_one_moved_piece_astray():
    game = Game("base", 3)
    bot = make_bot("greedy", 0)
    rng = random.Random(0)
    misplaced = 0
    for _ in range(80):
        before = table_from_game(game)
        game.apply(bot.decide(game))
        after = table_from_game(game)
        table = before.copy()
        notes = apply_change(table, before, after, misplace=rng)
        if before == after:
            assert notes == [] and table == after
            continue
        misplaced += 1
        assert len(notes) == 1
        differences = table.differences(after)
        assert 1 <= len(differences) <= 2  # a moved piece: gone from one place, in another
    assert misplaced > 40


def test_table_differences_name_the_piece_and_both_places():
    want = Table()
    want.beaches[2].add("red3")
    have = want.copy()
    have.put("red3", 4)
    assert have.differences(want) == ["red3 belongs on beach 2, lies on beach 4"]


def test_misplace_never_touches_the_disc_the_player_already_moved():
    """The move that made the decision is done; only the instructions that follow it (the
    shaman, the boat...) may go astray. Regression: a returned disc was put back."""
    before = Table()
    before.beaches[3].add("red3")
    before.shamans = {"red": 19, "yellow": 22}
    after = before.copy()
    after.put("red3", None)  # -3@3, and the shaman moves on
    after.shamans["red"] = 4
    for seed in range(30):
        table = before.copy()
        table.put("red3", None)  # the player took the disc back: that was the decision
        notes = apply_change(table, before, after, misplace=random.Random(seed))
        assert table.beach_of("red3") is None
        assert notes == ["red shaman misplaced on 2F"]


def test_the_simulators_rfid_link_is_the_one_the_hal_factory_builds(monkeypatch, tmp_path):
    """RFID kit: the session's link is ``hal.factory.open_rfid_link`` on the sim backend (a
    virtual Pico read by the real driver), and the beaches it reports are the table's."""
    from haleakala.hal import factory
    from haleakala.hal.events import Disc
    from haleakala.simulator.session import SimSession

    made = []
    real = factory.open_rfid_link

    def recording(config=None, backend=None, **options):
        link = real(config, backend, **options)
        made.append((backend, link))
        return link

    monkeypatch.setattr(factory, "open_rfid_link", recording)
    with SimSession(kit="rfid", seed=1, start="red", state_dir=tmp_path, rfid_transport="pty") as s:
        ((backend, link),) = made
        assert backend == "sim"
        assert s.link is not None and s.link.driver is link.driver  # type: ignore[attr-defined]
        red3 = frozenset({Disc("red", 3)})
        s.link.show([frozenset(), frozenset(), red3, frozenset(), frozenset(), frozenset()])
        assert s.link.settle() and link.published()[2] == red3
    assert not link.driver.running
