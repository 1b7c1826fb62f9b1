"""Where the source checkout is, for the few tools that need files outside the package.

The Pico firmware (``firmware/``) and the hardware files (``hw/``) are not installed with the
``haleakala`` package: they exist only in a source checkout. A tool that needs them asks here
and, when the package runs from an install, gets an error that says so and what to do,
instead of a guessed path that happens to work in the developer's tree.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


class CheckoutNeeded(Exception):
    """A tool needs a file of the source checkout that this install does not have."""


def source_checkout() -> Path | None:
    """The checkout this package runs from (the folder holding ``pyproject.toml``, the
    package and ``firmware/``), or None when it runs from an installed copy."""
    root = PACKAGE.parent
    if (root / "pyproject.toml").is_file() and (root / "firmware").is_dir():
        return root
    return None


def firmware_dir(given: str | Path | None = None) -> Path:
    """The ``firmware/`` folder holding the ``haleakala_pico`` package: ``given`` if named,
    else the checkout's. Raises ``CheckoutNeeded`` saying what is missing and what to do."""
    if given is not None:
        root = Path(given).expanduser().resolve()
        where = f"{root} (given)"
    else:
        checkout = source_checkout()
        if checkout is None:
            raise CheckoutNeeded(
                f"the Pico firmware is not installed with the package ({PACKAGE}); run from a "
                "source checkout of haleakala, or give its firmware/ folder with --firmware DIR"
            )
        root = checkout / "firmware"
        where = f"{root} (the source checkout)"
    if not (root / "haleakala_pico" / "scanner.py").is_file():
        raise CheckoutNeeded(
            f"{where} holds no haleakala_pico/scanner.py: give the firmware/ folder of a "
            "source checkout of haleakala with --firmware DIR"
        )
    return root


def install_hint(extra: str) -> str:
    """The command that installs ``extra`` (sim, web, kit, pi, pi5) into the Python running
    now, for the "X is not installed" messages.

    Why not pip-installing the distribution's name with the extra: no index has it; the
    project installs from its checkout. So the hint names this interpreter's pip and the
    checkout it runs from (``./run`` installs sim, web and kit itself; on a Pi, pi or pi5),
    or, from an installed copy, where a checkout goes in the command.
    """
    import shlex
    import sys

    root = source_checkout()
    target = f"{root}[{extra}]" if root is not None else f"CHECKOUT[{extra}]"
    command = f"{shlex.quote(sys.executable)} -m pip install -e {shlex.quote(target)}"
    if root is None:
        return f"{command} (CHECKOUT: a clone of the haleakala repository)"
    return command
