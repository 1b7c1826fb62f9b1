"""The RFID link is built in one place, ``hal/factory.py`` (issue 12): no module outside
``haleakala/hal/`` constructs the driver, the virtual Pico or the link that pairs them, or
hands their class around to be called (naming them as a type is fine). The daemon, the
self-test, the simulator, the tag enrolment and the benchmarks ask the factory
(``open_hardware`` with an RFID kit, or ``open_rfid_link``), which alone reads the backend
choice. The factory's behaviour on each backend is tested in ``tests/hal``."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import haleakala

PACKAGE_ROOT = Path(haleakala.__file__).parent
HAL = PACKAGE_ROOT / "hal"
BUILT_IN_HAL = {"RfidDriver", "VirtualPico", "VirtualPicoLink"}


def _type_uses(tree: ast.Module) -> set[int]:
    """Nodes that only name a type: annotations and ``isinstance``'s second argument."""
    allowed: set[int] = set()
    for node in ast.walk(tree):
        spots: list[ast.expr | None] = []
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance":
            spots = node.args[1:2]
        elif isinstance(node, ast.arg | ast.AnnAssign):
            spots = [node.annotation]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            spots = [node.returns]
        for spot in spots:
            if spot is not None:
                allowed |= {id(n) for n in ast.walk(spot)}
    return allowed


def uses_outside_hal() -> list[str]:
    """``path:line name`` for every use of a name only the HAL may build (a call, or the class
    passed around to be called later), outside annotations and ``isinstance`` checks."""
    found = []
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        if HAL in path.parents:
            continue
        where = path.relative_to(PACKAGE_ROOT.parent)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        allowed = _type_uses(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                name = node.id
            elif isinstance(node, ast.Attribute):
                name = node.attr
            else:
                continue
            if name in BUILT_IN_HAL and id(node) not in allowed:
                found.append(f"{where}:{node.lineno} {name}")
    return found


def test_no_module_outside_hal_builds_the_rfid_link():
    assert uses_outside_hal() == []


def test_the_guard_sees_a_driver_built_outside_hal(tmp_path, monkeypatch):
    """The scan would catch the pattern the daemon once had (``_start_rfid``)."""
    module = tmp_path / "haleakala" / "companion" / "daemon.py"
    module.parent.mkdir(parents=True)
    module.write_text(
        "def _start_rfid(config) -> RfidDriver:\n"
        "    from haleakala.hal.rfid import driver\n\n"
        "    if isinstance(config, driver.RfidDriver):\n"
        "        return config\n"
        "    factory = driver.RfidDriver\n"
        "    return RfidDriver(config.tags, port=config.rfid.port)\n"
    )
    here = sys.modules[__name__]
    monkeypatch.setattr(here, "PACKAGE_ROOT", tmp_path / "haleakala")
    monkeypatch.setattr(here, "HAL", tmp_path / "haleakala" / "hal")
    assert uses_outside_hal() == [
        "haleakala/companion/daemon.py:6 RfidDriver",
        "haleakala/companion/daemon.py:7 RfidDriver",
    ]
