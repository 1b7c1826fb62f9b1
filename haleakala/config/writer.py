"""A ``Config`` back to TOML, the effective config ``haleakala config show`` prints."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any

from haleakala.config.schema import _SECTIONS, _TOP_SCALARS, Config


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, Path | str):
        text = str(value)
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def to_toml(config: Config) -> str:
    """The effective config as TOML; ``loads(to_toml(c)) == c``."""
    lines = [f"{k} = {_toml_value(getattr(config, k))}" for k in _TOP_SCALARS]
    for section, cls in _SECTIONS.items():
        part = getattr(config, section)
        lines += ["", f"[{section}]"]
        for f in fields(cls):
            value = getattr(part, f.name)
            if f.name == "zones":
                continue
            text = f"{value:#04x}" if f.name == "address" else _toml_value(value)
            lines.append(f"{f.name} = {text}")
        if section == "leds":
            lines += ["", "[leds.zones]"]
            lines += [f"{z} = {_toml_value(list(i))}" for z, i in config.leds.zones.items()]
    lines += ["", "[tags]"]
    lines += [f'"{uid}" = "{disc.name}"' for uid, disc in config.tags.items()]
    return "\n".join(lines) + "\n"
