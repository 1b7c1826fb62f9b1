"""Text and files to a checked ``Config``: size and depth limits before parsing, every
parser failure a sentence, never an exception the user did not ask for."""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from haleakala.config.build import _build
from haleakala.config.checks import _check_meaning, check_printed_board
from haleakala.config.schema import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    Config,
    ConfigError,
    Problem,
    errors,
)


def _too_deep(raw: Any) -> bool:
    """Whether tables and arrays nest deeper than ``MAX_DEPTH`` (walked without recursion)."""
    stack = [(raw, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        children = value.values() if isinstance(value, dict) else value
        stack += [(v, depth + 1) for v in children if isinstance(v, dict | list)]
    return False


_TOO_DEEP = Problem(
    "",
    f"tables or arrays nest more than {MAX_DEPTH} levels deep",
    "a config nests at most 4 ([leds.zones] lists): remove the extra brackets",
)


def _parse(text: str) -> tuple[dict[str, Any] | None, list[Problem]]:
    """TOML text to a dict, or the one problem that stops it, never an exception: the
    parser's recursion, its integer-length limit and its syntax errors all become sentences."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return None, [Problem("", f"not valid TOML: {exc}", "fix the syntax at that line")]
    except RecursionError:
        return None, [_TOO_DEEP]
    except ValueError as exc:  # "Exceeds the limit (4300 digits) for integer string conversion"
        return None, [
            Problem("", f"a value cannot be read: {str(exc).split(':')[0]}", "shorten it")
        ]
    if _too_deep(raw):
        return None, [_TOO_DEEP]
    return raw, []


def _read(path: Path) -> tuple[dict[str, Any] | None, list[Problem]]:
    # Opened without blocking and checked before reading: opening a FIFO for reading waits
    # for a writer forever, and a device or a folder is no config either (the same refusal
    # for ``run`` as for ``config check``, and no time between the check and the read).
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return None, [
                    Problem(
                        "",
                        f"{path} is not a regular file",
                        "name the config file itself (a pipe, a device or a folder is none)",
                    )
                ]
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return None, [
            Problem(
                "",
                f"cannot read {path}: {exc.strerror or exc}",
                "check the path and that this user may read it",
            )
        ]
    if len(data) > MAX_FILE_BYTES:
        return None, [
            Problem(
                "",
                f"{path} is larger than {MAX_FILE_BYTES // 1024} KiB",
                "a config is a few kilobytes: name the right file (see hw/config.example.toml)",
            )
        ]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [Problem("", f"not UTF-8 text: {exc}", "save the file as UTF-8")]
    return _parse(text)


def from_dict(
    raw: Mapping[str, Any], source: Path | None = None, *, supply: bool = True
) -> tuple[Config, list[Problem]]:
    """Build a config from parsed TOML; returns it (broken keys at defaults) and every problem.

    ``supply=False`` leaves out the supply check, for ``haleakala power``, which explains it.
    """
    if _too_deep(raw):
        return Config(source=source), [_TOO_DEEP]
    problems: list[Problem] = []
    config = replace(_build(raw, problems), source=source)
    problems += _check_meaning(config, supply)
    problems += check_printed_board(config, problems)
    return config, problems


def loads(text: str, source: Path | None = None) -> Config:
    """Parse TOML text; raise ``ConfigError`` listing every error."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise ConfigError(
            [Problem("", f"the text is larger than {MAX_FILE_BYTES // 1024} KiB", "shorten it")],
            source,
        )
    raw, problems = _parse(text)
    if raw is None:
        raise ConfigError(problems, source)
    config, problems = from_dict(raw, source)
    if errors(problems):
        raise ConfigError(errors(problems), source)
    return config


def check_text(text: str) -> list[Problem]:
    """Every problem (errors and warnings) of config text, as ``check`` finds them in a file."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        return [Problem("", f"the text is larger than {MAX_FILE_BYTES // 1024} KiB", "shorten it")]
    raw, problems = _parse(text)
    return problems if raw is None else from_dict(raw)[1]


def check(config_or_path: Config | str | os.PathLike[str]) -> list[Problem]:
    """Every problem (errors and warnings) of a config object or a config file."""
    if isinstance(config_or_path, Config):
        found = _check_meaning(config_or_path)
        return found + check_printed_board(config_or_path, found)
    target = Path(config_or_path)
    raw, problems = _read(target)
    if raw is None:
        return problems
    return from_dict(raw, target)[1]
