"""The carrier boards as generated from the geometry and the pin map (issue 36), proven without
KiCad: the committed projects are what the generator writes, the S-expression writer gives
KiCad's own bytes back, every net joins pins and every part stays on its board, the router
joins every net with its clearance, and the copper follows the config and the geometry."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.paths import REPO_ROOT

from haleakala import config as cfg
from haleakala.cli import main
from haleakala.kit.boards import library, placed, router, sexpr
from haleakala.kit.boards.hub import hub
from haleakala.kit.boards.model import CLEARANCE
from haleakala.kit.boards.tile import tile
from haleakala.kit.geometry import default_geometry, load_geometry
from haleakala.kit.wiring.boards import load_pico_pins

LIB = REPO_ROOT / "hw" / "boards" / "lib"
GEOMETRY = REPO_ROOT / "haleakala" / "kit" / "data" / "geometry.toml"


def default_hub(pins=None):
    return hub(default_geometry(), pins or cfg.Config().pins, load_pico_pins())


def test_committed_boards_are_what_the_geometry_and_pin_map_make(capsys):
    """The CI drift check: regenerate both KiCad projects (routing included) and compare."""
    assert main(["kit", "boards", "--check"]) == 0
    assert "up to date: 10 files" in capsys.readouterr().out


def test_the_writer_gives_kicads_own_library_files_back_unchanged():
    """Every vendored footprint and symbol reads into a tree that writes and reads back to the
    same tree (and most come back byte for byte: KiCad's own layout)."""
    files = [*sorted((LIB / "haleakala.pretty").glob("*.kicad_mod")), LIB / "haleakala.kicad_sym"]
    assert len(files) == len(library.FOOTPRINTS) + 1
    same_bytes = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        tree = sexpr.parse(text)
        assert sexpr.parse(sexpr.dumps(tree)) == tree, path.name
        same_bytes += sexpr.dumps(tree) == text
    assert same_bytes >= len(files) - 2


atoms = st.one_of(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12),
    st.integers(-(10**6), 10**6),
    st.from_regex(r"[a-z_][a-z0-9_.]{0,8}", fullmatch=True).map(sexpr.Sym),
)
trees = st.recursive(
    st.lists(atoms, max_size=4).map(lambda xs: [sexpr.Sym("n"), *xs]),
    lambda kids: st.lists(st.one_of(atoms, kids), max_size=4).map(lambda xs: [sexpr.Sym("n"), *xs]),
    max_leaves=20,
)


@given(trees)
def test_any_tree_survives_a_write_and_a_read(tree):
    """Strings with quotes, backslashes and newlines, numbers and bare tokens come back."""
    assert sexpr.parse(sexpr.dumps(tree)) == tree


@pytest.mark.parametrize("make", [default_hub, lambda: tile(default_geometry())])
def test_every_net_joins_two_pins_or_more_and_every_pin_is_decided(make):
    board = make()
    for net, nodes in board.nets().items():
        assert len(nodes) >= 2, (net, nodes)
    for part in board.parts:
        numbers = {p.number for p in library.symbol_pins(part.symbol)}
        assert set(part.pins) == numbers, part.ref  # connected, or flagged not connected


@pytest.mark.parametrize("make", [default_hub, lambda: tile(default_geometry())])
def test_no_two_courtyards_overlap_and_every_part_stays_on_its_board(make):
    assert placed.overlaps(make()) == []


def test_the_hub_has_one_fused_tile_header_per_segment_in_the_geometrys_chain_order():
    g = default_geometry()
    text = GEOMETRY.read_text(encoding="utf-8").replace(
        "segment_order = [0, 1, 2, 3, 4, 5]", "segment_order = [0, 5, 4, 3, 2, 1]"
    )
    turned = load_geometry(text)
    board = hub(turned, cfg.Config().pins, load_pico_pins())
    headers = [p for p in board.parts if p.footprint == "tile_header"]
    assert len(headers) == g.segments
    fuses = [p for p in board.parts if p.footprint == "ptc"]
    assert {p.pins["2"] for p in fuses} == {f"+5V_T{s}" for s in range(g.segments)}
    # The data runs 0 -> 5 -> 4 ... : segment 5's tile is second on the wire.
    assert board.part("J9").pins["9"] == "DATA1" and board.part("J5").pins["11"] is None


def test_a_moved_pin_in_the_config_moves_the_hubs_copper():
    pins = replace(cfg.Config().pins, back=24, beach5=20)
    board = default_hub(pins)
    assert board.part("J3").pins["18"] == "BACK"  # GPIO 24
    assert board.part("J3").pins["16"] is None  # GPIO 23, the old back
    assert board.part("J3").pins["38"] == "BTN5"  # GPIO 20


def _connected(board, routed) -> dict[str, int]:
    """Groups of copper per net, joined where tracks, vias and pads touch."""
    items = []
    for part in board.parts:
        for pad in placed.pads(part):
            if pad.net is not None and pad.plated:
                box = (pad.x - pad.half_w, pad.y - pad.half_h, pad.x + pad.half_w,
                       pad.y + pad.half_h)  # fmt: skip
                items.append((pad.net, (0, 1), box))
    for t in routed.tracks:
        box = (min(t.x1, t.x2), min(t.y1, t.y2), max(t.x1, t.x2), max(t.y1, t.y2))
        items.append((t.net, (t.layer,), box))
    for v in routed.vias:
        items.append((v.net, (0, 1), (v.x, v.y, v.x, v.y)))
    parent = list(range(len(items)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(len(items)), 2):
        (ni, li, a), (nj, lj, b) = items[i], items[j]
        touch = a[0] <= b[2] + 1e-6 and b[0] <= a[2] + 1e-6
        touch = touch and a[1] <= b[3] + 1e-6 and b[1] <= a[3] + 1e-6
        if ni == nj and set(li) & set(lj) and touch:
            parent[root(i)] = root(j)
    groups: dict[str, set[int]] = {}
    for k, (net, _l, _b) in enumerate(items):
        groups.setdefault(net, set()).add(root(k))
    return {net: len(roots) for net, roots in groups.items()}


def test_the_router_joins_every_net_of_the_tile_board_and_keeps_its_clearance():
    board = tile(default_geometry())
    routed = router.route(board)
    assert all(n == 1 for n in _connected(board, routed).values())
    for a, b in itertools.combinations(routed.tracks, 2):
        if a.net == b.net or a.layer != b.layer:
            continue
        dx = max(0.0, min(b.x1, b.x2) - max(a.x1, a.x2), min(a.x1, a.x2) - max(b.x1, b.x2))
        dy = max(0.0, min(b.y1, b.y2) - max(a.y1, a.y2), min(a.y1, a.y2) - max(b.y1, b.y2))
        gap = math.hypot(dx, dy) - (a.width + b.width) / 2
        assert gap >= CLEARANCE - 1e-6, (a, b)


def test_a_board_too_crowded_to_route_is_an_error_naming_the_net():
    board = tile(default_geometry())
    board.size = (26.0, 40.64)  # the socket and a hole now overhang the edge
    with pytest.raises(router.RoutingError, match=r"cannot route net|holds no grid node"):
        router.route(board)
