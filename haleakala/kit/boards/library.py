"""KiCad's own footprints and symbols for every part on the boards, vendored from KiCad 9's
libraries (``kicad-footprints`` and ``kicad-symbols``, CC-BY-SA 4.0 with the KiCad libraries'
exception for designs) into ``hw/boards/lib``: ``haleakala.pretty`` (one ``.kicad_mod`` per
footprint, byte for byte KiCad's) and ``haleakala.kicad_sym`` (the symbols, a derived symbol
flattened into its parent, as KiCad embeds them in a schematic). Both projects name this
library ``haleakala`` in their own ``fp-lib-table`` and ``sym-lib-table``, so KiCad finds
every part without a global library setup, and its library checks compare like with like.

``vendor`` copies them from an installed KiCad (``haleakala kit boards --vendor``); the
``pcb`` tests check the copies still equal the installed library.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from haleakala.kit.boards.sexpr import Node, S, Sym, dumps, find, find_all, get, parse
from haleakala.kit.common import REPO_ROOT

LIB_NAME = "haleakala"
LIB_DIR = REPO_ROOT / "hw" / "boards" / "lib"
KICAD_SHARE = Path("/usr/share/kicad")


@dataclass(frozen=True)
class LibraryItem:
    """A footprint or a symbol: the KiCad library it comes from and its name there."""

    library: str
    name: str

    @property
    def lib_id(self) -> str:
        """How the generated files name it: from the vendored library, ``haleakala:NAME``."""
        return f"{LIB_NAME}:{self.name}"


Footprint = Symbol = LibraryItem


FOOTPRINTS = {
    "pi_header": Footprint("Connector_IDC", "IDC-Header_2x20_P2.54mm_Vertical"),
    "tile_header": Footprint("Connector_IDC", "IDC-Header_2x10_P2.54mm_Vertical"),
    "pn5180_socket": Footprint("Connector_PinSocket_2.54mm", "PinSocket_1x13_P2.54mm_Vertical"),
    "kk2": Footprint("Connector_Molex", "Molex_KK-254_AE-6410-02A_1x02_P2.54mm_Vertical"),
    "kk3": Footprint("Connector_Molex", "Molex_KK-254_AE-6410-03A_1x03_P2.54mm_Vertical"),
    "kk4": Footprint("Connector_Molex", "Molex_KK-254_AE-6410-04A_1x04_P2.54mm_Vertical"),
    "kk5": Footprint("Connector_Molex", "Molex_KK-254_AE-6410-05A_1x05_P2.54mm_Vertical"),
    "terminal2": Footprint(
        "TerminalBlock_Phoenix", "TerminalBlock_Phoenix_MKDS-1,5-2-5.08_1x02_P5.08mm_Horizontal"
    ),
    "dip14": Footprint("Package_DIP", "DIP-14_W7.62mm"),
    "resistor": Footprint("Resistor_THT", "R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal"),
    "ceramic": Footprint("Capacitor_THT", "C_Disc_D5.0mm_W2.5mm_P5.00mm"),
    "bulk_cap": Footprint("Capacitor_THT", "CP_Radial_D10.0mm_P5.00mm"),
    "tile_cap": Footprint("Capacitor_THT", "CP_Radial_D6.3mm_P2.50mm"),
    "fuse_holder": Footprint(
        "Fuse", "Fuseholder_Cylinder-5x20mm_Schurter_0031_8201_Horizontal_Open"
    ),
    "ptc": Footprint("Fuse", "Fuse_Bourns_MF-RHT200"),
    "pico": Footprint("Module", "RaspberryPi_Pico_Common_THT"),
    "hole_m3": Footprint("MountingHole", "MountingHole_3.2mm_M3"),
    "hole_m25": Footprint("MountingHole", "MountingHole_2.7mm_M2.5"),
}
"""Every footprint the boards use, by the role the board model gives it."""

SYMBOLS = {
    "conn_2x20": Symbol("Connector_Generic", "Conn_02x20_Odd_Even"),
    "conn_2x10": Symbol("Connector_Generic", "Conn_02x10_Odd_Even"),
    "conn_1x13": Symbol("Connector_Generic", "Conn_01x13"),
    "conn_1x02": Symbol("Connector_Generic", "Conn_01x02"),
    "conn_1x03": Symbol("Connector_Generic", "Conn_01x03"),
    "conn_1x04": Symbol("Connector_Generic", "Conn_01x04"),
    "conn_1x05": Symbol("Connector_Generic", "Conn_01x05"),
    "screw_2": Symbol("Connector", "Screw_Terminal_01x02"),
    "buffer": Symbol("74xx", "74AHCT125"),
    "r": Symbol("Device", "R"),
    "c": Symbol("Device", "C"),
    "cp": Symbol("Device", "C_Polarized"),
    "fuse": Symbol("Device", "Fuse"),
    "polyfuse": Symbol("Device", "Polyfuse"),
    "pico": Symbol("MCU_Module", "RaspberryPi_Pico"),
    "hole": Symbol("Mechanical", "MountingHole"),
    "pwr_flag": Symbol("power", "PWR_FLAG"),
}


@dataclass(frozen=True)
class SymbolPin:
    unit: int
    number: str
    name: str
    kind: str
    x: float
    y: float
    angle: int


def pins(sym: list[Node]) -> list[SymbolPin]:
    """Every pin of a symbol, unit by unit, in symbol coordinates (y up)."""
    out = []
    for unit_sym in find_all(sym, "symbol"):
        unit = int(str(unit_sym[1]).rsplit("_", 2)[-2])
        for pin in find_all(unit_sym, "pin"):
            at = get(pin, "at")
            out.append(
                SymbolPin(unit, str(get(pin, "number")[1]), str(get(pin, "name")[1]),
                          str(pin[1]), float(at[1]), float(at[2]), int(at[3]))
            )  # fmt: skip
    return out


def symbol_pins(role: str) -> list[SymbolPin]:
    return pins(symbol(role))


# --------------------------------------------------------------------------- vendoring


def _library_symbols(path: Path) -> dict[str, list[Node]]:
    tree = parse(path.read_text(encoding="utf-8"))
    return {s[1]: s for s in find_all(tree, "symbol")}


def flatten(name: str, symbols: dict[str, list[Node]]) -> list[Node]:
    """Symbol ``name`` with its ``extends`` resolved: the parent's units under this name, the
    child's own properties over the parent's."""
    child = symbols[name]
    parent_ref = find(child, "extends")
    if parent_ref is None:
        return child
    parent = flatten(parent_ref[1], symbols)
    own = {p[1]: p for p in find_all(child, "property")}
    out: list[Node] = [Sym("symbol"), name]
    for item in parent[2:]:
        if isinstance(item, list) and item and item[0] == "property" and item[1] in own:
            out.append(own.pop(item[1]))
        elif isinstance(item, list) and item and item[0] == "symbol":
            unit = item[1].removeprefix(parent[1])
            out.append([item[0], name + unit, *item[2:]])
        else:
            out.append(item)
    extra = list(own.values())
    first_unit = next(i for i, x in enumerate(out) if isinstance(x, list) and x[0] == "symbol")
    return out[:first_unit] + extra + out[first_unit:]


def vendor(share: Path = KICAD_SHARE, out: Path = LIB_DIR) -> dict[Path, bytes]:
    """The vendored library files, read from an installed KiCad (``share``)."""
    files: dict[Path, bytes] = {}
    for fp in FOOTPRINTS.values():
        source = share / "footprints" / f"{fp.library}.pretty" / f"{fp.name}.kicad_mod"
        files[out / f"{LIB_NAME}.pretty" / f"{fp.name}.kicad_mod"] = source.read_bytes()
    by_lib: dict[str, dict[str, list[Node]]] = {}
    symbols = []
    version = None
    for sym in SYMBOLS.values():
        if sym.library not in by_lib:
            path = share / "symbols" / f"{sym.library}.kicad_sym"
            by_lib[sym.library] = _library_symbols(path)
            version = version or find(parse(path.read_text(encoding="utf-8")), "version")
        symbols.append(flatten(sym.name, by_lib[sym.library]))
    lib = [
        Sym("kicad_symbol_lib"),
        version or S("version", 20241209),
        S("generator", "haleakala"),
        S("generator_version", "9.0"),
        *symbols,
    ]
    files[out / f"{LIB_NAME}.kicad_sym"] = dumps(lib).encode()
    return files


# --------------------------------------------------------------------------- reading


@cache
def footprint(role: str, lib_dir: Path = LIB_DIR) -> list[Node]:
    """The vendored footprint of ``role`` as a tree (shared: copy before changing)."""
    fp = FOOTPRINTS[role]
    path = lib_dir / f"{LIB_NAME}.pretty" / f"{fp.name}.kicad_mod"
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing: run 'haleakala kit boards --vendor' with KiCad 9's "
            "kicad-footprints installed"
        )
    return parse(path.read_text(encoding="utf-8"))


@cache
def _symbol_table(lib_dir: Path = LIB_DIR) -> dict[str, list[Node]]:
    path = lib_dir / f"{LIB_NAME}.kicad_sym"
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing: run 'haleakala kit boards --vendor' with KiCad 9's "
            "kicad-symbols installed"
        )
    return _library_symbols(path)


def symbol(role: str, lib_dir: Path = LIB_DIR) -> list[Node]:
    """The vendored (flattened) symbol of ``role`` as a tree (shared: copy before changing)."""
    return _symbol_table(lib_dir)[SYMBOLS[role].name]
