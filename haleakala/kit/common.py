"""Shared by the kit commands: where the repository is, and which config a command uses."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from haleakala import config as cfg
from haleakala.cli import UsageError

REPO_ROOT = Path(__file__).resolve().parents[2]
"""The checkout this package lives in (``hw/``, ``wiring/``, ``systemd/``, ``firmware/``)."""


def in_checkout() -> bool:
    return (REPO_ROOT / "pyproject.toml").is_file() and (REPO_ROOT / "hw").is_dir()


def default_config_for_docs(path: str | None) -> tuple[cfg.Config, str]:
    """The config documents are generated from: ``--config PATH``, else the default kit.

    Not ``/etc`` or ``$HALEAKALA_CONFIG``: the committed BOM, overlay and wiring describe the
    default kit (hw/config.example.toml), and CI regenerates them on any machine.
    """
    if path is None:
        return cfg.Config(), "the default kit (hw/config.example.toml)"
    return load_named(path), str(path)


def load_named(path: str | os.PathLike[str], *, supply: bool = True) -> cfg.Config:
    """Load a config file named on the command line; misuse and mistakes are one-line errors."""
    target = Path(path)
    if not target.is_file():
        raise UsageError(f"config file {target} does not exist (check the path)")
    try:
        return cfg.load(target, supply=supply)
    except cfg.ConfigError as exc:
        first = exc.problems[0] if exc.problems else "unknown problem"
        more = f" (and {len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
        raise UsageError(
            f"{target}: {first}{more}; run 'haleakala config check --config {target}'"
        ) from None


def load_for_kit(path: str | None, *, supply: bool = True) -> tuple[cfg.Config, str]:
    """The config of the kit in front of the maker: ``--config``, ``$HALEAKALA_CONFIG``,
    /etc/haleakala/config.toml, else the built-in defaults (and the label says which).
    ``supply=False``: a supply too small for the kit is not a loading error (``power``)."""
    target, explicit = cfg.resolve_path(path)
    if explicit:
        return load_named(target, supply=supply), str(target)
    if not target.exists():
        return cfg.Config(), f"built-in defaults (no file at {target})"
    return load_named(target, supply=supply), str(target)


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` unless the file already holds exactly it; True when it was written."""
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return True


def stale(files: dict[Path, bytes]) -> list[Path]:
    """The generated files whose committed copy is missing or differs."""
    return [p for p, data in files.items() if not p.is_file() or p.read_bytes() != data]


def check_or_write(files: dict[Path, bytes], check: bool, command: str, summary: str) -> int:
    """What every generator's command does with its files: ``--check`` names each stale one
    (and how to make it again, ``command``) and exits 1; otherwise write what changed."""
    if check:
        out_of_date = stale(files)
        for path in out_of_date:
            print(f"stale: {path} (run '{command}' and commit it)", file=sys.stderr)
        if not out_of_date:
            print(f"up to date: {summary}")
        return 1 if out_of_date else 0
    for path, data in files.items():
        print(f"{'wrote' if write_if_changed(path, data) else 'unchanged'}: {path}")
    return 0
