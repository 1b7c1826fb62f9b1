"""One module, one idea: no module of the package grows past 600 lines (issue 12).

A module that outgrows the limit has taken on a second job; split it by concern (as the
controller became controller, keys, menu, watch + reconcile, keeper, screen and the solo seat)
rather than raising the limit.
"""

from __future__ import annotations

from pathlib import Path

import haleakala

PACKAGE_ROOT = Path(haleakala.__file__).parent
LIMIT = 600


def test_no_module_of_the_package_is_over_600_lines():
    too_long = {
        str(path.relative_to(PACKAGE_ROOT)): lines
        for path in sorted(PACKAGE_ROOT.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT
    }
    assert not too_long, f"split these by concern: {too_long}"
