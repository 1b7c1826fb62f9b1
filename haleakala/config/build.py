"""Parsed TOML to a ``Config``: every key's type, spelling and size, each mistake a
``Problem`` and a default in its place, so one pass names them all instead of the first."""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from haleakala.config.schema import (
    _SECTIONS,
    _TOP_KEYS,
    MAX_TEXT,
    UID_BYTES,
    Config,
    LedsConfig,
    Problem,
)
from haleakala.config.writer import _toml_value
from haleakala.hal.events import Disc
from haleakala.hal.rfid.protocol import normalise_uid
from haleakala.hal.zones import DEFAULT_ZONES, ZONES

# --------------------------------------------------------------------------- structure


_KIND_WORDS = {
    "int": "an integer",
    "number": "a number",
    "str": "a string",
    "ints": "a list of integers",
    "table": "a table",
    "bool": "true or false",
}


def _kind_of(cls: type, name: str) -> str:
    """The TOML kind a field takes, read from its annotation (strings: postponed annotations)."""
    annotation = str(next(f for f in fields(cls) if f.name == name).type)
    if annotation.startswith("tuple[int"):
        return "ints"
    if annotation.startswith("dict"):
        return "table"
    return {"int": "int", "float": "number", "str": "str", "bool": "bool"}[annotation]


def _type_ok(kind: str, value: Any) -> bool:
    if isinstance(value, bool):
        return kind == "bool"
    if kind == "int":
        return isinstance(value, int)
    if kind == "number":
        return isinstance(value, int | float)
    if kind == "str":
        return isinstance(value, str)
    if kind == "ints":
        return isinstance(value, list) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        )
    if kind == "table":
        return isinstance(value, dict)
    return False


def _describe(value: Any) -> str:
    kind = {
        bool: "boolean",
        int: "integer",
        float: "number",
        str: "string",
        list: "list",
        dict: "table",
    }.get(type(value), type(value).__name__)
    text = repr(value)
    return f"{kind} {text if len(text) <= 40 else text[:37] + '...'}"


def _key_text(key: str) -> str:
    """A key as the user can find it in the file: bare keys as written, anything else quoted,
    escaped and shortened, so that one problem stays one readable line."""
    if key and len(key) <= 40 and all(c.isascii() and (c.isalnum() or c in "_-:") for c in key):
        return key
    text = repr(key)
    return text if len(text) <= 40 else text[:37] + "..."


def _text_problem(key: str, value: str) -> Problem | None:
    """A string the daemon hands to the OS or the screen: no control characters (a NUL in a
    path crashes ``mkdir``), and no novel-length values."""
    for i, ch in enumerate(value):
        if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
            return Problem(
                key,
                f"contains the control character {ch!r} at position {i}",
                "remove it (escapes like \\u0000 or \\n do not belong in this value)",
            )
    if len(value) > MAX_TEXT:
        return Problem(
            key, f"is {len(value)} characters long", f"keep it under {MAX_TEXT} characters"
        )
    return None


def _number_problem(key: str, value: Any, default: Any) -> Problem | None:
    """NaN passes every comparison check unnoticed and infinity never arrives (``hold_ms =
    inf``: undo unreachable); an integer too big for a float crashes ``float()``."""
    try:
        finite = math.isfinite(float(value))
    except OverflowError:
        finite = False
    if not finite:
        shown = value if isinstance(value, float) else _short_int(value)
        return Problem(
            key,
            f"{shown} is not a finite number",
            f"write a plain number such as the default {_toml_value(default)}",
        )
    return None


def _unknown(key: str, known: tuple[str, ...] | list[str], where: str) -> Problem:
    shown = _key_text(key)
    path = f"{where}.{shown}" if where else shown
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    close = close or [k for k in known if k.startswith(key) or key.startswith(k)][:1]
    hint = f"did you mean {close[0]!r}?" if close else f"known keys: {', '.join(known)}"
    return Problem(path, "unknown key", hint)


def _build_section(cls: type, raw: Any, where: str, problems: list[Problem]) -> Any:
    default = cls()
    if not isinstance(raw, dict):
        problems.append(
            Problem(
                where,
                f"expected a table [{where}], got {_describe(raw)}",
                f"write it as a [{where}] section",
            )
        )
        return default
    names = [f.name for f in fields(cls)]
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in names:
            problems.append(_unknown(key, names, where))
            continue
        kind = _kind_of(cls, key)
        if not _type_ok(kind, value):
            problems.append(
                Problem(
                    f"{where}.{key}",
                    f"expected {_KIND_WORDS[kind]}, got {_describe(value)}",
                    f"default is {_toml_value(getattr(default, key))}",
                )
            )
            continue
        bad = (
            _number_problem(f"{where}.{key}", value, getattr(default, key))
            if kind == "number"
            else _text_problem(f"{where}.{key}", value)
            if kind == "str"
            else None
        )
        if bad is not None:
            problems.append(bad)
            continue
        if kind == "ints":
            value = tuple(value)
        if cls is LedsConfig and key == "zones":
            value = _build_zones(value, problems)
        values[key] = value
    return replace(default, **values)


def _build_zones(raw: dict, problems: list[Problem]) -> dict[str, tuple[int, ...]]:
    zones: dict[str, tuple[int, ...]] = {}
    for zone, indices in raw.items():
        if zone not in ZONES:
            problems.append(_unknown(zone, ZONES, "leds.zones"))
            continue
        if not _type_ok("ints", indices):
            problems.append(
                Problem(
                    f"leds.zones.{zone}",
                    f"expected a list of pixel indices, got {_describe(indices)}",
                    f"e.g. {zone} = {list(DEFAULT_ZONES[zone])}",
                )
            )
            continue
        zones[zone] = tuple(indices)
    return zones


def _build_tags(raw: Any, problems: list[Problem]) -> dict[str, Disc]:
    if not isinstance(raw, dict):
        problems.append(
            Problem(
                "tags",
                f"expected a table [tags], got {_describe(raw)}",
                'write lines like "04A1B2C3" = "red3" under [tags]',
            )
        )
        return {}
    tags: dict[str, Disc] = {}
    first_key: dict[str, str] = {}
    disc_key: dict[Disc, str] = {}
    for key, name in raw.items():
        path = f"tags.{_key_text(key)}"
        uid = normalise_uid(key)
        if not uid or len(uid) % 2 or any(c not in "0123456789ABCDEF" for c in uid):
            problems.append(
                Problem(
                    path,
                    f"tag UID {_key_text(key) if len(key) > 38 else repr(key)} is not "
                    "hexadecimal bytes",
                    "copy the UID printed by the enrolment tool, e.g. 04A1B2C3",
                )
            )
            continue
        if not UID_BYTES[0] <= len(uid) // 2 <= UID_BYTES[1]:
            problems.append(
                Problem(
                    path,
                    f"tag UID has {len(uid) // 2} bytes; tags have "
                    f"{UID_BYTES[0]} to {UID_BYTES[1]}",
                    "copy the UID printed by the enrolment tool, e.g. E0040150A1B2C3D4",
                )
            )
            continue
        if not isinstance(name, str):
            problems.append(
                Problem(
                    path,
                    f"expected a disc name, got {_describe(name)}",
                    'write it as "red3" or "yellow*"',
                )
            )
            continue
        try:
            disc: Disc | None = Disc.parse(name)
        except ValueError:
            disc = None
        if disc is None or disc.name != name:
            close = disc.name if disc is not None else name.strip().lower()
            hint = f"write it as {close!r}: " if close != name and _disc_name(close) else ""
            problems.append(
                Problem(
                    path,
                    f"unknown disc name {_describe(name).removeprefix('string ')}",
                    f"{hint}discs are red1..red5, yellow1..yellow5, red* and yellow* (invocation)",
                )
            )
            continue
        if uid in first_key:
            problems.append(
                Problem(
                    path,
                    f"same tag as tags.{first_key[uid]}",
                    "a tag UID may appear once: delete one of them",
                )
            )
            continue
        if disc in disc_key:
            problems.append(
                Problem(
                    path,
                    f"disc {disc.name} is also mapped to tags.{disc_key[disc]}",
                    "each disc has one tag: remove the old line or fix the disc name",
                )
            )
            continue
        first_key[uid] = key
        disc_key[disc] = key
        tags[uid] = disc
    return tags


def _disc_name(text: str) -> bool:
    try:
        return Disc.parse(text).name == text
    except ValueError:
        return False


def _build(raw: Mapping[str, Any], problems: list[Problem]) -> Config:
    config = Config()
    top: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in _TOP_KEYS:
            problems.append(_unknown(key, _TOP_KEYS, ""))
        elif key in _SECTIONS:
            top[key] = _build_section(_SECTIONS[key], value, key, problems)
        elif key == "tags":
            top[key] = _build_tags(value, problems)
        elif not isinstance(value, str):
            problems.append(
                Problem(
                    key,
                    f"expected a string, got {_describe(value)}",
                    f"default is {_toml_value(getattr(config, key))}",
                )
            )
        elif (bad := _text_problem(key, value)) is not None:
            problems.append(bad)
        else:
            top[key] = Path(value) if key == "state_dir" else value
    return replace(config, **top)


def _short_int(value: int) -> str:
    text = str(value)
    return text if len(text) <= 12 else f"{text[:6]}...({len(text)} digits)"
