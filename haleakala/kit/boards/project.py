"""The KiCad project around a board: ``.kicad_pro`` (design rules, net classes, the ERC and
DRC settings) and the project's own ``fp-lib-table`` and ``sym-lib-table`` naming the
vendored library, so KiCad opens and checks the board on any machine without setup."""

from __future__ import annotations

import json

from haleakala.kit.boards.library import LIB_NAME
from haleakala.kit.boards.model import CLEARANCE, SIGNAL_WIDTH, Board
from haleakala.kit.boards.pcb import DESIGN_RULES
from haleakala.kit.boards.router import VIA_DRILL, VIA_SIZE

LIB_URI = "${KIPRJMOD}/../lib"


def kicad_pro(board: Board) -> str:
    classes = [
        {
            "name": "Default",
            "clearance": CLEARANCE,
            "track_width": SIGNAL_WIDTH,
            "via_diameter": VIA_SIZE,
            "via_drill": VIA_DRILL,
            "microvia_diameter": 0.3,
            "microvia_drill": 0.1,
            "diff_pair_gap": 0.25,
            "diff_pair_via_gap": 0.25,
            "diff_pair_width": 0.2,
            "line_style": 0,
            "pcb_color": "rgba(0, 0, 0, 0.000)",
            "schematic_color": "rgba(0, 0, 0, 0.000)",
            "wire_width": 6,
            "bus_width": 12,
            "priority": 2147483647,
        }
    ]
    pro = {
        "board": {
            "design_settings": {
                "defaults": {"board_outline_line_width": 0.1, "copper_line_width": 0.2},
                "diff_pair_dimensions": [],
                "drc_exclusions": [],
                "rules": dict(DESIGN_RULES),
                "track_widths": sorted({SIGNAL_WIDTH, *board.widths.values()}),
                "via_dimensions": [{"diameter": VIA_SIZE, "drill": VIA_DRILL}],
            }
        },
        "boards": [],
        "libraries": {"pinned_footprint_libs": [], "pinned_symbol_libs": []},
        "meta": {"filename": f"{board.name}.kicad_pro", "version": 3},
        "net_settings": {"classes": classes, "meta": {"version": 4}},
        "pcbnew": {"page_layout_descr_file": ""},
        "schematic": {"legacy_lib_dir": "", "legacy_lib_list": []},
        "sheets": [],
        "text_variables": {},
    }
    return json.dumps(pro, indent=2, sort_keys=True) + "\n"


def fp_lib_table() -> str:
    return (
        "(fp_lib_table\n\t(version 7)\n"
        f'\t(lib (name "{LIB_NAME}")(type "KiCad")(uri "{LIB_URI}/{LIB_NAME}.pretty")'
        '(options "")(descr "KiCad 9 footprints the kit uses, vendored"))\n)\n'
    )


def sym_lib_table() -> str:
    return (
        "(sym_lib_table\n\t(version 7)\n"
        f'\t(lib (name "{LIB_NAME}")(type "KiCad")(uri "{LIB_URI}/{LIB_NAME}.kicad_sym")'
        '(options "")(descr "KiCad 9 symbols the kit uses, vendored"))\n)\n'
    )
