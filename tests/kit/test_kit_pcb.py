"""The carrier boards through KiCad 9's own command line (``./test -m pcb`` installs it):
ERC and DRC (with the schematic's parity) find nothing, the fab outputs are made, and the
netlist KiCad exports is the project's pin table, net by net, through the harness too.

Marked ``pcb``: it needs ``kicad-cli`` (Debian bookworm-backports) and takes a minute or
two; the default suite checks the committed files byte for byte without KiCad.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.paths import REPO_ROOT

from haleakala import config as cfg
from haleakala.kit.boards import command, library
from haleakala.kit.boards.hub import hub
from haleakala.kit.boards.model import TILE_PINOUT, Board
from haleakala.kit.boards.sexpr import find, find_all, parse
from haleakala.kit.boards.tile import tile
from haleakala.kit.geometry import default_geometry
from haleakala.kit.pinout import PI_GPIO_PIN, PICO_GP_PIN
from haleakala.kit.wiring.boards import load_pico_pins

pytestmark = pytest.mark.pcb

BOARDS = REPO_ROOT / "hw" / "boards"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, command.Report]]:
    if shutil.which(command.KICAD_CLI) is None:
        pytest.fail(
            "kicad-cli is missing: ./test -m pcb installs KiCad 9 from bookworm-backports "
            "(as root); install it by hand elsewhere"
        )
    out = tmp_path_factory.mktemp("fab")
    return {
        name: (out / name, command.export(BOARDS / name, out / name)) for name in ("hub", "tile")
    }


@pytest.fixture(scope="module")
def boards() -> dict[str, Board]:
    g = default_geometry()
    return {"hub": hub(g, cfg.Config().pins, load_pico_pins()), "tile": tile(g)}


@pytest.mark.parametrize("name", ["hub", "tile"])
def test_erc_and_drc_find_nothing_on_either_board(exported, name):
    _out, report = exported[name]
    assert report.erc == [], report.erc
    assert report.drc == [], report.drc
    assert report.unconnected == [], report.unconnected
    assert report.parity == [], report.parity


@pytest.mark.parametrize("name", ["hub", "tile"])
def test_gerbers_drill_bom_and_placement_are_exported(exported, name):
    out, _report = exported[name]
    gerbers = out / "gerbers"
    for layer in ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_Silkscreen", "Edge_Cuts"):
        (found,) = gerbers.glob(f"{name}-{layer}.*")
        assert found.stat().st_size > 200, found
    (drill,) = gerbers.glob(f"{name}*.drl")
    assert "T1C" in drill.read_text(encoding="utf-8")  # at least one tool
    bom = (out / f"{name}-bom.csv").read_text(encoding="utf-8")
    assert bom.startswith('"Refs","Value","Footprint","Qty","DNP"')
    placement = (out / f"{name}-pos.csv").read_text(encoding="utf-8").splitlines()
    assert placement[0].startswith("Ref,Val,Package,PosX,PosY,Rot,Side")
    assert len(placement) > 5


def _kicad_nets(netlist: Path) -> dict[str, set[tuple[str, str]]]:
    tree = parse(netlist.read_text(encoding="utf-8"))
    nets = find(tree, "nets") or []
    out = {}
    for net in find_all(nets, "net"):
        name = (find(net, "name") or ["", ""])[1]
        nodes = {((find(n, "ref") or ["", ""])[1], (find(n, "pin") or ["", ""])[1])
                 for n in find_all(net, "node")}  # fmt: skip
        if not name.startswith("unconnected-"):
            out[name] = nodes
    return out


@pytest.mark.parametrize("name", ["hub", "tile"])
def test_kicads_netlist_is_the_pin_table_net_by_net(exported, boards, name):
    """Every net KiCad exports from the schematic holds exactly the nodes the board model
    (built from the config's pin map and the Pico firmware's pins) gives it, and no other
    net exists."""
    out, _report = exported[name]
    kicad = _kicad_nets(out / f"{name}.net")
    ours = {f"/{net}": set(nodes) for net, nodes in boards[name].nets().items()}
    assert kicad == ours


def test_through_the_harness_every_pin_map_line_reaches_its_tile(exported, boards):
    """The hub's KiCad netlist, the 20-way ribbons (conductor n to conductor n) and the tile
    board's netlist together carry each config pin and each reader line to its tile."""
    hub_nets = _kicad_nets(exported["hub"][0] / "hub.net")
    tile_nets = _kicad_nets(exported["tile"][0] / "tile.net")

    def hub_net(ref: str, pin: str) -> str:
        return next(n for n, nodes in hub_nets.items() if (ref, pin) in nodes)

    def tile_net(ref: str, pin: str) -> str:
        return next(n for n, nodes in tile_nets.items() if (ref, pin) in nodes)

    config = cfg.Config()
    pico = load_pico_pins()
    conductor = {role: n for n, role in TILE_PINOUT.items()}
    for segment in range(6):
        header = f"J{4 + segment}"
        # The beach button: Pi header pin of pins.beach<n> -> ribbon -> tile J3 pin 1.
        pi_pin = str(PI_GPIO_PIN[config.pins.beach(segment)])
        btn = str(conductor["BTN"])
        assert hub_net("J3", pi_pin) == hub_net(header, btn)
        assert tile_net("J1", btn) == tile_net("J3", "1")
        # The reader's chip select: Pico GP<cs> -> ribbon -> PN5180 socket NSS (pin 4).
        cs = str(PICO_GP_PIN[pico.readers[segment].cs])
        nss = str(conductor["NSS"])
        assert hub_net("A1", cs) == hub_net(header, nss)
        assert tile_net("J1", nss) == tile_net("J2", "4")
    # The LED data: GPIO 10's header pin into the shifter.
    assert hub_net("J3", str(PI_GPIO_PIN[config.pins.led_data])) == hub_net("U1", "2")


def test_the_vendored_library_is_kicads_own(exported):
    """hw/boards/lib holds KiCad 9's footprints byte for byte, and its symbols as KiCad's
    libraries define them (a derived symbol flattened)."""
    share = library.KICAD_SHARE
    if not (share / "footprints").is_dir() or not (share / "symbols").is_dir():
        pytest.fail("kicad-footprints and kicad-symbols are missing: ./test -m pcb installs them")
    for path, data in library.vendor(share).items():
        assert path.read_bytes() == data, path


def test_both_boards_render_to_png(exported, tmp_path):
    for name in ("hub", "tile"):
        svg = exported[name][0] / f"{name}-pcb.svg"
        png = command.png(svg, tmp_path / f"{name}.png", width=400)
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
