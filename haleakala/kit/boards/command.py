"""``haleakala kit boards``: write the carrier boards' KiCad projects (``hw/boards/``), check
them against the geometry and the pin map (``--check``: byte for byte, no KiCad needed), and
with KiCad 9's ``kicad-cli`` installed, run ERC and DRC and make what a board house takes
(``--export DIR``: Gerbers, drill files, BOM, placement, netlist, and PNG renders of both
boards, which ``--renders`` copies into ``hw/assembly``).

Why a small S-expression writer of our own instead of a library: KiCad's file format is
S-expressions; ``kiutils`` models the KiCad 6/7 format and drops the tokens it does not know,
``skidl`` writes netlists, not boards, and KiCad's own ``pcbnew`` module lives only in
Debian's system Python with KiCad installed, so the default suite could not regenerate the
boards to prove they have not drifted. ``sexpr`` reads KiCad's vendored footprints and
symbols into plain trees and writes trees KiCad reads back unchanged (the round trip is
tested), and the placement conventions were checked against files pcbnew itself wrote.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from haleakala.kit.boards import library, pcb, project, schematic
from haleakala.kit.boards.hub import HubPins, hub
from haleakala.kit.boards.model import Board
from haleakala.kit.boards.router import route
from haleakala.kit.boards.tile import tile
from haleakala.kit.common import REPO_ROOT
from haleakala.kit.geometry import KitGeometry
from haleakala.kit.pinout import PicoPins

BOARDS_DIR = REPO_ROOT / "hw" / "boards"
RENDERS_DIR = REPO_ROOT / "hw" / "assembly"
KICAD_CLI = "kicad-cli"


def boards(g: KitGeometry, pins: HubPins, pico: PicoPins) -> list[Board]:
    return [hub(g, pins, pico), tile(g)]


def files(board: Board, out: Path = BOARDS_DIR) -> dict[Path, bytes]:
    """Every file of ``board``'s KiCad project, as bytes, keyed by path."""
    routed = route(board)
    uuids = {p.ref: schematic.symbol_uuid(board, p.ref) for p in board.parts}
    d = out / board.name
    return {
        d / f"{board.name}.kicad_pro": project.kicad_pro(board).encode(),
        d / f"{board.name}.kicad_sch": schematic.schematic(board).encode(),
        d / f"{board.name}.kicad_pcb": pcb.board_file(board, routed, uuids).encode(),
        d / "fp-lib-table": project.fp_lib_table().encode(),
        d / "sym-lib-table": project.sym_lib_table().encode(),
    }


def generate(
    g: KitGeometry, pins: HubPins, pico: PicoPins, out: Path = BOARDS_DIR
) -> dict[Path, bytes]:
    result: dict[Path, bytes] = {}
    for board in boards(g, pins, pico):
        result.update(files(board, out))
    return result


# --------------------------------------------------------------------------- kicad-cli


@dataclass
class Report:
    """What ``kicad-cli`` said about one board."""

    board: str
    erc: list[dict[str, Any]] = field(default_factory=list)
    drc: list[dict[str, Any]] = field(default_factory=list)
    unconnected: list[dict[str, Any]] = field(default_factory=list)
    parity: list[dict[str, Any]] = field(default_factory=list)
    outputs: dict[str, list[str]] = field(default_factory=dict)

    @property
    def clean(self) -> bool:
        return not (self.erc or self.drc or self.unconnected or self.parity)

    def summary(self) -> str:
        return (
            f"{self.board}: ERC {len(self.erc)} violations, DRC {len(self.drc)} violations, "
            f"{len(self.unconnected)} unconnected, {len(self.parity)} schematic parity"
        )


def _cli(*args: str) -> None:
    done = subprocess.run([KICAD_CLI, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"kicad-cli {' '.join(args[:3])} failed: {done.stderr.strip()}")


def export(project_dir: Path, out: Path) -> Report:
    """ERC, DRC (with the schematic's parity) and the fab outputs of one generated project."""
    name = project_dir.name
    sch, board_path = project_dir / f"{name}.kicad_sch", project_dir / f"{name}.kicad_pcb"
    out.mkdir(parents=True, exist_ok=True)
    report = Report(name)
    _cli("sch", "erc", "--format", "json", "--severity-all", "-o", str(out / "erc.json"), str(sch))
    erc = json.loads((out / "erc.json").read_text(encoding="utf-8"))
    report.erc = [v for sheet in erc["sheets"] for v in sheet["violations"]]
    _cli("pcb", "drc", "--format", "json", "--severity-all", "--schematic-parity",
         "-o", str(out / "drc.json"), str(board_path))  # fmt: skip
    drc = json.loads((out / "drc.json").read_text(encoding="utf-8"))
    report.drc, report.unconnected = drc["violations"], drc["unconnected_items"]
    report.parity = drc["schematic_parity"]
    layers = "F.Cu,B.Cu,F.SilkS,B.SilkS,F.Mask,B.Mask,Edge.Cuts"
    _cli("pcb", "export", "gerbers", "-l", layers, "-o", f"{out / 'gerbers'}/", str(board_path))
    _cli("pcb", "export", "drill", "-o", f"{out / 'gerbers'}/", str(board_path))
    _cli("sch", "export", "bom", "-o", str(out / f"{name}-bom.csv"), str(sch))
    _cli("pcb", "export", "pos", "--format", "csv", "--units", "mm",
         "-o", str(out / f"{name}-pos.csv"), str(board_path))  # fmt: skip
    _cli("sch", "export", "netlist", "--format", "kicadsexpr",
         "-o", str(out / f"{name}.net"), str(sch))  # fmt: skip
    _cli("pcb", "export", "svg", "--mode-single", "--page-size-mode", "2",
         "--exclude-drawing-sheet", "-l", "F.Cu,B.Cu,F.SilkS,Edge.Cuts",
         "-o", str(out / f"{name}-pcb.svg"), str(board_path))  # fmt: skip
    _cli("sch", "export", "svg", "--exclude-drawing-sheet", "-o", str(out), str(sch))
    report.outputs = {
        "gerbers": sorted(p.name for p in (out / "gerbers").iterdir()),
        "files": sorted(p.name for p in out.iterdir() if p.is_file()),
    }
    return report


def png(svg: Path, target: Path, width: int = 1600) -> Path:
    """``svg`` as a PNG ``width`` pixels wide on white (librsvg's ``rsvg-convert``)."""
    if shutil.which("rsvg-convert") is None:
        raise RuntimeError("rsvg-convert is missing: apt-get install librsvg2-bin")
    done = subprocess.run(
        ["rsvg-convert", "-w", str(width), "-b", "white", str(svg), "-o", str(target)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"rsvg-convert {svg}: {done.stderr.strip()}")
    return target


def vendor_files() -> dict[Path, bytes]:
    return library.vendor()


# --------------------------------------------------------------------------- the command


def run(args: Any) -> int:
    from haleakala.cli import UsageError
    from haleakala.kit.common import check_or_write, default_config_for_docs, write_if_changed
    from haleakala.kit.geometry import default_geometry
    from haleakala.kit.wiring.boards import load_pico_pins

    if args.vendor:
        for path, data in vendor_files().items():
            print(f"{'wrote' if write_if_changed(path, data) else 'unchanged'}: {path}")
        return 0
    config, _label = default_config_for_docs(args.config)
    out = args.out or BOARDS_DIR
    written = generate(default_geometry(), config.pins, load_pico_pins(), out)
    code = check_or_write(written, args.check, "haleakala kit boards", f"{len(written)} files")
    if args.check or not args.export:
        return code
    if shutil.which(KICAD_CLI) is None:
        raise UsageError(
            "kicad-cli is missing: install KiCad 9 (Debian bookworm-backports: apt-get install "
            "-t bookworm-backports --no-install-recommends kicad), or run ./test -m pcb"
        )
    clean = True
    for board in ("hub", "tile"):
        report = export(out / board, args.export / board)
        print(report.summary())
        clean = clean and report.clean
        if args.renders:
            target = RENDERS_DIR / f"board_{board}.png"
            png(args.export / board / f"{board}-pcb.svg", target)
            print(f"drew: {target}")
    return 0 if clean else 1
